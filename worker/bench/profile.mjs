// Where a warm request's time goes inside workerd: the edge alone in a
// workerd of its own (as the bare part runs it), profiled by V8's sampling
// profiler through workerd's inspector, every sample of the isolate's
// thread put in one category by its stack: the core module, its crossing,
// the runtime's APIs, timers, the collector, the worker's own JavaScript.
// Shares, not CPU: the bare part's /proc counters are the CPU figures. The
// samples also count time the thread waits inside an API call (the plain
// proxy's `request.text()` took more samples than the whole edge while
// costing less CPU), so no ratio against the proxy is drawn from them.
//
//   make profile-worker   (node --experimental-websocket worker/bench/profile.mjs EDGE_DIR)
//
// EDGE_DIR holds an unminified bundle (worker.js) and a core module with a
// name section, so that frames have names (make profile-worker writes both
// to build/profile/).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';

const [edgeDir] = process.argv.slice(2);
const N = Number(process.env.PROFILE_N || 6000);
const WARM = Number(process.env.PROFILE_WARM || 3000);
const SCENARIO = process.env.PROFILE_SCENARIO || 'forward';
if (!edgeDir) {
  console.error('usage: profile.mjs EDGE_DIR (env PROFILE_N, PROFILE_WARM, PROFILE_SCENARIO=forward|healthz)');
  process.exit(2);
}
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const workerd = execFileSync('node', ['-p', "require('workerd').default"], { cwd: ROOT }).toString().trim();
const date = /^compatibility_date\s*=\s*"([0-9-]+)"/m.exec(fs.readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8'))[1];

// The fake upstream: the bench's cutoff answer (worker/bench/main.go).
const CUTOFF = '{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}}';
const upstream = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(CUTOFF);
  });
});
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
const vars = {
  UPSTREAM_BASE_URL: `http://127.0.0.1:${/** @type {any} */ (upstream.address()).port}/v1`,
  API_USER: 'bench-user',
  API_KEY: 'bench-api-key-0123456789',
  PROXY_TOKEN: 'bench-master-token-0123456789abcdef012345',
  TOKEN_SIGNING_KEY: 'bench-signing-key-0123456789abcdef0123456789',
};

/** A free port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve) => {
    const s = http.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {any} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/** workerd's config for the modules in dir (the bare part's, bare.go's bareConfig). */
function config(dir, modules, objects, addr) {
  let c = 'using Workerd = import "/workerd/workerd.capnp";\nconst config :Workerd.Config = (\n';
  c += '  services = [ (name = "main", worker = .w), (name = "internet", network = (allow = ["public", "private", "local"])) ],\n';
  c += `  sockets = [ (name = "http", address = "${addr}", http = (), service = "main") ],\n);\n`;
  c += 'const w :Workerd.Worker = (\n  modules = [\n';
  for (const [name, kind] of modules) c += `    (name = "${name}", ${kind} = embed "${name}"),\n`;
  c += `  ],\n  compatibilityDate = "${date}",\n  bindings = [\n`;
  for (const [k, v] of Object.entries(vars)) c += `    (name = "${k}", text = "${v}"),\n`;
  if (objects) c += '    (name = "BOOKINGS", durableObjectNamespace = "Bookings"),\n    (name = "WATCHLIST", durableObjectNamespace = "Watchlist"),\n';
  c += '  ],\n';
  if (objects) {
    c += '  durableObjectNamespaces = [ (className = "Bookings", uniqueKey = "profile-Bookings"), (className = "Watchlist", uniqueKey = "profile-Watchlist") ],\n';
    c += '  durableObjectStorage = (inMemory = void),\n';
  }
  c += '  globalOutbound = "internet",\n);\n';
  fs.writeFileSync(path.join(dir, 'profile.capnp'), c);
}

/** One request of the scenario; its body text. */
async function request(port) {
  const url = `http://127.0.0.1:${port}`;
  const res = SCENARIO === 'healthz'
    ? await fetch(`${url}/healthz`)
    : await fetch(`${url}/v1/get-collection-cutoff-hour`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo',
    });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`status ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

/** Profiles N requests to the worker in dir; returns the CPU profile. */
async function profile(dir, modules, objects) {
  const port = await freePort();
  const inspector = await freePort();
  config(dir, modules, objects, `127.0.0.1:${port}`);
  const proc = spawn(workerd, ['serve', 'profile.capnp', `--inspector-addr=127.0.0.1:${inspector}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let i = 0; ; i++) {
      try {
        await request(port);
        break;
      } catch (err) {
        if (i > 100) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (let i = 0; i < WARM; i++) await request(port);
    const targets = await (await fetch(`http://127.0.0.1:${inspector}/json/list`)).json();
    const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    let id = 0;
    const pending = new Map();
    ws.onmessage = (m) => {
      const d = JSON.parse(String(m.data));
      if (pending.has(d.id)) {
        pending.get(d.id)(d);
        pending.delete(d.id);
      }
    };
    const send = (method, params = {}) => new Promise((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: 25 });
    await send('Profiler.start');
    for (let i = 0; i < N; i++) await request(port);
    const { result } = /** @type {any} */ (await send('Profiler.stop'));
    ws.close();
    return result.profile;
  } finally {
    proc.kill();
  }
}

