// @ts-check
// Exactly-once bookings: the Bookings Durable Objects and the calls the
// worker makes on them. A booking's record is named by its booking key (API
// user, upstream, operation, client reference: the core's), and lives in
// one of BOOKING_SHARDS objects chosen by a hash of that key: objects are
// single-threaded, so every request for a reference meets the same record,
// and a few long-lived objects serve every booking (an object per
// reference cost a new object per booking: about 7 ms of workerd CPU and
// most of a booking's latency, worker/bench).
//
// Every decision is the core's: internal/booking's state machine through
// the seam's ledger* calls (ledgerBegin, ledgerSending, ledgerFinish,
// ledgerPeek, ledgerTakeOver, ledgerSweep), each given the record as stored,
// the key's live holder and the time. The object keeps what the core cannot:
// the storage, the live holders in memory, the waits, the alarm, the RPC to
// the earlier layout's objects and the forwarder. The shared vectors
// (testdata/bookings.json) run against the machine in Go and against this
// object with the real core module (platform.test.mjs).
//
// The object takes what it needs as arguments (bookingsObject(deps)): the
// isolate's core, the earlier layout's window and a forwarder; the entry
// module wires them (entry.mjs). Without a core no decision can be made:
// the call fails and the worker answers ledger_unavailable (nothing booked).
//
// Storage: one key per record, "rec\n" + booking key, absent or
//   { state: "pending", fp, holder, since, prev, expires }  a holder's turn
//   { state: "done", fp, body, expires }                     booked: the answer
//   { state: "lost", fp, since, expires }                    the answer was lost
// (as the core writes them: every member present, "" or 0 when unused).
// fp is the fingerprint of the normalized body; since (ms) when the booking
// was sent upstream; prev, for a turn taken to look a lost booking up, that
// record's since; expires (ms) when the record is forgotten.
// Memory: this.live, per booking key, the holder this incarnation saw take
// the pending record, until its hold ends. A pending record without it (the
// object restarted, or the holder passed its hold) is a lost answer.
//
// Each call takes one named request (stub.begin({key, fp, ...})):
// begin({key, fp, waitMs, holdMs, graceMs, ttlMs, send?}) -> { state, holder?, body?, retryAfterMs?, sent? }
//   new (record taken: forward, then finish) | lost (record taken: look up
//   first) | done (body) | conflict | busy (held past waitMs) | unknown
//   (retryAfterMs: a lost answer within its grace) | sent (below). The core
//   decides on the record as it is after every wait and after the read of
//   the earlier layout; a take is claimed in memory in the same turn as the
//   decision (nothing waits between them), so one holder per key, always
//   (issue 29): any live holder means wait.
// sending({key, holder}) -> true, and since = now, prev = 0 (about to book
//   after a lookup found nothing); false when holder does not hold the
//   pending record
// finish({key, holder, outcome, body, ttlMs}) -> false when holder does not
//   hold the pending record (nothing is written; the caller logs it), else
//   true: "ok" -> done; "lost" -> lost (since kept); "unsent" -> lost with
//   since = prev, or deleted when prev is 0; "release" or "refused" -> deleted
// peek({key}) -> { state: "done", body } | { state: "lost" } (lost, or pending
//   not live) | { state: "" }
//
// One round trip: a new booking costs the worker one call on its object
// when the object forwards it itself (begin with send and a forwarder):
// begin takes the record, the forwarder books once, finish records its
// outcome, and begin answers "sent" with the forwarder's result (sent:
// {result, holding}). Without a forwarder begin answers "new" and the
// caller forwards and finishes (two calls). Only a new record is forwarded
// here: a lost one goes through its lookup in the worker.
//
// The earlier layout: one object per booking key (named by the key, its
// record under "rec"), what the Go worker and the first JavaScript edge
// wrote. Until BOOKINGS_LEGACY_UNTIL (the deploy's day plus the records' 30
// days; 0 by default: never), a key with no record here has its object of
// the earlier layout read (legacyRecord) and a live record found there is
// kept, so a resend of a booking made before the upgrade is still
// recognized: done replays, pending or lost waits out the grace and looks
// the booking up, other data conflicts. One read per key: a record taken
// over is written with a mark ("old\n" + key) in one put, and the mark
// keeps the key from being read again once its record here is released or
// expires. Concurrent requests for a key share one read, and each decides
// after it. A new booking in that window costs one more call (on an object
// of its own, which the platform may have to start).
//
// Expiry: an object holds many records, so its alarm sweeps: it deletes
// every expired record (of any layout) and comes back at the earliest
// expiry left, at least SWEEP_MS later. A record is set an alarm only when
// the object has none (known once per incarnation): not a write per
// booking. A record past its expiry is forgotten when read, whatever the
// alarm did.

