import { test } from "node:test";
import assert from "node:assert/strict";
import { upstreamCall, webhookPost } from "./upstream.mjs";
import { IsolateCache, sharedGet, sharedPut } from "./cache.mjs";
import { rateLimit, bound } from "./ratelimit.mjs";
import { BOOKING_SHARDS, SWEEP_MS, LEGACY_KEY, bookingObjectName, recordKey, takenOverKey, bookingBegin, bookingFinish, bookingPeek, bookingSending, bookingsBound } from "./bookings.mjs";
import { watchAdd, watchLease, watchCommit, watchStats, watchlistBound } from "./watchlist.mjs";
import { errorDetail } from "./binding.mjs";
import { MemoryStorage, namespace } from "../testing/fakes.mjs";
import { bookingsClass, ledgerCore } from "../testing/ledger.mjs";
import fs from "node:fs";

// The Bookings objects decide through the real core module (testing/ledger.mjs).
const Bookings = bookingsClass();

test("upstreamCall: POST with Basic auth and only its own headers, body as bytes, manual redirects", async () => {
  let seen;
  const fetcher = async (url, init) => { seen = { url, init }; return new Response('{"status":"ok","data":[]}', { status: 200 }); };
  const a = await upstreamCall({ url: "https://up.example/v1/get-client-carriers", body: "a=1", authorization: "Basic dTpr",
    requestId: "r1", timeoutMs: 1000, fetcher });
  assert.equal(a.failure, null);
  assert.equal(a.status, 200);
  assert.equal(new TextDecoder().decode(a.body), '{"status":"ok","data":[]}');
  assert.equal(seen.init.method, "POST");
  assert.equal(seen.init.redirect, "manual");
  assert.deepEqual(Object.keys(seen.init.headers).sort(), ["accept", "authorization", "content-type", "user-agent", "x-request-id"]);
  assert.equal(seen.init.headers.authorization, "Basic dTpr");
  assert.equal(seen.init.headers["x-request-id"], "r1");
  assert.ok(seen.init.signal instanceof AbortSignal);
});

test("upstreamCall: timeout, network failure, answer over the bound", async () => {
  // AbortSignal.timeout's timer does not keep Node alive: this one does.
  const slow = (url, init) => new Promise((_, rej) => {
    const keep = setTimeout(() => {}, 5000);
    init.signal.addEventListener("abort", () => { clearTimeout(keep); rej(init.signal.reason); });
  });
  const t = await upstreamCall({ url: "u", body: "", authorization: "Basic x", requestId: "r", timeoutMs: 20, fetcher: slow });
  assert.deepEqual([t.failure, t.status, t.body], ["timeout", 0, null]);
  const n = await upstreamCall({ url: "u", body: "", authorization: "Basic x", requestId: "r", timeoutMs: 1000,
    fetcher: async () => { throw new TypeError("connection refused to 10.0.0.1"); } });
  assert.equal(n.failure, "unreachable");
  assert.match(n.detail, /refused/);
  const big = await upstreamCall({ url: "u", body: "", authorization: "Basic x", requestId: "r", timeoutMs: 1000, maxBytes: 10,
    fetcher: async () => new Response("x".repeat(11), { status: 200 }) });
  assert.deepEqual([big.failure, big.status], ["too_large", 200]);
  // A declared length within the bound is read in one call; an encoded answer (decoded by the
  // platform, so longer than declared) or one declared too short is still held to the bound.
  const declared = await upstreamCall({ url: "u", body: "", authorization: "Basic x", requestId: "r", timeoutMs: 1000, maxBytes: 10,
    fetcher: async () => new Response("0123456789", { status: 200, headers: { "content-length": "10" } }) });
  assert.deepEqual([declared.failure, new TextDecoder().decode(declared.body)], [null, "0123456789"]);
  const encoded = await upstreamCall({ url: "u", body: "", authorization: "Basic x", requestId: "r", timeoutMs: 1000, maxBytes: 10,
    fetcher: async () => new Response("x".repeat(5000), { status: 200, headers: { "content-length": "20", "content-encoding": "gzip" } }) });
  assert.deepEqual([encoded.failure, encoded.status], ["too_large", 200]);
  const short = await upstreamCall({ url: "u", body: "", authorization: "Basic x", requestId: "r", timeoutMs: 1000, maxBytes: 10,
    fetcher: async () => new Response("x".repeat(11), { status: 200, headers: { "content-length": "3" } }) });
  assert.deepEqual([short.failure, short.status], ["too_large", 200]);
  const broken = new ReadableStream({ pull(c) { c.error(new TypeError("reset")); } });
  const u = await upstreamCall({ url: "u", body: "", authorization: "Basic x", requestId: "r", timeoutMs: 1000,
    fetcher: async () => new Response(broken, { status: 200 }) });
  assert.deepEqual([u.failure, u.status], ["unreadable", 200]);
});