// The categories, in the order a sample is tested against them.
const CATEGORIES = [
  ['core: the module', 'the core module running (any wasm frame on the stack)'],
  ['core: the crossing', "core.mjs's call(): the messages' JSON and copies, no wasm frame"],
  ['runtime APIs', 'fetch, Request, Response, Headers, body reads, URL, TextEncoder/Decoder outside the core'],
  ['timers', 'setTimeout, clearTimeout and their callbacks'],
  ['garbage collector', "V8's collector"],
  ['(program)', 'V8 and workerd native code not attributed to a function'],
  ['worker JavaScript', "everything else the worker's own code runs"],
];
const RUNTIME = new Set(['fetch', 'Response', 'Request', 'Headers', 'text', 'arrayBuffer', 'json', 'URL', 'get', 'set', 'append',
  'encode', 'decode', 'encodeInto', 'btoa', 'clone', 'get headers', 'get body', 'get status']);
const TIMERS = new Set(['setTimeout', 'clearTimeout', 'timeout']);

/**
 * categorize counts each non-idle sample in one category. The crossing is
 * found by the wrapper's two call() functions in the unminified bundle (their
 * lines in worker.js).
 */
function categorize(p, crossingLines) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const counts = new Map();
  for (const s of p.samples) counts.set(s, (counts.get(s) || 0) + 1);
  const out = Object.fromEntries(CATEGORIES.map(([k]) => [k, 0]));
  const own = new Map(); // the worker JavaScript's samples by function
  let idle = 0;
  for (const [id, c] of counts) {
    const top = byId.get(id).callFrame;
    if (top.functionName === '(idle)') {
      idle += c;
      continue;
    }
    let wasm = false;
    let crossing = false;
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur).callFrame;
      if (f.functionName.startsWith('js-to-wasm') || (f.url !== '' && !f.url.endsWith('.js'))) wasm = true;
      if (f.functionName === 'call' && f.url.endsWith('worker.js') && crossingLines.has(f.lineNumber)) crossing = true;
    }
    const name = top.functionName;
    const k = wasm ? 'core: the module'
      : crossing ? 'core: the crossing'
        : name === '(garbage collector)' ? 'garbage collector'
          : name === '(program)' ? '(program)'
            : TIMERS.has(name) ? 'timers'
              : RUNTIME.has(name) && top.url === '' ? 'runtime APIs'
                : 'worker JavaScript';
    out[k] += c;
    if (k === 'worker JavaScript') {
      const f = `${name || '(anonymous)'}${top.url ? ` (worker.js:${top.lineNumber + 1})` : ''}`;
      own.set(f, (own.get(f) || 0) + c);
    }
  }
  return { out, own, idle, samples: p.samples.length };
}

const edgeJs = fs.readFileSync(path.join(edgeDir, 'worker.js'), 'utf8').split('\n');
const crossingLines = new Set();
edgeJs.forEach((line, i) => {
  if (/^\s+call\((method, head, raw|name, input, raw)\) \{/.test(line)) crossingLines.add(i);
});
if (crossingLines.size !== 2) throw new Error(`profile: expected the wrapper's two call() in ${edgeDir}/worker.js (an unminified bundle), found ${crossingLines.size}`);

const edgeModules = [['worker.js', 'esModule'], ...fs.readdirSync(edgeDir).filter((f) => f.endsWith('.wasm')).map((f) => [f, 'wasm'])];
const started = new Date().toISOString();
const edge = categorize(await profile(edgeDir, edgeModules, true), crossingLines);
upstream.close();

const sum = Object.values(edge.out).reduce((a, b) => a + b, 0);
const row = (k, n, what) => console.log(`| ${k} | ${(1000 * n / N).toFixed(0)} | ${(100 * n / sum).toFixed(1)}% | ${what} |`);
console.log(`\n## Where a warm ${SCENARIO === 'healthz' ? '/healthz' : 'forwarded read'} of the edge goes inside workerd (${started}, ${N} requests after ${WARM})\n`);
console.log("Samples of the isolate's thread (V8's sampling profiler, 25 µs interval; idle left out) by the stack's category:\n");
console.log('| category | samples per 1,000 requests | share | what |');
console.log('|---|---|---|---|');
for (const [k, what] of CATEGORIES) row(k, edge.out[k], what);
row('all', sum, `${edge.idle} idle samples left out`);
console.log("\nThe worker JavaScript's largest functions (self samples):\n");
console.log('| function | samples per 1,000 requests | share of all |');
console.log('|---|---|---|');
for (const [f, n] of [...edge.own].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`| ${f} | ${(1000 * n / N).toFixed(0)} | ${(100 * n / sum).toFixed(1)}% |`);
