// parcelgate edge worker: the entry module workerd runs (build/worker/worker.mjs).
//
// One Go instance per isolate serves every request, many at once; it is
// replaced when it has served INSTANCE_MAX_REQUESTS requests or its linear
// memory passes INSTANCE_MAX_MEMORY_MB (new requests go to a fresh
// instance while the old one finishes its own), and at once when it traps
// or exits. The Go side is worker/bridge: its package comment describes
// the calls between the two. What happens here and not in Go:
//
// - Request bodies are read here, bounded: a Content-Length over
//   MAX_BODY_BYTES is never read at all; a chunked body is kept to one byte
//   past the bound and the rest is read and dropped up to DRAIN_BYTES, then
//   the stream is cancelled. Go answers 413 from what it gets. Draining
//   is deliberate: a body abandoned half-read (cancelled or not) stalled
//   the next request on the connection for ~10 s under wrangler/workerd,
//   a drained one does not (worker/e2e tests it).
// - Upstream calls and the Cache API are made here for Go (fetch with an
//   AbortSignal for the deadline, a bounded read of the answer).
// - When an instance dies, the reads it had in flight are replayed once on
//   a fresh instance (they are idempotent); bookings are not (they may
//   have reached the upstream) and get a 502 envelope saying so.
// - Each request's handler runs a mailbox loop, and whatever Go asks for
//   on behalf of that request (its response, upstream fetches, Cache API
//   and Durable Object calls) is carried out in that loop: workerd binds every I/O
//   object to the request whose context created it, and Go runs every
//   ready goroutine whenever any request wakes it.
//
// - The Cron Trigger's scheduled() runs the tracking webhooks' watcher on
//   the same instance, with a mailbox of its own (worker/watch); without
//   WEBHOOK_URL it returns at once and no instance is started for it.
//
// Timers inside workerd do not advance during computation, so nothing
// here measures time; `make bench` measures from outside.

import { DurableObject } from "cloudflare:workers";
import "./wasm_exec.js";
import mod from "./app.wasm";

let current = null; // the instance new requests go to
let made = 0; // instances made in this isolate
let seqNext = 0;
let limits = null; // from the first instance: the environment is fixed

// DRAIN_BYTES bounds what is read of a body already known to be too large:
// Cloudflare refuses bodies over 100 MB (Free and Pro plans) before they
// reach a worker, so every body that can arrive is drained, not cancelled.
const DRAIN_BYTES = 100 * 1000 * 1000;

// SCHEDULED_DEADLINE_MS bounds one watcher run: Go stops starting work
// after 4 minutes and commits; Cron Triggers may run for 15.
const SCHEDULED_DEADLINE_MS = 5 * 60 * 1000;

