package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// worker/tokens/README.md's "Rotating the token key", step by step under workerd: a
// checkout's token minted before the rotation keeps working while
// TOKEN_SIGNING_KEY_PREVIOUS holds the old key, and is refused once that
// is removed; tokens minted after it work throughout.
func TestTokenKeyRotationUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	const oldKey = "e2e-old-token-signing-key-0123456789abc"
	const newKey = "e2e-new-token-signing-key-0123456789abc"
	run := func(vars map[string]string, f func(base string)) {
		v := map[string]string{"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token}
		for k, x := range vars {
			v[k] = x
		}
		// One server at a time, stopped before the next starts (not
		// start's cleanup at the end of the test).
		s, err := wranglerdev.Start(wranglerdev.Options{Sandbox: true, Vars: v})
		require.NoError(t, err)
		defer func() {
			s.Stop()
			if t.Failed() {
				t.Logf("wrangler output:\n%s", s.Logs())
			}
		}()
		f(s.URL)
	}
	// Since issue 30 a booking grant carries the quoted offer (signed with
	// the key in use).
	var offer string
	mint := func(base, ref string) string {
		offer = quotedOffer(t, base, "rayo", "rayo-48")
		// Raw: /tokens is no operation of the client.
		m := call(t, base, http.MethodPost, "../tokens", url.Values{
			"operations": {"new-shipment,get-shipment-tracking"}, "shipping_client_ref": {ref}, "offer": {offer}}, bearer()...)
		require.Equal(t, 200, m.Code, m.Raw)
		return str(m.Data, "token")
	}
	track := func(base, ref string, scoped string) *result {
		return do(t, edge(t, base, edgeclient.WithToken(scoped)), edgeclient.GetShipmentTrackingParams{ClientRef: ref})
	}
	var before, after string
	// Before: the old key; a checkout books with its token.
	run(map[string]string{"TOKEN_SIGNING_KEY": oldKey}, func(base string) {
		before = mint(base, "ROT-1")
		v := shipment("ROT-1", "rayo")
		v.Set("service_code", "rayo-48")
		v.Set("offer", offer)
		r := book(t, edge(t, base, edgeclient.WithToken(before)), v)
		require.Equal(t, 200, r.Code, r.Raw)
	})
	// During: the new key mints, the old one still verifies.
	run(map[string]string{"TOKEN_SIGNING_KEY": newKey, "TOKEN_SIGNING_KEY_PREVIOUS": oldKey}, func(base string) {
		r := track(base, "ROT-1", before)
		assert.NotEqual(t, 401, r.Code, "a token minted before the rotation: %s", r.Raw)
		assert.NotEqual(t, 403, r.Code, r.Raw)
		after = mint(base, "ROT-1")
		r = track(base, "ROT-1", after)
		assert.NotEqual(t, 401, r.Code, r.Raw)
	})
	// After: the previous key removed; what it signed is refused.
	run(map[string]string{"TOKEN_SIGNING_KEY": newKey}, func(base string) {
		r := track(base, "ROT-1", before)
		assert.Equal(t, 401, r.Code, r.Raw)
		r = track(base, "ROT-1", after)
		assert.NotEqual(t, 401, r.Code, r.Raw)
	})
}
