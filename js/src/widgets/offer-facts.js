// @ts-check
// What a page may read of an offer or a signed drop point: its unsigned
// facts. The edge signs them (worker/offers: "pgo1.<kid>.<payload>.<mac>",
// the payload a base64url query); a page cannot verify the MAC (it never
// holds the key) and does not need to: the widgets only read the expiry,
// the service and the place, to know when a choice went stale. The shop's
// server verifies with verifyOffer (js/src/offers.js), which this module
// does not import (no WebCrypto, a few hundred bytes).

import { OFFER_NAMES, ORDER_VALUE, POINT_NAMES } from '../offer-layout.js';

/**
 * An offer's or point's fields by name (offer-layout.js: e, c, s, p, cu, dp,
 * sr, fc, fz, tc, tz, pc and an optional last ov for an offer; e, c, key,
 * cc, z for a point), or null for a string that is not one. `e` is the
 * expiry in Unix seconds.
 * @param {unknown} s
 * @returns {Record<string, string> | null}
 */
export function offerFacts(s) {
  if (typeof s !== 'string' || !/^pg[op]1\.[^.]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/.test(s)) return null;
  try {
    const b64 = s.split('.')[2].replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    const offer = s[2] === 'o';
    const names = offer ? OFFER_NAMES : POINT_NAMES;
    const parts = text.split('&');
    // The signed layout, in its order; an offer may end with its order value.
    const n = parts.length;
    if (n !== names.length && !(offer && n === names.length + 1)) return null;
    /** @type {Record<string, string>} */
    const out = {};
    for (let i = 0; i < n; i++) {
      const name = i < names.length ? names[i] : ORDER_VALUE;
      const eq = parts[i].indexOf('=');
      if (parts[i].slice(0, eq) !== name) return null;
      out[name] = decodeURIComponent(parts[i].slice(eq + 1).replace(/\+/g, ' '));
    }
    return /^[1-9][0-9]*$/.test(out.e) ? out : null;
  } catch {
    return null;
  }
}

/**
 * Whether an offer or point has expired by this page's clock (false for a
 * string that is not one: nothing to re-quote).
 * @param {unknown} s
 * @param {number} [now] ms
 */
export function expired(s, now = Date.now()) {
  const f = offerFacts(s);
  return !!f && Number(f.e) * 1000 <= now;
}
