package core

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/pricing"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/internal/validate"
	"github.com/parcelgate/parcelgate/worker/tokens"
	"github.com/parcelgate/parcelgate/worker/webhooks/wire"
)

// The worker's configuration: its environment read once per isolate
// (Configure), with every problem named so that the operator knows what
// to set. Ported from worker/edge's parser (retired in issue 21): the
// variables mean what they meant there.

// Names of the worker's environment variables and secrets.
const (
	EnvUpstreamBaseURL   = "UPSTREAM_BASE_URL"
	EnvAPIUser           = "API_USER"
	EnvAPIKey            = "API_KEY"
	EnvAllowedOrigins    = "ALLOWED_ORIGINS"
	EnvPublicOperations  = "PUBLIC_OPERATIONS"
	EnvProxyToken        = "PROXY_TOKEN"
	EnvUpstreamTimeoutMS = "UPSTREAM_TIMEOUT_MS"
	EnvMaxBodyBytes      = "MAX_BODY_BYTES"
	EnvRulesFeature      = "RULES_FEATURE"
	EnvCacheTTL          = "CACHE_TTL"
	EnvCacheMaxBytes     = "CACHE_MAX_BYTES"
	EnvFaultInjection    = "FAULT_INJECTION"
	EnvLogRequests       = "LOG_REQUESTS"
	EnvExactlyOnce       = "EXACTLY_ONCE"
	EnvTokenSigningKey   = "TOKEN_SIGNING_KEY"
	// EnvTokenSigningKeyPrevious is the key TOKEN_SIGNING_KEY replaced, kept
	// during a rotation so that the tokens it signed verify until they
	// expire; nothing is minted with it.
	EnvTokenSigningKeyPrevious = "TOKEN_SIGNING_KEY_PREVIOUS"
	EnvBookingGrace            = "BOOKING_GRACE_SECONDS"
	// EnvBookingsLegacyUntil: see Config.BookingsLegacyUntil.
	EnvBookingsLegacyUntil = "BOOKINGS_LEGACY_UNTIL"
	// Tracking webhooks (webhooks.go).
	EnvWebhookURL            = "WEBHOOK_URL"
	EnvWebhookSecret         = "WEBHOOK_SECRET"
	EnvWebhookSecretPrevious = "WEBHOOK_SECRET_PREVIOUS"
	EnvWebhookRunBudget      = "WEBHOOK_RUN_BUDGET"
	EnvWebhookCheckMinutes   = "WEBHOOK_CHECK_MINUTES"
	EnvWebhookRetryHours     = "WEBHOOK_RETRY_HOURS"
	EnvWebhookMaxAgeDays     = "WEBHOOK_MAX_AGE_DAYS"
)

// MinProxyTokenLen is the shortest accepted PROXY_TOKEN, in characters.
const MinProxyTokenLen = 32

// Defaults of the optional settings.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBodyBytes = 64 << 10
	// DefaultBookingGrace is how long after sending a booking whose answer
	// was lost a resend sends nothing (the upstream may still be
	// committing it); after it the edge looks the booking up.
	DefaultBookingGrace = 120 * time.Second
	// MaxUpstreamBody bounds what is read of an upstream response (a label
	// is a base64 PDF of a few hundred KB at most).
	MaxUpstreamBody = 8 << 20
	// SandboxUpstream is the UPSTREAM_BASE_URL that selects the embedded
	// sandbox.
	SandboxUpstream = "sandbox"
	// SandboxBaseURL is the base URL of requests to the sandbox worker
	// (the SANDBOX service binding); they never leave the account.
	SandboxBaseURL = "http://sandbox.internal/v1"
)

// Bounds of the in-isolate response cache (worker/src).
const (
	// DefaultCacheMaxBytes bounds the bodies held by the in-isolate cache.
	DefaultCacheMaxBytes = 4 << 20
	// CacheMaxEntries bounds its entries whatever their size.
	CacheMaxEntries = 1024
)

