package core_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// worker/edge's scoped_test.go, retired with it (issue 21): POST /tokens
// and what a scoped token may do, on the core. Replays and conflicts of
// a token's booking are the Bookings object's (worker/src's platform
// tests, worker/e2e's TestScopedTokenFlowUnderWorkerd and bookings tests).

func ledgerEdge(changes ...string) *core.Edge {
	e := env(append([]string{core.EnvExactlyOnce, "true"}, changes...)...)
	for k, v := range e {
		if v == "" {
			delete(e, k)
		}
	}
	return core.Configure(func(k string) (string, bool) { v, ok := e[k]; return v, ok }, core.Bindings{Bookings: true})
}

func mintAt(e *core.Edge, body, auth string, now time.Time) *answer {
	r := &core.Request{Method: "POST", Body: []byte(body), ContentType: "application/x-www-form-urlencoded", Authorization: auth,
		RequestID: "rid", Now: now}
	return toAnswerNoT(e.Tokens(r).Response)
}

// toAnswerNoT is toAnswer for helpers without a *testing.T (a body that
// is not JSON leaves Env empty, and the assertions on it fail).
func toAnswerNoT(r *core.Response) *answer {
	a := &answer{Status: r.Status, Raw: string(r.Body), Header: map[string]string{}}
	for _, h := range r.Headers {
		a.Header[h.Name] = h.Value
	}
	_ = json.Unmarshal(r.Body, &a.Env)
	return a
}

func TestTokensEndpoint(t *testing.T) {
	e := ledgerEdge(core.EnvAllowUnbound, "true") // unbound booking grants: allowed explicitly since issue 30
	mint := func(body string) *answer { return mintAt(e, body, bearerMaster, day) }
	r := mint("operations=get-shipment-label,new-shipment&dlvr_ref=D1&shipping_client_ref=ORD-77&ttl=60")
	require.Equal(t, 200, r.Status, r.Raw)
	d := r.Env.Data
	assert.Equal(t, float64(60), d["expires_in"])
	assert.Equal(t, day.Add(time.Minute).Format(time.RFC3339), d["expires_at"])
	assert.Equal(t, []any{"new-shipment", "get-shipment-label"}, d["operations"])
	tok := d["token"].(string)
	c, err := tokens.Verify(tokens.Keys{[]byte(signing)}, tok, day)
	require.NoError(t, err)
	assert.Equal(t, "D1", c.DlvrRef)

	r = mint("operations=new-shipment&shipping_client_ref=ORD-1")
	require.Equal(t, 200, r.Status, r.Raw)
	assert.Equal(t, float64(900), r.Env.Data["expires_in"], "the default lifetime")

	// A pickup: bound to its shipment and its own reference, for at most
	// 2 hours; a read may live a month.
	r = mint("operations=new-collection&dlvr_ref=D1&collection_client_ref=PICK-1&ttl=7200")
	require.Equal(t, 200, r.Status, r.Raw)
	assert.Equal(t, "PICK-1", r.Env.Data["collection_client_ref"])
	c, err = tokens.Verify(tokens.Keys{[]byte(signing)}, r.Env.Data["token"].(string), day)
	require.NoError(t, err)
	assert.Equal(t, "PICK-1", c.CollectionClientRef)
	r = mint("operations=get-shipment-tracking&dlvr_ref=D1&ttl=2592000")
	require.Equal(t, 200, r.Status, r.Raw)

	for body, field := range map[string]string{
		"":                                    "operations",
		"operations=get-shipments":            "operations",
		"operations=new-shipment,nope":        "operations",
		"operations=get-shipment":             "operations",
		"operations=new-shipment":             "shipping_client_ref",
		"operations=new-shipment&dlvr_ref=D1": "shipping_client_ref",
		"operations=new-collection&dlvr_ref=D1&shipping_client_ref=A":                  "collection_client_ref",
		"operations=new-collection&collection_client_ref=C":                            "dlvr_ref",
		"operations=get-shipment&dlvr_ref=D1&collection_client_ref=C":                  "collection_client_ref",
		"operations=new-shipment&shipping_client_ref=A&ttl=7201":                       "ttl",
		"operations=new-collection&dlvr_ref=D1&collection_client_ref=C&ttl=86400":      "ttl",
		"operations=new-shipment&ttl=2592001":                                          "ttl",
		"operations=new-shipment&ttl=0":                                                "ttl",
		"operations=new-shipment&ttl=+5":                                               "ttl",
		"operations=new-shipment&ttl=1&ttl=2":                                          "ttl",
		"operations=new-shipment&color=red":                                            "color",
		"operations=get-shipment&dlvr_ref=%0A":                                         "dlvr_ref",
		"operations=new-shipment&shipping_client_ref=0123456789abcdef":                 "shipping_client_ref",
		"operations=new-shipment&shipping_client_ref=AB%E2%80%8B12":                    "shipping_client_ref",
		"operations=new-collection&dlvr_ref=D1&collection_client_ref=0123456789abcdef": "collection_client_ref",
	} {
		r := mint(body)
		require.Equal(t, 400, r.Status, body)
		assert.True(t, strings.HasPrefix(r.message(), field+": "), "%s: %s", body, r.message())
		assert.Equal(t, field, r.Env.Data["errors"].([]any)[0].(map[string]any)["field"], body)
		assert.Equal(t, core.CodeBadRequest, r.code(), body)
	}

	for _, auth := range []string{"", "Bearer wrong", "Bearer " + tok} {
		assert.Equal(t, 401, mintAt(e, "operations=new-shipment", auth, day).Status, auth)
	}
	assert.Equal(t, 405, toAnswerNoT(e.Tokens(&core.Request{Method: "GET", RequestID: "rid", Now: day}).Response).Status)
	q := e.Tokens(&core.Request{Method: "POST", Query: "operations=new-shipment", HasQuery: true, Body: []byte("operations=new-shipment"),
		ContentType: "application/x-www-form-urlencoded", Authorization: bearerMaster, RequestID: "rid", Now: day})
	assert.Equal(t, 400, q.Response.Status)

	// Missing signing key: a configuration error naming it to the master.
	r = mintAt(ledgerEdge(core.EnvTokenSigningKey, ""), "operations=new-shipment", bearerMaster, day)
	assert.Equal(t, 500, r.Status)
	assert.Contains(t, r.message(), core.EnvTokenSigningKey)
}

