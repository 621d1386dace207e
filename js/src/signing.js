// @ts-check
// The encodings the shop-server modules (tokens.js, offers.js) share with
// Go's worker/tokens and worker/offers: base64url without padding, and
// Go's url.QueryEscape / QueryUnescape. One copy, so a token and an offer
// are spelled by the same rules. Not imported by the Client or the widgets.

// The key rules tokens and offers share (worker/keyset): a key of at least
// 32 bytes, at most 4 in a set (the current one first), an 8-character id.
export const MIN_KEY_BYTES = 32;
export const MAX_KEYS = 4;
export const KEY_ID_LEN = 8;

/**
 * base64url without padding (Go's base64.RawURLEncoding).
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function base64url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The bytes of a base64url string without padding; null when it is not one.
 * @param {string} s
 * @returns {Uint8Array | null}
 */
export function unbase64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Go's url.QueryEscape.
 * @param {string} s
 * @returns {string}
 */
export function queryEscape(s) {
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Go's url.QueryUnescape: null for a broken escape or bytes that are not UTF-8.
 * @param {string} s
 * @returns {string | null}
 */
export function queryUnescape(s) {
  if (/%(?![0-9A-Fa-f]{2})/.test(s)) return null;
  try {
    /** @type {number[]} */
    const bytes = [];
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '%') {
        bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
        i += 2;
      } else if (c === '+') bytes.push(0x20);
      else bytes.push(...new TextEncoder().encode(c));
    }
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/**
 * A signing key's bytes (a string is UTF-8). A view over a SharedArrayBuffer
 * is copied: WebCrypto refuses one, and the key types promise any view.
 * @param {string | ArrayBuffer | ArrayBufferView} key
 * @param {string} fn the public function taking it, named by the TypeError
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function keyBytes(key, fn) {
  if (typeof key === 'string') return new TextEncoder().encode(key);
  if (key instanceof ArrayBuffer) return new Uint8Array(key);
  if (ArrayBuffer.isView(key)) {
    const u = new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
    return u.buffer instanceof ArrayBuffer ? /** @type {Uint8Array<ArrayBuffer>} */ (u) : new Uint8Array(u);
  }
  throw new TypeError(`parcelgate: ${fn}: a signing key must be a string, an ArrayBuffer or a Uint8Array`);
}

/**
 * WebCrypto, or a TypeError naming the function that needs it.
 * @param {string} fn
 * @returns {SubtleCrypto}
 */
export function subtle(fn) {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s) throw new TypeError(`parcelgate: ${fn} needs WebCrypto (globalThis.crypto.subtle; Node 20+)`);
  return s;
}

// Key ids by the key's bytes (as base64url): a shop's server checks many
// tokens and offers with one or two keys.
/** @type {Map<string, string>} */
const keyIds = new Map();

/**
 * The id of a signing key in the tokens and offers it signs (Go's
 * internal/keyset.ID): the first 8 characters of the base64url SHA-256 of
 * "pgt-key-id:" and the key. Cached per key.
 * @param {Uint8Array} key
 * @param {string} fn the public function, named when WebCrypto is missing
 * @returns {Promise<string>}
 */
export async function keyId(key, fn) {
  const cacheKey = base64url(key);
  let kid = keyIds.get(cacheKey);
  if (kid === undefined) {
    const label = new TextEncoder().encode('pgt-key-id:');
    const msg = new Uint8Array(label.length + key.byteLength);
    msg.set(label);
    msg.set(key, label.length);
    // 6 bytes are 8 base64url characters.
    kid = base64url(new Uint8Array(await subtle(fn).digest('SHA-256', msg)).subarray(0, 6));
    if (keyIds.size >= 16) keyIds.clear(); // a few keys in a process's life
    keyIds.set(cacheKey, kid);
  }
  return kid;
}
