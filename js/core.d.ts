// Hand-written declarations of @parcelgate/js (the API of src/*.js). The
// types generated from the operation catalog (parameters, the Client's
// methods) are in index.d.ts, the result types generated from
// internal/envelope in results.d.ts; index.d.ts re-exports this file.

import type { OperationName, OperationParams } from './index.js';
import type { FieldError, OperationResults, ShipmentLabel } from './results.js';

/** A request as the core takes it: fields as an object or [name, value] pairs, plus parcels. */
export interface RequestObject {
  fields?: Record<string, string | number | boolean | null | undefined> | Array<[string, string | number | boolean | null | undefined]>;
  parcels?: Array<Partial<Record<string, string | number | null | undefined>>>;
}

/** A request: {fields, parcels} or flat ({name: value, ..., parcels}). */
export type RequestInput = RequestObject | Record<string, unknown>;

/** Validation options. */
export interface ValidateOptions {
  /** The client has the carrier-selection rules feature enabled. */
  rules?: boolean;
  /** "YYYY-MM-DD", a Date, or true for the local date today: booking dates before it are invalid. */
  today?: string | Date | boolean;
  /**
   * Language of the messages: a tag such as "es" or "pt-PT" (only the language counts). en, es, pt,
   * fr, de, it and nl; English otherwise. Field names and codes are the same in every language.
   */
  locale?: string;
}

/** The result of a postal-code check. */
export interface PostalResult {
  valid: boolean;
  /** The code as it is sent upstream ("1012 ab" -> "1012-AB"); "" when invalid. */
  normalized: string;
  /** Spanish province number 1-52; 0 otherwise. */
  province: number;
  /** Spanish zone: "peninsular", "balearic", "canary", "ceuta", "melilla"; "" otherwise. */
  zone: string;
  /** Why the code is invalid; "" when valid. */
  message: string;
}

/** A point in decimal degrees (numeric strings are accepted, as the edge sends coordinates without a core). */
export interface GeoPoint {
  lat: number | string;
  lon: number | string;
}

/**
 * The approximate location of a postal code (core.locate): the capital of
 * the Spanish province ("province") or of a small country such as Andorra,
 * Luxembourg or Malta ("country").
 */
export interface Located {
  city: string;
  lat: number;
  lon: number;
  precision: "province" | "country";
}

/** A tracking code of the spec's Events table. */
export interface TrackingInfo {
  code: string;
  meaning: string;
  label: string;
  category: "pre_transit" | "in_transit" | "out_for_delivery" | "delivered" | "exception" | "returned";
  final: boolean;
}

/** A decoding failure: type "api" (status err), "unexpected" (not an envelope) or "shape" (data of the wrong shape). */
export interface DecodeError {
  type: "api" | "unexpected" | "shape";
  class: string;
  message: string;
  description: string;
  http_status: number;
  code?: number;
  meaning?: string;
  carrier_code?: string;
  carrier_message?: string;
  reason?: string;
  snippet?: string;
  path?: string;
  operation?: string;
}

/** The result of decode(): the operation's data, or why there is none. */
export type DecodeResult<K extends OperationName = OperationName> =
  | { ok: true; data: OperationResults[K] }
  | { ok: false; error: DecodeError };

/** The operation catalog (the JSON form of internal/catalog). */
export interface Catalog {
  version: string;
  max_parcels: number;
  operations: Array<{
    name: OperationName;
    doc: string;
    methods: string[];
    read: boolean;
    books: boolean;
    extra_fields: boolean;
    params: CatalogParam[];
    parcels?: string;
    parcel_params?: CatalogParam[];
    rules: Array<{ kind: string; fields: string[]; code: number; doc: string }>;
  }>;
}

/** One parameter in the catalog. */
export interface CatalogParam {
  name: string;
  kind: string;
  type: "string" | "number" | "integer";
  need: "optional" | "required" | "required_unless_rules";
  code: number;
  max_length?: number;
  country_field?: string;
  default?: number;
  maximum?: number;
  doc: string;
}

