package edge

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/sandbox"
	"github.com/parcelgate/parcelgate/internal/testvectors"
)

const (
	testUser  = "merchant-7"
	testKey   = "sk_live_SECRET_never_shown"
	testToken = "proxy-token-123-0123456789abcdefgh"
)

// recorded is what the fake upstream received.
type recorded struct {
	Method string
	Path   string
	Header http.Header
	Body   string
}

// fakeUpstream records requests and answers with the handler's reply.
type fakeUpstream struct {
	mu    sync.Mutex
	reqs  []recorded
	reply func(w http.ResponseWriter, r *http.Request, n int)
	srv   *httptest.Server
}

func newFakeUpstream(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, n int)) *fakeUpstream {
	f := &fakeUpstream{reply: reply}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, recorded{r.Method, r.URL.Path, r.Header.Clone(), string(b)})
		n := len(f.reqs)
		f.mu.Unlock()
		f.reply(w, r, n)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeUpstream) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

func okReply(body string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "upstream_session=abc")
		w.Header().Set("X-Powered-By", "PHP/8.1")
		_, _ = io.WriteString(w, body)
	}
}

type env map[string]string

func baseEnv(upstream string) env {
	if upstream == "" {
		upstream = SandboxUpstream
	}
	return env{
		EnvUpstreamBaseURL: upstream,
		EnvAPIUser:         testUser,
		EnvAPIKey:          testKey,
		EnvProxyToken:      testToken,
		// Every required secret is set: /healthz is 200 (health_test.go).
		EnvTokenSigningKey: testSigningKey,
		EnvAllowedOrigins:  "https://shop.example, https://other.example",
		// Forwarding is what most tests look at; the cache has tests of
		// its own (cache_test.go).
		EnvCacheTTL: "*=0",
		// Every request's log line is checked (LOG_REQUESTS has a test).
		EnvLogRequests: "all",
	}
}

// inProcessSandbox serves UPSTREAM_BASE_URL=sandbox with internal/sandbox
// on store, as `go run ./worker` does (worker/platform_other.go): the
// sandbox is a test dependency of this package, never an import.
func inProcessSandbox(store sandbox.Store) func(context.Context, SandboxOptions) (Doer, error) {
	return func(_ context.Context, o SandboxOptions) (Doer, error) {
		return HandlerDoer{sandbox.New(sandbox.WithStore(store), sandbox.WithCredentials(o.User, o.Key),
			sandbox.WithRules(o.Rules), sandbox.WithTimeScale(o.TimeScale), sandbox.WithClock(o.Now))}, nil
	}
}

// harness is a handler with its log and fixed clock.
type harness struct {
	h     *Handler
	log   *bytes.Buffer
	env   env
	now   time.Time
	slept []time.Duration
}

func newHarness(e env, up Doer) *harness {
	hs := &harness{log: &bytes.Buffer{}, env: e, now: time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)}
	hs.h = New(Deps{
		Getenv:   func(k string) string { return hs.env[k] },
		Upstream: up,
		Sandbox:  inProcessSandbox(sandbox.NewMemoryStore()),
		Now:      func() time.Time { return hs.now },
		Sleep: func(ctx context.Context, d time.Duration) error {
			hs.slept = append(hs.slept, d)
			return nil
		},
		Log:   hs.log,
		NewID: func() string { return "rid-fixed" },
	})
	return hs
}

// response is a decoded answer.
type response struct {
	Code   int
	Header http.Header
	Raw    string
	Env    struct {
		Status string         `json:"status"`
		Data   map[string]any `json:"data"`
	}
}

