// The demo shop's server (js/demo/server/shop.mjs) with the offers of
// testdata/offers.json: it keeps the cart, verifies the offer offline,
// compares it with the cart and the address, charges the signed price
// once and mints a grant bound to that offer; it refuses, in the
// shopper's language, an offer that is not the cart's (another
// destination, other parcels, a drop point it was not listed with),
// changed, foreign or expired. No edge and no browser: the upstream check
// is given.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createShop, readDevVars } from '../demo/server/shop.mjs';
import { verifyToken } from '../src/index.js';
import DEMO from '../demo/strings.js';

const vectors = JSON.parse(readFileSync(new URL('../../testdata/offers.json', import.meta.url), 'utf8'));
const now = vectors.now_s * 1000;
const home = vectors.offers[0]; // ES 28014 -> PT 1100-053, one parcel of 1.5 kg, 20 x 10 x 30
const dropPoint = vectors.offers[1]; // swiftpost, ES 08001, three parcels
const point = vectors.points[0]; // swiftpost SP-28013-004 near ES 08001
const ORIGIN = 'http://127.0.0.1:8787';
const parcel = (w, a, b, c, v) => ({ parcel_weight: w, parcel_width: a, parcel_height: b, parcel_length: c, parcel_volume: v });
// A cart of 1.2 kg of mugs in a box of 0.3 kg: the offer's one parcel of 1.5 kg.
const ONE_PARCEL = { lines: [{ sku: 'mug', qty: 2, price: '18.50', weight: '0.6' }], parcels: [parcel(1.5, 20, 10, 30, 6000)] };
const THREE_PARCELS = { lines: [{ sku: 'mug', qty: 1 }], parcels: [parcel(1.5, 20, 10, 30, 6000), parcel(0.75, 15.5, 5, 20, 1550), parcel(12, 40, 40, 60, 96000)] };
const address = (country, zip) => ({ to_name: 'Ana García', to_address: 'Rua Augusta 1', to_city: 'Lisboa', to_zip_code: zip,
  to_country_code: country, to_phone: '600000000', to_email: 'ana@example.com' });

const servers = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function shop(options = {}) {
  const logs = [];
  const handle = createShop({ signingKey: vectors.key, previousKey: vectors.previousKey, edge: 'http://edge.invalid', origins: [ORIGIN],
    upstream: async () => 'sandbox', now: () => now + 60_000, log: (l) => logs.push(l), cart: ONE_PARCEL, ...options });
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  const url = `http://127.0.0.1:${server.address().port}`;
  const post = async (path, body, headers = {}) => {
    const res = await fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...headers }, body: JSON.stringify(body) });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  return { url, post, logs };
}