// DefaultCacheTTL is how long each cacheable operation's ok answers are
// reused (catalog.Policies' CacheTTLSeconds). CACHE_TTL overrides them per
// operation; 0 turns one off.
var DefaultCacheTTL = func() map[string]time.Duration {
	m := map[string]time.Duration{}
	for i := 0; i < len(catalog.Policies); i++ {
		if p := &catalog.Policies[i]; p.CacheTTLSeconds > 0 {
			m[p.Name] = time.Duration(p.CacheTTLSeconds) * time.Second
		}
	}
	return m
}()

// DefaultPublicOperations are the operations callable without the proxy
// token (catalog.Policies' Public): catalog, prices, estimates, drop points
// and cut-off hours.
var DefaultPublicOperations = func() []string {
	var out []string
	for i := 0; i < len(catalog.Policies); i++ {
		if p := &catalog.Policies[i]; p.Public {
			out = append(out, p.Name)
		}
	}
	return out
}()

// Config is the worker's configuration, read from its environment once per
// Go instance: an isolate's environment is fixed.
type Config struct {
	// UpstreamBase is the upstream base URL ending in /v1, without a
	// trailing slash; empty means the embedded sandbox.
	UpstreamBase   string
	APIUser        string
	APIKey         string
	AllowedOrigins []string // exact origins; "*" allows any
	PublicOps      []string
	ProxyToken     string
	// SigningKey signs and verifies scoped tokens (TOKEN_SIGNING_KEY);
	// empty: scoped tokens are refused with a configuration error.
	SigningKey []byte
	// SigningKeys verify scoped tokens: SigningKey, then
	// TOKEN_SIGNING_KEY_PREVIOUS when set (verification only).
	SigningKeys  tokens.Keys
	Timeout      time.Duration
	MaxBodyBytes int
	Rules        bool
	// CacheTTL is the cache lifetime per cacheable operation; an
	// operation absent or at 0 is never cached.
	CacheTTL      map[string]time.Duration
	CacheMaxBytes int
	// ExactlyOnce keeps booking records (the BOOKINGS Durable Object) so
	// that a resent booking never books twice; false (explicit) forwards
	// bookings as they come, for a shop whose own backend dedupes.
	ExactlyOnce bool
	// OfferTTL is a signed offer's lifetime (OFFER_TTL_SECONDS, 60 to
	// 86400, default 1800: offers.DefaultTTL).
	OfferTTL time.Duration
	// AllowUnbound (ALLOW_UNBOUND_BOOKING_GRANTS, default false) lets
	// POST /tokens mint new-shipment grants without an offer and the edge
	// forward bookings made with them: a page holding such a token books
	// any service, destination and parcels on the merchant's account. For
	// a shop that books from its server only.
	AllowUnbound bool
	// BookingGrace: see DefaultBookingGrace (BOOKING_GRACE_SECONDS).
	BookingGrace time.Duration
	// BookingsLegacyUntil is the end (Unix milliseconds, exclusive) of
	// BOOKINGS_LEGACY_UNTIL's UTC day; 0 when unset. Until then a Bookings
	// object that has no record of a booking key also asks the object of
	// the earlier layout (one object per booking key, the Go worker's and
	// the first JavaScript edge's) and takes its record over, so a resend
	// of a booking made before an upgrade is still recognized: records
	// live BookingRecordTTL, so the day to set is the deploy's plus 30.
	BookingsLegacyUntil int64
	// LogRequests says which requests get a log line: "errors" (an
	// answer of 400 or more, a retried upstream call or a note: the
	// default), "all" or "off".
	LogRequests string
	// Sandbox: UPSTREAM_BASE_URL is "sandbox", the sandbox worker behind
	// the SANDBOX service binding (UpstreamBase is then empty).
	Sandbox bool
	// upstreamSet: UPSTREAM_BASE_URL is set, valid or not.
	upstreamSet bool
	// Faults enables /__faults/* (tests of trap isolation); refused with
	// a remote upstream.
	Faults bool
	// Webhooks configures the tracking watcher; nil when WEBHOOK_URL is
	// unset (no watching, no cost).
	Webhooks *WebhookConfig
	// RatesDeadline (RATES_DEADLINE_MS): how long a rates request waits
	// for the upstream before a stored or fallback answer (rates.go); 0:
	// no deadline, failures only.
	RatesDeadline time.Duration
	// RatesStale (RATES_STALE_HOURS): the oldest stored rates answer used.
	RatesStale time.Duration
	// RatesFallback (RATES_FALLBACK) and RatesCurrency: the operator's
	// flat prices per destination and service kind.
	RatesFallback []fallbackRate
	RatesCurrency string
	// Pricing is the shop's shipping prices (PRICING_RULES, pricing.go);
	// nil: the carrier's prices as they come.
	Pricing *pricing.Table
	// ShowCarrierPrice: priced services keep the carrier's price as
	// carrier_price (PRICING_SHOW_CARRIER_PRICE).
	ShowCarrierPrice bool
}