test("webhookPost: only the status counts", async () => {
  const a = await webhookPost({ url: "u", body: "{}", headers: {}, timeoutMs: 100, fetcher: async () => new Response("big page", { status: 202 }) });
  assert.deepEqual(a, { status: 202 });
  const b = await webhookPost({ url: "u", body: "{}", headers: {}, timeoutMs: 100, fetcher: async () => { throw new TypeError("x"); } });
  assert.deepEqual(b, { status: 0, failure: "network" });
});

const bytes = (n) => new Uint8Array(n);

test("IsolateCache: fresh entries, expiry, LRU eviction by bytes and entries, large bodies not kept", () => {
  const c = new IsolateCache({ maxBytes: 400, maxEntries: 3 });
  c.put({ key: "a", body: bytes(100), expires: 50 });
  assert.equal(c.get({ key: "a", now: 10 }).byteLength, 100);
  assert.equal(c.get({ key: "a", now: 50 }), undefined, "expired");
  assert.deepEqual(c.stats(), { entries: 0, bytes: 0 });
  c.put({ key: "big", body: bytes(101), expires: 1e9 });
  assert.equal(c.get({ key: "big", now: 0 }), undefined, "over a quarter of the bound");
  for (const k of ["a", "b", "c"]) c.put({ key: k, body: bytes(100), expires: 1e9 });
  c.get({ key: "a", now: 0 }); // a is now the most recent
  c.put({ key: "d", body: bytes(100), expires: 1e9 });
  assert.equal(c.get({ key: "b", now: 0 }), undefined, "least recently used went first");
  assert.ok(c.get({ key: "a", now: 0 }));
  assert.deepEqual(c.stats(), { entries: 3, bytes: 300 });
  const z = new IsolateCache({ maxBytes: 0 });
  z.put({ key: "a", body: bytes(1), expires: 1e9 });
  assert.equal(z.stats().entries, 0);
});

test("IsolateCache.flight: concurrent callers share one load", async () => {
  const c = new IsolateCache({ maxBytes: 1000 });
  let loads = 0;
  let finish;
  const load = () => { loads++; return new Promise((r) => { finish = r; }); };
  const a = c.flight({ key: "k", load });
  const b = c.flight({ key: "k", load });
  assert.equal(a.lead, true);
  assert.equal(b.lead, false);
  finish(bytes(3));
  assert.equal((await b.result).byteLength, 3);
  assert.equal(loads, 1);
  const again = c.flight({ key: "k", load });
  assert.equal(again.lead, true, "a landed flight is gone");
  finish(null);
  await again.result;
});

test("shared tier: round trip with its expiry; no Cache API or a failing one is a miss", async () => {
  const store = new Map();
  const cache = { match: async (k) => store.get(k)?.clone(), put: async (k, r) => { store.set(k, r); } };
  await sharedPut({ cache, key: "abc", body: new TextEncoder().encode("{}"), ttlSeconds: 60, now: 1000 });
  const got = await sharedGet({ cache, key: "abc" });
  assert.equal(new TextDecoder().decode(got.body), "{}");
  assert.equal(got.expires, 61000);
  assert.equal(await sharedGet({ cache, key: "nope" }), undefined);
  assert.equal(await sharedGet({ cache: undefined, key: "abc" }), undefined);
  assert.equal(await sharedGet({ cache: { match: async () => { throw new Error("x"); } }, key: "abc" }), undefined);
  await sharedPut({ cache: { put: async () => { throw new Error("x"); } }, key: "a", body: bytes(1), ttlSeconds: 1, now: 0 });
});

