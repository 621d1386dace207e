// What the widgets read of an offer or a signed point without the key
// (src/widgets/offer-facts.js), on the vectors Go and verifyOffer share
// (testdata/offers.json): the same facts verifyOffer returns, expiry by the
// page's clock, and null for anything that is not one. It never verifies:
// a tampered vector still reads (the shop's server refuses it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.mjs';
import { offerFacts, expired } from '../src/widgets/offer-facts.js';

const V = JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata/offers.json'), 'utf8'));

test('every vector offer reads as the facts it was signed with', () => {
  for (const v of V.offers) {
    const f = offerFacts(v.offer);
    assert.ok(f, v.name);
    const pc = v.facts.parcels.map((p) => [p.weight, p.width, p.height, p.length, p.volume].join('*')).join(',');
    assert.deepEqual(f, {
      e: String(v.facts.expiresAt), c: v.facts.carrier, s: v.facts.service, p: v.facts.price, cu: v.facts.currency,
      dp: v.facts.dropPoint ? '1' : '0', sr: v.facts.source[0], fc: v.facts.from.country, fz: v.facts.from.postal,
      tc: v.facts.to.country, tz: v.facts.to.postal, pc, ...(v.facts.orderValue ? { ov: v.facts.orderValue } : {}),
    }, v.name);
  }
});

test('every vector point reads as its carrier, key and place', () => {
  for (const v of V.points) {
    assert.deepEqual(offerFacts(v.point), {
      e: String(v.facts.expiresAt), c: v.facts.carrier, key: v.facts.key, cc: v.facts.near.country, z: v.facts.near.postal,
    }, v.name);
  }
});

test('expiry by the page\'s clock', () => {
  const v = V.offers[0];
  assert.equal(expired(v.offer, V.now_s * 1000), false);
  assert.equal(expired(v.offer, v.facts.expiresAt * 1000 - 1), false);
  assert.equal(expired(v.offer, v.facts.expiresAt * 1000), true, 'expired at its second, as Verify');
  assert.equal(expired('', Date.now()), false, 'nothing to re-quote');
});

test('anything that is not an offer or point reads as null', () => {
  const good = V.offers[0].offer;
  for (const bad of [undefined, null, 42, '', 'pgo1.test-x', 'pgt1.' + good.slice(5), good.slice(0, -1), good + 'A',
    good.replace('.ZT0', '.%%%'), 'pgo1.g-opW33n.' + Buffer.from('c=x&e=1').toString('base64url') + '.' + 'A'.repeat(22)]) {
    assert.equal(offerFacts(bad), null, String(bad));
  }
  // A payload that is not UTF-8 or has a broken escape: null, never a throw.
  assert.equal(offerFacts(`pgo1.g-opW33n.${Buffer.from('e=1&c=%E0%A4%A').toString('base64url')}.${'A'.repeat(22)}`), null);
});
