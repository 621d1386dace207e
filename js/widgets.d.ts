// Types of @parcelgate/js/widgets (hand-written; the elements are in
// src/widgets/). See the README, "Checkout widgets".

import type { Client, Core, FieldError, ParcelgateError, ShipmentTracking, TokenSource } from './index.js';

/**
 * An Intl.PluralRules category (as the lib's Intl.LDMLPluralRule, which TypeScript's default lib
 * lacks: spelled out so that a bare tsc --strict compiles these typings).
 */
export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

/** pg-error's detail: what failed (`error.category` `core_unavailable` when the validation module could not be loaded). */
export interface PgErrorDetail {
  error: ParcelgateError;
}

/** Properties every widget has. */
export declare class PgElement extends HTMLElement {
  /** The Client used for requests (default: one for the `endpoint` attribute or the page's origin). */
  client: Client;
  /**
   * The `endpoint` attribute: the edge worker's URL ('' for the page's origin). Every attribute is
   * also a property (dashed names camelCased: `from-zip` is fromZip) reflected to the attribute as
   * built-in elements do, so frameworks that set props as properties (React 19, Vue) work.
   */
  endpoint: string;
  /**
   * Scoped token used when no `client` is set, or a function returning one (see ClientOptions.token;
   * never reflected to an attribute).
   */
  token: string | TokenSource;
  /** The core used for validation (default: the shared one, loaded on first use). */
  core: Core | null;
  /**
   * The texts in the widget's language by short key (without the part); set to replace any of
   * them in every language. A plural text is a string or an object per Intl.PluralRules category.
   */
  texts: Record<string, string | Partial<Record<PluralCategory, string>>>;
  /** The language tag in use: the element's `lang`, else the nearest ancestor's, else the document's. */
  readonly locale: string;
  /** The table's language for it: "en", "es", "pt", "fr", "de", "it" or "nl" (English for any other). */
  readonly language: string;
  ensureCore(): Promise<Core>;
}

/** The languages of the widgets' texts. */
export declare const LANGUAGES: readonly string[];

/**
 * Replaces texts of every widget of the page in one language, by full key ("rates.cheapest");
 * a widget's own `texts` property wins over these.
 */
export declare function setTexts(lang: string, texts: Record<string, string | Partial<Record<PluralCategory, string>>>): void;

/** Names of the CSS custom properties the widgets read. */
export declare const THEME_VARIABLES: readonly string[];

/** A party address keyed by the prefixed field names (to_name, to_zip_code, ...). */
export type Address = Record<string, string>;

/** The events <pg-address-form> fires. */
export interface PgAddressFormEventMap extends HTMLElementEventMap {
  'pg-change': CustomEvent<{ value: Address; valid: boolean; errors: FieldError[]; field: string | null }>;
  'pg-valid': CustomEvent<{ value: Address }>;
  'pg-error': CustomEvent<PgErrorDetail>;
}

/**
 * The form-control members of the widgets that take input
 * (form-associated custom elements, ElementInternals).
 */
export interface PgFormControl {
  /** The form the element belongs to, or null. */
  readonly form: HTMLFormElement | null;
  readonly validity: ValidityState | undefined;
  /** The message the browser shows for an invalid value ('' when valid). */
  readonly validationMessage: string;
  readonly willValidate: boolean;
  checkValidity(): boolean;
  reportValidity(): boolean;
}

/** A widget that submits one choice under its `name`. */
export interface PgChoiceControl extends PgFormControl {
  /** The name the choice is submitted under (the `name` attribute). */
  name: string;
  /** Whether a choice is needed to submit the form (the `required` attribute). */
  required: boolean;
}

