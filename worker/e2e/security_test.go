//go:build !(js && wasm)

package e2e

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// Findings of the security review (issue 20) that concern the runtime.

// /v1/new%2Dshipment is a booking to Go and a different pathname to
// worker/entry.mjs: the edge refuses it outright, so it is never booked
// and never replayed as a read.
func TestPercentEncodedBookingPathUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, nil)
	v := parcel(parties(url.Values{}))
	v.Set("shipping_date", nextWorkingDay())
	v.Set("service_type", "custom")
	v.Set("carrier_code", "delay")
	v.Set("service_code", "delay-24")
	v.Set("shipping_client_ref", "ENC-1")
	for _, op := range []string{"new%2Dshipment", "new%2dshipment", "new-%73hipment"} {
		r := call(t, s.URL, http.MethodPost, op, v, bearer()...) // raw: encoded operation names the client never sends
		require.Equal(t, 400, r.Code, "%s: %s", op, r.Raw)
		assert.Equal(t, "encoded_path", str(r.Data, "errorClass"), op)
		assert.Contains(t, str(r.Data, "errorMessage"), "/v1/"+op, op)
	}
	assert.Equal(t, 0, up.count(), "nothing reached the upstream")
	r := book(t, edge(t, s.URL), v)
	assert.Equal(t, 200, r.Code, r.Raw)
}

// /healthz under workerd: unhealthy while a required secret is missing,
// the variable named in the log and to the master token only.
func TestHealthNamesMissingSecretsUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	s := start(t, wranglerdev.Options{Sandbox: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token}})
	anon := get(t, s.URL, "/healthz")
	require.Equal(t, 500, anon.Code, anon.Raw)
	assert.EqualValues(t, 1500, anon.Data["errorCode"])
	assert.NotContains(t, anon.Raw, "TOKEN_SIGNING_KEY", "the anonymous caller is not told which variable")
	// wrangler relays the worker's log lines after the answer: wait for it.
	for i := 0; i < 100 && !strings.Contains(s.Logs(), `"op":"healthz","status":500`); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	assert.Contains(t, s.Logs(), "TOKEN_SIGNING_KEY: secret is not set", "the log names it")

	req, _ := http.NewRequest(http.MethodGet, s.URL+"/healthz", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, 500, res.StatusCode)
	assert.Contains(t, string(b), "TOKEN_SIGNING_KEY: secret is not set", "the master token reads the name")
	for _, secret := range []string{key, token} {
		assert.NotContains(t, string(b)+anon.Raw+s.Logs(), secret)
	}
	// Public reads still work: the probe is what tells the operator.
	r := do(t, edge(t, s.URL, edgeclient.WithToken("")), edgeclient.GetClientCarriersParams{})
	assert.Equal(t, 200, r.Code, r.Raw)
}
