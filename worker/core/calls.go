package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/worker/core/seam"
	"github.com/parcelgate/parcelgate/worker/tokens"
	"github.com/parcelgate/parcelgate/worker/webhooks/wire"
)

// The calls of the module: worker/core/seam declares them (names, inputs,
// outputs); the generated dispatch (calls_gen.go) decodes a call's input,
// runs its method below and encodes the output. A call is a method number,
// the input's JSON (without its one large string) and that string as raw
// bytes (a request body, an upstream answer, a stored answer); the answer
// is JSON and raw parts that its "$raw" member places, so bodies never
// pass through JSON escaping either way.

// Version is the module's build, reported by version().
const Version = "edge-core/3"

// Calls holds the configured edge between calls (the module's only
// state) and the writer reused by every answer.
type Calls struct {
	Edge *Edge
	w    seam.Writer
	// Trap is called by the fault call (FAULT_INJECTION only): the wasm
	// build panics, which traps; tests pass their own.
	Trap func()
}

// Call runs one method and returns the answer's JSON and its raw parts.
// The answer is valid until the next call. The input's strings are read
// in place (seam's decodeCall), so in and raw must not change until Call
// returns; only configure keeps strings past its call (the Edge), and
// its input is copied (seam's decodeCall).
func (c *Calls) Call(method int, in, raw []byte) (head []byte, parts [][]byte) {
	c.w.Reset()
	if method <= 0 || method >= len(methods) || methods[method] == nil {
		c.w.Error("unknown method")
		return c.w.Bytes(), nil
	}
	if c.Edge == nil && !seam.Free[method] {
		// Not configured yet: every decision needs the configuration.
		c.Edge = Configure(func(string) (string, bool) { return "", false }, Bindings{})
	}
	methods[method](c, in, raw)
	return c.w.Bytes(), c.w.Parts
}

func (c *Calls) prepare(in *seam.PrepareInput, out *seam.Prepared) {
	r := request(&in.RequestFacts)
	var booked *Peeked
	if b := in.Booked; b != nil {
		booked = &Peeked{State: b.State, Body: []byte(b.Body)}
	}
	p := c.Edge.Prepare(in.Operation, r, booked)
	out.Kind, out.Caller, out.RateLimit = p.Kind, p.Caller, rateLimit(p.RateLimit)
	switch p.Kind {
	case KindRespond:
		out.Response = response(p.Response)
	case KindPeek:
		out.BookingKey = p.BookingKey
	case KindForward:
		f := p.Forward
		fw := &seam.Forward{Operation: f.Operation, UpstreamBody: f.UpstreamBody, Retryable: f.Retryable, Pricing: f.Pricing, Sign: f.Sign,
			Context: seam.AnswerContext{Operation: f.Context.Operation, ClientRef: f.Context.ClientRef, Ledger: f.Context.Ledger}}
		if f.CacheKey != "" {
			fw.Cache = &seam.CacheTicket{Key: f.CacheKey, TTLSeconds: int64(f.CacheTTL / time.Second)}
		}
		if t := f.Booking; t != nil {
			fw.Booking = &seam.BookingTicket{Key: t.Key, Fingerprint: t.Fingerprint, RefField: t.RefField, Ref: t.Ref,
				WaitMs: t.Wait.Milliseconds(), HoldMs: t.Hold.Milliseconds(), RecordTTLMs: t.RecordTTL.Milliseconds()}
		}
		fw.Rates = ratesPlan(f.Rates)
		out.Forward = fw
	}
}

func (c *Calls) answer(in *seam.AnswerInput, out *seam.Answered) {
	var sent time.Time
	if in.SentAt > 0 {
		sent = millis(in.SentAt)
	}
	an := c.Edge.Answer(AnswerInput{Context: answerContext(in.Context), Upstream: upstream(&in.Upstream), RequestID: in.RequestID, AcceptLanguage: in.AcceptLanguage, Now: millis(in.Now), SentAt: sent})
	*out = seam.Answered{Response: response(an.Response), Outcome: an.Outcome, Cacheable: an.Cacheable, Retry: an.Retry,
		Leak: an.Leak, Watch: watchAdd(an.Watch), Note: an.Note}
}