// scopedCall runs a call with a scoped token as worker/src does: a peek
// at the booking record when the core asks for one (none here), then
// the forward; 200 means it was forwarded.
func scopedCall(t *testing.T, e *core.Edge, method, op, query, body, auth string, now time.Time) (*answer, *core.Prepared) {
	t.Helper()
	r := &core.Request{Method: method, Query: query, HasQuery: query != "", Body: []byte(body), Authorization: auth, RequestID: "rid", Now: now}
	if method == "POST" {
		r.ContentType = "application/x-www-form-urlencoded"
	}
	p := e.Prepare(op, r, nil)
	if p.Kind == core.KindPeek {
		p = e.Prepare(op, r, &core.Peeked{})
	}
	if p.Kind == core.KindRespond {
		return toAnswer(t, p.Response, nil), p
	}
	require.Equal(t, core.KindForward, p.Kind)
	return &answer{Status: 200, Sent: []string{string(p.Forward.UpstreamBody)}}, p
}

func TestScopedTokenUse(t *testing.T) {
	e := ledgerEdge(core.EnvAllowUnbound, "true") // unbound booking grants: allowed explicitly since issue 30
	now := day
	mint := func(g tokens.Grant, ttl time.Duration) string {
		tok, _, err := tokens.Mint([]byte(signing), g, ttl, now)
		require.NoError(t, err)
		return tok
	}
	both := mint(tokens.Grant{Operations: []string{"new-shipment", "get-shipment-label", "get-shipment-tracking", "get-shipment", "new-collection"},
		ShippingClientRef: "ORD-77", DlvrRef: "D1", CollectionClientRef: "PICK-1"}, 0)
	free := mint(tokens.Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "ORD-78"}, 0)
	col := "collection_date=2026-11-24&hour_start_1=09:00&hour_end_1=13:00&carrier_code=rapido&service_code=rapido-48h" +
		"&shipping_dlvr_ref=D1&collection_client_ref=PICK-1&from_name=T&from_address=Calle+1&from_zip_code=28014&from_country_code=ES" +
		"&to_name=A&to_address=Rua+2&to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT&to_phone=912345678"
	for _, tc := range []struct {
		name, method, op, query, body, tok string
		want                               int
		field                              string
	}{
		{"book with the bound ref", "POST", "new-shipment", "", shipmentForm, both, 200, ""},
		{"book with another ref", "POST", "new-shipment", "", strings.Replace(shipmentForm, "ORD-77", "ORD-78", 1), both, 403, "shipping_client_ref"},
		{"token bound to another order", "POST", "new-shipment", "", shipmentForm, free, 403, "shipping_client_ref"},
		{"its own order", "POST", "new-shipment", "", strings.Replace(shipmentForm, "ORD-77", "ORD-78", 1), free, 200, ""},
		{"pickup of the bound shipment", "POST", "new-collection", "", col, both, 200, ""},
		{"second pickup under another reference", "POST", "new-collection", "", strings.Replace(col, "PICK-1", "PICK-2", 1), both, 403, "collection_client_ref"},
		{"pickup of another shipment", "POST", "new-collection", "", strings.Replace(col, "=D1&", "=D2&", 1), both, 403, "shipping_dlvr_ref"},
		{"operation not granted", "GET", "get-shipment-label", "dlvr_ref=D1", "", free, 403, ""},
		{"label of the bound shipment", "GET", "get-shipment-label", "dlvr_ref=D1", "", both, 200, ""},
		{"label of another shipment", "GET", "get-shipment-label", "dlvr_ref=D2", "", both, 403, "dlvr_ref"},
		{"label by carrier ref", "GET", "get-shipment-label", "shipping_carrier_ref=C1", "", both, 403, "shipping_carrier_ref"},
		{"get-shipment other", "GET", "get-shipment", "dlvr_ref=D9", "", both, 403, "dlvr_ref"},
		{"tracking bound", "GET", "get-shipment-tracking", "dlvr_ref=D1", "", both, 200, ""},
		{"tracking by bound client ref", "GET", "get-shipment-tracking", "client_ref=ORD-77", "", both, 200, ""},
		{"tracking by other client ref", "GET", "get-shipment-tracking", "client_ref=ORD-1", "", both, 403, "client_ref"},
		{"tracking by carrier ref", "GET", "get-shipment-tracking", "carrier_ref=X&carrier_code=rapido", "", both, 403, "carrier_ref"},
		{"get-shipments never", "GET", "get-shipments", "", "", both, 403, ""},
		{"tampered", "GET", "get-shipment-label", "dlvr_ref=D1", "", both[:len(both)-2] + "AA", 401, ""},
		{"newline inside", "GET", "get-shipment-label", "dlvr_ref=D1", "", both[:12] + "\n" + both[12:], 401, ""},
	} {
		a, p := scopedCall(t, e, tc.method, tc.op, tc.query, tc.body, "Bearer "+tc.tok, now)
		require.Equal(t, tc.want, a.Status, "%s: %s", tc.name, a.Raw)
		if tc.field != "" {
			assert.Equal(t, tc.field, a.Env.Data["errors"].([]any)[0].(map[string]any)["field"], tc.name)
		}
		if a.Status == 200 && tc.method == "POST" {
			require.NotNil(t, p.Forward.Booking, "%s: a page's booking goes through the Bookings object", tc.name)
		}
	}

	// Without booking records a page cannot book at all (a resend would
	// book again); the shop's server with the master token still can.
	off := ledgerEdge(core.EnvExactlyOnce, "false")
	for _, b := range []struct{ op, form, tok string }{
		{"new-shipment", strings.Replace(shipmentForm, "ORD-77", "ORD-78", 1), free}, {"new-collection", col, both}} {
		a, _ := scopedCall(t, off, "POST", b.op, "", b.form, "Bearer "+b.tok, now)
		assert.Equal(t, 403, a.Status, a.Raw)
		assert.Contains(t, a.message(), core.EnvExactlyOnce)
	}
	a, _ := scopedCall(t, off, "POST", "new-shipment", "", shipmentForm, bearerMaster, now)
	assert.Equal(t, 200, a.Status, a.Raw)

	// Expired and foreign tokens: 401.
	short := mint(tokens.Grant{Operations: []string{"get-shipment-label"}, DlvrRef: "D1"}, time.Second)
	a, _ = scopedCall(t, e, "GET", "get-shipment-label", "dlvr_ref=D1", "", "Bearer "+short, now.Add(2*time.Second))
	assert.Equal(t, 401, a.Status)
	assert.Contains(t, a.message(), "expired")
	foreign, _, _ := tokens.Mint([]byte("another-signing-key-0123456789abcdef"), tokens.Grant{Operations: []string{"get-shipment-label"}, DlvrRef: "D1"}, 0, now)
	a, _ = scopedCall(t, e, "GET", "get-shipment-label", "dlvr_ref=D1", "", "Bearer "+foreign, now)
	assert.Equal(t, 401, a.Status)

	// The master token still works for everything, get-shipments included.
	a, _ = scopedCall(t, e, "GET", "get-shipments", "", "", bearerMaster, now)
	assert.Equal(t, 200, a.Status, a.Raw)

	// Without the signing key, a scoped token is a configuration error;
	// the page holding it is not told which variable (the log line is).
	nokey := ledgerEdge(core.EnvTokenSigningKey, "")
	p := nokey.Prepare("get-shipment-label", &core.Request{Method: "GET", Query: "dlvr_ref=D1", HasQuery: true, Authorization: "Bearer " + both,
		RequestID: "rid", Now: now}, nil)
	require.Equal(t, core.KindRespond, p.Kind)
	a = toAnswer(t, p.Response, nil)
	assert.Equal(t, 500, a.Status)
	assert.Contains(t, a.message(), "worker misconfigured")
	assert.NotContains(t, a.Raw, core.EnvTokenSigningKey)
	assert.Contains(t, p.Response.Detail, core.EnvTokenSigningKey)
}
