import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { app } from "./app.mjs";
import { newEdge } from "./edge.mjs";
import { newExchange } from "./exchange.mjs";
import { bookingObjectName, recordKey } from "./platform/bookings.mjs";
import { bookingsClass } from "./testing/ledger.mjs";
import { forwardBooking } from "./routes/operation.mjs";
import { healthTemplate } from "./routes/endpoints.mjs";
import { FakeCore, fakeConfig } from "./testing/fake-core.mjs";
import { MemoryStorage, namespace } from "./testing/fakes.mjs";

// The request log writes to the console: kept quiet here (one test reads it).
mock.method(console, "log", () => {});

/**
 * stack is the pipeline over a fake core, a scripted upstream and fake
 * bindings; send() makes one request and waits for its waitUntil work.
 */
function stack({ config = fakeConfig(), env = {}, upstream, shared } = {}) {
  const core = new FakeCore(config);
  const calls = [];
  const Bookings = bookingsClass();
  const fullEnv = { BOOKINGS: namespace(() => new Bookings({ storage: new MemoryStorage() }, {})), ...env };
  const edge = newEdge({ core, env: fullEnv });
  edge.fetcher = async (url, init) => {
    const body = typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body);
    calls.push({ url, headers: init.headers, body });
    return upstream ? upstream(url, body, calls.length) : new Response('{"status":"ok","data":{"echo":"' + body + '"}}');
  };
  const store = shared ?? new Map();
  const cache = { match: async (k) => store.get(k)?.clone(), put: async (k, r) => { store.set(k, r); } };
  const handle = app({ edge, instance: () => ({ id: "1", requests: 1, memoryBytes: 131072 }), cache: () => cache });
  const send = async (path, init = {}) => {
    const waited = [];
    const x = newExchange({ request: new Request("https://edge.example" + path, init), env: fullEnv, exec: { waitUntil: (p) => waited.push(p) } });
    const res = await handle(x);
    await Promise.all(waited);
    const text = await res.text();
    return { res, status: res.status, text, json: text ? JSON.parse(text) : null, x };
  };
  return { core, edge, calls, send, store, env: fullEnv };
}