export default {
  async fetch(request, env, ctx) {
    try {
      pick(env);
    } catch (e) {
      log({ msg: "instance failed to start", reason: String(e) });
      return failure(request, 500, "internal", "the edge worker could not start (see the worker's log)");
    }
    let body = null;
    if (request.body !== null) {
      const cl = request.headers.get("content-length");
      // Over the bound by its declared length: never read (Go answers 413).
      if (cl === null || !(Number(cl) > limits.maxBodyBytes)) {
        body = await readBounded(request.body, limits.maxBodyBytes + 1, DRAIN_BYTES);
      }
    }
    let head = "";
    for (const [k, v] of request.headers) head += k + ":" + v + "\n";
    const r = {
      seq: ++seqNext, method: request.method, url: request.url, head, body, env, ctx,
      booking: isBooking(limits, new URL(request.url).pathname), replayed: false, t0: Date.now(),
      box: [], wake: null,
    };
    serveOn(r);
    // The mailbox loop: everything Go asks for this request runs here, in
    // this request's context (workerd binds I/O objects to the request
    // that created them).
    const deadline = setTimeout(() => post(r, { kind: "fail", status: 504, cls: "edge_timeout",
      message: "the edge worker did not answer in time" }), limits.deadlineMs);
    try {
      for (;;) {
        while (r.box.length === 0) await new Promise((wake) => { r.wake = wake; });
        const m = r.box.shift();
        if (m.kind === "respond") return response(m.status, m.head, m.body);
        if (m.kind === "fail") return failure(request, m.status, m.cls, m.message, m.retryable, r.t0);
        run(m, r);
      }
    } finally {
      clearTimeout(deadline);
      if (r.inst !== undefined) r.inst.reqs.delete(r.seq);
    }
  },

  // One run of the tracking webhooks' watcher (wrangler.toml [triggers]).
  // Go logs the run's line; a failed run is thrown so that the platform
  // counts it as failed.
  async scheduled(controller, env, ctx) {
    // Unset: no watching and no cost, not even an instance.
    if (!env.WEBHOOK_URL) return;
    const inst = pick(env); // a failure to start is thrown: the run failed
    const r = {
      seq: ++seqNext, method: "SCHEDULED", url: "scheduled:", env, ctx,
      booking: true, replayed: true, t0: Date.now(), box: [], wake: null, inst,
    };
    inst.reqs.set(r.seq, r);
    const deadline = setTimeout(() => post(r, { kind: "fail", status: 504, cls: "edge_timeout",
      message: "the scheduled run did not finish in time" }), SCHEDULED_DEADLINE_MS);
    try {
      try {
        inst.binding.scheduled(r.seq, controller.scheduledTime);
      } catch (e) {
        kill(inst, e);
      }
      for (;;) {
        while (r.box.length === 0) await new Promise((wake) => { r.wake = wake; });
        const m = r.box.shift();
        if (m.kind === "respond") {
          if (m.status !== 200) throw new Error("webhooks run failed (see the log line before)");
          return;
        }
        if (m.kind === "fail") {
          log({ msg: "webhooks run failed", error: m.cls });
          throw new Error("webhooks run failed: " + m.cls);
        }
        run(m, r);
      }
    } finally {
      clearTimeout(deadline);
      inst.reqs.delete(r.seq);
    }
  },
};

// post puts a message in a request's mailbox and wakes its loop.
function post(r, m) {
  r.box.push(m);
  const wake = r.wake;
  if (wake !== null) {
    r.wake = null;
    wake();
  }
}

// pick returns the instance for a new request, replacing the current one
// when it is dead or past a bound.
function pick(env) {
  const inst = current;
  if (inst !== null && !inst.dead) {
    if (inst.served < limits.maxRequests && inst.memory.buffer.byteLength <= limits.maxMemoryBytes) return inst;
    inst.retired = true;
    log({ msg: "instance recycled", instance: inst.id, requests: inst.served,
      memory_bytes: inst.memory.buffer.byteLength, in_flight: inst.reqs.size });
  }
  current = start(env);
  return current;
}

// start instantiates the Go module (compiled once per isolate by workerd)
// and runs it until it waits for requests.
function start(env) {
  const inst = { id: ++made, served: 0, reqs: new Map(), dead: false, retired: false, memory: null, binding: null, env };
  const binding = {
    respond: (seq, status, head, body) => {
      const r = inst.reqs.get(seq);
      if (r === undefined) return;
      inst.reqs.delete(seq);
      post(r, { kind: "respond", status, head, body });
    },
    call: (seq, id, kind, a, b, c, d, e, f, g, h) => {
      const m = { inst, id, kind, a, b, c, d, e, f, g, h };
      const r = inst.reqs.get(seq);
      if (r === undefined) run(m, null); // no live request: best effort, here
      else post(r, m);
    },
  };
  inst.binding = binding;
  const go = new Go();
  let ready = false;
  const wasm = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: { ready: () => { ready = true; } },
  });
  inst.memory = wasm.exports.mem;
  // Go's ExecutionContext is per request here, so the instance gets none.
  go.run(wasm, { env, ctx: undefined, binding }).then(
    () => kill(inst, "the Go instance exited"),
    (e) => kill(inst, e),
  );
  if (!ready || typeof binding.serve !== "function") throw new Error("the Go instance did not become ready");
  if (limits === null) {
    const c = binding.config;
    limits = {
      maxBodyBytes: c.maxBodyBytes,
      maxRequests: c.maxRequests,
      maxMemoryBytes: c.maxMemoryBytes,
      deadlineMs: c.deadlineMs,
      bookings: new Set(c.bookingPaths.split("\n")),
    };
  }
  return inst;
}

