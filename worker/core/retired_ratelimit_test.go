package core_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
)

// worker/edge's ratelimit_test.go, retired with it (issue 21): which
// limit (binding and key) the core names for each call. Counting, the
// bindings and what a failing binding does are worker/src's (its app
// and platform tests; TestRateLimitsUnderWorkerd under workerd).

func limitOf(t *testing.T, e *core.Edge, op, query, auth, ip string) *core.RateLimit {
	t.Helper()
	p := e.Prepare(op, &core.Request{Method: "GET", Query: query, HasQuery: query != "", Authorization: auth, ClientIP: ip, RequestID: "rid", Now: day}, nil)
	require.NotEqual(t, core.KindRespond, p.Kind, "%s: %s", op, func() string {
		if p.Response != nil {
			return string(p.Response.Body)
		}
		return ""
	}())
	return p.RateLimit
}

func TestRateLimits(t *testing.T) {
	e := ledgerEdge()
	// Public operations: by address.
	assert.Equal(t, &core.RateLimit{Binding: core.RateLimitPublic, Key: "ip4:203.0.113.7"}, limitOf(t, e, "get-client-carriers", "", "", "203.0.113.7"))
	assert.NotEqual(t, limitOf(t, e, "get-client-carriers", "", "", "203.0.113.7"), limitOf(t, e, "get-client-carriers", "", "", "198.51.100.1"),
		"another address has its own count")
	// The master token is never limited, public operation or not.
	assert.Nil(t, limitOf(t, e, "get-client-carriers", "", bearerMaster, "203.0.113.7"))
	assert.Nil(t, limitOf(t, e, "get-shipment", "dlvr_ref=D1", bearerMaster, "203.0.113.7"))
	// Scoped tokens: by token, whatever the address, never the token
	// itself in the key.
	tok := mintAt(e, "operations=get-shipment&dlvr_ref=D1", bearerMaster, day).Env.Data["token"].(string)
	a := limitOf(t, e, "get-shipment", "dlvr_ref=D1", "Bearer "+tok, "192.0.2.1")
	b := limitOf(t, e, "get-shipment", "dlvr_ref=D1", "Bearer "+tok, "192.0.2.2")
	assert.Equal(t, core.RateLimitTokens, a.Binding)
	assert.Equal(t, a, b, "the token's count, whatever the address")
	assert.NotContains(t, a.Key, tok)
	// Guessing the master token at /tokens is limited by address.
	ep := e.Tokens(&core.Request{Method: "POST", Body: []byte("operations=get-shipment&dlvr_ref=D1"), ContentType: "application/x-www-form-urlencoded",
		Authorization: "Bearer wrong", ClientIP: "192.0.2.9", RequestID: "rid", Now: day})
	assert.Equal(t, 401, ep.Response.Status)
	assert.Equal(t, &core.RateLimit{Binding: core.RateLimitPublic, Key: "ip4:192.0.2.9"}, ep.RateLimit)
	// The refusal when a limit is reached.
	r := toAnswer(t, e.Failure(core.FailureInput{Kind: "rate_limited", RequestID: "rid"}), nil)
	assert.Equal(t, 429, r.Status)
	assert.Equal(t, core.CodeRateLimited, r.code())
	assert.Equal(t, "60", r.Header["Retry-After"])
	assert.Equal(t, true, r.Env.Data["retryable"])
}

// An IPv6 client counts by its /64: cycling through the addresses of its
// block gives it no more requests. Another /64 has its own count.
func TestRateLimitsKeyIPv6ByPrefix(t *testing.T) {
	e := ledgerEdge()
	for ip, key := range map[string]string{
		"2001:db8:1:2::1": "ip6:2001:db8:1:2::/64", "2001:db8:1:2:ffff::9": "ip6:2001:db8:1:2::/64", "2001:DB8:1:2:0:0:0:77": "ip6:2001:db8:1:2::/64",
		"2001:db8:1:3::1": "ip6:2001:db8:1:3::/64", "::ffff:192.0.2.5": "ip4:192.0.2.5",
	} {
		assert.Equal(t, &core.RateLimit{Binding: core.RateLimitPublic, Key: key}, limitOf(t, e, "get-client-carriers", "", "", ip), ip)
	}
}

// Requests without a client address share one key under a binding and a
// cap of their own (RATE_LIMIT_ANONYMOUS), which they cannot take from
// addressed clients; without that binding they share one key of the
// public limit.
func TestRateLimitsWithoutAnAddress(t *testing.T) {
	vars := env()
	anon := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{AnonymousRateLimit: true})
	// "unknown" is what a proxy writes when it has no address: not one.
	for _, ip := range []string{"", "unknown", "garbage, 1.2.3.4"} {
		assert.Equal(t, &core.RateLimit{Binding: core.RateLimitAnonymous, Key: core.AnonymousKey}, limitOf(t, anon, "get-client-carriers", "", "", ip), ip)
		assert.Equal(t, &core.RateLimit{Binding: core.RateLimitPublic, Key: core.AnonymousKey}, limitOf(t, edgeOf(), "get-client-carriers", "", "", ip), ip)
	}
	assert.Equal(t, &core.RateLimit{Binding: core.RateLimitPublic, Key: "ip4:203.0.113.7"}, limitOf(t, anon, "get-client-carriers", "", "", "203.0.113.7"),
		"addressed clients keep their own budget")
}

// /healthz says which limits are on (worker/src tells the core which
// bindings exist).
func TestRateLimitsInHealthz(t *testing.T) {
	e := edgeOf()
	on := toAnswer(t, e.Healthz(&core.Health{Method: "GET", RequestID: "rid", RatePublic: true, RateTokens: true}), nil)
	assert.Equal(t, map[string]any{core.RateLimitPublic: "on", core.RateLimitAnonymous: "off (no binding: no limit)", core.RateLimitTokens: "on"},
		on.Env.Data["rate_limits"])
	off := toAnswer(t, e.Healthz(&core.Health{Method: "GET", RequestID: "rid"}), nil)
	limits := off.Env.Data["rate_limits"].(map[string]any)
	assert.Contains(t, limits[core.RateLimitPublic], "off")
	assert.Contains(t, limits[core.RateLimitTokens], "off")
}