// ConfigError is a configuration problem: the variable and what is wrong.
type ConfigError struct {
	Var     string
	Problem string
}

// Error is the variable's name, then the problem: the line the log and
// /healthz show, which never holds the variable's value.
func (e ConfigError) Error() string { return e.Var + ": " + e.Problem }

// LoadConfig reads the configuration through getenv. It returns every
// problem found; secrets that are missing are problems only where they
// are needed (PROXY_TOKEN is checked when a protected operation is
// called), so that the checks name exactly what is missing.
func LoadConfig(getenv func(string) string) (Config, []ConfigError) {
	return loadConfig(getenv, nil)
}

// loadConfig is LoadConfig with an optional lookup that tells a variable
// set to "" from an unset one (PUBLIC_OPERATIONS= means none); without
// it an empty value counts as unset, and "none" says "nothing".
func loadConfig(getenv func(string) string, lookup func(string) (string, bool)) (Config, []ConfigError) {
	if lookup == nil {
		lookup = func(k string) (string, bool) {
			v := getenv(k)
			return v, unitab.TrimSpace(v) != ""
		}
	}
	var c Config
	var errs []ConfigError
	bad := func(v, p string) { errs = append(errs, ConfigError{v, p}) }

	// The embedded sandbox only when asked for by name: an unset value on a
	// deployed worker must never take bookings into a fake upstream.
	switch base := unitab.TrimSpace(getenv(EnvUpstreamBaseURL)); {
	case base == "":
		bad(EnvUpstreamBaseURL, "is not set: the service's https URL ending in /v1, or sandbox for the sandbox worker (make dev sets sandbox)")
	case unitab.EqualFold(base, SandboxUpstream):
		c.Sandbox = true
	default:
		c.upstreamSet = true
		if p := checkBaseURL(base); p != "" {
			bad(EnvUpstreamBaseURL, p)
		} else {
			c.UpstreamBase = strings.TrimSuffix(base, "/")
		}
	}
	c.APIUser = getenv(EnvAPIUser)
	c.APIKey = getenv(EnvAPIKey)
	if c.APIUser == "" {
		bad(EnvAPIUser, "secret is not set")
	} else if unitab.ContainsAnyASCII(c.APIUser, ":\r\n") {
		bad(EnvAPIUser, "must not contain ':' or line breaks")
	}
	if c.APIKey == "" {
		bad(EnvAPIKey, "secret is not set")
	}
	c.ProxyToken = getenv(EnvProxyToken)
	if c.ProxyToken != "" && utf8.RuneCountInString(c.ProxyToken) < MinProxyTokenLen {
		bad(EnvProxyToken, "must be at least "+decimal.Itoa(MinProxyTokenLen)+" characters (a random secret, e.g. openssl rand -hex 32)")
	}
	if k := getenv(EnvTokenSigningKey); k != "" {
		switch {
		case len(k) < tokens.MinKeyBytes:
			bad(EnvTokenSigningKey, "must be at least 32 bytes (e.g. openssl rand -hex 32)")
		case k == c.ProxyToken || k == c.APIKey:
			bad(EnvTokenSigningKey, "must differ from PROXY_TOKEN and API_KEY")
		default:
			c.SigningKey = []byte(k)
			c.SigningKeys = tokens.Keys{c.SigningKey}
		}
	}
	// The previous key, by the same rules; it only verifies, and only
	// beside a current key (alone it would make tokens nobody can mint
	// valid, and hide that the current key is missing).
	if k := getenv(EnvTokenSigningKeyPrevious); k != "" {
		switch {
		case getenv(EnvTokenSigningKey) == "":
			bad(EnvTokenSigningKeyPrevious, "is set without TOKEN_SIGNING_KEY")
		case len(k) < tokens.MinKeyBytes:
			bad(EnvTokenSigningKeyPrevious, "must be at least 32 bytes (e.g. openssl rand -hex 32)")
		case k == c.ProxyToken || k == c.APIKey || k == getenv(EnvTokenSigningKey):
			bad(EnvTokenSigningKeyPrevious, "must differ from PROXY_TOKEN, API_KEY and TOKEN_SIGNING_KEY")
		case c.SigningKey != nil:
			c.SigningKeys = append(c.SigningKeys, []byte(k))
		}
	}
	for _, o := range splitList(getenv(EnvAllowedOrigins)) {
		n, p := normalizeOrigin(o)
		if p != "" {
			bad(EnvAllowedOrigins, "origin "+quote(o)+" "+p)
			continue
		}
		c.AllowedOrigins = append(c.AllowedOrigins, n)
	}
	// Unset: the default public operations. Set: exactly those listed,
	// so that an empty list (or "none") means none; fail closed.
	if v, ok := lookup(EnvPublicOperations); ok {
		c.PublicOps = []string{}
		for _, name := range splitList(v) {
			switch {
			case unitab.EqualFold(name, "none"):
			case catalog.Lookup(name) == nil:
				bad(EnvPublicOperations, "unknown operation "+quote(name))
			case neverPublic(name):
				bad(EnvPublicOperations, name+" can never be public (it books or lists shipments billed to the merchant)")
			default:
				c.PublicOps = append(c.PublicOps, name)
			}
		}
	} else {
		c.PublicOps = DefaultPublicOperations
	}
	// whole reads a bounded whole number, def when unset.
	whole := func(name string, def, min, max int, unit string) int {
		v := unitab.TrimSpace(getenv(name))
		if v == "" {
			return def
		}
		n, valid := decimal.Atoi(v)
		if !valid || n < min || n > max {
			bad(name, "must be a whole number"+unit+" from "+decimal.Itoa(min)+" to "+decimal.Itoa(max))
			return def
		}
		return n
	}
	c.Timeout = time.Duration(whole(EnvUpstreamTimeoutMS, int(DefaultTimeout/time.Millisecond), 1, 300000, " of milliseconds")) * time.Millisecond
	c.MaxBodyBytes = whole(EnvMaxBodyBytes, DefaultMaxBodyBytes, 256, 1<<20, " of bytes")
	// boolean reads a true/false setting, def when unset (false, and a
	// problem, when it is neither).
	boolean := func(name string, def bool) bool {
		switch unitab.Lower(unitab.TrimSpace(getenv(name))) {
		case "":
			return def
		case "1", "true", "yes", "on":
			return true
		case "0", "false", "no", "off":
			return false
		}
		bad(name, "must be true or false")
		return false
	}
	c.Rules = boolean(EnvRulesFeature, false)
	c.CacheTTL, c.CacheMaxBytes = DefaultCacheTTL, DefaultCacheMaxBytes
	if v := unitab.TrimSpace(getenv(EnvCacheTTL)); v != "" {
		ttl, p := parseCacheTTL(v)
		if p != "" {
			bad(EnvCacheTTL, p)
		} else {
			c.CacheTTL = ttl
		}
	}
	// 0: no in-instance tier (flights still coalesce).
	c.CacheMaxBytes = whole(EnvCacheMaxBytes, c.CacheMaxBytes, 0, 64<<20, " of bytes")
	c.ExactlyOnce = boolean(EnvExactlyOnce, true)
	c.OfferTTL = time.Duration(whole(EnvOfferTTL, 1800, 60, 86400, " of seconds")) * time.Second
	c.AllowUnbound = boolean(EnvAllowUnbound, false)
	c.BookingGrace = time.Duration(whole(EnvBookingGrace, int(DefaultBookingGrace/time.Second), 1, 86400, " of seconds")) * time.Second
	if c.ExactlyOnce && c.BookingGrace <= c.Timeout {
		// A grace that ends before the answer is even lost would let a
		// resend book while the first booking is still being committed.
		bad(EnvBookingGrace, "must be longer than UPSTREAM_TIMEOUT_MS ("+decimal.FormatInt(c.Timeout.Milliseconds())+
			" ms), and than the upstream's worst time to commit a booking: a resend within it never books (now "+
			decimal.FormatInt(int64(c.BookingGrace/time.Second))+" s)")
	}
	if v := unitab.TrimSpace(getenv(EnvBookingsLegacyUntil)); v != "" {
		if ms, ok := endOfDayMillis(v); ok {
			c.BookingsLegacyUntil = ms
		} else {
			bad(EnvBookingsLegacyUntil, "must be a date, YYYY-MM-DD (UTC): the deploy's day plus 30 (worker/DEPLOY.md, Deploy with wrangler, step 9)")
		}
	}
	switch v := unitab.Lower(unitab.TrimSpace(getenv(EnvLogRequests))); v {
	case "", "errors":
		c.LogRequests = "errors"
	case "all", "off":
		c.LogRequests = v
	default:
		bad(EnvLogRequests, "must be errors, all or off")
	}
	if boolean(EnvFaultInjection, false) {
		if c.UpstreamBase != "" && !strings.HasPrefix(c.UpstreamBase, "http://") {
			bad(EnvFaultInjection, "is for tests: allowed only with the sandbox or a loopback upstream")
		} else {
			c.Faults = true
		}
	}
	loadRates(getenv, whole, bad, &c)
	c.Webhooks = loadWebhooks(getenv, whole, bad, &c)
	c.Pricing, c.ShowCarrierPrice = loadPricing(getenv, boolean, bad) // pricing.go
	return c, errs
}