// serveOn hands a request to the current instance.
function serveOn(r) {
  let inst;
  try {
    inst = pick(r.env);
  } catch (e) {
    log({ msg: "instance failed to start", reason: String(e) });
    post(r, { kind: "fail", status: 500, cls: "internal", message: "the edge worker could not start (see the worker's log)" });
    return;
  }
  r.inst = inst;
  inst.served++;
  inst.reqs.set(r.seq, r);
  const info = inst.id + " " + inst.served + " " + inst.memory.buffer.byteLength;
  try {
    inst.binding.serve(r.seq, r.method + "\n" + r.url + "\n" + info + "\n" + r.head, r.body);
  } catch (e) {
    kill(inst, e);
  }
}

// response builds the client's response from what Go wrote.
function response(status, head, body) {
  const headers = new Headers();
  let i = 0;
  while (i < head.length) {
    let j = head.indexOf("\n", i);
    if (j < 0) j = head.length;
    const c = head.indexOf(":", i);
    if (c > i && c < j) headers.append(head.slice(i, c), head.slice(c + 1, j));
    i = j + 1;
  }
  const empty = status === 204 || status === 205 || status === 304 || body === null;
  return new Response(empty ? null : body, { status, headers });
}

// isBooking decides whether a request may be replayed after its instance
// failed: never a booking path Go names (bridge BookingPaths), and never a
// percent-encoded path either. Go decodes "/v1/new%2Dshipment" to a booking
// where this pathname keeps the escape; Go refuses such a path (400
// encoded_path) before reading it, and this keeps it from ever being
// replayed should that change.
function isBooking(limits, pathname) {
  return limits.bookings.has(pathname) || pathname.includes("%");
}

// kill ends an instance that trapped or exited: its reads in flight are
// replayed once on a fresh instance, everything else gets a failure.
function kill(inst, reason) {
  if (inst.dead) return;
  inst.dead = true;
  if (current === inst) current = null;
  log({ msg: "instance failed", instance: inst.id, requests: inst.served, in_flight: inst.reqs.size,
    reason: String(reason && reason.stack ? reason.message : reason) });
  const pending = [...inst.reqs.values()];
  inst.reqs.clear();
  for (const r of pending) {
    // The fault-injection paths are never replayed: a replayed crash would
    // crash the next instance too.
    const replayable = !r.booking && !r.url.includes("/__faults/");
    if (replayable && !r.replayed) {
      r.replayed = true;
      serveOn(r);
    } else if (!r.booking) {
      post(r, { kind: "fail", status: 500, cls: "internal", message: "internal error in the edge worker" });
    } else {
      post(r, { kind: "fail", status: 502, cls: "instance_failed", retryable: false,
        message: "the edge worker failed while this booking was in flight; it may have been booked: look it up before booking again" });
    }
  }
}

// deliver gives Go the answer to a call unless the instance is gone.
function deliver(inst, id, status, head, body, why) {
  if (inst.dead || id === 0) return;
  try {
    inst.binding.deliver(id, status, head, body, why);
  } catch (e) {
    kill(inst, e);
  }
}

