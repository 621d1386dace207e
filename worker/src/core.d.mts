// The edge core's JavaScript interface: the contract between the edge
// worker's JavaScript (worker/src/*.mjs: routing, CORS, request ids, logs,
// fetch with Basic auth, the caches, rate-limit bindings, the Bookings and
// Watchlist Durable Objects, the Cron handler) and the Go core compiled by
// TinyGo (build/worker/core.wasm, built from worker/core; see
// worker/README.md, "The edge core").
//
// The split: every DECISION is Go (what a request means, whether it is
// allowed, what is forwarded and how, what the client is answered, in its
// language, what a booking record becomes, what the watcher sends); every
// I/O and platform verb is JavaScript. Each method below is one crossing
// into the module (one message in, one out), synchronous, and never
// throws for bad input: bad input is an answer (a 4xx response).
//
// Conventions:
// - `now`, `runAt` and every `...At` are Unix milliseconds; durations say
//   their unit in their name (`...Ms`, `...Seconds`).
// - `requestId` is the worker's id of the request (X-Request-Id): it goes
//   into every error body the core writes.
// - `acceptLanguage` is the request's Accept-Language header (null when
//   absent): error messages are in that language (en, es, pt, fr, de, it,
//   nl; English when none matches). Codes, fields and classes never change.
// - Bodies come in as a string or bytes (UTF-8) and go out as strings.
// - A response's `headers` are the ones the decision implies (Content-Type,
//   Allow, WWW-Authenticate, Retry-After, Idempotent-Replayed); the JS adds
//   its own (X-Request-Id, CORS, Cache-Control: no-store, nosniff, Vary,
//   Server-Timing, X-Cache).
// - A trap inside the module (a Go panic: TinyGo has no recover on wasm) is
//   caught by the wrapper: that call returns the 500 envelope a `failure`
//   of kind "internal" gives, the module is instantiated afresh (about a
//   millisecond) and configured again with the last `configure` input;
//   other calls are not affected. `onTrap` is told. Per method, a trapped
//   call returns: prepare {kind: "respond", caller: "unknown", rateLimit:
//   null, response}; answer {response, outcome: "lost", cacheable: false,
//   retry: false, leak: false, watch: null, note: "trap"} (a booking's
//   answer that trapped may have booked); booking {kind: "respond",
//   response, finish} with finish {outcome: "refused"} for state new,
//   {outcome: "unsent"} for lost (that earlier booking may exist), null
//   otherwise (nothing was sent by this attempt); lookedUp
//   {kind: "respond", response, finish: {outcome: "unsent"}}; tokens and
//   demoToken {rateLimit: null, response}; healthz, failure and fault the
//   response; configure, isMaster, signWebhook, mint, verify, version and
//   the watch calls rethrow the RuntimeError (no request to answer).

/** Creates the core from the compiled module (wrangler: `import core from './core.wasm'`). */
export function createCore(module: WebAssembly.Module, options?: CoreOptions): Promise<EdgeCore>;
/** createCore without the promise, for the entry module's top level (the isolate's start: warm.mjs). */
export function newCore(module: WebAssembly.Module, options?: CoreOptions): EdgeCore;

export interface CoreOptions {
  /** Called after a trap was answered and the module replaced (for the log line). */
  onTrap?: (info: TrapInfo) => void;
}

export interface TrapInfo {
  /** The method that trapped ("prepare", "answer", ...). */
  method: string;
  /** The RuntimeError's message ("unreachable", ...). */
  message: string;
  /** Instances created so far, this one included. */
  instances: number;
}