/** The WebAssembly core: the edge's own validation, postal codes, form encoding and response decoding. */
export interface Core {
  readonly version: string;
  validate<K extends OperationName>(operation: K, request: OperationParams[K] | RequestInput, options?: ValidateOptions): FieldError[];
  validateField<K extends OperationName>(operation: K, request: OperationParams[K] | RequestInput, field: string, options?: ValidateOptions): FieldError[];
  postal(country: string, input: string, options?: { locale?: string }): PostalResult;
  /** Approximate location of a valid postal code; null when unknown (outside Spain and a few small countries, or an invalid code). */
  locate(country: string, zip: string): Located | null;
  encode<K extends OperationName>(operation: K, request: OperationParams[K] | RequestInput): string;
  /** The form body of a request exactly as held: no operation, no normalization, the given order. */
  encodeForm(request: RequestInput): string;
  /** Needs the decoder module: await loadDecoder() first (the Client does); throws otherwise. */
  decode<K extends OperationName>(operation: K, httpStatus: number, body: string): DecodeResult<K>;
  /** Fetches and instantiates the response decoder once (a second module, not needed to validate). */
  loadDecoder(): Promise<void>;
  /** Whether decode() can run. */
  readonly decoderLoaded: boolean;
  describeTracking(code: string | number): TrackingInfo | null;
  catalog(): Catalog;
}

/** Where the .wasm comes from: a URL (http(s), file: or a path in Node), bytes, a Response or a compiled module. */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | Response | WebAssembly.Module;

/** Options of load(). */
export interface LoadOptions {
  /** The validation module. Default: the parcelgate.wasm shipped next to the package (dist/). */
  wasm?: WasmSource;
  /** The response decoder, loaded on first use. Default: dist/parcelgate-decoder.wasm. */
  decoder?: WasmSource;
  /** The instance is replaced after this many bytes of wasm memory (default 16 MiB). */
  maxMemory?: number;
}

/** Loads the WebAssembly core (once per wasm source; the default is shared). */
export function load(options?: LoadOptions): Promise<Core>;

/**
 * Where the shared core (load() without options, the Client's and the widgets' default)
 * comes from: call it before anything loads it, e.g. in a module imported before the
 * widgets' define module. Needed with esbuild, which leaves
 * `new URL('../dist/parcelgate.wasm', import.meta.url)` unresolved (README, "Bundlers").
 * Throws once the shared core is loading or loaded.
 */
export function configure(options: LoadOptions): void;

/** The core loaded by load() without options, or null while it is not loaded. */
export function loaded(): Core | null;

/** Local date today as "YYYY-MM-DD". */
export function today(date?: Date): string;

/** Great-circle distance in km between two points (haversine); NaN when a coordinate is missing. */
export function distanceKm(a: GeoPoint, b: GeoPoint): number;

/** The category of a ParcelgateError. */
export type ErrorCategory =
  | "validation"
  | "carrier_rejected"
  | "carrier_communication"
  | "unexpected"
  | "unknown"
  | "unauthorized"
  | "rate_limited"
  | "configuration"
  | "upstream_unavailable"
  /** The edge's 425 (code 1425): an earlier attempt's answer was lost, the booking may exist and nothing was sent; resend the same request after its Retry-After (the message says when). */
  | "booking_unconfirmed"
  | "unexpected_response"
  | "network"
  | "timeout"
  | "aborted"
  /** The widgets only: the validation module could not be loaded (nothing was sent). */
  | "core_unavailable";

/** Every failure of the Client. */
export class ParcelgateError extends Error {
  /** The Client makes these; a page or a test may too (category "unknown" unless info says). */
  constructor(
    message: string,
    info?: {
      code?: number;
      category?: ErrorCategory;
      fieldErrors?: FieldError[];
      status?: number;
      operation?: string;
      carrierCode?: string;
      carrierMessage?: string;
      details?: unknown;
      cause?: unknown;
      retryAfter?: number;
    },
  );
  readonly name: "ParcelgateError";
  /** The spec's error code (errorCode, or the first field error's code); 0 when there is none. */
  readonly code: number;
  readonly category: ErrorCategory;
  /** Same as category. */
  readonly class: ErrorCategory;
  /** Invalid fields (client-side validation or the edge's HTTP 400). */
  readonly fieldErrors: FieldError[];
  /** HTTP status; 0 when no response was received. */
  readonly status: number;
  readonly operation: string;
  readonly carrierCode: string;
  readonly carrierMessage: string;
  /** The decoded error details, when there were any. */
  readonly details: unknown;
  /** Seconds the edge asked to wait before trying again (Retry-After, e.g. on rate_limited); 0 when it did not say. */
  readonly retryAfter: number;
}

