// Package core is what the edge worker decides, free of net/http and of
// any platform: the configuration, the decoding, validation,
// normalization and encoding of a request (internal/form, validate), who
// may call what (scoped tokens, worker/tokens), the cache key, the
// booking fingerprint and what a booking record becomes, the client's
// answer from the upstream's (the key-leak scan, internal/leak; the
// envelopes, internal/envelope, in the client's language), /healthz,
// POST /tokens and the tracking watcher's changes and signatures
// (worker/webhooks).
//
// TinyGo builds it into build/worker/core.wasm (worker/core/wasm), which
// the worker's JavaScript (worker/src) calls once per step: the
// JavaScript does every I/O (fetch, caches, Durable Objects, rate-limit
// bindings) and asks the core what to do with what came back. Calls
// (calls.go) take and give JSON with the names of worker/src/core.d.mts,
// the contract.
//
// Nothing here recovers from a panic (TinyGo has none on wasm): a panic
// traps, and the JavaScript wrapper answers that call with a 500 and
// replaces the instance. State between calls is the configuration only.
package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/booking"
	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/hexlite"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
	"github.com/parcelgate/parcelgate/internal/leak"
	"github.com/parcelgate/parcelgate/internal/ratekey"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// Bindings are what the platform has besides variables.
type Bindings struct {
	Bookings  bool // BOOKINGS Durable Object
	Watchlist bool // WATCHLIST Durable Object
	Sandbox   bool // SANDBOX service binding (the sandbox worker)
	// AnonymousRateLimit: RATE_LIMIT_ANONYMOUS is bound (requests without
	// a client address are limited apart).
	AnonymousRateLimit bool
	// Check: the configuration is being checked before it runs (make
	// check-config, make dev's check), not served: the secrets' problems
	// /healthz reports (secretProblems) are configuration errors too, so
	// the checks refuse exactly what the edge will.
	Check bool
}

// Edge is a configured core: one per isolate (and per instance after a
// trap).
type Edge struct {
	cfg      Config
	errs     []ConfigError
	bindings Bindings
	leaks    leak.Filter
	master   [32]byte // SHA-256 of PROXY_TOKEN
	demoKey  []byte
	signer   *offers.Signer // offers and points; nil without TOKEN_SIGNING_KEY
	demoKeys tokens.Keys    // {demoKey}, built once
}

// Configure reads the environment through lookup (a variable set to ""
// is told from an unset one: PUBLIC_OPERATIONS= means none).
func Configure(lookup func(string) (string, bool), b Bindings) *Edge {
	getenv := func(k string) string { v, _ := lookup(k); return v }
	e := &Edge{bindings: b}
	e.cfg, e.errs = loadConfig(getenv, lookup)
	if e.cfg.Sandbox && !b.Sandbox {
		e.errs = append(e.errs, ConfigError{"SANDBOX", "service binding is not configured: UPSTREAM_BASE_URL=sandbox needs the sandbox worker bound as SANDBOX (see worker/README.md)"})
	}
	if e.cfg.Webhooks != nil && !b.Watchlist {
		e.errs = append(e.errs, ConfigError{"WATCHLIST", "Durable Object binding is not configured: WEBHOOK_URL needs it to keep the watched shipments (see worker/README.md, Tracking webhooks)"})
	}
	if b.Check {
		e.errs = append(e.errs, secretProblems(&e.cfg)...)
	}
	e.leaks = leak.New(e.cfg.APIUser, e.cfg.APIKey)
	e.master = hmacsha256.Sum([]byte(e.cfg.ProxyToken))
	if len(e.cfg.SigningKey) > 0 {
		k := hmacsha256.MAC(e.cfg.SigningKey, []byte("parcelgate sandbox demo tokens v2"))
		e.demoKey = k[:]
		e.demoKeys = tokens.Keys{e.demoKey}
	}
	if len(e.cfg.SigningKey) > 0 {
		e.signer, _ = offers.NewSigner(e.cfg.SigningKey)
	}
	return e
}

// Config returns the configuration read.
func (e *Edge) Config() *Config { return &e.cfg }

// Problems returns every configuration problem found.
func (e *Edge) Problems() []ConfigError { return e.errs }

// Demo reports whether /demo/token exists: the upstream is the sandbox.
func (e *Edge) Demo() bool { return e.cfg.Sandbox && e.bindings.Sandbox }

// ledger reports whether bookings go through the BOOKINGS records.
func (e *Edge) ledger() bool { return e.cfg.ExactlyOnce && e.bindings.Bookings }

// UpstreamBase is the base URL operations are POSTed under.
func (e *Edge) UpstreamBase() string {
	if e.cfg.UpstreamBase == "" {
		return SandboxBaseURL
	}
	return e.cfg.UpstreamBase
}

