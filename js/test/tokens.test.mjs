// mintToken against testdata/tokens.json, which Go's tokens.Mint wrote and
// whose tokens Go's tokens.Verify accepts (worker/tokens/vectors_test.go):
// a JavaScript token equal to its vector is a token the edge accepts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { mintToken, verifyToken, keyId, ParcelgateError } from '../src/index.js';
import { ROOT } from './helpers.mjs';

const vectors = JSON.parse(await fs.readFile(path.join(ROOT, 'testdata/tokens.json'), 'utf8'));

test('the vector file has every kind of case', () => {
  assert.ok(vectors.mint.length >= 8 && vectors.refuse.length >= 10 && vectors.tampered.length >= 5);
});

for (const v of vectors.mint) {
  test(`mints Go's token: ${v.name}`, async () => {
    const opts = { now: v.now_ms };
    if (v.ttl !== undefined) opts.ttl = v.ttl;
    const got = await mintToken(vectors.key, v.grant, opts);
    assert.deepEqual(got, { token: v.token, expiresAt: v.expiresAt, expiresIn: v.expiresIn, operations: v.operations });
    // A Date and a byte key give the same token.
    const again = await mintToken(new TextEncoder().encode(vectors.key), v.grant, { ...opts, now: new Date(v.now_ms) });
    assert.equal(again.token, v.token);
  });
}

for (const v of vectors.refuse) {
  test(`refuses like Go: ${v.name}`, async () => {
    const opts = { now: v.now_ms ?? 0 };
    if (v.ttl !== undefined) opts.ttl = v.ttl;
    await assert.rejects(mintToken(vectors.key, v.grant, opts), (err) => {
      assert.ok(err instanceof ParcelgateError, String(err));
      assert.equal(err.category, 'validation');
      assert.deepEqual(err.fieldErrors.map((e) => [e.field, e.message]), [[v.field, v.problem]]);
      assert.equal(err.message, `${v.field}: ${v.problem}`);
      return true;
    });
  });
}

test('tampered spellings of a JavaScript token are the ones Go refuses', async () => {
  // Go refuses each vectors.tampered string; JavaScript's own token for the
  // same grant is none of them, and tampering with it the same ways yields
  // exactly those strings (so they are what an attacker would send).
  const v = vectors.mint[0];
  const { token } = await mintToken(vectors.key, v.grant, { ttl: v.ttl, now: v.now_ms });
  const refused = new Map(vectors.tampered.map((t) => [t.name, t.token]));
  for (const [name, t] of refused) if (!name.startsWith('expired')) assert.notEqual(t, token, name);
  const dot = token.lastIndexOf('.');
  const flip = (s, i) => s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ 1) + s.slice(i + 1);
  assert.equal(refused.get('LF before the signature'), `${token.slice(0, dot + 1)}\n${token.slice(dot + 1)}`);
  assert.equal(refused.get('CR inside the payload'), `${token.slice(0, 10)}\r${token.slice(10)}`);
  assert.equal(refused.get('signature byte flipped'), flip(token, token.length - 1));
  assert.equal(refused.get('payload byte flipped'), flip(token, 'pgt1.'.length + 8 + 1 + 3));
  assert.equal(refused.get('padding appended'), `${token}=`);
  const foreign = await mintToken('another-signing-key-also-32-bytes-long', v.grant, { ttl: v.ttl, now: v.now_ms });
  assert.equal(refused.get('another key'), foreign.token);
  assert.notEqual(foreign.token, token);
  assert.equal(refused.get('expired (at its expiry)'), token);
});

test('key, ttl and now are checked', async () => {
  const g = { operations: ['new-shipment'], shippingClientRef: 'ORDER-1' };
  await assert.rejects(mintToken('x'.repeat(31), g), TypeError);
  await assert.rejects(mintToken(42, g), TypeError);
  for (const ttl of [0, 2592001, 1.5, '900', NaN]) {
    await assert.rejects(mintToken(vectors.key, g, { ttl }), (e) => e instanceof ParcelgateError && e.fieldErrors[0].field === 'ttl');
  }
  await assert.rejects(mintToken(vectors.key, g, { now: 'today' }), TypeError);
  // A booking grant lives at most 2 hours; a read may live a month.
  await assert.rejects(mintToken(vectors.key, g, { ttl: 7201 }), (e) => e.fieldErrors[0].field === 'ttl');
  assert.equal((await mintToken(vectors.key, { operations: ['get-shipment'], dlvrRef: 'D' }, { ttl: 2592000 })).expiresIn, 2592000);
  await assert.rejects(mintToken(vectors.key, { operations: ['new-collection'], dlvrRef: 'D', collectionClientRef: 7 }), (e) => e.fieldErrors[0].field === 'collection_client_ref');
  await assert.rejects(mintToken(vectors.key, { operations: ['get-shipment'], dlvrRef: 7 }), (e) => e.fieldErrors[0].field === 'dlvr_ref');
  await assert.rejects(mintToken(vectors.key, { operations: ['get-shipment'], dlvrRef: 'D\ud800' }), (e) => e.fieldErrors[0].field === 'dlvr_ref');
  // Default ttl and now: 900 seconds from the current second.
  const before = Math.floor(Date.now() / 1000);
  const t = await mintToken(vectors.key, g);
  assert.equal(t.expiresIn, 900);
  assert.ok(Date.parse(t.expiresAt) / 1000 >= before + 900);
});

