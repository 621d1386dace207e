// warm.mjs on the real core module (build/worker/core.wasm): its made-up
// requests reach the paths it is for, and a warmed core, once configured,
// answers exactly as a fresh one (nothing of the warm-up stays).
//
//   node --test worker/src/warm.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newCore } from './core.mjs';
import { warm } from './warm.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WASM = process.env.PARCELGATE_CORE_WASM || path.join(ROOT, 'build/worker/core.wasm');
const module = new WebAssembly.Module(fs.readFileSync(WASM));

const VARS = {
  UPSTREAM_BASE_URL: 'https://api.example.com/v1',
  API_USER: 'shop-user',
  API_KEY: 'api-key-0123456789',
  PROXY_TOKEN: 'master-token-0123456789abcdef0123456789',
  TOKEN_SIGNING_KEY: 'signing-key-0123456789abcdef0123456789ab',
};
const BINDINGS = { bookings: true, watchlist: false, sandbox: false };
const NOW = Date.UTC(2026, 10, 20, 12);

test('the warm-up forwards its read and its booking (it compiles the paths requests take)', () => {
  const traps = [];
  const c = newCore(module, { onTrap: (t) => traps.push(t) });
  assert.deepEqual(warm(c), { read: 'forward', booking: 'forward' });
  assert.deepEqual(traps, []);
});

test('a warmed core, configured, answers as a fresh one', () => {
  const fresh = newCore(module);
  const warmed = newCore(module);
  warm(warmed);
  const cf = fresh.configure({ vars: VARS, bindings: BINDINGS });
  const cw = warmed.configure({ vars: VARS, bindings: BINDINGS });
  assert.deepEqual(cw, cf);
  assert.equal(cw.upstream.authorization, cf.upstream.authorization);
  const health = { method: 'GET', authorization: `Bearer ${VARS.PROXY_TOKEN}`, acceptLanguage: 'de', requestId: 'r', now: NOW,
    instance: null, rateLimits: { public: true, tokens: true }, cache: { entries: 0, bytes: 0 }, webhooks: null };
  assert.deepEqual(warmed.healthz(health), fresh.healthz(health));
  const requests = [
    { operation: 'get-drop-points', method: 'GET', query: 'country_code=es&zip_code=28014', body: null, authorization: null },
    { operation: 'get-drop-points', method: 'GET', query: 'country_code=es&zip_code=1', body: null, authorization: null },
    { operation: 'new-shipment', method: 'POST', query: null, body: 'shipping_client_ref=WARM-1', authorization: `Bearer ${VARS.PROXY_TOKEN}` },
  ];
  for (const r of requests) {
    const facts = { ...r, bodyTooLarge: false, contentType: 'application/x-www-form-urlencoded', acceptLanguage: 'es',
      clientIp: '203.0.113.9', requestId: 'r', now: NOW };
    assert.deepEqual(warmed.prepare(facts), fresh.prepare(facts), r.operation);
  }
});

test('the pipeline warm-up runs every middleware without a body, a log line or a count', async () => {
  const { app } = await import('./app.mjs');
  const { newEdge } = await import('./edge.mjs');
  const { warmPipeline } = await import('./warm.mjs');
  const core = newCore(module);
  const env = { ...VARS, ALLOWED_ORIGINS: 'https://shop.example' };
  const edge = newEdge({ core, env });
  const seen = [];
  const handle = async (x) => {
    const res = await app({ edge, instance: () => ({ id: '1', requests: 0, memoryBytes: 0 }) })(x);
    seen.push({ path: x.path, warm: x.warm, body: res.body, id: res.headers.get('x-request-id'), timing: res.headers.get('server-timing') });
    return res;
  };
  const lines = [];
  const log = console.log;
  console.log = (l) => lines.push(l);
  // Nothing of the warm-up may reach the network, a timer or a binding (refused at an
  // isolate's start): the platform's fetch and timers fail the test if called.
  const platform = { fetch: globalThis.fetch, setTimeout: globalThis.setTimeout, timeout: AbortSignal.timeout };
  const calls = [];
  globalThis.fetch = async (u) => { calls.push('fetch ' + u); throw new Error('network at the isolate start'); };
  globalThis.setTimeout = /** @type {any} */ ((f, ms) => { calls.push('setTimeout ' + ms); return platform.setTimeout(f, ms); });
  AbortSignal.timeout = (ms) => { calls.push('AbortSignal.timeout ' + ms); return platform.timeout.call(AbortSignal, ms); };
  const limiter = { limit: async () => { calls.push('rate limit'); return { success: true }; } };
  let statuses;
  try {
    statuses = await warmPipeline(handle, { env: { ...env, RATE_LIMIT_PUBLIC: limiter, RATE_LIMIT_ANONYMOUS: limiter }, webhooks: false });
  } finally {
    console.log = log;
    globalThis.fetch = platform.fetch;
    globalThis.setTimeout = platform.setTimeout;
    AbortSignal.timeout = platform.timeout;
  }
  // The probe answers, the foreign origin's preflight is refused, the path is not found, an
  // operation's preflight (through /v1/'s deadline, which sets no timer for it) answers, and the
  // forwarded read is answered from warmUpstream's stand-in, through the core, with a 200.
  assert.deepEqual({ statuses, lines, calls }, { statuses: [200, 403, 404, 200, 200], lines: [], calls: [] });
  const read = seen.find((s) => s.path === '/v1/get-collection-cutoff-hour');
  assert.match(read?.timing ?? '', /^edge;dur=[0-9.]+, upstream;dur=/, 'the read made its (stand-in) upstream call');
  assert.ok(seen.every((s) => s.warm && s.body === null && s.id === 'warm' && /^edge;dur=/.test(s.timing ?? '')), JSON.stringify(seen));
  assert.deepEqual(lines, []);
  assert.equal(edge.counts.requests, 0);
  assert.equal(edge.health !== null, true, 'the health answer is made once, as a first probe would');
  // With webhooks configured, the probe (which would ask the Watchlist object) is left out.
  assert.deepEqual(await warmPipeline(handle, { env, webhooks: true }), [403, 404, 200, 200]);
});
