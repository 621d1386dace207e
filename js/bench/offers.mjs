// verifyOffer in Node (not a test): what a shop's server pays to verify
// one offer of testdata/offers.json with its TOKEN_SIGNING_KEY, the first
// call (deriving and importing the offer key, computing the key id) and
// then per call (both cached per signing key). Bounded: a fixed count.
//
//   make bench-offers   (or node js/bench/offers.mjs)
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { verifyOffer } from '../src/offers.js';

const vectors = JSON.parse(readFileSync(new URL('../../testdata/offers.json', import.meta.url), 'utf8'));
const keys = [vectors.key, vectors.previousKey];
const offer = vectors.offers[0].offer;
const now = vectors.now_s * 1000;

let t = performance.now();
await verifyOffer(keys, offer, { now });
const firstMs = performance.now() - t;
const N = 20000;
for (let i = 0; i < 1000; i++) await verifyOffer(keys, offer, { now });
t = performance.now();
for (let i = 0; i < N; i++) await verifyOffer(keys, offer, { now });
const perUs = ((performance.now() - t) / N) * 1000;

console.log(`machine: ${os.cpus()[0].model} x${os.cpus().length}, Node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| verifyOffer (Node, WebCrypto) | |');
console.log('|---|---|');
console.log(`| offer size (one parcel; three: ${vectors.offers[1].bytes} B) | ${offer.length} B |`);
console.log(`| first call (derive + import the offer key, key id) | ${firstMs.toFixed(2)} ms |`);
console.log(`| per call after | ${perUs.toFixed(1)} µs |`);