func (hs *harness) do(t *testing.T, method, target, body string, hdr ...string) *response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	before := hs.log.Len()
	rec := httptest.NewRecorder()
	hs.h.ServeHTTP(rec, req)
	res := &response{Code: rec.Code, Header: rec.Header(), Raw: rec.Body.String()}
	// Every response: JSON, request id, timing, one log line, no secret.
	assert.Equal(t, ContentType, res.Header.Get("Content-Type"))
	assert.NotEmpty(t, res.Header.Get("X-Request-Id"))
	assert.Contains(t, res.Header.Get("Server-Timing"), "edge;dur=")
	assert.Equal(t, strconv.Itoa(len(res.Raw)), res.Header.Get("Content-Length"))
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &res.Env), "body: %s", res.Raw)
	assert.Contains(t, []string{"ok", "err"}, res.Env.Status)
	line := hs.log.String()[before:]
	assert.Equal(t, 1, strings.Count(line, "\n"), "one log line per request: %q", line)
	var entry map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &entry), "log line: %s", line)
	assert.EqualValues(t, rec.Code, entry["status"])
	for _, secret := range []string{testKey, base64.StdEncoding.EncodeToString([]byte(testUser + ":" + testKey)), testToken} {
		assert.NotContains(t, res.Raw, secret)
		assert.NotContains(t, line, secret)
		for k, v := range res.Header {
			assert.NotContains(t, strings.Join(v, ","), secret, k)
		}
	}
	return res
}

func (r *response) errorCode() int {
	if v, ok := r.Env.Data["errorCode"].(float64); ok {
		return int(v)
	}
	return 0
}

func (r *response) message() string {
	s, _ := r.Env.Data["errorMessage"].(string)
	return s
}

const carriersBody = `{"status":"ok","data":{"swiftpost":{"id_carrier":12,"carrier_name":"SwiftPost","carrier_code":"swiftpost","status":1}}}`

func TestRouting(t *testing.T) {
	up := newFakeUpstream(t, okReply(carriersBody))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	tests := []struct {
		name, method, target string
		status, code         int
		allow                string
	}{
		{"health", "GET", "/healthz", 200, 0, ""},
		{"health wrong method", "POST", "/healthz", 405, CodeMethodNotAllowed, "GET, OPTIONS"},
		{"unknown operation", "POST", "/v1/cancel-shipment", 404, CodeNotFound, ""},
		{"nested path", "POST", "/v1/get-shipment/extra", 404, CodeNotFound, ""},
		{"root", "GET", "/", 404, CodeNotFound, ""},
		{"no version", "POST", "/get-client-carriers", 404, CodeNotFound, ""},
		{"GET on a booking", "GET", "/v1/new-shipment", 405, CodeMethodNotAllowed, "POST, OPTIONS"},
		{"PUT on a read", "PUT", "/v1/get-client-carriers", 405, CodeMethodNotAllowed, "GET, POST, OPTIONS"},
		{"HEAD", "HEAD", "/v1/get-client-carriers", 405, CodeMethodNotAllowed, "GET, POST, OPTIONS"},
		{"GET read", "GET", "/v1/get-client-carriers", 200, 0, ""},
		{"POST read", "POST", "/v1/get-client-carriers", 200, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := hs.do(t, tc.method, tc.target, "")
			assert.Equal(t, tc.status, r.Code, r.Raw)
			if tc.code != 0 {
				assert.Equal(t, "err", r.Env.Status)
				assert.Equal(t, tc.code, r.errorCode())
				assert.Equal(t, "edge", r.Env.Data["source"])
				assert.Equal(t, "rid-fixed", r.Env.Data["requestId"])
			}
			assert.Equal(t, tc.allow, r.Header.Get("Allow"))
		})
	}
	assert.Len(t, up.requests(), 2, "only the two valid calls reach the upstream")
}

