package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// TOKEN_SIGNING_KEY_PREVIOUS follows TOKEN_SIGNING_KEY's rules, only
// beside it, and only verifies: the edge mints with the new key.
func TestSigningKeyPreviousConfig(t *testing.T) {
	const previous = "previous-signing-key-0123456789abcdef0123"
	load := func(kv ...string) (Config, []string) {
		e := hardenEnv()
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i]] = kv[i+1]
		}
		c, errs := LoadConfig(func(k string) string { return e[k] })
		var out []string
		for _, err := range errs {
			out = append(out, err.Error())
		}
		return c, out
	}
	c, errs := load(EnvTokenSigningKeyPrevious, previous)
	require.Empty(t, errs)
	assert.Equal(t, tokens.Keys{[]byte(hardenSigning), []byte(previous)}, c.SigningKeys)
	c, _ = load()
	assert.Equal(t, tokens.Keys{[]byte(hardenSigning)}, c.SigningKeys)

	for _, bad := range []struct{ value, want string }{
		{"short", "TOKEN_SIGNING_KEY_PREVIOUS: must be at least 32 bytes (e.g. openssl rand -hex 32)"},
		{hardenMaster, "TOKEN_SIGNING_KEY_PREVIOUS: must differ from PROXY_TOKEN, API_KEY and TOKEN_SIGNING_KEY"},
		{hardenSigning, "TOKEN_SIGNING_KEY_PREVIOUS: must differ from PROXY_TOKEN, API_KEY and TOKEN_SIGNING_KEY"},
	} {
		c, errs = load(EnvTokenSigningKeyPrevious, bad.value)
		assert.Contains(t, errs, bad.want)
		assert.Len(t, c.SigningKeys, 1, "a refused previous key verifies nothing")
	}
	_, errs = load(EnvTokenSigningKey, "", EnvTokenSigningKeyPrevious, previous)
	assert.Contains(t, errs, "TOKEN_SIGNING_KEY_PREVIOUS: is set without TOKEN_SIGNING_KEY")
}

// A token minted with the previous key is accepted while
// TOKEN_SIGNING_KEY_PREVIOUS holds it and refused once it is removed; the
// edge mints with TOKEN_SIGNING_KEY.
func TestScopedTokenAcrossARotation(t *testing.T) {
	const previous = "previous-signing-key-0123456789abcdef0123"
	now := time.Now()
	tok, _, err := tokens.Mint([]byte(previous), tokens.Grant{Operations: []string{"get-shipment"}, DlvrRef: "D1"}, time.Hour, now)
	require.NoError(t, err)
	edge := func(kv ...string) *Edge {
		e := hardenEnv()
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i]] = kv[i+1]
		}
		return Configure(func(k string) (string, bool) { v, ok := e[k]; return v, ok }, Bindings{})
	}
	op := catalog.Lookup("get-shipment")
	require.NotNil(t, op)
	during := edge(EnvTokenSigningKeyPrevious, previous)
	caller, claims, refusal := during.authorize(op, &Request{Authorization: "Bearer " + tok, Now: now})
	require.Nil(t, refusal)
	assert.Equal(t, CallerScoped, caller)
	assert.Equal(t, "D1", claims.DlvrRef)

	after := edge()
	_, _, refusal = after.authorize(op, &Request{Authorization: "Bearer " + tok, Now: now})
	require.NotNil(t, refusal)
	assert.Equal(t, 401, refusal.Status)
}