/** Options of the Client. */
export interface ClientOptions {
  /** The edge worker, e.g. "https://ship.example.com" ("/v1" is appended unless the URL ends with it). */
  baseUrl: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Milliseconds before a request is aborted (default 30000; 0 = none). */
  timeout?: number;
  /** Aborts every request of this client. */
  signal?: AbortSignal;
  /**
   * Scoped token for private operations (sent as Authorization: Bearer <token>), or a function
   * that fetches one from the shop's server: called when none is cached, and once more when the
   * edge refuses the cached one with 401. Never the master PROXY_TOKEN in a page.
   */
  token?: string | TokenSource;
  /** The core to validate and decode with; default: the one load() loaded, when loaded. */
  core?: Core | null;
  /** Validate before sending when a core is available (default true). */
  validate?: boolean;
  /** Validation options (rules feature; today). */
  validateOptions?: ValidateOptions;
  /** fetch implementation (default globalThis.fetch). */
  fetch?: typeof fetch;
}

/** Returns a scoped token (e.g. fetched from the shop's server); see ClientOptions.token. */
export type TokenSource = () => TokenAnswer | Promise<TokenAnswer>;

/** A token, or what mintToken / POST /tokens answer (expiresAt lets the Client refresh before expiry). */
export type TokenAnswer = string | { token: string; expiresAt?: string; expires_at?: string };

/** What mintToken grants (the fields of POST /tokens). */
export interface TokenGrant {
  /** Private operations allowed (get-shipments never is); an array, or the comma-separated POST /tokens form. */
  operations: readonly string[] | string;
  /** Binds new-shipment (and tracking by client_ref) to this reference (at most 15 characters); required with new-shipment. */
  shippingClientRef?: string;
  /** Binds get-shipment, get-shipment-label, get-shipment-tracking and new-collection to this shipment; required with new-collection. */
  dlvrRef?: string;
  /** Binds new-collection to this pickup reference (at most 15 characters): one token books one pickup; required with new-collection. */
  collectionClientRef?: string;
  /** Binds new-shipment to this offer (a service's `offer` in a get-shipments-rates answer through the
   *  edge; check it with verifyOffer first): the booking must carry it and book exactly its carrier,
   *  service, route and parcels. The edge refuses an unbound new-shipment grant by default. */
  offer?: string;
}

/** Options of mintToken. */
export interface MintOptions {
  /** Lifetime in seconds, 1..2592000, at most 7200 when the grant books (default 900). */
  ttl?: number;
  /** Mint time in ms since the epoch, or a Date (default now). */
  now?: number | Date;
}

/** A minted scoped token (the data of POST /tokens). */
export interface MintedToken {
  token: string;
  /** RFC 3339, UTC, whole seconds. */
  expiresAt: string;
  /** Seconds from now to expiresAt. */
  expiresIn: number;
  /** The granted operations in catalog order. */
  operations: string[];
}

/**
 * Mints a scoped token on the shop's server (Node 20+ or any WebCrypto runtime): byte for byte
 * what the worker's POST /tokens and Go's worker/tokens.Mint make. signingKey is the worker's
 * TOKEN_SIGNING_KEY (at least 32 bytes; a string is UTF-8), or during a rotation
 * [TOKEN_SIGNING_KEY, TOKEN_SIGNING_KEY_PREVIOUS] (Go's tokens.MintWithKeys): the token is signed
 * with the first, and a bound offer may be signed with any, as the edge's booking accepts it. A bad grant rejects with a
 * ParcelgateError (category "validation") naming the field; a short key with a TypeError.
 */
export function mintToken(
  signingKey: OfferKeys,
  grant: TokenGrant,
  options?: MintOptions,
): Promise<MintedToken>;

/**
 * TOKEN_SIGNING_KEY, or the key set verifyToken takes: [TOKEN_SIGNING_KEY, TOKEN_SIGNING_KEY_PREVIOUS]
 * during a rotation (the current key first; at most 4).
 */
export type OfferKeys = string | ArrayBuffer | ArrayBufferView | Array<string | ArrayBuffer | ArrayBufferView>;

