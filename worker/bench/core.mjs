// The edge core module in Node (not a test): its size, what starting it
// costs, and the cost per call of prepare + answer for a read and for a
// booking, beside a baseline that does no decision at all (JSON in and out
// of the same shape). Bounded: a fixed number of calls per cell.
//
// It also counts the WebAssembly a configured instance compiles for its
// first forwarded read (the cold-start part's read, get-collection-cutoff-
// hour): V8 compiles a function on its first call, and workerd's start of
// any other isolate drops that code again (worker/bench/README.md, cold
// start), so this is the code the isolate's first request compiles on top
// of the proxy's work. Counted by V8 itself (--trace-wasm-compilation-times,
// in a child Node with `--first-read`): functions and bytes of their bodies.
//
//   make bench-worker-core   (or node worker/bench/core.mjs [build/worker/core.wasm])
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createCore, RENEW_ABOVE } from '../src/core.mjs';

const file = process.argv[2] || 'build/worker/core.wasm';
const bytes = fs.readFileSync(file);
const gz = zlib.gzipSync(bytes, { level: 9 }).length;

const MASTER = 'master-token-0123456789abcdef0123456789';
const vars = {
  UPSTREAM_BASE_URL: 'https://api.example.com/v1',
  API_USER: 'shop-user',
  API_KEY: 'api-key-0123456789',
  PROXY_TOKEN: MASTER,
  TOKEN_SIGNING_KEY: 'signing-key-0123456789abcdef0123456789ab',
};
const bindings = { bookings: true, watchlist: false, sandbox: false };
const now = Date.UTC(2026, 10, 21, 6);
const facts = (over) => ({
  method: 'POST', query: null, body: null, bodyTooLarge: false, contentType: 'application/x-www-form-urlencoded',
  acceptLanguage: 'es-ES,es;q=0.9', authorization: null, clientIp: '203.0.113.9', requestId: 'rid', now, ...over,
});
const shipment = [
  'shipping_date=2026-11-23', 'service_type=custom', 'carrier_code=rapido', 'service_code=rapido-48h',
  'shipping_client_ref=ORD-1001', 'from_name=Tienda', 'from_address=Calle+Mayor+1', 'from_city=Madrid',
  'from_zip_code=28014', 'from_country_code=ES', 'from_phone=%2B34+910+000+000', 'to_name=Ana',
  'to_address=Rua+Augusta+10', 'to_city=Lisboa', 'to_zip_code=1100-053', 'to_country_code=PT',
  'to_phone=912+345+678', 'parcels[0][parcel_weight]=1.5', 'parcels[0][parcel_width]=20',
  'parcels[0][parcel_height]=10', 'parcels[0][parcel_length]=30', 'parcels[0][parcel_volume]=6000',
].join('&');
const read = { ...facts({ method: 'GET', query: 'country_code=es&zip_code=28014' }), operation: 'get-drop-points' };
const booking = { ...facts({ body: shipment, authorization: `Bearer ${MASTER}` }), operation: 'new-shipment' };
const okRead = '{"status":"ok","data":[{"id":"DP1","name":"Kiosko Sol","zip_code":"28014","lat":"40.41","lon":"-3.69"}]}';
const okBooking = '{"status":"ok","data":{"shipping_dlvr_ref":"PG26112300001","shipping_client_ref":"ORD-1001","carrier_code":"rapido"}}';

// The cold-start part's forwarded read, and its upstream answer.
const cutoff = {
  ...facts({ body: 'country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo', acceptLanguage: null }),
  operation: 'get-collection-cutoff-hour',
};
const okCutoff = '{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}}';

if (process.argv.includes('--configure-only') || process.argv.includes('--first-read')) {
  // A child: configure, then (--first-read) one read. V8 prints a line per
  // function it compiles.
  const core = await createCore(new WebAssembly.Module(bytes));
  core.configure({ vars, bindings });
  if (process.argv.includes('--first-read')) {
    const p = core.prepare(cutoff);
    core.answer({ context: p.forward.context, upstream: { status: 200, body: okCutoff, failure: null }, requestId: 'r', acceptLanguage: null, now });
  }
  process.exit(0);
}

