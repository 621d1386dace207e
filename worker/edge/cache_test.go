package edge

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
)

const dropPointsQuery = "/v1/get-drop-points?country_code=ES&zip_code=28014"

func cachingEnv(upstream string) env {
	e := baseEnv(upstream)
	delete(e, EnvCacheTTL)
	return e
}

func TestCacheHitsMissesAndKey(t *testing.T) {
	up := newFakeUpstream(t, okReply(carriersBody))
	hs := newHarness(cachingEnv(up.srv.URL+"/v1"), up.srv.Client())

	r := hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, 200, r.Code)
	assert.Equal(t, "MISS", r.Header.Get("X-Cache"))
	r = hs.do(t, "POST", "/v1/get-client-carriers", "", "Origin", "https://shop.example", "Authorization", "Bearer x")
	assert.Equal(t, 200, r.Code)
	assert.Equal(t, "HIT", r.Header.Get("X-Cache"), "GET and POST, other headers: one key")
	assert.Equal(t, carriersBody, r.Raw)
	assert.Contains(t, r.Header.Get("Access-Control-Expose-Headers"), "X-Cache")
	assert.Len(t, up.requests(), 1)

	// Normalized parameters share a key; different ones do not.
	hs.do(t, "GET", dropPointsQuery, "")
	r = hs.do(t, "GET", "/v1/get-drop-points?zip_code=+28014+&country_code=es", "")
	assert.Equal(t, "HIT", r.Header.Get("X-Cache"))
	r = hs.do(t, "GET", "/v1/get-drop-points?country_code=ES&zip_code=28015", "")
	assert.Equal(t, "MISS", r.Header.Get("X-Cache"))
	assert.Len(t, up.requests(), 3)

	// Expiry: drop points live 15 minutes by default.
	hs.now = hs.now.Add(16 * time.Minute)
	r = hs.do(t, "GET", dropPointsQuery, "")
	assert.Equal(t, "MISS", r.Header.Get("X-Cache"))
	r = hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, "HIT", r.Header.Get("X-Cache"), "carriers live an hour")

	// The upstream identity is part of the key.
	other := cachingEnv(up.srv.URL + "/v1")
	other[EnvAPIUser] = "another-merchant"
	k1 := cacheKey(mustConfig(t, cachingEnv(up.srv.URL+"/v1")), opNamed(t, "get-client-carriers"), nil)
	k2 := cacheKey(mustConfig(t, other), opNamed(t, "get-client-carriers"), nil)
	assert.NotEqual(t, k1, k2)

	r = hs.do(t, "GET", "/healthz", "")
	cache := r.Env.Data["cache"].(map[string]any)
	assert.EqualValues(t, 3, cache["entries"])
	assert.Greater(t, cache["bytes"].(float64), float64(0))
}

func TestCacheKeepsOnlyOkAndNeverBookingsOrPrivateReads(t *testing.T) {
	fail := true
	up := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if fail {
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":108,"errorMessage":"the service is not contracted"}}`)
			return
		}
		_, _ = io.WriteString(w, carriersBody)
	})
	hs := newHarness(cachingEnv(up.srv.URL+"/v1"), up.srv.Client())
	for i := 0; i < 2; i++ {
		r := hs.do(t, "GET", "/v1/get-client-carriers", "")
		assert.Equal(t, "err", r.Env.Status)
		assert.Equal(t, "MISS", r.Header.Get("X-Cache"))
	}
	fail = false
	for i := 0; i < 2; i++ {
		r := hs.do(t, "GET", "/v1/get-shipment?dlvr_ref=DLV1", "", "Authorization", "Bearer "+testToken)
		assert.Equal(t, 200, r.Code)
		assert.Empty(t, r.Header.Get("X-Cache"), "personal data is never cached")
		r = hs.do(t, "GET", "/v1/get-shipments-rates?from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001"+
			"&parcels[0][parcel_weight]=1&parcels[0][parcel_width]=1&parcels[0][parcel_height]=1&parcels[0][parcel_length]=1&parcels[0][parcel_volume]=1", "")
		assert.Empty(t, r.Header.Get("X-Cache"), "rates are not cached")
	}
	assert.Len(t, up.requests(), 6)

	// CACHE_TTL turns one operation off, or all.
	hs.setEnv(EnvCacheTTL, "get-client-carriers=0")
	hs.do(t, "GET", "/v1/get-client-carriers", "")
	r := hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Empty(t, r.Header.Get("X-Cache"))
	assert.Len(t, up.requests(), 8)
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
	c := mustConfig(t, env{EnvCacheTTL: "*=60, get-drop-points=5", EnvAPIUser: "u", EnvAPIKey: "k", EnvUpstreamBaseURL: SandboxUpstream})
	assert.Equal(t, 60*time.Second, c.CacheTTL["get-client-services"])
	assert.Equal(t, 5*time.Second, c.CacheTTL["get-drop-points"])
	assert.Zero(t, c.CacheTTL["new-shipment"])
}