func (c *Calls) booking(in *seam.BookingInput, out *seam.Step) {
	step(c.Edge.Booking(BookingInput{Context: answerContext(in.Context), Ticket: ticket(&in.Ticket), State: in.State, Stored: in.Stored, RetryAfter: time.Duration(in.RetryAfterMs) * time.Millisecond, RequestID: in.RequestID, AcceptLanguage: in.AcceptLanguage}), out)
}

func (c *Calls) lookedUp(in *seam.LookedUpInput, out *seam.Step) {
	step(c.Edge.LookedUp(LookedUpInput{Context: answerContext(in.Context), Ticket: ticket(&in.Ticket), UpstreamBody: []byte(in.UpstreamBody), Upstream: upstream(&in.Upstream), RequestID: in.RequestID, AcceptLanguage: in.AcceptLanguage}), out)
}

func (c *Calls) tokens(in *seam.RequestFacts, out *seam.EndpointAnswer) {
	endpoint(c.Edge.Tokens(request(in)), out)
}

func (c *Calls) demoToken(in *seam.RequestFacts, out *seam.EndpointAnswer) {
	endpoint(c.Edge.DemoToken(request(in)), out)
}

func endpoint(ep *Endpoint, out *seam.EndpointAnswer) {
	out.RateLimit, out.Response = rateLimit(ep.RateLimit), response(ep.Response)
}

func (c *Calls) healthz(in *seam.HealthzInput, out *seam.CoreResponse) {
	*out = *response(c.Edge.Healthz(health(in)))
}

func (c *Calls) isMaster(in *seam.IsMasterInput, out *seam.IsMasterResult) {
	out.Master = c.Edge.IsMaster(in.Authorization)
}

func (c *Calls) failure(in *seam.FailureInput, out *seam.CoreResponse) {
	*out = *response(c.Edge.Failure(FailureInput{Kind: string(in.Kind), RequestID: in.RequestID, AcceptLanguage: in.AcceptLanguage,
		Operation: in.Operation, Method: in.Method, Path: in.Path, Allow: in.Allow, Origin: in.Origin}))
}

func (c *Calls) signWebhook(in *seam.SignWebhookInput, out *seam.SignWebhookResult) {
	out.Signature = c.Edge.SignWebhook(in.Body, millis(in.Now))
}

func (c *Calls) version(out *seam.VersionResult) { out.Version = Version }

func (c *Calls) fault(in *seam.FaultInput, out *seam.CoreResponse) {
	if c.Edge.cfg.Faults && in.Kind == "trap" && c.Trap != nil {
		c.Trap()
	}
	*out = *response(c.Edge.Failure(FailureInput{Kind: "not_found", RequestID: in.RequestID}))
}

func (c *Calls) normalize(in *seam.NormalizeInput, out *seam.NormalizeResult) {
	out.Body, out.Normalized = in.Body, false
	if !in.Keep {
		// With room for the signatures (about a third of the answer: an
		// entry of some 120 bytes per service or point of 300 to 400).
		extra := 0
		if in.Sign != "" {
			extra = len(in.Body) / 3
		}
		out.Body, out.Normalized = normalize(in.Operation, in.Body, extra)
	}
	// The shop's prices (pricing.go), then offers (offers.go): after
	// pricing, so an offer binds the shop's price; into the normalized
	// body itself (the call's own buffer), not a copy.
	out.Body = c.Edge.PriceAndSign(in.Operation, out.Body, in.Pricing, in.Sign, millis(in.Now), out.Normalized)
}

