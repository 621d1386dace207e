// @ts-check
// get-shipments-rates with a deadline (issue 31): the checkout does not
// wait on the carrier API. The upstream call starts as any read; when it
// has not answered by the plan's deadline, or fails, the core's rates call
// says what to answer instead (the last good answer for the same route and
// parcels, else the operator's fallback table) or that there is nothing
// (then the call's own answer, as before). A call that missed the deadline
// goes on under waitUntil and refreshes the store, one per route and
// parcels at a time in an isolate: the others are aborted (claimRefresh).
// Every answer says its source (data.source, Rates-Source). Only rates
// have a plan: bookings never come from stored data.

import { claimRefresh, deadline, LATE, storedRates, storeRates } from "../platform/rates.mjs";

/**
 * @typedef {import("../exchange.mjs").Exchange} Exchange
 * @typedef {import("../edge.mjs").Edge} Edge
 * @typedef {import("../core.mjs").Forward} Forward
 * @typedef {import("../core.mjs").Answered} Answered
 * @typedef {import("../core.mjs").RatesPlan} RatesPlan
 */

const encoder = new TextEncoder();

/**
 * What rated needs of the operation route: its forward (with retries) and
 * settle (normalization, the log's notes), and the Cache API.
 * @typedef {object} RatedDeps
 * @property {(x: Exchange, edge: Edge, fwd: Forward, sentAt: number, signal: AbortSignal) => Promise<Answered>} forward
 * @property {(x: Exchange, edge: Edge, a: Answered) => Response} settle
 * @property {import("../types").CacheLike | undefined} cache
 * @property {typeof deadline} [timer] the deadline's timer (tests: the time it is given)
 * @property {() => number} [now] the clock (Date.now)
 */

/**
 * rated answers a rates request within its plan's deadline.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {Forward} fwd
 * @param {RatesPlan} plan
 * @param {RatedDeps} deps
 * @returns {Promise<Response>}
 */
export async function rated(x, edge, fwd, plan, { forward, settle, cache, timer = deadline, now = Date.now }) {
  const abort = new AbortController();
  // The stored answer is read beside the call, not after the deadline:
  // a rescue then waits on no read of the Cache API (the in-isolate map
  // answers at once; a new isolate's first read is I/O).
  const stored = plan.staleMs > 0 ? storedRates({ cache, key: plan.key }) : Promise.resolve(null);
  const live = forward(x, edge, fwd, 0, abort.signal).then((a) => {
    if (a.cacheable) {
      const body = typeof a.response.body === "string" ? encoder.encode(a.response.body) : a.response.body;
      x.exec.waitUntil(storeRates({ cache, key: plan.key, body, storedAt: Date.now(), keepMs: plan.staleMs }));
    }
    return a;
  });
  /** @type {Answered} */
  let a;
  if (plan.deadlineMs > 0) {
    // The deadline counts from the request's arrival (x.t0), not from
    // here: the body's read, the rate limit's check and the core's
    // prepare before this are the shopper's wait too (workerd's clock
    // moves across that I/O). worker/bench/RATES.md measured the
    // difference: up to 190 ms past the deadline on a loaded machine.
    const d = timer(Math.max(0, plan.deadlineMs - Math.max(0, now() - x.t0)));
    const first = await Promise.race([live, d.late]);
    d.cancel();
    if (first === LATE) {
      const r = await rescue(x, edge, plan, "late", stored, now);
      if (r !== null) {
        // The call goes on and its answer refreshes the store, unless
        // another late call for the same key already does: then it ends.
        if (claimRefresh(plan.key, live)) x.exec.waitUntil(live);
        else abort.abort();
        return settle(x, edge, r);
      }
      a = await live;
    } else {
      a = first;
    }
  } else {
    a = await live;
  }
  if (a.response.status === 200 && a.response.class === "forwarded") {
    const m = edge.core.rates({ class: "live", plan, acceptLanguage: null, storedAt: 0, now: Date.now(), body: a.response.body });
    return settle(x, edge, m.response === null ? a : { ...a, response: { ...m.response, class: "forwarded" } });
  }
  const r = await rescue(x, edge, plan, a.response.class, stored, now);
  return settle(x, edge, r ?? a);
}

/**
 * rescue asks the core for a stored or fallback answer in place of a
 * late or failed call; null when there is none (or the class is not one
 * to hide: a refusal of the request is relayed).
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {RatesPlan} plan
 * @param {string} cls the call's answer's class, or "late"
 * @param {Promise<{body: Uint8Array, storedAt: number} | null>} stored the store's read, begun with the call
 * @param {() => number} now
 * @returns {Promise<Answered | null>}
 */
async function rescue(x, edge, plan, cls, stored, now) {
  const s = await stored;
  const r = edge.core.rates({ class: cls, plan, acceptLanguage: x.request.headers.get("accept-language"), storedAt: s?.storedAt ?? 0,
    now: now(), body: s?.body ?? null });
  if (r.response === null) return null;
  x.note = "rates answered from the " + r.source + " store after the upstream's " + cls;
  if (r.source === "fallback") x.note = "rates answered from RATES_FALLBACK after the upstream's " + cls;
  // "forwarded": settle gives it the client's form (normalized or raw) as any ok answer.
  return { response: { ...r.response, class: "forwarded" }, outcome: "ok", cacheable: false, retry: false, leak: false, watch: null, note: "" };
}