const form = (body, headers = {}) => ({ method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
const master = { authorization: "Bearer master" };

test("healthz: the core's answer with the platform's facts; headers every answer carries", async () => {
  const s = stack({ env: { RATE_LIMIT_PUBLIC: { limit: async () => ({ success: true }) } } });
  const r = await s.send("/healthz", { headers: { origin: "https://shop.example", "x-request-id": "probe-1" } });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.data.rate_limits, { public: true, anonymous: false, tokens: false });
  assert.deepEqual(r.json.data.instance, { id: "1", requests: 1, memoryBytes: 131072 });
  assert.deepEqual(r.json.data.cache, { entries: 0, bytes: 0 });
  assert.equal(r.json.data.webhooks, null);
  const h = r.res.headers;
  assert.equal(h.get("x-request-id"), "probe-1");
  assert.match(h.get("server-timing"), /^edge;dur=\d+\.\d$/);
  assert.equal(h.get("access-control-allow-origin"), "https://shop.example");
  assert.equal(h.get("vary"), "Origin");
  assert.equal(h.get("cache-control"), "no-store");
  const p = await s.send("/healthz", { method: "POST" });
  assert.equal(p.status, 405);
  assert.equal(p.res.headers.get("allow"), "GET, HEAD, OPTIONS");
  const o = await s.send("/healthz", { method: "OPTIONS", headers: { origin: "https://shop.example" } });
  assert.equal(o.status, 200);
  assert.equal(o.res.headers.get("access-control-allow-methods"), "GET, HEAD, OPTIONS");
  assert.equal(o.text, '{"status":"ok","data":{"allow":"GET, HEAD, OPTIONS"}}');
  // An uptime monitor's HEAD is answered as GET (the runtime drops the body).
  const head = await s.send("/healthz", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.res.headers.get("cache-control"), "no-store");
});

test("an origin not allowed gets the core's 403 and nothing runs", async () => {
  const s = stack();
  const r = await s.send("/v1/get-client-services", { headers: { origin: "https://evil.example" } });
  assert.equal(r.status, 403);
  assert.equal(r.json.data.errorClass, "origin_forbidden");
  assert.equal(r.res.headers.get("access-control-allow-origin"), null);
  assert.equal(s.calls.length, 0);
  assert.ok(!s.core.methods().includes("prepare"));
});

test("a percent-encoded path is refused before routing, whatever it names", async () => {
  const s = stack();
  for (const p of ["/v1/new%2Dshipment", "/health%7A", "/v1/get-client-services%3Fx"]) {
    const r = await s.send(p, form("a=1", master));
    assert.equal(r.status, 400, p);
    assert.equal(r.json.data.errorClass, "encoded_path");
    assert.equal(s.core.calls.at(-1)[1].path, p);
  }
  assert.equal(s.calls.length, 0);
  assert.ok(!s.core.methods().includes("prepare"));
});

test("unknown paths and operations: 404; preflight of an operation lists its methods", async () => {
  const s = stack();
  assert.equal((await s.send("/nope")).json.data.errorClass, "not_found");
  assert.equal((await s.send("/demo/token")).status, 404, "no demo token off the sandbox");
  assert.equal((await s.send("/__faults/trap")).status, 404, "no faults without FAULT_INJECTION");
  assert.equal((await s.send("/v1/nope")).json.data.errorClass, "unknown_operation");
  const o = await s.send("/v1/new-shipment", { method: "OPTIONS" });
  assert.equal(o.res.headers.get("allow"), "POST, OPTIONS");
  assert.equal((await s.send("/v1/nope", { method: "OPTIONS" })).status, 404);
});

test("a read is forwarded with the core's body and the upstream's Authorization only; the answer relayed", async () => {
  const s = stack();
  const r = await s.send("/v1/get-collection-cutoff-hour?zip_code=28014&country_code=ES", {
    headers: { authorization: "Bearer nope", cookie: "s=1", "cf-connecting-ip": "203.0.113.5", "x-request-id": "shop-7" } });
  assert.equal(r.status, 200);
  assert.equal(r.json.data.echo, "country_code=ES&zip_code=28014");
  assert.equal(s.calls.length, 1);
  const c = s.calls[0];
  assert.equal(c.url, "https://up.example/v1/get-collection-cutoff-hour");
  assert.deepEqual(c.headers, { authorization: "Basic dTpr", "content-type": "application/x-www-form-urlencoded",
    accept: "application/json", "user-agent": "parcelgate-edge/1", "x-request-id": "shop-7" });
  assert.match(r.res.headers.get("server-timing"), /^edge;dur=[\d.]+, upstream;dur=[\d.]+$/);
  const prep = s.core.calls.find((c) => c[0] === "prepare")[1];
  assert.equal(prep.query, "zip_code=28014&country_code=ES");
  assert.equal(prep.clientIp, "203.0.113.5");
  assert.equal(prep.requestId, "shop-7");
  assert.equal(r.res.headers.get("x-cache"), null);
});

test("reads are retried while the core says so and the budget allows; bookings never", async () => {
  const s = stack({ upstream: (url, body, n) => (n < 3 ? new Response("oops", { status: 503 }) : new Response('{"status":"ok","data":{}}')) });
  const r = await s.send("/v1/get-collection-cutoff-hour", form("a=1"));
  assert.equal(r.status, 200);
  assert.equal(s.calls.length, 3);
  assert.equal(r.x.upstream.attempts, 3);
  const t = stack({ config: fakeConfig({ exactlyOnce: false }), upstream: () => new Response("oops", { status: 503 }) });
  const b = await t.send("/v1/new-shipment", form("shipping_client_ref=O1", master));
  assert.equal(b.status, 502);
  assert.equal(t.calls.length, 1, "a booking is never resent");
});

test("the retry budget: a failing upstream gets a share of the reads as retries, not three times the traffic", async () => {
  const s = stack({ upstream: () => new Response("down", { status: 503 }) });
  for (let i = 0; i < 20; i++) await s.send("/v1/get-collection-cutoff-hour", form("a=" + i));
  // 10 saved at first (burst), then a tenth per read: at most 20 + 12 calls.
  assert.ok(s.calls.length <= 20 + 12, String(s.calls.length));
  assert.ok(s.calls.length >= 20 + 10, String(s.calls.length));
});

test("rate limits: the core's key on the core's binding; 429 from the core; a failing binding lets it through, noted", async () => {
  const keys = [];
  const s = stack({ env: { RATE_LIMIT_PUBLIC: { limit: async ({ key }) => { keys.push(key); return { success: keys.length <= 1 }; } } } });
  const ok = await s.send("/v1/get-collection-cutoff-hour", form("a=1", { "cf-connecting-ip": "198.51.100.1" }));
  assert.equal(ok.status, 200);
  const no = await s.send("/v1/get-collection-cutoff-hour", form("a=1", { "cf-connecting-ip": "198.51.100.1" }));
  assert.equal(no.status, 429);
  assert.equal(no.res.headers.get("retry-after"), "60");
  assert.deepEqual(keys, ["ip:198.51.100.1", "ip:198.51.100.1"]);
  assert.equal(s.calls.length, 1);
  const m = await s.send("/v1/get-collection-cutoff-hour", form("a=1", master));
  assert.equal(m.status, 200, "the master token is not limited");
  assert.equal(keys.length, 2);
  const f = stack({ env: { RATE_LIMIT_PUBLIC: { limit: async () => { throw new Error("limiter down"); } } } });
  const r = await f.send("/v1/get-collection-cutoff-hour", form("a=1"));
  assert.equal(r.status, 200);
  assert.equal(r.x.note, "rate limiter failed: limiter down");
});

test("cached reads: a miss, then hits; the same request spelled otherwise shares the entry; err answers never stored", async () => {
  const s = stack({ upstream: (url, body) => new Response(body.includes("reject") ? '{"status":"err","data":{"errorCode":108}}' : '{"status":"ok","data":["' + body + '"]}') });
  const a = await s.send("/v1/get-client-services?carrier_code=rayo");
  assert.equal(a.res.headers.get("x-cache"), "MISS");
  const b = await s.send("/v1/get-client-services", form(" carrier_code=rayo"));
  assert.equal(b.res.headers.get("x-cache"), "HIT");
  assert.equal(b.text, a.text);
  assert.equal(s.calls.length, 1);
  assert.equal(s.edge.cache.stats().entries, 1);
  await s.send("/v1/get-client-services?carrier_code=reject");
  const c = await s.send("/v1/get-client-services?carrier_code=reject");
  assert.equal(c.res.headers.get("x-cache"), "MISS");
  assert.equal(s.calls.length, 3);
});

test("a warm exchange (the isolate's start) of a cacheable read neither reads nor fills a cache: it is answered by the stand-in", async () => {
  const s = stack();
  let cacheUsed = 0;
  const handle = app({ edge: s.edge, instance: () => ({ id: "1", requests: 0, memoryBytes: 0 }),
    cache: () => { cacheUsed++; return { match: async () => { throw new Error("read"); }, put: async () => { throw new Error("filled"); } }; } });
  const x = newExchange({ request: new Request("https://warm.invalid/v1/get-client-services?carrier_code=rayo"), env: s.env,
    exec: { waitUntil() {} }, warm: true });
  const res = await handle(x);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-cache"), null);
  assert.equal(cacheUsed, 0);
  assert.equal(s.edge.cache.stats().entries, 0, "nothing in the isolate's cache");
  assert.equal(s.calls.length, 0, "the stand-in answered, not the upstream");
  // The same read, not warm, goes through the caches.
  const real = await s.send("/v1/get-client-services?carrier_code=rayo");
  assert.equal(real.res.headers.get("x-cache"), "MISS");
});

test("normalized data: asked for by Accept, the core normalizes relayed and cached ok answers (the caches keep the upstream's bytes)", async () => {
  const s = stack({ upstream: () => new Response('{"status":"ok","data":{"n":"1"}}') });
  s.core.normalize = (i) => {
    s.core.log("normalize", i);
    const text = typeof i.body === "string" ? i.body : new TextDecoder().decode(i.body);
    return { body: text.replace('"1"', "1"), normalized: true };
  };
  const plain = await s.send("/v1/get-client-services?carrier_code=rayo");
  assert.equal(plain.text, '{"status":"ok","data":{"n":"1"}}');
  assert.equal(plain.res.headers.get("parcelgate-data"), null);
  assert.match(plain.res.headers.get("vary"), /Accept/);
  assert.ok(!s.core.methods().includes("normalize"), "not asked: not normalized");
  const accept = { accept: "application/json; parcelgate=normalized", origin: "https://shop.example" };
  const hit = await s.send("/v1/get-client-services?carrier_code=rayo", { headers: accept });
  assert.equal(hit.res.headers.get("x-cache"), "HIT");
  assert.equal(hit.text, '{"status":"ok","data":{"n":1}}');
  assert.equal(hit.res.headers.get("parcelgate-data"), "normalized");
  assert.match(hit.res.headers.get("access-control-expose-headers"), /Parcelgate-Data/);
  const miss = await s.send("/v1/get-client-services?carrier_code=other", { headers: accept });
  assert.equal(miss.res.headers.get("x-cache"), "MISS");
  assert.equal(miss.text, '{"status":"ok","data":{"n":1}}');
  assert.equal(s.edge.cache.get({ key: "get-client-services?carrier_code=other", now: Date.now() }) !== undefined, true);
  const again = await s.send("/v1/get-client-services?carrier_code=other");
  assert.equal(again.text, '{"status":"ok","data":{"n":"1"}}', "the cache kept the upstream's bytes");
});

test("cached reads: identical concurrent misses make one upstream call; another isolate finds the Cache API's copy", async () => {
  let release;
  const gate = new Promise((r) => { release = r; });
  const s = stack({ upstream: async () => { await gate; return new Response('{"status":"ok","data":["late"]}'); } });
  const all = Promise.all(Array.from({ length: 10 }, () => s.send("/v1/get-client-services?carrier_code=delay")));
  await new Promise((r) => setTimeout(r, 20));
  release();
  const rs = await all;
  assert.equal(s.calls.length, 1);
  assert.deepEqual(rs.map((r) => r.res.headers.get("x-cache")).sort(), ["HIT", "HIT", "HIT", "HIT", "HIT", "HIT", "HIT", "HIT", "HIT", "MISS"]);
  const other = stack({ shared: s.store });
  const r = await other.send("/v1/get-client-services?carrier_code=delay");
  assert.equal(r.res.headers.get("x-cache"), "HIT");
  assert.equal(other.calls.length, 0);
  assert.equal(JSON.parse(r.text).data[0], "late");
});

test("cached reads: waiters on a call that gave no ok answer get that outcome, each in its own answer, without calling again", async () => {
  for (const [upstream, status, most] of [[() => new Response('{"status":"err","data":{"errorCode":108}}', { status: 400 }), 400, 1],
    [() => new Response("down", { status: 503 }), 502, 3]]) {
    let release;
    const gate = new Promise((r) => { release = r; });
    const s = stack({ upstream: async () => { await gate; return upstream(); } });
    const all = Promise.all(Array.from({ length: 10 }, (_, i) => s.send("/v1/get-client-services?carrier_code=down",
      { headers: { "x-request-id": "w" + i, "accept-language": i % 2 ? "es" : "de" } })));
    await new Promise((r) => setTimeout(r, 20));
    release();
    const rs = await all;
    // One call (and the lead's own retries): not one more per waiter.
    assert.ok(s.calls.length <= most, `${status}: ${s.calls.length} calls`);
    assert.deepEqual(rs.map((r) => r.status), Array(10).fill(status));
    const answered = s.core.calls.filter((c) => c[0] === "answer").map((c) => c[1].requestId + " " + c[1].acceptLanguage);
    for (let i = 0; i < 10; i++) assert.ok(answered.includes("w" + i + " " + (i % 2 ? "es" : "de")), `w${i} answered in its own language`);
  }
});

const ship = "shipping_client_ref=ORDER-1&to_zip_code=08001";
// The booking key of ship (the fake core's): its record's object and storage key.
const KEY1 = "u\nbase\nnew-shipment\nORDER-1";
const booked = '{"status":"ok","data":{"shipping_dlvr_ref":"D1","shipping_client_ref":"ORDER-1"}}';

test("bookings through the Bookings object: forwarded once, the resend replayed, other data a conflict; watched", async () => {
  const added = [];
  const watchlist = namespace(() => ({ add: ({ ref, clientRef }) => { added.push([ref, clientRef]); return ""; } }));
  const s = stack({ config: fakeConfig({ webhooks: {} }), env: { WATCHLIST: watchlist }, upstream: () => new Response(booked) });
  const a = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(a.status, 200);
  assert.equal(a.text, booked);
  assert.deepEqual(added, [["D1", "ORDER-1"]]);
  const b = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(b.status, 200);
  assert.equal(b.res.headers.get("idempotent-replayed"), "true");
  assert.equal(b.text, booked);
  const c = await s.send("/v1/new-shipment", form(ship + "&to_name=Other", master));
  assert.equal(c.status, 409);
  assert.equal(s.calls.length, 1, "booked once");
  const begin = s.core.calls.filter((c) => c[0] === "booking").map((c) => c[1].state);
  assert.deepEqual(begin, ["new", "done", "conflict"]);
});

test("bookings: a refusal releases the reference; a lost answer is looked up next time, found and not booked again", async () => {
  let n = 0;
  const s = stack({ upstream: (url, body) => {
    n++;
    if (url.endsWith("/get-shipments")) return new Response('{"status":"ok","data":{"shipments":[{"shipping_data":{"shipping_client_ref":"ORDER-1"}}]}}');
    if (n === 1) return new Response('{"status":"err","data":{"errorCode":484}}', { status: 400 });
    return new Response("bad gateway", { status: 502 });
  } });
  const a = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(a.status, 400);
  const b = await s.send("/v1/new-shipment", form(ship + "&fixed=1", master));
  assert.equal(b.status, 502, "released: the corrected request was forwarded (and its answer lost)");
  const c = await s.send("/v1/new-shipment", form(ship + "&fixed=1", master));
  assert.equal(c.status, 200);
  assert.equal(c.json.data.shipping_dlvr_ref, "FOUND");
  assert.deepEqual(s.calls.map((c) => c.url.slice(c.url.lastIndexOf("/") + 1)), ["new-shipment", "new-shipment", "get-shipments"]);
  const d = await s.send("/v1/new-shipment", form(ship + "&fixed=1", master));
  assert.equal(d.res.headers.get("idempotent-replayed"), "true", "the lookup's answer was recorded");
  assert.equal(s.calls.length, 3);
});

test("bookings after a lost answer: 425 within the grace and nothing sent; then a lookup; found nothing: sending, then booked", async () => {
  let n = 0;
  const s = stack({ upstream: (url) => {
    n++;
    if (url.endsWith("/get-shipments")) return new Response('{"status":"ok","data":{"shipments":[]}}');
    if (n === 1) return new Response("gateway", { status: 502 });
    return new Response(booked);
  } });
  s.edge.config.limits.bookingGraceMs = 60000;
  const a = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(a.status, 502, "the answer was lost");
  const ans = s.core.calls.find((c) => c[0] === "answer")[1];
  assert.ok(ans.sentAt > 0, "the core knows when the booking was sent");
  const b = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(b.status, 425);
  assert.equal(b.res.headers.get("retry-after"), "60");
  assert.equal(s.calls.length, 1, "nothing sent within the grace");
  // Past the grace (the record's since moved back).
  const obj = s.env.BOOKINGS.objects.get(bookingObjectName(KEY1));
  const rec = obj.state.storage.map.get(recordKey(KEY1));
  obj.state.storage.map.set(recordKey(KEY1), { ...rec, since: rec.since - 61000 });
  const c = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(c.status, 200);
  assert.deepEqual(s.calls.map((c) => c.url.slice(c.url.lastIndexOf("/") + 1)), ["new-shipment", "get-shipments", "new-shipment"]);
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)).state, "done");
});

