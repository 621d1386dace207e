package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/worker/tokens"
	"github.com/parcelgate/parcelgate/worker/webhooks/wire"
)

// The calls of the module: what worker/src/core.mjs sends and reads, with
// the names of worker/src/core.d.mts. A call is a method number, a JSON
// object (the input without its one large string) and that string as raw
// bytes (a request body, an upstream answer, a stored answer). The answer
// is a JSON object and raw bytes: the JSON's "$raw" member names where the
// bytes go as a string ("response.body", "forward.upstreamBody", ...), so
// bodies never pass through JSON escaping either way.

// Method numbers (the wrapper's METHODS table mirrors them).
const (
	MethodConfigure    = 1
	MethodPrepare      = 2
	MethodAnswer       = 3
	MethodBooking      = 4
	MethodLookedUp     = 5
	MethodTokens       = 6
	MethodDemoToken    = 7
	MethodHealthz      = 8
	MethodIsMaster     = 9
	MethodFailure      = 10
	MethodSignWebhook  = 11
	MethodMint         = 12
	MethodVerify       = 13
	MethodVersion      = 14
	MethodFault        = 15
	MethodNormalize    = 16
	MethodWatchOpen    = 20
	MethodWatchNext    = 21
	MethodWatchSent    = 22
	MethodWatchTracked = 23
	MethodWatchClose   = 24
)

// Version is the module's build, reported by version().
const Version = "edge-core/1"

// Calls holds the configured edge between calls (the module's only
// state) and the writer reused by every answer.
type Calls struct {
	Edge  *Edge
	w     jsonlite.Writer
	raw   []byte
	rawAt string
	// method is the call being answered (endpoint tells /tokens from
	// /demo/token by it).
	method int
	// Trap is called by the fault call (FAULT_INJECTION only): the wasm
	// build panics, which traps; tests pass their own.
	Trap func()
}

// Call runs one method and returns the answer's JSON and raw bytes. The
// answer is valid until the next call.
func (c *Calls) Call(method int, in, raw []byte) (head, rawOut []byte) {
	c.w.Reset()
	c.raw = nil
	c.method = method
	a := newArgs(in)
	e := c.Edge
	if e == nil && method != MethodConfigure && method != MethodVersion && method != MethodMint && method != MethodVerify {
		// Not configured yet: every decision needs the configuration.
		e = Configure(func(string) (string, bool) { return "", false }, Bindings{})
		c.Edge = e
	}
	w := &c.w
	w.BeginObject()
	if method >= 0 && method < len(methods) && methods[method] != nil {
		methods[method](c, e, a, raw)
	} else {
		c.str("error", "unknown method")
	}
	if c.raw != nil {
		w.Key("$raw")
		w.String(c.rawAt)
	}
	w.EndObject()
	return w.Bytes(), c.raw
}