export interface EdgeCore {
  /** Reads the environment once per isolate (and again after a trap, by the wrapper). */
  configure(input: ConfigureInput): Configuration;
  /** Decides an operation call (/v1/<operation>, any method but OPTIONS). */
  prepare(input: PrepareInput): Prepared;
  /** Decides the client's answer from the upstream's (or from its failure). */
  answer(input: AnswerInput): Answered;
  /** Decides a booking from its ledger record (Bookings Durable Object `begin`). */
  booking(input: BookingInput): BookingStep;
  /** Decides a booking whose earlier answer was lost, from the upstream's get-shipments answer. */
  lookedUp(input: LookedUpInput): LookedUpStep;
  /** POST /tokens: mints a scoped token for the shop's server (master token). */
  tokens(input: EndpointInput): EndpointAnswer;
  /** GET|POST /demo/token: a demo token (only while `Configuration.demo`). */
  demoToken(input: EndpointInput): EndpointAnswer;
  /** GET /healthz. */
  healthz(input: HealthzInput): CoreResponse;
  /** Whether an Authorization header carries the master PROXY_TOKEN (constant time). */
  isMaster(authorization: string | null): boolean;
  /** The edge's error envelope for failures the JavaScript detects, in the client's language. */
  failure(input: FailureInput): CoreResponse;
  /** Signs a webhook body with the configured secrets: the Parcelgate-Signature header value. */
  signWebhook(input: { body: string; now: number }): string;
  /** The tracking watcher, one leased shipment at a time (see WatchRow). */
  watch: WatchCore;
  /** Scoped tokens with an explicit key (the shared vectors, testdata/tokens.json; worker/tokens in Go). */
  mint(input: MintInput): MintResult;
  verify(input: VerifyInput): VerifyResult;
  /** /__faults/trap (FAULT_INJECTION only): traps inside the module, to test the recovery. Otherwise a 404 answer. */
  fault(input: { kind: string; requestId: string }): CoreResponse;
  /**
   * An operation's ok answer (relayed or cached: the caches keep the upstream's bytes) with its data as
   * the core's decoder normalizes it, for a client that sent `Accept: ...; parcelgate=normalized`
   * (@parcelgate/js's Client). `normalized: false`: data of the wrong shape, the body as received.
   */
  normalize(input: NormalizeInput): NormalizeResult;
  /** The module's build (version of the wire format and of the Go sources). */
  version(): string;
  /** The current module instance's linear memory in bytes (/healthz's instance.memory_bytes; `make bench` reads it). */
  memoryBytes(): number;
}

export interface NormalizeInput {
  operation: string;
  /** The ok envelope as the upstream sent it. */
  body: string | Uint8Array;
  /** Leave the data as received (only sign it): a client that did not ask for normalized data. */
  keep?: boolean;
  /** Forward.sign of the request: every service gets a signed `offer` (get-shipments-rates), every drop
   *  point a signed `point` (get-drop-points), expiring OFFER_TTL_SECONDS after `now`. "" signs nothing. */
  sign?: string;
  /** Date.now() (ms): the offers' expiry counts from it. */
  now?: number;
}

export interface NormalizeResult {
  body: string;
  /** The answer then carries `Parcelgate-Data: normalized`. */
  normalized: boolean;
}

// ---- configure ------------------------------------------------------------

export interface ConfigureInput {
  /** The worker's string variables and secrets (non-strings, i.e. bindings, are ignored). */
  vars: Record<string, unknown>;
  /** Which bindings the platform has: problems the environment alone cannot tell. */
  bindings: {
    /** BOOKINGS Durable Object (exactly-once bookings). */
    bookings: boolean;
    /** WATCHLIST Durable Object (tracking webhooks). */
    watchlist: boolean;
    /** A way to reach the sandbox (the SANDBOX service binding) for UPSTREAM_BASE_URL=sandbox. */
    sandbox: boolean;
    /** RATE_LIMIT_ANONYMOUS is bound: requests without a client address are limited apart (absent: false). */
    rateLimitAnonymous?: boolean;
  };
}

export interface Configuration {
  /** Every problem found; non-empty: operations, /tokens and /healthz answer 500 (the core does it). */
  errors: ConfigProblem[];
  upstream: {
    /** "remote": fetch `baseUrl`; "sandbox": the SANDBOX service binding, at `baseUrl` (never leaves the account). */
    kind: 'remote' | 'sandbox';
    /** Ends in /v1, no trailing slash; operations are POSTed to `${baseUrl}/${operation}`. */
    baseUrl: string;
    /** The upstream's Authorization header value ("Basic ..."); never logged, never sent to a client. */
    authorization: string;
  };
  limits: Limits;
  /** Normalized origins (scheme://host[:port]) or "*"; compare with the request's Origin as sent. */
  allowedOrigins: string[];
  /** Operations, in catalog order: what routing and preflight need. */
  operations: RouteInfo[];
  /** Bookings go through the BOOKINGS ledger. */
  exactlyOnce: boolean;
  logRequests: 'errors' | 'all' | 'off';
  /** /__faults/* exists (tests). */
  faults: boolean;
  /** /demo/token exists (sandbox upstream). */
  demo: boolean;
  /** null: WEBHOOK_URL unset (no watching, no cost). */
  webhooks: WebhookSettings | null;
  /** Durable Object name of the watchlist of this (API user, upstream). */
  watchlistName: string;
}

