// @ts-check
/** @import * as C from "../core.d.mts" */
// A stand-in for the edge core in the JavaScript's unit tests: simple,
// visible rules (not the real decisions, which are Go's and tested there),
// and a record of every call, so a test sees what the JavaScript asked and
// did with the answers.

/**
 * The Bookings ledger's decisions are never faked: the real module's,
 * which testing/ledger.mjs loads and hands here (useLedger).
 * @type {import("../platform/bookings.mjs").LedgerCore | null}
 */
let ledger = null;

/** @param {import("../platform/bookings.mjs").LedgerCore} core */
export function useLedger(core) {
  ledger = core;
}

function ledgerCore() {
  if (ledger === null) throw new Error("fake core: the ledger's decisions are the real module's: import testing/ledger.mjs");
  return ledger;
}

/** @param {unknown} o */
const enc = (o) => JSON.stringify(o);
/**
 * A body the JavaScript passes (UpstreamResult.body, RequestFacts.body) as text: the core takes
 * a string or bytes, and null for none.
 * @param {string | Uint8Array | null} b
 */
const asText = (b) => (b === null ? "" : typeof b === "string" ? b : new TextDecoder().decode(b));
/** @type {(status: number, body: string, cls: string, headers?: Record<string, string>) => C.CoreResponse} */
const resp = (status, body, cls, headers = {}) => ({ status, headers: { "content-type": "application/json; charset=utf-8", ...headers }, body, class: cls });
/** @type {(status: number, cls: string, msg: string, requestId: string, headers?: Record<string, string>) => C.CoreResponse} */
const fail = (status, cls, msg, requestId, headers) =>
  resp(status, enc({ status: "err", data: { errorCode: 1000 + status, errorMessage: msg, source: "edge", errorClass: cls, requestId } }), cls, headers);

export const CACHEABLE = new Set(["get-client-services"]);

/**
 * @param {Partial<C.Configuration>} [over]
 * @returns {C.Configuration}
 */
export function fakeConfig(over = {}) {
  return {
    errors: [],
    upstream: { kind: "remote", baseUrl: "https://up.example/v1", authorization: "Basic dTpr" },
    limits: {
      maxBodyBytes: 256, upstreamTimeoutMs: 1000, readRetryBackoffMs: [1, 2], retryShare: 0.1, retryBurst: 10,
      maxUpstreamBodyBytes: 1 << 20, cacheMaxBytes: 1 << 20, cacheMaxEntries: 100, requestDeadlineMs: 5000,
      bookingWaitMs: 100, bookingHoldMs: 1000, bookingRecordTtlMs: 60000, bookingGraceMs: 0, bookingsLegacyUntilMs: 0, rateLimitRetryAfterSeconds: 60,
    },
    allowedOrigins: ["https://shop.example"],
    operations: [
      { name: "get-client-services", methods: ["GET", "POST"], public: true, books: false },
      { name: "get-collection-cutoff-hour", methods: ["GET", "POST"], public: true, books: false },
      { name: "get-shipment", methods: ["GET", "POST"], public: false, books: false },
      { name: "new-shipment", methods: ["POST"], public: false, books: true },
    ],
    exactlyOnce: true, logRequests: "errors", faults: false, demo: false,
    webhooks: null, watchlistName: "watch\nu\nhttps://up.example/v1",
    ...over,
  };
}

