//go:build !(js && wasm)

// Package e2e runs the built worker (build/worker) under real workerd with
// wrangler dev: all thirteen operations against the sandbox worker (its KV
// persisted), then against a recording fake upstream on 127.0.0.1.
//
// Run with `make test-worker-e2e` (builds first), or
// PARCELGATE_E2E=1 go test ./worker/e2e/ after `make worker sandbox-worker`. Without
// PARCELGATE_E2E=1 the tests are skipped.
package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/sandbox/holidays"
	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

const (
	user  = "e2e-user"
	key   = "e2e-SECRET-key-do-not-leak"
	token = "e2e-proxy-token-0123456789abcdefgh"
	// signingKey is TOKEN_SIGNING_KEY where /healthz must be 200 (every
	// required secret set).
	signingKey = "e2e-token-signing-key-0123456789abcdefghij"
	shop       = "https://shop.example"
)

func skipUnlessE2E(t *testing.T) {
	if os.Getenv("PARCELGATE_E2E") != "1" {
		t.Skip("set PARCELGATE_E2E=1 (make test-worker-e2e) to run the worker under workerd")
	}
}

func start(t *testing.T, o wranglerdev.Options) *wranglerdev.Server {
	t.Helper()
	s, err := wranglerdev.Start(o)
	require.NoError(t, err)
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("wrangler output:\n%s", s.Logs())
		}
	})
	return s
}

type result struct {
	Code   int
	Header http.Header
	Raw    string
	Status string
	Data   map[string]any
	List   []any
}

var client = &http.Client{Timeout: 30 * time.Second}

// call sends a raw request; params are form-encoded into the query (GET) or
// the body (POST). Operations as a shop calls them go through the client
// (edge, client_test.go); call is for what it never sends: other paths and
// methods, raw or malformed input, browser headers, a fake service's data.
func call(t *testing.T, base, method, op string, params url.Values, hdr ...string) *result {
	t.Helper()
	target := base + "/v1/" + op
	var body io.Reader
	enc := params.Encode()
	if method == http.MethodGet && enc != "" {
		target += "?" + enc
	} else if method == http.MethodPost {
		body = strings.NewReader(enc)
	}
	req, err := http.NewRequest(method, target, body)
	require.NoError(t, err)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	r := &result{Code: res.StatusCode, Header: res.Header, Raw: string(b)}
	assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"), "%s %s", method, op)
	assert.NotEmpty(t, res.Header.Get("X-Request-Id"))
	assert.Contains(t, res.Header.Get("Server-Timing"), "edge;dur=")
	assert.NotContains(t, r.Raw, key)
	var env struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &env), "%s %s: %s", method, op, r.Raw)
	r.Status = env.Status
	_ = json.Unmarshal(env.Data, &r.Data)
	_ = json.Unmarshal(env.Data, &r.List)
	return r
}

// demoToken calls /demo/token and returns the status and decoded body.
func demoToken(t *testing.T, base, method string, offer ...string) (int, map[string]any) {
	t.Helper()
	body := "shipping_client_ref=DEMO-E2E"
	for _, o := range offer {
		body += "&offer=" + url.QueryEscape(o) // since issue 30, the quoted service's offer
	}
	req, err := http.NewRequest(method, base+"/demo/token", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.NotContains(t, string(b), key)
	assert.NotContains(t, string(b), token)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out), string(b))
	return res.StatusCode, out
}

func bearer() []string { return []string{"Authorization", "Bearer " + token} }

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// nextWorkingDay is the first Spanish working day after today (Madrid).
func nextWorkingDay() string {
	madrid := time.FixedZone("CET", 3600)
	return holidays.NextWorkingDay(time.Now().In(madrid).AddDate(0, 0, 1)).Format("2006-01-02")
}

func route(v url.Values) url.Values {
	v.Set("from_country_code", "ES")
	v.Set("from_zip_code", "28014")
	v.Set("to_country_code", "ES")
	v.Set("to_zip_code", "08001")
	return v
}

func parcel(v url.Values) url.Values {
	v.Set("parcels[0][parcel_weight]", "2.5")
	v.Set("parcels[0][parcel_width]", "20")
	v.Set("parcels[0][parcel_height]", "10")
	v.Set("parcels[0][parcel_length]", "30")
	v.Set("parcels[0][parcel_volume]", "6000")
	return v
}