// run carries out a call from Go, in the context of request r (null: none).
function run(m, r) {
  switch (m.kind) {
    case "fetch": return upstreamFetch(m.inst, m.id, m.a, m.b, m.c, m.d, m.e, m.f, m.g, m.h);
    case "cacheGet": return cacheGet(m.inst, m.id, m.a);
    case "cachePut": return cachePut(m.a, m.b, m.c, r);
    case "rateLimit": return (async () => {
      const rl = m.inst.env[m.a];
      if (rl === undefined) return deliver(m.inst, m.id, 0, "", null, "unbound");
      try {
        const { success } = await rl.limit({ key: m.b });
        deliver(m.inst, m.id, success ? 200 : 429, "", null, "");
      } catch (e) {
        deliver(m.inst, m.id, 0, "", null, String(e && e.message));
      }
    })();
    case "bookBegin": return bookCall(m, async (stub) => {
      const r = await stub.begin(m.c, m.d, m.e, m.f, m.g);
      return [200, r.state + "\n" + (r.holder ?? "") + "\n" + (r.retryAfterMs ?? 0), r.body ?? null];
    });
    case "bookSending": return bookCall(m, async (stub) => {
      if (!(await stub.sending(m.c))) return NOT_HOLDER;
      return [200, "", null];
    });
    case "bookPeek": return bookCall(m, async (stub) => {
      const r = await stub.peek();
      return [200, r.state, r.body ?? null];
    });
    case "bookFinish": return bookCall(m, async (stub) => {
      // false: the caller no longer holds the record; Go logs it loudly.
      if (!(await stub.finish(m.c, m.d, m.e, m.f))) return NOT_HOLDER;
      return [200, "", null];
    });
    case "watchAdd": {
      // Not awaited by Go (a booking's answer does not wait for it): the
      // request keeps running it, and a failure is logged here.
      const p = watchCall(m, (stub) => stub.add(m.c, m.d, m.e));
      if (r !== null) r.ctx.waitUntil(p);
      return p;
    }
    case "watchLease": return watchCall(m, (stub) => stub.lease(m.c, m.d, m.e));
    case "watchCommit": return watchCall(m, (stub) => stub.commit(m.c));
    case "watchStats": return watchCall(m, (stub) => stub.stats());
    default: return deliver(m.inst, m.id, 0, "", null, "unknown call " + m.kind);
  }
}

// NOT_HOLDER is a Bookings call's answer when the caller no longer holds
// the record (worker/bridge maps it to edge.ErrNotHolder).
const NOT_HOLDER = [0, "", null, "not the holder"];

// bookCall runs op on the Bookings object of a booking key.
async function bookCall(m, op) {
  const ns = m.inst.env[m.a];
  if (ns === undefined) return deliver(m.inst, m.id, 0, "", null, "unbound");
  try {
    const [status, head, body, why] = await op(ns.get(ns.idFromName(m.b)));
    deliver(m.inst, m.id, status, head, body, why ?? "");
  } catch (e) {
    deliver(m.inst, m.id, 0, "", null, String(e && e.message));
  }
}

// watchCall runs op on the Watchlist object named m.b; its answer is text.
async function watchCall(m, op) {
  const ns = m.inst.env[m.a];
  if (ns === undefined) {
    if (m.id === 0) log({ msg: "watchlist call failed", call: m.kind, error: "binding " + m.a + " is not configured" });
    return deliver(m.inst, m.id, 0, "", null, "unbound");
  }
  try {
    const text = await op(ns.get(ns.idFromName(m.b)));
    deliver(m.inst, m.id, 200, text ?? "", null, "");
  } catch (e) {
    if (m.id === 0) log({ msg: "watchlist call failed", call: m.kind, error: String(e && e.message) });
    deliver(m.inst, m.id, 0, "", null, String(e && e.message));
  }
}

