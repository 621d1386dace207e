package edge

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"net/http"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// The demo shop (served by the worker itself) has no server of its own to
// mint tokens, so /demo/token does it for one order at a time: the same
// scoped tokens a shop's server gets from POST /tokens, bound to the page's
// shipping_client_ref, for DemoOperations, valid for DemoTokenTTL. The
// endpoint exists only while the upstream is the sandbox, and
// demo tokens are signed with their own key (derived from
// TOKEN_SIGNING_KEY), accepted only in that mode: a token anyone could
// take from the demo is worthless once the merchant configures the real
// service.

// DemoTokenPath is the demo token endpoint (GET or POST, with
// shipping_client_ref in the query or the form body).
const DemoTokenPath = "/demo/token"

// DemoTokenTTL is how long a demo token is accepted.
const DemoTokenTTL = time.Hour

// DemoOperations are what a demo token allows (catalog.Policies' Demo):
// book the order, then read what was booked with it.
var DemoOperations = func() []string {
	var out []string
	for i := range catalog.Policies {
		if catalog.Policies[i].Demo {
			out = append(out, catalog.Policies[i].Name)
		}
	}
	return out
}()

// demoMode reports whether demo tokens exist: the upstream is the embedded
// sandbox and the platform provides one.
func (h *Handler) demoMode() bool {
	c, _ := h.config()
	return c.Sandbox && h.d.Sandbox != nil
}

// demoKey is the key demo tokens are signed with.
func demoKey(cfg *Config) []byte {
	m := hmac.New(sha256.New, cfg.SigningKey)
	m.Write([]byte("parcelgate sandbox demo tokens v2"))
	return m.Sum(nil)
}

func (x *exchange) demoToken(cfg *Config, cfgErrs []ConfigError) {
	if len(cfgErrs) > 0 {
		x.misconfigured(cfgErrs)
		return
	}
	if x.limitedByIP() {
		return
	}
	if len(cfg.SigningKey) == 0 {
		x.misconfigured([]ConfigError{{EnvTokenSigningKey, "secret is not set (demo tokens are scoped tokens; at least 32 bytes)"}})
		return
	}
	req := x.readForm(cfg)
	if req == nil {
		return
	}
	for _, f := range req.Fields {
		if f.Name != "shipping_client_ref" {
			x.fail(badTokenField(f.Name, "not a field of /demo/token (only shipping_client_ref)"))
			return
		}
	}
	ref := req.Get("shipping_client_ref")
	if ref == "" {
		x.fail(badTokenField("shipping_client_ref", "required: the order the page books"))
		return
	}
	now := x.h.d.Now()
	tok, exp, err := tokens.Mint(demoKey(cfg), tokens.Grant{Operations: DemoOperations, ShippingClientRef: ref}, DemoTokenTTL, now)
	var tfe *tokens.FieldError
	if errors.As(err, &tfe) {
		x.fail(badTokenField(tfe.Field, tfe.Problem))
		return
	}
	if err != nil {
		x.misconfigured([]ConfigError{{EnvTokenSigningKey, err.Error()}})
		return
	}
	body := okObject(func(w jsonlite.Emitter) {
		writeToken(w, tok, exp, now)
		w.Key("operations")
		w.BeginArray()
		granted, _ := tokens.Check(tokens.Grant{Operations: DemoOperations, ShippingClientRef: ref})
		for _, op := range granted.Operations { // catalog order, as POST /tokens answers
			w.String(op)
		}
		w.EndArray()
		w.Key("shipping_client_ref")
		w.String(ref)
		w.Key("upstream")
		w.String("sandbox")
	})
	x.respond(http.StatusOK, body)
}
