// Package edge is the platform-independent HTTP handler of the parcelgate
// edge worker: routing, configuration, CORS, the proxy token, decoding and
// validation with the core, forwarding with Basic auth to the upstream (or
// the sandbox), failure mapping, request ids, Server-Timing and one
// structured log line per request.
//
// It runs unchanged under workerd (worker/, built with GOOS=js) and
// natively (tests, `go run ./worker`); the platform supplies the
// environment and the outbound transports (Doer): the upstream's, and
// the sandbox's (the SANDBOX service binding under workerd, an
// in-process internal/sandbox natively). This package does not import
// the sandbox, so a production build carries none of it.
//
// Under workerd one Go instance serves every request of an isolate, many
// at once (worker/entry.mjs): the configuration is parsed once per
// Handler, requests interleave at every await, and nothing request-scoped
// lives outside the per-request exchange. What is shared (the response
// cache) is bounded and guarded.
package edge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/worker/tokens"
	"github.com/parcelgate/parcelgate/worker/watch"
)

// Doer sends one HTTP request. The worker's transport under workerd is
// syumai/workers' fetch client (Go's http.Client panics there); natively
// it is net/http. A Doer must honour the request's context deadline.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

// DoerFunc adapts a function to Doer.
type DoerFunc func(req *http.Request) (*http.Response, error)

// Do implements Doer.
func (f DoerFunc) Do(req *http.Request) (*http.Response, error) { return f(req) }

