package core_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// worker/edge's demotoken_test.go and health_test.go, retired with it
// (issue 21), on the core. The demo flow against the sandbox worker runs
// under workerd in worker/e2e's TestSandboxFlow; CORS of /demo/token in
// worker/src's middleware tests.

// A complete new-shipment form for the sandbox.
func demoBooking(ref string) string {
	return "shipping_date=2026-11-23&service_type=custom&carrier_code=rayo&service_code=rayo-48" +
		"&shipping_client_ref=" + ref +
		"&from_name=Tienda&from_address=Calle+Mayor+1&from_city=Madrid&from_zip_code=28014&from_country_code=ES" +
		"&to_name=Ana&to_address=Carrer+Gran+2&to_city=Barcelona&to_zip_code=08001&to_country_code=ES" +
		"&parcels[0][parcel_weight]=2&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10" +
		"&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000"
}

// demoEdge is the sandbox upstream with booking records and a signing key.
func demoEdge(changes ...string) *core.Edge {
	// Unbound demo grants allowed: these tests are about the demo token's
	// own rules; offers_test.go binds them to offers (issue 30).
	e := env(append([]string{core.EnvUpstreamBaseURL, core.SandboxUpstream, core.EnvExactlyOnce, "true", core.EnvAllowUnbound, "true"}, changes...)...)
	for k, v := range e {
		if v == "" {
			delete(e, k)
		}
	}
	return core.Configure(func(k string) (string, bool) { v, ok := e[k]; return v, ok }, core.Bindings{Bookings: true, Sandbox: true})
}

// demoMint asks /demo/token for an order's token by GET (query) or POST (form).
func demoMint(t *testing.T, e *core.Edge, method, ref string) string {
	t.Helper()
	q := url.Values{"shipping_client_ref": {ref}}.Encode()
	r := &core.Request{Method: method, RequestID: "rid", Now: day}
	if method == "GET" {
		r.Query, r.HasQuery = q, true
	} else {
		r.Body, r.ContentType = []byte(q), "application/x-www-form-urlencoded"
	}
	a := toAnswer(t, e.DemoToken(r).Response, nil)
	require.Equal(t, 200, a.Status, a.Raw)
	tok, _ := a.Env.Data["token"].(string)
	require.True(t, strings.HasPrefix(tok, tokens.Prefix), a.Raw)
	assert.Equal(t, "sandbox", a.Env.Data["upstream"])
	assert.Equal(t, ref, a.Env.Data["shipping_client_ref"])
	assert.EqualValues(t, 3600, a.Env.Data["expires_in"])
	return tok
}

func TestDemoTokenBooksOneOrder(t *testing.T) {
	e := demoEdge()
	for _, m := range []string{"GET", "POST"} {
		tok := demoMint(t, e, m, "DEMO-"+m)
		auth := "Bearer " + tok
		a, p := scopedCall(t, e, "POST", "new-shipment", "", demoBooking("DEMO-"+m), auth, day)
		require.Equal(t, 200, a.Status, a.Raw)
		assert.Equal(t, core.CallerDemo, p.Caller)
		require.NotNil(t, p.Forward.Booking, "through the Bookings object")
		// What the order booked can be read with the same token: the
		// booking record names its shipment.
		booked := &core.Peeked{State: "done", Body: []byte(`{"status":"ok","data":{"shipping_dlvr_ref":"D7","shipping_client_ref":"DEMO-` + m + `"}}`)}
		for _, c := range [][2]string{{"get-shipment-tracking", "client_ref=DEMO-" + m}, {"get-shipment-label", "dlvr_ref=D7"}, {"get-shipment", "dlvr_ref=D7"}} {
			r := &core.Request{Method: "GET", Query: c[1], HasQuery: true, Authorization: auth, RequestID: "rid", Now: day}
			p := e.Prepare(c[0], r, nil)
			if p.Kind == core.KindPeek {
				p = e.Prepare(c[0], r, booked)
			}
			assert.Equal(t, core.KindForward, p.Kind, "%s %s", c[0], c[1])
		}
		// Another order, the list of every shipment: refused.
		a, _ = scopedCall(t, e, "POST", "new-shipment", "", demoBooking("OTHER-"+m), auth, day)
		assert.Equal(t, 403, a.Status, a.Raw)
		a, _ = scopedCall(t, e, "GET", "get-shipments", "", "", auth, day)
		assert.Equal(t, 403, a.Status, a.Raw)
	}
	a, _ := scopedCall(t, e, "POST", "new-shipment", "", demoBooking("DEMO-X"), "", day)
	assert.Equal(t, 401, a.Status, "without a token")
}

