// @ts-check
// Offers and drop points verified on the shop's server (Node 20+, Deno,
// Bun, Workers: any runtime with WebCrypto), offline: the strings the edge
// signs into get-shipments-rates (`offer` per service) and get-drop-points
// (`point` per drop point) answers, checked with TOKEN_SIGNING_KEY as Go's
// worker/offers.Verify checks them. Parity is pinned by testdata/offers.json.
//
// Not imported by the Client or the widgets: a page never holds the key.

import { base64url, unbase64url, queryEscape, queryUnescape, keyBytes, subtle, keyId, MIN_KEY_BYTES, MAX_KEYS, KEY_ID_LEN } from './signing.js';
import { OFFER_NAMES, ORDER_VALUE, POINT_NAMES } from './offer-layout.js';

/** @import { OfferKeys, OfferFacts, OfferParcel, OfferSource, OfferErrorReason, PointFacts } from '../core.js' */

const OFFER = 'pgo1.';
const POINT = 'pgp1.';
const MAX_LEN = 4096;
const TAG_LEN = 22;
const MAC_BYTES = 16;
/** @type {Readonly<Record<string, OfferSource>>} the signed letter (offers.SourceCode) to the facts' word */
const SOURCES = { l: 'live', r: 'recent', f: 'fallback' };
const B64URL = /^[A-Za-z0-9_-]*$/;
const enc = new TextEncoder();

/** An offer or point refused: `reason` is malformed, tampered, foreign, expired or key (Go's offers.Reason). */
export class OfferError extends Error {
  /** @type {'OfferError'} (an own property, as the constructor assigned it before) */
  name = 'OfferError';

  /** @param {OfferErrorReason} reason @param {string} message */
  constructor(reason, message) {
    super(message);
    /** @readonly */
    this.reason = reason;
  }
}

/** @type {Readonly<Record<OfferErrorReason, string>>} */
const MESSAGES = {
  malformed: 'not an offer',
  tampered: 'offer signature does not match',
  foreign: 'offer signed with another key',
  expired: 'offer expired: quote again',
  key: 'signing key shorter than 32 bytes',
};
/** @param {OfferErrorReason} reason */
const fail = (reason) => new OfferError(reason, `parcelgate: ${MESSAGES[reason]}`);

// The public function WebCrypto and key errors name (signing.js's subtle, keyBytes).
const FN = 'verifyOffer';

/**
 * HMAC-SHA256 of a text under a raw key.
 * @param {Uint8Array<ArrayBuffer>} key
 * @param {string} msg
 * @returns {Promise<Uint8Array<ArrayBuffer>>}
 */
async function hmac(key, msg) {
  const k = await subtle(FN).importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle(FN).sign('HMAC', k, enc.encode(msg)));
}

// The offer key per signing key, imported once: a shop's server verifies
// many offers with one TOKEN_SIGNING_KEY, and deriving and importing the
// key is most of a verify's cost. Keyed by the key's bytes (as base64url).
/** @type {Map<string, CryptoKey>} */
const offerKeys = new Map();

/**
 * @param {Uint8Array<ArrayBuffer>} signingKey
 * @returns {Promise<CryptoKey>}
 */
async function offerKey(signingKey) {
  const id = base64url(signingKey);
  let k = offerKeys.get(id);
  if (k === undefined) {
    const derived = await hmac(signingKey, 'parcelgate offer v1');
    k = await subtle(FN).importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (offerKeys.size >= 16) offerKeys.clear(); // a few keys in a process's life
    offerKeys.set(id, k);
  }
  return k;
}

/**
 * A canonical decimal ("1.5", "12"), as offers.Canonical writes them.
 * @param {string} s
 */
function canonical(s) {
  return /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/.test(s);
}

/**
 * A key, or an array of keys (the current TOKEN_SIGNING_KEY first,
 * TOKEN_SIGNING_KEY_PREVIOUS after it), as verifyToken takes them.
 * @param {OfferKeys} keys
 * @returns {Uint8Array<ArrayBuffer>[]}
 */
function keySet(keys) {
  const list = Array.isArray(keys) ? keys : [keys];
  if (list.length === 0 || list.length > MAX_KEYS) {
    throw new TypeError(`parcelgate: verifyOffer: the signing keys are a key or an array of 1 to ${MAX_KEYS} keys, the current one first`);
  }
  return list.map((k) => keyBytes(k, FN));
}

/**
 * open checks a string's shape and MAC with the key its key id names and
 * returns its fields (unescaped) in names' order, then optional's when
 * the string has it.
 * @param {OfferKeys} keys
 * @param {string} prefix
 * @param {unknown} s the offer or point as the caller passed it
 * @param {readonly string[]} names
 * @param {string} [optional]
 * @returns {Promise<string[]>}
 */