import { DurableObject } from "cloudflare:workers";
import { errorDetail, namespaceOf } from "./binding.mjs";

/** BOOKING_SHARDS is how many Bookings objects share the records. */
export const BOOKING_SHARDS = 16;

/** SWEEP_MS is the least time between two sweeps of an object's records. */
export const SWEEP_MS = 60 * 60 * 1000;

/**
 * bookingObjectName names the object that holds a booking key's record
 * (FNV-1a over the key's UTF-16 units, modulo BOOKING_SHARDS).
 * @param {string} key
 */
export function bookingObjectName(key) {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return "bookings " + (h % BOOKING_SHARDS);
}

/**
 * recordKey is the storage key of a booking key's record.
 * @param {string} key
 */
export function recordKey(key) {
  return "rec\n" + key;
}

/** LEGACY_KEY is the storage key of the record in an object of the earlier layout. */
export const LEGACY_KEY = "rec";

/**
 * takenOverKey is the storage key of the mark that a booking key's record
 * of the earlier layout was taken over.
 * @param {string} key
 */
export function takenOverKey(key) {
  return "old\n" + key;
}

/** BOOKINGS_BINDING is the binding of the Bookings namespace, where the earlier layout's objects are too. */
export const BOOKINGS_BINDING = "BOOKINGS";

/**
 * @typedef {"new" | "lost" | "done" | "conflict" | "busy" | "unknown"} BeginState
 * @typedef {{state: BeginState | "sent", holder?: string, body?: string | Uint8Array, retryAfterMs?: number, sent?: Sent}} BeginAnswer
 * @typedef {{finish: {outcome: "ok" | "refused" | "lost" | "unsent", body: string | null} | null, result: unknown}} Forwarded
 *   what a forwarder did: the ledger's outcome (null: nothing to record) and what the caller gets back
 * @typedef {{result: unknown, holding: boolean}} Sent
 * @typedef {"ok" | "lost" | "unsent" | "release" | "refused"} Outcome
 * @typedef {{key: string, fp: string, waitMs: number, holdMs: number, graceMs: number, ttlMs: number, send?: unknown}} BeginRequest
 *   begin's request: the booking key, the fingerprint, the bounds; send, what the forwarder needs to book (see the
 *   file's comment; absent: never forwarded here)
 * @typedef {{key: string, holder: string, outcome: Outcome, body: string | Uint8Array | null, ttlMs: number}} FinishRequest
 *   finish's request; body is the answer kept with "ok"
 * @typedef {{state: "pending" | "done" | "lost", fp: string, holder?: string, since?: number, prev?: number, expires: number,
 *   body?: string | Uint8Array}} BookingRecordValue a stored record (records of the earlier layout may lack members)
 * @typedef {{holder: string, done: Promise<void>, release: () => void, until: number}} Live
 * @typedef {Pick<import("../core.d.mts").EdgeCore, "ledgerBegin" | "ledgerSending" | "ledgerFinish" | "ledgerPeek" | "ledgerTakeOver" | "ledgerSweep">} LedgerCore
 *   the core's decisions a Bookings object asks for
 * @typedef {object} BookingsIsolate what a Bookings object needs of its isolate
 * @property {LedgerCore} core the decisions
 * @property {number} legacyUntilMs BOOKINGS_LEGACY_UNTIL (Unix ms, exclusive; 0: never)
 * @property {((send: unknown) => Promise<Forwarded | null>) | null} forward books a new record's booking
 *   (null, or answering null: the caller forwards)
 * @typedef {object} BookingsDeps
 * @property {(env: unknown) => Promise<BookingsIsolate>} isolate the object's isolate, made once (the entry's load)
 * @property {() => number} [now] the clock (Unix ms; Date.now)
 * @property {() => string} [newHolder] a new turn's token (crypto.randomUUID)
 */