/** @implements {C.EdgeCore} */
export class FakeCore {
  /** @param {C.Configuration} [config] */
  constructor(config = fakeConfig()) {
    this.config = config;
    /** @type {[string, unknown][]} */
    this.calls = [];
    this.watch = new FakeWatch(this);
  }
  /** @param {string} method @param {unknown} input */
  log(method, input) { this.calls.push([method, input]); }
  methods() { return this.calls.map((c) => c[0]); }
  /** @param {C.ConfigureInput} input @returns {C.Configuration} */
  configure(input) { this.log("configure", input); return this.config; }
  /** @param {C.IsMasterInput} input @returns {C.IsMasterResult} */
  isMaster({ authorization }) { return { master: authorization === "Bearer master" }; }
  /** @param {C.FailureInput} i @returns {C.CoreResponse} */
  failure(i) {
    this.log("failure", i);
    const status = { not_found: 404, method_not_allowed: 405, origin_forbidden: 403, rate_limited: 429, timeout: 504, ledger_unavailable: 503, booking_taken_over: 503, encoded_path: 400, internal: 500 }[i.kind];
    /** @type {Record<string, string>} */
    const headers = i.kind === "rate_limited" ? { "retry-after": "60" } : i.kind === "method_not_allowed" ? { allow: i.allow + ", OPTIONS" } : {};
    return fail(status, i.kind, i.kind + " " + (i.origin || i.path), i.requestId, headers);
  }
  /** @param {C.PrepareInput} i @returns {C.Prepared} */
  prepare(i) {
    this.log("prepare", i);
    const op = this.config.operations.find((o) => o.name === i.operation);
    if (op === undefined) return { kind: "respond", caller: "unknown", rateLimit: null, response: fail(404, "unknown_operation", "unknown operation", i.requestId) };
    if (i.bodyTooLarge) return { kind: "respond", caller: "public", rateLimit: null, response: fail(413, "too_large", "too large", i.requestId) };
    const master = this.isMaster(i).master;
    if (!op.public && !master && i.authorization !== "Bearer scoped") return { kind: "respond", caller: "unknown", rateLimit: null, response: fail(401, "unauthorized", "token", i.requestId) };
    /** @type {C.RateLimit | null} */
    const rateLimit = master ? null : i.authorization === "Bearer scoped" ? { binding: "RATE_LIMIT_TOKENS", key: "token:abc" } : { binding: "RATE_LIMIT_PUBLIC", key: "ip:" + i.clientIp };
    if (i.authorization === "Bearer scoped" && i.booked === undefined && op.name === "get-shipment") return { kind: "peek", caller: "scoped", rateLimit, bookingKey: "u\nbase\nnew-shipment\nORDER-1" };
    if (i.booked !== undefined && i.booked.state !== "done") return { kind: "respond", caller: "scoped", rateLimit, response: fail(403, "forbidden", "bound", i.requestId) };
    const input = i.method === "GET" ? i.query ?? "" : asText(i.body);
    const body = input.split("&").filter(Boolean).map((kv) => kv.trim()).sort().join("&").replaceAll("+", "");
    const ref = /shipping_client_ref=([^&]*)/.exec(body)?.[1] ?? "";
    return {
      kind: "forward", caller: master ? "master" : "public", rateLimit,
      forward: {
        operation: op.name, upstreamBody: body, retryable: !op.books,
        cache: CACHEABLE.has(op.name) ? { key: op.name + "?" + body, ttlSeconds: 60 } : null,
        booking: op.books && this.config.exactlyOnce ? { key: "u\nbase\n" + op.name + "\n" + ref, fingerprint: "fp:" + body, refField: "shipping_client_ref", ref, waitMs: 100, holdMs: 1000, recordTtlMs: 60000 } : null,
        pricing: "",
        sign: "",
        rates: null,
        context: { operation: op.name, clientRef: ref, ledger: op.books && this.config.exactlyOnce },
      },
    };
  }
  /** @param {C.AnswerInput} i @returns {C.Answered} */
  answer(i) {
    this.log("answer", i);
    const u = i.upstream;
    const base = { cacheable: false, retry: false, leak: false, watch: null, note: "" };
    if (u.failure === "timeout") return { ...base, outcome: "lost", response: fail(504, "upstream_timeout", "timeout", i.requestId) };
    if (u.failure !== null) return { ...base, outcome: "lost", retry: true, note: "cause: " + u.failure, response: fail(502, "upstream_unreachable", "unreachable", i.requestId) };
    const text = asText(u.body);
    if (u.status >= 500) return { ...base, outcome: "lost", retry: true, response: fail(502, "upstream_error", "5xx", i.requestId) };
    if (text.includes("SECRET")) return { ...base, outcome: "lost", leak: true, response: fail(502, "upstream_leak", "withheld", i.requestId) };
    const env = JSON.parse(text);
    if (env.status === "ok") {
      const watch = i.context.operation === "new-shipment" ? { dlvrRef: env.data.shipping_dlvr_ref, clientRef: i.context.clientRef } : null;
      return { ...base, outcome: "ok", cacheable: u.status === 200, watch, response: resp(200, text, "forwarded") };
    }
    return { ...base, outcome: "refused", response: resp(u.status, text, "refused") };
  }
  /** @param {C.BookingInput} i @returns {C.Step} */
  booking(i) {
    this.log("booking", i);
    switch (i.state) {
      case "new": return { kind: "forward", sending: false };
      case "done": return { kind: "respond", response: resp(200, i.stored ?? "", "replayed", { "idempotent-replayed": "true" }), finish: null, watch: null };
      case "conflict": return { kind: "respond", response: fail(409, "booking_conflict", "conflict", i.requestId), finish: null, watch: null };
      case "busy": return { kind: "respond", response: fail(503, "booking_in_progress", "busy", i.requestId, { "retry-after": "2" }), finish: null, watch: null };
      case "unknown": return { kind: "respond", response: fail(425, "booking_unconfirmed", "wait", i.requestId, { "retry-after": String(Math.ceil((i.retryAfterMs ?? 0) / 1000)) }), finish: null, watch: null };
      default: return { kind: "lookup", operation: "get-shipments", lookupBody: "filter_shipping_client_ref=" + i.ticket.ref + "&n_items=50" };
    }
  }
  /** @param {C.LookedUpInput} i @returns {C.Step} */
  lookedUp(i) {
    this.log("lookedUp", i);
    const text = asText(i.upstream.body);
    if (i.upstream.failure !== null || i.upstream.status >= 500) return { kind: "respond", response: fail(502, "upstream_unreachable", "lookup failed", i.requestId), finish: { outcome: "unsent", body: null }, watch: null };
    if (text.includes("OTHER-DATA")) return { kind: "respond", response: fail(409, "booking_mismatch", "not this booking", i.requestId), finish: { outcome: "unsent", body: null }, watch: null };
    if (text.includes(i.ticket.ref)) {
      const body = enc({ status: "ok", data: { shipping_dlvr_ref: "FOUND", shipping_client_ref: i.ticket.ref } });
      return { kind: "respond", response: resp(200, body, "replayed", { "idempotent-replayed": "true" }), finish: { outcome: "ok", body }, watch: { dlvrRef: "FOUND", clientRef: i.ticket.ref } };
    }
    return { kind: "forward", sending: true };
  }
  /** @param {C.EndpointInput} i @returns {C.EndpointAnswer} */
  tokens(i) {
    this.log("tokens", i);
    if (!this.isMaster(i).master) return { rateLimit: { binding: "RATE_LIMIT_PUBLIC", key: "ip:" + i.clientIp }, response: fail(401, "unauthorized", "master", i.requestId) };
    return { rateLimit: null, response: resp(200, enc({ status: "ok", data: { token: "pgt1.x" } }), "minted") };
  }
  /** @param {C.EndpointInput} i @returns {C.EndpointAnswer} */
  demoToken(i) {
    this.log("demoToken", i);
    return { rateLimit: { binding: "RATE_LIMIT_PUBLIC", key: "ip:" + i.clientIp }, response: resp(200, enc({ status: "ok", data: { token: "pgt1.demo" } }), "minted") };
  }
  /** @param {C.HealthzInput} i @returns {C.CoreResponse} */
  healthz(i) {
    this.log("healthz", i);
    return resp(200, enc({ status: "ok", data: { service: "parcelgate-edge", instance: i.instance, rate_limits: i.rateLimits, cache: i.cache, webhooks: i.webhooks } }), "healthz");
  }
  /** @param {C.FaultInput} i @returns {C.CoreResponse} */
  fault(i) {
    this.log("fault", i);
    if (i.kind === "trap") return fail(500, "internal", "trapped", i.requestId); // the wrapper's answer to a trap
    return fail(404, "not_found", "unknown fault", i.requestId);
  }
  memoryBytes() { return 131072; }
  /** The fake never renews: it has no linear memory. */
  get renewals() { return 0; }
  /** @param {C.SignWebhookInput} input @returns {C.SignWebhookResult} */
  signWebhook({ body, now }) { return { signature: "t=" + Math.floor(now / 1000) + ",v1=" + body.length }; }
  /** @param {C.NormalizeInput} i @returns {C.NormalizeResult} */
  normalize(i) {
    this.log("normalize", i);
    return { body: typeof i.body === "string" ? i.body : new TextDecoder().decode(i.body), normalized: false };
  }
  // Rates with a deadline is routes/rates.test.mjs's: the fake's forwards carry no plan, and nothing is rescued.
  /** @param {C.RatesInput} i @returns {C.RatesResult} */
  rates(i) { this.log("rates", i); return { source: "", response: null }; }
  version() { return { version: "fake" }; }
  // Tokens with an explicit key are the shared vectors' (core.test.mjs, against the real module): the fake refuses.
  /** @param {C.MintInput} i @returns {C.MintResult} */
  mint(i) { this.log("mint", i); return { token: null, expiresAt: null, grant: null, error: { field: "key", problem: "the fake core mints no tokens" } }; }
  /** @param {C.VerifyInput} i @returns {C.VerifyResult} */
  verify(i) { this.log("verify", i); return { claims: null, error: "malformed" }; }
  // The Bookings ledger's decisions: the real module's (useLedger).
  /** @param {C.LedgerBeginInput} i @returns {C.LedgerBegun} */
  ledgerBegin(i) { return ledgerCore().ledgerBegin(i); }
  /** @param {C.LedgerTurnInput} i @returns {C.LedgerWritten} */
  ledgerSending(i) { return ledgerCore().ledgerSending(i); }
  /** @param {C.LedgerTurnInput} i @returns {C.LedgerWritten} */
  ledgerFinish(i) { return ledgerCore().ledgerFinish(i); }
  /** @param {C.LedgerPeekInput} i @returns {C.LedgerPeeked} */
  ledgerPeek(i) { return ledgerCore().ledgerPeek(i); }
  /** @param {C.LedgerTakeOverInput} i @returns {C.LedgerTakenOver} */
  ledgerTakeOver(i) { return ledgerCore().ledgerTakeOver(i); }
  /** @param {C.LedgerSweepInput} i @returns {C.LedgerSwept} */
  ledgerSweep(i) { return ledgerCore().ledgerSweep(i); }
}

