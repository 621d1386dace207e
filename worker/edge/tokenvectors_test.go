package edge

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTokenVectorsAtTheEdge sends every token of testdata/tokens.json (the
// strings Go's tokens.Mint and JavaScript's mintToken both make) to the
// handler: each is accepted as a scoped token with its grant (a request
// for get-shipments, which no token grants, is a 403 that lists the
// token's operations, not a 401), and every tampered spelling is a 401
// that never reaches the upstream, and so is every signed token whose grant
// today's rules refuse.
func TestTokenVectorsAtTheEdge(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/tokens.json")
	require.NoError(t, err)
	var f struct {
		Key  string `json:"key"`
		Mint []struct {
			Name       string   `json:"name"`
			NowMs      int64    `json:"now_ms"`
			Token      string   `json:"token"`
			Operations []string `json:"operations"`
		} `json:"mint"`
		Tampered []struct {
			Name  string `json:"name"`
			Token string `json:"token"`
			NowMs int64  `json:"now_ms"`
		} `json:"tampered"`
		Outgrown []struct {
			Name  string `json:"name"`
			Token string `json:"token"`
			NowMs int64  `json:"now_ms"`
		} `json:"outgrown"`
	}
	require.NoError(t, json.Unmarshal(raw, &f))
	require.NotEmpty(t, f.Mint)
	require.NotEmpty(t, f.Tampered)

	up := newFakeUpstream(t, okReply(`{"status":"ok","data":[]}`))
	e := baseEnv(up.srv.URL + "/v1")
	e[EnvTokenSigningKey] = f.Key
	hs := newHarness(e, up.srv.Client())
	for _, v := range f.Mint {
		hs.now = time.UnixMilli(v.NowMs)
		r := hs.do(t, "GET", "/v1/get-shipments", "", "Authorization", "Bearer "+v.Token)
		require.Equal(t, 403, r.Code, "%s: %s", v.Name, r.Raw)
		assert.Contains(t, r.message(), "(it grants "+strings.Join(v.Operations, ", ")+")", v.Name)
	}
	for _, v := range f.Tampered {
		hs.now = time.UnixMilli(v.NowMs)
		r := hs.do(t, "GET", "/v1/get-shipments", "", "Authorization", "Bearer "+v.Token)
		// CR and LF reach the handler as they are (the harness sets the
		// header directly). errorClass and source are what the
		// JavaScript Client reads before it refreshes a token and retries.
		assert.Equal(t, 401, r.Code, "%s: %s", v.Name, r.Raw)
		assert.Equal(t, "unauthorized", r.Env.Data["errorClass"], v.Name)
		assert.Equal(t, "edge", r.Env.Data["source"], v.Name)
	}
	// Signed with the key, but a booking unbound or living longer than 2
	// hours (minted before the rules): 401, saying to get a new token.
	require.NotEmpty(t, f.Outgrown)
	for _, v := range f.Outgrown {
		hs.now = time.UnixMilli(v.NowMs)
		r := hs.do(t, "POST", "/v1/new-shipment", shipmentForm, "Authorization", "Bearer "+v.Token)
		assert.Equal(t, 401, r.Code, "%s: %s", v.Name, r.Raw)
		assert.Contains(t, r.message(), "no longer accepted", v.Name)
	}
	assert.Empty(t, up.requests(), "no token above reaches the upstream")
}
