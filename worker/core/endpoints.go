package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/internal/urlquery"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// DemoTokenTTL is how long a demo token is accepted.
const DemoTokenTTL = time.Hour

// DemoOperations are what a demo token allows (catalog.Policies' Demo):
// book the order, then read what was booked with it.
var DemoOperations = func() []string {
	var out []string
	for i := 0; i < len(catalog.Policies); i++ {
		if p := &catalog.Policies[i]; p.Demo {
			out = append(out, p.Name)
		}
	}
	return out
}()

// tokenFields are the fields POST /tokens accepts.
var tokenFields = [...]string{"operations", "shipping_client_ref", "dlvr_ref", "collection_client_ref", "ttl", "offer"}

// Endpoint is the answer of POST /tokens or /demo/token: a rate limit to
// apply first, then the response.
type Endpoint struct {
	RateLimit *RateLimit
	Response  *Response
}

func (e *Edge) methodNotAllowed(r *Request, what, allow string) *Response {
	return refuse(405, "method_not_allowed", say(r.locale(), msgMethod, clip(r.Method, 16), what, allow)).
		with("Allow", allow+", OPTIONS").Response(r.RequestID)
}

// Tokens answers POST /tokens: a scoped token for the shop's server,
// authorized with the master token.
func (e *Edge) Tokens(r *Request) *Endpoint {
	if r.Method != "POST" {
		return &Endpoint{Response: e.methodNotAllowed(r, "tokens", "POST")}
	}
	if len(e.errs) > 0 {
		return &Endpoint{Response: e.misconfigFor(e.errs, r)}
	}
	if e.cfg.ProxyToken == "" {
		return &Endpoint{Response: e.misconfigIn(r, EnvProxyToken, "secret is not set (POST /tokens is authorized with it)")}
	}
	if !e.IsMaster(r.Authorization) {
		return &Endpoint{RateLimit: e.byAddress(r.ClientIP), Response: refuse(401, "unauthorized", say(r.locale(), msgTokensMaster)).
			with("WWW-Authenticate", `Bearer realm="parcelgate"`).Response(r.RequestID)}
	}
	if len(e.cfg.SigningKey) == 0 {
		return &Endpoint{Response: e.misconfigIn(r, EnvTokenSigningKey, "secret is not set (needed to mint scoped tokens; at least 32 bytes)")}
	}
	fail := func(x *Refusal) *Endpoint { return &Endpoint{Response: x.Response(r.RequestID)} }
	raw, x := e.readInput(&Request{Method: "POST", Body: r.Body, BodyTooLarge: r.BodyTooLarge, ContentType: r.ContentType, AcceptLanguage: r.AcceptLanguage})
	if x != nil {
		return fail(x)
	}
	if r.HasQuery {
		return fail(refuse(400, "query_on_post", say(r.locale(), msgQueryOnPost, clip(r.Query, 64))))
	}
	vals, valid := urlquery.Parse(string(raw))
	if !valid {
		return fail(refuse(400, "bad_body", say(r.locale(), msgBadBody)))
	}
	for _, k := range formKeys(string(raw)) {
		known := false
		for _, f := range tokenFields {
			known = known || f == k
		}
		switch {
		case !known:
			return fail(badTokenField(clip(k, 64), "unknown field (operations, shipping_client_ref, dlvr_ref, collection_client_ref, ttl, offer)"))
		case len(vals[k]) > 1:
			return fail(badTokenField(k, "given more than once"))
		}
	}
	var g tokens.Grant
	for _, op := range substr.Split(vals.Get("operations"), ",") {
		if op = unitab.TrimSpace(op); op != "" {
			g.Operations = append(g.Operations, op)
		}
	}
	g.ShippingClientRef = vals.Get("shipping_client_ref")
	g.DlvrRef = vals.Get("dlvr_ref")
	g.CollectionClientRef = vals.Get("collection_client_ref")
	g.Offer = vals.Get("offer")
	if x := e.unboundGrant(g); x != nil {
		return fail(x)
	}
	var ttl time.Duration
	if v, ok := vals["ttl"]; ok {
		n, valid := decimal.Atoi(v[0])
		if !valid || n < 1 || n > int(tokens.MaxTTL/time.Second) || decimal.Itoa(n) != v[0] {
			return fail(badTokenField("ttl", "must be a whole number of seconds from 1 to 2592000"))
		}
		ttl = time.Duration(n) * time.Second
	}
	return &Endpoint{Response: e.mintAnswer(e.cfg.SigningKeys, g, ttl, r, nil)}
}

