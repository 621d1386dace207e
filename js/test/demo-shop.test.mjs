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


test('the offer\'s order value is the cart\'s: a page that claims a higher one to ship free is refused', async () => {
  const free = vectors.offers[5]; // swiftpost drop point, price 0 for an order value of 79.9 (free over 60)
  assert.equal(free.facts.orderValue, '79.9');
  assert.equal(free.facts.price, '0');
  const order = (s, cart) => s.post('/orders', { cart: cart.id, offer: free.offer, address: address('ES', '08001'), lang: 'es',
    point: point.point, drop_point_key: point.facts.key });
  // A cart of 37 €: the page sent 79.9 to get the free rule.
  const s = await shop();
  const cart = (await s.post('/cart', {})).body.data;
  assert.equal(cart.value, '37.00');
  const r = await order(s, cart);
  assert.equal(r.status, 409, JSON.stringify(r.body));
  assert.equal(r.body.data.code, 'quote_again');
  assert.equal(r.body.data.errorMessage, DEMO.es['demo.errQuoteAgain']);
  assert.match(s.logs.join('\n'), /order value 79\.9/);
  assert.equal(s.logs.filter((l) => l.includes('charged')).length, 0);
  // A cart of 79.90 €: free shipping, charged 0.
  const s2 = await shop({ cart: { lines: [{ sku: 'bowl', qty: 1, price: '79.90', weight: '1.2' }], parcels: ONE_PARCEL.parcels } });
  const c2 = (await s2.post('/cart', {})).body.data;
  const ok = await order(s2, c2);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.data.charged, { shipping: '0.00', total: '79.90', currency: 'EUR' });
  assert.equal((await verifyToken([vectors.key], ok.body.data.token, { now: now + 60_000 })).offerTag, free.tag);
});

test('a fallback offer (the carrier API was down): charged at its signed price, no booking grant, the label follows', async () => {
  const fallback = vectors.offers[7];
  assert.equal(fallback.facts.source, 'fallback');
  // The vector's order value is 0: a cart of one free sample.
  const s = await shop({ cart: { lines: [{ sku: 'mug', qty: 1, price: '0.00', weight: '1.2' }], parcels: ONE_PARCEL.parcels } });
  const cart = (await s.post('/cart', {})).body.data;
  const place = () => s.post('/orders', { cart: cart.id, offer: fallback.offer, address: address('ES', '28001'), lang: 'pt' });
  const r = await place();
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const o = r.body.data;
  assert.equal(o.state, 'label_pending');
  assert.deepEqual(o.charged, { shipping: '4.95', total: '4.95', currency: 'EUR' });
  assert.ok(!('token' in o) && !('booking' in o), 'no grant: the edge refuses to book a fallback offer');
  // Placed again: the same order, charged once; the cart says it is label pending; no token for it.
  const again = await place();
  assert.equal(again.body.data.order, o.order);
  assert.equal(again.body.data.state, 'label_pending');
  assert.equal(s.logs.filter((l) => l.includes('charged')).length, 1);
  assert.match(s.logs.join('\n'), new RegExp(`order ${o.order} label pending`));
  assert.equal((await s.post('/cart', { cart: cart.id })).body.data.order.state, 'label_pending');
  const t = await s.post('/orders/token', { cart: cart.id, lang: 'pt' });
  assert.equal(t.status, 409);
  assert.equal(t.body.data.code, 'label_pending');
  assert.equal(t.body.data.errorMessage, DEMO.pt['demo.labelFollows']);
});

/**
 * The offer with its payload changed by edit (a string -> string) and
 * signed again with key, as the edge signs (worker/offers: the MAC is the
 * first 16 bytes of an HMAC-SHA256 with a key derived from the signing
 * key, over "pgo1.<kid>.<payload>"): another offer the shopper was shown.
 */
async function resign(offer, key, edit) {
  const [, kid, b64] = offer.split('.');
  const payload = edit(Buffer.from(b64, 'base64url').toString('utf8'));
  const hmac = async (k, msg) => {
    const ck = await crypto.subtle.importKey('raw', k, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await crypto.subtle.sign('HMAC', ck, new TextEncoder().encode(msg)));
  };
  const signed = `pgo1.${kid}.${Buffer.from(payload, 'utf8').toString('base64url')}`;
  const mac = await hmac(await hmac(new TextEncoder().encode(key), 'parcelgate offer v1'), signed);
  return `${signed}.${Buffer.from(mac.subarray(0, 16)).toString('base64url')}`;
}

