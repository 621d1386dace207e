// @ts-check
// Exactly-once bookings: the Bookings Durable Object and the calls the
// worker makes on it. One object per (API user, upstream, operation, client
// reference), single-threaded, so every request for a reference meets the
// same record. The rules are internal/booking's (Decide, Taken, Sending,
// Settle), written again here (issue 20); the core decides what each state
// means for the client (routes/operation.mjs drives it).
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

import { DurableObject } from "cloudflare:workers";

/**
 * @typedef {"new" | "lost" | "done" | "conflict" | "busy" | "unknown"} BeginState
 * @typedef {{state: BeginState, holder?: string, body?: string | Uint8Array, retryAfterMs?: number}} BeginAnswer
 * @typedef {"ok" | "lost" | "unsent" | "release"} Outcome
 * @typedef {{state: "pending", fp: string, holder: string, since: number, prev: number, expires: number}
 *   | {state: "done", fp: string, body: string | Uint8Array, expires: number}
 *   | {state: "lost", fp: string, since: number, expires: number}} BookingRecordValue
 * @typedef {{holder: string, done: Promise<void>, release: () => void, until: number}} Live
 */

/**
 * holds reports whether holder holds the pending record rec.
 * @param {BookingRecordValue | undefined} rec
 * @param {string} holder
 */
function holds(rec, holder) {
  return rec !== undefined && rec.state === "pending" && rec.holder === holder;
}

export class Bookings extends DurableObject {
  /**
   * @param {import("../types").DurableObjectStateLike} ctx
   * @param {import("../types").Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    /** @type {import("../types").DurableObjectStateLike} */
    this.state = ctx;
    /** @type {Live | null} */
    this.live = null;
  }

  /**
   * @param {string} fp
   * @param {number} waitMs
   * @param {number} holdMs
   * @param {number} graceMs
   * @param {number} ttlMs
   * @returns {Promise<BeginAnswer>}
   */
  async begin(fp, waitMs, holdMs, graceMs, ttlMs) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const now = Date.now();
      // A holder past its hold vanished (its isolate died): unknown outcome.
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

  /**
   * sending: the holder is about to book after a lookup found nothing.
   * @param {string} holder
   */
  async sending(holder) {
    const rec = await this.current(Date.now());
    if (rec === undefined || rec.state !== "pending" || rec.holder !== holder) return false;
    await this.state.storage.put("rec", { ...rec, since: Date.now(), prev: 0 });
    return true;
  }

  /**
   * finish records the holder's outcome; false when it no longer holds the record.
   * @param {string} holder
   * @param {Outcome} outcome
   * @param {string | Uint8Array | null} body the answer kept with "ok"
   * @param {number} ttlMs
   */
  async finish(holder, outcome, body, ttlMs) {
    const rec = await this.current(Date.now());
    if (rec === undefined || rec.state !== "pending" || rec.holder !== holder) return false;
    const expires = Date.now() + ttlMs;
    /** @type {BookingRecordValue | null} */
    let next = null;
    if (outcome === "ok") next = { state: "done", fp: rec.fp, body: body ?? "", expires };
    else if (outcome === "lost") next = { state: "lost", fp: rec.fp, since: rec.since, expires };
    else if (outcome === "unsent" && rec.prev) next = { state: "lost", fp: rec.fp, since: rec.prev, expires };
    if (next === null) {
      await this.state.storage.delete("rec");
    } else {
      await this.state.storage.put("rec", next);
      await this.state.storage.setAlarm(expires);
    }
    if (this.live !== null && this.live.holder === holder) this.endTurn();
    return true;
  }

  /**
   * peek reads the record without taking it: the edge resolves a token's
   * shipping_client_ref to the shipment booked with it.
   * @returns {Promise<{state: "" | "done" | "lost", body?: string | Uint8Array}>}
   */
  async peek() {
    const rec = await this.current(Date.now());
    if (rec === undefined) return { state: "" };
    if (rec.state === "done") return { state: "done", body: rec.body };
    if (rec.state === "lost" || this.live === null || this.live.holder !== rec.holder) return { state: "lost" };
    return { state: "" };
  }

  /**
   * current reads the record, forgetting an expired one.
   * @param {number} now
   * @returns {Promise<BookingRecordValue | undefined>}
   */
  async current(now) {
    /** @type {BookingRecordValue | undefined} */
    const rec = await this.state.storage.get("rec");
    if (rec !== undefined && rec.expires <= now) {
      await this.state.storage.delete("rec");
      return undefined;
    }
    return rec;
  }

  /**
   * take writes the pending record of a new turn BEFORE the caller sends
   * anything: after a restart it says a booking may be under way.
   * @param {BookingRecordValue | undefined} rec
   * @param {string} fp
   * @param {number} holdMs
   * @param {number} ttlMs
   * @param {"new" | "lost"} state
   * @returns {Promise<BeginAnswer>}
   */
  async take(rec, fp, holdMs, ttlMs, state) {
    const now = Date.now();
    const holder = crypto.randomUUID();
    const prev = rec !== undefined && (rec.state === "lost" || rec.state === "pending") ? rec.since : 0;
    if (this.live !== null) this.endTurn();
    /** @type {() => void} */
    let release = () => {};
    const done = new Promise((r) => { release = () => r(undefined); });
    this.live = { holder, done, release, until: now + holdMs };
    await this.state.storage.put("rec", { state: "pending", fp, holder, since: now, prev, expires: now + ttlMs });
    await this.state.storage.setAlarm(now + ttlMs);
    return { state, holder };
  }

  /** endTurn wakes the requests waiting for the live holder. */
  endTurn() {
    const h = this.live;
    this.live = null;
    if (h !== null) h.release();
  }

  async alarm() {
    /** @type {BookingRecordValue | undefined} */
    const rec = await this.state.storage.get("rec");
    if (rec !== undefined && rec.expires > Date.now()) await this.state.storage.setAlarm(rec.expires);
    else await this.state.storage.deleteAll();
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
  const ns = /** @type {BookingsNamespace | undefined} */ (env[binding]);
  if (ns === undefined || ns === null || typeof ns.idFromName !== "function") return undefined;
  return ns.get(ns.idFromName(key));
}