// loadWebhooks reads the WEBHOOK_* settings; nil when WEBHOOK_URL is
// unset. The secret is checked here, so a weak one stops the worker with
// a configuration error instead of signing anything.
func loadWebhooks(getenv func(string) string, whole func(string, int, int, int, string) int, bad func(string, string), c *Config) *WebhookConfig {
	u := unitab.TrimSpace(getenv(EnvWebhookURL))
	if u == "" {
		return nil
	}
	w := &WebhookConfig{URL: u}
	if p := checkWebhookURL(u); p != "" {
		bad(EnvWebhookURL, p)
	}
	secretOK := func(name string, required bool) []byte {
		v := getenv(name)
		switch {
		case v == "" && required:
			bad(name, "secret is not set (WEBHOOK_URL is): a random secret of at least 32 bytes, e.g. openssl rand -hex 32")
		case v == "":
		case len(v) < wire.MinKeyBytes: // wire.CheckKey, without its error type in the module
			bad(name, "must be at least 32 bytes (e.g. openssl rand -hex 32)")
		case v == c.APIKey || v == c.ProxyToken || v == string(c.SigningKey) || v == getenv(EnvTokenSigningKeyPrevious):
			// The shop's receiver holds this secret: it must not open
			// anything else.
			bad(name, "must differ from API_KEY, PROXY_TOKEN and TOKEN_SIGNING_KEY")
		default:
			return []byte(v)
		}
		return nil
	}
	if s := secretOK(EnvWebhookSecret, true); s != nil {
		w.Secrets = append(w.Secrets, s)
	}
	if s := secretOK(EnvWebhookSecretPrevious, false); s != nil && len(w.Secrets) > 0 {
		w.Secrets = append(w.Secrets, s)
	}
	w.Budget = whole(EnvWebhookRunBudget, DefaultBudget, 3, 10000, " of subrequests")
	w.CheckEvery = time.Duration(whole(EnvWebhookCheckMinutes, int(DefaultCheckEvery/time.Minute), 1, 1440, " of minutes")) * time.Minute
	w.RetryFor = time.Duration(whole(EnvWebhookRetryHours, int(DefaultRetryFor/time.Hour), 1, 168, " of hours")) * time.Hour
	w.MaxAge = time.Duration(whole(EnvWebhookMaxAgeDays, int(DefaultMaxAge/(24*time.Hour)), 1, 365, " of days")) * 24 * time.Hour
	return w
}