// upstreamFetch makes an outbound call for Go: maxBytes bounds the answer
// read (-1: not read at all, for webhook deliveries), label names the
// call in the log, service (when set) is the service binding it goes
// through instead of the global fetch (SANDBOX: the sandbox worker).
async function upstreamFetch(inst, id, url, method, head, body, timeoutMs, maxBytes, label, service) {
  const target = service ? inst.env[service] : globalThis;
  if (target === undefined || typeof target.fetch !== "function") {
    log({ msg: (label || "upstream") + " fetch failed", error: "service binding " + service + " is not configured" });
    return deliver(inst, id, 0, "", null, "unbound");
  }
  const headers = new Headers();
  for (const line of head.split("\n")) {
    const c = line.indexOf(":");
    if (c > 0) headers.append(line.slice(0, c), line.slice(c + 1));
  }
  let res;
  try {
    res = await target.fetch(url, { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    if (maxBytes < 0) {
      if (res.body !== null) res.body.cancel().catch(() => {});
      return deliver(inst, id, res.status, "", new Uint8Array(0), "");
    }
    const got = (await readBounded(res.body, maxBytes + 1, 0)) ?? new Uint8Array(0);
    if (got.byteLength > maxBytes) return deliver(inst, id, 0, "", null, "too large");
    deliver(inst, id, res.status, "", got, "");
  } catch (e) {
    const timeout = e && (e.name === "TimeoutError" || e.name === "AbortError");
    // The platform's message may name the upstream: the log keeps it for
    // upstream calls, the client never sees it. Other calls (webhook
    // deliveries) log only what kind of failure it was.
    const o = { msg: (label || "upstream") + " fetch failed", status: res ? res.status : 0 };
    if (label === "upstream" || !label) o.error = String(e && e.message);
    else o.error = timeout ? "timeout" : "network";
    log(o);
    deliver(inst, id, 0, "", null, timeout ? "timeout" : "network");
  }
}

const cacheBase = "https://cache.parcelgate.invalid/v1/";

async function cacheGet(inst, id, key) {
  try {
    const res = typeof caches === "undefined" ? undefined : await caches.default.match(cacheBase + key);
    if (res === undefined) return deliver(inst, id, 404, "", null, "");
    const expires = res.headers.get("x-parcelgate-expires") ?? "0";
    deliver(inst, id, 200, expires, new Uint8Array(await res.arrayBuffer()), "");
  } catch (e) {
    deliver(inst, id, 0, "", null, "cache");
  }
}

function cachePut(key, body, ttl, r) {
  if (typeof caches === "undefined") return;
  const res = new Response(body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "max-age=" + ttl,
      "x-parcelgate-expires": String(Date.now() + ttl * 1000),
    },
  });
  const done = caches.default.put(cacheBase + key, res).catch(() => {});
  if (r !== null) r.ctx.waitUntil(done);
}

// readBounded reads a stream, keeping at most limit bytes; past that it
// reads and drops up to drain bytes more, then cancels the stream.
async function readBounded(stream, limit, drain) {
  if (stream === null) return null;
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total < limit) chunks.push(value);
    total += value.byteLength;
    if (total >= limit + drain) {
      reader.cancel().catch(() => {});
      break;
    }
  }
  if (chunks.length === 1 && total <= limit) return chunks[0];
  const out = new Uint8Array(Math.min(total, limit));
  let off = 0;
  for (const c of chunks) {
    const n = Math.min(c.byteLength, out.length - off);
    out.set(c.subarray(0, n), off);
    off += n;
    if (off === out.length) break;
  }
  return out;
}

// failure is an edge envelope made here, when Go cannot answer.
function failure(request, status, errorClass, message, retryable, t0) {
  const data = { errorCode: 1000 + status, errorMessage: message, source: "edge", errorClass };
  if (retryable !== undefined) data.retryable = retryable;
  const id = request.headers.get("x-request-id");
  data.requestId = id !== null && /^[A-Za-z0-9._-]{1,64}$/.test(id) ? id : crypto.randomUUID().replaceAll("-", "");
  return new Response(JSON.stringify({ status: "err", data }), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-request-id": data.requestId,
      // Clocks advance only across I/O in workerd: this is the wall time.
      "server-timing": "edge;dur=" + (t0 === undefined ? 0 : Date.now() - t0),
    },
  });
}

function log(o) {
  console.log(JSON.stringify({ ts: new Date().toISOString(), ...o }));
}

