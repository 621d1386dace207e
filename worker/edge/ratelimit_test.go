package edge

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countLimiter allows limit requests per (binding, key), like one period
// of a rate-limiting binding; bindings not in bound are not configured.
type countLimiter struct {
	mu    sync.Mutex
	limit int
	bound map[string]bool
	seen  map[string]int
}

func (l *countLimiter) Allow(_ context.Context, binding, key string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.bound[binding] {
		return false, ErrNoLimiter
	}
	l.seen[binding+" "+key]++
	return l.seen[binding+" "+key] <= l.limit, nil
}

func (l *countLimiter) Bound(binding string) bool { return l.bound[binding] }

func (l *countLimiter) keys(binding string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for k := range l.seen {
		if strings.HasPrefix(k, binding+" ") {
			out = append(out, strings.TrimPrefix(k, binding+" "))
		}
	}
	return out
}

func TestRateLimits(t *testing.T) {
	hs, _ := scopedHarness(t)
	lim := &countLimiter{limit: 2, bound: map[string]bool{RateLimitPublic: true, RateLimitTokens: true}, seen: map[string]int{}}
	hs.h.d.Limiter = lim

	// Public operations: by address.
	for i := 0; i < 2; i++ {
		r := hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "203.0.113.7")
		assert.Equal(t, 200, r.Code, r.Raw)
	}
	r := hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "203.0.113.7")
	assert.Equal(t, 429, r.Code)
	assert.Equal(t, CodeRateLimited, r.errorCode())
	assert.Equal(t, "60", r.Header.Get("Retry-After"))
	assert.Equal(t, true, r.Env.Data["retryable"])
	r = hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "198.51.100.1")
	assert.Equal(t, 200, r.Code, "another address has its own count")

	// The master token is never limited, public operation or not.
	for i := 0; i < 5; i++ {
		r = hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "203.0.113.7", "Authorization", "Bearer "+testToken)
		assert.Equal(t, 200, r.Code)
		r = hs.do(t, "GET", "/v1/get-shipment?dlvr_ref=D1", "", "Authorization", "Bearer "+testToken)
		assert.Equal(t, 200, r.Code)
	}

	// Scoped tokens: by token, never the token itself in the key.
	tok := hs.mint(t, "operations=get-shipment&dlvr_ref=D1").Env.Data["token"].(string)
	for i := 0; i < 2; i++ {
		r = hs.do(t, "GET", "/v1/get-shipment?dlvr_ref=D1", "", "Authorization", "Bearer "+tok, "Cf-Connecting-Ip", "192.0.2.1")
		assert.Equal(t, 200, r.Code, r.Raw)
	}
	r = hs.do(t, "GET", "/v1/get-shipment?dlvr_ref=D1", "", "Authorization", "Bearer "+tok, "Cf-Connecting-Ip", "192.0.2.2")
	assert.Equal(t, 429, r.Code, "the token's count, whatever the address")
	for _, k := range lim.keys(RateLimitTokens) {
		assert.NotContains(t, k, tok)
	}

	// Guessing the master token at /tokens is limited by address.
	for i := 0; i < 2; i++ {
		r = hs.do(t, "POST", TokensPath, "operations=get-shipment&dlvr_ref=D1", "Authorization", "Bearer wrong", "Cf-Connecting-Ip", "192.0.2.9")
		assert.Equal(t, 401, r.Code)
	}
	r = hs.do(t, "POST", TokensPath, "operations=get-shipment&dlvr_ref=D1", "Authorization", "Bearer wrong", "Cf-Connecting-Ip", "192.0.2.9")
	assert.Equal(t, 429, r.Code)

	r = hs.do(t, "GET", "/healthz", "")
	assert.Equal(t, map[string]any{RateLimitPublic: "on", RateLimitAnonymous: "off (no binding: no limit)", RateLimitTokens: "on"}, r.Env.Data["rate_limits"])
}

