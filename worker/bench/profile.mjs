// Where a warm request's time goes inside workerd: the inspector's side of
// the bench's profile part (profile.go, `-parts profile`; make
// profile-worker). The bench starts the edge alone in a workerd of its own
// with the inspector on and sends the requests; this connects to the
// inspector, starts V8's sampling profiler, says "profiling" on stdout,
// stops at "stop" on stdin, and puts every sample of the isolate's thread
// in one category by its stack: the core module, its crossing, the
// runtime's APIs, timers, the collector, the worker's own JavaScript.
// Shares, not CPU: the bare part's /proc counters are the CPU figures. The
// samples also count time the thread waits inside an API call (the plain
// proxy's `request.text()` took more samples than the whole edge while
// costing less CPU), so no ratio against the proxy is drawn from them.
//
//   node --experimental-websocket worker/bench/profile.mjs INSPECTOR_ADDR WORKER_JS N SCENARIO
//
// WORKER_JS is the unminified bundle the profile ran (its wrapper's two
// call() functions are found by their lines), N the requests the bench sent.
import fs from 'node:fs';
import readline from 'node:readline';

const [inspector, workerJs, n, scenario] = process.argv.slice(2);
const N = Number(n);
if (!inspector || !workerJs || !(N > 0)) {
  console.error('usage: profile.mjs INSPECTOR_ADDR WORKER_JS N SCENARIO (run by the bench: go run ./worker/bench -parts profile)');
  process.exit(2);
}

/** Profiles the isolate from "profiling" to "stop"; returns the CPU profile. */
async function profile() {
  const targets = await (await fetch(`http://${inspector}/json/list`)).json();
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
  process.stdout.write('profiling\n');
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) if (line === 'stop') break;
  lines.close();
  const { result } = /** @type {any} */ (await send('Profiler.stop'));
  ws.close();
  return result.profile;
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
  const core = new Map(); // the core module's samples by its function on top (or what it called)
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
    if (wasm) {
      const f = top.url !== '' && !top.url.endsWith('.js') ? name || '(anonymous wasm)' : `${name || '(anonymous)'} (not wasm, under the core)`;
      core.set(f, (core.get(f) || 0) + c);
    }
    if (k === 'worker JavaScript') {
      const f = `${name || '(anonymous)'}${top.url ? ` (worker.js:${top.lineNumber + 1})` : ''}`;
      own.set(f, (own.get(f) || 0) + c);
    }
  }
  return { out, own, core, idle, samples: p.samples.length };
}

const edgeJs = fs.readFileSync(workerJs, 'utf8').split('\n');
const crossingLines = new Set();
edgeJs.forEach((line, i) => {
  if (/^\s+call\((method, head, raw|name, input, raw)\) \{/.test(line)) crossingLines.add(i);
});
if (crossingLines.size !== 2) throw new Error(`profile: expected the wrapper's two call() in ${workerJs} (an unminified bundle), found ${crossingLines.size}`);

const started = new Date().toISOString();
const edge = categorize(await profile(), crossingLines);

const sum = Object.values(edge.out).reduce((a, b) => a + b, 0);
const row = (k, c, what) => console.log(`| ${k} | ${(1000 * c / N).toFixed(0)} | ${(100 * c / sum).toFixed(1)}% | ${what} |`);
console.log(`\n## Where a warm ${scenario} of the edge goes inside workerd (${started}, ${N} requests)\n`);
console.log("Samples of the isolate's thread (V8's sampling profiler, 25 µs interval; idle left out) by the stack's category:\n");
console.log('| category | samples per 1,000 requests | share | what |');
console.log('|---|---|---|---|');
for (const [k, what] of CATEGORIES) row(k, edge.out[k], what);
row('all', sum, `${edge.idle} idle samples left out`);
console.log("\nThe worker JavaScript's largest functions (self samples):\n");
console.log('| function | samples per 1,000 requests | share of all |');
console.log('|---|---|---|');
for (const [f, c] of [...edge.own].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`| ${f} | ${(1000 * c / N).toFixed(0)} | ${(100 * c / sum).toFixed(1)}% |`);
console.log("\nThe core module's largest functions (self samples; the core keeps its names in this build):\n");
console.log('| function | samples per 1,000 requests | share of all |');
console.log('|---|---|---|');
for (const [f, c] of [...edge.core].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`| ${f} | ${(1000 * c / N).toFixed(0)} | ${(100 * c / sum).toFixed(1)}% |`);