/**
 * FakeWatch keeps a shipment's record as JSON: {queue: [{id, tries}], code,
 * final}; a poll's answer lists codes ({"status":"ok","data":{"codes":[...]}}).
 */
/** @implements {C.WatchCore} */
class FakeWatch {
  /** @param {FakeCore} core */
  constructor(core) { this.core = core; }
  /** @param {C.WatchOpenInput} input @returns {C.WatchOpened} */
  open({ row, runAt }) {
    this.core.log("watch.open", row.ref);
    let rec = { queue: [], codes: [], final: false, checkAt: 0 };
    let unreadable = false;
    if (row.state !== "") {
      try { rec = JSON.parse(row.state); } catch { unreadable = true; }
    }
    return { record: enc(rec), pollDue: !rec.final && rec.checkAt <= runAt, pollBody: "dlvr_ref=" + row.ref, unreadable };
  }
  /** @param {C.WatchNextInput} input @returns {C.WatchNextResult} */
  nextDelivery({ record }) {
    const rec = JSON.parse(record);
    const q = rec.queue[0];
    if (q === undefined || q.wait) return { event: null };
    const body = enc({ id: q.id, code: q.code });
    return { event: { id: q.id, body, signature: "sig:" + q.id } };
  }
  /** @param {C.WatchSentInput} input @returns {C.WatchSentResult} */
  delivered({ record, eventId, ok }) {
    this.core.log("watch.delivered", eventId + (ok ? " ok" : " failed"));
    const rec = JSON.parse(record);
    const q = rec.queue[0];
    if (ok) { rec.queue.shift(); return { record: enc(rec), dropped: false }; }
    q.tries = (q.tries ?? 0) + 1;
    if (q.tries >= 2) { rec.queue.shift(); return { record: enc(rec), dropped: true }; }
    q.wait = true;
    return { record: enc(rec), dropped: false };
  }
  /** @param {C.WatchTrackedInput} input @returns {C.WatchTrackedResult} */
  tracked({ record, row, upstream, runAt }) {
    this.core.log("watch.tracked", row.ref);
    const rec = JSON.parse(record);
    rec.checkAt = runAt + 600000;
    if (upstream.failure !== null || upstream.status !== 200) return { record: enc(rec), changes: 0, dropped: 0, error: "upstream unreachable" };
    const codes = JSON.parse(asText(upstream.body)).data.codes;
    let changes = 0;
    for (const c of codes.slice(rec.codes.length)) {
      rec.queue.push({ id: row.ref + ":" + c, code: c });
      changes++;
      if (c === "11") rec.final = true;
    }
    rec.codes = codes;
    return { record: enc(rec), changes, dropped: 0, error: null };
  }
  /** @param {C.WatchCloseInput} input @returns {C.WatchClosed} */
  close({ record, row, runAt, touched, deferred }) {
    const rec = JSON.parse(record);
    if (!touched) return { row, remove: false, finished: false, expired: false };
    const remove = rec.final && rec.queue.length === 0;
    const next = deferred ? row.next_at : rec.queue.length > 0 ? runAt + 60000 : rec.checkAt;
    return { row: { ...row, state: enc(rec), pending: rec.queue.length, next_at: next }, remove, finished: remove, expired: false };
  }
}
