//go:build !(js && wasm)

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// The runtime of the worker under workerd (worker/src: JavaScript that owns
// the I/O, and one instance of the core module per isolate): the instance
// serves successive requests, a trap in the core answers that request
// and replaces the module while requests in flight go on, the response
// cache, bodies over the limit.

// instance reads /healthz's description of the core's instance.
func instance(t *testing.T, base string) (id string, requests int) {
	t.Helper()
	r := get(t, base, "/healthz")
	require.Equal(t, 200, r.Code, r.Raw)
	in, ok := r.Data["instance"].(map[string]any)
	require.True(t, ok, "healthz reports the instance: %s", r.Raw)
	n, _ := in["requests"].(float64)
	return str(in, "id"), int(n)
}

func get(t *testing.T, base, path string) *result {
	t.Helper()
	op := strings.TrimPrefix(path, "/v1/")
	if op != path {
		// An operation through the client; the paths outside /v1/ raw.
		params, known := map[string]edgeclient.Params{
			string(edgeclient.OpGetClientCarriers): edgeclient.GetClientCarriersParams{},
			string(edgeclient.OpGetClientServices): edgeclient.GetClientServicesParams{},
		}[op]
		require.True(t, known, "get sends %s with no parameters", op)
		return do(t, edge(t, base), params)
	}
	res, err := client.Get(base + path)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	r := &result{Code: res.StatusCode, Header: res.Header, Raw: string(b)}
	var env struct {
		Status string         `json:"status"`
		Data   map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &env), r.Raw)
	r.Status, r.Data = env.Status, env.Data
	return r
}

// inFlight starts n slow reads (the fake upstream answers after 1.5 s)
// and returns a function that waits for their results.
func inFlight(t *testing.T, base string, n int) func() []*result {
	var wg sync.WaitGroup
	out := make([]*result, n)
	anon := edge(t, base, edgeclient.WithToken(""))
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i] = do(t, anon, edgeclient.GetClientServicesParams{CarrierCode: "delay"})
		}(i)
	}
	return func() []*result { wg.Wait(); return out }
}

func runtimeStack(t *testing.T, up *upstream, extra map[string]string) *wranglerdev.Server {
	vars := map[string]string{
		"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "UPSTREAM_TIMEOUT_MS": "5000",
		"API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey, "ALLOWED_ORIGINS": shop,
		"FAULT_INJECTION": "true", "CACHE_TTL": "*=0",
	}
	for k, v := range extra {
		vars[k] = v
	}
	return start(t, wranglerdev.Options{Vars: vars})
}

// One instance of the core serves the isolate's requests (it is made once,
// not per request).
func TestInstanceServesSuccessiveRequests(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, nil)
	first, n0 := instance(t, s.URL)
	for i := 1; i <= 3; i++ {
		id, n := instance(t, s.URL)
		assert.Equal(t, first, id, "one core instance serves the isolate's requests")
		assert.Equal(t, n0+i, n)
	}
}