/**
 * view is a stored record as the core reads it (without the stored answer).
 * @param {BookingRecordValue | null | undefined} r
 * @returns {import("../core.d.mts").LedgerRecord | null}
 */
function view(r) {
  if (r === undefined || r === null || typeof r !== "object") return null;
  return { state: r.state, fp: r.fp, holder: r.holder ?? "", since: r.since ?? 0, prev: r.prev ?? 0, expires: r.expires ?? 0 };
}

/**
 * bookingsObject makes the Bookings Durable Object class over its
 * dependencies (the entry module wires them; tests pass their own).
 * @param {BookingsDeps} deps
 */
export function bookingsObject({ isolate, now = Date.now, newHolder = () => crypto.randomUUID() }) {
  return class Bookings extends DurableObject {
    /**
     * @param {import("../types").DurableObjectStateLike} ctx
     * @param {import("../types").Env} env
     */
    constructor(ctx, env) {
      super(ctx, env);
      /** @type {import("../types").DurableObjectStateLike} */
      this.state = ctx;
      /** @type {Map<string, Live>} the live holder of each booking key */
      this.live = new Map();
      /** @type {number | null | undefined} the alarm's time as last read or set (undefined: not read yet) */
      this.alarmAt = undefined;
      /** @type {Map<string, Promise<void>>} the reads of the earlier layout under way, per booking key */
      this.takingOver = new Map();
      /** @type {BookingsIsolate | undefined} */
      this.made = undefined;
    }

    /**
     * isolate is what the object needs of its isolate, made once (a failure
     * is asked again next time).
     * @returns {Promise<BookingsIsolate>}
     */
    async isolate() {
      return (this.made ??= await isolate(this.env));
    }

    /**
     * liveOf is a key's live holder as the core reads it.
     * @param {string} key
     */
    liveOf(key) {
      const l = this.live.get(key);
      return l === undefined ? null : { holder: l.holder, until: l.until };
    }

    /**
     * legacyRecord is called on an object of the earlier layout: its record
     * as stored, or null. Read only: the caller decides and marks what it took.
     * @returns {Promise<BookingRecordValue | null>}
     */
    async legacyRecord() {
      /** @type {BookingRecordValue | undefined} */
      const rec = await this.state.storage.get(LEGACY_KEY);
      return rec === undefined || rec === null || typeof rec !== "object" ? null : rec;
    }

    /**
     * @param {BeginRequest} q
     * @returns {Promise<BeginAnswer>}
     */
    async begin({ key, fp, waitMs, holdMs, graceMs, ttlMs, send }) {
      const { core, legacyUntilMs, forward } = await this.isolate();
      const waitUntil = now() + waitMs;
      const holder = newHolder();
      let earlierRead = false;
      for (;;) {
        /** @type {BookingRecordValue | undefined} */
        const rec = await this.state.storage.get(recordKey(key));
        // Decided on the record as it is now, and (no await between them)
        // claimed in memory at once: one holder per key.
        const t = now();
        const a = core.ledgerBegin({ record: view(rec), live: this.liveOf(key), now: t, fp, holder, holdMs, graceMs, ttlMs, waitUntil,
          legacyUntil: legacyUntilMs, earlierRead });
        if (a.endLive) this.endTurn(key);
        const live = this.live.get(key);
        if (a.verdict === "take" || a.verdict === "lookup") {
          const taken = await this.take(key, /** @type {import("../core.d.mts").LedgerRecord} */ (a.record), a.liveUntil, a.verdict === "take" ? "new" : "lost");
          return send !== undefined && taken.state === "new" && forward !== null ? this.book(key, taken, send, ttlMs, forward) : taken;
        }
        if (a.forget) await this.state.storage.delete(recordKey(key));
        switch (a.verdict) {
          case "replay":
            return { state: "done", body: rec?.body };
          case "conflict":
          case "busy":
            return { state: a.verdict };
          case "unknown":
            return { state: "unknown", retryAfterMs: a.retryAfterMs };
          case "readEarlier":
            await this.takeOver(key, core);
            earlierRead = true;
            continue;
        }
        // wait: for the live holder's outcome, the end of its hold or of this wait; then decide again.
        if (a.verdict !== "wait" || live === undefined) throw new Error("bookings: the core answered no decision: " + JSON.stringify(a));
        await Promise.race([live.done, new Promise((r) => setTimeout(r, Math.max(Math.min(waitUntil, live.until + 1) - t, 1)))]);
      }
    }

    /**
     * book forwards a booking whose record this call just took (new), and
     * records its outcome before answering.
     * @param {string} key
     * @param {BeginAnswer} taken
     * @param {unknown} send
     * @param {number} ttlMs
     * @param {(send: unknown) => Promise<Forwarded | null>} forward
     * @returns {Promise<BeginAnswer>}
     */
    async book(key, taken, send, ttlMs, forward) {
      const holder = taken.holder ?? "";
      /** @type {Forwarded | null} */
      let f;
      try {
        f = await forward(send);
      } catch (e) {
        // It may have been sent: a lost answer (a resend looks it up).
        await this.finish({ key, holder, outcome: "lost", body: null, ttlMs });
        throw e;
      }
      if (f === null) return taken;
      const holding = f.finish === null ? true : await this.finish({ key, holder, outcome: f.finish.outcome, body: f.finish.body, ttlMs });
      return { state: "sent", holder, sent: { result: f.result, holding } };
    }

    /**
     * sending: the holder is about to book after a lookup found nothing.
     * @param {{key: string, holder: string}} q
     */
    async sending({ key, holder }) {
      const { core } = await this.isolate();
      /** @type {BookingRecordValue | undefined} */
      const rec = await this.state.storage.get(recordKey(key));
      return this.write(key, core.ledgerSending({ record: view(rec), live: this.liveOf(key), now: now(), holder }), null);
    }

    /**
     * finish records the holder's outcome; false when it no longer holds the record.
     * @param {FinishRequest} q
     */
    async finish({ key, holder, outcome, body, ttlMs }) {
      const { core } = await this.isolate();
      /** @type {BookingRecordValue | undefined} */
      const rec = await this.state.storage.get(recordKey(key));
      return this.write(key, core.ledgerFinish({ record: view(rec), live: this.liveOf(key), now: now(), holder, outcome, ttlMs }), body);
    }

    /**
     * write applies the core's ledgerSending or ledgerFinish answer.
     * @param {string} key
     * @param {import("../core.d.mts").LedgerWritten} a
     * @param {string | Uint8Array | null} body
     */
    async write(key, a, body) {
      if (a.verdict === "refuse") {
        if (a.forget) await this.state.storage.delete(recordKey(key));
        return false;
      }
      // The alarm the take made sure of comes first; its sweep finds these
      // expires (a little later than the taken record's) and comes back.
      if (a.verdict === "delete" || a.record === null) await this.state.storage.delete(recordKey(key));
      else await this.state.storage.put(recordKey(key), a.keepBody ? { ...a.record, body: body ?? "" } : a.record);
      if (a.endLive) this.endTurn(key);
      return true;
    }

    /**
     * peek reads the record without taking it: the edge resolves a token's
     * shipping_client_ref to the shipment booked with it.
     * @param {{key: string}} q
     * @returns {Promise<{state: "" | "done" | "lost", body?: string | Uint8Array}>}
     */
    async peek({ key }) {
      const { core } = await this.isolate();
      /** @type {BookingRecordValue | undefined} */
      const rec = await this.state.storage.get(recordKey(key));
      const p = core.ledgerPeek({ record: view(rec), live: this.liveOf(key), now: now() });
      if (p.forget) await this.state.storage.delete(recordKey(key));
      return p.state === "done" ? { state: "done", body: rec?.body } : { state: p.state };
    }

    /**
     * takeOver reads the key's record of the earlier layout as the core
     * says (see the file's comment), once for the requests under way. A
     * failed read throws: the caller books nothing.
     * @param {string} key
     * @param {LedgerCore} core
     */
    async takeOver(key, core) {
      let p = this.takingOver.get(key);
      if (p === undefined) {
        p = this.takeOverOnce(key, core).finally(() => this.takingOver.delete(key));
        this.takingOver.set(key, p);
      }
      await p;
    }

    /**
     * @param {string} key
     * @param {LedgerCore} core
     */
    async takeOverOnce(key, core) {
      const marked = (await this.state.storage.get(takenOverKey(key))) !== undefined;
      if (core.ledgerTakeOver({ record: null, earlier: null, marked, read: false, now: now() }).verdict !== "read") return;
      /** @type {import("../types").DurableObjectNamespaceLike<{legacyRecord(): Promise<BookingRecordValue | null>}> | undefined} */
      const ns = namespaceOf(/** @type {import("../types").Env} */ (this.env), BOOKINGS_BINDING);
      if (ns === undefined) throw new Error("earlier layout unreadable: no " + BOOKINGS_BINDING + " binding");
      const old = await ns.get(ns.idFromName(key)).legacyRecord();
      /** @type {BookingRecordValue | undefined} */
      const here = await this.state.storage.get(recordKey(key));
      const t = core.ledgerTakeOver({ record: view(here), earlier: view(old), marked: false, read: true, now: now() });
      if (t.verdict !== "adopt" || old === null) return;
      // The record and its mark in one write: never one without the other.
      await this.state.storage.put({ [recordKey(key)]: old, [takenOverKey(key)]: { expires: t.markExpires } });
      await this.armFor(t.markExpires);
    }

    /**
     * take claims the key for the core's new turn (in memory, at once) and
     * writes its pending record BEFORE the caller sends anything: after a
     * restart it says a booking may be under way.
     * @param {string} key
     * @param {import("../core.d.mts").LedgerRecord} rec
     * @param {number} until the end of the holder's hold
     * @param {"new" | "lost"} state
     * @returns {Promise<BeginAnswer>}
     */
    async take(key, rec, until, state) {
      /** @type {() => void} */
      let release = () => {};
      const done = new Promise((r) => { release = () => r(undefined); });
      this.live.set(key, { holder: rec.holder, done, release, until });
      try {
        await this.state.storage.put(recordKey(key), rec);
      } catch (e) {
        // Nothing taken: the turn ends here (the caller books nothing).
        if (this.live.get(key)?.holder === rec.holder) this.endTurn(key);
        throw e;
      }
      await this.armFor(rec.expires);
      return { state, holder: rec.holder };
    }

    /**
     * armFor makes sure an alarm comes by at (or before) a record's expiry.
     * @param {number} at
     */
    async armFor(at) {
      if (this.alarmAt === undefined) this.alarmAt = await this.state.storage.getAlarm();
      if (this.alarmAt !== null && this.alarmAt <= at) return;
      await this.state.storage.setAlarm(at);
      this.alarmAt = at;
    }

    /**
     * endTurn wakes the requests waiting for a key's live holder.
     * @param {string} key
     */
    endTurn(key) {
      const h = this.live.get(key);
      this.live.delete(key);
      if (h !== undefined) h.release();
    }

    /** alarm sweeps the expired records (as the core says) and comes back for the rest. */
    async alarm() {
      const { core } = await this.isolate();
      /** @type {Map<string, {expires?: number}>} */
      const all = await this.state.storage.list();
      const keys = [...all.keys()];
      const expires = [...all.values()].map((v) => (v !== null && typeof v === "object" && typeof v.expires === "number" ? v.expires : 0));
      const s = core.ledgerSweep({ expires, now: now(), everyMs: SWEEP_MS });
      const expired = s.expired.map((i) => keys[i]);
      // delete() takes at most 128 keys at once.
      for (let i = 0; i < expired.length; i += 128) await this.state.storage.delete(expired.slice(i, i + 128));
      this.alarmAt = s.next === 0 ? null : s.next;
      if (s.next !== 0) await this.state.storage.setAlarm(s.next);
    }
  };
}

