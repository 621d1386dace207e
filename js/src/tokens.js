// @ts-check
// Scoped tokens minted on the shop's server (Node 20+, Deno, Bun, Workers:
// any runtime with WebCrypto): the same strings worker/tokens.Mint makes,
// so the edge verifies them with TOKEN_SIGNING_KEY and the page never sees
// PROXY_TOKEN. Parity with Go is pinned by testdata/tokens.json.
//
// Not imported by the Client or the widgets: a browser bundle that does not
// import mintToken does not carry it (and a page must never hold the key).

import { base64url, unbase64url, queryEscape, queryUnescape, keyBytes, subtle, keyId as signingKeyId, MIN_KEY_BYTES, MAX_KEYS, KEY_ID_LEN } from './signing.js';
import { OPERATIONS } from './operations.js';
import { ParcelgateError } from './errors.js';
import { verifyOffer, offerTag, OfferError } from './offers.js';

const PREFIX = 'pgt1.';
const DEFAULT_TTL = 900;
const MAX_TTL = 2592000;
// A grant that books (new-shipment, new-collection) lives at most 2 hours:
// a checkout books within minutes; worker/tokens.MaxBookingTTL says why.
const MAX_BOOKING_TTL = 7200;
// The catalog's limits (internal/catalog): shipping_client_ref is 15
// characters, other references 64.
const MAX_CLIENT_REF = 15;
const MAX_REF = 64;
// The edge's code for a request it cannot accept (CodeBadRequest).
const CODE_BAD_REQUEST = 1400;

// Why a grant is not bound to a fallback offer (Go's tokens.ErrFallbackOffer).
const FALLBACK_OFFER =
  "a fallback offer (the shop's backup price, no carrier's service) never books: quote again, or book from the shop's server";

/** @typedef {(typeof OPERATIONS)[number]} Operation */
/** @typedef {{shippingClientRef: string, dlvrRef: string, collectionClientRef: string}} GrantRefs */

// Keyed by any string: a grant's names are checked against them.
/** @type {Map<string, number>} */
const ORDER = new Map(OPERATIONS.map((op, i) => [op.name, i]));
// The policy table (internal/catalog/policy.go) by name.
/** @type {Map<string, Operation>} */
const POLICY = new Map(OPERATIONS.map((op) => [op.name, op]));
// The grant's fields by their wire names (the policy's binds name them so).
/** @type {Record<string, keyof GrantRefs>} */
const GRANT_KEYS = { dlvr_ref: 'dlvrRef', shipping_client_ref: 'shippingClientRef', collection_client_ref: 'collectionClientRef' };
// The operations that book, and the one collection_client_ref binds.
/** @type {readonly string[]} */
const BOOKINGS = OPERATIONS.filter((op) => op.binding === 'booking').map((op) => op.name);
// The booking an offer binds: the one whose grant binds the order's
// shipping_client_ref (catalog.Policy.Offered in Go).
/** @type {readonly string[]} */
const OFFERED = OPERATIONS.filter((op) => op.binds.some((b) => b.grant === 'shipping_client_ref')).map((op) => op.name);
/** @type {readonly string[]} */
const COLLECTS = OPERATIONS.filter((op) => op.binds.some((b) => b.grant === 'collection_client_ref')).map((op) => op.name);

// Go's unicode.IsSpace, which strings.TrimSpace trims (not JavaScript's
// \s: that has U+FEFF and lacks U+0085).
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const EDGE_SPACE = new RegExp(`^${GO_SPACE}|${GO_SPACE}$`, 'u');

/**
 * @param {string} field
 * @param {string} problem
 */
function fieldError(field, problem) {
  return new ParcelgateError(`${field}: ${problem}`, {
    code: CODE_BAD_REQUEST,
    category: 'validation',
    fieldErrors: [{ field, code: CODE_BAD_REQUEST, message: problem }],
  });
}

/**
 * The policy of an operation the grant's check found in the catalog.
 * @param {string} op
 */
const policyOf = (op) => /** @type {Operation} */ (POLICY.get(op));

/**
 * The reads of one shipment need a reference that names it.
 * @param {string} op a catalog operation
 */
