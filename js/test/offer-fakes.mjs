// Offers and points shaped as the edge signs them (worker/offers:
// "pgo1.<kid>.<payload>.<mac>"), for the widget tests' fake edge. The MAC is
// a placeholder: a page never verifies one (it cannot hold the key); it reads
// the unsigned facts (expiry, service, place), which these carry for real.

import { OFFER_NAMES, POINT_NAMES } from '../src/offer-layout.js';

const b64url = (s) => Buffer.from(s, 'utf8').toString('base64url');
const esc = (v) => encodeURIComponent(String(v)).replace(/%20/g, '+');
const TAG = 'fakeMACfakeMACfakeMAC0';

/** Unix seconds `s` from now (negative: already expired). */
export const inSeconds = (s) => Math.floor(Date.now() / 1000) + s;

/** An offer with these facts ({e, c, s, p, cu, dp, sr, fc, fz, tc, tz, pc}; sr defaults to l, live), in the edge's layout. */
export function fakeOffer(f) {
  const facts = { sr: 'l', ...f };
  const payload = OFFER_NAMES.map((n) => `${n}=${n === 'pc' ? facts[n] : esc(facts[n] ?? '')}`).join('&');
  return `pgo1.testkid0.${b64url(payload)}.${TAG}`;
}

/** A signed point with these facts ({e, c, key, cc, z}). */
export function fakePoint(f) {
  const payload = POINT_NAMES.map((n) => `${n}=${esc(f[n] ?? '')}`).join('&');
  return `pgp1.testkid0.${b64url(payload)}.${TAG}`;
}

const canon = (v) => String(Number(v));

/**
 * A get-shipments-rates answer with an offer per service for the request's
 * route and parcels (params: the request's URLSearchParams), as the edge
 * signs them. options: e (expiry, Unix seconds), price(service) -> a price
 * to show instead (the offer binds it too).
 */
export function signRates(body, params, { e = inSeconds(1800), price } = {}) {
  const out = structuredClone(body);
  const pc = [];
  for (let i = 0; params.has(`parcels[${i}][parcel_weight]`); i++) {
    pc.push(['weight', 'width', 'height', 'length', 'volume'].map((k) => canon(params.get(`parcels[${i}][parcel_${k}]`))).join('*'));
  }
  for (const s of out.data.services) {
    if (price) s.price = price(s) ?? s.price;
    s.offer = fakeOffer({
      e, c: s.carrier_code, s: s.service_code, p: canon(s.price), cu: s.currency || 'EUR', dp: s.is_drop_point ? 1 : 0,
      fc: params.get('from_country_code'), fz: params.get('from_zip_code'), tc: params.get('to_country_code'), tz: params.get('to_zip_code'),
      pc: pc.join(','),
    });
  }
  return out;
}

/** A get-drop-points answer with a signed point per drop point, listed near the request's place. */
export function signPoints(body, params, { e = inSeconds(1800) } = {}) {
  const out = structuredClone(body);
  for (const p of out.data.drop_points) {
    p.point = fakePoint({ e, c: p.carrier_code, key: p.drop_point_key, cc: params.get('country_code'), z: params.get('zip_code') });
  }
  return out;
}