// mintAnswer mints g's token with keys (signed with the first; a bound
// offer may be signed with any, as the booking check accepts it) and answers what both token
// endpoints answer: the token, its expiry, the operations it grants and
// its bindings, then extra's members. A grant the rules refuse is a 400
// naming its field (a fallback offer the 403 its booking would get); a
// failure to sign is the misconfiguration answer.
func (e *Edge) mintAnswer(keys tokens.Keys, g tokens.Grant, ttl time.Duration, r *Request, extra func(jsonlite.Emitter)) *Response {
	tok, exp, err := tokens.MintWithKeys(keys, g, ttl, r.Now)
	if fe, ok := err.(*tokens.FieldError); ok {
		// (Pointers compared, not errors: TinyGo's interface equality
		// links 3 KB gzip of type walking.)
		if fe == tokens.ErrFallbackOffer {
			// As the booking would be: the page quotes again.
			return fallbackOffer(r.locale()).Response(r.RequestID)
		}
		return badTokenField(fe.Field, fe.Problem).Response(r.RequestID)
	}
	if err != nil {
		return e.misconfigIn(r, EnvTokenSigningKey, err.Error())
	}
	granted, _ := tokens.Check(g)
	body := okObject(func(w jsonlite.Emitter) {
		writeToken(w, tok, exp, r.Now)
		w.Key("operations")
		w.BeginArray()
		for _, op := range granted.Operations {
			w.String(op)
		}
		w.EndArray()
		for _, kv := range [...][2]string{{"shipping_client_ref", g.ShippingClientRef}, {"dlvr_ref", g.DlvrRef}, {"collection_client_ref", g.CollectionClientRef}, {"offer", g.Offer}} {
			if kv[1] != "" {
				w.Key(kv[0])
				w.String(kv[1])
			}
		}
		if extra != nil {
			extra(w)
		}
	})
	return ok(body, "token")
}

// formKeys lists a form's keys in body order (the first unknown one is
// the one reported, whatever a map's order).
func formKeys(raw string) []string {
	var out []string
	for _, pair := range substr.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, _, _ := substr.Cut(pair, "=")
		if u, ok := urlquery.Unescape(k); ok {
			k = u
		}
		out = append(out, k)
	}
	return out
}

// writeToken writes what every token answer starts with: the token, when
// it expires, and in how many seconds.
func writeToken(w jsonlite.Emitter, token string, exp, now time.Time) {
	w.Key("token")
	w.String(token)
	w.Key("expires_at")
	w.String(rfc3339(exp.Unix()))
	w.Key("expires_in")
	w.Int(exp.Unix() - now.Unix())
}

