// @ts-check
// /v1/<operation>: the core decides (prepare), the JavaScript does what it
// says: a rate limit, a read of the booking record a scoped token needs
// (peek), then the forward: from the cache tiers for cacheable reads,
// through the Bookings object for bookings, else straight, with the
// core's retries for reads. Every answer is the core's (answer, booking,
// lookedUp).

import { callUpstream, failure, limited, preflight, send } from "./common.mjs";
import { requestFacts } from "../facts.mjs";
import { bookingBegin, bookingFinish, bookingPeek, bookingSending } from "../platform/bookings.mjs";
import { watchAdd } from "../platform/watchlist.mjs";
import { sharedGet, sharedPut, defaultCache } from "../platform/cache.mjs";
import { reply } from "../exchange.mjs";
import { logLine } from "../middleware/log.mjs";
import { BOOKINGS, WATCHLIST, serviceCall } from "../edge.mjs";
import { rated } from "./rates.mjs";

/**
 * @typedef {import("../exchange.mjs").Exchange} Exchange
 * @typedef {import("../edge.mjs").Edge} Edge
 * @typedef {import("../core.mjs").Forward} Forward
 * @typedef {import("../core.mjs").Answered} Answered
 * @typedef {import("../core.mjs").UpstreamResult} UpstreamResult
 * @typedef {{ok: Uint8Array | null, up: UpstreamResult | null}} Landed what a read's flight gives its waiters: the ok body, else the upstream's last outcome (null: no call was made)
 */

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * text is a stored body as a string (records written before may hold bytes).
 * @param {unknown} b
 * @returns {string | null}
 */
function text(b) {
  if (b === undefined || b === null) return null;
  if (typeof b === "string") return b;
  if (b instanceof Uint8Array) return decoder.decode(b);
  return null;
}

/**
 * sleep waits ms (a timer: workerd advances its clock across it).
 * @param {number} ms
 */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * operation serves /v1/<operation>.
 * @param {{edge: Edge, cache?: () => import("../types").CacheLike | undefined}} deps
 * @returns {(x: Exchange) => Promise<Response>}
 */
export function operation({ edge, cache = defaultCache }) {
  return async (x) => {
    const name = x.path.slice("/v1/".length);
    const route = edge.config.operations.find((o) => o.name === name);
    x.op = route === undefined ? "" : name;
    if (x.request.method === "OPTIONS") {
      if (route === undefined) return failure(x, edge, "not_found");
      return preflight(x, route.methods.join(", "));
    }
    const facts = requestFacts(x, Date.now());
    let p = edge.core.prepare({ ...facts, operation: name });
    if (p.rateLimit !== null) {
      const l = await limited(x, edge, p.rateLimit);
      if (l !== null) return l;
    }
    if (p.kind === "peek") {
      const rec = await bookingPeek({ env: x.env, record: { binding: BOOKINGS, key: p.bookingKey } });
      p = edge.core.prepare({ ...facts, operation: name, booked: { state: rec.state, body: text(rec.body) } });
    }
    if (p.kind === "respond") return send(x, p.response);
    if (p.kind !== "forward") return failure(x, edge, "internal");
    const fwd = p.forward;
    x.pricing = fwd.pricing || "";
    x.sign = fwd.sign || "";
    // A made-up request of the isolate's start (warm.mjs) never reads or
    // fills a cache: its answer is warmUpstream's stand-in.
    if (fwd.cache !== null && !x.warm) return cached(x, edge, fwd, fwd.cache, cache());
    if (fwd.booking !== null) return booked(x, edge, fwd, fwd.booking);
    if (fwd.rates && !x.warm) return rated(x, edge, fwd, fwd.rates, { forward, settle, cache: cache() });
    return settle(x, edge, await forward(x, edge, fwd));
  };
}

/**
 * answerOf asks the core for the client's answer to one upstream result.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {Forward} fwd
 * @param {UpstreamResult} upstream
 * @param {number} sentAt when a booking was sent (0 for reads)
 * @returns {Answered}
 */
function answerOf(x, edge, fwd, upstream, sentAt) {
  return edge.core.answer({ context: fwd.context, upstream, requestId: x.id,
    acceptLanguage: x.request.headers.get("accept-language"), now: Date.now(), sentAt });
}

/**
 * forward sends a read (retried as the core and the budget allow) or a
 * booking (once) and returns the core's answer.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {Forward} fwd
 * @param {number} [sentAt] when a booking is sent (its Retry-After after a lost answer counts from it)
 * @param {AbortSignal} [signal] the caller's abort (routes/rates.mjs): the call in flight ends, no retry follows
 * @param {{up?: UpstreamResult}} [last] receives the last attempt's upstream outcome (a read's flight shares it)
 * @returns {Promise<Answered>}
 */
