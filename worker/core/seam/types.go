package seam

// ---- configure ------------------------------------------------------------

// ConfigureInput is configure's input.
type ConfigureInput struct {
	// The worker's string variables and secrets (non-strings, i.e. bindings, are ignored).
	Vars Pairs `json:"vars" ts:"Record<string, unknown>"`
	// Which bindings the platform has: problems the environment alone cannot tell.
	Bindings Bindings `json:"bindings"`
}

// Bindings are the platform's bindings configure needs to know of.
type Bindings struct {
	// BOOKINGS Durable Object (exactly-once bookings).
	Bookings bool `json:"bookings"`
	// WATCHLIST Durable Object (tracking webhooks).
	Watchlist bool `json:"watchlist"`
	// A way to reach the sandbox (the SANDBOX service binding) for UPSTREAM_BASE_URL=sandbox.
	Sandbox bool `json:"sandbox"`
	// RATE_LIMIT_ANONYMOUS is bound: requests without a client address are limited apart (absent: false).
	RateLimitAnonymous bool `json:"rateLimitAnonymous,omitempty"`
	// The configuration is being checked, not served (make check-config, make dev's check): the
	// secrets /healthz would refuse (missing, weak, placeholders: worker/core/secrets.go) are
	// among `errors` too, so the checks and the edge give one verdict. The edge never sets it.
	Check bool `json:"check,omitempty"`
}

// Pairs are names and string values, a JSON object on the wire.
//
//seam:record
type Pairs []Pair

// Pair is one member of Pairs.
type Pair struct{ Name, Value string }

// Configuration is configure's answer.
type Configuration struct {
	// Every problem found; non-empty: operations, /tokens and /healthz answer 500 (the core does it).
	Errors []ConfigProblem `json:"errors"`
	// Where and how operations are sent.
	Upstream UpstreamSettings `json:"upstream"`
	// The limits of every step.
	Limits Limits `json:"limits"`
	// Normalized origins (scheme://host[:port]) or "*"; compare with the request's Origin as sent.
	AllowedOrigins []string `json:"allowedOrigins"`
	// Operations, in catalog order: what routing and preflight need.
	Operations []RouteInfo `json:"operations"`
	// Bookings go through the BOOKINGS ledger.
	ExactlyOnce bool `json:"exactlyOnce"`
	// LOG_REQUESTS.
	LogRequests string `json:"logRequests" ts:"'errors' | 'all' | 'off'"`
	// /__faults/* exists (tests).
	Faults bool `json:"faults"`
	// /demo/token exists (sandbox upstream).
	Demo bool `json:"demo"`
	// null: WEBHOOK_URL unset (no watching, no cost).
	Webhooks *WebhookSettings `json:"webhooks"`
	// Durable Object name of the watchlist of this (API user, upstream).
	WatchlistName string `json:"watchlistName"`
}

// UpstreamSettings say where operations go.
type UpstreamSettings struct {
	// "remote": fetch `baseUrl`; "sandbox": the SANDBOX service binding, at `baseUrl` (never leaves the account).
	Kind string `json:"kind" ts:"'remote' | 'sandbox'"`
	// Ends in /v1, no trailing slash; operations are POSTed to `${baseUrl}/${operation}`.
	BaseURL string `json:"baseUrl"`
	// The upstream's Authorization header value ("Basic ..."); never logged, never sent to a client.
	Authorization string `json:"authorization"`
}

// ConfigProblem is one problem of the configuration.
type ConfigProblem struct {
	// The variable or binding ("API_KEY", "BOOKINGS").
	Variable string `json:"variable"`
	// What is wrong and what to do, in English (an operator's message).
	Problem string `json:"problem"`
}

// Limits are the bounds the JavaScript applies.
type Limits struct {
	// Bytes of a body or query; above it pass `bodyTooLarge` (the core answers 413 after auth).
	MaxBodyBytes int64 `json:"maxBodyBytes"`
	// Per upstream attempt.
	UpstreamTimeoutMs int64 `json:"upstreamTimeoutMs"`
	// A read's retries: wait these, one per retry, while `Answered.retry` and the retry budget allow.
	ReadRetryBackoffMs []int64 `json:"readRetryBackoffMs"`
	// Retry budget: each read deposits `retryShare`, a retry withdraws 1, at most `retryBurst` saved.
	RetryShare float64 `json:"retryShare"`
	// The most retries saved.
	RetryBurst int64 `json:"retryBurst"`
	// Bytes read of an upstream answer at most; more is `failure: "too_large"`.
	MaxUpstreamBodyBytes int64 `json:"maxUpstreamBodyBytes"`
	// The in-isolate cache: bodies' bytes at most (a body over a quarter of the bytes is not kept).
	CacheMaxBytes int64 `json:"cacheMaxBytes"`
	// The in-isolate cache: entries at most.
	CacheMaxEntries int64 `json:"cacheMaxEntries"`
	// The whole request at most (every attempt, backoff, a margin): then `failure({kind: "timeout"})`.
	RequestDeadlineMs int64 `json:"requestDeadlineMs"`
	// Bookings ledger: how long `begin` waits for a holder.
	BookingWaitMs int64 `json:"bookingWaitMs"`
	// Bookings ledger: how long a holder keeps the record.
	BookingHoldMs int64 `json:"bookingHoldMs"`
	// Bookings ledger: records' lifetime.
	BookingRecordTTLMs int64 `json:"bookingRecordTtlMs"`
	// BOOKING_GRACE_SECONDS: after a lost answer, resends within it send nothing.
	BookingGraceMs int64 `json:"bookingGraceMs"`
	// BOOKINGS_LEGACY_UNTIL: until when (Unix ms, exclusive) the Bookings objects also read the earlier layout's records; 0: never.
	BookingsLegacyUntilMs int64 `json:"bookingsLegacyUntilMs"`
	// Seconds of Retry-After on a 429.
	RateLimitRetryAfterSeconds int64 `json:"rateLimitRetryAfterSeconds"`
}

