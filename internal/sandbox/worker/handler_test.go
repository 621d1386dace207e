package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/sandbox"
)

// mapKV is a namespace in memory that pages its listings two keys at a
// time, so that the store's paging is exercised.
type mapKV struct {
	m     map[string]string
	pages int
}

func (k *mapKV) Get(key string) (string, bool, error) {
	v, ok := k.m[key]
	return v, ok, nil
}

func (k *mapKV) Put(key, value string) error {
	k.m[key] = value
	return nil
}

func (k *mapKV) List(prefix, cursor string) ([]string, string, error) {
	k.pages++
	var keys []string
	for key := range k.m {
		if strings.HasPrefix(key, prefix) && key > cursor {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	if len(keys) > 2 {
		return keys[:2], keys[1], nil
	}
	return keys, "", nil
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func serve(t *testing.T, h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, target, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, target, nil)
	}
	req.SetBasicAuth("u", "k")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var good = map[string]string{EnvUser: "u", EnvKey: "k"}

func TestMisconfiguredSandboxFailsClosed(t *testing.T) {
	store := func() (sandbox.Store, error) { return kvStore{ns: &mapKV{m: map[string]string{}}}, nil }
	for _, c := range []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{}, []string{"SANDBOX_USER is not set", "SANDBOX_KEY is not set", "wrangler secret put SANDBOX_KEY"}},
		{map[string]string{EnvUser: "u", EnvKey: "k", EnvTimeScale: "0.5"}, []string{"SANDBOX_TIME_SCALE must be a number from 1 to 1000000"}},
		{map[string]string{EnvUser: "u", EnvKey: "k", EnvRules: "yes"}, []string{"RULES_FEATURE must be true or false"}},
	} {
		h := newHandler(platform{getenv: env(c.env), store: store})
		for _, path := range []string{"/healthz", "/v1/get-client-carriers"} {
			rec := serve(t, h, http.MethodGet, path, "")
			assert.Equal(t, 500, rec.Code, path)
			for _, w := range c.want {
				assert.Contains(t, rec.Body.String(), w, path)
			}
			assert.Contains(t, rec.Body.String(), `"errorCode":999`)
		}
	}
	h := newHandler(platform{getenv: env(good), store: func() (sandbox.Store, error) { return nil, errors.New("SANDBOX_KV is undefined") }})
	rec := serve(t, h, http.MethodGet, "/healthz", "")
	assert.Equal(t, 500, rec.Code)
	assert.Contains(t, rec.Body.String(), "SANDBOX_KV (KV namespace binding) is not available")
	// The key is never echoed.
	h = newHandler(platform{getenv: env(map[string]string{EnvUser: "u", EnvKey: "secret-key-value", EnvRules: "maybe"}), store: store})
	assert.NotContains(t, serve(t, h, http.MethodGet, "/healthz", "").Body.String(), "secret-key-value")
}

// A shipment booked through the worker's handler lands in KV as base64
// records, is found again by a fresh handler (as under workerd, an
// instance per request) and is listed across KV pages.
func TestBookingPersistsInKV(t *testing.T) {
	ns := &mapKV{m: map[string]string{}}
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC) // a Monday
	p := platform{getenv: env(good), store: func() (sandbox.Store, error) { return kvStore{ns: ns}, nil }, now: func() time.Time { return now }}

	rec := serve(t, newHandler(p), http.MethodGet, "/healthz", "")
	require.Equal(t, 200, rec.Code)
	assert.JSONEq(t, `{"status":"ok","data":{"service":"parcelgate-sandbox"}}`, rec.Body.String())

	rec = serve(t, newHandler(p), http.MethodGet, "/v1/get-client-carriers", "")
	require.Equal(t, 200, rec.Code, rec.Body.String())

	var refs []string
	for _, ref := range []string{"KV-1", "KV-2", "KV-3"} {
		v := url.Values{
			"shipping_date": {"2026-11-24"}, "service_type": {"custom"}, "carrier_code": {"rayo"},
			"service_code": {"rayo-24"}, "shipping_client_ref": {ref}, "from_name": {"Tienda"},
			"from_address": {"Calle 1"}, "from_city": {"Madrid"}, "from_zip_code": {"28013"},
			"from_country_code": {"ES"}, "to_name": {"Ana"}, "to_address": {"Calle 2"}, "to_city": {"Sevilla"},
			"to_zip_code": {"41001"}, "to_country_code": {"ES"}, "to_phone": {"600000001"},
			"parcels[0][parcel_weight]": {"2"}, "parcels[0][parcel_width]": {"20"}, "parcels[0][parcel_height]": {"10"},
			"parcels[0][parcel_length]": {"30"}, "parcels[0][parcel_volume]": {"6000"},
		}
		rec = serve(t, newHandler(p), http.MethodPost, "/v1/new-shipment", v.Encode())
		require.Equal(t, 200, rec.Code, rec.Body.String())
		i := strings.Index(rec.Body.String(), `"shipping_dlvr_ref":"`)
		require.Positive(t, i)
		refs = append(refs, rec.Body.String()[i+21:i+21+13])
	}
	for k, v := range ns.m {
		if strings.HasPrefix(k, "shp/") {
			assert.NotEmpty(t, v)
			assert.NotContains(t, v, "\x00", "records are base64 text")
		}
	}
	rec = serve(t, newHandler(p), http.MethodGet, "/v1/get-shipment?dlvr_ref="+refs[0], "")
	assert.Equal(t, 200, rec.Code, rec.Body.String())
	ns.pages = 0
	rec = serve(t, newHandler(p), http.MethodGet, "/v1/get-shipments", "")
	require.Equal(t, 200, rec.Code, rec.Body.String())
	for _, ref := range refs {
		assert.Contains(t, rec.Body.String(), ref)
	}
	assert.GreaterOrEqual(t, ns.pages, 2, "the listing was read across pages")

	// Wrong credentials: the sandbox's own 401.
	req := httptest.NewRequest(http.MethodGet, "/v1/get-client-carriers", nil)
	req.SetBasicAuth("u", "wrong")
	w := httptest.NewRecorder()
	newHandler(p).ServeHTTP(w, req)
	assert.Equal(t, 401, w.Code)
}

