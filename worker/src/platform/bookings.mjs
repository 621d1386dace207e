// @ts-check
// Exactly-once bookings: the Bookings Durable Objects and the calls the
// worker makes on them. A booking's record is named by its booking key (API
// user, upstream, operation, client reference: the core's), and lives in
// one of BOOKING_SHARDS objects chosen by a hash of that key: objects are
// single-threaded, so every request for a reference meets the same record,
// and a few long-lived objects serve every booking (an object per
// reference cost a new object per booking: about 7 ms of workerd CPU and
// most of a booking's latency, worker/bench). The rules are
// internal/booking's (Decide, Taken, Sending, Settle), written again here
// (issue 20); the core decides what each state means for the client
// (routes/operation.mjs drives it).
//
// Storage: one key per record, "rec\n" + booking key, absent or
//   { state: "pending", fp, holder, since, prev, expires }  a holder's turn
//   { state: "done", fp, body, expires }                     booked: the answer
//   { state: "lost", fp, since, expires }                    the answer was lost
// fp is the fingerprint of the normalized body; since (ms) when the booking
// was sent upstream; prev, for a turn taken to look a lost booking up, that
// record's since; expires (ms) when the record is forgotten.
// Memory: this.live, per booking key, the holder this incarnation saw take
// the pending record, until its hold ends. A pending record without it (the
// object restarted, or the holder passed its hold) is a lost answer.
//
// Each call takes one named request (stub.begin({key, fp, ...})):
// begin({key, fp, waitMs, holdMs, graceMs, ttlMs, send?}) -> { state, holder?, body?, retryAfterMs?, sent? }
//   none or expired -> write pending, then "new" with the holder token; with
//                      send, and where the object can forward (forward()),
//                      it books itself and finishes: "sent" (below)
//   other fp        -> "conflict"
//   done            -> "done" with body
//   pending, live   -> wait for its outcome (up to waitMs), then decide
//                      again; "busy" past waitMs
//   lost, or pending not live:
//     now < since + graceMs -> "unknown", retryAfterMs = the rest
//     else                  -> write pending (prev = since), then "lost" with
//                              the holder token: look up before booking
// The decision is begin's alone (internal/booking's Decide), made on the
// record as it is after every wait, and take() writes it. One holder per
// key, always: take() refuses a key another request holds (a turn ends by
// its holder's finish or past its hold, never by a take), and nothing
// waits between begin's read of the record and take's claim, so a request
// that read "no record" and finds the key taken waits for that holder
// like any other, then decides again. (Issue 29: the requests joined on
// one read of the earlier layout each found no record after it, and each
// take ended the turn before it: up to ten bookings.)
// sending({key, holder}) -> true, and since = now, prev = 0 (about to book
//   after a lookup found nothing); false when holder does not hold the
//   pending record
// finish({key, holder, outcome, body, ttlMs}) -> false when holder does not
//   hold the pending record (nothing is written; the caller logs it), else
//   true and "ok" -> done; "lost" -> lost (since kept); "unsent" -> lost with
//   since = prev, or deleted when prev is 0; "release" -> deleted
// peek({key}) -> { state: "done", body } | { state: "lost" } (lost, or pending
//   not live) | { state: "" }
//
// One round trip: a new booking costs the worker one call on its object
// when the object forwards it itself (begin with send): begin takes the
// record, forward(send) asks the core, books once and asks the core for the
// answer, finish records its outcome, and begin answers "sent" with that
// answer (sent: the forwarder's result and holding). The base class cannot
// forward (forward answers null: begin answers "new" and the caller
// forwards and finishes, two calls); the entry module's subclass can (it
// loads the isolate's core). Only a new record is forwarded here: a lost
// one goes through its lookup in the worker as before.
//
// The earlier layout: one object per booking key (named by the key, its
// record under "rec"), what the Go worker and the first JavaScript edge
// wrote. Until legacyUntil() (BOOKINGS_LEGACY_UNTIL, the deploy's day plus
// the records' 30 days; 0 by default: never), an object that has no record
// of a key reads that key's object of the earlier layout (legacyRecord)
// and keeps what it finds, so a resend of a booking made before the
// upgrade is still recognized: done replays, pending or lost waits out the
// grace and looks the booking up, other data conflicts. One read per key:
// a record taken over is written with a mark ("old\n" + key) in one put,
// and the mark keeps the key from being read again once its record here is
// released or expires. Concurrent requests for a key share one read, and
// each decides after it (above).
// A new booking in that window costs one more call (on an object of its
// own, which the platform may have to start).
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
 *   what forward(send) did: the ledger's outcome (null: nothing to record) and what the caller gets back
 * @typedef {{result: unknown, holding: boolean}} Sent
 * @typedef {"ok" | "lost" | "unsent" | "release"} Outcome
 * @typedef {{key: string, fp: string, waitMs: number, holdMs: number, graceMs: number, ttlMs: number, send?: unknown}} BeginRequest
 *   begin's request: the booking key, the fingerprint, the bounds; send, what the forwarder needs to book (see the
 *   file's comment; absent: never forwarded here)
 * @typedef {{key: string, holder: string, outcome: Outcome, body: string | Uint8Array | null, ttlMs: number}} FinishRequest
 *   finish's request; body is the answer kept with "ok"
 * @typedef {{state: "pending", fp: string, holder: string, since: number, prev: number, expires: number}
 *   | {state: "done", fp: string, body: string | Uint8Array, expires: number}
 *   | {state: "lost", fp: string, since: number, expires: number}} BookingRecordValue
 * @typedef {{holder: string, done: Promise<void>, release: () => void, until: number}} Live
 */

