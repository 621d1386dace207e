import { test } from "node:test";
import assert from "node:assert/strict";
import { rated } from "./rates.mjs";
import { forgetRates, storedRates, storeRates, deadline, LATE, refreshesInFlight } from "../platform/rates.mjs";
import { exchangeFor } from "../testing/fakes.mjs";

/** A rates request's exchange that arrives now (the fakes' clock starts at 1000 ms: the deadline counts from arrival). */
const xFor = (path, init) => Object.assign(exchangeFor(path, init), { t0: Date.now() });

const LIVE = '{"status":"ok","data":{"services":[]}}';

/** A Cache API in memory. */
function memoryCache() {
  const m = new Map();
  return {
    m,
    async match(k) { const v = m.get(k); return v === undefined ? undefined : new Response(v.body, { headers: v.headers }); },
    async put(k, res) { m.set(k, { body: new Uint8Array(await res.arrayBuffer()), headers: Object.fromEntries(res.headers) }); },
  };
}

/** An edge whose core's rates call is recorded and answers as the real one would in shape. */
function edgeWith(answer) {
  const calls = [];
  return {
    calls,
    core: {
      rates(i) {
        calls.push({ ...i, body: i.body === null ? null : typeof i.body === "string" ? i.body : new TextDecoder().decode(i.body) });
        return answer(i);
      },
    },
  };
}

const marked = (source) => ({ source, response: { status: 200, headers: { "Rates-Source": source }, class: "rates_" + source, body: `{"status":"ok","data":{"source":"${source}"}}` } });
const failed = (cls) => ({ response: { status: 502, headers: {}, class: cls, body: '{"status":"err"}' }, outcome: "lost", cacheable: false, retry: false, leak: false, watch: null, note: "" });
const okAnswer = () => ({ response: { status: 200, headers: {}, class: "forwarded", body: LIVE }, outcome: "ok", cacheable: true, retry: false, leak: false, watch: null, note: "" });
const settle = (x, edge, a) => new Response(a.response.body, { status: a.response.status, headers: a.response.headers });
const plan = { key: "k1", country: "ES", deadlineMs: 30, staleMs: 3600_000 };

test("rated: a live answer in time is marked live and stored", async () => {
  forgetRates();
  const cache = memoryCache();
  const x = xFor("/v1/get-shipments-rates", { method: "POST" });
  const edge = edgeWith((i) => (i.class === "live" ? marked("live") : { source: "", response: null }));
  const res = await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), plan, { forward: async () => okAnswer(), settle, cache });
  assert.equal(res.headers.get("rates-source"), "live");
  assert.deepEqual(edge.calls.map((c) => [c.class, c.body]), [["live", LIVE]]);
  await Promise.all(x.waited);
  const s = await storedRates({ cache, key: "k1" });
  assert.equal(new TextDecoder().decode(s.body), LIVE);
  forgetRates();
  const again = await storedRates({ cache, key: "k1" });
  assert.equal(new TextDecoder().decode(again.body), LIVE, "the Cache API outlives the isolate's map");
  assert.equal(again.storedAt, s.storedAt);
});

test("rated: past the deadline, the core's rescue answers and the late call refreshes the store", async () => {
  forgetRates();
  const cache = memoryCache();
  await storeRates({ cache, key: "k1", body: new TextEncoder().encode('{"old":1}'), storedAt: 5, keepMs: 1000 });
  const x = xFor("/v1/get-shipments-rates", { method: "POST" });
  const edge = edgeWith((i) => (i.class === "late" ? marked("recent") : { source: "", response: null }));
  /** @type {(a: any) => void} */
  let land = () => {};
  const forward = () => new Promise((r) => { land = r; });
  const res = await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), plan, { forward, settle, cache });
  assert.equal(res.headers.get("rates-source"), "recent");
  assert.deepEqual(edge.calls.map((c) => [c.class, c.storedAt, c.body]), [["late", 5, '{"old":1}']]);
  assert.match(x.note, /recent store after the upstream's late/);
  land(okAnswer());
  await Promise.all(x.waited);
  await Promise.all(x.waited); // the store's write, queued by the late call
  const s = await storedRates({ cache, key: "k1" });
  assert.equal(new TextDecoder().decode(s.body), LIVE, "the late answer is the new stored one");
});