/** @typedef {InstanceType<ReturnType<typeof bookingsObject>>} Bookings */

/**
 * @typedef {object} BookingRecord the Bookings object of one booking key
 * @property {string} binding the namespace's binding name (BOOKINGS)
 * @property {string} key API user, upstream, operation and client reference (the core's booking key)
 */

/**
 * @typedef {import("../types").DurableObjectNamespaceLike<Bookings>} BookingsNamespace
 */

/**
 * stubOf returns the object of a record, or undefined without the binding.
 * @param {import("../types").Env} env
 * @param {BookingRecord} r
 * @returns {Bookings | undefined}
 */
function stubOf(env, { binding, key }) {
  /** @type {BookingsNamespace | undefined} */
  const ns = namespaceOf(env, binding);
  return ns?.get(ns.idFromName(bookingObjectName(key)));
}

/**
 * failed turns a thrown RPC error into a value.
 * @param {unknown} e
 * @returns {{ok: false, failure: "unreachable", detail: string}}
 */
function failed(e) {
  return { ok: false, failure: "unreachable", detail: errorDetail(e, 100) };
}

/**
 * @param {BookingRecord} record
 * @returns {{ok: false, failure: "unbound", detail: string}}
 */
function unbound(record) {
  return { ok: false, failure: "unbound", detail: "binding " + record.binding + " is not configured" };
}

