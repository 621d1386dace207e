package edge

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/validate"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// TokensPath is where the shop's server mints scoped tokens (POST, with
// the master PROXY_TOKEN).
const TokensPath = "/tokens"

// CodeForbidden is the code of a scoped token used outside its grant.
const CodeForbidden = 1403

// tokenFields are the fields POST /tokens accepts.
var tokenFields = [...]string{"operations", "shipping_client_ref", "dlvr_ref", "collection_client_ref", "ttl"}

func badTokenField(field, problem string) *edgeError {
	return &edgeError{status: http.StatusBadRequest, code: CodeBadRequest, class: "invalid_request",
		message:     field + ": " + problem,
		fieldErrors: []validate.FieldError{{Field: field, Code: CodeBadRequest, Message: problem}}}
}

func (x *exchange) unauthorized(msg string) {
	x.w.Header().Set("WWW-Authenticate", `Bearer realm="parcelgate"`)
	x.fail(&edgeError{status: http.StatusUnauthorized, code: CodeUnauthorized, class: "unauthorized", message: msg})
}

// mintToken answers POST /tokens.
func (x *exchange) mintToken(cfg *Config, cfgErrs []ConfigError) {
	if len(cfgErrs) > 0 {
		x.misconfigured(cfgErrs)
		return
	}
	if cfg.ProxyToken == "" {
		x.misconfigured([]ConfigError{{EnvProxyToken, "secret is not set (POST /tokens is authorized with it)"}})
		return
	}
	if !bearerOK(x.r.Header.Get("Authorization"), cfg.ProxyToken) {
		if x.limitedByIP() {
			return
		}
		x.unauthorized("POST /tokens requires Authorization: Bearer <PROXY_TOKEN> (call it from the shop's server)")
		return
	}
	if len(cfg.SigningKey) == 0 {
		x.misconfigured([]ConfigError{{EnvTokenSigningKey, "secret is not set (needed to mint scoped tokens; at least 32 bytes)"}})
		return
	}
	raw, e := x.readInput(cfg)
	if e != nil {
		x.fail(e)
		return
	}
	if e := queryOnPost(x.r); e != nil {
		x.fail(e)
		return
	}
	vals, err := url.ParseQuery(string(raw))
	if err != nil {
		x.fail(&edgeError{status: http.StatusBadRequest, code: CodeBadRequest, class: "bad_body",
			message: "the body is not a valid form"})
		return
	}
	for k, v := range vals {
		known := false
		for _, f := range tokenFields {
			known = known || f == k
		}
		switch {
		case !known:
			x.fail(badTokenField(clip(k, 64), "unknown field (operations, shipping_client_ref, dlvr_ref, collection_client_ref, ttl)"))
			return
		case len(v) > 1:
			x.fail(badTokenField(k, "given more than once"))
			return
		}
	}
	var g tokens.Grant
	for _, op := range strings.Split(vals.Get("operations"), ",") {
		if op = strings.TrimSpace(op); op != "" {
			g.Operations = append(g.Operations, op)
		}
	}
	g.ShippingClientRef = vals.Get("shipping_client_ref")
	g.DlvrRef = vals.Get("dlvr_ref")
	g.CollectionClientRef = vals.Get("collection_client_ref")
	var ttl time.Duration
	if v, ok := vals["ttl"]; ok {
		n, err := strconv.Atoi(v[0])
		if err != nil || n < 1 || n > int(tokens.MaxTTL/time.Second) || strconv.Itoa(n) != v[0] {
			x.fail(badTokenField("ttl", "must be a whole number of seconds from 1 to 2592000"))
			return
		}
		ttl = time.Duration(n) * time.Second
	}
	now := x.h.d.Now()
	tok, exp, err := tokens.Mint(cfg.SigningKey, g, ttl, now)
	var fe *tokens.FieldError
	if errors.As(err, &fe) {
		x.fail(badTokenField(fe.Field, fe.Problem))
		return
	}
	if err != nil {
		x.misconfigured([]ConfigError{{EnvTokenSigningKey, err.Error()}})
		return
	}
	granted, _ := tokens.Check(g)
	body := okObject(func(w jsonlite.Emitter) {
		writeToken(w, tok, exp, now)
		w.Key("operations")
		w.BeginArray()
		for _, op := range granted.Operations {
			w.String(op)
		}
		w.EndArray()
		if g.ShippingClientRef != "" {
			w.Key("shipping_client_ref")
			w.String(g.ShippingClientRef)
		}
		if g.DlvrRef != "" {
			w.Key("dlvr_ref")
			w.String(g.DlvrRef)
		}
		if g.CollectionClientRef != "" {
			w.Key("collection_client_ref")
			w.String(g.CollectionClientRef)
		}
	})
	x.respond(http.StatusOK, body)
}