test("rated: one late call per route refreshes the store; the others past the deadline are aborted", async () => {
  forgetRates();
  const cache = memoryCache();
  await storeRates({ cache, key: "k1", body: new TextEncoder().encode('{"old":1}'), storedAt: 5, keepMs: 1000 });
  const edge = edgeWith((i) => (i.class === "late" ? marked("recent") : { source: "", response: null }));
  /** A slow upstream: each call lands when told, or ends when its signal aborts (as fetch does). */
  const calls = [];
  const forward = (_x, _e, _f, _s, signal) => new Promise((resolve) => {
    const c = { signal, land: () => resolve(okAnswer()) };
    calls.push(c);
    signal.addEventListener("abort", () => resolve(failed("upstream_timeout")));
  });
  const ask = async (p) => {
    const x = xFor("/v1/get-shipments-rates", { method: "POST" });
    const res = await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), p, { forward, settle, cache });
    assert.equal(res.headers.get("rates-source"), "recent");
    return x;
  };
  const first = await ask(plan);
  const second = await ask(plan);
  const third = await ask(plan);
  const other = await ask({ ...plan, key: "k2" });
  assert.deepEqual(calls.map((c) => c.signal.aborted), [false, true, true, false], "one per key keeps going");
  assert.deepEqual([first, second, third, other].map((x) => x.waited.length), [1, 0, 0, 1], "only those are waited for");
  assert.equal(refreshesInFlight(), 2);
  calls[0].land();
  await Promise.all(first.waited);
  await Promise.all(first.waited);
  assert.equal(new TextDecoder().decode((await storedRates({ cache, key: "k1" })).body), LIVE, "the refresh stored its answer");
  assert.equal(refreshesInFlight(), 1, "k1 is free again");
  const fourth = await ask(plan);
  assert.equal(calls[4].signal.aborted, false, "the next late call of k1 refreshes");
  assert.equal(fourth.waited.length, 1);
  calls[3].land();
  calls[4].land();
  await Promise.all([...other.waited, ...fourth.waited]);
  assert.equal(refreshesInFlight(), 0);
});

test("upstreamCall: the caller's abort ends the call as a timeout; the deadline still holds beside it", async () => {
  const { upstreamCall } = await import("../platform/upstream.mjs");
  /** A fetch that answers only when its signal aborts (as the platform's does). */
  const hang = (_url, init) => new Promise((_r, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason)));
  const call = { url: "https://up.example/v1/get-shipments-rates", body: "a=1", authorization: "Basic x", requestId: "r1", fetcher: /** @type {any} */ (hang) };
  const ctl = new AbortController();
  const p = upstreamCall({ ...call, timeoutMs: 60_000, signal: ctl.signal });
  ctl.abort();
  assert.deepEqual({ ...(await p), detail: "" }, { status: 0, body: null, failure: "timeout", detail: "" });
  const alive = setTimeout(() => {}, 5000); // Node's AbortSignal.timeout does not keep the loop alive
  const t = await upstreamCall({ ...call, timeoutMs: 5, signal: new AbortController().signal });
  clearTimeout(alive);
  assert.equal(t.failure, "timeout", "UPSTREAM_TIMEOUT_MS with a signal given");
});

test("rated: a failure is rescued, or relayed when the core has nothing", async () => {
  forgetRates();
  const x = xFor("/v1/get-shipments-rates", { method: "POST", headers: { "accept-language": "es-ES,es;q=0.9" } });
  const edge = edgeWith((i) => (i.class === "upstream_error" ? marked("fallback") : { source: "", response: null }));
  let res = await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), plan, { forward: async () => failed("upstream_error"), settle, cache: undefined });
  assert.equal(res.headers.get("rates-source"), "fallback");
  assert.deepEqual(edge.calls.map((c) => [c.class, c.storedAt, c.body]), [["upstream_error", 0, null]]);
  assert.equal(edge.calls[0].acceptLanguage, "es-ES,es;q=0.9", "the fallback services are named in the shopper's language");
  res = await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), plan, { forward: async () => failed("upstream_refused"), settle, cache: undefined });
  assert.equal(res.status, 502, "nothing to answer with: as before");
  assert.equal(res.headers.get("rates-source"), null);
});