test("bookings: a lookup that fails or finds another booking's data sends nothing and leaves the record lost", async () => {
  let lookups = 0;
  const s = stack({ upstream: (url) => {
    if (url.endsWith("/get-shipments")) {
      lookups++;
      return lookups === 1 ? new Response("down", { status: 503 }) : new Response('{"status":"ok","data":"ORDER-1 OTHER-DATA"}');
    }
    return new Response("gateway", { status: 502 });
  } });
  await s.send("/v1/new-shipment", form(ship, master));
  const r = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(r.status, 502);
  const m = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(m.status, 409);
  assert.equal(m.json.data.errorClass, "booking_mismatch");
  const obj = s.env.BOOKINGS.objects.get(bookingObjectName(KEY1));
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)).state, "lost");
  assert.equal(s.calls.filter((c) => c.url.endsWith("/new-shipment")).length, 1, "booked once at most");
});

test("bookings: after a lookup found nothing, a record taken over meanwhile sends nothing", async () => {
  const s = stack({ upstream: (url) => url.endsWith("/get-shipments") ? new Response('{"status":"ok","data":{"shipments":[]}}') : new Response("gateway", { status: 502 }) });
  await s.send("/v1/new-shipment", form(ship, master));
  const obj = s.env.BOOKINGS.objects.get(bookingObjectName(KEY1));
  const sending = obj.sending.bind(obj);
  obj.sending = async (key) => { await sending(key, "someone else"); return false; };
  const r = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(r.status, 503);
  assert.equal(r.json.data.errorClass, "booking_taken_over");
  assert.equal(s.calls.filter((c) => c.url.endsWith("/new-shipment")).length, 1);
});