/**
 * bookingBegin takes or reads a record (Bookings.begin); with send, a new
 * record's booking may be forwarded by the object itself ("sent").
 * @param {{env: import("../types").Env, record: BookingRecord, fingerprint: string, waitMs: number, holdMs: number, graceMs: number, ttlMs: number, send?: unknown}} q
 * @returns {Promise<({ok: true, holder: string} & BeginAnswer) | ({ok: false, failure: "unbound" | "unreachable", detail: string})>}
 */
export async function bookingBegin({ env, record, fingerprint, waitMs, holdMs, graceMs, ttlMs, send }) {
  const stub = stubOf(env, record);
  if (stub === undefined) return unbound(record);
  try {
    const a = await stub.begin({ key: record.key, fp: fingerprint, waitMs, holdMs, graceMs, ttlMs, send });
    return { ok: true, state: a.state, holder: a.holder ?? "", body: a.body, retryAfterMs: a.retryAfterMs, sent: a.sent };
  } catch (e) {
    return failed(e);
  }
}

/**
 * bookingSending tells the record its holder is about to book (after a
 * lookup found nothing); holding false: another attempt took it over.
 * @param {{env: import("../types").Env, record: BookingRecord, holder: string}} q
 * @returns {Promise<{ok: true, holding: boolean} | {ok: false, failure: "unbound" | "unreachable", detail: string}>}
 */