// A trap inside the core (TinyGo has no recover on wasm) answers that
// request with a 500 envelope and replaces the module; reads and a booking
// in flight are unaffected (the JavaScript holds them, not the module),
// and the booking reaches the upstream once. (The Go worker's instance
// carried requests in flight, so its crash replayed reads and failed
// bookings; the core holds no request across an await.)
func TestTrapIsolation(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, nil)
	before, _ := instance(t, s.URL)

	wait := inFlight(t, s.URL, 4)
	var booking *result
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		v := parcel(parties(url.Values{}))
		v.Set("shipping_date", nextWorkingDay())
		v.Set("service_type", "custom")
		v.Set("carrier_code", "delay")
		v.Set("service_code", "delay-24")
		v.Set("shipping_client_ref", "TRAP-1")
		// No resends: the first answer must be the booking's, trap or not.
		booking = book(t, edge(t, s.URL, edgeclient.WithMaxResends(0)), v)
	}()
	time.Sleep(400 * time.Millisecond)
	r := get(t, s.URL, "/__faults/trap")
	assert.Equal(t, 500, r.Code, r.Raw)
	assert.Equal(t, "err", r.Status)
	assert.EqualValues(t, 1500, r.Data["errorCode"])
	assert.Equal(t, "internal", str(r.Data, "errorClass"))

	for _, r := range wait() {
		assert.Equal(t, 200, r.Code, "a trap in one request fails no other: %s", r.Raw)
	}
	wg.Wait()
	assert.Equal(t, 200, booking.Code, booking.Raw)
	bookings := 0
	for _, r := range up.all() {
		if r.Path == "/v1/new-shipment" {
			bookings++
		}
	}
	assert.Equal(t, 1, bookings, "the booking reached the upstream once")
	after, _ := instance(t, s.URL)
	assert.NotEqual(t, before, after, "the trapped module was replaced")
	r = get(t, s.URL, "/v1/get-client-services")
	assert.Equal(t, 200, r.Code, "the fresh module serves: %s", r.Raw)
	assert.Contains(t, s.Logs(), `"msg":"core trapped; module replaced"`)
	// The core was made and warmed at the isolate's start (worker/src/warm.mjs),
	// not left to the first request.
	assert.NotContains(t, s.Logs(), "failed to warm")
	assert.NotContains(t, s.Logs(), "could not be made at the isolate's start")
	// Then its request pipeline ran on made-up requests (warmPipeline): no
	// failure, and none of them in the request log.
	assert.NotContains(t, s.Logs(), "pipeline warm-up failed")
	assert.NotContains(t, s.Logs(), "Disallowed operation called within global scope")
	assert.NotContains(t, s.Logs(), `"request_id":"warm"`)
}

func TestCacheUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, map[string]string{"CACHE_TTL": "*=0,get-client-services=60"})
	n := up.count()

	// Ten identical concurrent misses: one upstream call, all the same answer.
	var wg sync.WaitGroup
	rs := make([]*result, 10)
	anon := edge(t, s.URL, edgeclient.WithToken(""))
	for i := range rs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rs[i] = do(t, anon, edgeclient.GetClientServicesParams{CarrierCode: "delay"})
		}(i)
	}
	wg.Wait()
	misses := 0
	for _, r := range rs {
		require.Equal(t, 200, r.Code, r.Raw)
		assert.Equal(t, "late", str(r.Data, "echo"))
		if r.Header.Get("X-Cache") == "MISS" {
			misses++
		} else {
			assert.Equal(t, "HIT", r.Header.Get("X-Cache"))
		}
	}
	assert.Equal(t, 1, misses)
	assert.Equal(t, n+1, up.count(), "identical concurrent misses make one upstream call")

	// The same parameters spelled otherwise, by POST: a hit.
	r := call(t, s.URL, http.MethodPost, "get-client-services", url.Values{"carrier_code": {" delay "}}) // raw: another spelling by POST is the point
	assert.Equal(t, "HIT", r.Header.Get("X-Cache"))
	// Other parameters, errors and uncached operations go upstream.
	r = do(t, anon, edgeclient.GetClientServicesParams{CarrierCode: "reject-108"})
	assert.Equal(t, "MISS", r.Header.Get("X-Cache"))
	r = do(t, anon, edgeclient.GetClientServicesParams{CarrierCode: "reject-108"})
	assert.Equal(t, "MISS", r.Header.Get("X-Cache"), "an err envelope is never cached")
	r = do(t, anon, edgeclient.GetClientCarriersParams{})
	assert.Empty(t, r.Header.Get("X-Cache"), "CACHE_TTL turned it off")
	assert.Equal(t, n+4, up.count())

	// Without the in-isolate tier (CACHE_MAX_BYTES=0) a repeat can only be
	// a hit from the Cache API.
	s2 := runtimeStack(t, up, map[string]string{"CACHE_TTL": "*=0,get-client-services=60", "CACHE_MAX_BYTES": "0"})
	n = up.count()
	anon2 := edge(t, s2.URL, edgeclient.WithToken(""))
	r = do(t, anon2, edgeclient.GetClientServicesParams{CarrierCode: "cache-api"})
	assert.Equal(t, "MISS", r.Header.Get("X-Cache"))
	r = do(t, anon2, edgeclient.GetClientServicesParams{CarrierCode: "cache-api"})
	assert.Equal(t, 200, r.Code)
	assert.Equal(t, "HIT", r.Header.Get("X-Cache"), "the Cache API's copy")
	assert.Equal(t, n+1, up.count())
}