test("rateLimit: allowed, limited, unbound, failed", async () => {
  const env = { RL: { limit: async ({ key }) => ({ success: key !== "full" }) }, BAD: { limit: async () => { throw new Error("down"); } } };
  assert.deepEqual(await rateLimit({ env, binding: "RL", key: "a" }), { verdict: "allowed" });
  assert.deepEqual(await rateLimit({ env, binding: "RL", key: "full" }), { verdict: "limited" });
  assert.deepEqual(await rateLimit({ env, binding: "NONE", key: "a" }), { verdict: "unbound" });
  assert.deepEqual(await rateLimit({ env, binding: "BAD", key: "a" }), { verdict: "failed", detail: "down" });
  assert.equal(bound({ env, binding: "RL" }), true);
  assert.equal(bound({ env, binding: "NONE" }), false);
});

function bookingsEnv() {
  const ns = namespace(() => new Bookings({ storage: new MemoryStorage() }, {}));
  return { env: { BOOKINGS: ns }, ns };
}
const record = { binding: "BOOKINGS", key: "u\nbase\nnew-shipment\nORDER-1" };
const opts = { waitMs: 100, holdMs: 1000, graceMs: 0, ttlMs: 60000 };
const begin = (env, fingerprint, o = {}) => bookingBegin({ env, record: o.record ?? record, fingerprint, ...opts, ...o });

test("Bookings: new (written pending, with a holder), done with the stored answer, conflict, release", async () => {
  const { env, ns } = bookingsEnv();
  const a = await begin(env, "fp1");
  assert.deepEqual([a.ok, a.state], [true, "new"]);
  assert.match(a.holder, /^[0-9a-f-]{36}$/);
  const obj = ns.objects.get(bookingObjectName(record.key));
  assert.equal(obj.state.storage.map.get(recordKey(record.key)).state, "pending", "written before anything is sent");
  assert.deepEqual(await bookingPeek({ env, record }), { state: "" }, "held by a live request");
  const body = '{"status":"ok","data":{"shipping_dlvr_ref":"D1"}}';
  assert.deepEqual(await bookingFinish({ env, record, holder: a.holder, outcome: "ok", body, ttlMs: 60000 }), { ok: true, holding: true });
  const b = await begin(env, "fp1");
  assert.deepEqual([b.state, b.body], ["done", body]);
  assert.equal((await bookingPeek({ env, record })).state, "done");
  assert.equal((await begin(env, "fp2")).state, "conflict");
  const other = { binding: "BOOKINGS", key: "k-other" };
  const c = await begin(env, "x", { record: other });
  await bookingFinish({ env, record: other, holder: c.holder, outcome: "refused", body: null, ttlMs: 60000 });
  assert.equal((await begin(env, "y", { record: other })).state, "new", "refused: released, a corrected request goes through");
});

test("Bookings: a concurrent duplicate waits for the holder; busy past its wait; a finish by a non-holder writes nothing", async () => {
  const { env } = bookingsEnv();
  const a = await begin(env, "fp", { holdMs: 60000 });
  const waiting = begin(env, "fp", { waitMs: 5000 });
  await bookingFinish({ env, record, holder: a.holder, outcome: "ok", body: "{}", ttlMs: 60000 });
  assert.equal((await waiting).state, "done");
  const r2 = { binding: "BOOKINGS", key: "k2" };
  await begin(env, "fp", { record: r2, holdMs: 60000 });
  assert.equal((await begin(env, "fp", { record: r2, waitMs: 20 })).state, "busy");
  assert.deepEqual(await bookingFinish({ env, record: r2, holder: "not-the-holder", outcome: "ok", body: "{}", ttlMs: 60000 }), { ok: true, holding: false });
});