async function open(keys, prefix, s, names, optional = '') {
  const set = keySet(keys);
  if (set.some((k) => k.byteLength < MIN_KEY_BYTES)) throw fail('key');
  // MAX_LEN is bytes, as Go counts them (.length counts UTF-16 units, never more than the bytes).
  if (typeof s !== 'string' || s.length > MAX_LEN || enc.encode(s).length > MAX_LEN || !s.startsWith(prefix)) throw fail('malformed');
  // prefix, kid, '.', payload, '.', tag
  const signedEnd = s.length - TAG_LEN - 1;
  const kidEnd = prefix.length + KEY_ID_LEN;
  if (signedEnd <= kidEnd + 1 || s[kidEnd] !== '.' || s[signedEnd] !== '.') throw fail('malformed');
  const kid = s.slice(prefix.length, kidEnd);
  let key = null;
  for (const k of set) {
    if ((await keyId(k, FN)) === kid) {
      key = k;
      break;
    }
  }
  if (key === null) throw fail('foreign');
  const mac = base64url(new Uint8Array(await subtle(FN).sign('HMAC', await offerKey(key), enc.encode(s.slice(0, signedEnd)))).subarray(0, MAC_BYTES));
  // Constant time over the tag's characters.
  const got = s.slice(signedEnd + 1);
  let diff = 0;
  for (let i = 0; i < TAG_LEN; i++) diff |= got.charCodeAt(i) ^ mac.charCodeAt(i);
  if (diff !== 0) throw fail('tampered');
  const b64 = s.slice(kidEnd + 1, signedEnd);
  if (!B64URL.test(b64) || b64.length % 4 === 1) throw fail('malformed');
  const raw = unbase64url(b64);
  if (raw === null || base64url(raw) !== b64) throw fail('malformed');
  let payload;
  try {
    payload = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw fail('malformed');
  }
  const parts = payload.split('&');
  const all = optional !== '' && parts.length === names.length + 1 ? [...names, optional] : names;
  if (parts.length !== all.length) throw fail('malformed');
  /** @type {string[]} */
  const vals = [];
  for (let i = 0; i < all.length; i++) {
    const eq = parts[i].indexOf('=');
    if (eq < 0 || parts[i].slice(0, eq) !== all[i]) throw fail('malformed');
    const v = parts[i].slice(eq + 1);
    if (all[i] === 'pc') {
      vals.push(v);
      continue;
    }
    const u = queryUnescape(v);
    // One spelling per value (Go re-encodes and compares).
    if (u === null || queryEscape(u) !== v) throw fail('malformed');
    vals.push(u);
  }
  if (!/^[1-9][0-9]*$/.test(vals[0])) throw fail('malformed');
  return vals;
}

/**
 * The parcels of an offer's `pc`: "w*wd*h*l*v" each, comma-separated.
 * @param {string} s
 * @returns {OfferParcel[]}
 */
function parcels(s) {
  if (s === '') throw fail('malformed');
  return s.split(',').map((one) => {
    const v = one.split('*');
    if (v.length !== 5 || v.some((x) => x !== '' && !canonical(x))) throw fail('malformed');
    return { weight: v[0], width: v[1], height: v[2], length: v[3], volume: v[4] };
  });
}

/**
 * A verify's time in whole seconds.
 * @param {unknown} now ms since the epoch or a Date, as the caller passed it
 * @returns {number}
 */
function when(now) {
  const ms = now instanceof Date ? now.getTime() : now;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new TypeError('parcelgate: verifyOffer: now must be a time in ms or a Date');
  return Math.floor(ms / 1000);
}

/**
 * RFC 3339, UTC, whole seconds.
 * @param {number} s unix seconds
 */
