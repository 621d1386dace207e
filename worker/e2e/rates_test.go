//go:build !(js && wasm)

package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// Rates with a deadline (issue 31) under workerd.

const fakeRates = `{"status":"ok","data":{"best_price_service":{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"3.90","currency":"EUR"},"services":[{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"3.90","currency":"EUR"}]}}`

// modeUpstream answers every call as its mode says: ok (rates, or a
// booking), 500, drop (the connection closed unanswered) or slow (9 s,
// then ok).
type modeUpstream struct {
	mu    sync.Mutex
	mode  string
	calls int
	// aborted counts slow calls the edge gave up before their answer.
	aborted int
	srv     *httptest.Server
}

func (u *modeUpstream) set(m string) {
	u.mu.Lock()
	u.mode = m
	u.mu.Unlock()
}

func (u *modeUpstream) abortedCalls() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.aborted
}

func (u *modeUpstream) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.calls
}

func newModeUpstream(t *testing.T) *modeUpstream {
	u := &modeUpstream{mode: "ok"}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	u.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		u.mu.Lock()
		mode := u.mode
		u.calls++
		u.mu.Unlock()
		switch mode {
		case "500":
			w.WriteHeader(500)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":999,"errorMessage":"down"}}`)
			return
		case "drop":
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		case "slow":
			select {
			case <-time.After(9 * time.Second):
			case <-r.Context().Done():
				u.mu.Lock()
				u.aborted++
				u.mu.Unlock()
				return
			}
		}
		if r.URL.Path == "/v1/new-shipment" {
			_, _ = io.WriteString(w, `{"status":"ok","data":{"shipping_dlvr_ref":"PG-1"}}`)
			return
		}
		_, _ = io.WriteString(w, fakeRates)
	}))
	u.srv.Listener = l
	u.srv.Start()
	t.Cleanup(u.srv.Close)
	return u
}

// rateParams are the typed parameters of a rates request held as a form.
func rateParams(t *testing.T, v url.Values) edgeclient.GetShipmentsRatesParams {
	t.Helper()
	var p edgeclient.GetShipmentsRatesParams
	fill(t, v, &p)
	return p
}

func rates(to, zip string) url.Values {
	v := parcel(route(url.Values{}))
	v.Set("to_country_code", to)
	v.Set("to_zip_code", zip)
	return v
}

// After a live answer for a route, the same request with the upstream
// answering 500, dropping the connection or taking 9 s is answered ok
// from the recent answer; with no recent answer from the fallback table;
// with neither, today's error; a booking with the upstream down never
// succeeds.
func TestRatesWithADeadline(t *testing.T) {
	skipUnlessE2E(t)
	up := newModeUpstream(t)
	s := start(t, wranglerdev.Options{Vars: map[string]string{
		"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token,
		"TOKEN_SIGNING_KEY": signingKey, "LOG_REQUESTS": "all", "ALLOWED_ORIGINS": shop,
		"RATES_DEADLINE_MS": "1500", "RATES_FALLBACK": "PT:home=7.90,drop=4.50",
	}})
	B := s.URL
	es := rates("ES", "08001")

	r := do(t, edge(t, B), rateParams(t, es))
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "live", r.Header.Get("Rates-Source"))
	assert.Equal(t, "live", r.Data["source"])
	assert.NotNil(t, r.Data["best_price_service"])

	for _, mode := range []string{"500", "drop", "slow"} {
		t.Run(mode, func(t *testing.T) {
			up.set(mode)
			n := up.count()
			t0 := time.Now()
			r := do(t, edge(t, B), rateParams(t, es))
			t.Logf("%s: answered in %v", mode, time.Since(t0))
			require.Equal(t, 200, r.Code, r.Raw)
			assert.Equal(t, "recent", r.Header.Get("Rates-Source"))
			assert.Equal(t, "recent", r.Data["source"])
			svc := r.Data["services"].([]any)[0].(map[string]any)
			assert.Equal(t, "swiftpost-shop", svc["service_code"], "the live answer's services")
			assert.Greater(t, up.count(), n, "the upstream was asked")
			// The browser Client's form: normalized data keeps its source.
			nres, err := edge(t, B, edgeclient.WithNormalized(true)).Call(context.Background(), rateParams(t, es))
			nr := asResult(t, nres, err)
			require.Equal(t, 200, nr.Code, nr.Raw)
			assert.True(t, nres.Normalized)
			assert.Equal(t, "normalized", nr.Header.Get("Parcelgate-Data"))
			assert.Equal(t, "recent", nr.Data["source"])
			assert.Equal(t, true, nr.Data["services"].([]any)[0].(map[string]any)["is_drop_point"])
			if mode == "slow" {
				// Two late calls for one route: the first refreshes the
				// store, the second is aborted (one refresh per route in an
				// isolate), well before the 9 s answer would have come.
				assert.Eventually(t, func() bool { return up.abortedCalls() == 1 }, 5*time.Second, 50*time.Millisecond, "the second late call aborted")
			}
		})
	}

	// No recent answer for this route: the fallback table's PT row.
	up.set("500")
	r = do(t, edge(t, B), rateParams(t, rates("PT", "1000-001")))
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "fallback", r.Header.Get("Rates-Source"))
	assert.Equal(t, "fallback", r.Data["source"])
	best := r.Data["best_price_service"].(map[string]any)
	assert.Equal(t, "fallback-drop", best["service_code"])
	assert.Equal(t, 4.5, best["price"])
	assert.Len(t, r.Data["services"], 2)
	// In the shopper's language: the fallback services' names (codes unchanged).
	r = do(t, edge(t, B, edgeclient.WithHeader("Accept-Language", "pt-PT,pt;q=0.9")), rateParams(t, rates("PT", "1000-001")))
	require.Equal(t, 200, r.Code, r.Raw)
	best = r.Data["best_price_service"].(map[string]any)
	assert.Equal(t, "Entrega em ponto de recolha", best["service_name"])
	assert.Equal(t, "Tarifa padrão", best["carrier_name"])
	assert.Equal(t, "fallback-drop", best["service_code"])

	// Neither: today's error.
	r = do(t, edge(t, B), rateParams(t, rates("FR", "75001")))
	assert.Equal(t, 502, r.Code, r.Raw)
	assert.Equal(t, "err", r.Status)
	assert.Empty(t, r.Header.Get("Rates-Source"))

	// A failure of the request itself is never hidden: invalid input is 400.
	bad := rates("ES", "08001")
	bad.Set("to_country_code", "XX")
	r = do(t, edge(t, B), rateParams(t, bad))
	assert.Equal(t, 400, r.Code, r.Raw)

	// Bookings never come from stored data.
	for _, mode := range []string{"500", "drop"} {
		up.set(mode)
		ship := parcel(parties(url.Values{"shipping_date": {nextWorkingDay()}, "service_type": {"custom"}, "carrier_code": {"swiftpost"},
			"service_code": {"swiftpost-shop"}, "shipping_client_ref": {"E2E-RATES-" + mode}}))
		r = book(t, edge(t, B, edgeclient.WithMaxResends(0)), ship) // the first answer is asserted: no resends
		assert.NotEqual(t, 200, r.Code, "%s: %s", mode, r.Raw)
		assert.Equal(t, "err", r.Status)
		assert.Empty(t, r.Header.Get("Rates-Source"))
	}

	// The upstream back: live again, and the late call of the slow case
	// had refreshed the store (the store's answer is the live one).
	up.set("ok")
	r = do(t, edge(t, B), rateParams(t, es))
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "live", r.Header.Get("Rates-Source"))
}