test("bookings: an unreachable Bookings object answers ledger_unavailable and sends nothing", async () => {
  const s = stack({ env: { BOOKINGS: namespace(() => ({ begin: async () => { throw new Error("overloaded"); } })) } });
  const r = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(r.status, 503);
  assert.equal(r.json.data.errorClass, "ledger_unavailable");
  assert.equal(s.calls.length, 0);
  assert.equal(r.x.detail, "booking ledger: overloaded");
});

test("a scoped token's read of its booked shipment: the record is peeked and given to the core", async () => {
  const s = stack();
  await s.send("/v1/new-shipment", form(ship, master));
  const r = await s.send("/v1/get-shipment?dlvr_ref=D1", { headers: { authorization: "Bearer scoped" } });
  assert.equal(r.status, 200);
  const second = s.core.calls.filter((c) => c[0] === "prepare").at(-1)[1];
  assert.equal(second.booked.state, "done");
  assert.match(second.booked.body, /ORDER-1/);
  const none = stack();
  const n = await none.send("/v1/get-shipment?dlvr_ref=D1", { headers: { authorization: "Bearer scoped" } });
  assert.equal(n.status, 403);
});

test("bodies over MAX_BODY_BYTES reach the core as bodyTooLarge, unread", async () => {
  const s = stack();
  const r = await s.send("/v1/get-collection-cutoff-hour", form("a=" + "x".repeat(300)));
  assert.equal(r.status, 413);
  const prep = s.core.calls.find((c) => c[0] === "prepare")[1];
  assert.equal(prep.bodyTooLarge, true);
});