func TestHealthAndRequestID(t *testing.T) {
	hs := newHarness(baseEnv(""), nil)
	r := hs.do(t, "GET", "/healthz", "")
	assert.Equal(t, "sandbox", r.Env.Data["upstream"])
	assert.Equal(t, "rid-fixed", r.Header.Get("X-Request-Id"))
	r = hs.do(t, "GET", "/healthz", "", "X-Request-Id", "shop-42.a_b")
	assert.Equal(t, "shop-42.a_b", r.Header.Get("X-Request-Id"), "a clean client id is kept")
	r = hs.do(t, "GET", "/healthz", "", "X-Request-Id", "bad id\" with <stuff>")
	assert.Equal(t, "rid-fixed", r.Header.Get("X-Request-Id"), "an unsafe one is replaced")
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name   string
		change env
		target string
		want   string
	}{
		{"missing key", env{EnvAPIKey: ""}, "/v1/get-client-carriers", "API_KEY: secret is not set"},
		{"missing user", env{EnvAPIUser: ""}, "/v1/get-client-carriers", "API_USER: secret is not set"},
		// Without PROXY_TOKEN nobody holds the master token: the answer is
		// generic, the log names it (TestConfigErrorsNamedToTheOperatorOnly).
		{"missing token for a protected op", env{EnvProxyToken: ""}, "/v1/get-shipment", "a required secret or setting is missing"},
		{"plain http upstream", env{EnvUpstreamBaseURL: "http://api.example.com/v1"}, "/v1/get-client-carriers", "UPSTREAM_BASE_URL: must use https"},
		{"upstream without v1", env{EnvUpstreamBaseURL: "https://api.example.com/v2"}, "/v1/get-client-carriers", "UPSTREAM_BASE_URL: must end with /v1"},
		{"upstream with credentials", env{EnvUpstreamBaseURL: "https://u:p@api.example.com/v1"}, "/v1/get-client-carriers", "must not carry credentials"},
		{"bad timeout", env{EnvUpstreamTimeoutMS: "soon"}, "/v1/get-client-carriers", "UPSTREAM_TIMEOUT_MS"},
		{"bad body limit", env{EnvMaxBodyBytes: "-1"}, "/v1/get-client-carriers", "MAX_BODY_BYTES"},
		{"unknown public op", env{EnvPublicOperations: "get-client-carriers,get-everything"}, "/v1/get-client-carriers", `unknown operation "get-everything"`},
		{"bad rules flag", env{EnvRulesFeature: "maybe"}, "/v1/get-client-carriers", "RULES_FEATURE"},
		{"health reports it", env{EnvAPIKey: ""}, "/healthz", "API_KEY"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := baseEnv("https://api.example.com/v1")
			for k, v := range tc.change {
				e[k] = v
			}
			called := false
			hs := newHarness(e, DoerFunc(func(*http.Request) (*http.Response, error) {
				called = true
				return nil, errors.New("no")
			}))
			r := hs.do(t, "GET", tc.target, "", "Authorization", "Bearer "+testToken)
			assert.Equal(t, 500, r.Code)
			assert.Equal(t, CodeMisconfigured, r.errorCode())
			assert.Contains(t, r.message(), tc.want)
			assert.False(t, called)
		})
	}
	// Loopback http is fine.
	for _, u := range []string{"http://127.0.0.1:8080/v1", "http://localhost/v1/", "http://[::1]:9/api/v1"} {
		assert.Equal(t, "", checkBaseURL(u), u)
	}
	for _, u := range []string{"http://127.0.0.1.evil.com/v1", "http://10.0.0.1/v1", "ftp://127.0.0.1/v1", "https:///v1"} {
		assert.NotEqual(t, "", checkBaseURL(u), u)
	}
}

// A configuration error names its variable to the master token's holder
// only (and in the log line), on every endpoint as on /healthz: an
// anonymous caller or a page's scoped token learns nothing of which
// secret a worker lacks.
func TestConfigErrorsNamedToTheOperatorOnly(t *testing.T) {
	generic := "worker misconfigured: a required secret or setting is missing, weak or invalid; the worker's log names it, and /healthz with the master token"
	cases := []struct {
		change       env
		method, path string
		body, named  string
	}{
		{env{EnvProxyToken: ""}, "POST", "/tokens", "operations=get-shipment&dlvr_ref=D1", "PROXY_TOKEN"},
		{env{EnvProxyToken: ""}, "POST", "/v1/new-shipment", shipmentForm, "PROXY_TOKEN"},
		{env{EnvAPIKey: ""}, "GET", "/v1/get-client-carriers", "", "API_KEY"},
		{env{EnvUpstreamTimeoutMS: "soon"}, "GET", "/v1/get-client-carriers", "", "UPSTREAM_TIMEOUT_MS"},
		{env{EnvTokenSigningKey: ""}, "GET", "/v1/get-shipment?dlvr_ref=D1", "", "TOKEN_SIGNING_KEY"},
	}
	for _, c := range cases {
		e := baseEnv("https://api.example.com/v1")
		for k, v := range c.change {
			e[k] = v
		}
		hs := newHarness(e, DoerFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("no") }))
		before := hs.log.Len()
		var r *response
		if c.named == "TOKEN_SIGNING_KEY" {
			r = hs.do(t, c.method, c.path, c.body, "Authorization", "Bearer pgt1.AAAA.BBBB")
		} else {
			r = hs.do(t, c.method, c.path, c.body)
		}
		assert.Equal(t, 500, r.Code, c.path)
		assert.Equal(t, CodeMisconfigured, r.errorCode())
		assert.Equal(t, generic, r.message(), c.path)
		assert.NotContains(t, r.Raw, c.named, c.path)
		assert.Contains(t, hs.log.String()[before:], c.named, "the log line names it")
		if _, noMaster := c.change[EnvProxyToken]; !noMaster && c.named != "TOKEN_SIGNING_KEY" {
			// The operator reads it with the master token (which needs no
			// signing key: that one on /healthz).
			r = hs.do(t, c.method, c.path, c.body, "Authorization", "Bearer "+testToken)
			assert.Contains(t, r.message(), c.named, c.path)
		}
	}
}