/** One end of an offer's route: ISO country code and the postal code as the edge normalized it. */
export interface OfferPlace {
  country: string;
  postal: string;
}

/** One parcel as the edge normalized it: canonical decimal strings ("" when the request left it out). */
export interface OfferParcel {
  weight: string;
  width: string;
  height: string;
  length: string;
  volume: string;
}

/** Where an offer's price came from (a rates answer's `data.source`). */
export type OfferSource = 'live' | 'recent' | 'fallback';

/** What a shopper was shown for one service, as signed by the edge. */
export interface OfferFacts {
  carrier: string;
  service: string;
  /** The price shown, a canonical decimal string ("4.95", "12"): compare as a decimal, never as a float. */
  price: string;
  currency: string;
  /** The service delivers to a drop point: the booking must name one the edge listed for `carrier` near `to`. */
  dropPoint: boolean;
  from: OfferPlace;
  to: OfferPlace;
  parcels: OfferParcel[];
  /**
   * The cart's value the page sent with the rates request (`order_value`), a canonical decimal in
   * `currency`; absent when it sent none. The shop's free-shipping rules priced the service for it:
   * compare it with the cart's.
   */
  orderValue?: string;
  /**
   * Where the price came from: the carrier's answer now (`live`), the last good answer while the
   * carrier API was slow or down (`recent`), or the shop's own backup price (`fallback`: no carrier's
   * service; the shop's server books its own, the edge refuses a page's booking of it).
   */
  source: OfferSource;
  /** RFC 3339, UTC, whole seconds. */
  expiresAt: string;
  /** What a bound grant names (offerTag). */
  tag: string;
}

/** A drop point the edge listed: its carrier and key, and the place it was listed near. */
export interface PointFacts {
  carrier: string;
  key: string;
  near: OfferPlace;
  expiresAt: string;
}

/** Why an offer or point was refused (Go's offers.Reason). */
export type OfferErrorReason = 'malformed' | 'tampered' | 'foreign' | 'expired' | 'key';

/** A refused offer or point; an expired one means: quote again. */
export class OfferError extends Error {
  /** verifyOffer and verifyPoint make these (the message is the whole sentence); a test may too. */
  constructor(reason: OfferErrorReason, message: string);
  readonly name: 'OfferError';
  readonly reason: OfferErrorReason;
}

/** Verifies an offer offline with the worker's signing key (byte for byte Go's worker/offers.Verify). */
export function verifyOffer(keys: OfferKeys, offer: string, options?: { now?: number | Date }): Promise<OfferFacts>;

/** Verifies a drop point's signed `point` offline. */
export function verifyPoint(keys: OfferKeys, point: string, options?: { now?: number | Date }): Promise<PointFacts>;

/** The offer's tag, which a bound grant names ("" for a string that is not an offer). */
export function offerTag(offer: string): string;

/** The parts in which a verified offer and the shop's own booking differ (offerDiffers). */
export type OfferDifference = 'origin' | 'destination' | 'parcels' | 'order_value' | 'drop_point';

/**
 * What differs between a verified offer and the shipment the shop's server would book from its cart
 * ([] when nothing does): the route (postal codes as core.postal normalizes them), the parcels
 * (compared as numbers), the order value when the offer signed one, and for a drop-point offer the
 * verified point (its carrier, the booking's drop_point_key, listed near the destination).
 */
export function offerDiffers(
  facts: OfferFacts,
  booking: {
    from_country_code?: string;
    from_zip_code?: string;
    to_country_code?: string;
    to_zip_code?: string;
    parcels?: Array<{ parcel_weight?: number | string; parcel_width?: number | string; parcel_height?: number | string; parcel_length?: number | string; parcel_volume?: number | string }>;
  },
  cart?: { orderValue?: number | string; point?: PointFacts; dropPointKey?: string },
): OfferDifference[];

/** The claims of a verified token (verifyToken). */
export interface VerifiedToken {
  operations: string[];
  shippingClientRef: string;
  dlvrRef: string;
  collectionClientRef: string;
  /** The bound offer's tag (offerTag), "" when the grant names none. */
  offerTag: string;
  /** RFC 3339, UTC, whole seconds. */
  expiresAt: string;
}