test("Bookings: a lost answer: unknown within the grace, then lost (look up); sending, unsent back to lost", async () => {
  const { env } = bookingsEnv();
  const a = await begin(env, "fp");
  await bookingFinish({ env, record, holder: a.holder, outcome: "lost", body: null, ttlMs: 60000 });
  const u = await begin(env, "fp", { graceMs: 60000 });
  assert.equal(u.state, "unknown");
  assert.ok(u.retryAfterMs > 59000 && u.retryAfterMs <= 60000, String(u.retryAfterMs));
  const l = await begin(env, "fp", { graceMs: 0 });
  assert.equal(l.state, "lost");
  assert.equal((await bookingPeek({ env, record })).state, "", "held by a live lookup");
  // The lookup failed: nothing was sent, the record is lost as it was.
  await bookingFinish({ env, record, holder: l.holder, outcome: "unsent", body: null, ttlMs: 60000 });
  assert.equal((await bookingPeek({ env, record })).state, "lost");
  const l2 = await begin(env, "fp");
  assert.deepEqual(await bookingSending({ env, record, holder: l2.holder }), { ok: true, holding: true });
  assert.deepEqual(await bookingSending({ env, record, holder: "someone" }), { ok: true, holding: false });
  // A new turn's unsent forgets the reference (nothing was ever sent).
  const r3 = { binding: "BOOKINGS", key: "k3" };
  const n = await begin(env, "fp", { record: r3 });
  await bookingFinish({ env, record: r3, holder: n.holder, outcome: "unsent", body: null, ttlMs: 60000 });
  assert.equal((await begin(env, "other", { record: r3 })).state, "new");
});

test("Bookings: a holder that vanished: its pending record is a lost answer; records expire", async () => {
  const { env, ns } = bookingsEnv();
  await begin(env, "fp", { holdMs: 10 });
  await new Promise((r) => setTimeout(r, 30));
  assert.equal((await begin(env, "fp")).state, "lost", "past its hold the holder is gone; past the grace: look it up");
  const r2 = { binding: "BOOKINGS", key: "k2" };
  const a = await begin(env, "fp", { record: r2 });
  await bookingFinish({ env, record: r2, holder: a.holder, outcome: "lost", body: null, ttlMs: 10 });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal((await begin(env, "fp2", { record: r2 })).state, "new", "expired");
  const obj = ns.objects.get(bookingObjectName("k2"));
  obj.state.storage.map.set(recordKey("k2"), { state: "lost", fp: "x", since: 0, expires: Date.now() - 1 });
  await obj.alarm();
  assert.equal(obj.state.storage.map.get(recordKey("k2")), undefined);
});

test("Bookings: records share BOOKING_SHARDS objects; one alarm per object, not a write per booking; the sweep keeps live records", async () => {
  const names = new Set();
  for (let i = 0; i < 2000; i++) names.add(bookingObjectName("u\nbase\nnew-shipment\nR-" + i));
  assert.equal(names.size, BOOKING_SHARDS, "every shard used, none more");
  assert.equal(bookingObjectName("k"), bookingObjectName("k"));
  const storage = new MemoryStorage();
  let alarms = 0;
  const set = storage.setAlarm.bind(storage);
  storage.setAlarm = async (at) => { alarms++; return set(at); };
  const obj = new Bookings({ storage }, {});
  const a = await obj.begin({ key: "k1", fp: "fp1", waitMs: 100, holdMs: 1000, graceMs: 0, ttlMs: 60000 });
  const b = await obj.begin({ key: "k2", fp: "fp2", waitMs: 100, holdMs: 1000, graceMs: 0, ttlMs: 60000 });
  assert.deepEqual([a.state, b.state], ["new", "new"], "two records in one object, each its own");
  await obj.finish({ key: "k1", holder: a.holder, outcome: "ok", body: "{}", ttlMs: 60000 });
  await obj.finish({ key: "k2", holder: b.holder, outcome: "lost", body: null, ttlMs: 10 });
  assert.equal(alarms, 1, "the first record set the alarm; the others found it");
  assert.equal((await obj.begin({ key: "k1", fp: "fp1", waitMs: 100, holdMs: 1000, graceMs: 0, ttlMs: 60000 })).state, "done");
  await new Promise((r) => setTimeout(r, 20));
  storage.map.set("rec", { state: "done", fp: "old", body: "{}", expires: Date.now() - 1 }); // an object-per-reference record
  await obj.alarm();
  assert.deepEqual([...storage.map.keys()], [recordKey("k1")], "expired records swept, of either layout");
  assert.ok(storage.alarm >= Date.now() + SWEEP_MS - 1000, "back no sooner than SWEEP_MS");
  storage.map.clear();
  await obj.alarm();
  assert.equal(alarms, 2, "nothing left: no alarm");
});