func TestKVStoreRefusesAValueThatIsNotBase64(t *testing.T) {
	s := kvStore{ns: &mapKV{m: map[string]string{"shp/X": "not base64!"}}}
	_, _, err := s.Get(context.Background(), "shp/X")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "shp/X")
	_, ok, err := s.Get(context.Background(), "shp/none")
	assert.NoError(t, err)
	assert.False(t, ok)
}

// Faults on demand: the Sandbox-Fault header, else SANDBOX_FAULT; a
// dropped connection is a network failure at the client.
func TestFaults(t *testing.T) {
	rates := "from_country_code=ES&from_zip_code=28013&to_country_code=ES&to_zip_code=41001&parcels[0][parcel_weight]=2&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000"
	for _, c := range []struct {
		setting, header string
		status          int
		slept           time.Duration
		contains        string
	}{
		{"", "", 200, 0, `"status":"ok"`},
		{"", "status=503", 503, 0, `sandbox fault: HTTP 503`},
		{"", "delay=9000", 200, 9 * time.Second, `"status":"ok"`},
		{"", "delay=250, status=500", 500, 250 * time.Millisecond, `"errorCode":999`},
		{"status=503", "", 503, 0, `sandbox fault`},
		{"status=503", "none", 200, 0, `"status":"ok"`},
		{"", "delay=61000", 400, 0, `Sandbox-Fault: delay must be a whole number of milliseconds from 0 to 60000`},
		{"", "status=200", 400, 0, `Sandbox-Fault: status must be an HTTP status from 400 to 599`},
		{"", "slow", 400, 0, `Sandbox-Fault: \"slow\" is not delay=<ms>, status=<code> or drop`},
		{"", "drop,status=503", 400, 0, `drop and status exclude each other`},
	} {
		var slept time.Duration
		sb := sandbox.New(sandbox.WithCredentials("u", "k"), sandbox.WithSleep(func(d time.Duration) { slept += d }))
		if c.setting != "" {
			f, err := sandbox.ParseFault(c.setting)
			require.NoError(t, err)
			sb = sandbox.New(sandbox.WithCredentials("u", "k"), sandbox.WithFault(f), sandbox.WithSleep(func(d time.Duration) { slept += d }))
		}
		req := httptest.NewRequest("POST", "/v1/get-shipments-rates", strings.NewReader(rates))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth("u", "k")
		if c.header != "" {
			req.Header.Set(sandbox.HeaderFault, c.header)
		}
		w := httptest.NewRecorder()
		sb.ServeHTTP(w, req)
		assert.Equal(t, c.status, w.Code, "%s / %s: %s", c.setting, c.header, w.Body)
		assert.Contains(t, w.Body.String(), c.contains, c.header)
		assert.Equal(t, c.slept, slept, c.header)
	}

	// The worker reads SANDBOX_FAULT; a bad one is a misconfiguration.
	vars := map[string]string{EnvUser: "u", EnvKey: "k", EnvFault: "status=502"}
	h := newHandler(platform{getenv: env(vars), store: func() (sandbox.Store, error) { return sandbox.NewMemoryStore(), nil }})
	r := serveAuth(t, h, "/v1/get-client-carriers")
	assert.Equal(t, 502, r.Code, r.Body.String())
	vars[EnvFault] = "sometimes"
	r = serveAuth(t, h, "/v1/get-client-carriers")
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.Body.String(), "SANDBOX_FAULT must be like the Sandbox-Fault header")

	// drop: the connection closes without an answer.
	srv := httptest.NewServer(sandbox.New(sandbox.WithCredentials("u", "k")))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/v1/get-client-carriers", nil)
	req.SetBasicAuth("u", "k")
	req.Header.Set(sandbox.HeaderFault, "drop")
	res, err := srv.Client().Do(req)
	if err == nil {
		_, err = io.ReadAll(res.Body)
		res.Body.Close()
	}
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "a dropped connection is a network failure")
	req.Header.Del(sandbox.HeaderFault)
	res, err = srv.Client().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 200, res.StatusCode)
}

func serveAuth(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	req.SetBasicAuth("u", "k")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}