export interface ConfigProblem {
  /** The variable or binding ("API_KEY", "BOOKINGS"). */
  variable: string;
  /** What is wrong and what to do, in English (an operator's message). */
  problem: string;
}

export interface Limits {
  /** Bytes of a body or query; above it pass `bodyTooLarge` (the core answers 413 after auth). */
  maxBodyBytes: number;
  /** Per upstream attempt. */
  upstreamTimeoutMs: number;
  /** A read's retries: wait these, one per retry, while `Answered.retry` and the retry budget allow. */
  readRetryBackoffMs: number[];
  /** Retry budget: each read deposits `retryShare`, a retry withdraws 1, at most `retryBurst` saved. */
  retryShare: number;
  retryBurst: number;
  /** Bytes read of an upstream answer at most; more is `failure: "too_large"`. */
  maxUpstreamBodyBytes: number;
  /** The in-isolate cache: bodies' bytes and entries at most (a body over a quarter of the bytes is not kept). */
  cacheMaxBytes: number;
  cacheMaxEntries: number;
  /** The whole request at most (every attempt, backoff, a margin): then `failure({kind: "timeout"})`. */
  requestDeadlineMs: number;
  /** Bookings ledger: how long `begin` waits for a holder, how long a holder keeps the record, records' lifetime. */
  bookingWaitMs: number;
  bookingHoldMs: number;
  bookingRecordTtlMs: number;
  /** BOOKING_GRACE_SECONDS: after a lost answer, resends within it send nothing. */
  bookingGraceMs: number;
  /** BOOKINGS_LEGACY_UNTIL: until when (Unix ms, exclusive) the Bookings objects also read the earlier layout's records; 0: never. */
  bookingsLegacyUntilMs: number;
  /** Seconds of Retry-After on a 429. */
  rateLimitRetryAfterSeconds: number;
}

export interface RouteInfo {
  name: string;
  /** "GET", "POST" (reads) or "POST" (bookings); preflight adds OPTIONS. */
  methods: string[];
  /** Callable without a token (PUBLIC_OPERATIONS). */
  public: boolean;
  /** new-shipment, new-collection. */
  books: boolean;
}

export interface WebhookSettings {
  url: string;
  /** Subrequests one run may make (lease and commits included). */
  budget: number;
  checkEveryMs: number;
  retryForMs: number;
  maxAgeMs: number;
  /** Bounds of one run: lease hold, shipments per commit, shipments at once, one delivery's timeout. */
  leaseMs: number;
  commitEvery: number;
  concurrency: number;
  deliveryTimeoutMs: number;
  runTimeoutMs: number;
  userAgent: string;
}

// ---- requests ---------------------------------------------------------------

/** What the core needs of a request; the JS reads the body bounded by `limits.maxBodyBytes`. */
export interface RequestFacts {
  method: string;
  /** The raw query without "?" (not decoded); null when the URL has no "?". */
  query: string | null;
  /** The body of a POST (null: none, or not read because it was too large). */
  body: string | Uint8Array | null;
  /** Content-Length or the bytes read passed `limits.maxBodyBytes`. */
  bodyTooLarge: boolean;
  contentType: string | null;
  acceptLanguage: string | null;
  authorization: string | null;
  /** CF-Connecting-IP (else the peer's address): the key of the public rate limit. */
  clientIp: string;
  requestId: string;
  now: number;
}

export interface PrepareInput extends RequestFacts {
  /** The path after /v1/ (an unknown name is answered 404 by the core). */
  operation: string;
  /** The answer to a `peek` step; absent on the first call. */
  booked?: PeekedRecord;
}