// RouteInfo is what routing needs of an operation.
type RouteInfo struct {
	// The operation's name.
	Name string `json:"name"`
	// "GET", "POST" (reads) or "POST" (bookings); preflight adds OPTIONS.
	Methods []string `json:"methods"`
	// Callable without a token (PUBLIC_OPERATIONS).
	Public bool `json:"public"`
	// new-shipment, new-collection.
	Books bool `json:"books"`
}

// WebhookSettings are the tracking webhooks' settings.
type WebhookSettings struct {
	// Where deliveries are POSTed.
	URL string `json:"url"`
	// Subrequests one run may make (lease and commits included).
	Budget int64 `json:"budget"`
	// How often a shipment is polled.
	CheckEveryMs int64 `json:"checkEveryMs"`
	// How long a delivery is retried.
	RetryForMs int64 `json:"retryForMs"`
	// How long a shipment is watched.
	MaxAgeMs int64 `json:"maxAgeMs"`
	// Bounds of one run: lease hold.
	LeaseMs int64 `json:"leaseMs"`
	// Bounds of one run: shipments per commit.
	CommitEvery int64 `json:"commitEvery"`
	// Bounds of one run: shipments at once.
	Concurrency int64 `json:"concurrency"`
	// Bounds of one run: one delivery's timeout.
	DeliveryTimeoutMs int64 `json:"deliveryTimeoutMs"`
	// Bounds of one run: the whole run.
	RunTimeoutMs int64 `json:"runTimeoutMs"`
	// The deliveries' User-Agent.
	UserAgent string `json:"userAgent"`
}

// ---- requests ---------------------------------------------------------------

