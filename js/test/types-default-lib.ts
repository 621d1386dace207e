// Type-checked by `make test-types` with TypeScript's defaults (js/test/tsconfig.default-lib.json:
// strict, no target, no lib, no @types): what a shop gets from a bare `tsc --strict`. The
// package's declarations must compile there, so they use nothing beyond the default lib unless
// they reference the lib themselves (index.d.ts: es2018.asynciterable, for Client.shipments()).
// No async functions here: the default target (ES5) has no Promise constructor.
import { Client, load, ParcelgateError, OPERATIONS, type Core, type Shipment } from '../index.js';
import type { PgRateSelector, PgAddressForm, PgDropPointPicker, PgTrackingTimeline, PluralCategory } from '../widgets.js';
import type { PgRateSelector as OneRateSelector } from '../types/widgets/rate-selector.js';
import type { PgAddressForm as OneAddressForm } from '../types/widgets/address-form.js';
import type { PgDropPointPicker as OnePicker } from '../types/widgets/drop-point-picker.js';
import type { PgTrackingTimeline as OneTimeline } from '../types/widgets/tracking-timeline.js';
import type { mintToken } from '../types/tokens.js';
import type { verifyWebhook } from '../types/webhooks.js';

export function shop(rates: PgRateSelector, form: PgAddressForm, picker: PgDropPointPicker, timeline: PgTrackingTimeline): Promise<string> {
  const client = new Client({ baseUrl: 'https://ship.example.com' });
  const plural: Partial<Record<PluralCategory, string>> = { one: '{count} día', other: '{count} días' };
  rates.texts = { days: plural };
  form.prefix = 'from';
  picker.zipCode = '08001';
  timeline.poll = 30;
  const first: Promise<IteratorResult<Shipment>> = client.shipments({}).next();
  return load().then((core: Core) => {
    void first;
    void OPERATIONS.length;
    return core ? rates.value : new ParcelgateError('no core').message;
  });
}

export type Subpaths = [OneRateSelector, OneAddressForm, OnePicker, OneTimeline, typeof mintToken, typeof verifyWebhook];