function needsBinding(op) {
  return policyOf(op).binding === 'shipment';
}

// tokens.bindingError: a booking names the one booking it may make
// (the policy's binds: the grant's field, and what it names).
/**
 * @param {string} op a catalog operation
 * @param {GrantRefs} g
 */
function bindingError(op, g) {
  for (const b of policyOf(op).binds) {
    if (g[GRANT_KEYS[b.grant]] === '') return fieldError(b.grant, `required with ${op} (${b.why})`);
  }
  return null;
}

/**
 * @param {string} v
 * @param {number} max characters
 */
function refProblem(v, max) {
  if (v === '') return '';
  // Lone surrogates have no UTF-8 form; Go refuses invalid UTF-8.
  if (/[\ud800-\udfff]/u.test(v) || [...v].length > max) return `must be at most ${max} characters of valid UTF-8`;
  if (EDGE_SPACE.test(v)) return 'must not start or end with spaces';
  // C0, DEL and C1, as Go's (the edge refuses them in every field).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(v)) return 'must not contain control characters';
  // Unicode category Cf, as Go's unicode.Cf (the edge refuses them in
  // every reference, so a token bound to one could never be used).
  if (/\p{Cf}/u.test(v)) return 'must not contain invisible format characters (zero-width, bidi controls, U+FEFF)';
  return '';
}

/**
 * @param {unknown} value
 * @param {string} field
 * @returns {string}
 */
function ref(value, field) {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw fieldError(field, 'must be a string');
  return value;
}

/**
 * The grant checked the way tokens.Check does it, with its operations in
 * catalog order: the same field and problem for the same mistake.
 * @param {Partial<import('../core.js').TokenGrant>} grant as a caller's JavaScript passed it
 */
function checkGrant(grant) {
  /** @type {unknown} */
  let ops = grant.operations;
  if (typeof ops === 'string') {
    // The POST /tokens spelling: comma-separated, spaces and empties dropped.
    ops = ops.split(',').map((s) => s.trim()).filter((s) => s !== '');
  }
  if (ops !== undefined && ops !== null && !Array.isArray(ops)) throw fieldError('operations', 'must be an array of operation names');
  /** @type {readonly unknown[]} */
  const names = ops || [];
  const shippingClientRef = ref(grant.shippingClientRef, 'shipping_client_ref');
  const dlvrRef = ref(grant.dlvrRef, 'dlvr_ref');
  const collectionClientRef = ref(grant.collectionClientRef, 'collection_client_ref');
  const g = { shippingClientRef, dlvrRef, collectionClientRef };
  if (names.length === 0) throw fieldError('operations', 'name at least one operation');
  /** @type {Set<string>} */
  const seen = new Set();
  for (const op of names) {
    if (typeof op === 'string' && POLICY.has(op) && !policyOf(op).grantable) {
      throw fieldError('operations', `${op} is never grantable (it lists every customer's shipments)`);
    }
    if (typeof op !== 'string' || !ORDER.has(op)) {
      // Clipped to 64 characters (code points) as Go clips runes: .length
      // and .slice count UTF-16 units and would cut an emoji in half.
      const c = [...String(op)];
      throw fieldError('operations', `unknown operation ${JSON.stringify(c.length > 64 ? `${c.slice(0, 64).join('')}...` : c.join(''))}`);
    }
    seen.add(op);
  }
  // Every name first, then what the known ones need (in the grant's order:
  // seen holds the names as they came, each once).
  for (const op of seen) {
    const missing = bindingError(op, g);
    if (missing) throw missing;
    if (needsBinding(op) && dlvrRef === '' && shippingClientRef === '') {
      throw fieldError('operations', `${op} needs dlvr_ref or shipping_client_ref (the shipment it may read)`);
    }
  }
  let p = refProblem(shippingClientRef, MAX_CLIENT_REF);
  if (p) throw fieldError('shipping_client_ref', p);
  p = refProblem(dlvrRef, MAX_REF);
  if (p) throw fieldError('dlvr_ref', p);
  if (collectionClientRef !== '' && !COLLECTS.some((op) => seen.has(op))) {
    throw fieldError('collection_client_ref', `binds ${COLLECTS.join(', ')} only: grant ${COLLECTS.join(', ')} or leave it out`);
  }
  p = refProblem(collectionClientRef, MAX_CLIENT_REF);
  if (p) throw fieldError('collection_client_ref', p);
  const offer = grant.offer === undefined || grant.offer === null ? '' : grant.offer;
  if (offer !== '' && !OFFERED.some((op) => seen.has(op))) {
    throw fieldError('offer', `binds ${OFFERED.join(', ')} only: grant ${OFFERED.join(', ')} or leave it out`);
  }
  const operations = [...seen].sort(byCatalog);
  return { operations, shippingClientRef, dlvrRef, collectionClientRef, offer };
}