/**
 * legacyEnv: Bookings objects whose window on the earlier layout ends at
 * until, and the objects of that layout (named by the booking key, their
 * record under "rec") seeded with records; reads counts their reads.
 */
function legacyEnv(until, seeds = {}) {
  const reads = { n: 0 };
  /** @type {any} */
  const env = {};
  /** forwards counts the bookings the objects forward themselves (begin with send); each answers its own reference. */
  const forwards = { n: 0 };
  const Base = bookingsClass({
    legacyUntilMs: until,
    async forward() {
      const body = '{"status":"ok","data":{"shipping_dlvr_ref":"D' + ++forwards.n + '"}}';
      await new Promise((r) => setTimeout(r, 5));
      return { finish: { outcome: "ok", body }, result: body };
    },
  });
  class Windowed extends Base {
    async legacyRecord() { reads.n++; await new Promise((r) => setTimeout(r, 5)); return super.legacyRecord(); }
  }
  env.BOOKINGS = namespace((name) => {
    const storage = new MemoryStorage();
    if (seeds[name] !== undefined) storage.map.set(LEGACY_KEY, seeds[name]);
    return new Windowed({ storage }, env);
  });
  return { env, ns: env.BOOKINGS, reads, forwards };
}
const day = 24 * 3600 * 1000;

test("Bookings, earlier layout: within the window a booking made before the upgrade replays, conflicts, or waits out its grace; once per key", async () => {
  const now = Date.now();
  const body = '{"status":"ok","data":{"shipping_dlvr_ref":"OLD-1"}}';
  const { env, ns, reads } = legacyEnv(now + day, { [record.key]: { state: "done", fp: "fp1", body, expires: now + 20 * day } });
  // Two resends at once: one read of the old object, both replayed.
  const [a, b] = await Promise.all([begin(env, "fp1"), begin(env, "fp1")]);
  assert.deepEqual([a.state, a.body, b.state, b.body], ["done", body, "done", body]);
  assert.equal(reads.n, 1, "concurrent requests share the read");
  const shard = ns.objects.get(bookingObjectName(record.key)).state.storage.map;
  assert.equal(shard.get(recordKey(record.key)).body, body, "taken over");
  assert.deepEqual(shard.get(takenOverKey(record.key)), { expires: now + 20 * day }, "with its mark, expiring with it");
  assert.equal(ns.objects.get(record.key).state.storage.map.get(LEGACY_KEY).state, "done", "the old object is only read");
  assert.equal((await begin(env, "fp2")).state, "conflict", "other data under the same reference");
  assert.deepEqual(await bookingPeek({ env, record }), { state: "done", body });
  assert.equal(reads.n, 1);

  // A lost answer of the old layout: nothing is sent within the grace, then it is looked up.
  const lostKey = { binding: "BOOKINGS", key: "u\nbase\nnew-shipment\nORDER-2" };
  const l = legacyEnv(now + day, { [lostKey.key]: { state: "lost", fp: "fp", since: now - 1000, expires: now + day } });
  const u = await begin(l.env, "fp", { record: lostKey, graceMs: 60000 });
  assert.equal(u.state, "unknown");
  assert.ok(u.retryAfterMs > 58000 && u.retryAfterMs <= 59000, String(u.retryAfterMs));
  const lost = await begin(l.env, "fp", { record: lostKey, graceMs: 0 });
  assert.equal(lost.state, "lost", "past the grace: look it up before booking");
  // Found nothing, refused: released here, and the old record is not taken over again.
  await bookingFinish({ env: l.env, record: lostKey, holder: lost.holder, outcome: "refused", body: null, ttlMs: 60000 });
  assert.equal((await begin(l.env, "fp", { record: lostKey })).state, "new");
  assert.equal(l.reads.n, 1);

  // A pending record (an old isolate's booking under way at the upgrade) has no live holder here: a lost answer.
  const pendKey = { binding: "BOOKINGS", key: "k-pending" };
  const p = legacyEnv(now + day, { [pendKey.key]: { state: "pending", fp: "fp", holder: "h-old", since: now - 1000, prev: 0, expires: now + day } });
  assert.equal((await begin(p.env, "fp", { record: pendKey, graceMs: 60000 })).state, "unknown");
  assert.equal((await bookingPeek({ env: p.env, record: pendKey })).state, "lost");
});