// Bookings is the Durable Object behind exactly-once bookings: one object
// per (API user, upstream, operation, client reference), single-threaded,
// so every request for a reference meets the same record. The rules are
// internal/booking's (Decide, Taken, Sending, Settle), written again here;
// worker/edge/bookings.go has the edge's side and MemoryLedger the same
// rules in Go. The protocol, for anyone porting it:
//
// Storage: one key "rec", absent or
//   { state: "pending", fp, holder, since, prev, expires }  a holder's turn
//   { state: "done", fp, body, expires }                     booked: the answer
//   { state: "lost", fp, since, expires }                    the answer was lost
// fp is the fingerprint of the normalized body; since (ms) when the booking
// was sent upstream; prev, for a turn taken to look a lost booking up, that
// record's since; expires (ms) when the record is forgotten (an alarm).
// Memory: this.live, the holder this incarnation saw take the pending
// record, until its hold ends. A pending record without it (the object
// restarted, or the holder passed its hold) is a lost answer.
//
// begin(fp, waitMs, holdMs, graceMs, ttlMs) -> { state, holder?, body?, retryAfterMs? }
//   none or expired -> write pending, then "new" with the holder token
//   other fp        -> "conflict"
//   done            -> "done" with body
//   pending, live   -> wait for its outcome (up to waitMs), then "busy"
//   lost, or pending not live:
//     now < since + graceMs -> "unknown", retryAfterMs = the rest
//     else                  -> write pending (prev = since), then "lost" with
//                              the holder token: look up before booking
// sending(holder) -> true, and since = now, prev = 0 (about to book after a
//   lookup found nothing); false when holder does not hold the pending record
// finish(holder, outcome, body, ttlMs) -> false when holder does not hold the
//   pending record (nothing is written; the caller logs it), else true and
//   "ok" -> done; "lost" -> lost (since kept); "unsent" -> lost with since =
//   prev, or deleted when prev is 0; "release" -> deleted
// peek() -> { state: "done", body } | { state: "lost" } (lost, or pending
//   not live) | { state: "" }
export class Bookings extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.live = null; // { holder, done, release, until }
  }

  async begin(fp, waitMs, holdMs, graceMs, ttlMs) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const now = Date.now();
      // A holder past its hold vanished (its instance died): unknown outcome.
      if (this.live !== null && now > this.live.until) this.endTurn();
      const rec = await this.current(now);
      if (rec === undefined) return this.take(undefined, fp, holdMs, ttlMs, "new");
      if (rec.fp !== fp) return { state: "conflict" };
      if (rec.state === "done") return { state: "done", body: rec.body };
      const live = this.live;
      if (rec.state === "pending" && live !== null && live.holder === rec.holder) {
        if (now >= deadline) return { state: "busy" };
        const left = Math.min(deadline, live.until + 1) - now;
        await Promise.race([live.done, new Promise((r) => setTimeout(r, Math.max(left, 1)))]);
        continue;
      }
      const left = rec.since + graceMs - now;
      if (left > 0) return { state: "unknown", retryAfterMs: left };
      return this.take(rec, fp, holdMs, ttlMs, "lost");
    }
  }

  async sending(holder) {
    const rec = await this.current(Date.now());
    if (!holds(rec, holder)) return false;
    await this.ctx.storage.put("rec", { ...rec, since: Date.now(), prev: 0 });
    return true;
  }

  async finish(holder, outcome, body, ttlMs) {
    const rec = await this.current(Date.now());
    if (!holds(rec, holder)) return false;
    const expires = Date.now() + ttlMs;
    let next = null;
    if (outcome === "ok") next = { state: "done", fp: rec.fp, body, expires };
    else if (outcome === "lost") next = { state: "lost", fp: rec.fp, since: rec.since, expires };
    else if (outcome === "unsent" && rec.prev) next = { state: "lost", fp: rec.fp, since: rec.prev, expires };
    if (next === null) {
      await this.ctx.storage.delete("rec");
    } else {
      await this.ctx.storage.put("rec", next);
      await this.ctx.storage.setAlarm(expires);
    }
    if (this.live !== null && this.live.holder === holder) this.endTurn();
    return true;
  }

  // peek reads the record without taking it: the edge resolves a token's
  // shipping_client_ref to the shipment booked with it.
  async peek() {
    const rec = await this.current(Date.now());
    if (rec === undefined) return { state: "" };
    if (rec.state === "done") return { state: "done", body: rec.body };
    if (rec.state === "lost" || this.live === null || this.live.holder !== rec.holder) return { state: "lost" };
    return { state: "" };
  }

  // current reads the record, forgetting an expired one.
  async current(now) {
    const rec = await this.ctx.storage.get("rec");
    if (rec !== undefined && rec.expires <= now) {
      await this.ctx.storage.delete("rec");
      return undefined;
    }
    return rec;
  }

  // take writes the pending record of a new turn BEFORE the caller sends
  // anything: after a restart it says a booking may be under way.
  async take(rec, fp, holdMs, ttlMs, state) {
    const now = Date.now();
    const holder = crypto.randomUUID();
    const prev = rec !== undefined && (rec.state === "lost" || rec.state === "pending") ? rec.since : 0;
    if (this.live !== null) this.endTurn();
    let release;
    const done = new Promise((r) => { release = r; });
    this.live = { holder, done, release, until: now + holdMs };
    await this.ctx.storage.put("rec", { state: "pending", fp, holder, since: now, prev, expires: now + ttlMs });
    await this.ctx.storage.setAlarm(now + ttlMs);
    return { state, holder };
  }

  // endTurn wakes the requests waiting for the live holder.
  endTurn() {
    const h = this.live;
    this.live = null;
    h.release();
  }

  async alarm() {
    const rec = await this.ctx.storage.get("rec");
    if (rec !== undefined && rec.expires > Date.now()) await this.ctx.storage.setAlarm(rec.expires);
    else await this.ctx.storage.deleteAll();
  }
}