func parties(v url.Values) url.Values {
	for k, val := range map[string]string{
		"from_name": "Tienda Ñandú", "from_address": "Calle de Alcalá 1", "from_city": "Madrid",
		"from_phone": "910000000", "to_name": "Ana & Co", "to_address": "Carrer de Pau Claris 1",
		"to_city": "Barcelona", "to_phone": "600000000",
	} {
		v.Set(k, val)
	}
	return route(v)
}

// TestSandboxFlow walks all thirteen operations against the
// sandbox worker, then restarts wrangler on the same state and finds the
// shipment again.
func TestSandboxFlow(t *testing.T) {
	skipUnlessE2E(t)
	persist := t.TempDir()
	opts := wranglerdev.Options{Sandbox: true, PersistDir: persist, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "TOKEN_SIGNING_KEY": "e2e-token-signing-key-0123456789abcdef",
		"API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "LOG_REQUESTS": "all", "ALLOWED_ORIGINS": shop,
	}}
	s := start(t, opts)
	B := s.URL

	r := call(t, B, "GET", "healthz", nil) // raw: /v1/healthz is no operation (the 404 is the point)
	assert.Equal(t, 404, r.Code, "healthz is not an operation")
	res, err := client.Get(B + "/healthz")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 200, res.StatusCode)
	// An uptime monitor's HEAD: 200, headers, no body.
	res, err = client.Head(B + "/healthz")
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, 200, res.StatusCode)
	assert.Empty(t, body)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))

	// 1-2 catalog, through the client as a shop's server calls the edge.
	ctx := context.Background()
	c := edge(t, B)
	pub := edge(t, B, edgeclient.WithToken(""))
	carriers, err := pub.GetClientCarriers(ctx)
	ok(t, carriers, err)
	_, hasRayo := carriers.Data.Get("rayo")
	assert.True(t, hasRayo)
	services, err := pub.GetClientServices(ctx, edgeclient.GetClientServicesParams{CarrierCode: "rayo", Status: "1"})
	ok(t, services, err)
	assert.NotEmpty(t, services.Data)

	// 3-7 quotes and information (public, no token).
	madrid := edgeclient.GetShipmentsRatesParams{FromCountryCode: "ES", FromZipCode: "28014", ToCountryCode: "ES", ToZipCode: "08001",
		Parcels: []edgeclient.Parcel{{Weight: "2.5", Width: "20", Height: "10", Length: "30", Volume: "6000"}}}
	rates, err := pub.With(edgeclient.WithHeader("Origin", shop)).GetShipmentsRates(ctx, madrid)
	ok(t, rates, err)
	assert.Equal(t, shop, rates.Header.Get("Access-Control-Allow-Origin"))
	assert.NotNil(t, rates.Data.BestPriceService)
	day := nextWorkingDay()
	arrival, err := pub.GetShipmentTimeArrivalEstimation(ctx, edgeclient.GetShipmentTimeArrivalEstimationParams{
		FromCountryCode: "ES", FromZipCode: "28014", ToCountryCode: "ES", ToZipCode: "08001", ShippingDate: day})
	ok(t, arrival, err)
	assert.NotNil(t, arrival.Data.BestArrivalTime)
	info, err := pub.GetServiceInfo(ctx, edgeclient.GetServiceInfoParams{CarrierCode: "rayo", ServiceCode: "rayo-48",
		FromCountryCode: "ES", FromZipCode: "28014", ToCountryCode: "ES", ToZipCode: "08001"})
	ok(t, info, err)
	assert.NotEmpty(t, info.Data.Schemas)
	points, err := pub.GetDropPoints(ctx, edgeclient.GetDropPointsParams{CountryCode: "es", ZipCode: "28014"})
	ok(t, points, err)
	assert.NotEmpty(t, points.Data.DropPoints)
	cutoff, err := pub.GetCollectionCutoffHour(ctx, edgeclient.GetCollectionCutoffHourParams{CountryCode: "ES", ZipCode: "28014",
		ToCountryCode: "ES", ToZipCode: "08001", CarrierCode: "rayo"})
	ok(t, cutoff, err)
	assert.Regexp(t, `^\d\d:\d\d$`, cutoff.Data.Cutoff)

	// The demo shop's token (sandbox only): never the secrets, and
	// enough to book.
	offer := quotedOffer(t, B, "rayo", "rayo-48")
	code, dt := demoToken(t, B, "POST", offer)
	require.Equal(t, 200, code, "%v", dt)
	tok := str(dt["data"].(map[string]any), "token")
	require.True(t, strings.HasPrefix(tok, "pgt1."), "%v", dt)
	assert.NotContains(t, tok, token)
	order := func(ref string) edgeclient.NewShipmentParams {
		return edgeclient.NewShipmentParams{ShippingDate: day, ServiceType: "custom", CarrierCode: "rayo", ServiceCode: "rayo-48",
			ShippingClientRef: ref, FromName: "Tienda Ñandú", FromAddress: "Calle de Alcalá 1", FromCity: "Madrid", FromPhone: "910000000",
			FromZipCode: "28014", FromCountryCode: "ES", ToName: "Ana & Co", ToAddress: "Carrer de Pau Claris 1", ToCity: "Barcelona",
			ToPhone: "600000000", ToZipCode: "08001", ToCountryCode: "ES", Parcels: madrid.Parcels,
			Offer: offer} // since issue 30: the quoted offer
	}
	demo := c.With(edgeclient.WithToken(tok))
	booked, err := demo.NewShipment(ctx, order("DEMO-E2E"))
	ok(t, booked, err)
	assert.NotEmpty(t, booked.Data.ShippingDlvrRef)
	_, err = demo.GetShipmentTracking(ctx, edgeclient.GetShipmentTrackingParams{ClientRef: "DEMO-E2E"})
	assert.NoError(t, err, "the order's own tracking")
	_, err = demo.GetShipments(ctx, edgeclient.GetShipmentsParams{FilterShippingClientRef: "DEMO-E2E"})
	assert.Equal(t, 403, refused(t, err).HTTPStatus, "a demo token never lists shipments")
	_, err = c.With(edgeclient.WithToken(tok+"x")).GetShipmentTracking(ctx, edgeclient.GetShipmentTrackingParams{ClientRef: "DEMO-E2E"})
	assert.Equal(t, 401, refused(t, err).HTTPStatus, "a tampered demo token is refused")

	// Validation at the edge.
	_, err = pub.GetDropPoints(ctx, edgeclient.GetDropPointsParams{CountryCode: "ES", ZipCode: "99999"})
	e := refused(t, err)
	assert.Equal(t, 400, e.HTTPStatus)
	assert.Contains(t, e.Message, "zip_code")
	_, found := e.Field("zip_code")
	assert.True(t, found, "%+v", e.FieldErrors)

	// 8 booking: token required.
	ref := "E2E-" + strconv.FormatInt(time.Now().Unix(), 36)
	_, err = pub.NewShipment(ctx, order(ref))
	assert.Equal(t, 401, refused(t, err).HTTPStatus)
	shipped, err := c.NewShipment(ctx, order(ref))
	ok(t, shipped, err)
	dlvr := shipped.Data.ShippingDlvrRef
	require.NotEmpty(t, dlvr)
	assert.Equal(t, ref, shipped.Data.ShippingClientRef)
	assert.False(t, shipped.Replayed)

	// 9-12 label, shipment, list, tracking.
	label, err := c.GetShipmentLabel(ctx, edgeclient.GetShipmentLabelParams{DlvrRef: dlvr})
	ok(t, label, err)
	assert.True(t, strings.HasPrefix(string(label.Data.PDF), "%PDF-"))
	one, err := c.GetShipment(ctx, edgeclient.GetShipmentParams{DlvrRef: dlvr})
	ok(t, one, err)
	assert.Equal(t, dlvr, one.Data.ShippingData.ShippingDlvrRef)
	list, err := c.GetShipments(ctx, edgeclient.GetShipmentsParams{FilterShippingClientRef: ref})
	ok(t, list, err)
	assert.EqualValues(t, 1, list.Data.NShipments)
	tracking, err := c.GetShipmentTracking(ctx, edgeclient.GetShipmentTrackingParams{DlvrRef: dlvr})
	ok(t, tracking, err)
	assert.Equal(t, dlvr, tracking.Data.ShippingDlvrRef)

	// 13 collection for the shipment.
	col, err := c.NewCollection(ctx, edgeclient.NewCollectionParams{CollectionDate: day, HourStart1: "10:00", HourEnd1: "14:00",
		CarrierCode: "rayo", ServiceCode: "rayo-48", ShippingDlvrRef: dlvr, CollectionClientRef: ref + "C",
		FromName: "Tienda Ñandú", FromAddress: "Calle de Alcalá 1", FromCity: "Madrid", FromZipCode: "28014", FromCountryCode: "ES",
		ToName: "Ana & Co", ToAddress: "Carrer de Pau Claris 1", ToCity: "Barcelona", ToPhone: "600000000", ToZipCode: "08001", ToCountryCode: "ES"})
	ok(t, col, err)
	assert.NotEmpty(t, col.Data.CollectionDlvrRef)

	// An unknown reference is the sandbox's refusal, relayed.
	_, err = c.GetShipment(ctx, edgeclient.GetShipmentParams{DlvrRef: "SBX0000000000"})
	e = refused(t, err)
	assert.Contains(t, string(e.Body), `"status":"err"`)
	assert.Equal(t, 404, e.HTTPStatus)
	assert.Empty(t, e.Source, "the service's refusal, not the edge's")

	// The worker's log: one JSON line per request, no secrets, no personal data.
	// wrangler relays the worker's lines asynchronously.
	require.Eventually(t, func() bool { return strings.Contains(s.Logs(), `"op":"new-collection"`) }, 10*time.Second, 50*time.Millisecond)
	logs := s.Logs()
	assert.NotContains(t, logs, key)
	assert.NotContains(t, logs, "Ñandú")
	assert.NotContains(t, logs, "Barcelona")
	assert.Contains(t, logs, `"op":"new-collection"`)

	// worker/HTTP.md's curl examples (worker/examples.sh) all succeed.
	cmd := exec.Command("bash", "../examples.sh", B, token)
	cmd.Env = append(os.Environ(), "DAY="+day)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, 13, strings.Count(string(out), `{"status":"ok"`), "%s", out)
	assert.NotContains(t, string(out), `"status":"err"`)

	// State survives a restart of wrangler (KV under the persist folder).
	s.Stop()
	s2 := start(t, opts)
	again, err := edge(t, s2.URL).GetShipmentTracking(ctx, edgeclient.GetShipmentTrackingParams{ClientRef: ref})
	ok(t, again, err)
	assert.Equal(t, dlvr, again.Data.ShippingDlvrRef)
}