async function forward(x, edge, fwd, sentAt = 0, signal = undefined, last = {}) {
  const backoff = edge.config.limits.readRetryBackoffMs;
  if (fwd.retryable) edge.retries.deposit();
  for (let i = 0; ; i++) {
    const up = last.up = await callUpstream(x, edge, { operation: fwd.operation, body: fwd.upstreamBody, signal });
    const a = answerOf(x, edge, fwd, up, sentAt);
    if (signal?.aborted || !(fwd.retryable && a.retry && i < backoff.length && edge.retries.withdraw())) return a;
    await sleep(backoff[i]);
  }
}

/**
 * settle sends an answer and does what it implies off the answer's path:
 * the watchlist (under waitUntil), the log's note.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {Answered} a
 * @param {Record<string, string>} [headers]
 * @returns {Response}
 */
function settle(x, edge, a, headers) {
  if (a.note !== "") x.detail = a.note;
  if (a.leak) x.note = "the upstream's answer carried the worker's credentials and was withheld";
  if (a.watch !== null) watch(x, edge, a.watch);
  if (a.response.status === 200 && a.response.class === "forwarded") {
    const d = data(x, edge, a.response.body, { ...a.response.headers, ...headers });
    // A string in, a string out (the core's normalized body is a string).
    return send(x, { ...a.response, body: /** @type {string} */ (d.body), headers: d.headers });
  }
  return send(x, a.response, headers);
}

/**
 * data is an operation's ok answer (relayed or cached) as the client asked
 * for it: with `Accept: ...; parcelgate=normalized` (@parcelgate/js's
 * Client) its data normalized by the core, so the browser never fetches
 * its decoder module; the caches keep the upstream's bytes either way.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {string | Uint8Array} body
 * @param {Record<string, string>} headers
 * @returns {{body: string | Uint8Array, headers: Record<string, string>}}
 */
function data(x, edge, body, headers) {
  /** @type {Record<string, string>} */
  // The shop's prices (x.pricing) name services in the shopper's language.
  const h = { ...headers, vary: x.pricing === "" ? "Accept" : "Accept, Accept-Language" };
  const wants = wantsNormalized(x.request.headers.get("accept"));
  // Rates with the shop's prices, and rates and drop points that carry
  // offers and points signed now for this request (x.sign), go through
  // the core raw or normalized.
  if (!wants && x.pricing === "" && x.sign === "") return { body, headers: h };
  const n = edge.core.normalize({ operation: x.op, body, keep: !wants, pricing: x.pricing, sign: x.sign, now: Date.now() });
  if (n.normalized) h["parcelgate-data"] = "normalized";
  return { body: n.body, headers: h };
}

/**
 * wantsNormalized reports whether an Accept header asks for normalized data.
 * @param {string | null} accept
 */
export function wantsNormalized(accept) {
  return accept !== null && accept.toLowerCase().replaceAll(" ", "").includes("parcelgate=normalized");
}

/**
 * watch puts a booked shipment on the watchlist; the booking's answer does
 * not wait for it, and a failure is logged.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {import("../core.mjs").WatchAdd} w
 */
function watch(x, edge, w) {
  const p = watchAdd({ env: x.env, list: { binding: WATCHLIST, name: edge.config.watchlistName },
    ref: w.dlvrRef, clientRef: w.clientRef, at: Date.now() }).then((r) => {
    if (!r.ok) logLine({ msg: "watchlist call failed", call: "add", error: r.detail });
  });
  x.exec.waitUntil(p);
}

/**
 * cached answers a cacheable read from the in-isolate tier, a flight under
 * way, the Cache API or, failing those, the upstream; an answer the core
 * calls cacheable is stored in both tiers.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {Forward} fwd
 * @param {{key: string, ttlSeconds: number}} c
 * @param {import("../types").CacheLike | undefined} shared
 * @returns {Promise<Response>}
 */
async function cached(x, edge, fwd, { key, ttlSeconds }, shared) {
  const hit = (/** @type {Uint8Array} */ body) => reply(x, { status: 200, ...data(x, edge, body, { "x-cache": "HIT" }) });
  const mem = edge.cache.get({ key, now: Date.now() });
  if (mem !== undefined) return hit(mem);
  /** @type {(l: Landed) => void} */
  let land = () => {};
  const landed = new Promise((r) => { land = r; });
  const f = edge.cache.flight({ key, load: () => /** @type {Promise<Landed>} */ (landed) });
  if (!f.lead) {
    const { ok, up } = await f.result;
    if (ok !== null) return hit(ok);
    // The call it waited for gave no ok answer: the same outcome answers
    // this request too, in its own language and id (a new call would wait
    // a whole timeout again, and every waiter would send one at once to an
    // upstream already failing); on its own only when there was no call.
    return settle(x, edge, up !== null ? answerOf(x, edge, fwd, up, 0) : await forward(x, edge, fwd), { "x-cache": "MISS" });
  }
  /** @type {Uint8Array | null} */
  let ok = null;
  /** @type {{up?: UpstreamResult}} */
  const last = {};
  try {
    const s = await sharedGet({ cache: shared, key });
    if (s !== undefined) {
      ok = s.body;
      edge.cache.put({ key, body: s.body, expires: s.expires });
      return hit(s.body);
    }
    const a = await forward(x, edge, fwd, 0, undefined, last);
    if (a.cacheable) {
      ok = encoder.encode(a.response.body);
      const now = Date.now();
      edge.cache.put({ key, body: ok, expires: now + ttlSeconds * 1000 });
      x.exec.waitUntil(sharedPut({ cache: shared, key, body: ok, ttlSeconds, now }));
    }
    return settle(x, edge, a, { "x-cache": "MISS" });
  } finally {
    land({ ok, up: ok === null ? last.up ?? null : null });
  }
}