test("rated: past the deadline with nothing to answer with, the call's own answer", async () => {
  forgetRates();
  const x = xFor("/v1/get-shipments-rates", { method: "POST" });
  const edge = edgeWith((i) => (i.class === "live" ? marked("live") : { source: "", response: null }));
  const forward = () => new Promise((r) => setTimeout(() => r(okAnswer()), 60));
  const res = await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), plan, { forward, settle, cache: undefined });
  assert.equal(res.headers.get("rates-source"), "live");
  assert.deepEqual(edge.calls.map((c) => c.class), ["late", "live"]);
});

test("deadline: fires LATE, or never once cancelled", async () => {
  assert.equal(await deadline(1).late, LATE);
  const d = deadline(5);
  d.cancel();
  const r = await Promise.race([d.late, new Promise((r) => setTimeout(() => r("cancelled"), 20))]);
  assert.equal(r, "cancelled");
});

test("storeRates: keepMs 0 stores nothing", async () => {
  forgetRates();
  const cache = memoryCache();
  await storeRates({ cache, key: "k2", body: new Uint8Array([1]), storedAt: 1, keepMs: 0 });
  assert.equal(await storedRates({ cache, key: "k2" }), null);
  assert.equal(cache.m.size, 0);
});

test("serviceCall: a client's Sandbox-Fault reaches the sandbox only, never a real upstream", async () => {
  const { serviceCall } = await import("../edge.mjs");
  for (const kind of ["remote", "sandbox"]) {
    let seen;
    const edge = {
      config: { upstream: { kind, baseUrl: "https://up.example/v1", authorization: "Basic x" }, limits: { upstreamTimeoutMs: 1000, maxUpstreamBodyBytes: 1000 } },
      fetcher: async (url, init) => { seen = init.headers; return new Response('{"status":"ok","data":{}}'); },
    };
    await serviceCall(/** @type {any} */ (edge), "get-shipments-rates", "a=1", "r1", { fault: "drop" });
    assert.equal(seen["sandbox-fault"], kind === "sandbox" ? "drop" : undefined, kind);
    assert.deepEqual(Object.keys(seen).sort(), ["accept", "authorization", "content-type", "user-agent", "x-request-id", ...(kind === "sandbox" ? ["sandbox-fault"] : [])].sort());
  }
});

test("rated: the deadline counts from the request's arrival, not from the call's start", async () => {
  forgetRates();
  const x = xFor("/v1/get-shipments-rates", { method: "POST" });
  x.t0 = 50_000; // arrived 400 ms before the route got to the call (the body, the rate limit, prepare)
  const given = [];
  const timer = (ms) => { given.push(ms); return { late: Promise.resolve(LATE), cancel: () => {} }; };
  const edge = edgeWith((i) => (i.class === "late" ? marked("fallback") : { source: "", response: null }));
  const forward = () => new Promise(() => {});
  await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), { ...plan, deadlineMs: 2500 }, { forward, settle, cache: undefined, timer, now: () => 50_400 });
  assert.deepEqual(given, [2100]);
  x.t0 = 40_000; // already past it: the rescue at once
  await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), { ...plan, deadlineMs: 2500 }, { forward, settle, cache: undefined, timer, now: () => 50_400 });
  assert.deepEqual(given, [2100, 0]);
});

test("rated: the store is read beside the call, before the deadline fires", async () => {
  forgetRates(); // not in the isolate's map: the Cache API is read
  const cache = memoryCache();
  await storeRates({ cache, key: "k1", body: new TextEncoder().encode('{"old":1}'), storedAt: 5, keepMs: 1000 });
  forgetRates();
  let reads = 0;
  const counted = { match: (k) => { reads++; return cache.match(k); }, put: (k, r) => cache.put(k, r) };
  let readsAtDeadline = -1;
  const timer = () => { readsAtDeadline = reads; return { late: Promise.resolve(LATE), cancel: () => {} }; };
  const edge = edgeWith((i) => (i.class === "late" ? marked("recent") : { source: "", response: null }));
  const x = xFor("/v1/get-shipments-rates", { method: "POST" });
  const res = await rated(x, /** @type {any} */ (edge), /** @type {any} */ ({}), plan, { forward: () => new Promise(() => {}), settle, cache: counted, timer });
  assert.equal(res.headers.get("rates-source"), "recent");
  assert.equal(readsAtDeadline, 1, "the read began before the deadline's timer");
  assert.equal(reads, 1, "and once");
  assert.deepEqual(edge.calls.map((c) => [c.class, c.storedAt, c.body]), [["late", 5, '{"old":1}']]);
});