test('an order for the cart: the signed price charged, a grant bound to the offer, the booking the shop checked', async () => {
  const s = await shop();
  const cart = (await s.post('/cart', {})).body.data;
  assert.deepEqual(cart.parcels, ONE_PARCEL.parcels);
  assert.equal(cart.value, '37.00');
  const r = await s.post('/orders', { cart: cart.id, offer: home.offer, address: address('PT', '1100-053'), lang: 'es', shipping_date: '2026-11-23' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.headers.get('access-control-allow-origin'), ORIGIN);
  const o = r.body.data;
  assert.deepEqual(o.charged, { shipping: '4.95', total: '41.95', currency: 'EUR' });
  const claims = await verifyToken([vectors.key], o.token, { now: now + 60_000 });
  assert.equal(claims.offerTag, home.tag, 'the grant is bound to the offer');
  assert.equal(claims.shippingClientRef, o.order);
  assert.ok(claims.operations.includes('new-shipment'));
  assert.equal(o.booking.carrier_code, 'acme-express');
  assert.equal(o.booking.service_code, 'acme-24');
  assert.equal(o.booking.offer, home.offer);
  assert.equal(o.booking.shipping_client_ref, o.order);
  assert.deepEqual(o.booking.parcels, ONE_PARCEL.parcels);
  assert.equal(o.booking.from_zip_code, '28014');

  // Placed again (a lost answer, a double click): the same order, charged once.
  const again = await s.post('/orders', { cart: cart.id, offer: home.offer, address: address('PT', '1100-053'), lang: 'es' });
  assert.equal(again.body.data.order, o.order);
  assert.equal(s.logs.filter((l) => l.includes('charged')).length, 1);
  // The cart remembers its order; a fresh token for it still books that offer only.
  assert.equal((await s.post('/cart', { cart: cart.id })).body.data.order.ref, o.order);
  const renewed = await s.post('/orders/token', { cart: cart.id });
  assert.equal((await verifyToken([vectors.key], renewed.body.data.token, { now: now + 60_000 })).offerTag, home.tag);
});

test('an offer that is not the cart\'s is refused in the shopper\'s language, and nothing is charged', async () => {
  const s = await shop();
  const cart = (await s.post('/cart', {})).body.data;
  const refused = async (body, lang = 'es', headers) => {
    const r = await s.post('/orders', { cart: cart.id, address: address('PT', '1100-053'), lang, ...body }, headers);
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal(r.body.data.code, 'quote_again');
    assert.ok(!('token' in r.body.data));
    return r.body.data.errorMessage;
  };
  // Another destination than the address.
  assert.equal(await refused({ address: address('PT', '1100-054') }), DEMO.es['demo.errQuoteAgain']);
  // Changed, foreign, not an offer.
  const changed = home.offer.replace(/\.(.)/, (m, c) => `.${c === 'A' ? 'B' : 'A'}`);
  assert.equal(await refused({ offer: changed }, 'de'), DEMO.de['demo.errQuoteAgain']);
  const mid = home.offer.length - 30;
  assert.ok(await refused({ offer: home.offer.slice(0, mid) + (home.offer[mid] === 'x' ? 'y' : 'x') + home.offer.slice(mid + 1) }));
  assert.ok(await refused({ offer: 'carrier/service' }));
  // The language from Accept-Language when the page does not say.
  assert.equal(await refused({ offer: '', lang: undefined }, undefined, { 'Accept-Language': 'fr-FR,fr;q=0.9' }), DEMO.fr['demo.errQuoteAgain']);
  // A drop-point offer for other parcels than the cart's.
  assert.ok(await refused({ offer: dropPoint.offer, address: address('ES', '08001'), point: point.point, drop_point_key: point.facts.key }));
  assert.equal(s.logs.filter((l) => l.includes('charged')).length, 0);

  // Expired: quote again.
  const late = await shop({ now: () => (home.facts.expiresAt + 1) * 1000 });
  const c2 = (await late.post('/cart', {})).body.data;
  const r = await late.post('/orders', { cart: c2.id, offer: home.offer, address: address('PT', '1100-053'), lang: 'en' });
  assert.equal(r.status, 409);
  assert.equal(r.body.data.errorMessage, DEMO.en['demo.errQuoteAgain']);
  assert.match(late.logs.join('\n'), /offer expired/);
});

test('a drop-point offer needs the point it was listed with, of its carrier, near its destination', async () => {
  const s = await shop({ cart: THREE_PARCELS });
  const cart = (await s.post('/cart', {})).body.data;
  const order = (extra) => s.post('/orders', { cart: cart.id, offer: dropPoint.offer, address: address('ES', '08001'), lang: 'es', ...extra });
  for (const extra of [{}, { point: point.point, drop_point_key: 'SP-OTHER' }, { point: vectors.points[1].point, drop_point_key: vectors.points[1].facts.key }]) {
    const r = await order(extra);
    assert.equal(r.status, 409, JSON.stringify(extra));
    assert.equal(r.body.data.errorMessage, DEMO.es['demo.errQuoteAgain']);
  }
  const ok = await order({ point: point.point, drop_point_key: point.facts.key });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.data.booking.drop_point_key, point.facts.key);
  assert.equal(ok.body.data.booking.point, point.point);
  // A home service with a drop point is not the offer either.
  const s2 = await shop();
  const c2 = (await s2.post('/cart', {})).body.data;
  const r = await s2.post('/orders', { cart: c2.id, offer: home.offer, address: address('PT', '1100-053'), point: point.point, drop_point_key: point.facts.key });
  assert.equal(r.status, 409);
});

test('the shop refuses an unknown cart, a bad address, a real upstream and other origins, in the shopper\'s language', async () => {
  const s = await shop();
  let r = await s.post('/orders', { cart: 'nope', offer: home.offer, address: address('PT', '1100-053'), lang: 'it' });
  assert.equal(r.status, 404);
  assert.equal(r.body.data.errorMessage, DEMO.it['demo.errCart']);
  const cart = (await s.post('/cart', {})).body.data;
  r = await s.post('/orders', { cart: cart.id, offer: home.offer, address: { ...address('PT', '1100-053'), to_email: 'not an email' }, lang: 'es' });
  assert.equal(r.status, 400);
  assert.equal(r.body.data.errorMessage, DEMO.es['demo.errAddress']);
  assert.deepEqual(r.body.data.errors.map((e) => e.field), ['to_email']);
  r = await s.post('/orders', { cart: cart.id }, { Origin: 'https://evil.example' });
  assert.equal(r.status, 403);
  assert.equal(r.headers.get('access-control-allow-origin'), null);
  const remote = await shop({ upstream: async () => 'remote' });
  const c2 = (await remote.post('/cart', {})).body.data;
  r = await remote.post('/orders', { cart: c2.id, offer: home.offer, address: address('PT', '1100-053'), lang: 'es' });
  assert.equal(r.status, 409);
  assert.equal(r.body.data.errorMessage, DEMO.es['demo.remote']);
});

test('the shop reads only the signing keys of a .dev.vars', async (t) => {
  const fs = await import('node:fs/promises');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const f = path.join(dir, '.dev.vars');
  await fs.writeFile(f, '# comment\nPROXY_TOKEN=secret\nTOKEN_SIGNING_KEY="a \\"quoted\\" key"\nTOKEN_SIGNING_KEY_PREVIOUS=\'prev\'\n');
  assert.deepEqual(readDevVars(f, ['TOKEN_SIGNING_KEY', 'TOKEN_SIGNING_KEY_PREVIOUS']), { TOKEN_SIGNING_KEY: 'a "quoted" key', TOKEN_SIGNING_KEY_PREVIOUS: 'prev' });
});