func TestDemoTokenRefused(t *testing.T) {
	e := demoEdge()
	tok := demoMint(t, e, "POST", "DEMO-BAD")
	flipped := []byte(tok)
	flipped[len(flipped)-3] ^= 1
	otherTok := demoMint(t, demoEdge(core.EnvTokenSigningKey, "another-signing-key-0123456789abcdef"), "GET", "DEMO-BAD")
	for name, bad := range map[string]string{
		"tampered":                  string(flipped),
		"another TOKEN_SIGNING_KEY": otherTok,
		"newline before the mac":    tok[:strings.LastIndexByte(tok, '.')+1] + "\n" + tok[strings.LastIndexByte(tok, '.')+1:],
	} {
		a, _ := scopedCall(t, e, "POST", "new-shipment", "", demoBooking("DEMO-BAD"), "Bearer "+bad, day)
		assert.Equal(t, 401, a.Status, "%s: %s", name, a.Raw)
	}
	a, _ := scopedCall(t, e, "POST", "new-shipment", "", demoBooking("DEMO-BAD"), "Bearer "+tok, day.Add(core.DemoTokenTTL))
	assert.Equal(t, 401, a.Status, "expired")
	assert.Contains(t, a.message(), "expired")
}

func TestDemoTokenNeverWithARealUpstream(t *testing.T) {
	tok := demoMint(t, demoEdge(), "GET", "DEMO-R")
	// The merchant configures the real service: the endpoint is gone and
	// the token minted before is worthless (demo tokens have their own key).
	for _, upstream := range []string{"https://api.example.com/v1", "ftp://nope"} {
		e := demoEdge(core.EnvUpstreamBaseURL, upstream)
		for _, m := range []string{"GET", "POST"} {
			a := toAnswer(t, e.DemoToken(&core.Request{Method: m, RequestID: "rid", Now: day}).Response, nil)
			assert.Equal(t, 404, a.Status, "%s %s", upstream, m)
			assert.Equal(t, "not_found", a.Env.Data["errorClass"])
		}
	}
	e := demoEdge(core.EnvUpstreamBaseURL, "https://api.example.com/v1")
	a, _ := scopedCall(t, e, "POST", "new-shipment", "", demoBooking("DEMO-R"), "Bearer "+tok, day)
	assert.Equal(t, 401, a.Status, a.Raw)
	// The master token keeps working.
	a, _ = scopedCall(t, e, "POST", "new-shipment", "", demoBooking("DEMO-P"), bearerMaster, day)
	assert.Equal(t, 200, a.Status, a.Raw)
	// No sandbox binding on this platform: no demo endpoint.
	noSandbox := core.Configure(func(k string) (string, bool) {
		v, ok := env(core.EnvUpstreamBaseURL, core.SandboxUpstream)[k]
		return v, ok
	}, core.Bindings{Bookings: true})
	assert.Equal(t, 404, noSandbox.DemoToken(&core.Request{Method: "GET", RequestID: "rid", Now: day}).Response.Status)
}