test("a JavaScript failure answers that request 500 and no other", async () => {
  const s = stack({ upstream: async (url, body) => {
    await new Promise((r) => setTimeout(r, 10));
    return new Response('{"status":"ok","data":{"echo":"' + body + '"}}');
  } });
  const answer = s.core.answer.bind(s.core);
  s.core.answer = (i) => { if (new TextDecoder().decode(i.upstream.body).includes("boom")) throw new TypeError("bug"); return answer(i); };
  const [bad, ...good] = await Promise.all([
    s.send("/v1/get-collection-cutoff-hour", form("boom=1")),
    ...Array.from({ length: 3 }, (_, i) => s.send("/v1/get-collection-cutoff-hour", form("ok=" + i))),
  ]);
  assert.equal(bad.status, 500);
  assert.equal(bad.json.data.errorClass, "internal");
  assert.equal(bad.x.errorClass, "panic");
  for (const g of good) assert.equal(g.status, 200);
});

test("the request's deadline: the core's timeout envelope", async () => {
  const config = fakeConfig();
  config.limits.requestDeadlineMs = 30;
  const s = stack({ config, upstream: () => new Promise((r) => setTimeout(() => r(new Response('{"status":"ok","data":{}}')), 200)) });
  const r = await s.send("/v1/get-collection-cutoff-hour", form("a=1"));
  assert.equal(r.status, 504);
  assert.equal(r.json.data.errorClass, "timeout");
});