/**
 * The catalog's order of two operation names (both known).
 * @param {string} a
 * @param {string} b
 */
function byCatalog(a, b) {
  return /** @type {number} */ (ORDER.get(a)) - /** @type {number} */ (ORDER.get(b));
}

/**
 * @param {Uint8Array<ArrayBuffer>} key
 * @param {string} text
 * @param {string} fn the public function, named when WebCrypto is missing
 */
async function hmac(key, text, fn) {
  const k = await subtle(fn).importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle(fn).sign('HMAC', k, new TextEncoder().encode(text)));
}

/**
 * The id of a signing key in the tokens it signs (worker/tokens.KeyID):
 * the first 8 characters of the base64url SHA-256 of "pgt-key-id:" and
 * the key (signing.js: the one offers.js reads too).
 *
 * @param {string | ArrayBuffer | ArrayBufferView} signingKey
 * @returns {Promise<string>}
 */
export async function keyId(signingKey) {
  return signingKeyId(keyBytes(signingKey, 'keyId'), 'keyId');
}

/**
 * Mints a scoped token on the shop's server: what POST /tokens answers,
 * without the request. The token is byte for byte the one Go's
 * worker/tokens.Mint makes for the same grant, key and time.
 *
 * @param {import("../core.js").OfferKeys} signingKey the worker's TOKEN_SIGNING_KEY (at least 32 bytes; a string is UTF-8), or
 *   during a rotation [TOKEN_SIGNING_KEY, TOKEN_SIGNING_KEY_PREVIOUS]: the token is signed with the first; a bound offer
 *   may be signed with any (one quoted before the rotation stays bookable until it expires, as the edge accepts it)
 * A grant of new-shipment must bind shippingClientRef (the order it books);
 * one of new-collection must bind dlvrRef (the shipment) and
 * collectionClientRef (the pickup); either lives at most 7200 seconds.
 *
 * @param {import("../core.js").TokenGrant} grant
 *   grant.offer: the offer the shopper chose (check it with verifyOffer first): the grant's new-shipment books exactly it
 * @param {{ttl?: number, now?: number | Date}} [options] ttl in seconds (1..2592000, at most 7200 for a booking grant; default 900); now in ms or a Date
 * @returns {Promise<{token: string, expiresAt: string, expiresIn: number, operations: string[]}>}
 */