/**
 * traced runs a child and returns the body size of each function V8
 * compiled in it, by function index.
 * @param {string} mode
 * @returns {Map<string, number>}
 */
function traced(mode) {
  const out = execFileSync(process.execPath, ['--trace-wasm-compilation-times', fileURLToPath(import.meta.url), file, mode],
    { encoding: 'utf8', maxBuffer: 16 << 20 });
  const fns = new Map();
  for (const m of out.matchAll(/^Compiled function \S+#(\d+) .* bodysize (\d+) /gm)) fns.set(m[1], Number(m[2]));
  if (fns.size === 0) throw new Error('no compilation traced: has this Node --trace-wasm-compilation-times?');
  return fns;
}

/**
 * firstRead is the code the read compiles that configure did not: two
 * children (the trace's lines and the script's own output do not keep
 * their order through a pipe, so no marks), the difference of their sets.
 * @returns {{functions: number, bytes: number}}
 */
function firstRead() {
  const configured = traced('--configure-only');
  let functions = 0, sum = 0;
  for (const [fn, size] of traced('--first-read')) {
    if (configured.has(fn)) continue;
    functions++;
    sum += size;
  }
  return { functions, bytes: sum };
}
const compiled = firstRead();

let t0 = performance.now();
const module = new WebAssembly.Module(bytes);
const compileMs = performance.now() - t0;
t0 = performance.now();
const core = await createCore(module);
const instantiateMs = performance.now() - t0;
t0 = performance.now();
core.configure({ vars, bindings });
const configureMs = performance.now() - t0;
t0 = performance.now();
const first = core.prepare(booking);
core.answer({ context: first.forward.context, upstream: { status: 200, body: okBooking, failure: null }, requestId: 'r', acceptLanguage: null, now });
const firstMs = performance.now() - t0;

function perCall(n, fn) {
  for (let i = 0; i < 500; i++) fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - t) / n) * 1000;
}
const N = 20000;
const readUs = perCall(N, () => {
  const p = core.prepare(read);
  core.answer({ context: p.forward.context, upstream: { status: 200, body: okRead, failure: null }, requestId: 'r', acceptLanguage: null, now });
});
const bookingUs = perCall(N, () => {
  const p = core.prepare(booking);
  core.booking({ context: p.forward.context, ticket: p.forward.booking, state: 'new', stored: null, requestId: 'r', acceptLanguage: null, now });
  core.answer({ context: p.forward.context, upstream: { status: 200, body: okBooking, failure: null }, requestId: 'r', acceptLanguage: null, now });
});
const invalidUs = perCall(N, () => core.prepare({ ...booking, body: shipment.replace('to_zip_code=1100-053', 'to_zip_code=11') }));
const failureUs = perCall(N, () =>
  core.failure({ kind: 'rate_limited', requestId: 'r', acceptLanguage: 'de', operation: '', method: '', path: '', allow: '', origin: '' }),
);
// A healthy rates request as the edge serves it to @parcelgate/js
// (prepare, answer, normalize: worker/src/routes/operation.mjs's data())
// without and with the shop's prices (PRICING_RULES, issue 31).
const ratesQuery = 'from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001' +
  '&parcels%5B0%5D%5Bparcel_weight%5D=2&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10' +
  '&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000';
const rate = (id, code, carrier, dp, price) => ({ id_service: id, service_name: code, service_code: code, service_type: '24',
  carrier_code: carrier, carrier_name: carrier, is_drop_point: dp, price, currency: 'EUR' });
const rateList = [rate(1, 'acme-24', 'acme', 0, '5.10'), rate(2, 'acme-48', 'acme', 0, '4.60'), rate(3, 'swift-shop', 'swift', 1, '3.90'),
  rate(4, 'swift-home', 'swift', 0, '4.95'), rate(5, 'tortuga-point', 'tortuga', 1, '4.01'), rate(6, 'rayo-24', 'rayo', 0, '6.20')];