// checkWebhookURL returns "" for a usable WEBHOOK_URL: https (plain http
// only for loopback hosts), no credentials and no fragment.
func checkWebhookURL(s string) string {
	u, p := parseServiceURL(s, "https://shop.example/parcelgate/webhooks")
	switch {
	case p != "":
		return p
	case u.User:
		return "must not carry credentials: the Parcelgate-Signature header authenticates each delivery"
	case u.Fragment != "":
		return "must not have a fragment"
	}
	return ""
}

// parseCacheTTL reads "op=seconds,..." over the defaults; "*" names every
// cacheable operation. It returns a problem text when the value is wrong.
func parseCacheTTL(v string) (map[string]time.Duration, string) {
	out := make(map[string]time.Duration, len(DefaultCacheTTL))
	for k, d := range DefaultCacheTTL {
		out[k] = d
	}
	for _, item := range splitList(v) {
		name, secs, ok := substr.Cut(item, "=")
		name = unitab.TrimSpace(name)
		n, valid := decimal.Atoi(unitab.TrimSpace(secs))
		if !ok || !valid || n < 0 || n > 7*24*3600 {
			return nil, "entry " + quote(item) + " must be <operation>=<seconds from 0 to 604800>"
		}
		d := time.Duration(n) * time.Second
		switch _, cacheable := DefaultCacheTTL[name]; {
		case name == "*":
			for k := range out {
				out[k] = d
			}
		case cacheable:
			out[name] = d
		default:
			return nil, quote(name) + " is not a cacheable operation (get-client-carriers, get-client-services, get-service-info, get-drop-points or *)"
		}
	}
	return out, ""
}