/** hanging is an upstream that answers only when its signal aborts, with the abort's reason (as fetch does). */
const hanging = (got) => async (url, init) => {
  got.push(init.signal);
  return new Promise((_, rej) => init.signal.addEventListener("abort", () => rej(init.signal.reason)));
};

test("an upstream attempt past UPSTREAM_TIMEOUT_MS: a TimeoutError, the core's upstream_timeout, the platform's message logged", async () => {
  const config = fakeConfig();
  config.limits.upstreamTimeoutMs = 20;
  const got = [];
  const s = stack({ config });
  s.edge.fetcher = hanging(got);
  const r = await s.send("/v1/get-collection-cutoff-hour", form("a=1"));
  assert.equal(r.status, 504);
  assert.equal(r.json.data.errorClass, "upstream_timeout", "the upstream's timeout, not the request's deadline");
  assert.equal(r.x.detail, "The operation was aborted due to timeout");
  assert.equal(got.length, 1);
  assert.equal(got[0].reason.name, "TimeoutError");
});

test("the request's deadline holds past its upstream attempt's timeout when the upstream ignores the abort", async () => {
  const config = fakeConfig();
  config.limits.upstreamTimeoutMs = 20;
  config.limits.requestDeadlineMs = 60;
  const got = [];
  const s = stack({ config });
  s.edge.fetcher = async (url, init) => { got.push(init.signal); return new Promise(() => {}); };
  const r = await s.send("/v1/get-collection-cutoff-hour", form("a=1"));
  assert.equal(r.status, 504);
  assert.equal(r.json.data.errorClass, "timeout");
  assert.equal(got[0].reason?.name, "TimeoutError", "the attempt was aborted at its timeout");
});

test("/tokens: the core mints; its rate limit applies first", async () => {
  let limitedOnce = false;
  const s = stack({ env: { RATE_LIMIT_PUBLIC: { limit: async () => { const ok = !limitedOnce; limitedOnce = true; return { success: ok }; } } } });
  const m = await s.send("/tokens", form("operations=new-shipment", master));
  assert.equal(m.json.data.token, "pgt1.x");
  assert.equal((await s.send("/tokens", form("x=1"))).status, 401);
  assert.equal((await s.send("/tokens", form("x=1"))).status, 429);
  assert.equal((await s.send("/tokens", { method: "OPTIONS" })).res.headers.get("allow"), "POST, OPTIONS");
});

test("/demo/token and /__faults/ exist only when the configuration says so", async () => {
  const s = stack({ config: fakeConfig({ demo: true, faults: true }) });
  assert.equal((await s.send("/demo/token?shipping_client_ref=O1")).json.data.token, "pgt1.demo");
  const f = await s.send("/__faults/trap");
  assert.equal(f.status, 500);
  assert.equal(s.core.calls.find((c) => c[0] === "fault")[1].kind, "trap");
  const bad = stack({ config: fakeConfig({ faults: true, errors: [{ variable: "API_KEY", problem: "not set" }] }) });
  assert.equal((await bad.send("/__faults/trap")).status, 404, "never with a configuration error");
});