function iso(s) {
  return new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Verifies an offer (a service's `offer` in a get-shipments-rates answer
 * through the edge) with the worker's TOKEN_SIGNING_KEY, offline, and
 * returns what the shopper was shown. Compare it with the cart, charge
 * `price` (a decimal string: never parse it to a float for money), then
 * mint the booking grant bound to it (mintToken's `offer`). `orderValue`
 * is the cart's value the page sent with the rates request (a canonical
 * decimal; absent when it sent none): the shop's free-shipping rules
 * priced the service for it, so compare it with the cart's. `source` is
 * where the price came from: `live`, `recent` (the last good answer while
 * the carrier API was slow or down) or `fallback` (the shop's own backup
 * price, no carrier's service: the shop's server books its own service).
 *
 * @param {OfferKeys} keys
 *   TOKEN_SIGNING_KEY, or the key set verifyToken takes: [TOKEN_SIGNING_KEY, TOKEN_SIGNING_KEY_PREVIOUS] during a rotation
 * @param {string} offer
 * @param {{now?: number | Date}} [options]
 * @returns {Promise<OfferFacts>}
 * @throws {OfferError} reason malformed, tampered, foreign, expired or key
 */
export async function verifyOffer(keys, offer, { now = Date.now() } = {}) {
  const nowS = when(now);
  const v = await open(keys, OFFER, offer, OFFER_NAMES, ORDER_VALUE);
  if ((v[5] !== '0' && v[5] !== '1') || !Object.hasOwn(SOURCES, v[6])) throw fail('malformed');
  const ov = v.length > OFFER_NAMES.length ? v[OFFER_NAMES.length] : undefined;
  if (ov !== undefined && !canonical(ov)) throw fail('malformed');
  /** @type {OfferFacts} */
  const facts = {
    carrier: v[1], service: v[2], price: v[3], currency: v[4], dropPoint: v[5] === '1',
    from: { country: v[7], postal: v[8] }, to: { country: v[9], postal: v[10] }, parcels: parcels(v[11]),
    ...(ov === undefined ? {} : { orderValue: ov }), source: SOURCES[v[6]],
    expiresAt: iso(Number(v[0])), tag: offer.slice(offer.length - TAG_LEN),
  };
  if (nowS >= Number(v[0])) throw fail('expired');
  return facts;
}

/**
 * Verifies a drop point (a drop point's `point` in a get-drop-points
 * answer through the edge): its carrier, key, and the place it was listed
 * near.
 *
 * @param {OfferKeys} keys
 * @param {string} point
 * @param {{now?: number | Date}} [options]
 * @returns {Promise<PointFacts>}
 */
export async function verifyPoint(keys, point, { now = Date.now() } = {}) {
  const nowS = when(now);
  const v = await open(keys, POINT, point, POINT_NAMES);
  const facts = { carrier: v[1], key: v[2], near: { country: v[3], postal: v[4] }, expiresAt: iso(Number(v[0])) };
  if (nowS >= Number(v[0])) throw fail('expired');
  return facts;
}

/**
 * An offer's tag: what a booking grant binds ("" for a string that is not an offer).
 * @param {string} offer
 * @returns {string}
 */
export function offerTag(offer) {
  if (typeof offer !== 'string' || !offer.startsWith(OFFER)) return '';
  const i = offer.lastIndexOf('.');
  if (i < OFFER.length || offer.length - i - 1 !== TAG_LEN) return '';
  return offer.slice(i + 1);
}

/** @param {unknown} v a number or decimal string; '' for none */
const decimalText = (v) => (v === undefined || v === null || v === '' ? '' : String(Number(v)));

/**
 * What differs between a verified offer and the shipment the shop's server would book from its
 * own cart: [] when nothing does, else the parts ('origin', 'destination', 'parcels',
 * 'order_value', 'drop_point'). It is the check every shop would write after verifyOffer, written
 * once: the route (country and postal code, as the core normalizes it: core.postal), the parcels
 * (count, and each one's weight and dimensions compared as numbers), the order value when the
 * offer signed one (the edge's free-shipping rules priced for it), and for a drop-point offer the
 * verified point (verifyPoint): the offer's carrier, the booking's key, listed near the
 * destination. Go needs no such helper: its facts are comparable values (o.To != cart.To).
 *
 * @param {OfferFacts} facts what verifyOffer returned
 * @param {{from_country_code?: string, from_zip_code?: string, to_country_code?: string, to_zip_code?: string,
 *   parcels?: Array<{parcel_weight?: number | string, parcel_width?: number | string, parcel_height?: number | string,
 *   parcel_length?: number | string, parcel_volume?: number | string}>}} booking the new-shipment fields from the cart
 * @param {{orderValue?: number | string, point?: PointFacts, dropPointKey?: string}} [cart] the cart's value; the verified point and the booking's drop_point_key
 * @returns {Array<'origin' | 'destination' | 'parcels' | 'order_value' | 'drop_point'>}
 */
export function offerDiffers(facts, booking, { orderValue, point, dropPointKey } = {}) {
  /** @type {Array<'origin' | 'destination' | 'parcels' | 'order_value' | 'drop_point'>} */
  const out = [];
  /** @param {unknown} v */
  const place = (v) => String(v ?? '').trim().toUpperCase();
  if (facts.from.country !== place(booking.from_country_code) || facts.from.postal !== place(booking.from_zip_code)) out.push('origin');
  if (facts.to.country !== place(booking.to_country_code) || facts.to.postal !== place(booking.to_zip_code)) out.push('destination');
  const parcels = booking.parcels || [];
  if (parcels.length !== facts.parcels.length || parcels.some((p, i) => {
    const q = facts.parcels[i];
    return decimalText(p.parcel_weight) !== q.weight || decimalText(p.parcel_width) !== q.width ||
      decimalText(p.parcel_height) !== q.height || decimalText(p.parcel_length) !== q.length || decimalText(p.parcel_volume) !== q.volume;
  })) out.push('parcels');
  if (facts.orderValue !== undefined && decimalText(orderValue) !== decimalText(facts.orderValue)) out.push('order_value');
  if (facts.dropPoint
    ? !point || point.carrier !== facts.carrier || point.key !== dropPointKey || point.near.country !== facts.to.country || point.near.postal !== facts.to.postal
    : point !== undefined || (dropPointKey !== undefined && dropPointKey !== '')) out.push('drop_point');
  return out;
}