// upstream is a recording fake of the shipping service.
type upstream struct {
	mu   sync.Mutex
	reqs []recorded
	srv  *httptest.Server
}

type recorded struct {
	Method, Path, Body string
	Header             http.Header
	ContentLength      int64
	TransferEncoding   []string
}

func (u *upstream) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.reqs)
}

func (u *upstream) all() []recorded {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]recorded(nil), u.reqs...)
}

func (u *upstream) last() recorded {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.reqs[len(u.reqs)-1]
}

// newUpstream answers by the carrier_code of the request: slow, delay,
// delay-book, html-503, text-500, empty, hangup, refuse-401, reject-108;
// anything else gets ok.
func newUpstream(t *testing.T) *upstream {
	u := &upstream{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	u.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.reqs = append(u.reqs, recorded{r.Method, r.URL.Path, string(b), r.Header.Clone(), r.ContentLength, r.TransferEncoding})
		nth := len(u.reqs)
		u.mu.Unlock()
		q, _ := url.ParseQuery(string(b))
		w.Header().Set("Set-Cookie", "upstream=1")
		w.Header().Set("X-Upstream-Secret", "internal")
		// Rates and drop points for the offers' test (offers_test.go).
		switch {
		case strings.HasSuffix(r.URL.Path, "/get-shipments-rates"):
			_, _ = io.WriteString(w, offersRates)
			return
		case strings.HasSuffix(r.URL.Path, "/get-drop-points"):
			_, _ = io.WriteString(w, offersPoints)
			return
		}
		switch q.Get("carrier_code") {
		case "slow":
			select {
			case <-time.After(3 * time.Second):
			case <-r.Context().Done():
			}
			return
		case "delay":
			// A read that takes a while, to have requests in flight.
			select {
			case <-time.After(1500 * time.Millisecond):
			case <-r.Context().Done():
			}
			_, _ = io.WriteString(w, `{"status":"ok","data":{"echo":"late"}}`)
			return
		case "delay-book":
			// A booking that takes a while; each request books its own
			// shipment (PG-<its number>), as the real service does.
			select {
			case <-time.After(1500 * time.Millisecond):
			case <-r.Context().Done():
			}
			_, _ = io.WriteString(w, `{"status":"ok","data":{"shipping_dlvr_ref":"PG-`+strconv.Itoa(nth)+`","shipping_client_ref":"`+q.Get("shipping_client_ref")+`"}}`)
			return
		case "html-503":
			w.WriteHeader(503)
			_, _ = io.WriteString(w, "<html><body>Service Unavailable</body></html>")
		case "text-500":
			w.WriteHeader(500)
			_, _ = io.WriteString(w, "Internal Server Error")
		case "empty":
		case "hangup":
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		case "refuse-401":
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":401,"errorMessage":"bad credentials"}}`)
		case "reject-108":
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":108,"errorMessage":"The service is not contracted"}}`)
		default:
			_, _ = io.WriteString(w, `{"status":"ok","data":{"echo":"fine"}}`)
		}
	}))
	u.srv.Listener = l
	u.srv.Start()
	t.Cleanup(u.srv.Close)
	return u
}