test("request log lines: errors by default, with the exchange's facts", async (t) => {
  const lines = [];
  t.mock.method(console, "log", (l) => lines.push(JSON.parse(l)));
  const s = stack({ upstream: () => new Response("down", { status: 503 }) });
  await s.send("/v1/get-collection-cutoff-hour?a=1");
  await s.send("/healthz");
  assert.equal(lines.length, 1);
  const l = lines[0];
  assert.equal(l.msg, "request");
  assert.equal(l.op, "get-collection-cutoff-hour");
  assert.equal(l.status, 502);
  assert.equal(l.error, "upstream_error");
  assert.equal(l.attempts, 3);
  assert.equal(l.upstream_status, 503);
  assert.equal(l.bytes_in, 3);
  assert.ok(l.bytes_out > 0);
  assert.doesNotMatch(JSON.stringify(l), /a=1|dTpr/);
});

test("a core answer's detail reaches the log line, never the client", async (t) => {
  const lines = [];
  t.mock.method(console, "log", (l) => lines.push(JSON.parse(l)));
  const s = stack();
  s.core.healthz = () => ({ status: 500, headers: {}, body: '{"status":"err","data":{"errorMessage":"generic"}}', class: "misconfigured",
    detail: "worker misconfigured: TOKEN_SIGNING_KEY: secret is not set" });
  const r = await s.send("/healthz");
  assert.equal(r.status, 500);
  assert.doesNotMatch(r.text, /TOKEN_SIGNING_KEY/);
  assert.equal(lines.at(-1).detail, "worker misconfigured: TOKEN_SIGNING_KEY: secret is not set");
});

/**
 * forwarding is a BOOKINGS namespace whose objects forward new bookings
 * themselves (as the entry module's Bookings does, with the isolate's
 * edge); calls lists the worker's calls on them (not the object's own).
 */
function forwarding(ref) {
  const calls = [];
  const Forwarding = bookingsClass({
    async forward(send) {
      if (ref.broken) throw new Error("core gone");
      return forwardBooking(ref.edge, send);
    },
  });
  const ns = namespace(() => {
    const o = new Forwarding({ storage: new MemoryStorage() }, {});
    return new Proxy(o, { get: (t, k) => (typeof t[k] === "function" ? (...a) => { calls.push(String(k)); return t[k](...a); } : t[k]) });
  });
  return { ns, calls };
}

test("bookings forwarded by the Bookings object: one call on it, the outcome recorded before the answer, the resend replayed", async () => {
  const ref = {};
  const f = forwarding(ref);
  const added = [];
  const watchlist = namespace(() => ({ add: ({ ref, clientRef }) => { added.push([ref, clientRef]); return ""; } }));
  const s = stack({ config: fakeConfig({ webhooks: {} }), env: { BOOKINGS: f.ns, WATCHLIST: watchlist }, upstream: () => new Response(booked) });
  ref.edge = s.edge;
  const a = await s.send("/v1/new-shipment", form(ship, { ...master, "x-request-id": "shop-9" }));
  assert.equal(a.status, 200);
  assert.equal(a.text, booked);
  assert.deepEqual(f.calls, ["begin"], "one call on the object: no finish from the worker");
  assert.equal(s.calls.length, 1);
  assert.equal(s.calls[0].headers["x-request-id"], "shop-9", "the object sends the request's id upstream");
  assert.equal(s.calls[0].headers.authorization, "Basic dTpr");
  assert.match(a.res.headers.get("server-timing"), /^edge;dur=[\d.]+, upstream;dur=[\d.]+$/, "the object's upstream call is timed");
  assert.deepEqual(added, [["D1", "ORDER-1"]], "watched");
  const obj = s.env.BOOKINGS.objects.get(bookingObjectName(KEY1));
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)).state, "done");
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)).body, booked);
  const b = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(b.res.headers.get("idempotent-replayed"), "true");
  assert.equal(b.text, booked);
  const c = await s.send("/v1/new-shipment", form(ship + "&to_name=Other", master));
  assert.equal(c.status, 409);
  assert.equal(s.calls.length, 1, "booked once");
  assert.deepEqual(s.core.calls.filter((c) => c[0] === "booking").map((c) => c[1].state), ["new", "done", "conflict"], "the core decides each step");
});