// UpstreamAuthorization is the upstream's Basic auth header value.
func (e *Edge) UpstreamAuthorization() string {
	return "Basic " + base64lite.Encode([]byte(e.cfg.APIUser+":"+e.cfg.APIKey), 0)
}

// WatchlistName is the Durable Object name of the watchlist of this (API
// user, upstream): a new upstream or user starts an empty list.
func (e *Edge) WatchlistName() string {
	return "watch\n" + e.cfg.APIUser + "\n" + e.UpstreamBase()
}

// IsMaster reports whether an Authorization header carries PROXY_TOKEN.
// Both sides are hashed first so that the comparison takes the same time
// whatever the lengths, then compared in constant time.
func (e *Edge) IsMaster(authorization string) bool {
	if e.cfg.ProxyToken == "" {
		return false
	}
	t, ok := bearerToken(authorization)
	if !ok {
		return false
	}
	got := hmacsha256.Sum([]byte(t))
	return hmacsha256.Equal(got[:], e.master[:])
}

// bearerToken extracts the token of an "Authorization: Bearer" header.
func bearerToken(header string) (string, bool) {
	const prefix = "bearer "
	if len(header) < len(prefix) || !unitab.EqualFold(header[:len(prefix)], prefix) {
		return "", false
	}
	return unitab.TrimSpace(header[len(prefix):]), true
}

// RateLimit is a limit to apply: the binding and the key.
type RateLimit struct {
	Binding string
	Key     string
}

// Names of the rate-limiting bindings.
const (
	RateLimitPublic    = "RATE_LIMIT_PUBLIC"
	RateLimitTokens    = "RATE_LIMIT_TOKENS"
	RateLimitAnonymous = "RATE_LIMIT_ANONYMOUS"
)

// AnonymousKey is the one key of every request without a client address.
const AnonymousKey = "anonymous"

// byAddress is the public limit on the client's address (its /64 for
// IPv6), or the anonymous one for a request without an address.
func (e *Edge) byAddress(ip string) *RateLimit {
	if k := ratekey.Key(ip); k != "" {
		return &RateLimit{RateLimitPublic, k}
	}
	if e.bindings.AnonymousRateLimit {
		return &RateLimit{RateLimitAnonymous, AnonymousKey}
	}
	return &RateLimit{RateLimitPublic, AnonymousKey}
}

func byToken(token string) *RateLimit {
	sum := hmacsha256.Sum([]byte(token))
	return &RateLimit{RateLimitTokens, "token:" + hexlite.EncodeToString(sum[:16])}
}

// CacheKey is the hex SHA-256 of what identifies an answer: the
// operation, the upstream identity and the canonical body; never a
// client header, so one shop's answer is the same for every shopper and
// never another merchant's.
func (e *Edge) CacheKey(op string, body []byte) string {
	var b []byte
	for _, s := range [...]string{"parcelgate-cache-v1", op, e.UpstreamBase(), e.cfg.APIUser} {
		b = append(append(b, s...), 0)
	}
	sum := hmacsha256.Sum(append(b, body...))
	return hexlite.EncodeToString(sum[:])
}

// BookingKey names the record of a booking: the API user, the upstream,
// the operation and the client reference.
func (e *Edge) BookingKey(op, ref string) string {
	return e.cfg.APIUser + "\n" + e.UpstreamBase() + "\n" + op + "\n" + ref
}

// Fingerprint identifies a booking's data (internal/booking).
func Fingerprint(body []byte) string { return booking.Fingerprint(body) }

// Durations the JavaScript needs, from the configuration.
func (e *Edge) timeout() time.Duration {
	if e.cfg.Timeout == 0 {
		return DefaultTimeout
	}
	return e.cfg.Timeout
}

// readBackoff are the waits before a read's retries.
var readBackoff = [...]time.Duration{100 * time.Millisecond, 400 * time.Millisecond}

// Retry budget of reads: a share of reads may be retried, so a failing
// upstream does not get three times the traffic.
const (
	RetryShare = 0.1
	RetryBurst = 10
)

// BookingRecordTTL is how long a booking's record is kept.
const BookingRecordTTL = 30 * 24 * time.Hour

func (e *Edge) bookingWait() time.Duration { return e.timeout() + 2*time.Second }
func (e *Edge) bookingHold() time.Duration {
	return time.Duration(len(readBackoff)+1)*e.timeout() + 5*time.Second
}

// RequestDeadline bounds a whole request: every attempt, the backoff
// between them, and a margin.
func (e *Edge) RequestDeadline() time.Duration {
	return time.Duration(len(readBackoff)+1)*e.timeout() + 2*time.Second + 10*time.Second
}

// operationPublic reports whether op is callable without a token.
func (e *Edge) operationPublic(op string) bool { return e.cfg.Public(op) }

// watched reports whether an ok answer of op goes on the watchlist.
func (e *Edge) watched(op string) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.Watched && e.cfg.Webhooks != nil && e.bindings.Watchlist
}
