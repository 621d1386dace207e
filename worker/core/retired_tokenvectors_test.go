package core_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/testvectors"
	"github.com/parcelgate/parcelgate/worker/core"
)

// worker/edge's tokenvectors_test.go, retired with it (issue 21): the
// token vectors (testdata/tokens.json, the strings Go's tokens.Mint and
// JavaScript's mintToken both make) at the core's Prepare. Each is
// accepted as a scoped token with its grant (get-shipments, which no
// token grants, is a 403 that lists the token's operations, not a 401);
// every tampered spelling is a 401, and so is every signed token whose
// grant today's rules refuse; none is forwarded.
func TestTokenVectorsAtTheEdge(t *testing.T) {
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
	require.NoError(t, json.Unmarshal(testvectors.Read(t, "tokens.json"), &f))
	require.NotEmpty(t, f.Mint)
	require.NotEmpty(t, f.Tampered)
	require.NotEmpty(t, f.Outgrown)
	e := ledgerEdge(core.EnvTokenSigningKey, f.Key)
	for _, v := range f.Mint {
		a, _ := scopedCall(t, e, "GET", "get-shipments", "", "", "Bearer "+v.Token, time.UnixMilli(v.NowMs))
		require.Equal(t, 403, a.Status, "%s: %s", v.Name, a.Raw)
		assert.Contains(t, a.message(), "(it grants "+strings.Join(v.Operations, ", ")+")", v.Name)
	}
	for _, v := range f.Tampered {
		// errorClass and source are what the JavaScript Client reads
		// before it refreshes a token and retries.
		a, _ := scopedCall(t, e, "GET", "get-shipments", "", "", "Bearer "+v.Token, time.UnixMilli(v.NowMs))
		assert.Equal(t, 401, a.Status, "%s: %s", v.Name, a.Raw)
		assert.Equal(t, "unauthorized", a.Env.Data["errorClass"], v.Name)
		assert.Equal(t, "edge", a.Env.Data["source"], v.Name)
	}
	// Signed with the key, but a booking unbound or living longer than 2
	// hours (minted before the rules): 401, saying to get a new token.
	for _, v := range f.Outgrown {
		a, _ := scopedCall(t, e, "POST", "new-shipment", "", shipmentForm, "Bearer "+v.Token, time.UnixMilli(v.NowMs))
		assert.Equal(t, 401, a.Status, "%s: %s", v.Name, a.Raw)
		assert.Contains(t, a.message(), "no longer accepted", v.Name)
	}
}