// RequestFacts is what the core needs of a request; the JS reads the body bounded by `limits.maxBodyBytes`.
type RequestFacts struct {
	// The request's method.
	Method string `json:"method"`
	// The raw query without "?" (not decoded); null when the URL has no "?".
	Query *string `json:"query"`
	// The body of a POST (null: none, or not read because it was too large).
	Body []byte `json:"body" seam:"raw" ts:"string | Uint8Array | null"`
	// Content-Length or the bytes read passed `limits.maxBodyBytes`.
	BodyTooLarge bool `json:"bodyTooLarge"`
	// The Content-Type header.
	ContentType string `json:"contentType" ts:"string | null"`
	// The Accept-Language header.
	AcceptLanguage string `json:"acceptLanguage" ts:"string | null"`
	// The Authorization header.
	Authorization string `json:"authorization" ts:"string | null"`
	// CF-Connecting-IP (else the peer's address): the key of the public rate limit.
	ClientIP string `json:"clientIp"`
	// The request's id.
	RequestID string `json:"requestId"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// PrepareInput is prepare's input.
type PrepareInput struct {
	RequestFacts
	// The path after /v1/ (an unknown name is answered 404 by the core).
	Operation string `json:"operation"`
	// The answer to a `peek` step; absent on the first call.
	Booked *PeekedRecord `json:"booked,omitempty"`
}

// PeekedRecord is the ledger's record read without taking it (Bookings `peek`).
type PeekedRecord struct {
	// "" when there is none.
	State string `json:"state" ts:"'done' | 'lost' | ''"`
	// The stored answer when done.
	Body string `json:"body" ts:"string | null"`
}

// RateLimit is a rate limit to apply before anything else of the step: limited means `failure({kind: "rate_limited"})`.
type RateLimit struct {
	// The binding to ask.
	Binding string `json:"binding" ts:"'RATE_LIMIT_PUBLIC' | 'RATE_LIMIT_TOKENS' | 'RATE_LIMIT_ANONYMOUS'"`
	// The key to ask it about.
	Key string `json:"key"`
}

// Prepared is prepare's answer: "respond" (answer now: refused, invalid,
// misconfigured, ...), "peek" (a scoped token bound to a
// shipping_client_ref reads the shipment booked with it: read the ledger
// record `bookingKey` (Bookings `peek`) and call `prepare` again with the
// same input plus `booked`) or "forward" (send upstream).
//
//seam:union kind respond=response peek=bookingKey forward=forward
type Prepared struct {
	// What to do.
	Kind string `json:"kind"`
	// Who called, for the log line.
	Caller string `json:"caller" ts:"'public' | 'master' | 'scoped' | 'demo' | 'unknown'"`
	// Apply first; null: not limited (the master token, or refused before the limit).
	RateLimit *RateLimit `json:"rateLimit"`
	// The answer.
	Response *CoreResponse `json:"response"`
	// The ledger record to read.
	BookingKey string `json:"bookingKey"`
	// What to send.
	Forward *Forward `json:"forward"`
}

// Forward is a request to send upstream.
type Forward struct {
	// The operation.
	Operation string `json:"operation"`
	// POST it to `${upstream.baseUrl}/${operation}` as application/x-www-form-urlencoded, with
	// Authorization: upstream.authorization, Accept: application/json, User-Agent: parcelgate-edge/1,
	// X-Request-Id; nothing of the client's. Decoded, validated, normalized (phones), canonical order.
	UpstreamBody []byte `json:"upstreamBody" seam:"raw"`
	// A read: `Answered.retry` may be honoured. Bookings are never resent.
	Retryable bool `json:"retryable"`
	// The basis of the shop's prices of a get-shipments-rates answer (PRICING_RULES): pass it to
	// `normalize` with the client's body; "" without rules or for other operations.
	Pricing string `json:"pricing"`
	// The basis of the answer's offers (get-shipments-rates) or points (get-drop-points): pass it to
	// `normalize` with the client's body; "" for other operations or without TOKEN_SIGNING_KEY.
	Sign string `json:"sign"`
	// A cacheable read: look up `key` (in-isolate, then Cache API); store an answer that is `cacheable`.
	Cache *CacheTicket `json:"cache"`
	// Exactly-once: `begin` on the Bookings object, then `booking()`.
	Booking *BookingTicket `json:"booking"`
	// get-shipments-rates only: its deadline and store (routes/rates.mjs); null for every other operation.
	Rates *RatesPlan `json:"rates"`
	// What `answer` needs back about this request.
	Context AnswerContext `json:"context"`
}

// CacheTicket names a cacheable read's entry.
type CacheTicket struct {
	// The cache key.
	Key string `json:"key"`
	// How long an answer is kept.
	TTLSeconds int64 `json:"ttlSeconds"`
}

// BookingTicket is what the Bookings object's begin needs.
type BookingTicket struct {
	// The booking key (the record's name).
	Key string `json:"key"`
	// Hex SHA-256 of upstreamBody.
	Fingerprint string `json:"fingerprint"`
	// "shipping_client_ref" or "collection_client_ref".
	RefField string `json:"refField"`
	// The client reference.
	Ref string `json:"ref"`
	// How long `begin` waits for a holder.
	WaitMs int64 `json:"waitMs"`
	// How long a holder keeps the record.
	HoldMs int64 `json:"holdMs"`
	// The record's lifetime.
	RecordTTLMs int64 `json:"recordTtlMs"`
}

// AnswerContext is echoed into `answer`, `booking` and `lookedUp` unchanged.
type AnswerContext struct {
	// The operation.
	Operation string `json:"operation"`
	// The client reference of a booking ("" for reads).
	ClientRef string `json:"clientRef"`
	// The booking goes through the ledger (the hint and `retryable` depend on it).
	Ledger bool `json:"ledger"`
}

// CoreResponse is a response to send: status, the core's headers, a JSON body.
type CoreResponse struct {
	// The HTTP status.
	Status int64 `json:"status"`
	// The headers the decision implies.
	Headers Pairs `json:"headers" ts:"Record<string, string>"`
	// The JSON body.
	Body []byte `json:"body" seam:"raw"`
	// Short machine-readable kind for the log line ("invalid_request", "forwarded", ...).
	Class string `json:"class"`
	// For the log line only, never sent: what a generic answer left out (a configuration error's variables).
	Detail string `json:"detail,omitempty"`
}

// ---- upstream answers ---------------------------------------------------------

// UpstreamResult is what came back from one upstream call (or did not).
type UpstreamResult struct {
	// The HTTP status (0: no answer).
	Status int64 `json:"status"`
	// The body read (null when failure is set).
	Body []byte `json:"body" seam:"raw" ts:"string | Uint8Array | null"`
	// null: an answer was read. "timeout": no answer within limits.upstreamTimeoutMs;
	// "unreachable": fetch failed; "unreadable": the body could not be read; "too_large": over maxUpstreamBodyBytes.
	Failure string `json:"failure" ts:"'timeout' | 'unreachable' | 'unreadable' | 'too_large' | null"`
}

// AnswerInput is answer's input.
type AnswerInput struct {
	// From the Forward.
	Context AnswerContext `json:"context"`
	// What came back.
	Upstream UpstreamResult `json:"upstream"`
	// The request's id.
	RequestID string `json:"requestId"`
	// The Accept-Language header.
	AcceptLanguage string `json:"acceptLanguage" ts:"string | null"`
	// When (Unix ms).
	Now int64 `json:"now"`
	// When a booking was sent (0 for reads): a lost booking's Retry-After is the rest of the grace from then.
	SentAt int64 `json:"sentAt,omitempty"`
}

// Answered is answer's answer.
type Answered struct {
	// The client's answer.
	Response *CoreResponse `json:"response" ts:"CoreResponse"`
	// For the ledger's `finish`: ok (keep response.body), refused (release the reference), lost (may have booked),
	// unsent (nothing was sent this turn: the record goes back to lost as it was, or is forgotten when it was new).
	Outcome string `json:"outcome" ts:"'ok' | 'refused' | 'lost' | 'unsent'"`
	// Store response.body under Forward.cache (an ok envelope under 2xx).
	Cacheable bool `json:"cacheable"`
	// A read worth another attempt (transport failure other than a timeout, or 5xx).
	Retry bool `json:"retry"`
	// The upstream's answer carried the worker's credentials and was withheld (log it).
	Leak bool `json:"leak"`
	// A booked shipment to add to the watchlist (WEBHOOK_URL set), else null.
	Watch *WatchAdd `json:"watch"`
	// For the log line only (never sent): a failure's cause.
	Note string `json:"note"`
}

// WatchAdd is a booked shipment to put on the watchlist.
type WatchAdd struct {
	// The upstream's reference.
	DlvrRef string `json:"dlvrRef"`
	// The client's reference.
	ClientRef string `json:"clientRef"`
}

// ---- bookings ---------------------------------------------------------------

// BookingInput is booking's input.
type BookingInput struct {
	// From the Forward.
	Context AnswerContext `json:"context"`
	// From the Forward.
	Ticket BookingTicket `json:"ticket"`
	// What `begin` said: new (forward), lost (look up first), done (stored answer), conflict (other data), busy (held past the wait),
	// unknown (an earlier answer was lost less than the grace ago: nothing may be sent yet, 425).
	State string `json:"state" ts:"'new' | 'lost' | 'done' | 'conflict' | 'busy' | 'unknown'"`
	// The stored answer when done.
	Stored []byte `json:"stored" seam:"raw" ts:"string | null"`
	// unknown: how long until the grace ends (Retry-After).
	RetryAfterMs int64 `json:"retryAfterMs,omitempty"`
	// The request's id.
	RequestID string `json:"requestId"`
	// The Accept-Language header.
	AcceptLanguage string `json:"acceptLanguage" ts:"string | null"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// Step is the decision about a booking after the ledger or a lookup:
// "forward" (forward Forward.upstreamBody once, then `answer` and `finish`
// with its outcome; with `sending` (after `lookedUp` found nothing), first
// Bookings `sending(holder)`, and when that answers false send nothing and
// answer `failure({kind: "booking_taken_over"})`), "respond" (answer now;
// `finish` the ledger record first when set; add `watch` when set) or
// "lookup" (POST `lookupBody` to `${baseUrl}/${operation}` (get-shipments),
// then `lookedUp`).
//
//seam:union kind forward=sending respond=response,finish,watch lookup=operation,lookupBody
type Step struct {
	// What to do.
	Kind string `json:"kind"`
	// Mark the record as sent again first (after a lookup).
	Sending bool `json:"sending"`
	// The answer.
	Response *CoreResponse `json:"response"`
	// What to write to the ledger record first.
	Finish *LedgerFinish `json:"finish" ts:"LedgerFinish | null"`
	// A booked shipment to add to the watchlist.
	Watch *WatchAdd `json:"watch" ts:"WatchAdd | null"`
	// The lookup's operation.
	Operation string `json:"operation"`
	// The lookup's body.
	LookupBody []byte `json:"lookupBody" seam:"raw"`
}

// LedgerFinish is what to write to the ledger record.
type LedgerFinish struct {
	// unsent (issue 20): nothing was sent this turn (a lookup failed or found another booking's data): the record
	// goes back to lost as it was, or is forgotten when it was new.
	Outcome string `json:"outcome" ts:"'ok' | 'refused' | 'lost' | 'unsent'"`
	// The answer to keep (ok only).
	Body []byte `json:"body" seam:"raw" ts:"string | null"`
}

// LookedUpInput is lookedUp's input.
type LookedUpInput struct {
	// From the Forward.
	Context AnswerContext `json:"context"`
	// From the Forward.
	Ticket BookingTicket `json:"ticket"`
	// Forward.upstreamBody: a found shipment is adopted only when its data matches this request's
	// (internal/booking); without it the lookup answers 502 and sends nothing.
	UpstreamBody string `json:"upstreamBody"`
	// The lookup's answer.
	Upstream UpstreamResult `json:"upstream"`
	// The request's id.
	RequestID string `json:"requestId"`
	// The Accept-Language header.
	AcceptLanguage string `json:"acceptLanguage" ts:"string | null"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// ---- endpoints ----------------------------------------------------------------

// EndpointInput is the input of tokens and demoToken.
type EndpointInput = RequestFacts

// EndpointAnswer is the answer of tokens and demoToken.
type EndpointAnswer struct {
	// Apply first (demo tokens: by address).
	RateLimit *RateLimit `json:"rateLimit"`
	// The answer.
	Response *CoreResponse `json:"response" ts:"CoreResponse"`
}

// HealthzInput is healthz's input.
type HealthzInput struct {
	// The request's method.
	Method string `json:"method"`
	// The Authorization header.
	Authorization string `json:"authorization" ts:"string | null"`
	// The Accept-Language header.
	AcceptLanguage string `json:"acceptLanguage" ts:"string | null"`
	// The request's id.
	RequestID string `json:"requestId"`
	// When (Unix ms).
	Now int64 `json:"now"`
	// The instance serving the isolate (null: not reported).
	Instance *InstanceInfo `json:"instance"`
	// Which rate limits are bound.
	RateLimits RateLimitsBound `json:"rateLimits"`
	// The in-isolate cache's size.
	Cache CacheSize `json:"cache"`
	// Webhooks on (else null).
	Webhooks *WebhooksHealth `json:"webhooks"`
}

// InstanceInfo is the instance serving the isolate.
type InstanceInfo struct {
	// Its id.
	ID string `json:"id"`
	// Requests it served.
	Requests int64 `json:"requests"`
	// The module's linear memory.
	MemoryBytes int64 `json:"memoryBytes"`
}

// RateLimitsBound says which rate limits are bound.
type RateLimitsBound struct {
	// RATE_LIMIT_PUBLIC.
	Public bool `json:"public"`
	// RATE_LIMIT_ANONYMOUS.
	Anonymous bool `json:"anonymous,omitempty"`
	// RATE_LIMIT_TOKENS.
	Tokens bool `json:"tokens"`
}

// CacheSize is the in-isolate cache's size.
type CacheSize struct {
	// Entries.
	Entries int64 `json:"entries"`
	// Bytes of bodies.
	Bytes int64 `json:"bytes"`
}

// WebhooksHealth is what /healthz shows of the watcher.
type WebhooksHealth struct {
	// The watchlist's counts, when `isMaster(authorization)` (else null).
	Stats *WatchStats `json:"stats"`
	// When the watchlist could not be read.
	Error string `json:"error" ts:"string | null"`
	// When the watcher last ran (Unix ms; shown to anyone, for liveness probes).
	LastRunAt int64 `json:"lastRunAt" ts:"number | null"`
}

// FailureKind names a failure the JavaScript detected.
//
//seam:enum
type FailureKind string

// Failure kinds.
const (
	FailNotFound         FailureKind = "not_found"          // a path the worker does not serve
	FailMethodNotAllowed FailureKind = "method_not_allowed" // `allow` lists the methods
	FailOriginForbidden  FailureKind = "origin_forbidden"   // `origin` is not in ALLOWED_ORIGINS
	FailRateLimited      FailureKind = "rate_limited"       // a rate limit said no
	FailTimeout          FailureKind = "timeout"            // the request's own deadline (limits.requestDeadlineMs) passed
	FailLedger           FailureKind = "ledger_unavailable" // the Bookings object could not be reached: nothing was booked
	FailEncodedPath      FailureKind = "encoded_path"       // a percent-encoded path (400): no path of the edge needs an escape; `path` is quoted
	FailTakenOver        FailureKind = "booking_taken_over" // after a lookup found nothing, Bookings `sending` said another attempt holds the record now: nothing was sent (503)
	FailInternal         FailureKind = "internal"           // a trap or a JS exception
)

// FailureInput is failure's input.
type FailureInput struct {
	// What failed.
	Kind FailureKind `json:"kind"`
	// The request's id.
	RequestID string `json:"requestId"`
	// The Accept-Language header.
	AcceptLanguage string `json:"acceptLanguage" ts:"string | null"`
	// The operation or endpoint, when known ("" otherwise).
	Operation string `json:"operation"`
	// The request's method.
	Method string `json:"method"`
	// The request's path.
	Path string `json:"path"`
	// method_not_allowed: e.g. "GET, POST".
	Allow string `json:"allow"`
	// origin_forbidden: the Origin header.
	Origin string `json:"origin"`
}

// IsMasterInput is isMaster's input.
type IsMasterInput struct {
	// The Authorization header.
	Authorization string `json:"authorization" ts:"string | null"`
}

// IsMasterResult is isMaster's answer.
type IsMasterResult struct {
	// It carries PROXY_TOKEN.
	Master bool `json:"master"`
}

// SignWebhookInput is signWebhook's input.
type SignWebhookInput struct {
	// The body to sign.
	Body []byte `json:"body" seam:"raw" ts:"string"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// SignWebhookResult is signWebhook's answer.
type SignWebhookResult struct {
	// The Parcelgate-Signature header value ("" without secrets).
	Signature string `json:"signature"`
}

// VersionResult is version's answer.
type VersionResult struct {
	// The module's build.
	Version string `json:"version"`
}

// FaultInput is fault's input.
type FaultInput struct {
	// "trap".
	Kind string `json:"kind"`
	// The request's id.
	RequestID string `json:"requestId"`
}

// NormalizeInput is normalize's input.
type NormalizeInput struct {
	// The operation.
	Operation string `json:"operation"`
	// The ok envelope as the upstream sent it.
	Body []byte `json:"body" seam:"raw" ts:"string | Uint8Array"`
	// Leave the data as received (only price it): a client that did not ask for normalized data.
	Keep bool `json:"keep,omitempty"`
	// Forward.pricing of the request: the shop's prices (PRICING_RULES) applied to a
	// get-shipments-rates answer for its destination, order value and language. "" applies none.
	Pricing string `json:"pricing,omitempty"`
	// Forward.sign of the request: every service gets a signed `offer` (get-shipments-rates), every drop
	// point a signed `point` (get-drop-points), expiring OFFER_TTL_SECONDS after `now`. "" signs nothing.
	Sign string `json:"sign,omitempty"`
	// Date.now() (ms): the offers' expiry counts from it.
	Now int64 `json:"now,omitempty"`
}

// NormalizeResult is normalize's answer.
type NormalizeResult struct {
	// The envelope, normalized or as received.
	Body []byte `json:"body" seam:"raw"`
	// The answer then carries `Parcelgate-Data: normalized`.
	Normalized bool `json:"normalized"`
}

// RatesPlan is a rates forward's deadline and store: RATES_DEADLINE_MS,
// RATES_STALE_HOURS and the request's store key and destination.
type RatesPlan struct {
	// The store's key: the cache key of the normalized request (route and parcels).
	Key string `json:"key"`
	// The destination country (the fallback table's row).
	Country string `json:"country"`
	// 0: no deadline (failures only).
	DeadlineMs int64 `json:"deadlineMs"`
	// How long a stored answer is kept and usable (0: never stored).
	StaleMs int64 `json:"staleMs"`
}

// RatesInput is rates' input.
type RatesInput struct {
	// "live" (mark a live ok answer), "late" (the plan's deadline passed) or the failed call's answer class.
	Class string `json:"class"`
	// The forward's plan.
	Plan RatesPlan `json:"plan"`
	// The request's Accept-Language: the fallback table's services are named in that language.
	AcceptLanguage string `json:"acceptLanguage" ts:"string | null"`
	// When the stored answer was stored (0: none).
	StoredAt int64 `json:"storedAt"`
	// Now.
	Now int64 `json:"now"`
	// The live answer (class "live"), else the stored answer (null: none).
	Body []byte `json:"body" seam:"raw" ts:"string | Uint8Array | null"`
}

// RatesResult is rates' answer.
type RatesResult struct {
	// Where the answer comes from; "" with response null: nothing to answer with (answer as before).
	Source string `json:"source" ts:"'live' | 'recent' | 'fallback' | ''"`
	// A 200 with an ok envelope whose data has `source`, and the header `Rates-Source`.
	Response *CoreResponse `json:"response"`
}

// ---- tokens (explicit key: the shared vectors and Go's worker/tokens) --------------

// Grant is what a scoped token allows.
type Grant struct {
	// The operations.
	Operations []string `json:"operations"`
	// Bound to this shipping_client_ref ("" when not).
	ShippingClientRef string `json:"shippingClientRef"`
	// Bound to this dlvr_ref ("" when not).
	DlvrRef string `json:"dlvrRef"`
	// Bound to this collection_client_ref ("" when not).
	CollectionClientRef string `json:"collectionClientRef"`
	// The offer a new-shipment grant books (mint only; the token carries its tag).
	Offer string `json:"offer,omitempty"`
}

// MintInput is mint's input.
type MintInput struct {
	// The signing key.
	Key string `json:"key"`
	// What the token allows.
	Grant Grant `json:"grant"`
	// 0: the default (900); whole seconds.
	TTLSeconds Number `json:"ttlSeconds" ts:"number"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// Number is a JSON number's text as sent (checked by its reader).
type Number string

// FieldProblem names a field and what is wrong with it.
type FieldProblem struct {
	// The field, as POST /tokens names it.
	Field string `json:"field"`
	// The problem.
	Problem string `json:"problem"`
}

// MintResult is mint's answer.
type MintResult struct {
	// null when refused.
	Token *string `json:"token"`
	// null when refused.
	ExpiresAt *int64 `json:"expiresAt"`
	// The grant as signed (operations in catalog order).
	Grant *Grant `json:"grant"`
	// Why not: the field (as POST /tokens names it) and the problem; "key" when the key is too short.
	Error *FieldProblem `json:"error"`
}

// VerifyInput is verify's input.
type VerifyInput struct {
	// The signing key.
	Key string `json:"key"`
	// The token.
	Token string `json:"token"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// Claims are a verified token's grant and expiry.
type Claims struct {
	Grant
	// When it expires (Unix ms).
	ExpiresAt int64 `json:"expiresAt"`
}

// VerifyResult is verify's answer.
type VerifyResult struct {
	// null when refused.
	Claims *Claims `json:"claims"`
	// Why not.
	Error *string `json:"error" ts:"'malformed' | 'signature' | 'expired' | 'key' | null"`
}

// ---- tracking webhooks -----------------------------------------------------------

// WatchRow is a watched shipment as the Watchlist object keeps it (Go's watch.Row). `state` is the core's own record.
type WatchRow struct {
	// The upstream's reference.
	Ref string `json:"ref"`
	// The client's reference.
	ClientRef string `json:"client_ref"`
	// Booked (Unix ms).
	Added int64 `json:"added"`
	// Due (Unix ms).
	NextAt int64 `json:"next_at"`
	// Deliveries pending.
	Pending int64 `json:"pending"`
	// The core's record.
	State string `json:"state"`
}

// WatchStats are the watchlist's counts.
type WatchStats struct {
	// Shipments watched.
	Watched int64 `json:"watched"`
	// Deliveries pending.
	Pending int64 `json:"pending"`
	// Deliveries made.
	Delivered int64 `json:"delivered"`
	// Deliveries dropped.
	Dropped int64 `json:"dropped"`
	// The last run's report.
	LastRun RawJSON `json:"last_run" ts:"Record<string, unknown> | null"`
}

// RawJSON is a JSON value's text as sent.
type RawJSON string

// WatchOpenInput is watch.open's input.
type WatchOpenInput struct {
	// The leased row.
	Row WatchRow `json:"row"`
	// When the run started (Unix ms).
	RunAt int64 `json:"runAt"`
}

// WatchOpened is watch.open's answer.
type WatchOpened struct {
	// The shipment's record, for the next calls.
	Record string `json:"record"`
	// Poll get-shipment-tracking with pollBody.
	PollDue bool `json:"pollDue"`
	// What to poll with.
	PollBody string `json:"pollBody"`
	// The row's record could not be read.
	Unreadable bool `json:"unreadable"`
}

// WatchNextInput is watch.nextDelivery's input.
type WatchNextInput struct {
	// The shipment's record.
	Record string `json:"record"`
	// When the run started (Unix ms).
	RunAt int64 `json:"runAt"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// WatchNextResult is watch.nextDelivery's answer.
type WatchNextResult struct {
	// null: nothing to deliver.
	Event *WebhookDelivery `json:"event"`
}

// WebhookDelivery is one delivery.
type WebhookDelivery struct {
	// The event's id.
	ID string `json:"id"`
	// POST to webhooks.url: Content-Type application/json, Parcelgate-Signature: signature, User-Agent.
	Body []byte `json:"body" seam:"raw"`
	// The Parcelgate-Signature header value.
	Signature string `json:"signature"`
}

// WatchSentInput is watch.delivered's input.
type WatchSentInput struct {
	// The shipment's record.
	Record string `json:"record"`
	// The delivered event.
	EventID string `json:"eventId"`
	// It was accepted.
	OK bool `json:"ok"`
	// When the run started (Unix ms).
	RunAt int64 `json:"runAt"`
}

// WatchSentResult is watch.delivered's answer.
type WatchSentResult struct {
	// The shipment's record.
	Record string `json:"record"`
	// The event was dropped.
	Dropped bool `json:"dropped"`
}

// WatchTrackedInput is watch.tracked's input.
type WatchTrackedInput struct {
	// The shipment's record.
	Record string `json:"record"`
	// The leased row.
	Row WatchRow `json:"row"`
	// The poll's answer.
	Upstream UpstreamResult `json:"upstream"`
	// When the run started (Unix ms).
	RunAt int64 `json:"runAt"`
}

// WatchTrackedResult is watch.tracked's answer.
type WatchTrackedResult struct {
	// The shipment's record.
	Record string `json:"record"`
	// Changes seen.
	Changes int64 `json:"changes"`
	// Events dropped.
	Dropped int64 `json:"dropped"`
	// Why the poll failed (names neither the shipment nor the upstream), else null.
	Error *string `json:"error"`
}

// WatchCloseInput is watch.close's input.
type WatchCloseInput struct {
	// The shipment's record.
	Record string `json:"record"`
	// The leased row.
	Row WatchRow `json:"row"`
	// When the run started (Unix ms).
	RunAt int64 `json:"runAt"`
	// Something was done this run.
	Touched bool `json:"touched"`
	// The run ran out of budget before it.
	Deferred bool `json:"deferred"`
}

// WatchClosed is watch.close's answer.
type WatchClosed struct {
	// The row to keep.
	Row WatchRow `json:"row"`
	// Remove it.
	Remove bool `json:"remove"`
	// It is finished.
	Finished bool `json:"finished"`
	// It expired.
	Expired bool `json:"expired"`
}

// ---- the Bookings ledger ------------------------------------------------------

// LedgerRecord is a booking record as the Bookings object stores it, without
// the stored answer of a done record (`body`, kept beside it: no decision
// reads it).
type LedgerRecord struct {
	// What the record says.
	State string `json:"state" ts:"'pending' | 'done' | 'lost'"`
	// The fingerprint of the booking's data.
	FP string `json:"fp"`
	// pending: the token of the holder's turn ("" otherwise).
	Holder string `json:"holder"`
	// pending, lost: when the booking was (last) sent upstream (Unix ms; 0 otherwise).
	Since int64 `json:"since"`
	// pending, taken to look a lost booking up: that record's since (0 otherwise).
	Prev int64 `json:"prev"`
	// When the record is forgotten (Unix ms).
	Expires int64 `json:"expires"`
}

// LedgerLive is the holder the object saw take a key's record (in this
// incarnation) and the end of its hold.
type LedgerLive struct {
	// Its token.
	Holder string `json:"holder"`
	// Its hold ends then (Unix ms).
	Until int64 `json:"until"`
}

// LedgerBeginInput is ledgerBegin's input: Bookings `begin`, one pass.
type LedgerBeginInput struct {
	// The key's record as stored, null when none.
	Record *LedgerRecord `json:"record"`
	// The key's live holder, null when none.
	Live *LedgerLive `json:"live"`
	// When (Unix ms).
	Now int64 `json:"now"`
	// The fingerprint of the request's data.
	FP string `json:"fp"`
	// The token a take gives this request's turn (unique).
	Holder string `json:"holder"`
	// How long a new holder holds the key.
	HoldMs int64 `json:"holdMs"`
	// How long after a lost answer nothing may be sent.
	GraceMs int64 `json:"graceMs"`
	// A record's lifetime.
	TTLMs int64 `json:"ttlMs"`
	// When the request stops waiting for a live holder (Unix ms).
	WaitUntil int64 `json:"waitUntil"`
	// Until when (Unix ms, exclusive) the earlier layout is read; 0: never.
	LegacyUntil int64 `json:"legacyUntil"`
	// This begin has read the earlier layout already.
	EarlierRead bool `json:"earlierRead"`
}

// LedgerBegun is ledgerBegin's answer. take and lookup: write `record` and
// make its holder the key's live holder until `liveUntil` before anything
// else waits, then answer "new" / "lost"; replay: "done" with the stored
// answer; conflict, busy: so; unknown: with `retryAfterMs`; wait: wait for
// the live holder (its finish, the end of its hold, or waitUntil), then ask
// again; readEarlier: take over the earlier layout's record
// (ledgerTakeOver), then ask again with earlierRead.
type LedgerBegun struct {
	// What to do.
	Verdict string `json:"verdict" ts:"'take' | 'lookup' | 'replay' | 'conflict' | 'wait' | 'busy' | 'unknown' | 'readEarlier'"`
	// take, lookup: the record to write; null otherwise.
	Record *LedgerRecord `json:"record" ts:"LedgerRecord | null"`
	// take, lookup: the new holder's hold ends then.
	LiveUntil int64 `json:"liveUntil"`
	// unknown: the rest of the grace (ms, at least 1).
	RetryAfterMs int64 `json:"retryAfterMs"`
	// The live holder is past its hold: forget it and wake its waiters first.
	EndLive bool `json:"endLive"`
	// The stored record is past its expiry: delete it.
	Forget bool `json:"forget"`
}

// LedgerTurnInput is the input of ledgerSending and ledgerFinish: a holder's call.
type LedgerTurnInput struct {
	// The key's record as stored, null when none.
	Record *LedgerRecord `json:"record"`
	// The key's live holder, null when none.
	Live *LedgerLive `json:"live"`
	// When (Unix ms).
	Now int64 `json:"now"`
	// The caller's turn.
	Holder string `json:"holder"`
	// finish: ok, lost, unsent, release (or the answer's name for it, refused).
	Outcome string `json:"outcome,omitempty" ts:"'ok' | 'lost' | 'unsent' | 'release' | 'refused'"`
	// finish: the record's lifetime from now.
	TTLMs int64 `json:"ttlMs,omitempty"`
}

// LedgerWritten is the answer of ledgerSending and ledgerFinish: write
// `record` (a done one with the finish's body: `keepBody`), delete the
// record, or refuse (the caller does not hold it: nothing is written).
type LedgerWritten struct {
	// What to do.
	Verdict string `json:"verdict" ts:"'write' | 'delete' | 'refuse'"`
	// write: the record.
	Record *LedgerRecord `json:"record" ts:"LedgerRecord | null"`
	// write: keep the finish's body as the stored answer.
	KeepBody bool `json:"keepBody"`
	// The turn is over: forget the live holder and wake its waiters.
	EndLive bool `json:"endLive"`
	// refuse: the stored record is past its expiry: delete it.
	Forget bool `json:"forget"`
}

// LedgerPeekInput is ledgerPeek's input.
type LedgerPeekInput struct {
	// The key's record as stored, null when none.
	Record *LedgerRecord `json:"record"`
	// The key's live holder, null when none.
	Live *LedgerLive `json:"live"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// LedgerPeeked is ledgerPeek's answer.
type LedgerPeeked struct {
	// done (with the stored answer), lost (the booking may exist), "" (none, or held by a live request).
	State string `json:"state" ts:"'done' | 'lost' | ''"`
	// The stored record is past its expiry: delete it.
	Forget bool `json:"forget"`
}

// LedgerTakeOverInput is ledgerTakeOver's input: first before the read
// (`read` false), then with the earlier layout's record.
type LedgerTakeOverInput struct {
	// The key's record here as stored now, null when none.
	Record *LedgerRecord `json:"record"`
	// The earlier layout's record of the key, null when none.
	Earlier *LedgerRecord `json:"earlier"`
	// The mark that this key's earlier record was taken over once is here.
	Marked bool `json:"marked"`
	// The earlier layout was read (earlier is its answer).
	Read bool `json:"read"`
	// When (Unix ms).
	Now int64 `json:"now"`
}

// LedgerTakenOver is ledgerTakeOver's answer: read (the earlier layout,
// then ask again), adopt (write the earlier record as read and its mark,
// expiring at markExpires, in one write) or none.
type LedgerTakenOver struct {
	// What to do.
	Verdict string `json:"verdict" ts:"'read' | 'adopt' | 'none'"`
	// adopt: the mark's expiry.
	MarkExpires int64 `json:"markExpires"`
}

// LedgerSweepInput is ledgerSweep's input: the expiries of every stored entry.
type LedgerSweepInput struct {
	// Each entry's expiry (0: none, i.e. expired).
	Expires []int64 `json:"expires"`
	// When (Unix ms).
	Now int64 `json:"now"`
	// The least time between two sweeps (ms).
	EveryMs int64 `json:"everyMs"`
}

// LedgerSwept is ledgerSweep's answer.
type LedgerSwept struct {
	// The indexes (into expires) of the entries to delete.
	Expired []int64 `json:"expired"`
	// When to come back (Unix ms); 0: nothing left, no alarm.
	Next int64 `json:"next"`
}