func TestCacheCoalescesConcurrentMisses(t *testing.T) {
	release := make(chan struct{})
	up := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		<-release
		_, _ = io.WriteString(w, carriersBody)
	})
	hs := newHarness(cachingEnv(up.srv.URL+"/v1"), up.srv.Client())
	const n = 10
	var wg sync.WaitGroup
	codes := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rec := httptest.NewRecorder()
			hs.h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/get-client-carriers", nil))
			codes[i] = rec.Header().Get("X-Cache") + " " + rec.Body.String()
		}(i)
	}
	// Let every request reach the flight before the upstream answers.
	require.Eventually(t, func() bool { return len(up.requests()) == 1 }, 5*time.Second, time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	assert.Len(t, up.requests(), 1, "ten identical concurrent misses, one upstream call")
	misses := 0
	for _, c := range codes {
		assert.True(t, strings.HasSuffix(c, carriersBody), c)
		if strings.HasPrefix(c, "MISS") {
			misses++
		}
	}
	assert.Equal(t, 1, misses)
}

// memShared is a SharedCache in memory, as the Workers Cache API.
type memShared struct {
	mu   sync.Mutex
	m    map[string][]byte
	exp  map[string]time.Time
	puts int
}

func (s *memShared) Get(_ context.Context, key string) ([]byte, time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[key]
	return b, s.exp[key], ok
}

func (s *memShared) Put(_ context.Context, key string, body []byte, ttl time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key], s.exp[key] = body, time.Now().Add(ttl)
	s.puts++
}

func TestCacheSharedTierOutlivesTheInstance(t *testing.T) {
	up := newFakeUpstream(t, okReply(carriersBody))
	shared := &memShared{m: map[string][]byte{}, exp: map[string]time.Time{}}
	hs := newHarness(cachingEnv(up.srv.URL+"/v1"), up.srv.Client())
	hs.h.d.Shared = shared
	assert.Equal(t, "MISS", hs.do(t, "GET", "/v1/get-client-carriers", "").Header.Get("X-Cache"))
	assert.Equal(t, 1, shared.puts)

	// A new instance (fresh in-instance cache) finds it in the shared tier.
	fresh := newHarness(cachingEnv(up.srv.URL+"/v1"), up.srv.Client())
	fresh.h.d.Shared = shared
	r := fresh.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, "HIT", r.Header.Get("X-Cache"))
	assert.Equal(t, carriersBody, r.Raw)
	assert.Len(t, up.requests(), 1)
}

func TestRespCacheBounds(t *testing.T) {
	now := time.Now()
	c := newRespCache(100, 3)
	c.put("a", make([]byte, 20), now.Add(time.Hour))
	c.put("b", make([]byte, 20), now.Add(time.Hour))
	c.put("c", make([]byte, 20), now.Add(time.Hour))
	_, ok := c.get("a", now) // a becomes the most recent
	assert.True(t, ok)
	c.put("d", make([]byte, 20), now.Add(time.Hour))
	_, ok = c.get("b", now)
	assert.False(t, ok, "least recently used goes first")
	n, b := c.stats()
	assert.Equal(t, 3, n)
	assert.Equal(t, 60, b)
	c.put("big", make([]byte, 26), now.Add(time.Hour))
	_, ok = c.get("big", now)
	assert.False(t, ok, "a body over a quarter of the bound is not kept")
	c.put("e", make([]byte, 25), now.Add(time.Hour))
	c.put("f", make([]byte, 25), now.Add(time.Hour))
	c.put("g", make([]byte, 25), now.Add(time.Hour))
	c.put("h", make([]byte, 25), now.Add(time.Hour))
	_, b = c.stats()
	assert.LessOrEqual(t, b, 100)
	_, ok = c.get("h", now.Add(2*time.Hour))
	assert.False(t, ok, "expired")

	off := newRespCache(0, 10)
	off.put("x", []byte("y"), now.Add(time.Hour))
	_, ok = off.get("x", now)
	assert.False(t, ok, "CACHE_MAX_BYTES=0 keeps nothing")
}