// writeToken writes what every token answer starts with (POST /tokens,
// /demo/token): the token, when it expires, and in how many seconds.
func writeToken(w jsonlite.Emitter, token string, exp, now time.Time) {
	w.Key("token")
	w.String(token)
	w.Key("expires_at")
	w.String(exp.UTC().Format(time.RFC3339))
	w.Key("expires_in")
	w.Int(exp.Unix() - now.Unix())
}

// authorize checks the credentials of a call to a private operation: the
// master token, a scoped token that grants op (kept in x.scope for the
// reference check once the request is decoded), or a demo token while the
// upstream is the embedded sandbox. It returns the failure to answer.
func (x *exchange) authorize(cfg *Config, op *catalog.Operation) *edgeError {
	header := x.r.Header.Get("Authorization")
	if bearerOK(header, cfg.ProxyToken) {
		return nil
	}
	t, ok := bearerToken(header)
	if ok && strings.HasPrefix(t, tokens.Prefix) {
		if len(cfg.SigningKey) == 0 {
			return &edgeError{status: http.StatusInternalServerError, code: CodeMisconfigured, class: "misconfigured",
				message: "worker misconfigured: " + EnvTokenSigningKey + ": secret is not set (needed to verify scoped tokens)"}
		}
		c, err := tokens.Verify(cfg.SigningKey, t, x.h.d.Now())
		if err != nil && x.h.demoMode() {
			// A demo token (/demo/token), valid only while the upstream is
			// the embedded sandbox.
			if dc, derr := tokens.Verify(demoKey(cfg), t, x.h.d.Now()); derr == nil || !errors.Is(err, tokens.ErrExpired) {
				c, err = dc, derr
			}
		}
		if err != nil {
			msg := "the scoped token is not valid (tampered, or minted with another TOKEN_SIGNING_KEY)"
			switch {
			case errors.Is(err, tokens.ErrExpired):
				msg = "the scoped token has expired; get a new one from the shop's server"
			case errors.Is(err, tokens.ErrGrant):
				msg = "the scoped token's grant is no longer accepted (a booking token must be bound to its references and live at most 2 hours); get a new one from the shop's server"
			}
			x.w.Header().Set("WWW-Authenticate", `Bearer realm="parcelgate", error="invalid_token"`)
			return &edgeError{status: http.StatusUnauthorized, code: CodeUnauthorized, class: "unauthorized", message: msg}
		}
		if !c.Allows(op.Name) {
			return &edgeError{status: http.StatusForbidden, code: CodeForbidden, class: "forbidden",
				message: "the scoped token does not grant " + op.Name + " (it grants " + strings.Join(c.Operations, ", ") + ")"}
		}
		x.scope = &c
		return nil
	}
	x.w.Header().Set("WWW-Authenticate", `Bearer realm="parcelgate"`)
	return &edgeError{status: http.StatusUnauthorized, code: CodeUnauthorized, class: "unauthorized",
		message: op.Name + " requires Authorization: Bearer <PROXY_TOKEN or a scoped token>"}
}