func TestDemoTokenEndpointRules(t *testing.T) {
	e := demoEdge()
	a := toAnswer(t, e.DemoToken(&core.Request{Method: "PUT", RequestID: "rid", Now: day}).Response, nil)
	assert.Equal(t, 405, a.Status)
	assert.Equal(t, "GET, POST, OPTIONS", a.Header["Allow"])
	for body, field := range map[string]string{"": "shipping_client_ref", "shipping_client_ref=A&operations=get-shipments": "operations",
		"shipping_client_ref=" + strings.Repeat("A", 16): "shipping_client_ref"} {
		a = toAnswer(t, e.DemoToken(&core.Request{Method: "POST", Body: []byte(body), ContentType: "application/x-www-form-urlencoded",
			RequestID: "rid", Now: day}).Response, nil)
		assert.Equal(t, 400, a.Status, body)
		assert.Contains(t, a.message(), field, body)
	}
	res := demoEdge(core.EnvTokenSigningKey, "").DemoToken(&core.Request{Method: "GET", Query: "shipping_client_ref=A", HasQuery: true,
		RequestID: "rid", Now: day}).Response
	assert.Equal(t, 500, res.Status)
	// A page is anonymous: the variable is named to the operator only.
	assert.NotContains(t, string(res.Body), core.EnvTokenSigningKey)
	assert.Contains(t, res.Detail, core.EnvTokenSigningKey)
}

func TestHealthReportsMissingAndWeakSecrets(t *testing.T) {
	const weakToken = "abababababababababababababababab" // 32 characters, 2 distinct
	for _, c := range []struct {
		name   string
		change []string
		want   []string // variables named
	}{
		{"no PROXY_TOKEN", []string{core.EnvProxyToken, ""}, []string{core.EnvProxyToken}},
		{"no TOKEN_SIGNING_KEY", []string{core.EnvTokenSigningKey, ""}, []string{core.EnvTokenSigningKey}},
		{"neither", []string{core.EnvProxyToken, "", core.EnvTokenSigningKey, ""}, []string{core.EnvProxyToken, core.EnvTokenSigningKey}},
		{"no API_KEY", []string{core.EnvAPIKey, ""}, []string{core.EnvAPIKey}},
		{"no API_USER", []string{core.EnvAPIUser, ""}, []string{core.EnvAPIUser}},
		{"short PROXY_TOKEN", []string{core.EnvProxyToken, "short"}, []string{core.EnvProxyToken}},
		{"weak TOKEN_SIGNING_KEY", []string{core.EnvTokenSigningKey, weakToken}, []string{core.EnvTokenSigningKey}},
		{"placeholder with a real upstream", []string{core.EnvProxyToken, "dev-proxy-token-change-me-0123456789abcdef"}, []string{core.EnvProxyToken}},
		{"webhooks without their secret", []string{core.EnvWebhookURL, "https://shop.example/hooks"}, []string{core.EnvWebhookSecret}},
		{"weak webhook secret", []string{core.EnvWebhookURL, "https://shop.example/hooks", core.EnvWebhookSecret, strings.Repeat("xy", 20)}, []string{core.EnvWebhookSecret}},
	} {
		vars := env(c.change...)
		e := edgeOf(c.change...)
		res := e.Healthz(&core.Health{Method: "GET", RequestID: "rid"})
		a := toAnswer(t, res, nil)
		require.Equal(t, 500, a.Status, "%s: %s", c.name, a.Raw)
		assert.Equal(t, core.CodeMisconfigured, a.code(), c.name)
		for _, v := range c.want {
			assert.NotContains(t, a.Raw, v, "%s: the anonymous caller is not told which variable", c.name)
			assert.Contains(t, res.Detail, v, "%s: the log names it", c.name)
		}
		assert.Contains(t, a.message(), "master token", c.name)
		details := res.Detail
		if tok := vars[core.EnvProxyToken]; len(tok) >= core.MinProxyTokenLen {
			res = e.Healthz(&core.Health{Method: "GET", RequestID: "rid", Authorization: "Bearer " + tok})
			a = toAnswer(t, res, nil)
			require.Equal(t, 500, a.Status, a.Raw)
			for _, v := range c.want {
				assert.Contains(t, a.message(), v, "%s: the master token reads the names", c.name)
			}
		}
		for _, secret := range []string{weakToken, strings.Repeat("xy", 20), key, "dev-proxy-token-change-me"} {
			assert.NotContains(t, a.Raw, secret, c.name)
			assert.NotContains(t, details, secret, c.name)
		}
	}
	// Every secret set and strong: 200.
	assert.Equal(t, 200, edgeOf().Healthz(&core.Health{Method: "GET", RequestID: "rid"}).Status)
}
