// @ts-check
// The encodings the shop-server modules (tokens.js, offers.js) share with
// Go's worker/tokens and worker/offers: base64url without padding, and
// Go's url.QueryEscape / QueryUnescape. One copy, so a token and an offer
// are spelled by the same rules. Not imported by the Client or the widgets.

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