func TestRejectedBodiesDoNotStall(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, nil)
	// A stall shows as this client's timeout, not as a slow figure.
	quick := &http.Client{Timeout: 5 * time.Second}
	for _, tc := range []struct {
		name    string
		chunked bool
		size    int
	}{{"chunked 1.5 MB", true, 1500000}, {"declared 1.5 MB", false, 1500000}, {"chunked 20 MB", true, 20 << 20}} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(strings.Repeat("a", tc.size))
			if tc.chunked {
				pr, pw := io.Pipe()
				go func() {
					_, _ = pw.Write([]byte(strings.Repeat("a", tc.size)))
					pw.Close()
				}()
				body = pr
			}
			req, _ := http.NewRequest("POST", s.URL+"/v1/get-client-services", body)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res, err := client.Do(req)
			require.NoError(t, err)
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			assert.Equal(t, 413, res.StatusCode, string(b))
			for i := 0; i < 3; i++ {
				res, err := quick.Get(s.URL + "/healthz")
				require.NoError(t, err, "the next request is answered at once")
				res.Body.Close()
				assert.Equal(t, 200, res.StatusCode)
			}
		})
	}
}

func TestRateLimitsUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	vars := map[string]string{"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "API_USER": user, "API_KEY": key,
		"PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey, "CACHE_TTL": "*=0"}
	s := start(t, wranglerdev.Options{Vars: vars, RateLimit: 5, ReadyPath: "/healthz"})
	r := get(t, s.URL, "/healthz")
	assert.Equal(t, map[string]any{"RATE_LIMIT_PUBLIC": "on", "RATE_LIMIT_ANONYMOUS": "on", "RATE_LIMIT_TOKENS": "on"}, r.Data["rate_limits"])
	codes := map[int]int{}
	var last *result
	anon := edge(t, s.URL, edgeclient.WithToken("")) // the client never resends a read: 8 calls, 8 answers
	for i := 0; i < 8; i++ {
		last = do(t, anon, edgeclient.GetClientCarriersParams{})
		codes[last.Code]++
	}
	assert.Equal(t, 5, codes[200], "%v", codes)
	assert.Equal(t, 3, codes[429], "%v", codes)
	assert.Equal(t, "60", last.Header.Get("Retry-After"))
	assert.EqualValues(t, 1429, last.Data["errorCode"])
	// The shop's server (master token) is not limited.
	for i := 0; i < 3; i++ {
		r := do(t, edge(t, s.URL), edgeclient.GetClientCarriersParams{})
		assert.Equal(t, 200, r.Code, r.Raw)
	}
	// Without the bindings: no limit, and /healthz says so.
	s2 := start(t, wranglerdev.Options{Vars: vars})
	r = get(t, s2.URL, "/healthz")
	assert.Contains(t, r.Data["rate_limits"].(map[string]any)["RATE_LIMIT_PUBLIC"], "off")
}

// PUBLIC_OPERATIONS set but empty means no public operation under workerd
// (the environment tells "" from unset), never the defaults.
func TestPublicOperationsSetEmptyUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := start(t, wranglerdev.Options{Vars: map[string]string{"UPSTREAM_BASE_URL": up.srv.URL + "/v1",
		"API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "PUBLIC_OPERATIONS": ""}})
	r := call(t, s.URL, http.MethodGet, "get-client-carriers", nil) // raw: the missing token is the point
	assert.Equal(t, 401, r.Code, r.Raw)
	r = do(t, edge(t, s.URL), edgeclient.GetClientCarriersParams{})
	assert.Equal(t, 200, r.Code, r.Raw)
}