const okRates = JSON.stringify({ status: 'ok', data: { best_price_service: rateList[2], services: rateList } });
const priced = await createCore(module);
priced.configure({ vars: { ...vars, PRICING_RULES: JSON.stringify([
  { carrier: 'rayo', hide: true },
  { kind: 'drop_point', markup_fixed: '0.50', free_from: '60', name: { en: 'Pick-up point', es: 'Punto de recogida' } },
  { markup_percent: 10, round_end: '.95', min: '4.95' },
]) }, bindings });
// signed: the offers too (TOKEN_SIGNING_KEY is set): with rules, one scan
// prices and signs (worker/core/pricing.go's PriceAndSign).
const ratesRequest = (c, query, signed = false) => {
  const p = c.prepare({ ...facts({ method: 'GET', query, contentType: null }), operation: 'get-shipments-rates' });
  const a = c.answer({ context: p.forward.context, upstream: { status: 200, body: okRates, failure: null }, requestId: 'r', acceptLanguage: null, now });
  return c.normalize({ operation: 'get-shipments-rates', body: a.response.body, pricing: p.forward.pricing, ...(signed ? { sign: p.forward.sign, now } : {}) });
};
if (!ratesRequest(priced, ratesQuery + '&order_value=45').body.includes('Punto de recogida')) throw new Error('rules not applied');
if (!ratesRequest(priced, ratesQuery + '&order_value=45', true).body.includes('"offer":')) throw new Error('no offers signed');
const ratesUs = perCall(N, () => ratesRequest(core, ratesQuery));
const ratesPricedUs = perCall(N, () => ratesRequest(priced, ratesQuery + '&order_value=45.00'));
const ratesSignedUs = perCall(N, () => ratesRequest(core, ratesQuery, true));
const ratesPricedSignedUs = perCall(N, () => ratesRequest(priced, ratesQuery + '&order_value=45.00', true));
// A checkout's quote: prepare + normalize (the client's body, with an
// offer signed into each of its six services) of get-shipments-rates,
// against a second instance configured without TOKEN_SIGNING_KEY (no
// offers: nothing to sign with), alternating; issue 30's criterion.
const ratesReq = { ...facts({ body: 'from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001&parcels%5B0%5D%5Bparcel_weight%5D=1.5&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000', authorization: `Bearer ${MASTER}` }), operation: 'get-shipments-rates' };
const offerRates = JSON.stringify({ status: 'ok', data: {
  best_price_service: { id_service: 12, service_code: 'swift-shop', carrier_code: 'swift', is_drop_point: 1, price: '3.90', currency: 'EUR' },
  services: [['rayo-24', 'rayo', 0, '4.95'], ['swift-shop', 'swift', 1, '3.90'], ['rayo-48', 'rayo', 0, '4.10'], ['norte-72', 'norte', 0, '3.95'], ['rayo-10', 'rayo', 0, '9.80']]
    .map(([code, carrier, dp, price], i) => ({ id_service: 11 + i, service_name: code, service_code: code, carrier_code: carrier, is_drop_point: dp, price, currency: 'EUR', transit_days: 2 })),
} });
const plainCore = await createCore(module);
plainCore.configure({ vars: { ...vars, TOKEN_SIGNING_KEY: undefined }, bindings });
const quote = (c) => {
  const p = c.prepare(ratesReq);
  return c.normalize({ operation: 'get-shipments-rates', sign: p.forward.sign, now, body: offerRates }).body;
};
if ((quote(core).match(/"offer":"pgo1\./g) || []).length !== 6 || quote(plainCore).includes('"offer"')) throw new Error('rates: offers expected with the key only');
let ratesWithUs = 0;
let ratesWithoutUs = 0;
for (let round = 0; round < 4; round++) {
  ratesWithUs += perCall(N / 4, () => quote(core)) / 4;
  ratesWithoutUs += perCall(N / 4, () => quote(plainCore)) / 4;
}
const offerBytes = (quote(core).match(/"offer":"(pgo1\.[^"]+)"/) || ['', ''])[1].length;
// Bytes and allocations per read, in a measuring build of the module
// (tinygo build ... -tags nodocs,allocstats: worker/core/wasm/stats_tinygo.go
// exports pg_stats); "" for the upload's build, which has no such export.
let allocs = '';
{
  let x = null;
  const I = WebAssembly.Instance;
  WebAssembly.Instance = function (m, i) { const inst = new I(m, i); x = inst.exports; return inst; };
  const counted = await createCore(module);
  WebAssembly.Instance = I;
  if (x && typeof x.pg_stats === 'function') {
    counted.configure({ vars, bindings });
    const s = () => [x.pg_stats(0), x.pg_stats(1)];
    let p = counted.prepare(cutoff);
    const a0 = s();
    for (let i = 0; i < 1000; i++) p = counted.prepare(cutoff);
    const a1 = s();
    for (let i = 0; i < 1000; i++) counted.answer({ context: p.forward.context, upstream: { status: 200, body: okCutoff, failure: null }, requestId: 'r', acceptLanguage: null, now });
    const a2 = s();
    allocs = `prepare ${(a1[0] - a0[0]) / 1000} B in ${(a1[1] - a0[1]) / 1000} allocations, answer ${(a2[0] - a1[0]) / 1000} B in ${(a2[1] - a1[1]) / 1000}`;
  }
}
// Baseline: the same JSON round trips with no module at all.
const baselineUs = perCall(N, () => {
  const p = JSON.parse(JSON.stringify({ kind: 'forward', forward: { upstreamBody: read.query, context: { operation: read.operation } } }));
  JSON.parse(JSON.stringify({ response: { status: 200, body: okRead }, context: p.forward.context }));
});

const f = (n, d = 1) => n.toFixed(d);
console.log(`edge core module: ${file}`);
console.log(`machine: ${os.cpus()[0].model} x${os.cpus().length}, Node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
console.log('');
console.log('| | |');
console.log('|---|---|');
console.log(`| size raw / gzip -9 | ${bytes.length} B / ${gz} B (${f(gz / 1024)} KiB) |`);
console.log(`| compile (WebAssembly.Module) | ${f(compileMs, 2)} ms |`);
console.log(`| instantiate | ${f(instantiateMs, 2)} ms |`);
console.log(`| configure | ${f(configureMs, 2)} ms |`);
console.log(`| first booking (prepare + answer) | ${f(firstMs, 2)} ms |`);
console.log(`| code a configured instance compiles for its first forwarded read | ${compiled.functions} functions, ${compiled.bytes} B |`);
console.log(`| read: prepare + answer | ${f(readUs)} µs/request |`);
console.log(`| booking: prepare + booking + answer | ${f(bookingUs)} µs/request |`);
console.log(`| rates (6 services), normalized: prepare + answer + normalize | ${f(ratesUs)} µs/request |`);
console.log(`| the same with PRICING_RULES (3 rules) and order_value | ${f(ratesPricedUs)} µs/request (${f(ratesPricedUs / ratesUs, 2)}x) |`);
console.log(`| the same with offers signed, without / with PRICING_RULES | ${f(ratesSignedUs)} / ${f(ratesPricedSignedUs)} µs/request (${f(ratesPricedSignedUs / ratesSignedUs, 2)}x) |`);
console.log(`| rates, 6 services: prepare + normalize with offers / without (no TOKEN_SIGNING_KEY) | ${f(ratesWithUs)} / ${f(ratesWithoutUs)} µs/request (${f(ratesWithUs / ratesWithoutUs, 2)}x; one offer ${offerBytes} B) |`);
console.log(`| invalid booking: prepare (400 in Spanish) | ${f(invalidUs)} µs/request |`);
console.log(`| failure (429 in German) | ${f(failureUs)} µs/call |`);
if (allocs) console.log(`| allocated per forwarded read (get-collection-cutoff-hour) | ${allocs} |`);
console.log(`| baseline: the JSON round trips alone | ${f(baselineUs)} µs/request |`);
console.log(`| linear memory after ${3 * N + 2000} calls | ${core.memoryBytes()} B |`);
// The heap never frees: the wrapper renews the instance past RENEW_ABOVE, and the per-call
// figures above include those renewals (a fresh instance and configure() again, about 0.2 ms).
console.log(`| instances renewed past RENEW_ABOVE (${RENEW_ABOVE >> 20} MiB) over the run: the main core (reads, bookings, rates with offers) / the priced one / the one without offers | ${core.renewals} / ${priced.renewals} / ${plainCore.renewals} |`);