export async function mintToken(signingKey, grant, { ttl = DEFAULT_TTL, now = Date.now() } = {}) {
  const set = Array.isArray(signingKey) ? signingKey : [signingKey];
  if (set.length === 0 || set.length > MAX_KEYS) {
    throw new TypeError(`parcelgate: mintToken: the signing keys are 1 to ${MAX_KEYS} keys, the current one first`);
  }
  const keys = set.map((k) => keyBytes(k, 'mintToken'));
  if (keys.some((k) => k.byteLength < MIN_KEY_BYTES)) {
    throw new TypeError(`parcelgate: mintToken: the signing key must be at least ${MIN_KEY_BYTES} bytes (TOKEN_SIGNING_KEY)`);
  }
  const key = keys[0];
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL) {
    throw fieldError('ttl', `must be a whole number of seconds from 1 to ${MAX_TTL}`);
  }
  const nowMs0 = now instanceof Date ? now.getTime() : now;
  if (grant && grant.offer !== undefined && grant.offer !== null && grant.offer !== '') {
    // The worker's offer, still quotable (tokens.Mint's words).
    if (typeof grant.offer !== 'string') throw fieldError('offer', 'must be a string');
    /** @type {import('../core.js').OfferFacts} */
    let facts;
    try {
      facts = await verifyOffer(keys, grant.offer, { now: nowMs0 });
    } catch (e) {
      /** @type {Record<string, string>} */
      const problems = {
        expired: 'the offer has expired: quote again (a new rates request) and bind the new offer',
        foreign: 'not an offer of this worker (signed with another TOKEN_SIGNING_KEY)',
        tampered: "the offer's signature does not match: it was changed after the worker signed it",
      };
      if (e instanceof OfferError) {
        throw fieldError('offer', problems[e.reason] || 'not an offer (the `offer` of a service in a rates answer)');
      }
      throw e;
    }
    // The edge never books a fallback offer (403 offer_fallback): a grant
    // bound to one could not book (tokens.ErrFallbackOffer).
    if (facts.source === 'fallback') throw fieldError('offer', FALLBACK_OFFER);
  }
  const g = checkGrant(grant || {});
  if (ttl > MAX_BOOKING_TTL && g.operations.some((op) => BOOKINGS.includes(op))) {
    throw fieldError('ttl', `at most ${MAX_BOOKING_TTL} seconds (2 hours) for a grant of ${BOOKINGS.join(' or ')}`);
  }
  const nowMs = now instanceof Date ? now.getTime() : now;
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) throw new TypeError('parcelgate: mintToken: now must be a time in ms or a Date');
  const nowS = Math.floor(nowMs / 1000);
  const exp = nowS + ttl;
  let payload = `exp=${exp}&ops=${g.operations.join(',')}`;
  if (g.dlvrRef) payload += `&dlvr_ref=${queryEscape(g.dlvrRef)}`;
  if (g.shippingClientRef) payload += `&shipping_client_ref=${queryEscape(g.shippingClientRef)}`;
  if (g.collectionClientRef) payload += `&collection_client_ref=${queryEscape(g.collectionClientRef)}`;
  if (g.offer) payload += `&offer=${offerTag(g.offer)}`;
  const signed = `${PREFIX}${await signingKeyId(key, 'mintToken')}.${base64url(new TextEncoder().encode(payload))}`;
  const mac = await hmac(key, signed, 'mintToken');
  return {
    token: `${signed}.${base64url(mac)}`,
    expiresAt: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    expiresIn: exp - nowS,
    operations: g.operations,
  };
}

/**
 * @param {'malformed' | 'signature' | 'expired' | 'grant'} reason
 * @returns {Error & {reason: string}}
 */
function refused(reason) {
  const messages = {
    malformed: 'not a scoped token',
    signature: 'token signature does not match',
    expired: 'token expired',
    grant: 'token grant is not accepted (a booking needs its references bound and at most 2 hours of life)',
  };
  return Object.assign(new Error(`parcelgate: ${messages[reason]}`), { reason });
}

/**
 * Verifies a scoped token the way the edge does (worker/tokens.Verify):
 * with a key set, the current TOKEN_SIGNING_KEY first and
 * TOKEN_SIGNING_KEY_PREVIOUS after it during a rotation. Resolves to the
 * claims; rejects with an Error whose reason is "malformed", "signature",
 * "expired" or "grant" (a TypeError for a bad key set).
 *
 * @param {Array<string | ArrayBuffer | ArrayBufferView>} signingKeys
 * @param {string} token
 * @param {{now?: number | Date}} [options] now in ms or a Date
 * @returns {Promise<{operations: string[], shippingClientRef: string, dlvrRef: string, collectionClientRef: string, offerTag: string, expiresAt: string}>}
 */