// methods is the dispatch table. Calls through it are indirect, so each
// method stays a wasm function of its own: with a switch, LLVM inlined
// every method into one 56 KB function, which V8 compiles whole on the
// module's first call (about 20 ms of a cold start in Node; the bench's
// cold first request). Now the first request compiles only what it runs.
var methods = [...]func(c *Calls, e *Edge, a args, raw []byte){
	MethodConfigure: func(c *Calls, _ *Edge, a args, _ []byte) { c.Edge = c.configure(a) },
	MethodPrepare:   func(c *Calls, _ *Edge, a args, raw []byte) { c.prepare(a, raw) },
	MethodAnswer:    (*Calls).answer,
	MethodBooking: func(c *Calls, e *Edge, a args, raw []byte) {
		c.step(e.Booking(answerContext(a.obj("context")), ticket(a.obj("ticket")), a.str("state"), raw,
			time.Duration(a.num("retryAfterMs"))*time.Millisecond, a.str("requestId"), a.str("acceptLanguage")))
	},
	MethodLookedUp: func(c *Calls, e *Edge, a args, raw []byte) {
		c.step(e.LookedUp(answerContext(a.obj("context")), ticket(a.obj("ticket")), []byte(a.str("upstreamBody")), upstream(a.obj("upstream"), raw), a.str("requestId"), a.str("acceptLanguage")))
	},
	MethodTokens:    (*Calls).endpoint,
	MethodDemoToken: (*Calls).endpoint,
	MethodHealthz:   func(c *Calls, e *Edge, a args, _ []byte) { c.response("", e.Healthz(health(a))) },
	MethodIsMaster:  func(c *Calls, e *Edge, a args, _ []byte) { c.bool("master", e.IsMaster(a.str("authorization"))) },
	MethodFailure: func(c *Calls, e *Edge, a args, _ []byte) {
		c.response("", e.Failure(FailureInput{Kind: a.str("kind"), RequestID: a.str("requestId"), AcceptLanguage: a.str("acceptLanguage"),
			Operation: a.str("operation"), Method: a.str("method"), Path: a.str("path"), Allow: a.str("allow"), Origin: a.str("origin")}))
	},
	MethodSignWebhook: func(c *Calls, e *Edge, a args, raw []byte) {
		c.str("signature", e.SignWebhook(raw, millis(a.num("now"))))
	},
	MethodMint:    func(c *Calls, _ *Edge, a args, _ []byte) { c.mint(a) },
	MethodVerify:  func(c *Calls, _ *Edge, a args, _ []byte) { c.verify(a) },
	MethodVersion: func(c *Calls, _ *Edge, _ args, _ []byte) { c.str("version", Version) },
	MethodFault: func(c *Calls, e *Edge, a args, _ []byte) {
		if e.cfg.Faults && a.str("kind") == "trap" && c.Trap != nil {
			c.Trap()
		}
		c.response("", e.Failure(FailureInput{Kind: "not_found", RequestID: a.str("requestId")}))
	},
	MethodNormalize: func(c *Calls, e *Edge, a args, raw []byte) {
		out, normalized := raw, false
		if !a.boolean("keep") {
			out, normalized = Normalize(a.str("operation"), raw)
		}
		// Offers and points signed into the client's body (offers.go).
		out = e.SignAnswer(a.str("operation"), out, a.str("sign"), millis(a.num("now")))
		c.bool("normalized", normalized)
		c.setRaw("body", out)
	},
	MethodWatchOpen:    watchMethod(MethodWatchOpen),
	MethodWatchNext:    watchMethod(MethodWatchNext),
	MethodWatchSent:    watchMethod(MethodWatchSent),
	MethodWatchTracked: watchMethod(MethodWatchTracked),
	MethodWatchClose:   watchMethod(MethodWatchClose),
}

func watchMethod(m int) func(c *Calls, _ *Edge, a args, raw []byte) {
	return func(c *Calls, _ *Edge, a args, raw []byte) { c.watchCall(m, a, raw) }
}

func (c *Calls) answer(e *Edge, a args, raw []byte) {
	ctx := answerContext(a.obj("context"))
	var sent time.Time
	if ms := a.num("sentAt"); ms > 0 {
		sent = millis(ms)
	}
	an := e.Answer(ctx, upstream(a.obj("upstream"), raw), a.str("requestId"), a.str("acceptLanguage"), millis(a.num("now")), sent)
	c.response("response", an.Response)
	c.str("outcome", an.Outcome)
	c.bool("cacheable", an.Cacheable)
	c.bool("retry", an.Retry)
	c.bool("leak", an.Leak)
	c.watch(an.Watch)
	c.str("note", an.Note)
}

// endpoint answers POST /tokens and /demo/token: which one is the
// method's own, read from the call (method numbers stay the wrapper's).
func (c *Calls) endpoint(e *Edge, a args, raw []byte) {
	r := request(a, raw)
	var ep *Endpoint
	if c.method == MethodTokens {
		ep = e.Tokens(r)
	} else {
		ep = e.DemoToken(r)
	}
	c.rateLimit(ep.RateLimit)
	c.response("response", ep.Response)
}

// rawAt is where the raw bytes of the answer go (set with c.raw).
func (c *Calls) setRaw(at string, b []byte) {
	c.rawAt, c.raw = at, b
	if c.raw == nil {
		c.raw = []byte{}
	}
}

// The writers below are not inlined: at -opt=2 each call site would get
// a copy of the JSON writer (tens of kilobytes of module for no speed that
// matters next to the call's own work).
//
//go:noinline
func (c *Calls) str(k, v string) {
	c.w.Key(k)
	c.w.String(v)
}

