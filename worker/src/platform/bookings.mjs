// @ts-check
// Exactly-once bookings: the Bookings Durable Object and the calls the
// worker makes on it. One object per (API user, upstream, operation, client
// reference), so every request for a reference meets the same
// single-threaded object wherever it arrives. The first request takes the
// record with its fingerprint and forwards; the others wait for its outcome
// here. Storage keeps { state: "done" | "lost", fp, body, expires } until
// an alarm clears it (the record's ttl). The protocol (what the worker does
// with each state) is in the booking route.

import { DurableObject } from "cloudflare:workers";

/** How long a booking's record is kept: a resend within it never books twice. */
export const BOOKING_RECORD_TTL_MS = 30 * 24 * 3600 * 1000;

/**
 * @typedef {"new" | "lost" | "done" | "conflict" | "busy"} BeginState
 * new / lost: the caller holds the record and must finish (lost: an
 * earlier answer was lost, look the booking up first); done: answered
 * before (body); conflict: the reference was used with other data; busy:
 * another request still holds it after the wait.
 * @typedef {{state: BeginState, body?: Uint8Array | string}} BeginAnswer
 * @typedef {"ok" | "lost" | "refused"} Outcome ok keeps the answer, lost makes the next attempt look it up, refused forgets the reference (a corrected request may go through)
 * @typedef {{fp: string, done: Promise<void>, release: () => void, until: number}} Holder
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
    /** @type {Holder | null} a request forwarding now */
    this.holder = null;
  }

  /**
   * begin takes or reads the record for a request with fingerprint fp; it
   * waits up to waitMs while another request holds it; a holder that never
   * finishes loses the record after holdMs.
   * @param {string} fp
   * @param {number} waitMs
   * @param {number} holdMs
   * @returns {Promise<BeginAnswer>}
   */
  async begin(fp, waitMs, holdMs) {
    const storage = this.state.storage;
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (this.holder !== null && Date.now() > this.holder.until) {
        // The holder vanished (its isolate died): the outcome is unknown.
        const h = this.holder;
        await storage.put("rec", { state: "lost", fp: h.fp, expires: Date.now() + 86400000 });
        this.release(h);
      }
      if (this.holder !== null) {
        if (this.holder.fp !== fp) return { state: "conflict" };
        if (Date.now() >= deadline) return { state: "busy" };
        const left = Math.min(deadline, this.holder.until + 1) - Date.now();
        await Promise.race([this.holder.done, new Promise((r) => setTimeout(r, Math.max(left, 1)))]);
        continue;
      }
      /** @type {{state: string, fp: string, body?: Uint8Array | string, expires: number} | undefined} */
      let rec = await storage.get("rec");
      if (rec !== undefined && rec.expires <= Date.now()) {
        await storage.delete("rec");
        rec = undefined;
      }
      if (rec !== undefined && rec.fp !== fp) return { state: "conflict" };
      if (rec !== undefined && rec.state === "done") return { state: "done", body: rec.body };
      this.take(fp, holdMs);
      return { state: rec === undefined ? "new" : "lost" };
    }
  }

  /**
   * finish records the holder's outcome; false when fp does not hold it.
   * @param {string} fp
   * @param {Outcome} outcome
   * @param {string | Uint8Array | null} body the answer kept with "ok"
   * @param {number} ttlMs
   */
  async finish(fp, outcome, body, ttlMs) {
    const storage = this.state.storage;
    const h = this.holder;
    if (h === null || h.fp !== fp) return false;
    if (outcome === "refused") {
      await storage.delete("rec");
    } else {
      const expires = Date.now() + ttlMs;
      await storage.put("rec", outcome === "ok" ? { state: "done", fp, body, expires } : { state: "lost", fp, expires });
      await storage.setAlarm(expires);
    }
    this.release(h);
    return true;
  }

  /**
   * peek reads the record without taking it: the edge resolves a token's
   * shipping_client_ref to the shipment booked with it.
   * @returns {Promise<{state: "" | "done" | "lost", body?: Uint8Array | string}>}
   */
  async peek() {
    /** @type {{state: "done" | "lost", body?: Uint8Array | string, expires: number} | undefined} */
    const rec = await this.state.storage.get("rec");
    if (rec === undefined || rec.expires <= Date.now()) return { state: "" };
    return { state: rec.state, body: rec.body };
  }

  /**
   * @param {string} fp
   * @param {number} holdMs
   */
  take(fp, holdMs) {
    /** @type {() => void} */
    let release = () => {};
    const done = new Promise((r) => { release = () => r(undefined); });
    this.holder = { fp, done, release, until: Date.now() + holdMs };
  }

  /** @param {Holder} h */
  release(h) {
    if (this.holder === h) this.holder = null;
    h.release();
  }

  async alarm() {
    await this.state.storage.deleteAll();
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
 * @typedef {{ok: true} | {ok: false, failure: "unbound" | "unreachable", detail: string}} Reach
 */

/**
 * bookingBegin takes or reads a record (Bookings.begin).
 * @param {{env: import("../types").Env, record: BookingRecord, fingerprint: string, waitMs: number, holdMs: number}} q
 * @returns {Promise<({ok: true} & BeginAnswer) | ({ok: false, failure: "unbound" | "unreachable", detail: string})>}
 */
export async function bookingBegin({ env, record, fingerprint, waitMs, holdMs }) {
  const stub = stubOf(env, record);
  if (stub === undefined) return { ok: false, failure: "unbound", detail: "binding " + record.binding + " is not configured" };
  try {
    const a = await stub.begin(fingerprint, waitMs, holdMs);
    return { ok: true, state: a.state, body: a.body };
  } catch (e) {
    return { ok: false, failure: "unreachable", detail: String(e instanceof Error ? e.message : e).slice(0, 100) };
  }
}

/**
 * bookingFinish records the holder's outcome (Bookings.finish).
 * @param {{env: import("../types").Env, record: BookingRecord, fingerprint: string, outcome: Outcome, body: string | Uint8Array | null, ttlMs?: number}} q
 * @returns {Promise<Reach>}
 */
export async function bookingFinish({ env, record, fingerprint, outcome, body, ttlMs = BOOKING_RECORD_TTL_MS }) {
  const stub = stubOf(env, record);
  if (stub === undefined) return { ok: false, failure: "unbound", detail: "binding " + record.binding + " is not configured" };
  try {
    await stub.finish(fingerprint, outcome, body, ttlMs);
    return { ok: true };
  } catch (e) {
    return { ok: false, failure: "unreachable", detail: String(e instanceof Error ? e.message : e).slice(0, 100) };
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