func TestToken(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"page":1,"n_shipments":0,"shipments":[]}}`))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	tests := []struct {
		name, auth string
		status     int
	}{
		{"none", "", 401},
		{"wrong", "Bearer nope", 401},
		{"prefix of the token", "Bearer " + testToken[:5], 401},
		{"basic instead", "Basic " + base64.StdEncoding.EncodeToString([]byte("a:"+testToken)), 401},
		{"right", "Bearer " + testToken, 200},
		{"right, lowercase scheme", "bearer " + testToken, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := hs.do(t, "GET", "/v1/get-shipments?page=1", "", "Authorization", tc.auth)
			assert.Equal(t, tc.status, r.Code, r.Raw)
			if tc.status == 401 {
				assert.Equal(t, CodeUnauthorized, r.errorCode())
				assert.Contains(t, r.Header.Get("WWW-Authenticate"), "Bearer")
			}
		})
	}
	assert.Len(t, up.requests(), 2)
	// Public operations need no token; PUBLIC_OPERATIONS narrows the list.
	r := hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, 200, r.Code)
	hs.setEnv(EnvPublicOperations, "get-drop-points")
	r = hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, 401, r.Code)
}

func TestCORS(t *testing.T) {
	up := newFakeUpstream(t, okReply(carriersBody))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())

	r := hs.do(t, "OPTIONS", "/v1/new-shipment", "", "Origin", "https://shop.example",
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization,content-type")
	assert.Equal(t, 200, r.Code)
	assert.Equal(t, "https://shop.example", r.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "POST, OPTIONS", r.Header.Get("Access-Control-Allow-Methods"))
	assert.Contains(t, r.Header.Get("Access-Control-Allow-Headers"), "Authorization")
	assert.Contains(t, r.Header.Values("Vary"), "Origin")

	r = hs.do(t, "OPTIONS", "/v1/new-shipment", "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	assert.Equal(t, 403, r.Code)
	assert.Equal(t, CodeOriginForbidden, r.errorCode())
	for k := range r.Header {
		assert.False(t, strings.HasPrefix(k, "Access-Control-"), k)
	}

	r = hs.do(t, "GET", "/v1/get-client-carriers", "", "Origin", "https://other.example")
	assert.Equal(t, 200, r.Code)
	assert.Equal(t, "https://other.example", r.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, r.Header.Get("Access-Control-Expose-Headers"), "X-Request-Id")

	r = hs.do(t, "GET", "/v1/get-client-carriers", "", "Origin", "https://evil.example")
	assert.Equal(t, 403, r.Code)
	assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"))

	r = hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, 200, r.Code)
	assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"), "no CORS headers without Origin")
	assert.Len(t, up.requests(), 2)

	// Same origin (the demo page served by the worker): neither refused
	// nor given CORS headers.
	r = hs.do(t, "GET", "http://edge.example/v1/get-client-carriers", "", "Origin", "http://edge.example")
	assert.Equal(t, 200, r.Code)
	assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"))

	hs.setEnv(EnvAllowedOrigins, "*")
	r = hs.do(t, "GET", "/v1/get-client-carriers", "", "Origin", "https://anything.example")
	assert.Equal(t, "https://anything.example", r.Header.Get("Access-Control-Allow-Origin"))
}

// vector is one case of testdata/requests (internal/testvectors).
type vector = testvectors.Request

func loadVectors(t testing.TB) []vector { return testvectors.Requests(t) }

// encodeVector writes the vector's request as a client would (fields in
// the given order, url.QueryEscape).
func encodeVector(v *vector) string {
	var parts []string
	for _, f := range v.Request.Fields {
		parts = append(parts, url.QueryEscape(f[0])+"="+url.QueryEscape(f[1]))
	}
	for i, p := range v.Request.Parcels {
		for _, name := range []string{"parcel_weight", "parcel_width", "parcel_height", "parcel_length", "parcel_volume"} {
			if val, ok := p[name]; ok {
				parts = append(parts, url.QueryEscape("parcels["+strconv.Itoa(i)+"]["+name+"]")+"="+url.QueryEscape(val))
			}
		}
	}
	return strings.Join(parts, "&")
}

// TestVectors sends every request vector through the edge: invalid ones
// are answered 400 with the vector's exact errors and never forwarded;
// valid ones reach the upstream with exactly the vector's body.
func TestVectors(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{}}`))
	for _, v := range testvectors.Requests(t) {
		t.Run(v.Operation+"/"+v.Name, func(t *testing.T) {
			e := baseEnv(up.srv.URL + "/v1")
			if v.Options.Rules {
				e[EnvRulesFeature] = "true"
			}
			hs := newHarness(e, up.srv.Client())
			if v.Options.Today != "" {
				day, err := time.Parse("2006-01-02", v.Options.Today)
				require.NoError(t, err)
				hs.now = day.Add(30 * time.Hour) // 06:00 UTC the next day: "today" at UTC-12
			}
			before := len(up.requests())
			r := hs.do(t, "POST", "/v1/"+v.Operation, encodeVector(&v),
				"Authorization", "Bearer "+testToken, "Cookie", "session=shopper", "X-Forwarded-For", "203.0.113.9",
				"CF-Connecting-IP", "203.0.113.9", "Origin", "https://shop.example", "Accept-Language", "en-GB,en;q=0.9",
				"X-Custom", "leak")
			got := up.requests()[before:]
			if len(v.Errors) > 0 {
				assert.Equal(t, 400, r.Code, r.Raw)
				assert.Empty(t, got, "an invalid request never reaches the upstream")
				assert.Equal(t, v.Errors[0].Code, r.errorCode())
				assert.Equal(t, v.Errors[0].Field+": "+v.Errors[0].Message, r.message())
				list, _ := r.Env.Data["errors"].([]any)
				require.Len(t, list, len(v.Errors))
				for i, fe := range v.Errors {
					m := list[i].(map[string]any)
					assert.Equal(t, fe.Field, m["field"])
					assert.EqualValues(t, fe.Code, m["code"])
					assert.Equal(t, fe.Message, m["message"])
				}
				return
			}
			require.Equal(t, 200, r.Code, r.Raw)
			require.Len(t, got, 1)
			rec := got[0]
			assert.Equal(t, "POST", rec.Method)
			assert.Equal(t, "/v1/"+v.Operation, rec.Path)
			if v.Body != nil {
				assert.Equal(t, *v.Body, rec.Body)
			}
			assert.Equal(t, "Basic "+base64.StdEncoding.EncodeToString([]byte(testUser+":"+testKey)), rec.Header.Get("Authorization"))
			assert.Equal(t, "application/x-www-form-urlencoded", rec.Header.Get("Content-Type"))
			assert.Equal(t, "rid-fixed", rec.Header.Get("X-Request-Id"))
			for _, h := range []string{"Cookie", "X-Forwarded-For", "Cf-Connecting-Ip", "Origin", "Accept-Language", "X-Custom"} {
				assert.Empty(t, rec.Header.Get(h), h)
			}
		})
	}
}