//go:noinline
func (c *Calls) bool(k string, v bool) {
	c.w.Key(k)
	c.w.Bool(v)
}

//go:noinline
func (c *Calls) int(k string, v int64) {
	c.w.Key(k)
	c.w.Int(v)
}

func (c *Calls) configure(a args) *Edge {
	vars := a.obj("vars")
	b := a.obj("bindings")
	e := Configure(func(k string) (string, bool) { return vars.strOK(k) },
		Bindings{Bookings: b.boolean("bookings"), Watchlist: b.boolean("watchlist"), Sandbox: b.boolean("sandbox"),
			AnonymousRateLimit: b.boolean("rateLimitAnonymous")})
	w := &c.w
	w.Key("errors")
	w.BeginArray()
	for _, p := range e.errs {
		w.BeginObject()
		c.str("variable", p.Var)
		c.str("problem", p.Problem)
		w.EndObject()
	}
	w.EndArray()
	w.Key("upstream")
	w.BeginObject()
	kind := "remote"
	if e.cfg.Sandbox {
		kind = "sandbox"
	}
	c.str("kind", kind)
	c.str("baseUrl", e.UpstreamBase())
	c.str("authorization", e.UpstreamAuthorization())
	w.EndObject()
	cfg := &e.cfg
	maxBody := cfg.MaxBodyBytes
	if maxBody == 0 {
		maxBody = DefaultMaxBodyBytes
	}
	w.Key("limits")
	w.BeginObject()
	c.int("maxBodyBytes", int64(maxBody))
	c.int("upstreamTimeoutMs", e.timeout().Milliseconds())
	w.Key("readRetryBackoffMs")
	w.BeginArray()
	for _, d := range readBackoff {
		w.Int(d.Milliseconds())
	}
	w.EndArray()
	w.Key("retryShare")
	w.Float(RetryShare)
	c.int("retryBurst", RetryBurst)
	c.int("maxUpstreamBodyBytes", MaxUpstreamBody)
	c.int("cacheMaxBytes", int64(cfg.CacheMaxBytes))
	c.int("cacheMaxEntries", CacheMaxEntries)
	c.int("requestDeadlineMs", e.RequestDeadline().Milliseconds())
	c.int("bookingWaitMs", e.bookingWait().Milliseconds())
	c.int("bookingHoldMs", e.bookingHold().Milliseconds())
	c.int("bookingRecordTtlMs", BookingRecordTTL.Milliseconds())
	c.int("bookingGraceMs", cfg.BookingGrace.Milliseconds())
	c.int("bookingsLegacyUntilMs", cfg.BookingsLegacyUntil)
	c.int("rateLimitRetryAfterSeconds", RateLimitRetryAfter)
	w.EndObject()
	w.Key("allowedOrigins")
	w.BeginArray()
	for _, o := range cfg.AllowedOrigins {
		w.String(o)
	}
	w.EndArray()
	w.Key("operations")
	w.BeginArray()
	for _, p := range routes() {
		w.BeginObject()
		c.str("name", p.name)
		w.Key("methods")
		w.BeginArray()
		for _, m := range p.methods {
			w.String(m)
		}
		w.EndArray()
		c.bool("public", cfg.Public(p.name))
		c.bool("books", p.books)
		w.EndObject()
	}
	w.EndArray()
	c.bool("exactlyOnce", e.ledger())
	c.str("logRequests", cfg.LogRequests)
	c.bool("faults", cfg.Faults)
	c.bool("demo", e.Demo())
	w.Key("webhooks")
	if wh := cfg.Webhooks; wh == nil {
		w.Null()
	} else {
		w.BeginObject()
		c.str("url", wh.URL)
		c.int("budget", int64(wh.Budget))
		c.int("checkEveryMs", wh.CheckEvery.Milliseconds())
		c.int("retryForMs", wh.RetryFor.Milliseconds())
		c.int("maxAgeMs", wh.MaxAge.Milliseconds())
		c.int("leaseMs", Lease.Milliseconds())
		c.int("commitEvery", CommitEvery)
		c.int("concurrency", Concurrency)
		c.int("deliveryTimeoutMs", DeliveryTimeout.Milliseconds())
		c.int("runTimeoutMs", WatchRunTimeout.Milliseconds())
		c.str("userAgent", WebhookUserAgent)
		w.EndObject()
	}
	c.str("watchlistName", e.WatchlistName())
	return e
}