/** The ledger's record read without taking it (Bookings `peek`). */
export interface PeekedRecord {
  /** "" when there is none. */
  state: 'done' | 'lost' | '';
  /** The stored answer when done. */
  body: string | null;
}

/** A rate limit to apply before anything else of the step: limited means `failure({kind: "rate_limited"})`. */
export interface RateLimit {
  binding: 'RATE_LIMIT_PUBLIC' | 'RATE_LIMIT_TOKENS' | 'RATE_LIMIT_ANONYMOUS';
  key: string;
}

export type Prepared = PreparedRespond | PreparedPeek | PreparedForward;

interface PreparedBase {
  /** Who called, for the log line. */
  caller: 'public' | 'master' | 'scoped' | 'demo' | 'unknown';
  /** Apply first; null: not limited (the master token, or refused before the limit). */
  rateLimit: RateLimit | null;
}

/** Answer now (refused, invalid, misconfigured, ...). */
export interface PreparedRespond extends PreparedBase {
  kind: 'respond';
  response: CoreResponse;
}

/**
 * A scoped token bound to a shipping_client_ref reads the shipment booked
 * with it: read the ledger record `bookingKey` (Bookings `peek`) and call
 * `prepare` again with the same input plus `booked`.
 */
export interface PreparedPeek extends PreparedBase {
  kind: 'peek';
  bookingKey: string;
}

/** Send upstream. */
export interface PreparedForward extends PreparedBase {
  kind: 'forward';
  forward: Forward;
}

export interface Forward {
  operation: string;
  /** POST it to `${upstream.baseUrl}/${operation}` as application/x-www-form-urlencoded, with
   *  Authorization: upstream.authorization, Accept: application/json, User-Agent: parcelgate-edge/1,
   *  X-Request-Id; nothing of the client's. Decoded, validated, normalized (phones), canonical order. */
  upstreamBody: string;
  /** A read: `Answered.retry` may be honoured. Bookings are never resent. */
  retryable: boolean;
  /** A cacheable read: look up `key` (in-isolate, then Cache API); store an answer that is `cacheable`. */
  cache: { key: string; ttlSeconds: number } | null;
  /** Exactly-once: `begin(key, fingerprint, waitMs, holdMs)` on the Bookings object, then `booking()`. */
  booking: BookingTicket | null;
  /** What `answer` needs back about this request. */
  context: AnswerContext;
  /** The basis of the answer's offers (get-shipments-rates) or points (get-drop-points): pass it to
   *  `normalize` with the client's body; "" for other operations or without TOKEN_SIGNING_KEY. */
  sign: string;
}

export interface BookingTicket {
  key: string;
  /** Hex SHA-256 of upstreamBody. */
  fingerprint: string;
  /** "shipping_client_ref" or "collection_client_ref". */
  refField: string;
  ref: string;
  waitMs: number;
  holdMs: number;
  recordTtlMs: number;
}

/** Echoed into `answer`, `booking` and `lookedUp` unchanged. */
export interface AnswerContext {
  operation: string;
  /** The client reference of a booking ("" for reads). */
  clientRef: string;
  /** The booking goes through the ledger (the hint and `retryable` depend on it). */
  ledger: boolean;
}

/** A response to send: status, the core's headers, a JSON body. */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Short machine-readable kind for the log line ("invalid_request", "forwarded", ...). */
  class: string;
  /** For the log line only, never sent: what a generic answer left out (a configuration error's variables). */
  detail?: string;
}

// ---- upstream answers ---------------------------------------------------------

/** What came back from one upstream call (or did not). */
export interface UpstreamResult {
  /** The HTTP status (0: no answer). */
  status: number;
  /** The body read (null when failure is set). */
  body: string | Uint8Array | null;
  /** null: an answer was read. "timeout": no answer within limits.upstreamTimeoutMs;
   *  "unreachable": fetch failed; "unreadable": the body could not be read; "too_large": over maxUpstreamBodyBytes. */
  failure: 'timeout' | 'unreachable' | 'unreadable' | 'too_large' | null;
}

export interface AnswerInput {
  context: AnswerContext;
  upstream: UpstreamResult;
  requestId: string;
  acceptLanguage: string | null;
  now: number;
  /** When a booking was sent (0 for reads): a lost booking's Retry-After is the rest of the grace from then. */
  sentAt?: number;
}