export class Bookings extends DurableObject {
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
  }

  /**
   * legacyUntil is until when (Unix ms, exclusive) records of the earlier
   * layout are read; 0: never. The entry module's subclass answers the
   * core's BOOKINGS_LEGACY_UNTIL.
   * @returns {Promise<number>}
   */
  async legacyUntil() {
    return 0;
  }

  /**
   * legacyRecord is called on an object of the earlier layout: its record,
   * or null (none, or expired). Read only: the caller marks what it took.
   * @returns {Promise<BookingRecordValue | null>}
   */
  async legacyRecord() {
    /** @type {BookingRecordValue | undefined} */
    const rec = await this.state.storage.get(LEGACY_KEY);
    if (rec === undefined || rec === null || typeof rec !== "object" || !(rec.expires > Date.now())) return null;
    return rec;
  }

  /**
   * @param {BeginRequest} q
   * @returns {Promise<BeginAnswer>}
   */
  async begin({ key, fp, waitMs, holdMs, graceMs, ttlMs, send }) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const now = Date.now();
      // A holder past its hold vanished (its isolate died): unknown outcome.
      const gone = this.live.get(key);
      if (gone !== undefined && now > gone.until) this.endTurn(key);
      // Every pass decides on the record as it is now: after a wait, and
      // after the read of the earlier layout, which the other requests for
      // the key join and which finds nothing for a new reference.
      const rec = await this.current(key, now);
      const live = this.live.get(key);
      /** @type {BeginAnswer | null} */
      let a = null;
      if (rec === undefined) a = await this.take(key, rec, fp, holdMs, ttlMs, "new");
      else if (rec.fp !== fp) return { state: "conflict" };
      else if (rec.state === "done") return { state: "done", body: rec.body };
      else if (rec.state !== "pending" || live === undefined) {
        const left = rec.since + graceMs - now;
        if (left > 0) return { state: "unknown", retryAfterMs: left };
        a = await this.take(key, rec, fp, holdMs, ttlMs, "lost");
      }
      if (a !== null) return send !== undefined && a.state === "new" ? this.book(key, a, send, ttlMs) : a;
      // Pending and live, or the take was refused (the key has a live
      // holder): wait for its outcome, then decide again.
      if (live === undefined || now >= deadline) return { state: "busy" };
      await Promise.race([live.done, new Promise((r) => setTimeout(r, Math.max(Math.min(deadline, live.until + 1) - now, 1)))]);
    }
  }

  /**
   * book forwards a booking whose record this call just took (new), and
   * records its outcome before answering.
   * @param {string} key
   * @param {BeginAnswer} taken
   * @param {unknown} send
   * @param {number} ttlMs
   * @returns {Promise<BeginAnswer>}
   */
  async book(key, taken, send, ttlMs) {
    const holder = taken.holder ?? "";
    /** @type {Forwarded | null} */
    let f;
    try {
      f = await this.forward(send);
    } catch (e) {
      // It may have been sent: a lost answer (a resend looks it up).
      await this.finish({ key, holder, outcome: "lost", body: null, ttlMs });
      throw e;
    }
    if (f === null) return taken;
    const holding = f.finish === null ? true : await this.finish({ key, holder, outcome: OUTCOMES[f.finish.outcome], body: f.finish.body, ttlMs });
    return { state: "sent", holder, sent: { result: f.result, holding } };
  }

  /**
   * forward books with send and says what to record; null: this object
   * cannot (the caller forwards). The entry module's subclass does it.
   * @param {unknown} send
   * @returns {Promise<Forwarded | null>}
   */
  async forward(send) {
    return null;
  }

  /**
   * sending: the holder is about to book after a lookup found nothing.
   * @param {{key: string, holder: string}} q
   */
  async sending({ key, holder }) {
    const rec = await this.current(key, Date.now());
    if (rec === undefined || rec.state !== "pending" || rec.holder !== holder) return false;
    await this.state.storage.put(recordKey(key), { ...rec, since: Date.now(), prev: 0 });
    return true;
  }

  /**
   * finish records the holder's outcome; false when it no longer holds the record.
   * @param {FinishRequest} q
   */
  async finish({ key, holder, outcome, body, ttlMs }) {
    const rec = await this.current(key, Date.now());
    if (rec === undefined || rec.state !== "pending" || rec.holder !== holder) return false;
    const expires = Date.now() + ttlMs;
    /** @type {BookingRecordValue | null} */
    let next = null;
    if (outcome === "ok") next = { state: "done", fp: rec.fp, body: body ?? "", expires };
    else if (outcome === "lost") next = { state: "lost", fp: rec.fp, since: rec.since, expires };
    else if (outcome === "unsent" && rec.prev) next = { state: "lost", fp: rec.fp, since: rec.prev, expires };
    // The alarm the take made sure of comes first; its sweep finds these
    // expires (a little later than the taken record's) and comes back.
    if (next === null) await this.state.storage.delete(recordKey(key));
    else await this.state.storage.put(recordKey(key), next);
    const live = this.live.get(key);
    if (live !== undefined && live.holder === holder) this.endTurn(key);
    return true;
  }

  /**
   * peek reads the record without taking it: the edge resolves a token's
   * shipping_client_ref to the shipment booked with it.
   * @param {{key: string}} q
   * @returns {Promise<{state: "" | "done" | "lost", body?: string | Uint8Array}>}
   */
  async peek({ key }) {
    const rec = await this.current(key, Date.now());
    if (rec === undefined) return { state: "" };
    if (rec.state === "done") return { state: "done", body: rec.body };
    const live = this.live.get(key);
    if (rec.state === "lost" || live === undefined || live.holder !== rec.holder) return { state: "lost" };
    return { state: "" };
  }

  /**
   * current reads a record, forgetting an expired one.
   * @param {string} key
   * @param {number} now
   * @returns {Promise<BookingRecordValue | undefined>}
   */
  async current(key, now) {
    // The window first: the record's read is the last wait before begin
    // decides (takeOver ends with one).
    const until = await this.legacyUntil();
    /** @type {BookingRecordValue | undefined} */
    let rec = await this.state.storage.get(recordKey(key));
    if (rec === undefined && now < until) rec = await this.takeOver(key);
    if (rec !== undefined && rec.expires <= now) {
      await this.state.storage.delete(recordKey(key));
      return undefined;
    }
    return rec;
  }

  /**
   * takeOver reads the key's record of the earlier layout, once per key
   * (see the file's comment), and answers this object's record after it.
   * A failed read throws: the caller books nothing.
   * @param {string} key
   * @returns {Promise<BookingRecordValue | undefined>}
   */
  async takeOver(key) {
    let p = this.takingOver.get(key);
    if (p === undefined) {
      p = this.takeOverOnce(key).finally(() => this.takingOver.delete(key));
      this.takingOver.set(key, p);
    }
    await p;
    return this.state.storage.get(recordKey(key));
  }

  /** @param {string} key */
  async takeOverOnce(key) {
    if ((await this.state.storage.get(takenOverKey(key))) !== undefined) return;
    /** @type {import("../types").DurableObjectNamespaceLike<Bookings> | undefined} */
    const ns = namespaceOf(/** @type {import("../types").Env} */ (this.env), BOOKINGS_BINDING);
    if (ns === undefined) throw new Error("earlier layout unreadable: no " + BOOKINGS_BINDING + " binding");
    const old = await ns.get(ns.idFromName(key)).legacyRecord();
    if (old === null || (await this.state.storage.get(recordKey(key))) !== undefined) return;
    // The record and its mark in one write: never one without the other.
    await this.state.storage.put({ [recordKey(key)]: old, [takenOverKey(key)]: { expires: old.expires } });
    await this.armFor(old.expires);
  }

  /**
   * take writes the pending record of a new turn BEFORE the caller sends
   * anything: after a restart it says a booking may be under way. It is
   * refused (null, nothing written) while another request holds the key:
   * a turn ends by its holder's finish or past its hold, never by a take.
   * @param {string} key
   * @param {BookingRecordValue | undefined} rec
   * @param {string} fp
   * @param {number} holdMs
   * @param {number} ttlMs
   * @param {"new" | "lost"} state
   * @returns {Promise<BeginAnswer | null>}
   */
  async take(key, rec, fp, holdMs, ttlMs, state) {
    if (this.live.has(key)) return null;
    const now = Date.now();
    const holder = crypto.randomUUID();
    const prev = rec !== undefined && (rec.state === "lost" || rec.state === "pending") ? rec.since : 0;
    /** @type {() => void} */
    let release = () => {};
    const done = new Promise((r) => { release = () => r(undefined); });
    this.live.set(key, { holder, done, release, until: now + holdMs });
    try {
      await this.state.storage.put(recordKey(key), { state: "pending", fp, holder, since: now, prev, expires: now + ttlMs });
    } catch (e) {
      // Nothing taken: the turn ends here (the caller books nothing).
      if (this.live.get(key)?.holder === holder) this.endTurn(key);
      throw e;
    }
    await this.armFor(now + ttlMs);
    return { state, holder };
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

  /** alarm sweeps the expired records and comes back for the rest. */
  async alarm() {
    const now = Date.now();
    /** @type {Map<string, {expires?: number}>} */
    const all = await this.state.storage.list();
    /** @type {string[]} */
    const expired = [];
    let next = Infinity;
    for (const [k, v] of all) {
      const at = v !== null && typeof v === "object" && typeof v.expires === "number" ? v.expires : 0;
      if (at <= now) expired.push(k);
      else next = Math.min(next, at);
    }
    // delete() takes at most 128 keys at once.
    for (let i = 0; i < expired.length; i += 128) await this.state.storage.delete(expired.slice(i, i + 128));
    if (next === Infinity) {
      this.alarmAt = null;
      return;
    }
    this.alarmAt = Math.max(next, now + SWEEP_MS);
    await this.state.storage.setAlarm(this.alarmAt);
  }
}

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

/** The record's outcome names for the core's (refused: the reference is released). */
const OUTCOMES = /** @type {const} */ ({ ok: "ok", lost: "lost", unsent: "unsent", refused: "release" });

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
    return { ok: true, holding: await stub.finish({ key: record.key, holder, outcome: OUTCOMES[outcome], body, ttlMs }) };
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