func (c *Calls) prepare(a args, raw []byte) {
	r := request(a, raw)
	var booked *Peeked
	if b := a.obj("booked"); b.present() {
		booked = &Peeked{State: b.str("state"), Body: []byte(b.str("body"))}
	}
	p := c.Edge.Prepare(a.str("operation"), r, booked)
	w := &c.w
	c.str("kind", p.Kind)
	c.str("caller", p.Caller)
	c.rateLimit(p.RateLimit)
	switch p.Kind {
	case KindRespond:
		c.response("response", p.Response)
	case KindPeek:
		c.str("bookingKey", p.BookingKey)
	case KindForward:
		f := p.Forward
		w.Key("forward")
		w.BeginObject()
		c.str("operation", f.Operation)
		c.bool("retryable", f.Retryable)
		c.str("sign", f.Sign)
		w.Key("cache")
		if f.CacheKey == "" {
			w.Null()
		} else {
			w.BeginObject()
			c.str("key", f.CacheKey)
			c.int("ttlSeconds", int64(f.CacheTTL/time.Second))
			w.EndObject()
		}
		w.Key("booking")
		if f.Booking == nil {
			w.Null()
		} else {
			c.ticket(f.Booking)
		}
		w.Key("context")
		w.BeginObject()
		c.str("operation", f.Context.Operation)
		c.str("clientRef", f.Context.ClientRef)
		c.bool("ledger", f.Context.Ledger)
		w.EndObject()
		w.EndObject()
		c.setRaw("forward.upstreamBody", f.UpstreamBody)
	}
}

//go:noinline
func (c *Calls) ticket(t *Ticket) {
	w := &c.w
	w.BeginObject()
	c.str("key", t.Key)
	c.str("fingerprint", t.Fingerprint)
	c.str("refField", t.RefField)
	c.str("ref", t.Ref)
	c.int("waitMs", t.Wait.Milliseconds())
	c.int("holdMs", t.Hold.Milliseconds())
	c.int("recordTtlMs", t.RecordTTL.Milliseconds())
	w.EndObject()
}

// response writes a response under key ("" for the answer itself); its
// body goes out raw.
//
//go:noinline
func (c *Calls) response(key string, r *Response) {
	w := &c.w
	if key != "" {
		w.Key(key)
		w.BeginObject()
	}
	c.int("status", int64(r.Status))
	w.Key("headers")
	w.BeginObject()
	for _, h := range r.Headers {
		c.str(h.Name, h.Value)
	}
	w.EndObject()
	c.str("class", r.Class)
	if r.Detail != "" {
		c.str("detail", r.Detail)
	}
	if key != "" {
		w.EndObject()
		c.setRaw(key+".body", r.Body)
	} else {
		c.setRaw("body", r.Body)
	}
}

//go:noinline
func (c *Calls) rateLimit(rl *RateLimit) {
	w := &c.w
	w.Key("rateLimit")
	if rl == nil {
		w.Null()
		return
	}
	w.BeginObject()
	c.str("binding", rl.Binding)
	c.str("key", rl.Key)
	w.EndObject()
}

//go:noinline
func (c *Calls) watch(add *WatchAdd) {
	w := &c.w
	w.Key("watch")
	if add == nil {
		w.Null()
		return
	}
	w.BeginObject()
	c.str("dlvrRef", add.DlvrRef)
	c.str("clientRef", add.ClientRef)
	w.EndObject()
}

//go:noinline
func (c *Calls) step(s *Step) {
	w := &c.w
	c.str("kind", s.Kind)
	switch s.Kind {
	case KindRespond:
		c.response("response", s.Response)
		w.Key("finish")
		if s.Finish == nil {
			w.Null()
		} else {
			// The body of an ok finish is the response's: the wrapper
			// fills it in.
			w.BeginObject()
			c.str("outcome", s.Finish.Outcome)
			w.Key("body")
			w.Null()
			w.EndObject()
		}
		c.watch(s.Watch)
	case KindLookup:
		c.str("operation", s.Operation)
		c.setRaw("lookupBody", s.LookupBody)
	case KindForward:
		c.bool("sending", s.Sending)
	}
}