export interface Answered {
  response: CoreResponse;
  /** For the ledger's `finish`: ok (keep response.body), refused (release the reference), lost (may have booked). */
  /** unsent (issue 20): nothing was sent this turn (a lookup failed or found another booking's data): the record
   *  goes back to lost as it was, or is forgotten when it was new. */
  outcome: 'ok' | 'refused' | 'lost' | 'unsent';
  /** Store response.body under Forward.cache (an ok envelope under 2xx). */
  cacheable: boolean;
  /** A read worth another attempt (transport failure other than a timeout, or 5xx). */
  retry: boolean;
  /** The upstream's answer carried the worker's credentials and was withheld (log it). */
  leak: boolean;
  /** A booked shipment to add to the watchlist (WEBHOOK_URL set), else null. */
  watch: WatchAdd | null;
  /** For the log line only (never sent): a failure's cause. */
  note: string;
}

export interface WatchAdd {
  dlvrRef: string;
  clientRef: string;
}

// ---- bookings ---------------------------------------------------------------

export interface BookingInput {
  context: AnswerContext;
  ticket: BookingTicket;
  /** What `begin` said: new (forward), lost (look up first), done (stored answer), conflict (other data), busy (held past the wait),
   *  unknown (an earlier answer was lost less than the grace ago: nothing may be sent yet, 425). */
  state: 'new' | 'lost' | 'done' | 'conflict' | 'busy' | 'unknown';
  /** The stored answer when done. */
  stored: string | null;
  /** unknown: how long until the grace ends (Retry-After). */
  retryAfterMs?: number;
  requestId: string;
  acceptLanguage: string | null;
  now: number;
}

export type BookingStep = StepForward | StepRespond | StepLookup;

/** Forward Forward.upstreamBody once, then `answer` and `finish` with its outcome. From `lookedUp` (the lookup found
 *  nothing), the JavaScript first calls Bookings `sending(holder)` (the grace starts again from this send); when that
 *  answers false it sends nothing and answers `failure({kind: "booking_taken_over"})`. */
export interface StepForward {
  kind: 'forward';
}

/** Answer now; `finish` the ledger record first when set; add `watch` when set. */
export interface StepRespond {
  kind: 'respond';
  response: CoreResponse;
  finish: LedgerFinish | null;
  watch: WatchAdd | null;
}

/** POST `lookupBody` to `${baseUrl}/${operation}` (get-shipments), then `lookedUp`. */
export interface StepLookup {
  kind: 'lookup';
  operation: string;
  lookupBody: string;
}

export interface LedgerFinish {
  /** unsent (issue 20): nothing was sent this turn (a lookup failed or found another booking's data): the record
   *  goes back to lost as it was, or is forgotten when it was new. */
  outcome: 'ok' | 'refused' | 'lost' | 'unsent';
  /** The answer to keep (ok only). */
  body: string | null;
}

export interface LookedUpInput {
  context: AnswerContext;
  ticket: BookingTicket;
  /** Forward.upstreamBody: a found shipment is adopted only when its data matches this request's
   *  (internal/booking); without it the lookup answers 502 and sends nothing. */
  upstreamBody: string;
  upstream: UpstreamResult;
  requestId: string;
  acceptLanguage: string | null;
  now: number;
}

export type LookedUpStep = StepForward | StepRespond;

// ---- endpoints ----------------------------------------------------------------

export type EndpointInput = RequestFacts;

export interface EndpointAnswer {
  /** Apply first (demo tokens: by address). */
  rateLimit: RateLimit | null;
  response: CoreResponse;
}

export interface HealthzInput {
  method: string;
  authorization: string | null;
  acceptLanguage: string | null;
  requestId: string;
  now: number;
  /** The instance serving the isolate (null: not reported). */
  instance: { id: string; requests: number; memoryBytes: number } | null;
  rateLimits: { public: boolean; anonymous?: boolean; tokens: boolean };
  cache: { entries: number; bytes: number };
  /** Webhooks on (else null): `stats`, the watchlist's counts, when `isMaster(authorization)` (else null);
   *  `lastRunAt`, when the watcher last ran (Unix ms; shown to anyone, for liveness probes); `error` when the
   *  watchlist could not be read. */
  webhooks: { stats: WatchStats | null; error: string | null; lastRunAt: number | null } | null;
}