func TestGETQueryIsForwardedAsPOSTForm(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"drop_points":[]}}`))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	r := hs.do(t, "GET", "/v1/get-drop-points?zip_code=+28001+&country_code=es", "")
	require.Equal(t, 200, r.Code, r.Raw)
	got := up.requests()
	require.Len(t, got, 1)
	assert.Equal(t, "POST", got[0].Method)
	assert.Equal(t, "country_code=ES&zip_code=28001", got[0].Body)
}

func TestLimits(t *testing.T) {
	up := newFakeUpstream(t, okReply(carriersBody))
	e := baseEnv(up.srv.URL + "/v1")
	e[EnvMaxBodyBytes] = "1024"
	hs := newHarness(e, up.srv.Client())
	big := "carrier_code=" + strings.Repeat("a", 2000)

	r := hs.do(t, "POST", "/v1/get-client-services", big)
	assert.Equal(t, 413, r.Code)
	assert.Equal(t, CodeTooLarge, r.errorCode())

	// Chunked body (no Content-Length): limited on the bytes read.
	req := httptest.NewRequest("POST", "/v1/get-client-services", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	hs.h.ServeHTTP(rec, req)
	assert.Equal(t, 413, rec.Code)

	// A lying Content-Length does not help either.
	req = httptest.NewRequest("POST", "/v1/get-client-services", strings.NewReader(big))
	req.ContentLength = 10
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = httptest.NewRecorder()
	hs.h.ServeHTTP(rec, req)
	assert.Equal(t, 413, rec.Code)

	r = hs.do(t, "GET", "/v1/get-client-services?"+big, "")
	assert.Equal(t, 413, r.Code)

	r = hs.do(t, "POST", "/v1/get-client-services", `{"carrier_code":"x"}`, "Content-Type", "application/json")
	assert.Equal(t, 415, r.Code)
	assert.Equal(t, CodeUnsupportedType, r.errorCode())

	// Too many parcels.
	hs.setEnv(EnvMaxBodyBytes, "1048576")
	var b strings.Builder
	b.WriteString("from_country_code=ES&from_zip_code=28001&to_country_code=ES&to_zip_code=08001")
	for i := 0; i < 51; i++ {
		for _, f := range []string{"parcel_weight", "parcel_width", "parcel_height", "parcel_length", "parcel_volume"} {
			b.WriteString("&parcels%5B" + strconv.Itoa(i) + "%5D%5B" + f + "%5D=1")
		}
	}
	r = hs.do(t, "POST", "/v1/get-shipments-rates", b.String())
	assert.Equal(t, 400, r.Code)
	assert.Contains(t, r.Env.Data["errors"].([]any)[0].(map[string]any)["field"], "parcels")
	assert.Contains(t, r.message(), "too many parcels")
	assert.Empty(t, up.requests())
}

func TestUpstreamFailures(t *testing.T) {
	html := "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>"
	tests := []struct {
		name     string
		op, body string
		reply    func(w http.ResponseWriter, r *http.Request, n int)
		status   int
		code     int
		contains []string
		calls    int
		relayed  bool
	}{
		{"timeout", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
		}, 504, CodeGatewayTimeout, []string{"did not answer within 50 ms"}, 1, false},
		{"html 503, read retried twice", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {
			w.WriteHeader(503)
			_, _ = io.WriteString(w, html)
		}, 502, CodeBadGateway, []string{"HTTP 503", "HTML page"}, 3, false},
		{"5xx then ok", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				w.WriteHeader(502)
				return
			}
			_, _ = io.WriteString(w, carriersBody)
		}, 200, 0, nil, 2, true},
		{"booking never retried", "new-shipment", shipmentForm, func(w http.ResponseWriter, r *http.Request, n int) {
			w.WriteHeader(503)
			_, _ = io.WriteString(w, html)
		}, 502, CodeBadGateway, []string{"HTTP 503"}, 1, false},
		{"empty 200", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {}, 502, CodeBadGateway, []string{"HTTP 200", "empty body"}, 1, false},
		{"plain text 500", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {
			w.WriteHeader(500)
			_, _ = io.WriteString(w, "Internal Server Error")
		}, 502, CodeBadGateway, []string{"HTTP 500", "not a JSON object"}, 3, false},
		{"json without status", "get-client-carriers", "", okReply(`{"data":{}}`), 502, CodeBadGateway, []string{"without a status"}, 1, false},
		{"err envelope with 500", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {
			w.WriteHeader(500)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":999,"errorMessage":"Unexpected error"}}`)
		}, 502, CodeBadGateway, []string{"HTTP 500", "999 Unexpected error"}, 3, false},
		{"credentials refused", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"status":"err","data":{"message":"Invalid credentials"}}`)
		}, 502, CodeBadGateway, []string{"HTTP 401", "API_USER and API_KEY"}, 1, false},
		{"refusal relayed with its status", "get-client-carriers", "", func(w http.ResponseWriter, r *http.Request, n int) {
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":108,"errorMessage":"The service is not contracted"}}`)
		}, 400, 108, nil, 1, true},
		{"refusal with 200 relayed", "get-client-carriers", "", okReply(`{"status":"err","data":{"errorCode":108,"errorMessage":"x"}}`), 200, 108, nil, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			up := newFakeUpstream(t, tc.reply)
			e := baseEnv(up.srv.URL + "/v1")
			e[EnvUpstreamTimeoutMS] = "50"
			hs := newHarness(e, up.srv.Client())
			method, target, body := "GET", "/v1/"+tc.op, ""
			if tc.body != "" {
				method, body = "POST", tc.body
			}
			r := hs.do(t, method, target, body, "Authorization", "Bearer "+testToken)
			assert.Equal(t, tc.status, r.Code, r.Raw)
			assert.Equal(t, tc.code, r.errorCode())
			for _, s := range tc.contains {
				assert.Contains(t, r.message(), s)
			}
			assert.Len(t, up.requests(), tc.calls)
			if tc.calls > 1 {
				assert.Equal(t, readBackoff[:tc.calls-1], hs.slept)
			}
			if tc.relayed {
				assert.Empty(t, r.Header.Get("Set-Cookie"), "upstream headers are not copied")
				assert.Empty(t, r.Header.Get("X-Powered-By"))
			}
			if r.Code >= 500 {
				if tc.op == "new-shipment" {
					assert.Equal(t, false, r.Env.Data["retryable"])
					assert.Contains(t, r.Env.Data["hint"], "filter_shipping_client_ref=ORD-77")
				} else if tc.name != "credentials refused" {
					assert.Equal(t, true, r.Env.Data["retryable"])
				}
			}
			assert.Regexp(t, `upstream;dur=\d`, r.Header.Get("Server-Timing"))
		})
	}
}

