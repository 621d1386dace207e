package core

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

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
	assert.True(t, c.OriginAllowed("https://anything.example"), "* allows any origin")
	c, _ = load()
	assert.True(t, c.OriginAllowed("https://shop.example"))
	assert.False(t, c.OriginAllowed("https://evil.example"))
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

func TestCacheConfig(t *testing.T) {
	for v, want := range map[string]string{
		"get-shipment=60":          "not a cacheable operation",
		"get-drop-points":          "must be <operation>=<seconds",
		"get-drop-points=-1":       "must be <operation>=<seconds",
		"get-drop-points=99999999": "must be <operation>=<seconds",
	} {
		_, errs := LoadConfig(func(k string) string {
			return map[string]string{EnvCacheTTL: v, EnvAPIUser: "u", EnvAPIKey: "k", EnvUpstreamBaseURL: SandboxUpstream}[k]
		})
		require.Len(t, errs, 1, v)
		assert.Equal(t, EnvCacheTTL, errs[0].Var)
		assert.Contains(t, errs[0].Problem, want, v)
	}
	c, errs := LoadConfig(func(k string) string {
		return map[string]string{EnvCacheTTL: "*=60, get-drop-points=5", EnvAPIUser: "u", EnvAPIKey: "k", EnvUpstreamBaseURL: SandboxUpstream}[k]
	})
	require.Empty(t, errs)
	assert.Equal(t, 60*time.Second, c.CacheTTL["get-client-services"])
	assert.Equal(t, 5*time.Second, c.CacheTTL["get-drop-points"])
	assert.Zero(t, c.CacheTTL["new-shipment"])
}

// The cache's decisions (worker/edge's cache_test.go; the caches
// themselves are worker/src's, tested there and under workerd): one key
// for a request however it is spelled, another for other parameters or
// another merchant; only ok answers of public reads are kept.
func TestCacheKeyAndWhatIsCached(t *testing.T) {
	e := Configure(func(k string) (string, bool) { v, ok := hardenEnv()[k]; return v, ok }, Bindings{})
	prep := func(op, q, auth string) *Prepared {
		return e.Prepare(op, &Request{Method: "GET", Query: q, HasQuery: q != "", Authorization: auth, RequestID: "r", Now: time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)}, nil)
	}
	a := prep("get-drop-points", "country_code=ES&zip_code=28014", "")
	b := prep("get-drop-points", "zip_code=+28014+&country_code=es", "Bearer x")
	c := prep("get-drop-points", "country_code=ES&zip_code=28015", "")
	require.Equal(t, KindForward, a.Kind)
	assert.NotEmpty(t, a.Forward.CacheKey)
	assert.Equal(t, 15*time.Minute, a.Forward.CacheTTL, "drop points live 15 minutes by default")
	assert.Equal(t, a.Forward.CacheKey, b.Forward.CacheKey, "normalized parameters, other headers: one key")
	assert.NotEqual(t, a.Forward.CacheKey, c.Forward.CacheKey)
	assert.Equal(t, time.Hour, prep("get-client-carriers", "", "").Forward.CacheTTL, "carriers live an hour")

	other := hardenEnv()
	other[EnvAPIUser] = "another-merchant"
	e2 := Configure(func(k string) (string, bool) { v, ok := other[k]; return v, ok }, Bindings{})
	assert.NotEqual(t, e.CacheKey("get-client-carriers", nil), e2.CacheKey("get-client-carriers", nil), "the upstream identity is part of the key")

	// Personal data and rates are never cached.
	assert.Empty(t, prep("get-shipment", "dlvr_ref=DLV1", "Bearer "+hardenMaster).Forward.CacheKey)
	assert.Empty(t, prep("get-shipments-rates", "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001"+
		"&parcels[0][parcel_weight]=1&parcels[0][parcel_width]=1&parcels[0][parcel_height]=1&parcels[0][parcel_length]=1&parcels[0][parcel_volume]=1", "").Forward.CacheKey)
	// A refusal is not kept; an ok answer is.
	ctx := a.Forward.Context
	assert.False(t, e.Answer(AnswerInput{Context: ctx, Upstream: &Upstream{Status: 200, Body: []byte(`{"status":"err","data":{"errorCode":108,"errorMessage":"x"}}`)}, RequestID: "r", Now: time.Now()}).Cacheable)
	assert.True(t, e.Answer(AnswerInput{Context: ctx, Upstream: &Upstream{Status: 200, Body: []byte(`{"status":"ok","data":{}}`)}, RequestID: "r", Now: time.Now()}).Cacheable)

	// CACHE_TTL turns one operation off.
	off := hardenEnv()
	off[EnvCacheTTL] = "get-client-carriers=0"
	e3 := Configure(func(k string) (string, bool) { v, ok := off[k]; return v, ok }, Bindings{})
	p := e3.Prepare("get-client-carriers", &Request{Method: "GET", RequestID: "r", Now: time.Now()}, nil)
	assert.Empty(t, p.Forward.CacheKey)
}