/**
 * booked forwards a booking through its Bookings object: exactly once. The
 * record is taken (written pending) before anything is sent; the core says
 * what each state means (a stored answer, a conflict, 425 within the grace
 * after a lost answer, a lookup after it); the outcome is recorded before
 * the client hears, so a resend right after the answer finds it.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {Forward} fwd
 * @param {import("../core.mjs").BookingTicket} t
 * @returns {Promise<Response>}
 */
async function booked(x, edge, fwd, t) {
  const record = { binding: BOOKINGS, key: t.key };
  const lang = x.request.headers.get("accept-language");
  /** @type {BookingSend} */
  const sendIt = { context: fwd.context, ticket: t, operation: fwd.operation, upstreamBody: fwd.upstreamBody, requestId: x.id, acceptLanguage: lang };
  const b = await bookingBegin({ env: x.env, record, fingerprint: t.fingerprint, waitMs: t.waitMs, holdMs: t.holdMs,
    graceMs: edge.config.limits.bookingGraceMs, ttlMs: t.recordTtlMs, send: sendIt });
  if (!b.ok) {
    x.detail = "booking ledger: " + b.detail;
    return failure(x, edge, "ledger_unavailable");
  }
  if (b.state === "sent") {
    // The object booked it and recorded the outcome: one call.
    if (b.sent === undefined) return failure(x, edge, "internal");
    const r = /** @type {BookingForwarded} */ (b.sent.result);
    if (r.upstream.attempts > 0) {
      x.upstream.attempts += r.upstream.attempts;
      x.upstream.ms += r.upstream.ms;
      x.upstream.status = r.upstream.status;
      if (r.upstream.detail !== "") x.detail = r.upstream.detail;
    }
    if (!b.sent.holding) heldNoLonger(x, r.outcome);
    return answered(x, edge, r);
  }
  // The record is this request's (new, lost) or answered as it stands: the core decides, once.
  const r = await bookOnce(edge, { ...sendIt, state: b.state, stored: text(b.body), retryAfterMs: b.retryAfterMs ?? 0 }, {
    upstream: (operation, body) => callUpstream(x, edge, { operation, body }),
    sending: async () => {
      // Not there: it was never booked. The grace starts again from this send.
      const s = await bookingSending({ env: x.env, record, holder: b.holder });
      if (!s.ok) x.detail = "booking ledger: " + s.detail;
      return !s.ok ? "ledger_unavailable" : s.holding ? null : "booking_taken_over";
    },
  });
  if (r.finish !== null) {
    const f = await bookingFinish({ env: x.env, record, holder: b.holder, outcome: r.finish.outcome, body: r.finish.body, ttlMs: t.recordTtlMs });
    if (!f.ok) x.note = "booking ledger finish failed: " + f.detail;
    else if (!f.holding) heldNoLonger(x, r.finish.outcome);
  }
  if (r.failure !== null) return failure(x, edge, r.failure);
  return answered(x, edge, r);
}

/**
 * answered sends what bookOnce decided: the core's step, or its answer to
 * the one upstream call.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {{step: import("../core.mjs").StepRespond | null, answered: Answered | null}} r
 * @returns {Response}
 */
function answered(x, edge, r) {
  if (r.step !== null) {
    if (r.step.watch !== null) watch(x, edge, r.step.watch);
    return send(x, r.step.response);
  }
  if (r.answered === null) return failure(x, edge, "internal");
  return settle(x, edge, r.answered);
}

/**
 * heldNoLonger notes a finish refused because another attempt took the
 * record over (this one passed its hold): its outcome was not recorded.
 * Logged whatever LOG_REQUESTS says.
 * @param {Exchange} x
 * @param {string} outcome
 */
function heldNoLonger(x, outcome) {
  x.note = "booking ledger finish refused: this request no longer held the record";
  logLine({ msg: "booking finish by a request that no longer held the record", request_id: x.id, outcome });
}