test("bookings forwarded by the object: a refusal releases the reference, a lost answer stays lost (425, then a lookup by the worker)", async () => {
  const ref = {};
  const f = forwarding(ref);
  let n = 0;
  const s = stack({ env: { BOOKINGS: f.ns }, upstream: (url) => {
    n++;
    if (url.endsWith("/get-shipments")) return new Response('{"status":"ok","data":{"shipments":[]}}');
    if (n === 1) return new Response('{"status":"err","data":{"errorCode":484}}', { status: 400 });
    if (n === 2) return new Response("gateway", { status: 502 });
    return new Response(booked);
  } });
  ref.edge = s.edge;
  s.edge.config.limits.bookingGraceMs = 60000;
  const a = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(a.status, 400);
  const obj = s.env.BOOKINGS.objects.get(bookingObjectName(KEY1));
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)), undefined, "released");
  const b = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(b.status, 502, "the answer was lost");
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)).state, "lost");
  assert.ok(s.core.calls.filter((c) => c[0] === "answer").at(-1)[1].sentAt > 0, "the core knows when it was sent");
  const c = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(c.status, 425);
  assert.equal(s.calls.length, 2, "nothing sent within the grace");
  const rec = obj.state.storage.map.get(recordKey(KEY1));
  obj.state.storage.map.set(recordKey(KEY1), { ...rec, since: rec.since - 61000 });
  const d = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(d.status, 200);
  assert.deepEqual(s.calls.map((c) => c.url.slice(c.url.lastIndexOf("/") + 1)), ["new-shipment", "new-shipment", "get-shipments", "new-shipment"]);
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)).state, "done");
  assert.deepEqual(f.calls, ["begin", "begin", "begin", "begin", "sending", "finish"], "the lookup path is the worker's, as before");
});

test("bookings: an object that fails while forwarding leaves the record lost (never released) and the worker answers ledger_unavailable", async () => {
  const ref = { broken: true };
  const f = forwarding(ref);
  const s = stack({ env: { BOOKINGS: f.ns }, upstream: () => new Response(booked) });
  ref.edge = s.edge;
  const r = await s.send("/v1/new-shipment", form(ship, master));
  assert.equal(r.status, 503);
  assert.equal(r.json.data.errorClass, "ledger_unavailable");
  assert.equal(r.x.detail, "booking ledger: core gone");
  const obj = s.env.BOOKINGS.objects.get(bookingObjectName(KEY1));
  assert.equal(obj.state.storage.map.get(recordKey(KEY1)).state, "lost", "it may have been sent: a resend looks it up");
});

test("healthz: the core writes the answer once per isolate and configuration; each probe fills in the instance's and the cache's counts", async () => {
  const s = stack();
  let n = 0;
  const handle = app({ edge: s.edge, instance: () => ({ id: n < 2 ? "1" : "2", requests: ++n, memoryBytes: 65536 * n }), cache: () => undefined });
  const probe = async () => {
    const x = newExchange({ request: new Request("https://edge.example/healthz"), env: s.env, exec: { waitUntil() {} } });
    const r = await handle(x);
    return { r, json: JSON.parse(await r.text()) };
  };
  const first = await probe();
  assert.equal(first.r.status, 200);
  assert.deepEqual(first.json.data.instance, { id: "1", requests: 1, memoryBytes: 65536 });
  s.edge.cache.put({ key: "k", body: new Uint8Array(10), expires: Date.now() + 60000 });
  await probe();
  const third = await probe();
  assert.deepEqual(third.json.data.instance, { id: "2", requests: 3, memoryBytes: 196608 }, "a replaced module's id, this probe's counts");
  assert.deepEqual(third.json.data.cache, { entries: 1, bytes: 10 });
  assert.equal(third.json.data.service, "parcelgate-edge");
  assert.equal(s.core.calls.filter((c) => c[0] === "healthz").length, 1, "one crossing for the isolate's probes");
  assert.equal(third.r.headers.get("content-type"), "application/json; charset=utf-8");
});

test("healthz: with webhooks, or when the core's answer is not a 200, the core answers every probe", async () => {
  const watchlist = namespace(() => ({ stats: () => '{"watched":1,"pending":0,"delivered":0,"dropped":0,"last_run":null}' }));
  const w = stack({ config: fakeConfig({ webhooks: {} }), env: { WATCHLIST: watchlist } });
  await w.send("/healthz");
  await w.send("/healthz", { headers: master });
  assert.equal(w.core.calls.filter((c) => c[0] === "healthz").length, 2);
  const bad = stack();
  const healthz = bad.core.healthz.bind(bad.core);
  bad.core.healthz = (i) => ({ ...healthz(i), status: 500 });
  assert.equal((await bad.send("/healthz")).status, 500);
  assert.equal((await bad.send("/healthz")).status, 500);
  assert.equal(bad.core.calls.filter((c) => c[0] === "healthz").length, 3, "the marked answer, then each probe's own");
  assert.equal(healthTemplate({ status: 200, headers: {}, class: "healthz", body: '{"a":987654321000001,"b":987654321000001}' }), false);
});