// The sandbox is chosen by name, never by an unset variable.
func TestSandboxOnlyWhenAskedFor(t *testing.T) {
	for v, want := range map[string]string{"": "is not set", "  ": "is not set", "sandbox": "", "SANDBOX": "", "sand box": "must be an absolute URL"} {
		c, errs := LoadConfig(func(k string) string {
			return map[string]string{EnvUpstreamBaseURL: v, EnvAPIUser: "u", EnvAPIKey: "k"}[k]
		})
		if want == "" {
			assert.Empty(t, errs, v)
			assert.True(t, c.Sandbox, v)
			continue
		}
		require.Len(t, errs, 1, v)
		assert.Equal(t, EnvUpstreamBaseURL, errs[0].Var)
		assert.Contains(t, errs[0].Problem, want, v)
		assert.False(t, c.Sandbox)
	}
	// Unset on a deployed worker: bookings get the configuration error, not the sandbox.
	unset := hardenEnv()
	delete(unset, EnvUpstreamBaseURL)
	e := Configure(func(k string) (string, bool) { v, ok := unset[k]; return v, ok }, Bindings{Bookings: true, Sandbox: true})
	p := e.Prepare("new-shipment", &Request{Method: "POST", Body: []byte("shipping_client_ref=A"), ContentType: "application/x-www-form-urlencoded",
		Authorization: "Bearer " + hardenMaster, RequestID: "r", Now: time.Now()}, nil)
	require.Equal(t, KindRespond, p.Kind)
	assert.Equal(t, 500, p.Response.Status)
	assert.Contains(t, string(p.Response.Body), "UPSTREAM_BASE_URL: is not set")
	assert.Equal(t, 404, e.DemoToken(&Request{Method: "GET", RequestID: "r", Now: time.Now()}).Response.Status, "no demo tokens either")
}

// BOOKING_GRACE_SECONDS must outlast the upstream timeout: a grace over
// before the answer is even lost would let a resend book again.
func TestBookingGraceConfig(t *testing.T) {
	load := func(kv ...string) (Config, []ConfigError) {
		e := hardenEnv()
		e[EnvExactlyOnce] = "true"
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i]] = kv[i+1]
		}
		return LoadConfig(func(k string) string { return e[k] })
	}
	c, errs := load()
	assert.Empty(t, errs)
	assert.Equal(t, DefaultBookingGrace, c.BookingGrace)
	assert.Greater(t, DefaultBookingGrace, 10*DefaultTimeout, "well above the default timeout")
	c, errs = load(EnvBookingGrace, "5", EnvUpstreamTimeoutMS, "3000")
	assert.Empty(t, errs)
	assert.Equal(t, 5*time.Second, c.BookingGrace)
	for _, kv := range [][]string{
		{EnvBookingGrace, "3", EnvUpstreamTimeoutMS, "3000"},
		{EnvUpstreamTimeoutMS, "120000"}, // the default grace is not longer either
	} {
		_, errs = load(kv...)
		require.Len(t, errs, 1, "%v", kv)
		assert.Equal(t, EnvBookingGrace, errs[0].Var)
		assert.Contains(t, errs[0].Problem, "must be longer than UPSTREAM_TIMEOUT_MS")
	}
	_, errs = load(EnvBookingGrace, "0")
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Problem, "whole number of seconds from 1 to 86400")
	// Without the ledger the grace is unused and not checked.
	_, errs = load(EnvBookingGrace, "3", EnvUpstreamTimeoutMS, "3000", EnvExactlyOnce, "false")
	assert.Empty(t, errs)

	// The edge refuses bookings (and everything else) until it is fixed.
	bad := hardenEnv()
	bad[EnvExactlyOnce], bad[EnvBookingGrace], bad[EnvUpstreamTimeoutMS] = "true", "2", "2000"
	e := Configure(func(k string) (string, bool) { v, ok := bad[k]; return v, ok }, Bindings{Bookings: true})
	p := e.Prepare("new-shipment", &Request{Method: "POST", Body: []byte("shipping_client_ref=A"), ContentType: "application/x-www-form-urlencoded",
		Authorization: "Bearer " + hardenMaster, RequestID: "r", Now: time.Now()}, nil)
	require.Equal(t, KindRespond, p.Kind)
	assert.Equal(t, 500, p.Response.Status)
	assert.Contains(t, string(p.Response.Body), "BOOKING_GRACE_SECONDS: must be longer than UPSTREAM_TIMEOUT_MS (2000 ms)")
}

