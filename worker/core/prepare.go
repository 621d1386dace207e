package core

import (
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/internal/validate"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// Request is what the core needs of an HTTP request; the JavaScript reads
// the body, bounded by MaxBodyBytes.
type Request struct {
	Method string
	// Query is the raw query without "?"; HasQuery: the URL has a "?".
	Query    string
	HasQuery bool
	// Body of a POST (nil: none, or not read because it was too large).
	Body           []byte
	BodyTooLarge   bool
	ContentType    string
	AcceptLanguage string
	Authorization  string
	ClientIP       string
	RequestID      string
	Now            time.Time
}

func (r *Request) locale() i18n.Locale { return i18n.FromAcceptLanguage(r.AcceptLanguage) }

// Peeked is a booking record read without taking it.
type Peeked struct {
	State string // "done", "lost" or ""
	Body  []byte
}

// Callers of an operation, for the log line.
const (
	CallerPublic  = "public"
	CallerMaster  = "master"
	CallerScoped  = "scoped"
	CallerDemo    = "demo"
	CallerUnknown = "unknown"
)

// Kinds of Prepared.
const (
	KindRespond = "respond"
	KindPeek    = "peek"
	KindForward = "forward"
	KindLookup  = "lookup"
)

// Prepared is the decision about an operation call.
type Prepared struct {
	Kind       string
	Caller     string
	RateLimit  *RateLimit
	Response   *Response // KindRespond
	BookingKey string    // KindPeek
	Forward    *Forward  // KindForward
}

// Forward is a request to send upstream.
type Forward struct {
	Operation    string
	UpstreamBody []byte
	Retryable    bool
	// CacheKey and CacheTTL: a cacheable read ("" and 0 otherwise).
	CacheKey string
	CacheTTL time.Duration
	// Pricing is the basis of the answer's shop prices (pricing.go):
	// normalize applies the rules with it; "" for none.
	Pricing string
	// Booking is the ledger's ticket (nil: not through the ledger).
	Booking *Ticket
	// Rates: a rates request's deadline and store (nil for the others).
	Rates   *RatesPlan
	Context AnswerContext
	// Sign is the basis of the answer's offers or points (offers.go):
	// normalize signs the client's body with it; "" for none.
	Sign string
}

// Ticket is what the Bookings object's begin needs.
type Ticket struct {
	Key, Fingerprint, RefField, Ref string
	Wait, Hold, RecordTTL           time.Duration
}

// AnswerContext is what answering an upstream's reply needs to know
// about the request.
type AnswerContext struct {
	Operation string
	ClientRef string
	Ledger    bool
}

func respond(caller string, rl *RateLimit, r *Response) *Prepared {
	return &Prepared{Kind: KindRespond, Caller: caller, RateLimit: rl, Response: r}
}

// Prepare decides an operation call (any method but OPTIONS, which the
// JavaScript answers from the operations' methods).
func (e *Edge) Prepare(name string, r *Request, booked *Peeked) *Prepared {
	l := r.locale()
	op := catalog.Lookup(name)
	if op == nil {
		return respond(CallerUnknown, nil, refuse(404, "unknown_operation", say(l, msgUnknownOperation, quote(clip(name, 64)))).Response(r.RequestID))
	}
	if !methodAllowed(op, r.Method) {
		allow := substr.Join(op.Methods(), ", ")
		return respond(CallerUnknown, nil, e.methodNotAllowed(r, op.Name, allow))
	}
	if len(e.errs) > 0 {
		return respond(CallerUnknown, nil, e.misconfigFor(e.errs, r))
	}
	caller := CallerPublic
	var scope *tokens.Claims
	if !e.operationPublic(op.Name) {
		if e.cfg.ProxyToken == "" {
			return respond(CallerUnknown, nil, e.misconfigIn(r, EnvProxyToken, "secret is not set (needed for the operations outside PUBLIC_OPERATIONS)"))
		}
		var refusal *Refusal
		caller, scope, refusal = e.authorize(op, r)
		if refusal != nil {
			if refusal.Class == "misconfigured" {
				// Named to the master token's holder only, who is not
				// here (worker/edge did the same): the log line names it.
				d := refusal.Message
				refusal.Message = say(r.locale(), msgMisconfigGeneric)
				res := refusal.Response(r.RequestID)
				res.Detail = d
				return respond(caller, nil, res)
			}
			return respond(caller, nil, refusal.Response(r.RequestID))
		}
	} else if e.IsMaster(r.Authorization) {
		caller = CallerMaster
	}
	// Rate limits: by scoped token, else by address; the master token
	// (the shop's server) is not limited.
	var rl *RateLimit
	switch {
	case scope != nil:
		t, _ := bearerToken(r.Authorization)
		rl = byToken(t)
	case caller != CallerMaster:
		rl = e.byAddress(r.ClientIP)
	}
	req, refusal := e.readForm(r)
	if refusal != nil {
		return respond(caller, rl, refusal.Response(r.RequestID))
	}
	var offer, point string
	if offered(op.Name) {
		offer, point = takeOffer(req)
	}
	var orderValue, signedValue string // the shop's prices (pricing.go): edge-only
	if priced(op.Name) {
		if orderValue, signedValue, refusal = e.takeOrderValue(req, r); refusal != nil {
			return respond(caller, rl, refusal.Response(r.RequestID))
		}
	}
	// "Today" is the date at UTC-12: never refuses a date still valid
	// somewhere; the upstream has the last word.
	today := isoDate(r.Now.Unix() - 12*3600)
	if errs := validate.Request(op, req, validate.Options{Rules: e.cfg.Rules, Today: today, Locale: l}, nil); len(errs) > 0 {
		return respond(caller, rl, invalid(errs).Response(r.RequestID))
	}
	validate.Normalize(op, req)
	validate.Canonicalize(op, req)
	if scope != nil {
		peek := false
		resolve := func() string {
			if !e.ledger() || scope.ShippingClientRef == "" {
				return ""
			}
			if booked == nil {
				peek = true
				return ""
			}
			return bookedDlvrRef(booked)
		}
		if refusal := ScopeError(scope, op, req, resolve, r.AcceptLanguage); refusal != nil {
			if peek {
				return &Prepared{Kind: KindPeek, Caller: caller, RateLimit: rl,
					BookingKey: e.BookingKey(catalog.BookedBy("shipping_client_ref").Name, scope.ShippingClientRef)}
			}
			return respond(caller, rl, refusal.Response(r.RequestID))
		}
		// A page's booking goes through the booking records or not at
		// all: they make a resent booking answer the first one, so a
		// token bound to one reference books one shipment or one pickup.
		// Without them the master token on the shop's server may still
		// book (it decides), a page may not (worker/edge's rule).
		if op.Books && !e.ledger() {
			return respond(caller, rl, refuse(403, "forbidden", say(r.locale(), msgScopedNeedsLedger, EnvExactlyOnce)).Response(r.RequestID))
		}
	}
	if offered(op.Name) {
		if refusal := e.checkOffer(scope, req, offer, point, r); refusal != nil {
			return respond(caller, rl, refusal.Response(r.RequestID))
		}
	}
	body := form.Encode(req)
	f := &Forward{Operation: op.Name, UpstreamBody: body, Retryable: !op.Books,
		Context: AnswerContext{Operation: op.Name, Ledger: op.Books && e.ledger()}}
	if ttl := e.cfg.CacheTTL[op.Name]; ttl > 0 {
		f.CacheKey, f.CacheTTL = e.CacheKey(op.Name, body), ttl
	}
	f.Sign = e.offerBasis(op.Name, req, signedValue)
	f.Rates = e.ratesPlan(op.Name, body, req.Get("to_country_code"))
	f.Pricing = e.pricingBasis(op.Name, req.Get("to_country_code"), orderValue, l)
	if op.Books {
		refField := catalog.PolicyOf(op.Name).ClientRef
		ref := req.Get(refField)
		f.Context.ClientRef = ref
		switch {
		case e.ledger():
			f.Booking = &Ticket{Key: e.BookingKey(op.Name, ref), Fingerprint: Fingerprint(body), RefField: refField, Ref: ref,
				Wait: e.bookingWait(), Hold: e.bookingHold(), RecordTTL: BookingRecordTTL}
		case e.cfg.ExactlyOnce && !e.cfg.Sandbox:
			// The sandbox answers a resent reference with the first booking
			// itself; a real upstream needs the records.
			return respond(caller, rl, e.misconfigIn(r, "BOOKINGS", "Durable Object binding is not configured: bookings against a real upstream need it (see worker/README.md, Deploy)"))
		}
	}
	return &Prepared{Kind: KindForward, Caller: caller, RateLimit: rl, Forward: f}
}

func methodAllowed(op *catalog.Operation, m string) bool {
	for _, a := range op.Methods() {
		if a == m {
			return true
		}
	}
	return false
}

// bookedDlvrRef is the shipping_dlvr_ref of a done booking record.
func bookedDlvrRef(p *Peeked) string {
	if p.State != "done" {
		return ""
	}
	_, data, reason := sniffEnvelope(p.Body)
	if reason != "" {
		return ""
	}
	dlvr, _ := bookedRefs(data)
	return dlvr
}

// bookedRefs reads the references of a new-shipment answer's data ("" for
// one that is missing).
func bookedRefs(data []byte) (dlvr, client string) {
	s := jsonlite.NewScannerString(view(data)) // a booking's data holds its label: not copied
	_ = s.Object(func(k string) error {
		var err error
		switch k {
		case "shipping_dlvr_ref":
			dlvr, err = s.LooseString()
		case "shipping_client_ref":
			client, err = s.LooseString()
		default:
			err = s.Skip()
		}
		return err
	})
	return dlvr, client
}

// readForm reads and decodes the request's form: the query of a GET, the
// body of a POST, never both.
func (e *Edge) readForm(r *Request) (*form.Request, *Refusal) {
	raw, refusal := e.readInput(r)
	if refusal != nil {
		return nil, refusal
	}
	lim := form.DefaultLimits
	lim.MaxBytes = e.cfg.MaxBodyBytes
	lim.MaxParcels = catalog.MaxParcels
	req, err := form.Decode(raw, lim)
	if err != nil {
		fe := validate.FieldError{Code: validate.CodeFormat, Message: err.Error()}
		if ferr, ok := err.(*form.Error); ok {
			fe.Field, fe.Message = ferr.Field, ferr.Message
		}
		return nil, invalid([]validate.FieldError{fe})
	}
	return req, nil
}

// readInput returns the form-encoded input, bounded by MAX_BODY_BYTES.
func (e *Edge) readInput(r *Request) ([]byte, *Refusal) {
	if r.Method == "POST" && r.HasQuery {
		// Its parameters belong in the body: silently dropping them would
		// make a client believe a filter or reference was applied.
		return nil, refuse(400, "query_on_post", say(r.locale(), msgQueryOnPost, clip(r.Query, 64)))
	}
	get := r.Method == "GET"
	if get && len(r.Query) > e.cfg.MaxBodyBytes || !get && (r.BodyTooLarge || len(r.Body) > e.cfg.MaxBodyBytes) {
		// (Worded only when it is the answer: every read used to build it.)
		return nil, refuse(413, "too_large", say(r.locale(), msgTooLarge, decimal.Itoa(e.cfg.MaxBodyBytes)))
	}
	if get {
		return []byte(r.Query), nil
	}
	if ct := r.ContentType; ct != "" {
		if !isForm(ct) {
			return nil, refuse(415, "unsupported_media_type", say(r.locale(), msgMediaType, quote(clip(ct, 64))))
		}
	}
	return r.Body, nil
}

// authorize checks the credentials of a call to a private operation: the
// master token, a scoped token that grants op (returned for the reference
// check once the request is decoded), or a demo token while the upstream
// is the sandbox.
func (e *Edge) authorize(op *catalog.Operation, r *Request) (string, *tokens.Claims, *Refusal) {
	if e.IsMaster(r.Authorization) {
		return CallerMaster, nil, nil
	}
	t, ok := bearerToken(r.Authorization)
	if ok && strings.HasPrefix(t, tokens.Prefix) {
		if len(e.cfg.SigningKey) == 0 {
			return CallerScoped, nil, misconfig([]ConfigError{{EnvTokenSigningKey, "secret is not set (needed to verify scoped tokens)"}})
		}
		caller := CallerScoped
		c, err := tokens.Verify(e.cfg.SigningKeys, t, r.Now)
		// Verify's errors are its sentinels, unwrapped: a type assertion
		// names them without linking tokens.Reason's walk of Unwrap.
		reason := func(err error) string {
			if te, ok := err.(*tokens.Error); ok {
				return te.Reason
			}
			return ""
		}
		if err != nil && e.Demo() {
			// A demo token (/demo/token), valid only while the upstream is
			// the sandbox.
			if dc, derr := tokens.Verify(e.demoKeys, t, r.Now); derr == nil || reason(err) != "expired" {
				c, err = dc, derr
				if derr == nil {
					caller = CallerDemo
				}
			}
		}
		if err != nil {
			m := msgTokenInvalid
			switch reason(err) {
			case "expired":
				m = msgTokenExpired
			case "grant":
				m = msgTokenGrant
			}
			msg := say(r.locale(), m)
			return caller, nil, refuse(401, "unauthorized", msg).with("WWW-Authenticate", `Bearer realm="parcelgate", error="invalid_token"`)
		}
		if !c.Allows(op.Name) {
			return caller, nil, refuse(403, "forbidden", say(r.locale(), msgNotGranted, op.Name, substr.Join(c.Operations, ", ")))
		}
		return caller, &c, nil
	}
	return CallerUnknown, nil, refuse(401, "unauthorized", say(r.locale(), msgAuthRequired, op.Name)).with("WWW-Authenticate", `Bearer realm="parcelgate"`)
}

// ScopeError checks a decoded, normalized request against the references
// its scoped token is bound to. Reads of one shipment must name the bound
// dlvr_ref; tracking by client_ref only with the bound shipping_client_ref;
// tracking by carrier_ref and labels by shipping_carrier_ref never (the
// token cannot prove which shipment those name). Bookings name exactly
// the booking the token may make.
//
// A token bound to a shipping_client_ref also reads the shipment booked
// with it: booked resolves that reference to the shipment's dlvr_ref from
// the booking record (called only when needed; "" when there is none).
func ScopeError(c *tokens.Claims, op *catalog.Operation, req *form.Request, booked func() string, acceptLanguage string) *Refusal {
	l := i18n.FromAcceptLanguage(acceptLanguage)
	deny := func(field, why string) *Refusal {
		return fieldRefusal(403, CodeForbidden, "forbidden", field, why)
	}
	bound := func(field, want string) *Refusal {
		got := req.Get(field)
		if got == want && want != "" {
			return nil
		}
		// The shipment booked with the token's shipping_client_ref.
		if field != "client_ref" && field != "shipping_client_ref" && c.ShippingClientRef != "" && got != "" && got == booked() {
			return nil
		}
		if want == "" && c.ShippingClientRef == "" {
			return deny(field, say(l, msgScopeUnbound, op.Name))
		}
		return deny(field, say(l, msgScopeOtherRef))
	}
	exact := func(field, want string) *Refusal {
		if want == "" {
			// tokens.Verify refuses such a grant; never reached.
			return deny(field, say(l, msgScopeNotBoundTo, field))
		}
		if req.Get(field) != want {
			return deny(field, say(l, msgScopeOtherRef))
		}
		return nil
	}
	p := catalog.PolicyOf(op.Name)
	if p == nil {
		return nil
	}
	// A booking: exactly the references the token binds (p.Binds).
	for i := range p.Binds { // by index: a range value copied the array
		b := &p.Binds[i]
		if b.Grant == "" {
			break
		}
		if e := exact(b.Request, c.Ref(b.Grant)); e != nil {
			return e
		}
	}
	if p.Binding != catalog.BindShipment {
		return nil
	}
	// A read of one shipment: by the reference the token is bound to.
	if f := p.NotWith; f != "" && req.Get(f) != "" {
		return deny(f, say(l, msgScopeUseDlvrRef))
	}
	if f := p.ByClientRef; f != "" && req.Get(f) != "" {
		if c.ShippingClientRef == "" {
			return deny(f, say(l, msgScopeNotBoundTo, "shipping_client_ref"))
		}
		if e := bound(f, c.ShippingClientRef); e != nil || req.Get(p.TokenRef) == "" {
			return e
		}
	}
	return bound(p.TokenRef, c.DlvrRef)
}

// isForm reports whether a Content-Type is application/x-www-form-urlencoded
// with well-formed parameters (token=token or token="quoted"), as
// mime.ParseMediaType would accept it; mime itself links fmt and os into
// the module.
func isForm(ct string) bool {
	mt, params, _ := substr.Cut(ct, ";")
	if !unitab.EqualFold(unitab.TrimSpace(mt), "application/x-www-form-urlencoded") {
		return false
	}
	if unitab.TrimSpace(params) == "" {
		return true // no parameters, or a bare trailing ';'
	}
	for params != "" {
		var p string
		p, params = cutParam(params)
		p = unitab.TrimSpace(p)
		if p == "" {
			return false
		}
		k, v, ok := substr.Cut(p, "=")
		if !ok || !isToken(unitab.TrimSpace(k)) {
			return false
		}
		v = unitab.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			continue
		}
		if !isToken(v) {
			return false
		}
	}
	return true
}

// cutParam splits off the first parameter, minding quoted strings.
func cutParam(s string) (string, string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case c == '\\' && quoted:
			i++
		case c == ';' && !quoted:
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// isToken: RFC 2045 token characters, not empty.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\\"/[]?=`, c) >= 0 {
			return false
		}
	}
	return true
}
