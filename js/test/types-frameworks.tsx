// Type-checked by `make test-types` (never run): the widgets in React 19 JSX and in Vue's
// GlobalComponents, with @types/react and vue pinned in the repository's package.json. A
// declaration that stops matching this use, or starts accepting what the @ts-expect-error
// lines refuse, fails the check.
import type {} from '../jsx.js';
import type {} from '../vue.js';
import type { GlobalComponents } from 'vue';
import type { JSX } from 'react';
import type { RateService, DropPoint, Parcel } from '../widgets.js';
import { ParcelgateError } from '../index.js';

const parcels: Parcel[] = [{ parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }];

export function Checkout(props: { onService: (s: RateService | null) => void; onPoint: (p: DropPoint | null) => void }): JSX.Element {
  return (
    <form>
      <pg-address-form prefix="to" country="ES" lang="es" onpg-change={(e) => void e.detail.valid} />
      <pg-rate-selector
        from-country="ES" from-zip="28014" to-country="ES" to-zip="08001" filter="home"
        parcels={parcels} texts={{ cheapest: 'Más barato' }} class="rates"
        onpg-select={(e) => props.onService(e.detail.service)}
        onpg-error={(e) => {
          const err: ParcelgateError = e.detail.error;
          void err.category;
        }}
      />
      <pg-drop-point-picker country="ES" zip-code="08001" name="drop_point" required map map-tiles="/tiles/{z}/{x}/{y}.png" map-attribution="© tiles" onpg-select={(e) => props.onPoint(e.detail.dropPoint)} />
      <pg-tracking-timeline reference="SBX1" poll={30} onpg-tracking={(e) => void e.detail.final} />
    </form>
  );
}

export function Refused(): JSX.Element {
  return (
    <div>
      {/* @ts-expect-error filter is 'home' or 'drop-point' */}
      <pg-rate-selector filter="cheap" />
      {/* @ts-expect-error the rate selector's pg-select carries a service, not a drop point */}
      <pg-rate-selector onpg-select={(e) => void e.detail.dropPoint} />
      {/* @ts-expect-error prefix is 'to' or 'from' (TypeScript never checks undeclared dashed names such as onpg-foo) */}
      <pg-address-form prefix="sideways" />
      {/* @ts-expect-error pg-error's detail is a ParcelgateError, whose category is a known string */}
      <pg-drop-point-picker onpg-error={(e) => { const n: number = e.detail.error.category; void n; }} />
      {/* @ts-expect-error required is a boolean */}
      <pg-rate-selector required={1} />
      {/* @ts-expect-error onPick is not a prop: React would take it as a listener of an event "Pick" */}
      <pg-drop-point-picker onPick={(p: unknown) => void p} />
      {/* @ts-expect-error not a widget */}
      <pg-unknown-widget />
    </div>
  );
}

// Vue: the components Volar sees for the tags, their props camelCased as Vue normalizes them.
type RateProps = InstanceType<GlobalComponents['pg-rate-selector']>['$props'];
type PickerProps = InstanceType<GlobalComponents['pg-drop-point-picker']>['$props'];
export const vueRates: RateProps = {
  fromCountry: 'ES', fromZip: '28014', toCountry: 'ES', toZip: '08001', parcels,
  onPgSelect: (e) => void e.detail.service?.price,
  onPgError: (e) => void e.detail.error.fieldErrors,
};
export const vuePicker: PickerProps = { zipCode: '08001', name: 'drop_point', required: true, map: true, mapTiles: '/t/{z}/{x}/{y}.png', onPgSelect: (e) => void e.detail.dropPoint?.distance_km };
// @ts-expect-error filter is 'home' or 'drop-point'
export const vueBadFilter: RateProps = { filter: 'cheap' };
// @ts-expect-error the picker's pg-select carries a dropPoint
export const vueBadEvent: PickerProps = { onPgSelect: (e) => void e.detail.service };
// @ts-expect-error no such element
export type Missing = GlobalComponents['pg-missing'];
