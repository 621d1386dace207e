// js/README.md's order flow, the shop's server (```js order-flow-server```),
// run as written (its package import pointed at this checkout's source)
// with the offers of testdata/offers.json: checkout verifies the offer,
// compares it with the cart, charges the signed price and mints a token
// bound to it, or says to quote again; tracked stores a signed webhook
// event once and refuses a changed one. The page's half runs against
// make dev's stack in js/test/e2e/order-flow.test.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { verifyToken } from '../src/index.js';

const vectors = JSON.parse(readFileSync(new URL('../../testdata/offers.json', import.meta.url), 'utf8'));
const now = vectors.now_s * 1000;

/** A ```js <name>``` block of js/README.md as a module. */
async function readmeBlock(name) {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = new RegExp('```js ' + name + '\\n([\\s\\S]*?)```').exec(readme);
  assert.ok(block, `the ${name} block is in js/README.md`);
  const src = block[1].replace("'@parcelgate/js'", JSON.stringify(new URL('../src/index.js', import.meta.url).href));
  return import(`data:text/javascript,${encodeURIComponent(src)}`);
}

const env = { TOKEN_SIGNING_KEY: vectors.key, TOKEN_SIGNING_KEY_PREVIOUS: vectors.previousKey, WEBHOOK_SECRET: 'the-shop-webhook-secret-0123456789abcdef' };
const parcel = (w, a, b, c, v) => ({ parcel_weight: w, parcel_width: a, parcel_height: b, parcel_length: c, parcel_volume: v });
function cartFor(to, parcels) {
  const charged = [];
  return {
    charged,
    charge: async (price, currency) => charged.push(`${price} ${currency}`),
    booking: { shipping_client_ref: 'ORDER-1001', shipping_date: '2026-11-23', service_type: 'custom', from_country_code: 'ES', from_zip_code: '28014',
      to_country_code: to.country, to_zip_code: to.postal, parcels },
  };
}

test("js/README.md's order flow (server): verify, compare, charge, bind; otherwise quote again", async () => {
  const { checkout } = await readmeBlock('order-flow-server');
  const home = vectors.offers[0]; // ES 28014 -> PT 1100-053, one parcel
  const one = [parcel(1.5, 20, 10, 30, 6000)];
  const cart = cartFor(home.facts.to, one);
  const placed = await checkout({ offer: home.offer }, cart, env, now);
  assert.deepEqual(cart.charged, ['4.95 EUR']);
  const claims = await verifyToken([vectors.key], placed.token, { now });
  assert.equal(claims.offerTag, home.tag);
  assert.equal(claims.shippingClientRef, 'ORDER-1001');
  assert.equal(placed.booking.carrier_code, 'acme-express');
  assert.equal(placed.booking.service_code, 'acme-24');
  assert.equal(placed.booking.offer, home.offer);

  // Another destination, other parcels: quote again, nothing charged.
  for (const c of [cartFor({ country: 'PT', postal: '1100-054' }, one), cartFor(home.facts.to, [parcel(2, 20, 10, 30, 6000)]),
    cartFor(home.facts.to, [...one, ...one])]) {
    assert.deepEqual(await checkout({ offer: home.offer }, c, env, now), { quoteAgain: true });
    assert.deepEqual(c.charged, []);
  }
  // Expired, or changed: refused by verifyOffer.
  await assert.rejects(checkout({ offer: home.offer }, cartFor(home.facts.to, one), env, (home.facts.expiresAt + 1) * 1000), (e) => e.reason === 'expired');
  const changed = home.offer.slice(0, -2) + (home.offer.at(-2) === 'A' ? 'B' : 'A') + home.offer.at(-1);
  await assert.rejects(checkout({ offer: changed }, cartFor(home.facts.to, one), env, now), (e) => e.reason === 'tampered');

  // A drop-point offer: only with the point it was listed with.
  const dp = vectors.offers[1];
  const three = dp.facts.parcels.map((p) => parcel(...[p.weight, p.width, p.height, p.length, p.volume].map(Number)));
  const point = vectors.points[0];
  assert.deepEqual(await checkout({ offer: dp.offer, point: point.point, dropPointKey: 'SP-OTHER' }, cartFor(dp.facts.to, three), env, now), { quoteAgain: true });
  const withPoint = await checkout({ offer: dp.offer, point: point.point, dropPointKey: point.facts.key }, cartFor(dp.facts.to, three), env, now);
  assert.equal(withPoint.booking.drop_point_key, point.facts.key);
  assert.equal(withPoint.booking.point, point.point);
});

test("js/README.md's order flow (server): a signed tracking webhook is stored once, a changed one refused", async () => {
  const { tracked } = await readmeBlock('order-flow-server');
  const body = JSON.stringify({ id: 'evt_1', type: 'shipment.tracking_updated', created: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    data: { shipping_client_ref: 'ORDER-1001', shipping_dlvr_ref: 'SBX1', tracking_code: '01' } });
  const t = Math.floor(Date.now() / 1000);
  const sig = `t=${t},v1=${createHmac('sha256', env.WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex')}`;
  const seen = new Map();
  assert.equal(await tracked(body, sig, env, seen), '01');
  assert.equal(await tracked(body, sig, env, seen), '01');
  assert.equal(seen.size, 1);
  await assert.rejects(tracked(body.replace('"01"', '"08"'), sig, env, seen), (e) => e.code === 'signature');
});
