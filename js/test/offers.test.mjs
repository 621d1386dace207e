// verifyOffer / verifyPoint against testdata/offers.json (written by Go's
// worker/offers): the same facts for every offer, the same reason for
// every refusal.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { verifyOffer, verifyPoint, offerDiffers, offerTag, OfferError, keyId } from '../src/index.js';

const vectors = JSON.parse(readFileSync(new URL('../../testdata/offers.json', import.meta.url), 'utf8'));
const keys = [vectors.key, vectors.previousKey];
const named = (names) => (names ? names.map((n) => vectors[n]) : keys);
const now = vectors.now_s * 1000;

const iso = (s) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

for (const v of vectors.offers) {
  test(`verifies like Go: ${v.name}`, async () => {
    const f = await verifyOffer(keys, v.offer, { now });
    const { expiresAt, ...facts } = v.facts;
    assert.deepEqual({ ...f, expiresAt: undefined, tag: undefined }, { ...facts, expiresAt: undefined, tag: undefined });
    assert.equal(f.expiresAt, iso(expiresAt));
    assert.equal(f.tag, v.tag);
    assert.equal(offerTag(v.offer), v.tag);
    assert.equal(v.offer.length, v.bytes);
    if (v.previous) {
      await assert.rejects(verifyOffer(vectors.key, v.offer, { now }), (e) => e instanceof OfferError && e.reason === 'foreign');
    }
  });
}

for (const v of vectors.points) {
  test(`verifies a point like Go: ${v.name}`, async () => {
    const p = await verifyPoint(keys, v.point, { now: new Date(now) });
    assert.deepEqual(p, { carrier: v.facts.carrier, key: v.facts.key, near: v.facts.near, expiresAt: iso(v.facts.expiresAt) });
    // Either order of the set; the previous key's point is foreign without it.
    await verifyPoint([vectors.previousKey, vectors.key], v.point, { now });
    if (v.previous) {
      await assert.rejects(verifyPoint(vectors.key, v.point, { now }), (e) => e instanceof OfferError && e.reason === 'foreign');
    }
  });
}

for (const v of vectors.refused) {
  test(`refuses like Go: ${v.name}`, async () => {
    await assert.rejects(verifyOffer(named(v.keys), v.offer, { now: v.now_s * 1000 }), (e) => {
      assert.ok(e instanceof OfferError, String(e));
      assert.equal(e.reason, v.reason);
      return true;
    });
  });
}

test('a short key is refused', async () => {
  await assert.rejects(verifyOffer('short', vectors.offers[0].offer, { now }), (e) => e.reason === 'key');
});

test("offers carry their signing key's id, the one its tokens carry (keyId)", async () => {
  assert.equal(await keyId(vectors.key), vectors.keyId);
  assert.equal(await keyId(vectors.previousKey), vectors.previousKeyId);
  for (const v of vectors.offers) assert.equal(v.offer.split('.')[1], v.previous ? vectors.previousKeyId : vectors.keyId);
});

test('a key set of more than 4 keys is refused', async () => {
  await assert.rejects(verifyOffer([1, 2, 3, 4, 5].map(() => vectors.key), vectors.offers[0].offer, { now }), TypeError);
});