// Deps are what the platform provides.
type Deps struct {
	// Getenv reads a variable or secret; "" when unset.
	Getenv func(string) string
	// LookupEnv, when set, also tells a variable set to "" from an unset
	// one (os.LookupEnv); only PUBLIC_OPERATIONS needs it.
	LookupEnv func(string) (string, bool)
	// Upstream sends requests to UPSTREAM_BASE_URL when it is set.
	Upstream Doer
	// Sandbox reaches the sandbox upstream, used when UPSTREAM_BASE_URL
	// is "sandbox": under workerd the SANDBOX service binding (the
	// sandbox worker, internal/sandbox/worker, with settings of its own),
	// natively an in-process internal/sandbox made with o. Nil: no
	// sandbox, and UPSTREAM_BASE_URL=sandbox is a configuration error.
	Sandbox func(ctx context.Context, o SandboxOptions) (Doer, error)
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Sleep waits between retries of read operations (a context-aware
	// timer when nil).
	Sleep func(ctx context.Context, d time.Duration) error
	// Log receives one JSON line per request (nothing when nil).
	Log io.Writer
	// NewID makes request ids (16 random bytes in hex when nil).
	NewID func() string
	// Shared is the second cache tier behind the in-instance one (the
	// Workers Cache API under workerd); nil for none.
	Shared SharedCache
	// Bookings keeps the booking records that make new-shipment and
	// new-collection exactly-once (a Durable Object under workerd). Nil:
	// bookings are forwarded as they come.
	Bookings Ledger
	// Limiter applies the rate-limiting bindings (nil: no limits).
	Limiter Limiter
	// Instance describes the Go instance serving a request, for
	// /healthz (nil: not reported).
	Instance func(ctx context.Context) InstanceInfo
	// Watchlists opens the named watchlist of the tracking webhooks (the
	// WATCHLIST Durable Object under workerd); nil when the platform has
	// none, which is a configuration error only when WEBHOOK_URL is set.
	Watchlists func(name string) watch.Store
	// Webhooks delivers the events to WEBHOOK_URL (Upstream when nil).
	Webhooks Doer
}

// noSandbox says what UPSTREAM_BASE_URL=sandbox lacks on a platform
// without a sandbox transport.
const noSandbox = "is sandbox, but the SANDBOX service binding is not configured " +
	"(the sandbox worker, internal/sandbox/worker; make dev and wrangler.toml's [env.dev] bind it)"

// SandboxOptions are the edge's settings an in-process sandbox follows
// (natively; the sandbox worker reads its own): the credentials it
// accepts, the rules feature, its tracking speed-up and the clock.
type SandboxOptions struct {
	User, Key string
	Rules     bool
	TimeScale float64
	Now       func() time.Time
}

// InstanceInfo describes the Go instance that serves the isolate's
// requests (worker/entry.mjs keeps one and replaces it when bounded).
type InstanceInfo struct {
	ID          string // instance number within the isolate
	Requests    int    // requests it has been handed, this one included
	MemoryBytes int64  // its WebAssembly linear memory
}

// Handler is the edge worker's http.Handler.
type Handler struct {
	d Deps

	cfgOnce sync.Once
	cfg     Config
	cfgErrs []ConfigError
	cache   *respCache
	retries *retryBudget
	stats   watchStats
}

// New returns the handler.
func New(d Deps) *Handler {
	if d.Getenv == nil {
		d.Getenv = func(string) string { return "" }
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Sleep == nil {
		d.Sleep = sleep
	}
	if d.NewID == nil {
		d.NewID = randomID
	}
	return &Handler{d: d}
}

// config returns the configuration, parsed on first use: the environment
// of an isolate does not change, so once per instance is enough.
func (h *Handler) config() (*Config, []ConfigError) {
	h.cfgOnce.Do(func() {
		h.cfg, h.cfgErrs = loadConfig(h.d.Getenv, h.d.LookupEnv)
		h.cfgErrs = append(h.cfgErrs, h.webhookErrors(&h.cfg)...)
		if h.cfg.Sandbox && h.d.Sandbox == nil {
			h.cfgErrs = append(h.cfgErrs, ConfigError{EnvUpstreamBaseURL, noSandbox})
		}
		h.cache = newRespCache(h.cfg.CacheMaxBytes, CacheMaxEntries)
		h.retries = newRetryBudget()
	})
	return &h.cfg, h.cfgErrs
}

// Limits returns what the JavaScript entry needs before it hands a
// request over: the body bound, the instance's recycling bounds and how
// long a request may take at most (defaults where the configuration is
// invalid: requests then get the configuration error).
func (h *Handler) Limits() (maxBody, maxRequests, maxMemoryMB int, deadline time.Duration) {
	c, _ := h.config()
	maxBody, maxRequests, maxMemoryMB = c.MaxBodyBytes, c.InstanceRequests, c.InstanceMemoryMB
	timeout := c.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	// Every attempt, the backoff between them, and a margin.
	deadline = time.Duration(len(readBackoff)+1)*timeout + 2*time.Second + 10*time.Second
	if maxBody == 0 {
		maxBody = DefaultMaxBodyBytes
	}
	if maxRequests == 0 {
		maxRequests = DefaultInstanceRequests
	}
	if maxMemoryMB == 0 {
		maxMemoryMB = DefaultInstanceMemoryMB
	}
	return
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func randomID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "req-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	return hex.EncodeToString(b[:])
}

// exchange is the state of one request, for the response headers and the
// log line.
type exchange struct {
	h        *Handler
	w        http.ResponseWriter
	r        *http.Request
	id       string
	start    time.Time
	op       string
	status   int
	class    string
	upstream struct {
		status   int
		attempts int
		dur      time.Duration
	}
	bytesIn  int
	bytesOut int
	note     string // what the log line should add (a failure off the answer's path)
	alert    bool   // the line is written whatever LOG_REQUESTS says (a booking record in doubt)
	origin   string // allowed origin echoed in CORS headers ("" = none)
	// scope is the verified scoped token of the request (nil: master
	// token, demo token or a public operation).
	scope *tokens.Claims
	// detail is a failure's cause for the log line only (never sent).
	detail string
	// proxyToken is the configuration's master token: a configuration
	// error names its variable only to its holder.
	proxyToken string
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	x := &exchange{h: h, w: w, r: r, start: h.d.Now()}
	x.id = requestID(r.Header.Get("X-Request-Id"), h.d.NewID)
	hdr := w.Header()
	hdr.Set("X-Request-Id", x.id)
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	defer func() {
		if v := recover(); v != nil {
			x.class = "panic"
			// A response already written is never followed by a second
			// one; the log line says what happened.
			if x.status == 0 {
				x.fail(&edgeError{status: 500, code: CodeInternal, class: "internal",
					message: "internal error in the edge worker (request " + x.id + ")"})
				x.class = "panic"
			}
		}
		x.log()
	}()
	x.serve()
}

// requestID keeps a client's X-Request-Id when it is a plain token of at
// most 64 characters, else makes a new one.
func requestID(in string, gen func() string) string {
	if n := len(in); n > 0 && n <= 64 {
		ok := true
		for i := 0; i < n && ok; i++ {
			c := in[i]
			ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		}
		if ok {
			return in
		}
	}
	return gen()
}

func (x *exchange) serve() {
	r := x.r
	path := r.URL.Path
	cfg, cfgErrs := x.h.config()
	x.proxyToken = cfg.ProxyToken

	// CORS: only allowed origins get CORS headers; a browser request from
	// any other origin is refused (an Origin header is set by browsers
	// and cannot be forged by a page's scripts).
	if origin := r.Header.Get("Origin"); origin != "" && origin != selfOrigin(r) {
		if !cfg.OriginAllowed(origin) {
			x.fail(&edgeError{status: http.StatusForbidden, code: CodeOriginForbidden, class: "origin_forbidden",
				message: "origin " + strconv.Quote(origin) + " is not allowed (ALLOWED_ORIGINS)"})
			return
		}
		x.origin = origin
	}

	// One spelling per path. Go decodes "%2D" in r.URL.Path, the
	// JavaScript entry (worker/entry.mjs) reads the raw pathname to tell a
	// booking (never replayed after a crash) from a read: a percent-encoded
	// path would be a booking to one and a read to the other. No path of
	// the edge needs an escape, so none is accepted.
	if raw := r.URL.EscapedPath(); strings.IndexByte(raw, '%') >= 0 {
		x.fail(&edgeError{status: http.StatusBadRequest, code: CodeBadRequest, class: "encoded_path",
			message: "path " + strconv.Quote(clip(raw, 96)) + ": percent-encoded characters are not accepted; write the path as it is (/v1/<operation>, e.g. /v1/new-shipment)"})
		return
	}

	var op *catalog.Operation
	switch {
	case strings.HasPrefix(path, faultsPrefix) && cfg.Faults && len(cfgErrs) == 0:
		x.op = "faults"
		x.fault(path[len(faultsPrefix):])
		return
	case path == DemoTokenPath && x.h.demoMode():
		x.op = "demo-token"
		switch r.Method {
		case http.MethodOptions:
			x.preflight("GET, POST")
		case http.MethodGet, http.MethodPost:
			x.demoToken(cfg, cfgErrs)
		default:
			x.methodNotAllowed("GET, POST")
		}
		return
	case path == TokensPath:
		x.op = "tokens"
		switch r.Method {
		case http.MethodOptions:
			x.preflight("POST")
		case http.MethodPost:
			x.mintToken(cfg, cfgErrs)
		default:
			x.methodNotAllowed("POST")
		}
		return
	case path == "/healthz":
		x.op = "healthz"
		if r.Method != http.MethodGet && r.Method != http.MethodOptions {
			x.methodNotAllowed("GET")
			return
		}
	case strings.HasPrefix(path, "/v1/"):
		name := path[len("/v1/"):]
		if op = catalog.Lookup(name); op == nil {
			x.fail(&edgeError{status: http.StatusNotFound, code: CodeNotFound, class: "unknown_operation",
				message: "unknown operation " + strconv.Quote(clip(name, 64)) + "; see GET /healthz for the list"})
			return
		}
		x.op = op.Name
	default:
		x.fail(&edgeError{status: http.StatusNotFound, code: CodeNotFound, class: "not_found",
			message: "not found: operations are at /v1/<operation>, probes at /healthz"})
		return
	}

	allow := "GET"
	if op != nil {
		allow = strings.Join(op.Methods(), ", ")
	}
	if r.Method == http.MethodOptions {
		x.preflight(allow)
		return
	}
	if op == nil { // healthz
		x.health(cfg, cfgErrs)
		return
	}
	if !methodAllowed(op, r.Method) {
		x.methodNotAllowed(allow)
		return
	}
	if len(cfgErrs) > 0 {
		x.misconfigured(cfgErrs)
		return
	}
	if !cfg.Public(op.Name) {
		if cfg.ProxyToken == "" {
			x.misconfigured([]ConfigError{{EnvProxyToken, "secret is not set (needed for the operations outside PUBLIC_OPERATIONS)"}})
			return
		}
		if e := x.authorize(cfg, op); e != nil {
			x.fail(e)
			return
		}
	}
	// Rate limits: by scoped token, else by address; the master token
	// (the shop's server) is not limited.
	header := r.Header.Get("Authorization")
	if x.scope != nil {
		t, _ := bearerToken(header)
		if x.limitedByToken(t) {
			return
		}
	} else if !(cfg.ProxyToken != "" && bearerOK(header, cfg.ProxyToken)) && x.limitedByIP() {
		return
	}
	x.proxy(cfg, op)
}

// selfOrigin is the worker's own origin as the request addressed it; a
// same-origin page (the demo served as assets) needs no CORS.
func selfOrigin(r *http.Request) string {
	host := r.URL.Host
	if host == "" {
		host = r.Host
	}
	scheme := r.URL.Scheme
	if scheme == "" {
		scheme = "http"
		if r.TLS != nil {
			scheme = "https"
		}
	}
	return scheme + "://" + host
}

func methodAllowed(op *catalog.Operation, m string) bool {
	for _, a := range op.Methods() {
		if a == m {
			return true
		}
	}
	return false
}

func (x *exchange) methodNotAllowed(allow string) {
	x.w.Header().Set("Allow", allow+", OPTIONS")
	x.fail(&edgeError{status: http.StatusMethodNotAllowed, code: CodeMethodNotAllowed, class: "method_not_allowed",
		message: "method " + clip(x.r.Method, 16) + " is not allowed for " + x.op + "; use " + allow})
}

func (x *exchange) misconfigured(errs []ConfigError) {
	x.fail(misconfig(errs))
}

// misconfigAnswer is what a caller learns of a configuration error: the
// master token's holder (the operator) which variable and why, anyone
// else a generic message, as /healthz does, since a page or a scanner
// learns from "PROXY_TOKEN: secret is not set" which secrets a worker
// lacks. The log line names it (detail).
func (x *exchange) misconfigAnswer(e *edgeError) *edgeError {
	x.detail = e.message
	if x.proxyToken != "" && bearerOK(x.r.Header.Get("Authorization"), x.proxyToken) {
		return e
	}
	return &edgeError{status: e.status, code: e.code, class: e.class, message: misconfigGeneric}
}

// misconfigGeneric is a configuration error's message to a caller without
// the master token.
const misconfigGeneric = "worker misconfigured: a required secret or setting is missing, weak or invalid; the worker's log names it, and /healthz with the master token"

func misconfig(errs []ConfigError) *edgeError {
	msg := "worker misconfigured: "
	for i, e := range errs {
		if i > 0 {
			msg += "; "
		}
		msg += e.Error()
	}
	return &edgeError{status: http.StatusInternalServerError, code: CodeMisconfigured, class: "misconfigured", message: msg}
}

// preflight answers OPTIONS. The origin was already checked; without an
// Origin (not a browser) it just lists the methods.
func (x *exchange) preflight(allow string) {
	h := x.w.Header()
	h.Set("Allow", allow+", OPTIONS")
	if x.origin != "" {
		h.Set("Access-Control-Allow-Methods", allow+", OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id")
		h.Set("Access-Control-Max-Age", "600")
	}
	x.respond(http.StatusOK, okBody("allow", allow+", OPTIONS"))
}

func (x *exchange) health(cfg *Config, errs []ConfigError) {
	// Every problem at once: the secrets' ones a variable not named yet.
	all := errs
	for _, p := range secretProblems(cfg) {
		named := false
		for _, e := range errs {
			named = named || e.Var == p.Var
		}
		if !named {
			all = append(all[:len(all):len(all)], p)
		}
	}
	errs = all
	if len(errs) > 0 {
		x.unhealthy(cfg, errs)
		return
	}
	upstream := "sandbox"
	if cfg.UpstreamBase != "" {
		upstream = "remote"
	}
	body := okObject(func(w jsonlite.Emitter) {
		w.Key("service")
		w.String("parcelgate-edge")
		w.Key("upstream")
		w.String(upstream)
		if x.h.d.Instance != nil {
			in := x.h.d.Instance(x.r.Context())
			w.Key("instance")
			w.BeginObject()
			w.Key("id")
			w.String(in.ID)
			w.Key("requests")
			w.Int(int64(in.Requests))
			w.Key("memory_bytes")
			w.Int(in.MemoryBytes)
			w.EndObject()
		}
		w.Key("rate_limits")
		w.BeginObject()
		for _, b := range []string{RateLimitPublic, RateLimitAnonymous, RateLimitTokens} {
			w.Key(b)
			if x.h.d.Limiter != nil && x.h.d.Limiter.Bound(b) {
				w.String("on")
			} else {
				w.String("off (no binding: no limit)")
			}
		}
		w.EndObject()
		entries, bytes := x.h.cache.stats()
		w.Key("cache")
		w.BeginObject()
		w.Key("entries")
		w.Int(int64(entries))
		w.Key("bytes")
		w.Int(int64(bytes))
		w.EndObject()
		x.emitWebhooks(cfg, w)
	})
	x.respond(http.StatusOK, body)
}

// fail answers with an edge envelope.
func (x *exchange) fail(e *edgeError) {
	x.class = e.class
	if e.class == "misconfigured" {
		e = x.misconfigAnswer(e)
	}
	x.respond(e.status, e.body(x.id))
}

// respond writes the final response with the CORS and timing headers.
func (x *exchange) respond(status int, body []byte) {
	h := x.w.Header()
	if x.origin != "" {
		h.Set("Access-Control-Allow-Origin", x.origin)
		h.Set("Access-Control-Expose-Headers", "X-Request-Id, Server-Timing, X-Cache, Parcelgate-Data, Retry-After")
	}
	h.Add("Vary", "Origin")
	total := x.h.d.Now().Sub(x.start)
	st := "edge;dur=" + ms(total)
	if x.upstream.attempts > 0 {
		st += ", upstream;dur=" + ms(x.upstream.dur)
	}
	h.Set("Server-Timing", st)
	x.status = status
	x.bytesOut = len(body)
	write(x.w, status, body)
}

// ms formats a duration in milliseconds with one decimal.
func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
