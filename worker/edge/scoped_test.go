package edge

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/tokens"
)

const testSigningKey = "signing-key-0123456789abcdef-0123456789"

func scopedHarness(t *testing.T) (*harness, *fakeUpstream) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"dlvr_ref":"D1"}}`))
	e := baseEnv(up.srv.URL + "/v1")
	e[EnvTokenSigningKey] = testSigningKey
	hs := newHarness(e, up.srv.Client())
	hs.h.d.Bookings = NewMemoryLedger()
	return hs, up
}

func (hs *harness) mint(t *testing.T, body string) *response {
	t.Helper()
	return hs.do(t, "POST", TokensPath, body, "Authorization", "Bearer "+testToken)
}

func TestTokensEndpoint(t *testing.T) {
	hs, up := scopedHarness(t)
	r := hs.mint(t, "operations=get-shipment-label,new-shipment&dlvr_ref=D1&shipping_client_ref=ORD-77&ttl=60")
	require.Equal(t, 200, r.Code, r.Raw)
	d := r.Env.Data
	assert.Equal(t, float64(60), d["expires_in"])
	assert.Equal(t, hs.now.Add(time.Minute).Format(time.RFC3339), d["expires_at"])
	assert.Equal(t, []any{"new-shipment", "get-shipment-label"}, d["operations"])
	tok := d["token"].(string)
	c, err := tokens.Verify([]byte(testSigningKey), tok, hs.now)
	require.NoError(t, err)
	assert.Equal(t, "D1", c.DlvrRef)
	assert.Empty(t, up.requests(), "minting never calls the upstream")

	// Default lifetime.
	r = hs.mint(t, "operations=new-shipment&shipping_client_ref=ORD-1")
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, float64(900), r.Env.Data["expires_in"])

	// A pickup: bound to its shipment and its own reference, for at most
	// 2 hours; a read may live a month.
	r = hs.mint(t, "operations=new-collection&dlvr_ref=D1&collection_client_ref=PICK-1&ttl=7200")
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "PICK-1", r.Env.Data["collection_client_ref"])
	c, err = tokens.Verify([]byte(testSigningKey), r.Env.Data["token"].(string), hs.now)
	require.NoError(t, err)
	assert.Equal(t, "PICK-1", c.CollectionClientRef)
	r = hs.mint(t, "operations=get-shipment-tracking&dlvr_ref=D1&ttl=2592000")
	require.Equal(t, 200, r.Code, r.Raw)

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
		r := hs.mint(t, body)
		require.Equal(t, 400, r.Code, body)
		assert.True(t, strings.HasPrefix(r.message(), field+": "), "%s: %s", body, r.message())
		assert.Equal(t, field, r.Env.Data["errors"].([]any)[0].(map[string]any)["field"], body)
		assert.Equal(t, float64(CodeBadRequest), r.Env.Data["errorCode"], body)
	}

	for _, auth := range []string{"", "Bearer wrong", "Bearer " + tok} {
		r := hs.do(t, "POST", TokensPath, "operations=new-shipment", "Authorization", auth)
		assert.Equal(t, 401, r.Code, auth)
	}
	assert.Equal(t, 405, hs.do(t, "GET", TokensPath, "").Code)
	assert.Equal(t, 400, hs.do(t, "POST", TokensPath+"?operations=new-shipment", "operations=new-shipment", "Authorization", "Bearer "+testToken).Code)

	// Missing signing key: a config error naming it.
	hs.setEnv(EnvTokenSigningKey, "")
	r = hs.mint(t, "operations=new-shipment")
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.message(), EnvTokenSigningKey)
}

func TestScopedTokenUse(t *testing.T) {
	hs, up := scopedHarness(t)
	key := []byte(testSigningKey)
	mint := func(g tokens.Grant, ttl time.Duration) string {
		tok, _, err := tokens.Mint(key, g, ttl, hs.now)
		require.NoError(t, err)
		return tok
	}
	both := mint(tokens.Grant{Operations: []string{"new-shipment", "get-shipment-label", "get-shipment-tracking", "get-shipment", "new-collection"},
		ShippingClientRef: "ORD-77", DlvrRef: "D1", CollectionClientRef: "PICK-1"}, 0)
	free := mint(tokens.Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "ORD-78"}, 0)
	col := "collection_date=2026-11-24&hour_start_1=09:00&hour_end_1=13:00&carrier_code=rapido&service_code=rapido-48h" +
		"&shipping_dlvr_ref=D1&collection_client_ref=PICK-1&from_name=T&from_address=Calle+1&from_zip_code=28014&from_country_code=ES" +
		"&to_name=A&to_address=Rua+2&to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT&to_phone=912345678"
	label := "/v1/get-shipment-label?dlvr_ref="
	cases := []struct {
		name, method, target, body, tok string
		want                            int
		field                           string
	}{
		{"book with the bound ref", "POST", "/v1/new-shipment", shipmentForm, both, 200, ""},
		{"book with another ref", "POST", "/v1/new-shipment", strings.Replace(shipmentForm, "ORD-77", "ORD-78", 1), both, 403, "shipping_client_ref"},
		{"token bound to another order", "POST", "/v1/new-shipment", shipmentForm, free, 403, "shipping_client_ref"},
		{"its own order", "POST", "/v1/new-shipment", strings.Replace(shipmentForm, "ORD-77", "ORD-78", 1), free, 200, ""},
		{"pickup of the bound shipment", "POST", "/v1/new-collection", col, both, 200, ""},
		{"second pickup under another reference", "POST", "/v1/new-collection", strings.Replace(col, "PICK-1", "PICK-2", 1), both, 403, "collection_client_ref"},
		{"pickup of another shipment", "POST", "/v1/new-collection", strings.Replace(col, "=D1&", "=D2&", 1), both, 403, "shipping_dlvr_ref"},
		{"operation not granted", "GET", label + "D1", "", free, 403, ""},
		{"label of the bound shipment", "GET", label + "D1", "", both, 200, ""},
		{"label of another shipment", "GET", label + "D2", "", both, 403, "dlvr_ref"},
		{"label by carrier ref", "GET", "/v1/get-shipment-label?shipping_carrier_ref=C1", "", both, 403, "shipping_carrier_ref"},
		{"get-shipment other", "GET", "/v1/get-shipment?dlvr_ref=D9", "", both, 403, "dlvr_ref"},
		{"tracking bound", "GET", "/v1/get-shipment-tracking?dlvr_ref=D1", "", both, 200, ""},
		{"tracking by bound client ref", "GET", "/v1/get-shipment-tracking?client_ref=ORD-77", "", both, 200, ""},
		{"tracking by other client ref", "GET", "/v1/get-shipment-tracking?client_ref=ORD-1", "", both, 403, "client_ref"},
		{"tracking by carrier ref", "GET", "/v1/get-shipment-tracking?carrier_ref=X&carrier_code=rapido", "", both, 403, "carrier_ref"},
		{"get-shipments never", "GET", "/v1/get-shipments", "", both, 403, ""},
		{"tampered", "GET", label + "D1", "", both[:len(both)-2] + "AA", 401, ""},
		{"newline inside", "GET", label + "D1", "", both[:12] + "\n" + both[12:], 401, ""},
	}
	for _, tc := range cases {
		n := len(up.requests())
		r := hs.do(t, tc.method, tc.target, tc.body, "Authorization", "Bearer "+tc.tok)
		require.Equal(t, tc.want, r.Code, "%s: %s", tc.name, r.Raw)
		if tc.want != 200 {
			assert.Equal(t, n, len(up.requests()), "%s: refused calls never reach the upstream", tc.name)
		}
		if tc.field != "" {
			assert.Equal(t, tc.field, r.Env.Data["errors"].([]any)[0].(map[string]any)["field"], tc.name)
		}
	}

	// The same pickup again is the first one's answer, not a second
	// booking; with other data a conflict.
	n := len(up.requests())
	r := hs.do(t, "POST", "/v1/new-collection", col, "Authorization", "Bearer "+both)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	r = hs.do(t, "POST", "/v1/new-collection", strings.Replace(col, "hour_end_1=13:00", "hour_end_1=14:00", 1), "Authorization", "Bearer "+both)
	assert.Equal(t, 409, r.Code, r.Raw)
	assert.Equal(t, n, len(up.requests()), "one pickup per token")

	// Without booking records a page cannot book at all (a resend would
	// book again); the shop's server with the master token still can.
	hs.setEnv(EnvExactlyOnce, "false")
	for _, b := range []struct{ path, form string }{{"/v1/new-shipment", strings.Replace(shipmentForm, "ORD-77", "ORD-78", 1)}, {"/v1/new-collection", col}} {
		tok := free
		if b.path == "/v1/new-collection" {
			tok = both
		}
		r = hs.do(t, "POST", b.path, b.form, "Authorization", "Bearer "+tok)
		assert.Equal(t, 403, r.Code, r.Raw)
		assert.Contains(t, r.message(), EnvExactlyOnce)
	}
	assert.Equal(t, n, len(up.requests()))
	assert.Equal(t, 200, hs.do(t, "POST", "/v1/new-shipment", shipmentForm, "Authorization", "Bearer "+testToken).Code)
	hs.setEnv(EnvExactlyOnce, "true")

	// Expired and foreign tokens: 401.
	short := mint(tokens.Grant{Operations: []string{"get-shipment-label"}, DlvrRef: "D1"}, time.Second)
	hs.now = hs.now.Add(2 * time.Second)
	r = hs.do(t, "GET", label+"D1", "", "Authorization", "Bearer "+short)
	assert.Equal(t, 401, r.Code)
	assert.Contains(t, r.message(), "expired")
	foreign, _, _ := tokens.Mint([]byte("another-signing-key-0123456789abcdef"), tokens.Grant{Operations: []string{"get-shipment-label"}, DlvrRef: "D1"}, 0, hs.now)
	assert.Equal(t, 401, hs.do(t, "GET", label+"D1", "", "Authorization", "Bearer "+foreign).Code)

	// The master token still works for everything, get-shipments included.
	assert.Equal(t, 200, hs.do(t, "GET", "/v1/get-shipments", "", "Authorization", "Bearer "+testToken).Code)

	// Without the signing key, a scoped token is a config error; the
	// page holding it is not told which variable (the log is).
	hs.setEnv(EnvTokenSigningKey, "")
	r = hs.do(t, "GET", label+"D1", "", "Authorization", "Bearer "+both)
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.message(), "worker misconfigured")
	assert.NotContains(t, r.message(), EnvTokenSigningKey)
	assert.Contains(t, hs.log.String(), EnvTokenSigningKey)
}
