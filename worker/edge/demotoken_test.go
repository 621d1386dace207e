package edge

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A complete new-shipment form for the embedded sandbox.
func demoBooking(ref string) string {
	return "shipping_date=2026-11-23&service_type=custom&carrier_code=rayo&service_code=rayo-48" +
		"&shipping_client_ref=" + ref +
		"&from_name=Tienda&from_address=Calle+Mayor+1&from_city=Madrid&from_zip_code=28014&from_country_code=ES" +
		"&to_name=Ana&to_address=Carrer+Gran+2&to_city=Barcelona&to_zip_code=08001&to_country_code=ES" +
		"&parcels[0][parcel_weight]=2&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10" +
		"&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000"
}

func mint(t *testing.T, hs *harness, method string) string {
	t.Helper()
	res := hs.do(t, method, DemoTokenPath, "")
	require.Equal(t, http.StatusOK, res.Code, res.Raw)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	tok, _ := res.Env.Data["token"].(string)
	require.True(t, strings.HasPrefix(tok, demoPrefix), res.Raw)
	assert.Equal(t, "sandbox", res.Env.Data["upstream"])
	assert.EqualValues(t, 3600, res.Env.Data["expires_in"])
	assert.Equal(t, hs.now.Add(time.Hour).UTC().Format(time.RFC3339), res.Env.Data["expires_at"])
	return tok
}

func TestDemoTokenBooksAgainstTheSandbox(t *testing.T) {
	hs := newHarness(baseEnv(""), nil)
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		tok := mint(t, hs, m)
		res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-"+m), "Authorization", "Bearer "+tok)
		require.Equal(t, http.StatusOK, res.Code, res.Raw)
		assert.NotEmpty(t, res.Env.Data["shipping_dlvr_ref"])
		// The demo's own reads work too (not the list of every shipment:
		// TestDemoTokenCannotListShipments), and the public ones never needed it.
		res = hs.do(t, http.MethodGet, "/v1/get-shipment-tracking?client_ref=DEMO-"+m, "", "Authorization", "bearer "+tok)
		assert.Equal(t, http.StatusOK, res.Code, res.Raw)
	}
	// Without a token: 401 as before.
	res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-X"))
	assert.Equal(t, http.StatusUnauthorized, res.Code)
	// The log names the endpoint and never the token.
	assert.Contains(t, hs.log.String(), `"op":"demo-token"`)
	assert.NotContains(t, hs.log.String(), demoPrefix)
}

func TestDemoTokenRefused(t *testing.T) {
	hs := newHarness(baseEnv(""), nil)
	tok := mint(t, hs, http.MethodPost)
	parts := strings.Split(tok, ".")
	require.Len(t, parts, 3)
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	require.NoError(t, err)
	sig[0] ^= 1
	otherSecrets := newHarness(baseEnv(""), nil)
	otherSecrets.setEnv(EnvProxyToken, "another-proxy-token-0123456789abcdef")
	otherTok := mint(t, otherSecrets, http.MethodGet)
	longLived := func() string {
		cfg := Config{ProxyToken: testToken, APIKey: testKey}
		tk, _ := mintDemoToken(&cfg, hs.now.Add(5*time.Hour))
		return tk
	}()

	cases := map[string]string{
		"tampered signature":          parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(sig),
		"other expiry, same mac":      parts[0] + "." + "9" + parts[1] + "." + parts[2],
		"other PROXY_TOKEN":           otherTok,
		"valid too far in the future": longLived,
		"prefix only":                 demoPrefix,
		"no signature":                parts[0] + "." + parts[1] + ".",
		"not base64":                  parts[0] + "." + parts[1] + ".!!!!",
		"huge expiry":                 demoPrefix + "99999999999999999999." + parts[2],
		"negative expiry":             demoPrefix + "-5." + parts[2],
		"long":                        tok + strings.Repeat("A", 200),
		"proxy-like":                  "pgdemo",
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-BAD"), "Authorization", "Bearer "+bad)
			assert.Equal(t, http.StatusUnauthorized, res.Code, res.Raw)
			assert.Equal(t, CodeUnauthorized, res.errorCode())
		})
	}

	t.Run("expired", func(t *testing.T) {
		hs.now = hs.now.Add(DemoTokenTTL)
		res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-OLD"), "Authorization", "Bearer "+tok)
		assert.Equal(t, http.StatusUnauthorized, res.Code, res.Raw)
	})

	t.Run("API_KEY rotated", func(t *testing.T) {
		fresh := mint(t, hs, http.MethodGet)
		hs.setEnv(EnvAPIKey, testKey+"-rotated")
		res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-ROT"), "Authorization", "Bearer "+fresh)
		assert.Equal(t, http.StatusUnauthorized, res.Code, res.Raw)
	})
}

