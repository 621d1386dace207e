package edge

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/tokens"
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

// demoHarness is the embedded sandbox with booking records and a signing key.
func demoHarness(t *testing.T) *harness {
	e := baseEnv("")
	e[EnvTokenSigningKey] = testSigningKey
	hs := newHarness(e, nil)
	hs.h.d.Bookings = NewMemoryLedger()
	return hs
}

// mint asks /demo/token for an order's token by GET (query) or POST (form).
func mint(t *testing.T, hs *harness, method, ref string) string {
	t.Helper()
	q := url.Values{"shipping_client_ref": {ref}}.Encode()
	var res *response
	if method == http.MethodGet {
		res = hs.do(t, method, DemoTokenPath+"?"+q, "")
	} else {
		res = hs.do(t, method, DemoTokenPath, q)
	}
	require.Equal(t, http.StatusOK, res.Code, res.Raw)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	tok, _ := res.Env.Data["token"].(string)
	require.True(t, strings.HasPrefix(tok, tokens.Prefix), res.Raw)
	assert.Equal(t, "sandbox", res.Env.Data["upstream"])
	assert.Equal(t, ref, res.Env.Data["shipping_client_ref"])
	assert.EqualValues(t, 3600, res.Env.Data["expires_in"])
	return tok
}

func TestDemoTokenBooksOneOrder(t *testing.T) {
	hs := demoHarness(t)
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		tok := mint(t, hs, m, "DEMO-"+m)
		auth := []string{"Authorization", "Bearer " + tok}
		res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-"+m), auth...)
		require.Equal(t, http.StatusOK, res.Code, res.Raw)
		dlvr := res.Env.Data["shipping_dlvr_ref"].(string)
		// What the order booked can be read with the same token.
		for _, target := range []string{"/v1/get-shipment-tracking?client_ref=DEMO-" + m, "/v1/get-shipment-label?dlvr_ref=" + dlvr, "/v1/get-shipment?dlvr_ref=" + dlvr} {
			res = hs.do(t, http.MethodGet, target, "", auth...)
			assert.Equal(t, http.StatusOK, res.Code, "%s: %s", target, res.Raw)
		}
		// Another order, the list of every shipment, a collection: refused.
		res = hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("OTHER-"+m), auth...)
		assert.Equal(t, http.StatusForbidden, res.Code, res.Raw)
		res = hs.do(t, http.MethodGet, "/v1/get-shipments", "", auth...)
		assert.Equal(t, http.StatusForbidden, res.Code, res.Raw)
	}
	// Without a token: 401 as before; the log never holds a token.
	res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-X"))
	assert.Equal(t, http.StatusUnauthorized, res.Code)
	assert.Contains(t, hs.log.String(), `"op":"demo-token"`)
	assert.NotContains(t, hs.log.String(), tokens.Prefix)
}

func TestDemoTokenRefused(t *testing.T) {
	hs := demoHarness(t)
	tok := mint(t, hs, http.MethodPost, "DEMO-BAD")
	flipped := []byte(tok)
	flipped[len(flipped)-3] ^= 1
	other := demoHarness(t)
	other.setEnv(EnvTokenSigningKey, "another-signing-key-0123456789abcdef")
	otherTok := mint(t, other, http.MethodGet, "DEMO-BAD")
	for name, bad := range map[string]string{
		"tampered":                  string(flipped),
		"another TOKEN_SIGNING_KEY": otherTok,
		"newline before the mac":    tok[:strings.LastIndexByte(tok, '.')+1] + "\n" + tok[strings.LastIndexByte(tok, '.')+1:],
	} {
		res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-BAD"), "Authorization", "Bearer "+bad)
		assert.Equal(t, http.StatusUnauthorized, res.Code, "%s: %s", name, res.Raw)
	}
	hs.now = hs.now.Add(DemoTokenTTL)
	res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-BAD"), "Authorization", "Bearer "+tok)
	assert.Equal(t, http.StatusUnauthorized, res.Code, "expired")
	assert.Contains(t, res.message(), "expired")
}

func TestDemoTokenNeverWithARealUpstream(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"shipping_dlvr_ref":"R1"}}`))
	hs := demoHarness(t)
	hs.h.d.Upstream = up.srv.Client()
	tok := mint(t, hs, http.MethodGet, "DEMO-R")

	// The merchant configures the real service: the endpoint is gone and
	// the token minted before is worthless (demo tokens have their own key).
	hs.setEnv(EnvUpstreamBaseURL, up.srv.URL+"/v1")
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodOptions} {
		res := hs.do(t, m, DemoTokenPath, "")
		assert.Equal(t, http.StatusNotFound, res.Code, m)
		assert.Equal(t, "not_found", res.Env.Data["errorClass"])
	}
	res := hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-R"), "Authorization", "Bearer "+tok)
	assert.Equal(t, http.StatusUnauthorized, res.Code, res.Raw)
	assert.Empty(t, up.requests(), "nothing forwarded with a demo token")

	// An invalid upstream URL is still "a real upstream": no demo mode.
	hs.setEnv(EnvUpstreamBaseURL, "ftp://nope")
	res = hs.do(t, http.MethodGet, DemoTokenPath, "")
	assert.Equal(t, http.StatusNotFound, res.Code)

	// The master token keeps working.
	hs.setEnv(EnvUpstreamBaseURL, up.srv.URL+"/v1")
	res = hs.do(t, http.MethodPost, "/v1/new-shipment", demoBooking("DEMO-P"), "Authorization", "Bearer "+testToken)
	assert.Equal(t, http.StatusOK, res.Code, res.Raw)
}

func TestDemoTokenEndpointRules(t *testing.T) {
	hs := demoHarness(t)
	res := hs.do(t, http.MethodPut, DemoTokenPath, "")
	assert.Equal(t, http.StatusMethodNotAllowed, res.Code)
	assert.Equal(t, "GET, POST, OPTIONS", res.Header.Get("Allow"))

	res = hs.do(t, http.MethodGet, DemoTokenPath+"?shipping_client_ref=A", "", "Origin", "https://evil.example")
	assert.Equal(t, http.StatusForbidden, res.Code)

	res = hs.do(t, http.MethodOptions, DemoTokenPath, "", "Origin", "https://shop.example")
	assert.Equal(t, http.StatusOK, res.Code)
	assert.Equal(t, "https://shop.example", res.Header.Get("Access-Control-Allow-Origin"))

	for body, field := range map[string]string{"": "shipping_client_ref", "shipping_client_ref=A&operations=get-shipments": "operations",
		"shipping_client_ref=" + strings.Repeat("A", 16): "shipping_client_ref"} {
		res = hs.do(t, http.MethodPost, DemoTokenPath, body)
		assert.Equal(t, http.StatusBadRequest, res.Code, body)
		assert.Contains(t, res.message(), field, body)
	}

	hs.setEnv(EnvTokenSigningKey, "")
	res = hs.do(t, http.MethodGet, DemoTokenPath+"?shipping_client_ref=A", "")
	assert.Equal(t, http.StatusInternalServerError, res.Code)
	// A page is anonymous: the variable is named to the operator only.
	assert.NotContains(t, res.message(), EnvTokenSigningKey)
	assert.Contains(t, hs.log.String(), EnvTokenSigningKey)

	// No sandbox on this platform (no SANDBOX binding): no demo endpoint.
	noStore := demoHarness(t)
	noStore.h.d.Sandbox = nil
	res = noStore.do(t, http.MethodGet, DemoTokenPath, "")
	assert.Equal(t, http.StatusNotFound, res.Code)
}