func (c *Calls) mint(a args) {
	g := grant(a.obj("grant"))
	var err error
	var tok string
	var exp time.Time
	if ttl, whole := a.whole("ttlSeconds"); !whole {
		err = &tokens.FieldError{Field: "ttl", Problem: "must be a whole number of seconds from 1 to 2592000"}
	} else {
		tok, exp, err = tokens.Mint([]byte(a.str("key")), g, time.Duration(ttl)*time.Second, millis(a.num("now")))
	}
	w := &c.w
	if err != nil {
		w.Key("token")
		w.Null()
		w.Key("expiresAt")
		w.Null()
		w.Key("grant")
		w.Null()
		w.Key("error")
		w.BeginObject()
		if fe, ok := err.(*tokens.FieldError); ok {
			c.str("field", fe.Field)
			c.str("problem", fe.Problem)
		} else {
			c.str("field", "key")
			c.str("problem", err.Error())
		}
		w.EndObject()
		return
	}
	checked, _ := tokens.Check(g)
	c.str("token", tok)
	c.int("expiresAt", exp.UnixMilli())
	w.Key("grant")
	c.grant(checked)
	w.Key("error")
	w.Null()
}

func (c *Calls) grant(g tokens.Grant) {
	c.w.BeginObject()
	c.grantMembers(g)
	c.w.EndObject()
}

//go:noinline
func (c *Calls) grantMembers(g tokens.Grant) {
	w := &c.w
	w.Key("operations")
	w.BeginArray()
	for _, op := range g.Operations {
		w.String(op)
	}
	w.EndArray()
	c.str("shippingClientRef", g.ShippingClientRef)
	c.str("dlvrRef", g.DlvrRef)
	c.str("collectionClientRef", g.CollectionClientRef)
}

func (c *Calls) verify(a args) {
	cl, err := tokens.Verify(tokens.Keys{[]byte(a.str("key"))}, a.str("token"), millis(a.num("now")))
	w := &c.w
	if err != nil {
		w.Key("claims")
		w.Null()
		code := "malformed"
		if te, ok := err.(*tokens.Error); ok { // not tokens.Reason: its Unwrap walk costs the module
			code = te.Reason
		}
		c.str("error", code)
		return
	}
	w.Key("claims")
	w.BeginObject()
	c.grantMembers(cl.Grant)
	c.int("expiresAt", cl.Expires.UnixMilli())
	w.EndObject()
	w.Key("error")
	w.Null()
}

// SignWebhook signs a webhook body with the configured secrets at now.
func (e *Edge) SignWebhook(body []byte, now time.Time) string {
	if e.cfg.Webhooks == nil || len(e.cfg.Webhooks.Secrets) == 0 {
		return ""
	}
	return wire.SignAll(e.cfg.Webhooks.Secrets, body, now)
}

type route struct {
	name    string
	methods []string
	books   bool
}

func routes() []route {
	out := make([]route, 0, 13)
	for _, name := range operationNames() {
		op := lookup(name)
		out = append(out, route{name: name, methods: op.Methods(), books: op.Books})
	}
	return out
}

func millis(ms int64) time.Time { return time.UnixMilli(ms) }

func request(a args, raw []byte) *Request {
	q, hasQ := a.strOK("query")
	return &Request{Method: unitab.Upper(a.str("method")), Query: q, HasQuery: hasQ, Body: raw, BodyTooLarge: a.boolean("bodyTooLarge"),
		ContentType: a.str("contentType"), AcceptLanguage: a.str("acceptLanguage"), Authorization: a.str("authorization"),
		ClientIP: a.str("clientIp"), RequestID: a.str("requestId"), Now: millis(a.num("now"))}
}

func answerContext(a args) AnswerContext {
	return AnswerContext{Operation: a.str("operation"), ClientRef: a.str("clientRef"), Ledger: a.boolean("ledger")}
}

func ticket(a args) *Ticket {
	return &Ticket{Key: a.str("key"), Fingerprint: a.str("fingerprint"), RefField: a.str("refField"), Ref: a.str("ref")}
}

func upstream(a args, raw []byte) *Upstream {
	return &Upstream{Status: int(a.num("status")), Body: raw, Failure: a.str("failure")}
}