func (c *Calls) configure(in *seam.ConfigureInput, out *seam.Configuration) {
	vars := in.Vars
	b := in.Bindings
	e := Configure(func(k string) (string, bool) {
		for _, p := range vars {
			if p.Name == k {
				return p.Value, true
			}
		}
		return "", false
	}, Bindings{Bookings: b.Bookings, Watchlist: b.Watchlist, Sandbox: b.Sandbox, AnonymousRateLimit: b.RateLimitAnonymous, Check: b.Check})
	c.Edge = e
	out.Errors = make([]seam.ConfigProblem, 0, len(e.errs))
	for _, p := range e.errs {
		out.Errors = append(out.Errors, seam.ConfigProblem{Variable: p.Var, Problem: p.Problem})
	}
	kind := "remote"
	if e.cfg.Sandbox {
		kind = "sandbox"
	}
	out.Upstream = seam.UpstreamSettings{Kind: kind, BaseURL: e.UpstreamBase(), Authorization: e.UpstreamAuthorization()}
	cfg := &e.cfg
	maxBody := cfg.MaxBodyBytes
	if maxBody == 0 {
		maxBody = DefaultMaxBodyBytes
	}
	backoff := make([]int64, len(readBackoff))
	for i, d := range readBackoff {
		backoff[i] = d.Milliseconds()
	}
	out.Limits = seam.Limits{MaxBodyBytes: int64(maxBody), UpstreamTimeoutMs: e.timeout().Milliseconds(), ReadRetryBackoffMs: backoff,
		RetryShare: RetryShare, RetryBurst: RetryBurst, MaxUpstreamBodyBytes: MaxUpstreamBody, CacheMaxBytes: int64(cfg.CacheMaxBytes),
		CacheMaxEntries: CacheMaxEntries, RequestDeadlineMs: e.RequestDeadline().Milliseconds(), BookingWaitMs: e.bookingWait().Milliseconds(),
		BookingHoldMs: e.bookingHold().Milliseconds(), BookingRecordTTLMs: BookingRecordTTL.Milliseconds(),
		BookingGraceMs: cfg.BookingGrace.Milliseconds(), BookingsLegacyUntilMs: cfg.BookingsLegacyUntil, RateLimitRetryAfterSeconds: RateLimitRetryAfter}
	out.AllowedOrigins = cfg.AllowedOrigins
	if out.AllowedOrigins == nil {
		out.AllowedOrigins = []string{}
	}
	out.Operations = make([]seam.RouteInfo, 0, len(catalog.Operations))
	for i := 0; i < len(catalog.Operations); i++ {
		op := &catalog.Operations[i]
		out.Operations = append(out.Operations, seam.RouteInfo{Name: op.Name, Methods: op.Methods(), Public: cfg.Public(op.Name), Books: op.Books})
	}
	out.ExactlyOnce, out.LogRequests, out.Faults, out.Demo = e.ledger(), cfg.LogRequests, cfg.Faults, e.Demo()
	if wh := cfg.Webhooks; wh != nil {
		out.Webhooks = &seam.WebhookSettings{URL: wh.URL, Budget: int64(wh.Budget), CheckEveryMs: wh.CheckEvery.Milliseconds(),
			RetryForMs: wh.RetryFor.Milliseconds(), MaxAgeMs: wh.MaxAge.Milliseconds(), LeaseMs: Lease.Milliseconds(),
			CommitEvery: CommitEvery, Concurrency: Concurrency, DeliveryTimeoutMs: DeliveryTimeout.Milliseconds(),
			RunTimeoutMs: WatchRunTimeout.Milliseconds(), UserAgent: WebhookUserAgent}
	}
	out.WatchlistName = e.WatchlistName()
}

func (c *Calls) mint(in *seam.MintInput, out *seam.MintResult) {
	g := grant(&in.Grant)
	var err error
	var tok string
	var exp time.Time
	if ttl, whole := wholeNumber(string(in.TTLSeconds)); !whole {
		err = &tokens.FieldError{Field: "ttl", Problem: "must be a whole number of seconds from 1 to 2592000"}
	} else {
		tok, exp, err = tokens.Mint([]byte(in.Key), g, time.Duration(ttl)*time.Second, millis(in.Now))
	}
	if err != nil {
		p := &seam.FieldProblem{Field: "key", Problem: err.Error()}
		if fe, ok := err.(*tokens.FieldError); ok {
			p.Field, p.Problem = fe.Field, fe.Problem
		}
		out.Error = p
		return
	}
	checked, _ := tokens.Check(g)
	ms := exp.UnixMilli()
	sg := seamGrant(checked)
	out.Token, out.ExpiresAt, out.Grant = &tok, &ms, &sg
}

// wholeNumber reads a number that must be whole (absent or null: 0).
func wholeNumber(r string) (int64, bool) {
	if r == "" || r == "null" {
		return 0, true
	}
	return decimal.ParseInt(r)
}