// neverPublic are the operations PUBLIC_OPERATIONS may not name: bookings
// and the listing of every shipment (catalog.Policies' Publishable).
func neverPublic(op string) bool {
	p := catalog.PolicyOf(op)
	return p == nil || !p.Publishable
}

// normalizeOrigin returns an ALLOWED_ORIGINS entry as browsers send the
// Origin header (lowercase scheme and host, no default port, no trailing
// slash), or a problem: a path, query, fragment or credentials.
func normalizeOrigin(o string) (string, string) {
	if o == "*" {
		return o, ""
	}
	u, ok := parseURL(o)
	if !ok || u.Host == "" || u.Opaque != "" {
		return "", "must be * or an origin such as https://shop.example"
	}
	scheme := unitab.Lower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return "", "must be * or start with https:// or http://"
	}
	if u.User || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return "", "must be an origin only (scheme://host[:port]), without a path, query or credentials"
	}
	host := unitab.Lower(u.Host)
	if scheme == "https" {
		host = strings.TrimSuffix(host, ":443")
	} else {
		host = strings.TrimSuffix(host, ":80")
	}
	if strings.HasSuffix(host, ":") {
		return "", "has an empty port"
	}
	return scheme + "://" + host, ""
}

func splitList(s string) []string {
	var out []string
	for _, p := range substr.Split(s, ",") {
		if p = unitab.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// checkBaseURL returns "" for a usable upstream base URL: https (plain
// http only for loopback hosts), no credentials, query or fragment, and a
// path ending in /v1.
func checkBaseURL(s string) string {
	u, p := parseServiceURL(s, "https://api.example.com/v1")
	switch {
	case p != "":
		return p
	case u.User:
		return "must not carry credentials (use the API_USER and API_KEY secrets)"
	case u.RawQuery != "" || u.Fragment != "":
		return "must not have a query or fragment"
	case !strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/v1"):
		return "must end with /v1"
	}
	return ""
}

// parseServiceURL parses a URL the worker calls with secrets or signed
// data: absolute, and https unless the host is a loopback address (local
// tests). The problem text names example when it is not a URL.
func parseServiceURL(s, example string) (*serviceURL, string) {
	u, ok := parseURL(s)
	if !ok || u.Host == "" {
		return nil, "must be an absolute URL such as " + example
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			return nil, "must use https (plain http is allowed only for loopback addresses)"
		}
	default:
		return nil, "must use https"
	}
	return &u, ""
}

func isLoopback(host string) bool {
	if host == "localhost" || host == "::1" {
		return true
	}
	if !strings.HasPrefix(host, "127.") {
		return false
	}
	parts := substr.Split(host, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		n, valid := decimal.Atoi(p)
		if !valid || n < 0 || n > 255 || len(p) > 3 {
			return false
		}
	}
	return true
}

// Public reports whether the operation is callable without the token.
func (c *Config) Public(op string) bool {
	for _, p := range c.PublicOps {
		if p == op {
			return true
		}
	}
	return false
}

// OriginAllowed reports whether a browser origin may call the worker.
func (c *Config) OriginAllowed(origin string) bool {
	for _, o := range c.AllowedOrigins {
		if o == "*" || o == origin {
			return true
		}
	}
	return false
}

// Defaults and bounds of the tracking watcher (worker/webhooks/README.md; the run itself is worker/src/scheduled.mjs).
const (
	DefaultBudget     = 40
	DefaultCheckEvery = 10 * time.Minute
	DefaultRetryFor   = 24 * time.Hour
	DefaultMaxAge     = 30 * 24 * time.Hour
	DeliveryTimeout   = 10 * time.Second
	FirstRetry        = time.Minute
	MaxRetry          = time.Hour
	Lease             = 10 * time.Minute
	Concurrency       = 6
	MaxQueue          = 32
	CommitEvery       = 8
	WatchRunTimeout   = 4 * time.Minute
	WebhookUserAgent  = "parcelgate-webhooks/1"
)

// WebhookConfig is the watcher's configuration (the WEBHOOK_* variables).
type WebhookConfig struct {
	URL string
	// Secrets sign the deliveries: WEBHOOK_SECRET, then
	// WEBHOOK_SECRET_PREVIOUS during a rotation.
	Secrets    [][]byte
	Budget     int
	CheckEvery time.Duration
	RetryFor   time.Duration
	MaxAge     time.Duration
}

// endOfDayMillis is the end of the UTC day s (YYYY-MM-DD), in Unix
// milliseconds: the start of the next day.
func endOfDayMillis(s string) (int64, bool) {
	y, m, d, ok := validate.ParseDay(s)
	if !ok || y < 1970 {
		return 0, false
	}
	return (daysFromCivil(int64(y), m, d) + 1) * 86400 * 1000, true
}

// daysFromCivil is the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (Howard Hinnant's days_from_civil; civil
// in clock.go is its inverse).
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