// DemoToken answers /demo/token (GET or POST): a scoped token for one
// order of the demo shop, only while the upstream is the sandbox, signed
// with a key of its own (derived from TOKEN_SIGNING_KEY) that only that
// mode accepts.
func (e *Edge) DemoToken(r *Request) *Endpoint {
	if !e.Demo() {
		return &Endpoint{Response: e.Failure(FailureInput{Kind: "not_found", RequestID: r.RequestID, AcceptLanguage: r.AcceptLanguage})}
	}
	if r.Method != "GET" && r.Method != "POST" {
		return &Endpoint{Response: e.methodNotAllowed(r, "demo-token", "GET, POST")}
	}
	if len(e.errs) > 0 {
		return &Endpoint{Response: e.misconfigFor(e.errs, r)}
	}
	rl := e.byAddress(r.ClientIP)
	fail := func(x *Refusal) *Endpoint { return &Endpoint{RateLimit: rl, Response: x.Response(r.RequestID)} }
	refuseResponse := func(x *Response) *Endpoint { return &Endpoint{RateLimit: rl, Response: x} }
	if len(e.cfg.SigningKey) == 0 {
		return refuseResponse(e.misconfigIn(r, EnvTokenSigningKey, "secret is not set (demo tokens are scoped tokens; at least 32 bytes)"))
	}
	req, x := e.readForm(r)
	if x != nil {
		return fail(x)
	}
	for _, f := range req.Fields {
		if f.Name != "shipping_client_ref" && f.Name != FieldOffer {
			return fail(badTokenField(f.Name, "not a field of /demo/token (only shipping_client_ref and offer)"))
		}
	}
	ref := req.Get("shipping_client_ref")
	if ref == "" {
		return fail(badTokenField("shipping_client_ref", "required: the order the page books"))
	}
	g := tokens.Grant{Operations: DemoOperations, ShippingClientRef: ref}
	// The offer is the worker's (its own key), the token the demo key's:
	// verified here, bound by its tag.
	if x := e.demoOffer(&g, req.Get(FieldOffer), r); x != nil {
		return fail(x)
	}
	return &Endpoint{RateLimit: rl, Response: e.mintAnswer(e.demoKeys, g, DemoTokenTTL, r, func(w jsonlite.Emitter) {
		w.Key("upstream")
		w.String("sandbox")
	})}
}

// FailureInput names a failure the JavaScript detected.
type FailureInput struct {
	Kind           string
	RequestID      string
	AcceptLanguage string
	Operation      string
	Method         string
	Path           string
	Allow          string
	Origin         string
}

// Failure is the edge's envelope for a failure the JavaScript detected,
// in the client's language.
func (e *Edge) Failure(in FailureInput) *Response {
	l := (&Request{AcceptLanguage: in.AcceptLanguage}).locale()
	var r *Refusal
	switch in.Kind {
	case "not_found":
		r = refuse(404, "not_found", say(l, msgNotFound))
	case "method_not_allowed":
		r = refuse(405, "method_not_allowed", say(l, msgMethod, clip(in.Method, 16), in.Operation, in.Allow)).
			with("Allow", in.Allow+", OPTIONS")
	case "origin_forbidden":
		r = refuse(403, "origin_forbidden", say(l, msgOrigin, quote(clip(in.Origin, 200))))
	case "rate_limited":
		r = refuse(429, "rate_limited", say(l, msgRateLimited, decimal.Itoa(RateLimitRetryAfter))).retry().
			with("Retry-After", decimal.Itoa(RateLimitRetryAfter))
	case "timeout":
		r = refuse(504, "deadline", say(l, msgTimeout, decimal.FormatInt(e.RequestDeadline().Milliseconds())))
		if isBooking(in.Operation) {
			r.Retryable = 2
			r.Hint = e.bookingHint(AnswerContext{Operation: in.Operation, Ledger: e.ledger()}, l)
		}
	case "booking_taken_over":
		ref := "shipping_client_ref"
		if p := catalog.PolicyOf(in.Operation); p != nil && p.ClientRef != "" {
			ref = p.ClientRef
		}
		r = refuse(503, "booking_in_progress", say(l, msgTakenOver, ref)).retry()
	case "encoded_path":
		// One spelling per path: no path of the edge needs an escape, and
		// a decoded one could name a booking where the raw one names none.
		r = refuse(400, "encoded_path", say(l, msgEncodedPath, quote(clip(in.Path, 96))))
	case "ledger_unavailable":
		r = refuse(503, "ledger_unavailable", say(l, msgLedger)).retry()
	default: // "internal", and any kind this build does not know
		r = refuse(500, "internal", say(l, msgInternal, in.RequestID))
	}
	return r.Response(in.RequestID)
}