/**
 * failed turns a thrown RPC error into a value.
 * @param {unknown} e
 * @returns {{ok: false, failure: "unreachable", detail: string}}
 */
function failed(e) {
  return { ok: false, failure: "unreachable", detail: String(e instanceof Error ? e.message : e).slice(0, 100) };
}

/**
 * @param {BookingRecord} record
 * @returns {{ok: false, failure: "unbound", detail: string}}
 */
function unbound(record) {
  return { ok: false, failure: "unbound", detail: "binding " + record.binding + " is not configured" };
}

/**
 * bookingBegin takes or reads a record (Bookings.begin).
 * @param {{env: import("../types").Env, record: BookingRecord, fingerprint: string, waitMs: number, holdMs: number, graceMs: number, ttlMs: number}} q
 * @returns {Promise<({ok: true, holder: string} & BeginAnswer) | ({ok: false, failure: "unbound" | "unreachable", detail: string})>}
 */
export async function bookingBegin({ env, record, fingerprint, waitMs, holdMs, graceMs, ttlMs }) {
  const stub = stubOf(env, record);
  if (stub === undefined) return unbound(record);
  try {
    const a = await stub.begin(fingerprint, waitMs, holdMs, graceMs, ttlMs);
    return { ok: true, state: a.state, holder: a.holder ?? "", body: a.body, retryAfterMs: a.retryAfterMs };
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
    return { ok: true, holding: await stub.sending(holder) };
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
    return { ok: true, holding: await stub.finish(holder, OUTCOMES[outcome], body, ttlMs) };
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
    return await stub.peek();
  } catch {
    return { state: "" };
  }
}

/**
 * bookingsBound reports whether the namespace is configured.
 * @param {{env: import("../types").Env, binding: string}} q
 */
export function bookingsBound({ env, binding }) {
  const ns = /** @type {any} */ (env[binding]);
  return ns !== undefined && ns !== null && typeof ns.idFromName === "function";
}