/** A fake edge answering get-shipment-tracking by client_ref with `status` (and recording what it was asked). */
async function fakeEdge() {
  const e = { status: 404, calls: [] };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://edge');
    const token = String(req.headers.authorization || '').replace(/^Bearer /, '');
    e.calls.push({ path: url.pathname, clientRef: url.searchParams.get('client_ref'), token });
    const body = e.status === 200 ? { status: 'ok', data: { events: [] } } : { status: 'err', data: { errorCode: 400, errorMessage: 'no shipment with this client reference' } };
    res.writeHead(e.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  e.url = `http://127.0.0.1:${server.address().port}`;
  return e;
}

test('another offer for an order a grant may have booked: charged only when the edge says the order is not booked, and never for less while the first may still book', async () => {
  const first = home; // acme-24 to PT at 4.95, signed with the key
  assert.equal(await resign(first.offer, vectors.key, (p) => p), first.offer, 'resign signs as the edge does');
  // Other services to the same address: one cheaper, one dearer.
  const other = async (service, price) => {
    const offer = await resign(first.offer, vectors.key, (p) => p.replace('s=acme-24', `s=${service}`).replace('p=4.95', `p=${price}`));
    return { offer, tag: offer.slice(-22), service };
  };
  const cheaper = await other('acme-72', '3.5');
  const dearer = await other('acme-express', '6');
  const edge = await fakeEdge();
  let clock = now + 60_000;
  const s = await shop({ edge: edge.url, now: () => clock });
  const cart = (await s.post('/cart', {})).body.data;
  const place = (offer, lang = 'es') => s.post('/orders', { cart: cart.id, offer: offer.offer, address: address('PT', '1100-053'), lang });
  const charges = () => s.logs.filter((l) => l.includes(' charged ')).length;
  const placed = await place(first);
  assert.equal(placed.status, 200);
  const ref = placed.body.data.order;

  // The booking's answer was lost and the shopper chose a cheaper service
  // at once: the grant handed out may be booking the first offer now. The
  // first charge stands, the edge is not even asked, and the shopper reads why.
  let r = await place(cheaper);
  assert.equal(r.status, 409, JSON.stringify(r.body));
  assert.equal(r.body.data.code, 'order_pending');
  assert.equal(r.body.data.errorMessage, DEMO.es['demo.errPending']);
  assert.ok(!('token' in r.body.data));
  assert.equal(edge.calls.length, 0);
  assert.equal(charges(), 1);
  // The first offer again: the same order, its grant (nothing new charged).
  r = await place(first);
  assert.equal(r.status, 200);
  assert.equal((await verifyToken([vectors.key], r.body.data.token, { now: clock })).offerTag, first.tag);
  assert.equal(charges(), 1);

  // A dearer service: the shop asks the edge, read-only, by the order's
  // reference. The edge booked it: refused, the first charge stands.
  edge.status = 200;
  r = await place(dearer, 'de');
  assert.equal(r.status, 409, JSON.stringify(r.body));
  assert.equal(r.body.data.code, 'booked');
  assert.equal(r.body.data.errorMessage, DEMO.de['demo.errBooked']);
  assert.equal(edge.calls.length, 1);
  assert.equal(edge.calls[0].path, '/v1/get-shipment-tracking');
  assert.equal(edge.calls[0].clientRef, ref);
  const claims = await verifyToken([vectors.key], edge.calls[0].token, { now: clock });
  assert.deepEqual(claims.operations, ['get-shipment-tracking'], 'a read-only token');
  assert.equal(claims.shippingClientRef, ref);
  assert.equal(charges(), 1);
  // The edge cannot tell (down): still the first charge.
  edge.status = 502;
  r = await place(dearer);
  assert.equal(r.status, 503);
  assert.equal(r.body.data.code, 'order_pending');
  assert.equal(charges(), 1);
  // No shipment with that reference: the dearer offer is charged (the same order reference), its grant bound to it.
  edge.status = 404;
  r = await place(dearer);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.data.order, ref, 'the same order reference: the edge still books it once');
  assert.equal(charges(), 2);
  assert.match(s.logs.join('\n'), new RegExp(`order ${ref} not booked with acme-express/acme-24: its charge is replaced`));
  assert.equal((await verifyToken([vectors.key], r.body.data.token, { now: clock })).offerTag, dearer.tag);
  assert.deepEqual(r.body.data.charged, { shipping: '6.00', total: '43.00', currency: 'EUR' });

  // The cheaper one once every grant for the dearer has expired (5
  // minutes) and a booking sent with one has landed, and the edge says
  // not booked: charged.
  assert.equal((await place(cheaper)).status, 409);
  clock += 6 * 60_000;
  r = await place(cheaper);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.data.booking.service_code, 'acme-72');
  assert.deepEqual(r.body.data.charged, { shipping: '3.50', total: '40.50', currency: 'EUR' });
  assert.equal(charges(), 3);
});