// scopeError checks a decoded, normalized request against the references
// its scoped token is bound to. Reads of one shipment must name the bound
// dlvr_ref; tracking by client_ref only with the bound shipping_client_ref;
// tracking by carrier_ref and labels by shipping_carrier_ref never (the
// token cannot prove which shipment those name).
//
// A token bound to a shipping_client_ref also reads the shipment booked
// with it: booked resolves that reference to the shipment's dlvr_ref from
// the booking record (called only when needed; "" when there is none).
func scopeError(c *tokens.Claims, op *catalog.Operation, req *form.Request, booked func() string) *edgeError {
	deny := func(field, why string) *edgeError {
		return &edgeError{status: http.StatusForbidden, code: CodeForbidden, class: "forbidden",
			message:     field + ": " + why,
			fieldErrors: []validate.FieldError{{Field: field, Code: CodeForbidden, Message: why}}}
	}
	bound := func(field, want string) *edgeError {
		got := req.Get(field)
		if got == want && want != "" {
			return nil
		}
		// The shipment booked with the token's shipping_client_ref.
		if field != "client_ref" && field != "shipping_client_ref" && c.ShippingClientRef != "" && got != "" && got == booked() {
			return nil
		}
		if want == "" && c.ShippingClientRef == "" {
			return deny(field, "the scoped token is not bound to a shipment ("+op.Name+" needs a token minted with dlvr_ref or shipping_client_ref)")
		}
		return deny(field, "the scoped token is bound to another reference")
	}
	exact := func(field, want string) *edgeError {
		if want == "" {
			// tokens.Verify refuses such a grant; never reached.
			return deny(field, "the scoped token is not bound to a "+field)
		}
		if req.Get(field) != want {
			return deny(field, "the scoped token is bound to another reference")
		}
		return nil
	}
	switch op.Name {
	case "new-shipment":
		// A booking token books its order and nothing else.
		return exact("shipping_client_ref", c.ShippingClientRef)
	case "new-collection":
		// Its shipment, and its one pickup reference: with the booking
		// records, a second pickup under that reference is the first one's
		// answer (or a 409), never a second booking.
		if e := exact("shipping_dlvr_ref", c.DlvrRef); e != nil {
			return e
		}
		return exact("collection_client_ref", c.CollectionClientRef)
	case "get-shipment":
		return bound("dlvr_ref", c.DlvrRef)
	case "get-shipment-label":
		if req.Get("shipping_carrier_ref") != "" {
			return deny("shipping_carrier_ref", "not allowed with a scoped token; use dlvr_ref")
		}
		return bound("dlvr_ref", c.DlvrRef)
	case "get-shipment-tracking":
		if req.Get("carrier_ref") != "" {
			return deny("carrier_ref", "not allowed with a scoped token; use dlvr_ref")
		}
		if req.Get("client_ref") != "" {
			if c.ShippingClientRef == "" {
				return deny("client_ref", "the scoped token is not bound to a shipping_client_ref")
			}
			if e := bound("client_ref", c.ShippingClientRef); e != nil {
				return e
			}
		}
		if req.Get("dlvr_ref") != "" || req.Get("client_ref") == "" {
			return bound("dlvr_ref", c.DlvrRef)
		}
	}
	return nil
}

// queryOnPost refuses a POST whose URL carries a query string: its
// parameters belong in the body, and silently dropping them would make a
// client believe a filter or reference was applied.
func queryOnPost(r *http.Request) *edgeError {
	if r.Method == http.MethodPost && (r.URL.RawQuery != "" || r.URL.ForceQuery) {
		return &edgeError{status: http.StatusBadRequest, code: CodeBadRequest, class: "query_on_post",
			message: "query string: a POST takes its parameters in the form body, not in the URL (?" + clip(r.URL.RawQuery, 64) + ")"}
	}
	return nil
}
