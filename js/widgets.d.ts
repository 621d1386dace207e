// Types of @parcelgate/js/widgets (hand-written; the elements are in
// src/widgets/). See the README, "Checkout widgets".

import type { Client, Core, FieldError, ShipmentTracking, TokenSource } from './index.js';

/** Properties every widget has. */
export declare class PgElement extends HTMLElement {
  /** The Client used for requests (default: one for the `endpoint` attribute or the page's origin). */
  client: Client;
  /**
   * Scoped token used when no `client` is set, or a function returning one (see ClientOptions.token;
   * never reflected to an attribute).
   */
  token: string | TokenSource;
  /** The core used for validation (default: the shared one, loaded on first use). */
  core: Core | null;
  /** Texts replacing the English defaults, by key. */
  texts: Record<string, string>;
  ensureCore(): Promise<Core>;
}

/** Names of the CSS custom properties the widgets read. */
export declare const THEME_VARIABLES: readonly string[];

/** A party address keyed by the prefixed field names (to_name, to_zip_code, ...). */
export type Address = Record<string, string>;

export declare class PgAddressForm extends PgElement {
  /** `to` (default) or `from`. */
  readonly prefix: 'to' | 'from';
  /** The operation whose rules apply (default new-shipment). */
  readonly operation: string;
  /** The fields, trimmed and normalized by the core; set fills the inputs. */
  value: Address;
  readonly valid: boolean;
  readonly errors: FieldError[];
  /** Shows every error, focuses the first invalid field, returns whether the form is valid. */
  validate(): boolean;
  reset(): void;
}

/** A service as the rate selector emits it. */
export interface RateService {
  carrier_code: string;
  carrier_name: string;
  service_code: string;
  service_name: string;
  service_type: string;
  price: number;
  currency: string;
  is_drop_point: boolean;
  /** YYYY-MM-DD, '' when unknown. */
  estimated_delivery_date: string;
  transit_hours: number | null;
}

export interface Parcel {
  parcel_weight: number | string;
  parcel_width: number | string;
  parcel_height: number | string;
  parcel_length: number | string;
  parcel_volume: number | string;
}

export declare class PgRateSelector extends PgElement {
  parcels: Parcel[];
  /** `carrier_code/service_code` of the selection, '' when none. */
  value: string;
  readonly selected: RateService | null;
  readonly services: RateService[];
  readonly state: 'idle' | 'loading' | 'ready' | 'empty' | 'error';
  readonly shippingDate: string;
  refresh(): void;
}

/** A drop point as the picker emits it. */
export interface DropPoint {
  carrier_code: string;
  drop_point_key: string;
  name: string;
  address: string;
  zip_code: string;
  city: string;
  latitude: number;
  longitude: number;
  time_table: Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', string>;
  phone: string;
  /** Distance from the postal code's approximate location, null when unknown. */
  distance_km: number | null;
}

export declare class PgDropPointPicker extends PgElement {
  /** `drop_point_key` of the selection, '' when none. */
  value: string;
  /** Called with the chosen drop point (as the pg-select event). */
  onPick: ((dropPoint: DropPoint) => void) | null;
  /** The date used for "open today" (default: now). */
  today: Date | null;
  readonly dropPoints: DropPoint[];
  readonly state: 'idle' | 'loading' | 'ready' | 'empty' | 'error';
  refresh(): void;
}

export declare class PgTrackingTimeline extends PgElement {
  /** The last get-shipment-tracking data, null before the first load. */
  readonly tracking: ShipmentTracking | null;
  refresh(): Promise<void>;
}

/** A tracking event as the timeline shows it (newest first). */
export interface TimelineEvent {
  /** Two digits, "01".."30" for the spec's codes. */
  code: string;
  name: string;
  details: string;
  /** YYYY-MM-DD HH:MM:SS, '' when unknown. */
  date: string;
  category: 'pre_transit' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'exception' | 'returned' | 'unknown';
  final: boolean;
}

export interface PgEventMap {
  'pg-change': CustomEvent<{ value: Address; valid: boolean; errors: FieldError[]; field: string | null }>;
  'pg-valid': CustomEvent<{ value: Address }>;
  'pg-select': CustomEvent<{ service?: RateService | null; dropPoint?: DropPoint | null }>;
  'pg-load': CustomEvent<{ services?: RateService[]; dropPoints?: DropPoint[] }>;
  'pg-error': CustomEvent<{ error: Error }>;
  'pg-tracking': CustomEvent<{ tracking: ShipmentTracking; current: TimelineEvent | null; final: boolean; changed: boolean }>;
}

declare global {
  interface HTMLElementTagNameMap {
    'pg-address-form': PgAddressForm;
    'pg-rate-selector': PgRateSelector;
    'pg-drop-point-picker': PgDropPointPicker;
    'pg-tracking-timeline': PgTrackingTimeline;
  }
  interface HTMLElementEventMap extends PgEventMap {}
}