export async function verifyToken(signingKeys, token, { now = Date.now() } = {}) {
  if (!Array.isArray(signingKeys) || signingKeys.length === 0 || signingKeys.length > MAX_KEYS) {
    throw new TypeError(`parcelgate: verifyToken: the signing keys are an array of 1 to ${MAX_KEYS} keys, the current one first`);
  }
  const keys = signingKeys.map((k) => keyBytes(k, 'verifyToken'));
  if (keys.some((k) => k.byteLength < MIN_KEY_BYTES)) {
    throw new TypeError(`parcelgate: verifyToken: every signing key must be at least ${MIN_KEY_BYTES} bytes`);
  }
  const nowMs = now instanceof Date ? now.getTime() : now;
  // As mintToken: a now that is not a time would read every token as unexpired.
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) throw new TypeError('parcelgate: verifyToken: now must be a time in ms or a Date');
  // 1024 bytes, as Go's MaxLen counts (.length counts UTF-16 units, never more than the bytes).
  if (typeof token !== 'string' || token.length > 1024 || new TextEncoder().encode(token).length > 1024 || !token.startsWith(PREFIX)) throw refused('malformed');
  const last = token.lastIndexOf('.');
  if (last < PREFIX.length) throw refused('malformed');
  const signed = token.slice(0, last);
  const sig = token.slice(last + 1);
  let body = signed.slice(PREFIX.length);
  let kid = '';
  const dot = body.indexOf('.');
  if (dot >= 0) {
    kid = body.slice(0, dot);
    body = body.slice(dot + 1);
    if (kid.length !== KEY_ID_LEN || body.includes('.')) throw refused('malformed');
  }
  if (body === '') throw refused('malformed');
  let matched = false;
  for (const k of keys) {
    if (kid !== '' && (await signingKeyId(k, 'verifyToken')) !== kid) continue;
    // A string comparison of two base64 MACs: the attacker does not know
    // the expected one, and WebCrypto's verify would need the raw bytes.
    if (base64url(await hmac(k, signed, 'verifyToken')) === sig) matched = true;
  }
  if (!matched) throw refused('signature');
  const raw = unbase64url(body);
  if (raw === null) throw refused('malformed');
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw refused('malformed');
  }
  const parts = text.split('&');
  if (parts.length < 2 || parts.length > 6) throw refused('malformed');
  /** @type {Omit<import('../core.js').VerifiedToken, 'expiresAt'>} */
  const g = { operations: [], shippingClientRef: '', dlvrRef: '', collectionClientRef: '', offerTag: '' };
  let exp = 0;
  /** @type {Record<string, 'dlvrRef' | 'shippingClientRef' | 'collectionClientRef' | 'offerTag'>} */
  const names = { dlvr_ref: 'dlvrRef', shipping_client_ref: 'shippingClientRef', collection_client_ref: 'collectionClientRef', offer: 'offerTag' };
  for (const [i, part] of parts.entries()) {
    const eq = part.indexOf('=');
    if (eq < 0) throw refused('malformed');
    const k = part.slice(0, eq);
    const v = part.slice(eq + 1);
    if (i === 0 && k === 'exp' && /^[0-9]{1,15}$/.test(v) && Number(v) > 0) exp = Number(v);
    else if (i === 1 && k === 'ops') g.operations = v.split(',');
    else if (i > 1 && Object.hasOwn(names, k)) {
      const u = queryUnescape(v);
      if (u === null) throw refused('malformed');
      g[names[k]] = u;
    } else throw refused('malformed');
  }
  // Canonical: the payload must be the one mintToken writes for these claims.
  const known = g.operations.filter((op) => ORDER.has(op));
  const ops = [...new Set(known)].sort(byCatalog).concat(g.operations.filter((op) => !ORDER.has(op)));
  let p = `exp=${exp}&ops=${ops.join(',')}`;
  if (g.dlvrRef) p += `&dlvr_ref=${queryEscape(g.dlvrRef)}`;
  if (g.shippingClientRef) p += `&shipping_client_ref=${queryEscape(g.shippingClientRef)}`;
  if (g.collectionClientRef) p += `&collection_client_ref=${queryEscape(g.collectionClientRef)}`;
  if (g.offerTag) p += `&offer=${queryEscape(g.offerTag)}`;
  if (base64url(new TextEncoder().encode(p)) !== body) throw refused('malformed');
  if (Math.floor(nowMs / 1000) >= exp) throw refused('expired');
  let checked;
  try {
    checked = checkGrant({ ...g, operations: ops });
  } catch {
    throw refused('grant');
  }
  const books = checked.operations.some((op) => BOOKINGS.includes(op));
  if (books && exp - Math.floor(nowMs / 1000) > MAX_BOOKING_TTL) throw refused('grant');
  return { ...g, operations: ops, expiresAt: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
}
