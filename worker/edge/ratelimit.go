package edge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/parcelgate/parcelgate/internal/ratekey"
)

// Rate limits, with Cloudflare's rate-limiting bindings ([[ratelimits]] in
// wrangler.toml, approximate and per location):
//
//   - RATE_LIMIT_PUBLIC, keyed by the client's address (CF-Connecting-IP):
//     public operations, POST /tokens without the master token,
//     /demo/token. An IPv4 client counts by its address, an IPv6 client by
//     its /64 (internal/ratekey: one subscriber can use every address of
//     its /64);
//   - RATE_LIMIT_ANONYMOUS: the same requests when they carry no client
//     address (no CF-Connecting-IP, as from another Worker or a test
//     client): they all share one key, so they get a limit of their own
//     that a burst of them cannot take from addressed clients. Without
//     that binding they share one key of RATE_LIMIT_PUBLIC;
//   - RATE_LIMIT_TOKENS, keyed by the scoped token: requests made with one.
//
// Requests with the master token (the shop's server) are not limited. A
// refused request gets 429 with the envelope and Retry-After. Without a
// binding there is no limit, and /healthz says so; a binding that fails
// lets the request through (availability first) and the log line says so.

// Names of the rate-limiting bindings.
const (
	RateLimitPublic    = "RATE_LIMIT_PUBLIC"
	RateLimitAnonymous = "RATE_LIMIT_ANONYMOUS"
	RateLimitTokens    = "RATE_LIMIT_TOKENS"
)

// AnonymousKey is the one key of every request without a client address.
const AnonymousKey = "anonymous"

// RateLimitRetryAfter is the Retry-After of a 429, in seconds: the period
// of the bindings in wrangler.toml.
const RateLimitRetryAfter = 60

// Limiter applies the rate-limiting bindings.
type Limiter interface {
	// Allow reports whether one more request with key may go on; the
	// error is ErrNoLimiter when the binding is not configured.
	Allow(ctx context.Context, binding, key string) (bool, error)
	// Bound reports whether the binding is configured.
	Bound(binding string) bool
}

// ErrNoLimiter is a Limiter's answer for a binding that is not configured.
var ErrNoLimiter = errors.New("rate-limiting binding not configured")

// clientIP is the address the limits key public requests by.
func clientIP(r *http.Request) string {
	if ip := r.Header.Get("Cf-Connecting-Ip"); ip != "" {
		return ip
	}
	return r.RemoteAddr
}

// limited applies binding to key; when the limit is reached it answers
// 429 and returns true.
func (x *exchange) limited(binding, key string) bool {
	l := x.h.d.Limiter
	if l == nil {
		return false
	}
	ok, err := l.Allow(x.r.Context(), binding, key)
	if err != nil {
		if !errors.Is(err, ErrNoLimiter) {
			x.note = "rate limiter failed: " + clip(err.Error(), 100)
		}
		return false
	}
	if ok {
		return false
	}
	x.w.Header().Set("Retry-After", strconv.Itoa(RateLimitRetryAfter))
	x.fail(&edgeError{status: http.StatusTooManyRequests, code: CodeRateLimited, class: "rate_limited",
		message: "too many requests; retry after " + strconv.Itoa(RateLimitRetryAfter) + " seconds", retryable: 1})
	return true
}

// limitedByIP applies the public limit to the client's address (its /64
// for IPv6), or the anonymous one to a request without an address.
func (x *exchange) limitedByIP() bool {
	if k := ratekey.Key(clientIP(x.r)); k != "" {
		return x.limited(RateLimitPublic, k)
	}
	if l := x.h.d.Limiter; l != nil && l.Bound(RateLimitAnonymous) {
		return x.limited(RateLimitAnonymous, AnonymousKey)
	}
	return x.limited(RateLimitPublic, AnonymousKey)
}

// limitedByToken applies the token limit to a scoped token (by its hash:
// the key is never the token itself).
func (x *exchange) limitedByToken(token string) bool {
	sum := sha256.Sum256([]byte(token))
	return x.limited(RateLimitTokens, "token:"+hex.EncodeToString(sum[:16]))
}

// retryBudget bounds the retries of reads to a share of the requests, so
// that a failing upstream is not sent three times the traffic: every
// forwarded read deposits RetryShare of a retry, every retry withdraws
// one, up to RetryBurst saved.
type retryBudget struct {
	mu     sync.Mutex
	tokens float64
}

// RetryShare and RetryBurst shape the retry budget: retries are at most
// about a tenth of the reads, and a fresh instance may retry ten times.
const (
	RetryShare = 0.1
	RetryBurst = 10
)

func newRetryBudget() *retryBudget { return &retryBudget{tokens: RetryBurst} }

func (b *retryBudget) deposit() {
	b.mu.Lock()
	b.tokens += RetryShare
	if b.tokens > RetryBurst {
		b.tokens = RetryBurst
	}
	b.mu.Unlock()
}

func (b *retryBudget) withdraw() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