func (c *Calls) verify(in *seam.VerifyInput, out *seam.VerifyResult) {
	cl, err := tokens.Verify(tokens.Keys{[]byte(in.Key)}, in.Token, millis(in.Now))
	if err != nil {
		code := "malformed"
		if te, ok := err.(*tokens.Error); ok { // not tokens.Reason: its Unwrap walk costs the module
			code = te.Reason
		}
		out.Error = &code
		return
	}
	out.Claims = &seam.Claims{Grant: seamGrant(cl.Grant), ExpiresAt: cl.Expires.UnixMilli()}
}

func seamGrant(g tokens.Grant) seam.Grant {
	ops := g.Operations
	if ops == nil {
		ops = []string{}
	}
	return seam.Grant{Operations: ops, ShippingClientRef: g.ShippingClientRef, DlvrRef: g.DlvrRef, CollectionClientRef: g.CollectionClientRef, Offer: g.Offer}
}

// SignWebhook signs a webhook body with the configured secrets at now.
func (e *Edge) SignWebhook(body []byte, now time.Time) string {
	if e.cfg.Webhooks == nil || len(e.cfg.Webhooks.Secrets) == 0 {
		return ""
	}
	return wire.SignAll(e.cfg.Webhooks.Secrets, body, now)
}

func (c *Calls) watchOpen(in *seam.WatchOpenInput, out *seam.WatchOpened) {
	rec, due, body, bad := c.Edge.WatchOpen(watchRow(&in.Row), in.RunAt)
	*out = seam.WatchOpened{Record: rec, PollDue: due, PollBody: string(body), Unreadable: bad}
}

func (c *Calls) watchNext(in *seam.WatchNextInput, out *seam.WatchNextResult) {
	id, body, sig := c.Edge.WatchNext(in.Record, in.RunAt, millis(in.Now))
	if id != "" {
		out.Event = &seam.WebhookDelivery{ID: id, Body: body, Signature: sig}
	}
}

func (c *Calls) watchSent(in *seam.WatchSentInput, out *seam.WatchSentResult) {
	out.Record, out.Dropped = c.Edge.WatchSent(in.Record, in.EventID, in.OK, in.RunAt)
}

func (c *Calls) watchTracked(in *seam.WatchTrackedInput, out *seam.WatchTrackedResult) {
	rec, changes, dropped, problem := c.Edge.WatchTracked(in.Record, watchRow(&in.Row), upstream(&in.Upstream), in.RunAt)
	out.Record, out.Changes, out.Dropped = rec, int64(changes), int64(dropped)
	if problem != "" {
		out.Error = &problem
	}
}

func (c *Calls) watchClose(in *seam.WatchCloseInput, out *seam.WatchClosed) {
	row, remove, finished, expired := c.Edge.WatchClose(in.Record, watchRow(&in.Row), in.RunAt, in.Touched, in.Deferred)
	out.Row = seam.WatchRow{Ref: row.Ref, ClientRef: row.ClientRef, Added: row.Added, NextAt: row.NextAt, Pending: int64(row.Pending), State: row.State}
	out.Remove, out.Finished, out.Expired = remove, finished, expired
}

// The conversions between the seam's types and the core's.

func millis(ms int64) time.Time { return time.UnixMilli(ms) }

func request(f *seam.RequestFacts) *Request {
	r := &Request{Method: unitab.Upper(f.Method), Body: f.Body, BodyTooLarge: f.BodyTooLarge,
		ContentType: f.ContentType, AcceptLanguage: f.AcceptLanguage, Authorization: f.Authorization,
		ClientIP: f.ClientIP, RequestID: f.RequestID, Now: millis(f.Now)}
	if f.Query != nil {
		r.Query, r.HasQuery = *f.Query, true
	}
	return r
}

func answerContext(a seam.AnswerContext) AnswerContext {
	return AnswerContext{Operation: a.Operation, ClientRef: a.ClientRef, Ledger: a.Ledger}
}

func ticket(t *seam.BookingTicket) *Ticket {
	return &Ticket{Key: t.Key, Fingerprint: t.Fingerprint, RefField: t.RefField, Ref: t.Ref}
}

func upstream(u *seam.UpstreamResult) *Upstream {
	return &Upstream{Status: int(u.Status), Body: u.Body, Failure: u.Failure}
}