test("Bookings, earlier layout: concurrent identical bookings of a new reference while it is read from the old layout book once; the rest replay", async () => {
  // Issue 29: every request joined on the read of the old object found
  // nothing after it and took the record, each ending the previous
  // holder's turn: ten bookings, ten references.
  const { env, reads, forwards } = legacyEnv(Date.now() + day);
  const all = await Promise.all(Array.from({ length: 10 }, () => begin(env, "fp", { waitMs: 5000, holdMs: 60000, send: {} })));
  assert.equal(forwards.n, 1, "booked once");
  assert.equal(reads.n, 1, "one read of the old object");
  const sent = all.filter((a) => a.state === "sent");
  assert.equal(sent.length, 1, "one holder: " + all.map((a) => a.state).join(" "));
  assert.deepEqual(sent[0].sent, { result: '{"status":"ok","data":{"shipping_dlvr_ref":"D1"}}', holding: true }, "its outcome recorded");
  for (const a of all) if (a !== sent[0]) assert.deepEqual([a.state, a.body], ["done", '{"status":"ok","data":{"shipping_dlvr_ref":"D1"}}']);

  // The same where the caller forwards (begin without send): one "new", the rest wait for its outcome.
  const w = legacyEnv(Date.now() + day);
  const r2 = { binding: "BOOKINGS", key: "u\nbase\nnew-shipment\nORDER-9" };
  /** @type {any[]} */
  const settled = [];
  const pending = Array.from({ length: 10 }, () => begin(w.env, "fp", { record: r2, waitMs: 5000, holdMs: 60000 }).then((a) => { settled.push(a); return a; }));
  while (settled.length === 0) await new Promise((r) => setTimeout(r, 1));
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(settled.map((a) => a.state), ["new"], "one holder; the others wait for it");
  assert.deepEqual(await bookingFinish({ env: w.env, record: r2, holder: settled[0].holder, outcome: "ok", body: "B", ttlMs: 60000 }), { ok: true, holding: true },
    "the holder still holds its turn");
  const rest = (await Promise.all(pending)).filter((a) => a !== settled[0]);
  assert.deepEqual(rest.map((a) => a.state + " " + a.body), Array(9).fill("done B"));
});

test("Bookings: a key another request holds is never taken: its duplicates wait, its record stays, its holder keeps its turn", async () => {
  const obj = new Bookings({ storage: new MemoryStorage() }, {});
  const q = { key: "k", fp: "fp", waitMs: 100, holdMs: 60000, graceMs: 0, ttlMs: 60000 };
  const a = await obj.begin(q);
  assert.equal(a.state, "new");
  // The record gone under a live holder (here: deleted behind its back): still its turn.
  obj.state.storage.map.delete(recordKey("k"));
  assert.equal((await obj.begin({ ...q, waitMs: 10 })).state, "busy", "held: wait, never a second holder");
  assert.equal((await obj.begin({ ...q, fp: "other", waitMs: 10 })).state, "busy");
  assert.equal(obj.live.get("k").holder, a.holder);
  obj.state.storage.map.set(recordKey("k"), { state: "pending", fp: "fp", holder: a.holder, since: 1, prev: 0, expires: Date.now() + 60000 });
  assert.equal(await obj.finish({ key: "k", holder: a.holder, outcome: "ok", body: "{}", ttlMs: 60000 }), true, "the holder keeps its turn");
  assert.equal((await obj.begin(q)).state, "done");
});