export declare class PgAddressForm extends PgElement {
  addEventListener<K extends keyof PgAddressFormEventMap>(type: K, listener: (this: PgAddressForm, ev: PgAddressFormEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PgAddressFormEventMap>(type: K, listener: (this: PgAddressForm, ev: PgAddressFormEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  /** `to` (default) or `from` (the `prefix` attribute). */
  prefix: 'to' | 'from';
  /** The operation whose rules apply (the `operation` attribute, default new-shipment). */
  operation: string;
  /** The default country (the `country` attribute, ISO code; '' for ES). */
  country: string;
  /** The fields shown (the `fields` attribute, space-separated; '' for the default set). */
  fields: string;
  /** The fields, trimmed and normalized by the core; set fills the inputs. */
  value: Address;
  readonly valid: boolean;
  readonly errors: FieldError[];
  /** Shows every error, focuses the first invalid field, returns whether the form is valid. */
  validate(): boolean;
  reset(): void;
}
export interface PgAddressForm extends PgFormControl {}

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
  /** The edge's signed offer of this service at this price ('' when the edge signs none): pass it to
   *  the shop's server, which verifies it (verifyOffer) and binds the booking grant to it. */
  offer: string;
}

/**
 * pg-change's detail of <pg-rate-selector>: the chosen service's key, offer, price and currency
 * (what a form submits and what a framework binds). Emitted on every choice, on a clear (value
 * and offer '', price null), and when a fresh quote renews the offer or changes the price.
 */
export interface RateChange {
  /** `carrier_code/service_code`, '' when the choice was cleared. */
  value: string;
  /** The chosen service's signed offer ('' when none): what the form submits under the name. */
  offer: string;
  /** The price shown, null when none. */
  price: number | null;
  /** The price's currency ('' when none). */
  currency: string;
}

export interface Parcel {
  parcel_weight: number | string;
  parcel_width: number | string;
  parcel_height: number | string;
  parcel_length: number | string;
  parcel_volume: number | string;
}

/** The events <pg-rate-selector> fires. */
export interface PgRateSelectorEventMap extends HTMLElementEventMap {
  'pg-select': CustomEvent<{ service: RateService | null }>;
  'pg-change': CustomEvent<RateChange>;
  'pg-load': CustomEvent<{ services: RateService[] }>;
  'pg-error': CustomEvent<PgErrorDetail>;
}

export declare class PgRateSelector extends PgElement {
  addEventListener<K extends keyof PgRateSelectorEventMap>(type: K, listener: (this: PgRateSelector, ev: PgRateSelectorEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PgRateSelectorEventMap>(type: K, listener: (this: PgRateSelector, ev: PgRateSelectorEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  /** The parcels, null when none; set an array or the `parcels` attribute's JSON. */
  get parcels(): Parcel[] | null;
  set parcels(list: Parcel[] | string | null);
  /** The `from-country` attribute. */
  fromCountry: string;
  /** The `from-zip` attribute. */
  fromZip: string;
  /** The `to-country` attribute. */
  toCountry: string;
  /** The `to-zip` attribute. */
  toZip: string;
  /** The `carrier` attribute: only this carrier's services ('' for all). */
  carrier: string;
  /** The `filter` attribute: 'home', 'drop-point' or '' (both). */
  filter: string;
  /** `carrier_code/service_code` of the selection, '' when none. A form submits the chosen
   *  service's offer under the element's name and this key under `${name}_key` (the key under the
   *  name only when the edge signs no offers). */
  value: string;
  /** The chosen service's signed offer, '' when none: the form's value. */
  readonly offer: string;
  readonly selected: RateService | null;
  readonly services: RateService[];
  readonly state: 'idle' | 'loading' | 'ready' | 'empty' | 'error';
  /** The dispatch date: the `shipping-date` attribute (YYYY-MM-DD), else the next working day. */
  shippingDate: string;
  /** The cart's value (`order-value`), sent as order_value for the edge's pricing rules; '' for none. */
  orderValue: string;
  refresh(): void;
}
export interface PgRateSelector extends PgChoiceControl {}

/** A drop point as the picker emits it. */
export interface DropPoint {
  carrier_code: string;
  drop_point_key: string;
  name: string;
  address: string;
  zip_code: string;
  city: string;
  /** null when the edge gave none (the point is listed, not put on the map). */
  latitude: number | null;
  longitude: number | null;
  time_table: Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', string>;
  phone: string;
  /** Distance from the postal code's approximate location, null when unknown. */
  distance_km: number | null;
  /** The edge's signed point ('' when the edge signs none): the booking's `point`. */
  point: string;
}

/** The events <pg-drop-point-picker> fires. */
export interface PgDropPointPickerEventMap extends HTMLElementEventMap {
  'pg-select': CustomEvent<{ dropPoint: DropPoint | null }>;
  'pg-load': CustomEvent<{ dropPoints: DropPoint[] }>;
  'pg-error': CustomEvent<PgErrorDetail>;
}

export declare class PgDropPointPicker extends PgElement {
  addEventListener<K extends keyof PgDropPointPickerEventMap>(type: K, listener: (this: PgDropPointPicker, ev: PgDropPointPickerEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PgDropPointPickerEventMap>(type: K, listener: (this: PgDropPointPicker, ev: PgDropPointPickerEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  /** `drop_point_key` of the selection, '' when none. A form submits the chosen point's signed
   *  point under the element's name and this key under `${name}_key` (the key under the name only
   *  when the edge signs no points). */
  value: string;
  /** The chosen drop point's signed point, '' when none: the form's value. */
  readonly point: string;
  /**
   * The chosen service's offer the point must go with; set by the form's <pg-rate-selector> on
   * its pg-change, or by the page. With a drop-point offer only its carrier's points are listed,
   * and a point of another carrier or listed near another place is cleared, saying why.
   */
  offer: string;
  /** Called with the chosen drop point (as the pg-select event). */
  onPick: ((dropPoint: DropPoint) => void) | null;
  /** The date used for "open today" (default: now). */
  today: Date | null;
  /** The `country` attribute. */
  country: string;
  /** The `zip-code` attribute. */
  zipCode: string;
  /** The `carrier` attribute: only this carrier's drop points ('' for all). */
  carrier: string;
  /** The `map` attribute: a map beside the list. */
  map: boolean;
  /** The `map-tiles` attribute. */
  mapTiles: string;
  /** The `map-attribution` attribute. */
  mapAttribution: string;
  /** The `map-css` attribute. */
  mapCss: string;
  readonly dropPoints: DropPoint[];
  readonly state: 'idle' | 'loading' | 'ready' | 'empty' | 'error';
  refresh(): void;
  /**
   * Leaflet for the map (with the `map` attribute): the namespace, a function returning it or a
   * promise of it (`() => import('leaflet')`), or the URL of its dist/leaflet.js or an ES module
   * build. Default: the `map-library` attribute, else `window.L`.
   */
  mapLibrary: object | string | URL | (() => unknown) | null;
  /** '' (no map), 'loading', 'ready' or 'failed'. */
  readonly mapState: '' | 'loading' | 'ready' | 'failed';
}
export interface PgDropPointPicker extends PgChoiceControl {}

/** The events <pg-tracking-timeline> fires. */
export interface PgTrackingTimelineEventMap extends HTMLElementEventMap {
  'pg-tracking': CustomEvent<{ tracking: ShipmentTracking; current: TimelineEvent | null; final: boolean; changed: boolean }>;
  'pg-error': CustomEvent<PgErrorDetail>;
}

export declare class PgTrackingTimeline extends PgElement {
  addEventListener<K extends keyof PgTrackingTimelineEventMap>(type: K, listener: (this: PgTrackingTimeline, ev: PgTrackingTimelineEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PgTrackingTimelineEventMap>(type: K, listener: (this: PgTrackingTimeline, ev: PgTrackingTimelineEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  /** The last get-shipment-tracking data, null before the first load. */
  readonly tracking: ShipmentTracking | null;
  /** The `reference` attribute. */
  reference: string;
  /** The `client-ref` attribute. */
  clientRef: string;
  /** The `poll` attribute: seconds between refreshes ('' for none). */
  get poll(): string;
  set poll(seconds: number | string | null);
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

/**
 * Every pg-* event of every widget, for listeners on an ancestor (the events
 * bubble and are composed). Each element's own map (PgRateSelectorEventMap,
 * ...) is exact; these are not added to HTMLElementEventMap.
 */
export interface PgEventMap {
  'pg-change': PgAddressFormEventMap['pg-change'];
  'pg-valid': PgAddressFormEventMap['pg-valid'];
  'pg-select': CustomEvent<{ service?: RateService | null; dropPoint?: DropPoint | null }>;
  'pg-load': CustomEvent<{ services?: RateService[]; dropPoints?: DropPoint[] }>;
  'pg-error': CustomEvent<PgErrorDetail>;
  'pg-tracking': PgTrackingTimelineEventMap['pg-tracking'];
}

declare global {
  interface HTMLElementTagNameMap {
    'pg-address-form': PgAddressForm;
    'pg-rate-selector': PgRateSelector;
    'pg-drop-point-picker': PgDropPointPicker;
    'pg-tracking-timeline': PgTrackingTimeline;
  }
}

/**
 * The attributes of each element (what HTML, JSX and Vue templates may set), for the
 * framework typings (@parcelgate/js/jsx, @parcelgate/js/vue). Each is also a property of the
 * element (camelCased), which React 19 and Vue set. Properties that take objects (parcels,
 * client, token, core, texts, today) are set as properties; onPick is not a framework prop
 * (React and Vue take on* props as event listeners): listen to pg-select.
 */
export interface PgCommonAttributes {
  /** The edge worker's URL (default: the page's origin). */
  endpoint?: string;
  lang?: string;
}

export interface PgAddressFormAttributes extends PgCommonAttributes {
  prefix?: 'to' | 'from';
  /** The operation whose rules apply (default new-shipment). */
  operation?: string;
  /** The default country (ISO code, default ES). */
  country?: string;
  /** Space-separated fields to show (default: name address city zip_code country_code phone email). */
  fields?: string;
}

/** The form attributes of the widgets that submit one choice. */
export interface PgChoiceAttributes {
  /** The name the choice is submitted under. */
  name?: string;
  /** A choice is needed to submit the form. */
  required?: boolean;
}

export interface PgRateSelectorAttributes extends PgCommonAttributes, PgChoiceAttributes {
  'from-country'?: string;
  'from-zip'?: string;
  'to-country'?: string;
  'to-zip'?: string;
  /** YYYY-MM-DD. */
  'shipping-date'?: string;
  /** The cart's value ("59.90"): the edge's pricing rules (free shipping from an order value) apply to it. */
  'order-value'?: string;
  carrier?: string;
  filter?: 'home' | 'drop-point';
  value?: string;
  /** The parcels as JSON (or set the parcels property). */
  parcels?: string | Parcel[];
}

export interface PgDropPointPickerAttributes extends PgCommonAttributes, PgChoiceAttributes {
  country?: string;
  'zip-code'?: string;
  carrier?: string;
  value?: string;
  /** Show the map beside the list (lazily loaded; needs map-tiles and map-attribution). */
  map?: boolean;
  /** The tile URL template ({z}/{x}/{y}). */
  'map-tiles'?: string;
  /** The tile provider's attribution (HTML). */
  'map-attribution'?: string;
  /** The URL of Leaflet's dist/leaflet.js or an ES module build (or set the mapLibrary property). */
  'map-library'?: string;
  /** The URL of Leaflet's CSS. */
  'map-css'?: string;
}

export interface PgTrackingTimelineAttributes extends PgCommonAttributes {
  reference?: string;
  'client-ref'?: string;
  /** Seconds between refreshes (at least 2) until a final state. */
  poll?: number | string;
}

/** Each element: its class, its attributes and its event map (for the framework typings). */
export interface PgElements {
  'pg-address-form': { element: PgAddressForm; attributes: PgAddressFormAttributes; events: PgAddressFormEventMap };
  'pg-rate-selector': { element: PgRateSelector; attributes: PgRateSelectorAttributes; events: PgRateSelectorEventMap };
  'pg-drop-point-picker': { element: PgDropPointPicker; attributes: PgDropPointPickerAttributes; events: PgDropPointPickerEventMap };
  'pg-tracking-timeline': { element: PgTrackingTimeline; attributes: PgTrackingTimelineAttributes; events: PgTrackingTimelineEventMap };
}

/** The pg-* events of an event map (not the HTMLElement ones). */
export type PgOwnEvents<M> = { [K in keyof M as K extends `pg-${string}` ? K : never]: M[K] };