func grant(g *seam.Grant) tokens.Grant {
	return tokens.Grant{Operations: g.Operations, ShippingClientRef: g.ShippingClientRef, DlvrRef: g.DlvrRef, CollectionClientRef: g.CollectionClientRef, Offer: g.Offer}
}

func watchRow(r *seam.WatchRow) *WatchRow {
	return &WatchRow{Ref: r.Ref, ClientRef: r.ClientRef, Added: r.Added, NextAt: r.NextAt, Pending: int(r.Pending), State: r.State}
}

//go:noinline
func response(r *Response) *seam.CoreResponse {
	if r == nil {
		return nil
	}
	out := &seam.CoreResponse{Status: int64(r.Status), Body: r.Body, Class: r.Class, Detail: r.Detail}
	out.Headers = make(seam.Pairs, len(r.Headers))
	for i, h := range r.Headers {
		out.Headers[i] = seam.Pair{Name: h.Name, Value: h.Value}
	}
	return out
}

func rateLimit(rl *RateLimit) *seam.RateLimit {
	if rl == nil {
		return nil
	}
	return &seam.RateLimit{Binding: rl.Binding, Key: rl.Key}
}

func watchAdd(a *WatchAdd) *seam.WatchAdd {
	if a == nil {
		return nil
	}
	return &seam.WatchAdd{DlvrRef: a.DlvrRef, ClientRef: a.ClientRef}
}

func step(s *Step, out *seam.Step) {
	out.Kind = s.Kind
	switch s.Kind {
	case KindRespond:
		out.Response = response(s.Response)
		if s.Finish != nil {
			// The body of an ok finish is the response's.
			out.Finish = &seam.LedgerFinish{Outcome: s.Finish.Outcome}
			if s.Finish.Outcome == OutcomeOK {
				out.Finish.Body = s.Response.Body
			}
		}
		out.Watch = watchAdd(s.Watch)
	case KindLookup:
		out.Operation, out.LookupBody = s.Operation, s.LookupBody
	case KindForward:
		out.Sending = s.Sending
	}
}

func health(in *seam.HealthzInput) *Health {
	h := &Health{Method: unitab.Upper(in.Method), Authorization: in.Authorization, RequestID: in.RequestID, AcceptLanguage: in.AcceptLanguage,
		RatePublic: in.RateLimits.Public, RateTokens: in.RateLimits.Tokens, RateAnonymous: in.RateLimits.Anonymous,
		CacheEntries: in.Cache.Entries, CacheBytes: in.Cache.Bytes}
	if i := in.Instance; i != nil {
		h.Instance = &Instance{ID: i.ID, Requests: i.Requests, MemoryBytes: i.MemoryBytes}
	}
	if wh := in.Webhooks; wh != nil {
		h.StatsError = wh.Error
		if s := wh.Stats; s != nil {
			h.Stats = &WatchStats{Watched: s.Watched, Pending: s.Pending, Delivered: s.Delivered, Dropped: s.Dropped}
			if lr := string(s.LastRun); lr != "" && lr != "null" {
				h.Stats.LastRun = []byte(lr)
				h.Stats.LastRunAt = lastRunAt(lr)
			}
		} else if h.StatsError == "" {
			// Only when it last ran (the JavaScript reads the counts for the
			// master token only): enough for a liveness probe.
			h.Stats = &WatchStats{CountsHidden: true}
			if ms := wh.LastRunAt; ms > 0 {
				h.Stats.LastRunAt = rfc3339(unixOfMillis(ms))
			}
		}
	}
	return h
}

// lastRunAt is the "at" member of the last run's report.
func lastRunAt(report string) string {
	s := jsonlite.NewScannerString(report)
	at := ""
	if s.Peek() != jsonlite.Object {
		return ""
	}
	_ = s.Object(func(k string) error {
		if k == "at" && s.Peek() == jsonlite.String {
			v, err := s.String()
			at = v
			return err
		}
		return s.Skip()
	})
	return at
}

func operationNames() []string {
	out := make([]string, len(catalog.Operations))
	for i := 0; i < len(catalog.Operations); i++ {
		out[i] = catalog.Operations[i].Name
	}
	return out
}

func lookup(name string) *catalog.Operation { return catalog.Lookup(name) }