export type FailureKind =
  | 'not_found' // a path the worker does not serve
  | 'method_not_allowed' // `allow` lists the methods
  | 'origin_forbidden' // `origin` is not in ALLOWED_ORIGINS
  | 'rate_limited'
  | 'timeout' // the request's own deadline (limits.requestDeadlineMs) passed
  | 'ledger_unavailable' // the Bookings object could not be reached: nothing was booked
  | 'encoded_path' // a percent-encoded path (400): no path of the edge needs an escape; `path` is quoted
  | 'booking_taken_over' // after a lookup found nothing, Bookings `sending` said another attempt holds the record now: nothing was sent (503)
  | 'internal'; // a trap or a JS exception

export interface FailureInput {
  kind: FailureKind;
  requestId: string;
  acceptLanguage: string | null;
  /** The operation or endpoint, when known ("" otherwise). */
  operation: string;
  method: string;
  path: string;
  /** method_not_allowed: e.g. "GET, POST". */
  allow: string;
  /** origin_forbidden: the Origin header. */
  origin: string;
}

// ---- tokens (explicit key: the shared vectors and Go's worker/tokens) --------------

export interface Grant {
  operations: string[];
  shippingClientRef: string;
  dlvrRef: string;
  /** The offer a new-shipment grant books (mint only; the token carries its tag). */
  offer?: string;
}

export interface MintInput {
  key: string;
  grant: Grant;
  /** 0: the default (900). */
  ttlSeconds: number;
  now: number;
}

export interface MintResult {
  /** null when refused. */
  token: string | null;
  expiresAt: number | null;
  /** The grant as signed (operations in catalog order). */
  grant: Grant | null;
  /** Why not: the field (as POST /tokens names it) and the problem; "key" when the key is too short. */
  error: { field: string; problem: string } | null;
}

export interface VerifyInput {
  key: string;
  token: string;
  now: number;
}

export interface VerifyResult {
  /** null when refused. */
  claims: (Grant & { expiresAt: number }) | null;
  error: 'malformed' | 'signature' | 'expired' | 'key' | null;
}

// ---- tracking webhooks -----------------------------------------------------------

/** A watched shipment as the Watchlist object keeps it (Go's watch.Row). `state` is the core's own record. */
export interface WatchRow {
  ref: string;
  client_ref: string;
  added: number;
  next_at: number;
  pending: number;
  state: string;
}

export interface WatchStats {
  watched: number;
  pending: number;
  delivered: number;
  dropped: number;
  last_run: Record<string, unknown> | null;
}

/**
 * One leased shipment, as Go's worker/watch did it: `open` it; deliver
 * what `nextDelivery` gives while the budget allows, reporting each with
 * `delivered`; when `open` said pollDue, poll get-shipment-tracking with
 * `pollBody` and report with `tracked` (then deliver again); `close` it.
 * The run (lease, budget, concurrency, commits) is the JavaScript's.
 */
export interface WatchCore {
  open(input: { row: WatchRow; runAt: number }): { record: string; pollDue: boolean; pollBody: string; unreadable: boolean };
  nextDelivery(input: { record: string; runAt: number; now: number }): { event: WebhookDelivery | null };
  delivered(input: { record: string; eventId: string; ok: boolean; runAt: number }): { record: string; dropped: boolean };
  tracked(input: { record: string; row: WatchRow; upstream: UpstreamResult; runAt: number }): {
    record: string;
    changes: number;
    dropped: number;
    /** Why the poll failed (names neither the shipment nor the upstream), else null. */
    error: string | null;
  };
  close(input: { record: string; row: WatchRow; runAt: number; touched: boolean; deferred: boolean }): {
    row: WatchRow;
    remove: boolean;
    finished: boolean;
    expired: boolean;
  };
}

export interface WebhookDelivery {
  id: string;
  /** POST to webhooks.url: Content-Type application/json, Parcelgate-Signature: signature, User-Agent. */
  body: string;
  signature: string;
}