func TestPanicsAreIsolated(t *testing.T) {
	e := baseEnv("")
	e[EnvFaultInjection] = "true"
	hs := newHarness(e, nil)
	r := hs.do(t, "GET", "/__faults/panic", "")
	assert.Equal(t, 500, r.Code)
	assert.Equal(t, CodeInternal, r.errorCode())
	assert.Contains(t, hs.log.String(), `"error":"panic"`)

	// A panic after the response: one body, never a second.
	rec := httptest.NewRecorder()
	hs.h.ServeHTTP(rec, httptest.NewRequest("GET", "/__faults/panic-after-write", nil))
	assert.Equal(t, 200, rec.Code)
	assert.JSONEq(t, `{"status":"ok","data":{"written":"yes"}}`, rec.Body.String())

	// Off by default; refused with a remote upstream.
	hs = newHarness(baseEnv(""), nil)
	assert.Equal(t, 404, hs.do(t, "GET", "/__faults/panic", "").Code)
	e = baseEnv("https://api.example.com/v1")
	e[EnvFaultInjection] = "true"
	hs = newHarness(e, nil)
	r = hs.do(t, "GET", "/healthz", "")
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, hs.log.String(), EnvFaultInjection, "the log names it; the anonymous caller is told less (health_test.go)")
	r = hs.do(t, "GET", "/healthz", "", "Authorization", "Bearer "+testToken)
	assert.Contains(t, r.message(), EnvFaultInjection)
}

func mustConfig(t *testing.T, e env) *Config {
	t.Helper()
	c, errs := LoadConfig(func(k string) string { return e[k] })
	require.Empty(t, errs)
	return &c
}

func opNamed(t *testing.T, name string) *catalog.Operation {
	t.Helper()
	op := catalog.Lookup(name)
	require.NotNil(t, op, name)
	return op
}

func TestLogRequestsModes(t *testing.T) {
	up := newFakeUpstream(t, okReply(carriersBody))
	for mode, want := range map[string][2]int{"": {0, 1}, "errors": {0, 1}, "all": {1, 1}, "off": {0, 0}} {
		e := baseEnv(up.srv.URL + "/v1")
		e[EnvLogRequests] = mode
		hs := newHarness(e, up.srv.Client())
		for i, target := range []string{"/v1/get-client-carriers", "/v1/get-drop-points?country_code=ES&zip_code=1"} {
			before := hs.log.Len()
			rec := httptest.NewRecorder()
			hs.h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
			assert.Equal(t, want[i], strings.Count(hs.log.String()[before:], "\n"), "LOG_REQUESTS=%q, %s (HTTP %d)", mode, target, rec.Code)
		}
	}
	_, errs := LoadConfig(func(k string) string {
		return map[string]string{EnvLogRequests: "verbose", EnvAPIUser: "u", EnvAPIKey: "k", EnvUpstreamBaseURL: SandboxUpstream}[k]
	})
	require.Len(t, errs, 1)
	assert.Equal(t, EnvLogRequests, errs[0].Var)
}

// The embedded sandbox is chosen by name, never by an unset variable.
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
	e := baseEnv("")
	delete(e, EnvUpstreamBaseURL)
	hs := newHarness(e, nil)
	r := hs.do(t, "POST", "/v1/new-shipment", shipmentForm, "Authorization", "Bearer "+testToken)
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.message(), "UPSTREAM_BASE_URL: is not set")
	assert.Equal(t, 404, hs.do(t, "GET", DemoTokenPath, "").Code, "no demo tokens either")
}