func grant(a args) tokens.Grant {
	g := tokens.Grant{ShippingClientRef: a.str("shippingClientRef"), DlvrRef: a.str("dlvrRef"), CollectionClientRef: a.str("collectionClientRef"), Offer: a.str("offer")}
	g.Operations = a.strs("operations")
	return g
}

func health(a args) *Health {
	h := &Health{Method: unitab.Upper(a.str("method")), Authorization: a.str("authorization"), RequestID: a.str("requestId"),
		AcceptLanguage: a.str("acceptLanguage")}
	if in := a.obj("instance"); in.present() {
		h.Instance = &Instance{ID: in.str("id"), Requests: in.num("requests"), MemoryBytes: in.num("memoryBytes")}
	}
	rl := a.obj("rateLimits")
	h.RatePublic, h.RateTokens, h.RateAnonymous = rl.boolean("public"), rl.boolean("tokens"), rl.boolean("anonymous")
	cache := a.obj("cache")
	h.CacheEntries, h.CacheBytes = cache.num("entries"), cache.num("bytes")
	if wh := a.obj("webhooks"); wh.present() {
		h.StatsError = wh.str("error")
		if s := wh.obj("stats"); s.present() {
			h.Stats = &WatchStats{Watched: s.num("watched"), Pending: s.num("pending"), Delivered: s.num("delivered"), Dropped: s.num("dropped")}
			if lr := s.raw("last_run"); lr != "" && lr != "null" {
				h.Stats.LastRun = []byte(lr)
				h.Stats.LastRunAt = s.obj("last_run").str("at")
			}
		} else if h.StatsError == "" {
			// Only when it last ran (the JavaScript reads the counts for the
			// master token only): enough for a liveness probe.
			h.Stats = &WatchStats{CountsHidden: true}
			if ms := wh.num("lastRunAt"); ms > 0 {
				h.Stats.LastRunAt = rfc3339(unixOfMillis(ms))
			}
		}
	}
	return h
}

func watchRow(a args) *WatchRow {
	return &WatchRow{Ref: a.str("ref"), ClientRef: a.str("client_ref"), Added: a.num("added"), NextAt: a.num("next_at"),
		Pending: int(a.num("pending")), State: a.str("state")}
}

func (c *Calls) watchCall(method int, a args, raw []byte) {
	e, w := c.Edge, &c.w
	runAt := a.num("runAt")
	switch method {
	case MethodWatchOpen:
		rec, due, body, bad := e.WatchOpen(watchRow(a.obj("row")), runAt)
		c.str("record", rec)
		c.bool("pollDue", due)
		c.str("pollBody", string(body))
		c.bool("unreadable", bad)
	case MethodWatchNext:
		id, body, sig := e.WatchNext(a.str("record"), runAt, millis(a.num("now")))
		w.Key("event")
		if id == "" {
			w.Null()
			return
		}
		w.BeginObject()
		c.str("id", id)
		c.str("signature", sig)
		w.EndObject()
		c.setRaw("event.body", body)
	case MethodWatchSent:
		rec, dropped := e.WatchSent(a.str("record"), a.str("eventId"), a.boolean("ok"), runAt)
		c.str("record", rec)
		c.bool("dropped", dropped)
	case MethodWatchTracked:
		rec, changes, dropped, problem := e.WatchTracked(a.str("record"), watchRow(a.obj("row")), upstream(a.obj("upstream"), raw), runAt)
		c.str("record", rec)
		c.int("changes", int64(changes))
		c.int("dropped", int64(dropped))
		w.Key("error")
		if problem == "" {
			w.Null()
		} else {
			w.String(problem)
		}
	case MethodWatchClose:
		row, remove, finished, expired := e.WatchClose(a.str("record"), watchRow(a.obj("row")), runAt, a.boolean("touched"), a.boolean("deferred"))
		w.Key("row")
		w.BeginObject()
		c.str("ref", row.Ref)
		c.str("client_ref", row.ClientRef)
		c.int("added", row.Added)
		c.int("next_at", row.NextAt)
		c.int("pending", int64(row.Pending))
		c.str("state", row.State)
		w.EndObject()
		c.bool("remove", remove)
		c.bool("finished", finished)
		c.bool("expired", expired)
	}
}