func TestDemoTokenNeverWithARealUpstream(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"shipping_dlvr_ref":"R1"}}`))
	hs := newHarness(baseEnv(""), up.srv.Client())
	tok := mint(t, hs, http.MethodGet)

	// The merchant configures the real service: the endpoint is gone and
	// the token minted before is worthless.
	hs.setEnv(EnvUpstreamBaseURL, up.srv.URL+"/v1")
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodOptions} {
		res := hs.do(t, m, DemoTokenPath, "")
		assert.Equal(t, http.StatusNotFound, res.Code, m)
		assert.Equal(t, CodeNotFound, res.errorCode())
		assert.Equal(t, "not_found", res.Env.Data["errorClass"])
		assert.NotContains(t, res.Raw, demoPrefix)
	}
	res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-R"), "Authorization", "Bearer "+tok)
	assert.Equal(t, http.StatusUnauthorized, res.Code, res.Raw)
	assert.Empty(t, up.requests(), "nothing forwarded with a demo token")

	// An invalid upstream URL is still "a real upstream": no demo mode.
	hs.setEnv(EnvUpstreamBaseURL, "ftp://nope")
	res = hs.do(t, http.MethodGet, DemoTokenPath, "")
	assert.Equal(t, http.StatusNotFound, res.Code)

	// The real proxy token keeps working.
	hs.setEnv(EnvUpstreamBaseURL, up.srv.URL+"/v1")
	res = hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-P"), "Authorization", "Bearer "+testToken)
	assert.Equal(t, http.StatusOK, res.Code, res.Raw)
}

func TestDemoTokenEndpointRules(t *testing.T) {
	hs := newHarness(baseEnv(""), nil)
	res := hs.do(t, http.MethodPut, DemoTokenPath, "")
	assert.Equal(t, http.StatusMethodNotAllowed, res.Code)
	assert.Equal(t, "GET, POST, OPTIONS", res.Header.Get("Allow"))

	res = hs.do(t, http.MethodGet, DemoTokenPath, "", "Origin", "https://evil.example")
	assert.Equal(t, http.StatusForbidden, res.Code)

	res = hs.do(t, http.MethodOptions, DemoTokenPath, "", "Origin", "https://shop.example")
	assert.Equal(t, http.StatusOK, res.Code)
	assert.Equal(t, "https://shop.example", res.Header.Get("Access-Control-Allow-Origin"))

	hs.setEnv(EnvProxyToken, "")
	res = hs.do(t, http.MethodGet, DemoTokenPath, "")
	assert.Equal(t, http.StatusInternalServerError, res.Code)
	assert.Contains(t, res.message(), EnvProxyToken)

	// No embedded sandbox on this platform: no demo endpoint.
	noStore := newHarness(baseEnv(""), nil)
	noStore.h.d.Store = nil
	res = noStore.do(t, http.MethodGet, DemoTokenPath, "")
	assert.Equal(t, http.StatusNotFound, res.Code)
}

func TestDemoTokenCannotListShipments(t *testing.T) {
	hs := newHarness(baseEnv(""), nil)
	r := hs.do(t, "POST", DemoTokenPath, "")
	require.Equal(t, 200, r.Code, r.Raw)
	tok := r.Env.Data["token"].(string)
	r = hs.do(t, "GET", "/v1/get-shipments", "", "Authorization", "Bearer "+tok)
	assert.Equal(t, 403, r.Code, r.Raw)
	assert.Contains(t, r.message(), "get-shipments")
	r = hs.do(t, "GET", "/v1/get-shipment-tracking?dlvr_ref=SBX1", "", "Authorization", "Bearer "+tok)
	assert.NotEqual(t, 403, r.Code, "the demo's own reads still work")
}