// An IPv6 client counts by its /64: cycling through the addresses of its
// block gives it no more requests. Another /64 has its own count.
func TestRateLimitsKeyIPv6ByPrefix(t *testing.T) {
	hs, _ := scopedHarness(t)
	lim := &countLimiter{limit: 2, bound: map[string]bool{RateLimitPublic: true}, seen: map[string]int{}}
	hs.h.d.Limiter = lim
	for i, ip := range []string{"2001:db8:1:2::1", "2001:db8:1:2:ffff::9"} {
		r := hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", ip)
		assert.Equal(t, 200, r.Code, "%d: %s", i, r.Raw)
	}
	r := hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "2001:DB8:1:2:0:0:0:77")
	assert.Equal(t, 429, r.Code, "a third address of the same /64")
	r = hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "2001:db8:1:3::1")
	assert.Equal(t, 200, r.Code, "the next /64 is another client")
	r = hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "::ffff:192.0.2.5")
	assert.Equal(t, 200, r.Code)
	assert.ElementsMatch(t, []string{"ip6:2001:db8:1:2::/64", "ip6:2001:db8:1:3::/64", "ip4:192.0.2.5"}, lim.keys(RateLimitPublic))
}

// Requests without a client address share one key under a binding and a
// cap of their own (RATE_LIMIT_ANONYMOUS), which they cannot take from
// addressed clients; without that binding they share one key of the
// public limit.
func TestRateLimitsWithoutAnAddress(t *testing.T) {
	hs, _ := scopedHarness(t)
	lim := &countLimiter{limit: 2, bound: map[string]bool{RateLimitPublic: true, RateLimitAnonymous: true}, seen: map[string]int{}}
	hs.h.d.Limiter = lim
	// "unknown" is what a proxy writes when it has no address: not one.
	for i := 0; i < 2; i++ {
		assert.Equal(t, 200, hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "unknown").Code)
	}
	r := hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "garbage, 1.2.3.4")
	assert.Equal(t, 429, r.Code, "every request without an address counts as one client")
	assert.Equal(t, []string{AnonymousKey}, lim.keys(RateLimitAnonymous))
	assert.Equal(t, 200, hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "203.0.113.7").Code,
		"addressed clients keep their own budget")
	assert.Equal(t, []string{"ip4:203.0.113.7"}, lim.keys(RateLimitPublic))
	r = hs.do(t, "GET", "/healthz", "")
	assert.Equal(t, "on", r.Env.Data["rate_limits"].(map[string]any)[RateLimitAnonymous])

	// Without RATE_LIMIT_ANONYMOUS: one key of the public limit.
	lim = &countLimiter{limit: 1, bound: map[string]bool{RateLimitPublic: true}, seen: map[string]int{}}
	hs.h.d.Limiter = lim
	assert.Equal(t, 200, hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "unknown").Code)
	assert.Equal(t, 429, hs.do(t, "GET", "/v1/get-client-carriers", "", "Cf-Connecting-Ip", "nope").Code)
	assert.Equal(t, []string{AnonymousKey}, lim.keys(RateLimitPublic))
}

func TestRateLimitsOffWithoutBindings(t *testing.T) {
	hs, _ := scopedHarness(t)
	hs.h.d.Limiter = &countLimiter{limit: 0, bound: map[string]bool{}, seen: map[string]int{}}
	for i := 0; i < 5; i++ {
		assert.Equal(t, 200, hs.do(t, "GET", "/v1/get-client-carriers", "").Code)
	}
	r := hs.do(t, "GET", "/healthz", "")
	limits := r.Env.Data["rate_limits"].(map[string]any)
	assert.Contains(t, limits[RateLimitPublic], "off")
	assert.Contains(t, limits[RateLimitTokens], "off")
}

func TestReadRetriesHaveABudget(t *testing.T) {
	up := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(503) })
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	const reads = 40
	for i := 0; i < reads; i++ {
		r := hs.do(t, "GET", "/v1/get-client-carriers", "")
		require.Equal(t, 502, r.Code)
	}
	calls := len(up.requests())
	// Without a budget: 3 calls a read (120). With it: the reads, the
	// initial burst and a tenth of the reads.
	assert.LessOrEqual(t, calls, reads+RetryBurst+reads/10+1)
	assert.Greater(t, calls, reads, "some reads were retried")
}
