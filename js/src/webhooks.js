// @ts-check
// Verification of parcelgate's tracking webhooks on the shop's side
// (Node 20+, Deno, Bun, Workers, browsers: any runtime with WebCrypto):
// the same verdicts as Go's worker/webhooks.Verify, pinned by
// testdata/webhooks.json.
//
// Not imported by the Client or the widgets: a page has no business
// holding WEBHOOK_SECRET, and a browser bundle that does not import
// verifyWebhook does not carry it.

const MIN_SECRET_BYTES = 32;
const DEFAULT_TOLERANCE = 300;
// A real header is about 80 bytes; longer ones are refused unread (Go's
// MaxHeaderLen).
const MAX_HEADER_BYTES = 1024;
// One v1 per live secret during a rotation; more is not a rotation.
const MAX_SIGNATURES = 8;
const T_RE = /^(0|[1-9][0-9]{0,17})$/;
const V1_RE = /^[0-9a-fA-F]{64}$/;

const utf8 = new TextEncoder();

/** Why a delivery was refused: err.code is 'malformed', 'stale' or 'signature'. */
export class WebhookError extends Error {
  /** @type {'WebhookError'} (an own property, as the constructor assigned it before) */
  name = 'WebhookError';

  /**
   * @param {import('../core.js').WebhookErrorCode} code
   * @param {string} message
   */
  constructor(code, message) {
    super(`parcelgate: webhook ${message}`);
    this.code = code;
  }
}

/**
 * @param {string | ArrayBuffer | ArrayBufferView} v
 * @param {string} what
 * @returns {Uint8Array<ArrayBuffer>}
 */
function bytesOf(v, what) {
  if (typeof v === 'string') return utf8.encode(v);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  // A view over a SharedArrayBuffer is copied: WebCrypto refuses one (its own TypeError).
  if (ArrayBuffer.isView(v)) {
    const u = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return u.buffer instanceof ArrayBuffer ? /** @type {Uint8Array<ArrayBuffer>} */ (u) : new Uint8Array(u);
  }
  throw new TypeError(`parcelgate: verifyWebhook: ${what} must be a string, an ArrayBuffer or a Uint8Array`);
}

const malformed = (/** @type {string} */ why) => new WebhookError('malformed', `signature header is malformed: ${why}`);

// Go's parse: "t=<digits>,v1=<64 hex>[,v1=...]", entries in any order with
// optional spaces or tabs around them, unknown keys (a future v2) ignored;
// the t string is kept as sent (it is canonical: no sign, no leading zero)
// because the MAC covers exactly "<t>.".
/**
 * @param {string | null | undefined} header
 * @returns {{t: string, macs: Uint8Array[]}}
 */
function parse(header) {
  if (typeof header !== 'string' || header === '') throw malformed('no header');
  if (utf8.encode(header).length > MAX_HEADER_BYTES) throw malformed(`longer than ${MAX_HEADER_BYTES} bytes`);
  let t = null;
  const macs = [];
  for (let item of header.split(',')) {
    item = item.replace(/^[ \t]+|[ \t]+$/g, '');
    const eq = item.indexOf('=');
    if (eq < 0) throw malformed(`entry ${JSON.stringify(item)} is not key=value`);
    const k = item.slice(0, eq);
    const v = item.slice(eq + 1);
    if (k === 't') {
      // Two timestamps: which one did the MAC cover? Refuse rather than guess.
      if (t !== null) throw malformed('more than one t');
      if (!T_RE.test(v)) throw malformed('t is not a number of seconds');
      t = v;
    } else if (k === 'v1') {
      if (!V1_RE.test(v)) throw malformed('v1 is not 64 hex digits');
      if (macs.length === MAX_SIGNATURES) throw malformed(`more than ${MAX_SIGNATURES} v1 entries`);
      const m = new Uint8Array(32);
      for (let i = 0; i < 32; i++) m[i] = parseInt(v.slice(2 * i, 2 * i + 2), 16);
      macs.push(m);
    }
  }
  if (t === null) throw malformed('no t');
  if (macs.length === 0) throw malformed('no v1');
  return { t, macs };
}

// Constant time over the 32 bytes: the position of the first difference
// must not show in the timing (Go's hmac.Equal).
/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
function equal(a, b) {
  let d = 0;
  for (let i = 0; i < 32; i++) d |= a[i] ^ b[i];
  return d === 0;
}

/**
 * Verifies a parcelgate webhook delivery before its body is parsed.
 *
 * rawBody must be the request body byte for byte as received (a string is
 * UTF-8 encoded): the signature covers those bytes, so re-serialising
 * parsed JSON breaks it. Accepted when one v1 entry of the header is the
 * HMAC-SHA256 of "<t>.<rawBody>" under secret (several v1 entries come
 * during a WEBHOOK_SECRET rotation: any match passes, all are compared in
 * constant time) and t is within toleranceSeconds of now, either side.
 * The signature is checked first, so 'stale' always means a genuine but
 * late delivery (or a clock that is off), never a forgery.
 *
 * @param {string | ArrayBuffer | ArrayBufferView} rawBody the raw request body
 * @param {string | null | undefined} signatureHeader the Parcelgate-Signature header (null or absent: 'malformed')
 * @param {string | ArrayBuffer | ArrayBufferView} secret WEBHOOK_SECRET (at least 32 bytes; a string is UTF-8)
 * @param {{toleranceSeconds?: number, now?: number | Date}} [options] tolerance in seconds (default 300); now in ms or a Date
 * @returns {Promise<true>} rejects with a WebhookError (code 'malformed', 'stale' or 'signature'), or a TypeError for bad arguments
 */
export async function verifyWebhook(rawBody, signatureHeader, secret, { toleranceSeconds = DEFAULT_TOLERANCE, now = Date.now() } = {}) {
  const key = bytesOf(secret, 'the secret');
  if (key.byteLength < MIN_SECRET_BYTES) {
    throw new TypeError(`parcelgate: verifyWebhook: the secret must be at least ${MIN_SECRET_BYTES} bytes (WEBHOOK_SECRET)`);
  }
  const body = bytesOf(rawBody, 'rawBody');
  if (typeof toleranceSeconds !== 'number' || !(toleranceSeconds > 0) || !Number.isFinite(toleranceSeconds)) {
    throw new TypeError('parcelgate: verifyWebhook: toleranceSeconds must be a positive number');
  }
  const nowMs = now instanceof Date ? now.getTime() : now;
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) throw new TypeError('parcelgate: verifyWebhook: now must be a time in ms or a Date');
  const { t, macs } = parse(signatureHeader);

  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) throw new TypeError('parcelgate: verifyWebhook needs WebCrypto (globalThis.crypto.subtle; Node 20+)');
  const prefix = utf8.encode(`${t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const k = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const want = new Uint8Array(await subtle.sign('HMAC', k, signed));
  let ok = false;
  for (const m of macs) ok = equal(m, want) || ok; // every entry, whatever the outcome
  if (!ok) throw new WebhookError('signature', 'signature does not match');

  // BigInt: an 18-digit t is beyond a double's exact integers.
  const nowS = BigInt(Math.floor(nowMs / 1000));
  const diff = nowS - BigInt(t);
  const age = diff < 0n ? -diff : diff;
  if (age > BigInt(Math.floor(toleranceSeconds))) {
    throw new WebhookError('stale', `timestamp outside the tolerance: t=${t} is ${diff}s from now (tolerance ${toleranceSeconds}s)`);
  }
  return true;
}