const shipmentForm = "shipping_date=2026-11-23&service_type=custom&carrier_code=rapido&service_code=rapido-48h&shipping_client_ref=ORD-77" +
	"&from_name=Tienda&from_address=Calle+1&from_city=Madrid&from_zip_code=28014&from_country_code=ES" +
	"&to_name=Ana&to_address=Rua+2&to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT" +
	"&parcels%5B0%5D%5Bparcel_weight%5D=1.5&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000"

func TestUnreachableAndPanics(t *testing.T) {
	up := newFakeUpstream(t, okReply(carriersBody))
	base := up.srv.URL + "/v1"
	up.srv.Close()
	hs := newHarness(baseEnv(base), &http.Client{})
	r := hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, 502, r.Code)
	assert.Contains(t, r.message(), "could not be reached")
	assert.Len(t, hs.slept, 2, "reads are retried")

	hs = newHarness(baseEnv("https://api.example.com/v1"), DoerFunc(func(*http.Request) (*http.Response, error) { panic("boom") }))
	r = hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.message(), "internal error")
}

func TestLogLine(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{}}`))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	hs.now = time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	r := hs.do(t, "POST", "/v1/new-shipment", shipmentForm, "Authorization", "Bearer "+testToken)
	require.Equal(t, 200, r.Code, r.Raw)
	var entry map[string]any
	require.NoError(t, json.Unmarshal(hs.log.Bytes(), &entry))
	assert.Equal(t, "new-shipment", entry["op"])
	assert.Equal(t, "POST", entry["method"])
	assert.Equal(t, "rid-fixed", entry["request_id"])
	assert.EqualValues(t, 200, entry["upstream_status"])
	assert.EqualValues(t, 1, entry["attempts"])
	for _, personal := range []string{"Ana", "Rua", "Lisboa", "ORD-77", "1100"} {
		assert.NotContains(t, hs.log.String(), personal)
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

// TestEmbeddedSandbox walks a shipment through the embedded sandbox
// natively: same code path as a remote upstream, state in the store.
func TestEmbeddedSandbox(t *testing.T) {
	hs := newHarness(baseEnv(""), nil)
	hs.now = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) // a Friday
	tok := []string{"Authorization", "Bearer " + testToken}
	r := hs.do(t, "GET", "/v1/get-client-carriers", "")
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Contains(t, r.Env.Data, "rayo")

	r = hs.do(t, "POST", "/v1/get-shipments-rates", "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001"+
		"&parcels[0][parcel_weight]=2&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000")
	require.Equal(t, 200, r.Code, r.Raw)
	assert.NotNil(t, r.Env.Data["best_price_service"])

	ship := "shipping_date=2026-11-23&service_type=custom&carrier_code=rayo&service_code=rayo-48&shipping_client_ref=NAT-1" +
		"&from_name=Tienda&from_address=Calle+1&from_city=Madrid&from_zip_code=28014&from_country_code=ES" +
		"&to_name=Ana&to_address=Calle+2&to_city=Barcelona&to_zip_code=08001&to_country_code=ES&to_phone=600000000" +
		"&parcels[0][parcel_weight]=2&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000"
	r = hs.do(t, "POST", "/v1/new-shipment", ship, tok...)
	require.Equal(t, 200, r.Code, r.Raw)
	dlvr, _ := r.Env.Data["shipping_dlvr_ref"].(string)
	require.NotEmpty(t, dlvr)

	r = hs.do(t, "GET", "/v1/get-shipment-label?dlvr_ref="+dlvr, "", tok...)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.NotEmpty(t, r.Env.Data["label_raw"])
	r = hs.do(t, "GET", "/v1/get-shipment-tracking?client_ref=NAT-1", "", tok...)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, dlvr, r.Env.Data["shipping_dlvr_ref"])

	// Wrong credentials configured for the sandbox are the merchant's
	// problem, not the shopper's: 502 naming the secrets. The sandbox
	// takes whatever API_USER/API_KEY say, so this goes through a remote
	// sandbox with other credentials.
	srv := httptest.NewServer(sandbox.New(sandbox.WithCredentials("other", "key")))
	defer srv.Close()
	hs2 := newHarness(baseEnv(srv.URL+"/v1"), srv.Client())
	r = hs2.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, 502, r.Code)
	assert.Contains(t, r.message(), "API_USER and API_KEY")
}

// Field error messages follow Accept-Language; codes and fields do not.
func TestValidationMessagesInTheShoppersLanguage(t *testing.T) {
	hs := newHarness(baseEnv(""), nil)
	body := "from_country_code=ES&from_zip_code=00001&to_country_code=ES&to_zip_code=08001" +
		"&parcels%5B0%5D%5Bparcel_weight%5D=1&parcels%5B0%5D%5Bparcel_width%5D=1&parcels%5B0%5D%5Bparcel_height%5D=1" +
		"&parcels%5B0%5D%5Bparcel_length%5D=1&parcels%5B0%5D%5Bparcel_volume%5D=1"
	for lang, want := range map[string]string{
		"":                        "Spanish postal codes start with a province number from 01 to 52.",
		"es-ES,es;q=0.9,en;q=0.8": "Los códigos postales españoles empiezan por el número de provincia, del 01 al 52.",
		"da, nl;q=0.5":            "Spaanse postcodes beginnen met een provincienummer van 01 tot en met 52.",
		"zh-CN":                   "Spanish postal codes start with a province number from 01 to 52.",
	} {
		r := hs.do(t, "POST", "/v1/get-shipments-rates", body, "Accept-Language", lang)
		require.Equal(t, 400, r.Code, lang)
		e := r.Env.Data["errors"].([]any)[0].(map[string]any)
		assert.Equal(t, "from_zip_code", e["field"], lang)
		assert.Equal(t, want, e["message"], lang)
		assert.Equal(t, "from_zip_code: "+want, r.message(), lang)
	}
}

// setEnv changes a variable and makes the handler read its configuration
// again, as a fresh instance would (it reads it once per instance).
func (hs *harness) setEnv(k, v string) {
	hs.env[k] = v
	hs.h.cfgOnce = sync.Once{}
}