func TestWebhookConfig(t *testing.T) {
	const secret = "webhook-secret-0123456789abcdef0123456789"
	for _, c := range []struct {
		name string
		env  map[string]string
		bad  string // the variable named in the error, "" for none
	}{
		{"off", map[string]string{}, ""},
		{"on", map[string]string{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: secret}, ""},
		{"loopback http", map[string]string{EnvWebhookURL: "http://127.0.0.1:8080/h", EnvWebhookSecret: secret}, ""},
		{"plain http", map[string]string{EnvWebhookURL: "http://shop.example/h", EnvWebhookSecret: secret}, EnvWebhookURL},
		{"credentials", map[string]string{EnvWebhookURL: "https://u:p@shop.example/h", EnvWebhookSecret: secret}, EnvWebhookURL},
		{"not a URL", map[string]string{EnvWebhookURL: "shop.example/h", EnvWebhookSecret: secret}, EnvWebhookURL},
		{"no secret", map[string]string{EnvWebhookURL: "https://shop.example/h"}, EnvWebhookSecret},
		{"short secret", map[string]string{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: "short"}, EnvWebhookSecret},
		{"secret is the API key", map[string]string{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: "api-key-0123456789-padding-to-32-bytes"}, ""},
		{"secret is the proxy token", map[string]string{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: hardenMaster}, EnvWebhookSecret},
		{"short previous", map[string]string{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: secret, EnvWebhookSecretPrevious: "x"}, EnvWebhookSecretPrevious},
		{"budget", map[string]string{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: secret, EnvWebhookRunBudget: "2"}, EnvWebhookRunBudget},
		{"check", map[string]string{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: secret, EnvWebhookCheckMinutes: "0"}, EnvWebhookCheckMinutes},
	} {
		e := hardenEnv()
		e[EnvUpstreamBaseURL] = SandboxUpstream
		for k, v := range c.env {
			e[k] = v
		}
		cfg, errs := LoadConfig(func(k string) string { return e[k] })
		if c.bad == "" {
			assert.Empty(t, errs, c.name)
			assert.Equal(t, c.env[EnvWebhookURL] != "", cfg.Webhooks != nil, c.name)
			continue
		}
		require.NotEmpty(t, errs, c.name)
		assert.Equal(t, c.bad, errs[0].Var, "%s: %v", c.name, errs)
	}
	cfg, errs := LoadConfig(func(k string) string {
		return map[string]string{EnvUpstreamBaseURL: "sandbox", EnvAPIUser: "u", EnvAPIKey: "k", EnvWebhookURL: "https://shop.example/h",
			EnvWebhookSecret: secret, EnvWebhookSecretPrevious: strings.Repeat("p", 32)}[k]
	})
	require.Empty(t, errs)
	assert.Len(t, cfg.Webhooks.Secrets, 2, "both secrets sign during a rotation")
	assert.Equal(t, DefaultBudget, cfg.Webhooks.Budget)
}

// WEBHOOK_URL without the WATCHLIST binding fails closed, naming it.
func TestWebhooksNeedTheWatchlist(t *testing.T) {
	on := hardenEnv()
	on[EnvWebhookURL], on[EnvWebhookSecret] = "https://shop.example/h", "webhook-secret-0123456789abcdef0123456789"
	e := Configure(func(k string) (string, bool) { v, ok := on[k]; return v, ok }, Bindings{Bookings: true})
	p := e.Prepare("get-client-carriers", &Request{Method: "GET", Authorization: "Bearer " + hardenMaster, RequestID: "r", Now: time.Now()}, nil)
	require.Equal(t, KindRespond, p.Kind)
	assert.Equal(t, 500, p.Response.Status)
	assert.Contains(t, string(p.Response.Body), "WATCHLIST")
}
