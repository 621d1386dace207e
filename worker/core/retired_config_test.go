package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/testvectors"
)

// worker/edge's tests of the configuration parser and of the envelope
// sniffing (hardening_test.go, edge_test.go), retired with it (issue 21),
// on the core's copies.

const (
	hardenMaster  = "master-token-0123456789abcdef0123456789"
	hardenSigning = "signing-key-0123456789abcdef0123456789ab"
)

func hardenEnv() map[string]string {
	return map[string]string{
		EnvUpstreamBaseURL: "https://api.example.com/v1", EnvAPIUser: "shop-user", EnvAPIKey: "api-key-0123456789",
		EnvProxyToken: hardenMaster, EnvTokenSigningKey: hardenSigning, EnvAllowedOrigins: "https://shop.example",
	}
}

func TestConfigHardening(t *testing.T) {
	load := func(kv ...string) (Config, []ConfigError) {
		e := hardenEnv()
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i]] = kv[i+1]
		}
		return LoadConfig(func(k string) string { return e[k] })
	}
	names := func(errs []ConfigError) string {
		var s []string
		for _, e := range errs {
			s = append(s, e.Error())
		}
		return strings.Join(s, "; ")
	}
	_, errs := load(EnvProxyToken, strings.Repeat("x", 31))
	assert.Contains(t, names(errs), "PROXY_TOKEN: must be at least 32 characters")
	_, errs = load(EnvProxyToken, strings.Repeat("é", 32))
	assert.Empty(t, errs, "characters, not bytes")

	for _, op := range []string{"new-shipment", "new-collection", "get-shipments"} {
		_, errs = load(EnvPublicOperations, "get-drop-points,"+op)
		assert.Contains(t, names(errs), "PUBLIC_OPERATIONS: "+op+" can never be public")
	}
	c, errs := load(EnvPublicOperations, "none")
	assert.Empty(t, errs)
	assert.False(t, c.Public("get-drop-points"))
	// Set but empty, where the platform can tell: none.
	e := hardenEnv()
	e[EnvPublicOperations] = ""
	c, errs = loadConfig(func(k string) string { return e[k] }, func(k string) (string, bool) { v, ok := e[k]; return v, ok })
	assert.Empty(t, errs)
	assert.Empty(t, c.PublicOps)
	c, _ = load()
	assert.True(t, c.Public("get-drop-points"), "unset: the defaults")

	c, errs = load(EnvAllowedOrigins, "HTTPS://Shop.Example/, http://localhost:8787, https://a.example:443, *")
	assert.Empty(t, errs)
	assert.Equal(t, []string{"https://shop.example", "http://localhost:8787", "https://a.example", "*"}, c.AllowedOrigins)
	for _, bad := range []string{"https://shop.example/path", "https://user@shop.example", "https://shop.example?x", "ftp://shop.example", "shop.example", "https://shop.example:"} {
		_, errs = load(EnvAllowedOrigins, bad)
		assert.Contains(t, names(errs), "ALLOWED_ORIGINS", bad)
	}

	_, errs = load(EnvTokenSigningKey, "short")
	assert.Contains(t, names(errs), "TOKEN_SIGNING_KEY: must be at least 32 bytes")
	_, errs = load(EnvTokenSigningKey, hardenMaster)
	assert.Contains(t, names(errs), "TOKEN_SIGNING_KEY: must differ")
}

// Loopback http is a development upstream; nothing else is, and a host
// that only starts like a loopback address is not one.
func TestCheckBaseURL(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080/v1", "http://localhost/v1/", "http://[::1]:9/api/v1"} {
		assert.Equal(t, "", checkBaseURL(u), u)
	}
	for _, u := range []string{"http://127.0.0.1.evil.com/v1", "http://10.0.0.1/v1", "ftp://127.0.0.1/v1", "https:///v1"} {
		assert.NotEqual(t, "", checkBaseURL(u), u)
	}
}

func TestSniffEnvelopeMatchesErrorVectors(t *testing.T) {
	b := testvectors.Read(t, "responses/errors.json")
	var vs []struct {
		Name        string         `json:"name"`
		Body        string         `json:"body"`
		ExpectError map[string]any `json:"expect_error"`
	}
	require.NoError(t, json.Unmarshal(b, &vs))
	require.NotEmpty(t, vs)
	for _, v := range vs {
		status, _, reason := sniffEnvelope([]byte(v.Body))
		typ, _ := v.ExpectError["type"].(string)
		switch typ {
		case "unexpected":
			assert.NotEmpty(t, reason, v.Name)
		case "api":
			assert.Equal(t, "err", status, v.Name)
		case "":
			assert.Equal(t, "ok", status, v.Name)
		}
	}
}