// The sandbox's faults through the edge (UPSTREAM_BASE_URL=sandbox: the
// edge passes a client's Sandbox-Fault on to the sandbox only): drop is a
// network failure to the edge's fetch under workerd, status=503 an
// upstream error, and both are answered from the recent answer.
func TestSandboxFaultsThroughTheEdge(t *testing.T) {
	skipUnlessE2E(t)
	s := start(t, wranglerdev.Options{Sandbox: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token,
		"TOKEN_SIGNING_KEY": signingKey, "LOG_REQUESTS": "all", "ALLOWED_ORIGINS": shop, "RATES_DEADLINE_MS": "1000",
	}})
	B := s.URL
	// No stored answer for this route yet: today's errors, which show what
	// the edge's fetch saw.
	other := rates("ES", "41001")
	r := do(t, edge(t, B, edgeclient.WithHeader("Sandbox-Fault", "drop")), rateParams(t, other))
	assert.Equal(t, 502, r.Code, r.Raw)
	assert.Contains(t, r.Raw, "upstream_unreachable", "a dropped connection is a network failure to the edge")
	r = do(t, edge(t, B, edgeclient.WithHeader("Sandbox-Fault", "status=503")), rateParams(t, other))
	assert.Equal(t, 502, r.Code, r.Raw)
	assert.Contains(t, r.Raw, "upstream_error")
	r = do(t, edge(t, B, edgeclient.WithHeader("Sandbox-Fault", "status=500")), edgeclient.GetClientCarriersParams{})
	assert.Equal(t, 502, r.Code, "a fault on another read: %s", r.Raw)
	r = do(t, edge(t, B, edgeclient.WithHeader("Sandbox-Fault", "status=418")), edgeclient.GetClientCarriersParams{})
	assert.Equal(t, 418, r.Code, "a 4xx of the upstream is its refusal, relayed: %s", r.Raw)

	es := rates("ES", "08001")
	r = do(t, edge(t, B), rateParams(t, es))
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "live", r.Header.Get("Rates-Source"))
	for _, f := range []string{"drop", "status=503", "delay=5000"} {
		r = do(t, edge(t, B, edgeclient.WithHeader("Sandbox-Fault", f)), rateParams(t, es))
		require.Equal(t, 200, r.Code, "%s: %s", f, r.Raw)
		assert.Equal(t, "recent", r.Header.Get("Rates-Source"), f)
		assert.Equal(t, "recent", r.Data["source"], f)
	}
}