// holds reports whether holder holds the record (its pending turn).
function holds(rec, holder) {
  return rec !== undefined && rec.state === "pending" && typeof holder === "string" && holder !== "" && rec.holder === holder;
}

// Watchlist is the Durable Object that holds the shipments the tracking
// webhooks watch (worker/watch has the protocol): one object per (API
// user, upstream), a SQLite table with a row per shipment. The Go side
// owns each row's state (JSON text); this object only orders, leases and
// counts. Runs lease the due rows, oldest next_at first, and move their
// next_at past the lease, so an overlapping run never gets the same row.
export class Watchlist extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS watch (
      ref TEXT PRIMARY KEY, client_ref TEXT NOT NULL, added INTEGER NOT NULL,
      next_at INTEGER NOT NULL, pending INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT '')`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS watch_due ON watch (next_at, ref)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS totals (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
  }

  // add watches a shipment from at (due at once); nothing if watched.
  add(ref, clientRef, at) {
    this.sql.exec("INSERT OR IGNORE INTO watch (ref, client_ref, added, next_at) VALUES (?, ?, ?, ?)", ref, clientRef, at, at);
    return "";
  }

  // lease returns up to n due rows (JSON) and holds them for holdMs.
  lease(now, n, holdMs) {
    return this.ctx.storage.transactionSync(() => {
      const rows = this.sql.exec(
        "SELECT ref, client_ref, added, next_at, pending, state FROM watch WHERE next_at <= ? ORDER BY next_at, ref LIMIT ?",
        now, n).toArray();
      for (const r of rows) this.sql.exec("UPDATE watch SET next_at = ? WHERE ref = ?", now + holdMs, r.ref);
      return JSON.stringify(rows);
    });
  }

  // commit writes a chunk of a run's rows back, removes the finished ones,
  // adds the chunk's counts to the totals and keeps the run so far, in
  // one transaction (a run commits every few shipments).
  commit(text) {
    const c = JSON.parse(text);
    this.ctx.storage.transactionSync(() => {
      for (const r of c.save ?? []) {
        this.sql.exec("UPDATE watch SET next_at = ?, pending = ?, state = ? WHERE ref = ?", r.next_at, r.pending, r.state, r.ref);
      }
      for (const ref of c.remove ?? []) this.sql.exec("DELETE FROM watch WHERE ref = ?", ref);
      const t = this.totals();
      t.delivered += c.delivered;
      t.dropped += c.dropped;
      t.last_run = c.run;
      this.sql.exec("INSERT OR REPLACE INTO totals (k, v) VALUES ('totals', ?)", JSON.stringify(t));
    });
    return "";
  }

  // stats counts for /healthz (JSON).
  stats() {
    const w = this.sql.exec("SELECT COUNT(*) AS watched, COALESCE(SUM(pending), 0) AS pending FROM watch").one();
    const t = this.totals();
    return JSON.stringify({ watched: w.watched, pending: w.pending, delivered: t.delivered, dropped: t.dropped, last_run: t.last_run ?? null });
  }

  totals() {
    const rows = this.sql.exec("SELECT v FROM totals WHERE k = 'totals'").toArray();
    return rows.length > 0 ? JSON.parse(rows[0].v) : { delivered: 0, dropped: 0 };
  }
}
