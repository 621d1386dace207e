// Type-checked by `make test-types` (never run): the declarations used as
// a shop would use them. A declaration that stops matching this use fails
// the check.
import {
  Client, load, ParcelgateError, OPERATIONS, mintToken, type MintedToken, verifyOffer, type OfferSource, verifyWebhook, WebhookError, type WebhookErrorCode,
  type TrackingWebhookEvent,
  type Carriers, type Rates, type Shipment, type ShipmentTracking, type OperationResults, type DecodeResult,
} from '../index.js';
import type { PgRateSelector, PgDropPointPicker, PgEventMap } from '../widgets.js';

export async function shop(): Promise<void> {
  const core = await load();
  const client = new Client({ baseUrl: 'https://ship.example.com', core });

  const carriers: Carriers = await client.getClientCarriers();
  const active: number = Object.values(carriers).filter((c) => c.status === 1).length;

  const rates: Rates = await client.getShipmentsRates({
    from_country_code: 'ES', from_zip_code: '28014', to_country_code: 'ES', to_zip_code: '08001',
    parcels: [{ parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }],
  });
  const cheapest: number | undefined = rates.best_price_service?.price;
  // Unknown members of rate entries reach the shop unchanged.
  const extra: unknown = rates.services[0]?.co2_grams;

  const shipment: Shipment = await client.getShipment({ dlvr_ref: 'DLV1' });
  const city: string = shipment.to_data.to_city;
  const returned: boolean = shipment.shipping_data.is_returned;
  const delivered: string | null = shipment.shipping_data.delivery_date;

  const tracking: ShipmentTracking = await client.call('get-shipment-tracking', { dlvr_ref: 'DLV1' });
  const newest: string | undefined = tracking.tracking_history[0]?.tracking_category;

  for await (const s of client.shipments({ page: 1 })) {
    const ref: string = s.shipping_data.shipping_dlvr_ref;
    void ref;
  }
  const label = await client.label({ dlvr_ref: 'DLV1' });
  const pdf: Uint8Array = label.bytes;
  const guid: string = label.data.shipping_carrier_guid;

  const decoded: DecodeResult<'get-drop-points'> = core.decode('get-drop-points', 200, '{}');
  if (decoded.ok) {
    const lat: number | null = decoded.data.drop_points[0]?.latitude ?? null;
    void lat;
  } else {
    const kind: 'api' | 'unexpected' | 'shape' = decoded.error.type;
    void kind;
  }
  const names: string[] = OPERATIONS.map((op) => op.method);
  const byName: OperationResults['new-shipment']['shipping_dlvr_ref'] = '';

  try {
    await client.newShipment({} as never);
  } catch (err) {
    if (err instanceof ParcelgateError) {
      const code: number = err.code;
      const fields: string[] = err.fieldErrors.map((f) => f.field);
      void code, fields;
    }
  }

  const selector = document.querySelector('pg-rate-selector') as PgRateSelector;
  selector.addEventListener('pg-select', (ev: PgEventMap['pg-select']) => {
    const code: string | undefined = ev.detail.service?.service_code;
    void code;
  });
  // Form-associated: name, required, validity; the picker's map.
  selector.required = true;
  const missing: boolean | undefined = selector.validity?.valueMissing;
  const form: HTMLFormElement | null = selector.form;
  const ok: boolean = selector.checkValidity() && selector.reportValidity();
  const chooser = document.querySelector('pg-drop-point-picker') as PgDropPointPicker;
  chooser.name = 'drop_point';
  chooser.mapLibrary = () => import('leaflet' as string);
  chooser.mapLibrary = '/vendor/leaflet.js';
  const mapState: '' | 'loading' | 'ready' | 'failed' = chooser.mapState;
  // Issue 30: the offer and the signed point are the form's values; pg-change carries the price.
  const offer: string = selector.offer;
  const point: string = chooser.point;
  chooser.offer = offer;
  selector.addEventListener('pg-change', (ev) => {
    const price: number | null = ev.detail.price;
    const signed: string = ev.detail.offer;
    void price, signed, ev.detail.currency;
  });
  // @ts-expect-error the offer is the edge's, read only
  selector.offer = '';
  void missing, form, ok, mapState, point;
  document.querySelector('pg-tracking-timeline')?.addEventListener('pg-tracking', (ev) => {
    const final: boolean = ev.detail.final;
    const ref: string = ev.detail.tracking.shipping_dlvr_ref;
    void final, ref;
  });
  // Events are declared on the elements that fire them, with typed details.
  const picker = document.createElement('pg-drop-point-picker');
  picker.addEventListener('pg-error', (ev) => {
    const e: ParcelgateError = ev.detail.error;
    void e.category;
  });
  picker.addEventListener('pg-select', (ev) => {
    void ev.detail.dropPoint?.drop_point_key;
    // @ts-expect-error the picker's pg-select carries a dropPoint, not a service
    void ev.detail.service;
  });
  document.body.addEventListener('pg-select', (ev) => {
    // @ts-expect-error a body fires no pg-select: the pg-* events are not in every element's map
    void ev.detail;
  });
  void active, cheapest, extra, city, returned, delivered, newest, pdf, guid, names, byName;
}

// The shop's server checks an offer's price, cart value and source (issue 31).
export async function offerFacts(key: string, offer: string, cartValue: string): Promise<boolean> {
  const o = await verifyOffer(key, offer);
  const source: OfferSource = o.source;
  const value: string | undefined = o.orderValue;
  // @ts-expect-error a source the edge never signs
  const wrong: OfferSource = 'cached';
  void wrong;
  return source !== 'fallback' && (value === undefined || value === cartValue) && o.price === '0';
}

// The shop's server mints a token per order; the page's Client fetches it.
export async function tokens(key: string): Promise<void> {
  const minted: MintedToken = await mintToken(key, { operations: ['new-shipment', 'get-shipment-tracking'], shippingClientRef: 'ORDER-1' }, { ttl: 1800 });
  const seconds: number = minted.expiresIn;
  await mintToken(new Uint8Array(32), { operations: 'get-shipment', dlvrRef: 'D1' }, { now: new Date() });
  await mintToken(key, { operations: ['new-collection'], dlvrRef: 'D1', collectionClientRef: 'PICKUP-1' }, { ttl: 7200 });
  const fixed = new Client({ baseUrl: 'https://ship.example.com', token: minted.token });
  const fetched = new Client({
    baseUrl: 'https://ship.example.com',
    token: async () => (await (await fetch('/checkout/parcel-token')).json()).token as string,
  });
  fixed.token = async () => minted; // the whole {token, expiresAt} answer
  const cached: string = fetched.token;
  void [seconds, fixed, fetched, cached];
}

// The shop's webhook receiver verifies the raw body before parsing it.
export async function webhook(raw: Uint8Array, header: string | undefined, secret: string): Promise<string> {
  try {
    const ok: true = await verifyWebhook(raw, header, secret, { toleranceSeconds: 600, now: new Date() });
    void ok;
    const event = JSON.parse(new TextDecoder().decode(raw)) as TrackingWebhookEvent;
    const last: boolean = event.data.final && event.type === 'shipment.tracking_updated';
    const category: TrackingWebhookEvent['data']['category'] = event.data.category;
    void [last, category, event.id, event.data.previous_code];
    await verifyWebhook(new TextDecoder().decode(raw), header, new Uint8Array(32));
    return 'ok';
  } catch (err) {
    if (err instanceof WebhookError) {
      const code: WebhookErrorCode = err.code;
      return code;
    }
    throw err;
  }
}
