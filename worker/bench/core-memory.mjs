// The edge core's linear memory after ONE call with a large answer, on a
// fresh instance each (worker/bench/CORE.md, "Memory of one call"):
// booking answers whose label is 1, 4 and 8 MiB (a run of "A", and base64
// with its slashes escaped as a PHP upstream sends it) and a megabyte of
// drop points, normalized, signed or both. Only pg_in and pg_call are
// used, so a module of any version is measured alike; a module built with
// a pg_mem export (TinyGo's runtime.MemStats TotalAlloc, not in the
// production build) also reports the bytes the call allocated.
//
//   node worker/bench/core-memory.mjs [build/worker/core.wasm]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const module = new WebAssembly.Module(fs.readFileSync(process.argv[2] || path.join(ROOT, 'build/worker/core.wasm')));
const enc = new TextEncoder();
const MiB = 1 << 20;
const METHOD = { configure: 1, answer: 3, normalize: 16 };

function fresh() {
  const x = /** @type {any} */ (new WebAssembly.Instance(module, {}).exports);
  x._initialize();
  const call = (/** @type {number} */ m, /** @type {string} */ head, /** @type {Uint8Array} */ raw) => {
    const h = enc.encode(head);
    const before = x.pg_mem ? x.pg_mem(0) >>> 0 : 0;
    const p = x.pg_in(h.length + raw.length);
    const mem = new Uint8Array(x.memory.buffer, p, h.length + raw.length);
    mem.set(h, 0);
    mem.set(raw, h.length);
    x.pg_call(m, h.length, raw.length);
    return x.pg_mem ? (x.pg_mem(0) >>> 0) - before : NaN;
  };
  call(METHOD.configure, JSON.stringify({ vars: { UPSTREAM_BASE_URL: 'https://api.example.com/v1', API_USER: 'u', API_KEY: 'api-key-0123456789',
    PROXY_TOKEN: 'master-token-0123456789abcdef0123456789', TOKEN_SIGNING_KEY: 'signing-key-0123456789abcdef0123456789ab' },
    bindings: { bookings: true, watchlist: false, sandbox: false } }), new Uint8Array(0));
  return { call, memory: () => x.memory.buffer.byteLength };
}

const rows = [];
function row(/** @type {string} */ name, /** @type {number} */ method, /** @type {string} */ head, /** @type {Uint8Array} */ body) {
  const f = fresh();
  const before = f.memory();
  const a = f.call(method, head, body);
  const alloc = Number.isNaN(a) ? '' : ` | ${(a / MiB).toFixed(1)} MiB (${(a / body.length).toFixed(2)}x)`;
  rows.push(`| ${name} | ${(body.length / MiB).toFixed(2)} MiB | ${before / 1024} KiB -> ${f.memory() / MiB} MiB${alloc} |`);
}

const booking = JSON.stringify({ context: { operation: 'new-shipment', clientRef: 'ORD-1', ledger: true }, upstream: { status: 200, failure: null },
  requestId: 'r', acceptLanguage: 'es', now: 1 });
const phpBase64 = (/** @type {number} */ n) => Buffer.alloc((n * 3) / 4).map((_, i) => (i * 2654435761) >>> 13).toString('base64').replaceAll('/', '\\/');
for (const [kind, label] of /** @type {const} */ ([['"A" x n', (/** @type {number} */ n) => 'A'.repeat(n)], ["PHP's base64", phpBase64]])) {
  for (const mb of [1, 4, 8]) row(`booking answer, label ${kind}`, METHOD.answer, booking, enc.encode(`{"status":"ok","data":{"label":"${label(mb * MiB - 64)}"}}`));
}
const pt = JSON.parse(JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata/responses/get-drop-points.json'), 'utf8'))[0].body).data.drop_points[0];
const points = enc.encode(JSON.stringify({ status: 'ok', data: { drop_points: Array.from({ length: 2940 }, (_, i) => ({ ...pt, drop_point_key: `SP-${i}` })) } }));
for (const [name, extra] of [['normalized', {}], ['normalized and signed', { sign: 'cc=ES&z=28013' }], ['signed (raw)', { keep: true, sign: 'cc=ES&z=28013' }]]) {
  row(`2,940 drop points, ${name}`, METHOD.normalize, JSON.stringify({ operation: 'get-drop-points', now: 1, ...extra }), points);
}
console.log(`| one call on a fresh instance | body | linear memory${rows[0].split('|').length > 5 ? ' | allocated in the call' : ''} |`);
console.log(`|---|---|---${rows[0].split('|').length > 5 ? '|---' : ''}|`);
console.log(rows.join('\n'));