/**
 * What a Bookings object needs to forward a new booking itself.
 * @typedef {object} BookingSend
 * @property {import("../core.mjs").AnswerContext} context
 * @property {import("../core.mjs").BookingTicket} ticket
 * @property {string} operation
 * @property {string} upstreamBody
 * @property {string} requestId
 * @property {string | null} acceptLanguage
 */

/**
 * What forwardBooking did, for the worker: the core's step when it
 * answered without sending, else its answer to the one upstream call.
 * @typedef {object} BookingForwarded
 * @property {import("../core.mjs").StepRespond | null} step
 * @property {Answered | null} answered
 * @property {string} outcome the ledger outcome recorded ("" for none)
 * @property {{attempts: number, ms: number, status: number, detail: string}} upstream
 */

/**
 * What bookOnce needs: the booking (BookingSend) and what begin said of its record.
 * @typedef {BookingSend & {state: import("../core.mjs").BookingInput["state"], stored: string | null, retryAfterMs: number}} BookingTurn
 */

/**
 * What bookOnce decided: the core's step when it answered without sending,
 * else its answer to the one upstream call; what to finish the record with
 * (null: nothing); a failure to answer with instead (nothing was sent).
 * @typedef {object} BookingDone
 * @property {import("../core.mjs").StepRespond | null} step
 * @property {Answered | null} answered
 * @property {import("../core.mjs").LedgerFinish | null} finish
 * @property {import("../core.mjs").FailureKind | null} failure
 */

/**
 * bookOnce is the one send-and-answer sequence of a booking, in the worker
 * (booked) and in the Bookings object that took a new record
 * (forwardBooking): the core's step for what begin said, its lookup when it
 * asks for one (then sending: the record must still be this turn's), one
 * upstream call, the core's answer. Recording the outcome is the caller's.
 * @param {Edge} edge
 * @param {BookingTurn} q
 * @param {{upstream: (operation: string, body: string) => Promise<UpstreamResult>,
 *   sending: () => Promise<import("../core.mjs").FailureKind | null>}} io the upstream call; sending answers null when the turn still holds
 * @returns {Promise<BookingDone>}
 */
async function bookOnce(edge, q, io) {
  const { context, ticket, requestId, acceptLanguage } = q;
  let step = edge.core.booking({ context, ticket, state: q.state, stored: q.stored, retryAfterMs: q.retryAfterMs, requestId, acceptLanguage, now: Date.now() });
  let looked = false;
  if (step.kind === "lookup") {
    looked = true;
    const up = await io.upstream(step.operation, step.lookupBody);
    step = edge.core.lookedUp({ context, ticket, upstreamBody: q.upstreamBody, upstream: up, requestId, acceptLanguage, now: Date.now() });
  }
  if (step.kind === "respond") return { step, answered: null, finish: step.finish, failure: null };
  if (step.kind !== "forward") return { step: null, answered: null, finish: { outcome: "unsent", body: null }, failure: "internal" };
  if (looked) {
    const f = await io.sending();
    if (f !== null) return { step: null, answered: null, finish: null, failure: f };
  }
  const sentAt = Date.now();
  const up = await io.upstream(q.operation, q.upstreamBody);
  const a = edge.core.answer({ context, upstream: up, requestId, acceptLanguage, now: Date.now(), sentAt });
  return { step: null, answered: a, finish: { outcome: a.outcome, body: a.outcome === "ok" ? a.response.body : null }, failure: null };
}

/**
 * forwardBooking books a new record's booking once, inside the Bookings
 * object that took the record (one round trip for the worker): bookOnce,
 * with the object's isolate's edge (wired by entry.mjs).
 * @param {Edge} edge the object's isolate's edge
 * @param {BookingSend} q
 * @returns {Promise<{finish: import("../core.mjs").LedgerFinish | null, result: BookingForwarded}>}
 */
export async function forwardBooking(edge, q) {
  const upstream = { attempts: 0, ms: 0, status: 0, detail: "" };
  const r = await bookOnce(edge, { ...q, state: "new", stored: null, retryAfterMs: 0 }, {
    upstream: async (operation, body) => {
      const t0 = Date.now();
      const up = await serviceCall(edge, operation, body, q.requestId);
      Object.assign(upstream, { attempts: upstream.attempts + 1, ms: upstream.ms + Date.now() - t0, status: up.status,
        detail: up.failure !== null ? up.detail : "" });
      return { status: up.status, body: up.body, failure: up.failure };
    },
    // A new record is never looked up: nothing is sent.
    sending: async () => "internal",
  });
  const finish = r.failure !== null ? { outcome: /** @type {const} */ ("unsent"), body: null } : r.finish;
  return { finish, result: { step: r.step, answered: r.answered, outcome: finish?.outcome ?? "", upstream } };
}