export async function bookingSending({ env, record, holder }) {
  const stub = stubOf(env, record);
  if (stub === undefined) return unbound(record);
  try {
    return { ok: true, holding: await stub.sending({ key: record.key, holder }) };
  } catch (e) {
    return failed(e);
  }
}

/**
 * bookingFinish records the holder's outcome (Bookings.finish); holding
 * false: it had lost its turn and nothing was written (log it).
 * @param {{env: import("../types").Env, record: BookingRecord, holder: string, outcome: "ok" | "lost" | "unsent" | "refused", body: string | null, ttlMs: number}} q
 * @returns {Promise<{ok: true, holding: boolean} | {ok: false, failure: "unbound" | "unreachable", detail: string}>}
 */
export async function bookingFinish({ env, record, holder, outcome, body, ttlMs }) {
  const stub = stubOf(env, record);
  if (stub === undefined) return unbound(record);
  try {
    return { ok: true, holding: await stub.finish({ key: record.key, holder, outcome, body, ttlMs }) };
  } catch (e) {
    return failed(e);
  }
}

/**
 * bookingPeek reads a record without taking it (Bookings.peek); state ""
 * when there is none or it cannot be read.
 * @param {{env: import("../types").Env, record: BookingRecord}} q
 * @returns {Promise<{state: "" | "done" | "lost", body?: Uint8Array | string}>}
 */
export async function bookingPeek({ env, record }) {
  const stub = stubOf(env, record);
  if (stub === undefined) return { state: "" };
  try {
    return await stub.peek({ key: record.key });
  } catch {
    return { state: "" };
  }
}

/**
 * bookingsBound reports whether the namespace is configured.
 * @param {{env: import("../types").Env, binding: string}} q
 */
export function bookingsBound({ env, binding }) {
  return namespaceOf(env, binding) !== undefined;
}