// TestFakeUpstream proves what the worker sends and how it maps failures.
func TestFakeUpstream(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := start(t, wranglerdev.Options{Vars: map[string]string{
		"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "UPSTREAM_TIMEOUT_MS": "700",
		"API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey, "LOG_REQUESTS": "all", "ALLOWED_ORIGINS": shop,
	}})
	B := s.URL
	wantAuth := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+key))

	// A real upstream configured: no demo token endpoint.
	for _, m := range []string{"GET", "POST"} {
		code, body := demoToken(t, B, m)
		assert.Equal(t, 404, code, "%s /demo/token: %v", m, body)
		assert.Equal(t, "err", body["status"])
	}

	// Exact form body, injected Authorization, stripped client headers.
	n := up.count()
	form := "carrier_code=rayo&service_code=rayo-48&from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001"
	req, _ := http.NewRequest("POST", B+"/v1/get-service-info",
		strings.NewReader("to_zip_code=+08001+&to_country_code=es&from_zip_code=28014&from_country_code=ES&service_code=rayo-48&carrier_code=rayo"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range map[string]string{"Authorization": "Bearer client-token", "Cookie": "sid=shopper",
		"X-Forwarded-For": "203.0.113.7", "X-Real-Ip": "203.0.113.7", "Origin": shop, "Referer": shop + "/checkout",
		"User-Agent": "shopper-browser", "X-Custom": "leak", "Accept-Language": "es"} {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode, string(b))
	assert.Equal(t, `{"status":"ok","data":{"echo":"fine"}}`, string(b), "the envelope is relayed verbatim")
	assert.Empty(t, res.Header.Get("Set-Cookie"), "upstream headers are not copied")
	assert.Empty(t, res.Header.Get("X-Upstream-Secret"))
	assert.Equal(t, shop, res.Header.Get("Access-Control-Allow-Origin"))
	assert.Regexp(t, `upstream;dur=`, res.Header.Get("Server-Timing"))
	require.Equal(t, n+1, up.count())
	got := up.last()
	assert.Equal(t, "POST", got.Method)
	assert.Equal(t, "/v1/get-service-info", got.Path)
	assert.Equal(t, form, got.Body)
	assert.Equal(t, wantAuth, got.Header.Get("Authorization"))
	assert.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	assert.Equal(t, res.Header.Get("X-Request-Id"), got.Header.Get("X-Request-Id"))
	assert.Equal(t, "parcelgate-edge/1", got.Header.Get("User-Agent"))
	for name := range got.Header {
		l := strings.ToLower(name)
		assert.False(t, l == "cookie" || l == "origin" || l == "referer" || l == "x-custom" || l == "accept-language" ||
			strings.HasPrefix(l, "x-forwarded") || l == "x-real-ip" || strings.HasPrefix(l, "cf-") && l != "cf-worker",
			"forwarded client header %s", name)
	}
	// workerd itself adds CF-Worker (the zone of the calling worker) to every
	// subrequest; nothing else is added.
	assert.Equal(t, int64(len(form)), got.ContentLength, "fixed-length body, not chunked")
	t.Logf("forwarded body framing: Content-Length=%d Transfer-Encoding=%v; headers %v", got.ContentLength, got.TransferEncoding, got.Header)

	// GET of a read is forwarded as the same POST form.
	anon := edge(t, B, edgeclient.WithToken("")) // the public reads, as a page calls them
	r := do(t, anon, edgeclient.GetCollectionCutoffHourParams{ZipCode: "28014", CountryCode: "ES",
		ToCountryCode: "ES", ToZipCode: "08001", CarrierCode: "rayo"})
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo", up.last().Body)

	// Invalid input never reaches the upstream.
	n = up.count()
	r = do(t, anon, edgeclient.GetServiceInfoParams{CarrierCode: "rayo", FromCountryCode: "XX"})
	assert.Equal(t, 400, r.Code)
	assert.NotEmpty(t, r.Data["errors"])
	assert.Equal(t, n, up.count())

	// The token rule.
	ship := parcel(parties(url.Values{"shipping_date": {nextWorkingDay()}, "service_type": {"custom"}, "carrier_code": {"rayo"},
		"service_code": {"rayo-48"}, "shipping_client_ref": {"E2E-FAKE-1"}}))
	n = up.count()
	r = call(t, B, "POST", "new-shipment", ship) // raw: the missing token is the point
	assert.Equal(t, 401, r.Code)
	r = call(t, B, "POST", "new-shipment", ship, "Authorization", "Bearer wrong") // raw: the wrong token is the point
	assert.Equal(t, 401, r.Code)
	assert.Equal(t, n, up.count())
	r = book(t, edge(t, B), ship)
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, n+1, up.count())
	assert.Equal(t, wantAuth, up.last().Header.Get("Authorization"), "the proxy token is replaced by the upstream's Basic auth")

	// Failure mapping (reads are retried: 3 attempts; bookings are not).
	info := func(mode string) url.Values {
		return route(url.Values{"carrier_code": {mode}, "service_code": {"x-1"}})
	}
	cases := []struct {
		mode     string
		status   int
		calls    int
		contains string
	}{
		{"slow", 504, 1, "did not answer within 700 ms"},
		{"html-503", 502, 3, "HTTP 503 with an HTML page"},
		{"text-500", 502, 3, "HTTP 500"},
		{"empty", 502, 1, "empty body"},
		{"hangup", 502, 3, "could not be reached"},
		{"refuse-401", 502, 1, "API_USER and API_KEY"},
		{"reject-108", 400, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			n := up.count()
			var p edgeclient.GetServiceInfoParams
			fill(t, info(c.mode), &p)
			r := do(t, anon, p)
			assert.Equal(t, c.status, r.Code, r.Raw)
			assert.Equal(t, "err", r.Status)
			assert.Contains(t, str(r.Data, "errorMessage"), c.contains)
			assert.Equal(t, c.calls, up.count()-n, "upstream attempts")
		})
	}
	n = up.count()
	ship.Set("carrier_code", "html-503")
	ship.Set("shipping_client_ref", "E2E-FAKE-2")
	r = book(t, edge(t, B, edgeclient.WithMaxResends(0)), ship) // the first answer is asserted: no resends
	assert.Equal(t, 502, r.Code)
	assert.Equal(t, true, r.Data["retryable"], "resending is safe: the Bookings object makes it exactly-once")
	assert.Contains(t, str(r.Data, "hint"), "never books twice")
	assert.Equal(t, 1, up.count()-n, "a booking is never retried by the edge")

	// CORS: preflight for the allowed origin only.
	pre := func(origin string) *http.Response {
		req, _ := http.NewRequest("OPTIONS", B+"/v1/new-shipment", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
		res, err := client.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	res = pre(shop)
	assert.Equal(t, 200, res.StatusCode)
	assert.Equal(t, shop, res.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, res.Header.Get("Access-Control-Allow-Headers"), "Authorization")
	res = pre("https://evil.example")
	assert.Equal(t, 403, res.StatusCode)
	assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	r = call(t, B, "GET", "get-client-carriers", nil, "Origin", "https://evil.example") // raw: a browser's foreign Origin
	assert.Equal(t, 403, r.Code)
	assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"))

	// Body limit on the bytes read, under workerd.
	r = call(t, B, "POST", "get-client-services", url.Values{"carrier_code": {strings.Repeat("a", 70000)}}) // raw: an oversized body, no token
	assert.Equal(t, 413, r.Code)

	assert.NotContains(t, s.Logs(), key)
}