test("Bookings, earlier layout: not read outside the window, expired records and absent ones; a failed read books nothing", async () => {
  const now = Date.now();
  const seeds = { [record.key]: { state: "done", fp: "fp1", body: "{}", expires: now + day } };
  const closed = legacyEnv(now - 1, seeds);
  assert.equal((await begin(closed.env, "fp1")).state, "new", "window over: the old record is not read");
  assert.equal(closed.reads.n, 0);
  const never = legacyEnv(0, seeds);
  assert.equal((await begin(never.env, "fp1")).state, "new", "the default: never");
  assert.equal(never.reads.n, 0);
  const expired = legacyEnv(now + day, { [record.key]: { state: "done", fp: "fp1", body: "{}", expires: now - 1 } });
  assert.equal((await begin(expired.env, "fp1")).state, "new");
  const none = legacyEnv(now + day);
  const n = await begin(none.env, "fp1");
  assert.equal(n.state, "new");
  const map = none.ns.objects.get(bookingObjectName(record.key)).state.storage.map;
  assert.equal(map.get(takenOverKey(record.key)), undefined, "nothing found, nothing marked");
  assert.equal((await begin(none.env, "fp1", { waitMs: 10 })).state, "busy", "and the new record holds as always");
  assert.equal(none.reads.n, 1, "a record here: the old object is not asked again");

  // The old object cannot be reached: the call fails and nothing is written (the client resends).
  const down = legacyEnv(now + day, seeds);
  const make = down.ns.objects;
  const shardName = bookingObjectName(record.key);
  down.ns.get(shardName);
  make.set(record.key, { legacyRecord: async () => { throw new Error("object overloaded"); } });
  const f = await begin(down.env, "fp1");
  assert.deepEqual([f.ok, f.failure, f.detail], [false, "unreachable", "object overloaded"]);
  assert.equal(make.get(shardName).state.storage.map.size, 0);
});

test("Bookings calls without the binding, or when the object fails", async () => {
  const a = await begin({}, "f");
  assert.deepEqual([a.ok, a.failure], [false, "unbound"]);
  const broken = { BOOKINGS: namespace(() => ({ begin: async () => { throw new Error("overloaded"); }, peek: async () => { throw new Error("x"); } })) };
  const b = await begin(broken, "f");
  assert.deepEqual([b.ok, b.failure, b.detail], [false, "unreachable", "overloaded"]);
  assert.deepEqual(await bookingPeek({ env: broken, record }), { state: "" });
  assert.equal(bookingsBound({ env: broken, binding: "BOOKINGS" }), true);
  assert.equal(bookingsBound({ env: {}, binding: "BOOKINGS" }), false);
});

test("watchlist calls: JSON in and out, failures as values", async () => {
  const calls = [];
  const fake = {
    add: (...a) => { calls.push(["add", ...a]); return ""; },
    lease: (...a) => { calls.push(["lease", ...a]); return '[{"ref":"D1","client_ref":"O1","added":1,"next_at":1,"pending":0,"state":""}]'; },
    commit: ({ text }) => { calls.push(["commit", JSON.parse(text)]); return ""; },
    stats: () => '{"watched":1,"pending":0,"delivered":2,"dropped":0,"last_run":null}',
  };
  const env = { WATCHLIST: namespace(() => fake) };
  const list = { binding: "WATCHLIST", name: "watch\nu\nbase" };
  assert.deepEqual(await watchAdd({ env, list, ref: "D1", clientRef: "O1", at: 5 }), { ok: true, value: "" });
  const l = await watchLease({ env, list, now: 10, n: 3, holdMs: 600000 });
  assert.equal(l.value[0].ref, "D1");
  await watchCommit({ env, list, commit: { delivered: 1, dropped: 0, run: { at: "x" } } });
  assert.equal((await watchStats({ env, list })).value.delivered, 2);
  assert.deepEqual(calls.map((c) => c[0]), ["add", "lease", "commit"]);
  assert.deepEqual(calls[1], ["lease", { now: 10, n: 3, holdMs: 600000 }]);
  const none = await watchStats({ env: {}, list });
  assert.deepEqual([none.ok, none.failure], [false, "unbound"]);
  const broken = { WATCHLIST: namespace(() => ({ stats: () => { throw new Error("gone"); } })) };
  const b = await watchStats({ env: broken, list });
  assert.deepEqual([b.ok, b.failure], [false, "unreachable"]);
  assert.equal(watchlistBound({ env, binding: "WATCHLIST" }), true);
});

