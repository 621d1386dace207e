// The edge core's part of `go run ./worker/bench -parts offers` in Node:
// the same raw rates request (prepare, then normalize with keep, the
// forward's sign and pricing bases) against three instances, as the
// bench's three workerd processes are configured (no TOKEN_SIGNING_KEY;
// offers; offers and PRICING_RULES), with the bench's answer and rules
// (offers.go). The core alone, without workerd, wrangler's bundle or the
// other processes' spread: where issue 31's rules-and-offers cost
// lives, and what a change to pricing or signing does to it (OFFERS.md).
//
//   node worker/bench/rates-core.mjs [core.wasm ...]
//
// Several builds alternate round by round (e.g. main's and a branch's).
// Per-request figures include the instance renewals past RENEW_ABOVE
// (counted: the heap never frees, so bytes allocated are CPU too).

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createCore } from '../src/core.mjs';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['build/worker/core.wasm'];
const MASTER = 'master-token-0123456789abcdef0123456789';
const vars = {
  UPSTREAM_BASE_URL: 'https://api.example.com/v1', API_USER: 'shop-user', API_KEY: 'api-key-0123456789',
  PROXY_TOKEN: MASTER, TOKEN_SIGNING_KEY: 'signing-key-0123456789abcdef0123456789ab',
};
const bindings = { bookings: true, watchlist: false, sandbox: false };
const now = Date.UTC(2026, 10, 21, 6);
const rules = JSON.stringify([
  { kind: 'drop_point', markup_fixed: '0.50', free_from: '60',
    name: { en: 'Pick-up point', es: 'Punto de recogida', pt: 'Ponto de recolha', fr: 'Point relais', de: 'Paketshop', it: 'Punto di ritiro', nl: 'Afhaalpunt' } },
  { country: ['PT', 'FR'], markup_percent: 15, round_end: '.95' },
  { markup_percent: 10, markup_fixed: '0.30', round_end: '.95', min: '3.95', max: '14.95' },
]);
const service = (id, code, carrier, dp, price, days) =>
  ({ id_service: id, service_name: code, service_code: code, carrier_code: carrier, is_drop_point: dp, price, currency: 'EUR', transit_days: days });
const body = JSON.stringify({ status: 'ok', data: {
  best_price_service: { id_service: 12, service_code: 'swift-shop', carrier_code: 'swift', is_drop_point: 1, price: '3.90', currency: 'EUR' },
  services: [service(11, 'rayo-24', 'rayo', 0, '4.95', 1), service(12, 'swift-shop', 'swift', 1, '3.90', 2),
    service(13, 'rayo-48', 'rayo', 0, '4.10', 2), service(14, 'norte-72', 'norte', 0, '3.95', 3), service(15, 'rayo-10', 'rayo', 0, '9.80', 1)],
} });
const query = 'from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001' +
  '&parcels%5B0%5D%5Bparcel_weight%5D=2&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10' +
  '&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000&order_value=45';
const facts = { method: 'GET', query, body: null, bodyTooLarge: false, contentType: null, acceptLanguage: 'es-ES,es;q=0.9',
  authorization: `Bearer ${MASTER}`, clientIp: '203.0.113.9', requestId: 'rid', now, operation: 'get-shipments-rates' };

/** @param {any} c */
const request = (c) => {
  const p = c.prepare(facts);
  return c.normalize({ operation: 'get-shipments-rates', body, keep: true, sign: p.forward.sign, pricing: p.forward.pricing, now });
};

const builds = [];
for (const file of files) {
  const module = new WebAssembly.Module(fs.readFileSync(file));
  /** @param {Record<string, string>} extra */
  const make = async (extra) => {
    const c = await createCore(module);
    c.configure({ vars: { ...vars, ...extra }, bindings });
    return c;
  };
  const cores = { without: await make({ TOKEN_SIGNING_KEY: '' }), offers: await make({}), 'rules+offers': await make({ PRICING_RULES: rules }) };
  // The answers the bench checks: offers where signed, the rules' name where set.
  for (const [k, c] of Object.entries(cores)) {
    const b = request(c).body;
    if (b.includes('"offer"') !== (k !== 'without') || b.includes('Punto de recogida') !== (k === 'rules+offers')) {
      throw new Error(`${file} ${k}: not the bench's answer: ${b}`);
    }
  }
  builds.push({ file, cores, us: /** @type {Record<string, number[]>} */ ({}) });
}

const ROUNDS = 5;
const N = 4000;
for (let r = 0; r < ROUNDS; r++) {
  for (const b of builds) {
    for (const [k, c] of Object.entries(b.cores)) {
      for (let i = 0; i < 300; i++) request(c);
      const t = performance.now();
      for (let i = 0; i < N; i++) request(c);
      (b.us[k] ||= []).push(((performance.now() - t) / N) * 1000);
    }
  }
}
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`| build | without µs | offers µs | rules+offers µs | offers / without | rules+offers / without | renewals (without, offers, rules+offers) |`);
console.log('|---|---|---|---|---|---|---|');
for (const b of builds) {
  const [w, o, p] = ['without', 'offers', 'rules+offers'].map((k) => median(b.us[k]));
  const rn = Object.values(b.cores).map((c) => c.renewals).join(', ');
  console.log(`| ${b.file} | ${w.toFixed(1)} | ${o.toFixed(1)} | ${p.toFixed(1)} | ${(o / w).toFixed(2)}x | ${(p / w).toFixed(2)}x | ${rn} |`);
}
console.log(`(median of ${ROUNDS} rounds of ${N} requests each, builds and instances alternating)`);