/**
 * Verifies a scoped token as the edge does (Go's worker/tokens.Verify), with a key set: the
 * current TOKEN_SIGNING_KEY first and TOKEN_SIGNING_KEY_PREVIOUS after it during a rotation.
 * Rejects with an Error whose `reason` is "malformed", "signature", "expired" or "grant"; a bad
 * key set with a TypeError.
 */
export function verifyToken(
  signingKeys: Array<string | ArrayBuffer | ArrayBufferView>,
  token: string,
  options?: { now?: number | Date },
): Promise<VerifiedToken>;

/** The id of a signing key in the tokens it signs (Go's worker/tokens.KeyID). */
export function keyId(signingKey: string | ArrayBuffer | ArrayBufferView): Promise<string>;

/** Options of verifyWebhook. */
export interface VerifyWebhookOptions {
  /** How far the header's t may be from now, either side, in seconds (default 300; must be positive). */
  toleranceSeconds?: number;
  /** The receiver's clock in ms since the epoch, or a Date (default now). */
  now?: number | Date;
}

/** Why verifyWebhook refused a delivery. */
export type WebhookErrorCode = 'malformed' | 'stale' | 'signature';

/** A refused webhook delivery: code says why (log it; answer 400). */
export class WebhookError extends Error {
  /** The message is "parcelgate: webhook " + message (verifyWebhook makes these; a test may too). */
  constructor(code: WebhookErrorCode, message: string);
  readonly name: 'WebhookError';
  readonly code: WebhookErrorCode;
}

/**
 * Verifies a parcelgate webhook delivery (Node 20+, browsers, any WebCrypto runtime) with the same
 * verdicts as Go's worker/webhooks.Verify. rawBody is the request body byte for byte as received
 * (verify before parsing); signatureHeader the Parcelgate-Signature header; secret WEBHOOK_SECRET (at
 * least 32 bytes; a string is UTF-8). Resolves true when one v1 entry matches (several come during a
 * secret rotation) and t is within the tolerance; rejects with a WebhookError ('malformed', 'stale'
 * for a genuine but late or early delivery, 'signature'), or a TypeError for a short secret or bad options.
 */
export function verifyWebhook(
  rawBody: string | ArrayBuffer | ArrayBufferView,
  signatureHeader: string | null | undefined,
  secret: string | ArrayBuffer | ArrayBufferView,
  options?: VerifyWebhookOptions,
): Promise<true>;

/**
 * The JSON body of a tracking webhook (worker/webhooks/README.md, "Tracking webhooks"): parse it only after
 * verifyWebhook accepted the raw bytes. One event per change of tracking_code, at least once and in
 * order per shipment.
 */
export interface TrackingWebhookEvent {
  /** The same on every retry of a delivery: dedupe on it. */
  id: string;
  type: 'shipment.tracking_updated';
  /** When the edge saw the change: RFC 3339, UTC, whole seconds. */
  created: string;
  data: TrackingWebhookData;
}

/** What a tracking webhook says of the shipment: its references and new state, nothing personal. */
export interface TrackingWebhookData {
  shipping_dlvr_ref: string;
  shipping_client_ref: string;
  /** The new code, "01".."30" (TrackingInfo, core.describeTracking). */
  tracking_code: string;
  tracking_name: string;
  /** The core's display category of the code; "unknown" outside 01-30. */
  category: TrackingInfo['category'] | 'unknown';
  /** No further event is expected (delivered, returned, expired): the shipment's last event. */
  final: boolean;
  /** The service's tracking_date, as it sent it ("YYYY-MM-DD HH:MM:SS"). */
  tracking_date: string;
  /** The code before this change; "" for the first state the edge saw. */
  previous_code: string;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number;
  headers?: Record<string, string>;
  /** Language of the field errors (a BCP 47 tag such as "es-ES"): the core's, and the edge's through Accept-Language. */
  locale?: string;
  /** get-shipments-rates only: the cart's value (a decimal such as "59.90", at most the currency's decimals), sent as
   *  `order_value` for the edge's pricing rules (PRICING_RULES: free shipping from an order value). Never forwarded upstream. */
  orderValue?: string | number;
}

/** A label as PDF (Client.label()). */
export interface Label {
  bytes: Uint8Array;
  /** The PDF as a Blob (type application/pdf). */
  blob(): Blob;
  /** The response's data (references and label_raw). */
  data: ShipmentLabel;
}