/**
 * The shared vectors (testdata/bookings.json, which internal/booking runs
 * in Go) against the object itself: its clock and holder tokens are the
 * steps', its decisions the real core's, recorded through a spy.
 */
test("Bookings: the shared vectors (testdata/bookings.json) through the object and the real core", async () => {
  const file = JSON.parse(fs.readFileSync(new URL("../../../testdata/bookings.json", import.meta.url), "utf8"));
  const d = file.defaults;
  assert.ok(file.vectors.length >= 10);
  for (const v of file.vectors) {
    const clock = { now: 0, token: "" };
    /** @type {string[]} */
    let decisions = [];
    const spy = (/** @type {string} */ name, /** @type {string} */ call, /** @type {(a: any) => string} */ verdict) => (/** @type {any} */ input) => {
      const a = ledgerCore[name](input);
      decisions.push(call + ":" + verdict(a));
      return a;
    };
    const core = {
      ledgerBegin: spy("ledgerBegin", "begin", (a) => a.verdict),
      ledgerSending: spy("ledgerSending", "sending", (a) => a.verdict),
      ledgerFinish: spy("ledgerFinish", "finish", (a) => a.verdict),
      ledgerPeek: spy("ledgerPeek", "peek", (a) => a.state),
      ledgerTakeOver: spy("ledgerTakeOver", "takeOver", (a) => a.verdict),
      ledgerSweep: ledgerCore.ledgerSweep,
    };
    const key = "u\nbase\nnew-shipment\nVECTOR";
    const B = bookingsClass({ core, legacyUntilMs: v.legacyUntil ?? 0, now: () => clock.now, newHolder: () => clock.token });
    const env = {};
    const ns = namespace((name) => {
      const storage = new MemoryStorage();
      if (name === key && v.earlier) storage.map.set(LEGACY_KEY, v.earlier);
      return new B({ storage }, env);
    });
    Object.assign(env, { BOOKINGS: ns });
    let obj = ns.get(bookingObjectName(key));
    for (const [i, s] of v.steps.entries()) {
      const at = v.name + ", step " + i + " (" + s.call + ")";
      decisions = [];
      clock.now = s.now;
      clock.token = s.token ?? "";
      let got;
      if (s.call === "restart") {
        obj = new B(obj.state, env);
        ns.objects.set(bookingObjectName(key), obj);
        continue;
      } else if (s.call === "begin") {
        got = await obj.begin({ key, fp: s.fp, waitMs: s.waitMs ?? d.waitMs, holdMs: s.holdMs ?? d.holdMs, graceMs: s.graceMs ?? d.graceMs, ttlMs: s.ttlMs ?? d.ttlMs });
      } else if (s.call === "finish") {
        got = await obj.finish({ key, holder: s.holder, outcome: s.outcome, body: s.body, ttlMs: s.ttlMs ?? d.ttlMs });
      } else if (s.call === "sending") {
        got = await obj.sending({ key, holder: s.holder });
      } else if (s.call === "peek") {
        got = await obj.peek({ key });
      } else assert.fail(at + ": unknown call");
      assert.deepEqual(decisions, s.decisions, at + ": decisions");
      assert.deepEqual(JSON.parse(JSON.stringify(got)), s.answer, at + ": answer");
      assert.deepEqual(obj.state.storage.map.get(recordKey(key)) ?? null, s.stored, at + ": stored");
      if ("marked" in s) assert.deepEqual(obj.state.storage.map.get(takenOverKey(key)) ?? null, s.marked === null ? null : { expires: s.marked }, at + ": mark");
    }
  }
});

test("errorDetail keeps n characters (code points), never half of one", () => {
  const a99 = "a".repeat(99);
  assert.equal(errorDetail(new Error(a99 + "😀x"), 100), a99 + "😀");
  assert.equal(errorDetail("😀".repeat(100) + "x", 100), "😀".repeat(100));
  assert.equal(errorDetail("ñ".repeat(5), 100), "ñ".repeat(5));
});