test('operations as the POST /tokens spelling (comma-separated)', async () => {
  const v = vectors.mint[0];
  const t = await mintToken(vectors.key, { ...v.grant, operations: ` ${v.grant.operations.slice().reverse().join(' , ')} ,` }, { ttl: v.ttl, now: v.now_ms });
  assert.equal(t.token, v.token);
});

test('key ids are Go\'s', async () => {
  for (const [key, id] of Object.entries(vectors.keyIds)) assert.equal(await keyId(key), id);
});

for (const v of vectors.rotated) {
  test(`verifies a rotation like Go: ${v.name}`, async () => {
    const got = verifyToken(v.keys, v.token, { now: v.now_ms });
    if (v.reason === '') {
      const c = await got;
      assert.deepEqual(c.operations, ['get-shipment-tracking']);
      assert.equal(c.shippingClientRef, 'ORDER-7');
    } else {
      await assert.rejects(got, (err) => err.reason === v.reason);
    }
  });
}

test('verifyToken accepts every minted vector and refuses every tampered or outgrown one, as Go does', async () => {
  for (const v of vectors.mint) {
    const c = await verifyToken([vectors.key], v.token, { now: v.now_ms });
    assert.deepEqual(c.operations, v.operations, v.name);
    assert.equal(c.expiresAt, v.expiresAt, v.name);
  }
  for (const v of vectors.tampered) await assert.rejects(verifyToken([vectors.key], v.token, { now: v.now_ms }), (e) => typeof e.reason === 'string', v.name);
  for (const v of vectors.outgrown) await assert.rejects(verifyToken([vectors.key], v.token, { now: v.now_ms }), (e) => e.reason === 'grant', v.name);
  await assert.rejects(verifyToken([], vectors.mint[0].token), TypeError);
  await assert.rejects(verifyToken(['short'], vectors.mint[0].token), TypeError);
});

test('verifyToken checks now as mintToken does: a time it cannot read is a TypeError, never an unexpired token', async () => {
  const v = vectors.mint[0];
  // Long expired at the current time; a now that is not a time once read as "never expires".
  for (const now of ['today', null, NaN, '2020-01-01']) {
    await assert.rejects(verifyToken([vectors.key], v.token, { now }), TypeError, String(now));
  }
  assert.equal((await verifyToken([vectors.key], v.token, { now: new Date(v.now_ms) })).expiresAt, v.expiresAt);
});

test('a signing key in a SharedArrayBuffer signs and verifies as its bytes do (WebCrypto refuses such a view: it is copied)', async () => {
  const v = vectors.mint[0];
  const bytes = new TextEncoder().encode(vectors.key);
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  assert.equal((await mintToken(shared, v.grant, { ttl: v.ttl, now: v.now_ms })).token, v.token);
  assert.equal(await keyId(shared), await keyId(vectors.key));
  assert.deepEqual((await verifyToken([shared], v.token, { now: v.now_ms })).operations, v.operations);
});

// An offer quoted just before a key rotation stays bookable until it
// expires (the edge verifies it with TOKEN_SIGNING_KEY_PREVIOUS too), so
// mintToken takes the key set, as Go's tokens.MintWithKeys: the token is
// signed with the first key, the offer may be signed with any.
test('mintToken binds an offer signed with the previous key when given the key set', async () => {
  const O = JSON.parse(await fs.readFile(path.join(ROOT, 'testdata/offers.json'), 'utf8'));
  const v = O.offers.find((o) => o.previous);
  assert.ok(v, 'the vectors have an offer of the previous key');
  const current = 'the-current-signing-key-0123456789abcdef!';
  const grant = { operations: ['new-shipment'], shippingClientRef: 'ORD-33', offer: v.offer };
  const now = O.now_s * 1000;
  await assert.rejects(mintToken(current, grant, { now }), (e) => e instanceof ParcelgateError && /offer/.test(e.message),
    'with the new key alone the offer is foreign');
  const t = await mintToken([current, O.previousKey], grant, { now });
  const got = await verifyToken([current], t.token, { now });
  assert.deepEqual(got.operations, ['new-shipment']);
  await assert.rejects(verifyToken([O.previousKey], t.token, { now }), 'signed with the current key, not the previous one');
});

test('verifyToken bounds a token at 1024 bytes, as Go does, not 1024 UTF-16 units', async () => {
  // 400 "€" are 1,200 bytes and 400 units: Go's Verify says malformed before any MAC.
  const t = vectors.mint[0].token;
  const dot = t.indexOf('.', 'pgt1.'.length);
  const long = `${t.slice(0, dot + 1)}${'€'.repeat(400)}${t.slice(t.lastIndexOf('.'))}`;
  await assert.rejects(verifyToken([vectors.key], long, { now: vectors.mint[0].now_ms }), (e) => e.reason === 'malformed');
});