// worker/offers/README.md's Node snippet of the order flow, run as written (its
// package import pointed at this checkout's source).
test("worker/offers/README.md's order flow (Node) verifies, binds and refuses", async () => {
  const readme = readFileSync(new URL('../../worker/offers/README.md', import.meta.url), 'utf8');
  const block = /```js offer-flow\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the offer-flow block is in worker/offers/README.md');
  const src = block[1].replace("'@parcelgate/js'", JSON.stringify(new URL('../src/index.js', import.meta.url).href));
  const { placeOrder } = await import(`data:text/javascript,${encodeURIComponent(src)}`);
  const env = { TOKEN_SIGNING_KEY: vectors.key, TOKEN_SIGNING_KEY_PREVIOUS: vectors.previousKey };
  const v = vectors.offers[0];
  const cart = { postalCode: v.facts.to.postal, parcels: 1 };
  const got = await placeOrder({ offer: v.offer, orderRef: 'ORDER-1001', cart }, env, now);
  assert.deepEqual({ ...got, token: undefined }, { token: undefined, price: '4.95', currency: 'EUR', service: 'acme-express/acme-24' });
  const { verifyToken } = await import('../src/index.js');
  assert.equal((await verifyToken([vectors.key], got.token, { now })).offerTag, v.tag);
  await assert.rejects(placeOrder({ offer: v.offer, orderRef: 'ORDER-1001', cart: { ...cart, postalCode: '28001' } }, env, now), /quote again/);
  await assert.rejects(placeOrder({ offer: v.offer, orderRef: 'ORDER-1001', cart }, env, (vectors.now_s + 1800) * 1000), (e) => e.reason === 'expired');
});

// offerDiffers: the shop's comparison of a verified offer with its own booking, on the shared
// vectors: the booking made from each offer's facts matches; changing any one part names it.
test('offerDiffers names exactly what differs from the shop\'s own booking', () => {
  const V = vectors;
  const point = { carrier: '', key: 'PT-1', near: { country: '', postal: '' }, expiresAt: '' };
  for (const v of V.offers) {
    const f = v.facts;
    const booking = {
      from_country_code: f.from.country, from_zip_code: f.from.postal.toLowerCase(), to_country_code: f.to.country, to_zip_code: ` ${f.to.postal} `,
      parcels: f.parcels.map((p) => ({ parcel_weight: p.weight === '' ? undefined : Number(p.weight), parcel_width: Number(p.width).toFixed(2), parcel_height: p.height, parcel_length: Number(p.length), parcel_volume: p.volume })),
    };
    const pt = { ...point, carrier: f.carrier, near: { ...f.to } };
    const cart = f.dropPoint ? { orderValue: f.orderValue, point: pt, dropPointKey: 'PT-1' } : { orderValue: f.orderValue };
    assert.deepEqual(offerDiffers(f, booking, cart), [], `${v.name}: the same booking`);
    assert.deepEqual(offerDiffers(f, { ...booking, to_zip_code: '99999' }, cart), ['destination'], v.name);
    assert.deepEqual(offerDiffers(f, { ...booking, from_country_code: 'FR' }, cart), ['origin'], v.name);
    assert.deepEqual(offerDiffers(f, { ...booking, parcels: [...booking.parcels, booking.parcels[0]] }, cart), ['parcels'], v.name);
    assert.deepEqual(offerDiffers(f, { ...booking, parcels: booking.parcels.map((p, i) => (i ? p : { ...p, parcel_width: 99 })) }, cart), ['parcels'], v.name);
    if (f.orderValue !== undefined) {
      assert.deepEqual(offerDiffers(f, booking, { ...cart, orderValue: Number(f.orderValue) + 1 }), ['order_value'], `${v.name}: a higher cart`);
      assert.deepEqual(offerDiffers(f, booking, { ...cart, orderValue: undefined }), ['order_value'], `${v.name}: no cart value`);
    }
    if (f.dropPoint) {
      assert.deepEqual(offerDiffers(f, booking, { ...cart, point: undefined }), ['drop_point'], `${v.name}: no point`);
      assert.deepEqual(offerDiffers(f, booking, { ...cart, point: { ...pt, carrier: 'other' } }), ['drop_point'], `${v.name}: another carrier's point`);
      assert.deepEqual(offerDiffers(f, booking, { ...cart, dropPointKey: 'PT-2' }), ['drop_point'], `${v.name}: another key`);
    } else {
      assert.deepEqual(offerDiffers(f, booking, { ...cart, point: pt }), ['drop_point'], `${v.name}: a point for a home service`);
    }
  }
});
