package edge

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const bookedAnswer = `{"status":"ok","data":{"shipping_dlvr_ref":"DLV1","shipping_client_ref":"ORD-77","shipping_carrier_ref":"C1","shipping_carrier_guid":"G1","service_type":"custom","carrier_code":"rapido","service_code":"rapido-48h","carrier_phone":"900","advance_tracking_url":"https://t.example/DLV1"}}`

// bookingUpstream books new-shipment requests (counting them), answers
// get-shipments from what it booked, and fails on demand.
type bookingUpstream struct {
	*fakeUpstream
	mu      sync.Mutex
	booked  map[string]bool // client refs
	release chan struct{}   // when set, bookings wait for it
	mode    string          // "", "hangup", "reject", "5xx"
}

func newBookingUpstream(t *testing.T) *bookingUpstream {
	b := &bookingUpstream{booked: map[string]bool{}}
	b.fakeUpstream = newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		b.mu.Lock()
		mode, release := b.mode, b.release
		b.mu.Unlock()
		reqs := b.requests()
		q, _ := url.ParseQuery(reqs[len(reqs)-1].Body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/get-shipments"):
			ref := q.Get("filter_shipping_client_ref")
			b.mu.Lock()
			found := b.booked[ref]
			b.mu.Unlock()
			if !found {
				_, _ = io.WriteString(w, `{"status":"ok","data":{"page":1,"n_shipments":0,"shipments":[]}}`)
				return
			}
			_, _ = io.WriteString(w, `{"status":"ok","data":{"page":1,"n_shipments":1,"shipments":[{"shipping_data":{"shipping_dlvr_ref":"DLV1","shipping_client_ref":"`+ref+`","shipping_carrier_ref":"C1","shipping_carrier_guid":"G1","service_type":"custom","carrier_code":"rapido","service_code":"rapido-48h","carrier_phone":"900","status":"1"},"to_data":{"to_name":"Ana"}}]}}`)
		case mode == "drop":
			// Slower than the edge's timeout, and nothing booked.
			time.Sleep(400 * time.Millisecond)
		case mode == "reject":
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":484,"errorMessage":"to_zip_code not accepted"}}`)
		default:
			if release != nil {
				<-release
			}
			b.mu.Lock()
			b.booked[q.Get("shipping_client_ref")] = true
			b.mu.Unlock()
			switch mode {
			case "hangup":
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
			case "5xx":
				w.WriteHeader(502)
			default:
				_, _ = io.WriteString(w, bookedAnswer)
			}
		}
	})
	return b
}

func (b *bookingUpstream) set(mode string) {
	b.mu.Lock()
	b.mode = mode
	b.mu.Unlock()
}

func (b *bookingUpstream) count(path string) int {
	n := 0
	for _, r := range b.requests() {
		if strings.HasSuffix(r.Path, path) {
			n++
		}
	}
	return n
}

func bookingHarness(t *testing.T) (*harness, *bookingUpstream) {
	up := newBookingUpstream(t)
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	hs.h.d.Bookings = NewMemoryLedger()
	return hs, up
}

func book(t *testing.T, hs *harness, form string) *response {
	t.Helper()
	return hs.do(t, "POST", "/v1/new-shipment", form, "Authorization", "Bearer "+testToken)
}

func TestBookingsConcurrentDuplicatesBookOnce(t *testing.T) {
	hs, up := bookingHarness(t)
	up.release = make(chan struct{})
	const n = 10
	var wg sync.WaitGroup
	recs := make([]*httptest.ResponseRecorder, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			req := httptest.NewRequest("POST", "/v1/new-shipment", strings.NewReader(shipmentForm))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Authorization", "Bearer "+testToken)
			recs[i] = httptest.NewRecorder()
			hs.h.ServeHTTP(recs[i], req)
		}(i)
	}
	require.Eventually(t, func() bool { return up.count("/new-shipment") == 1 }, 5*time.Second, time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	close(up.release)
	wg.Wait()
	replayed := 0
	for _, rec := range recs {
		assert.Equal(t, 200, rec.Code)
		assert.Equal(t, bookedAnswer, rec.Body.String(), "every duplicate gets the same answer")
		if rec.Header().Get("Idempotent-Replayed") == "true" {
			replayed++
		}
	}
	assert.Equal(t, n-1, replayed)
	assert.Equal(t, 1, up.count("/new-shipment"), "ten concurrent identical bookings reach the upstream once")
}

func TestBookingsReplayConflictAndRelease(t *testing.T) {
	hs, up := bookingHarness(t)
	r := book(t, hs, shipmentForm)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Empty(t, r.Header.Get("Idempotent-Replayed"))

	// Later, the same request (spelled otherwise: same normalized data).
	r = book(t, hs, strings.Replace(shipmentForm, "to_country_code=PT", "to_country_code=pt", 1))
	assert.Equal(t, 200, r.Code)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, bookedAnswer, r.Raw)

	// The same reference with other data: 409, 421, the field named.
	r = book(t, hs, strings.Replace(shipmentForm, "to_name=Ana", "to_name=Bea", 1))
	assert.Equal(t, 409, r.Code)
	assert.Equal(t, 421, r.errorCode())
	assert.Equal(t, "shipping_client_ref", r.Env.Data["errors"].([]any)[0].(map[string]any)["field"])
	assert.Equal(t, 1, up.count("/new-shipment"))

	// A refusal releases the reference: the corrected request books.
	other := strings.Replace(shipmentForm, "ORD-77", "ORD-78", 1)
	up.set("reject")
	r = book(t, hs, other)
	assert.Equal(t, "err", r.Env.Status)
	assert.Equal(t, 484, r.errorCode())
	up.set("")
	r = book(t, hs, strings.Replace(other, "to_name=Ana", "to_name=Ana+Maria", 1))
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.Empty(t, r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 3, up.count("/new-shipment"))
}

func TestBookingsLostAnswerIsLookedUpNotBookedAgain(t *testing.T) {
	for _, mode := range []string{"hangup", "5xx"} {
		t.Run(mode, func(t *testing.T) {
			hs, up := bookingHarness(t)
			up.set(mode)
			r := book(t, hs, shipmentForm)
			assert.Equal(t, 502, r.Code, r.Raw)
			assert.Contains(t, r.Env.Data["hint"], "never books twice")
			up.set("")
			r = book(t, hs, shipmentForm)
			require.Equal(t, 200, r.Code, r.Raw)
			assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
			assert.Contains(t, r.Raw, `"shipping_dlvr_ref":"DLV1"`)
			assert.Contains(t, r.Raw, `"shipping_client_ref":"ORD-77"`)
			assert.NotContains(t, r.Raw, "Ana", "no personal data from the lookup")
			assert.Equal(t, 1, up.count("/new-shipment"), "the lost booking is found, not made again")
			assert.Equal(t, 1, up.count("/get-shipments"))
			r = book(t, hs, shipmentForm)
			assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
			assert.Equal(t, 1, up.count("/get-shipments"), "recorded after the lookup")
		})
	}
	// Lost before the upstream booked anything: the lookup finds none and
	// the retry books.
	hs, up := bookingHarness(t)
	hs.setEnv(EnvUpstreamTimeoutMS, "200")
	up.set("drop")
	r := book(t, hs, shipmentForm)
	assert.Equal(t, 504, r.Code)
	up.set("")
	r = book(t, hs, shipmentForm)
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.Empty(t, r.Header.Get("Idempotent-Replayed"))
}

func TestBookingsLostCollectionIsNotRetriedBlindly(t *testing.T) {
	hs, up := bookingHarness(t)
	up.set("5xx")
	col := "collection_date=2026-11-24&hour_start_1=09:00&hour_end_1=13:00&carrier_code=rapido&service_code=rapido-48h" +
		"&shipping_dlvr_ref=DLV1&collection_client_ref=COL-1&from_name=T&from_address=Calle+1&from_zip_code=28014&from_country_code=ES" +
		"&to_name=A&to_address=Rua+2&to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT&to_phone=912345678"
	r := hs.do(t, "POST", "/v1/new-collection", col, "Authorization", "Bearer "+testToken)
	assert.Equal(t, 502, r.Code, r.Raw)
	up.set("")
	r = hs.do(t, "POST", "/v1/new-collection", col, "Authorization", "Bearer "+testToken)
	assert.Equal(t, 409, r.Code, r.Raw)
	assert.Equal(t, "booking_unknown", r.Env.Data["errorClass"])
	assert.Equal(t, 1, up.count("/new-collection"))
}

// noLedger is the platform's answer without the Durable Object binding.
type noLedger struct{}

func (noLedger) Begin(context.Context, string, string, time.Duration, time.Duration) (string, []byte, error) {
	return "", nil, ErrNoLedger
}
func (noLedger) Finish(context.Context, string, string, string, []byte, time.Duration) error {
	return ErrNoLedger
}
func (noLedger) Peek(context.Context, string) (string, []byte, error) { return "", nil, ErrNoLedger }

func TestBookingsFailClosedWithoutTheLedger(t *testing.T) {
	hs, up := bookingHarness(t)
	hs.h.d.Bookings = noLedger{}
	r := book(t, hs, shipmentForm)
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.message(), "BOOKINGS")
	assert.Equal(t, 0, up.count("/new-shipment"))

	// The embedded sandbox dedupes by reference itself.
	sb := newHarness(baseEnv(""), nil)
	sb.h.d.Bookings = noLedger{}
	r = sb.do(t, "POST", "/v1/new-shipment", strings.NewReplacer("2026-11-23", "2026-11-24", "carrier_code=rapido&service_code=rapido-48h", "carrier_code=rayo&service_code=rayo-48",
		"to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT", "to_city=Barcelona&to_zip_code=08001&to_country_code=ES").Replace(shipmentForm), "Authorization", "Bearer "+testToken)
	assert.Equal(t, 200, r.Code, r.Raw)
}

func TestMemoryLedgerHolderThatVanishes(t *testing.T) {
	l := NewMemoryLedger()
	ctx := context.Background()
	st, _, err := l.Begin(ctx, "k", "fp", time.Second, 30*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, BookNew, st)
	st, _, _ = l.Begin(ctx, "k", "fp", 10*time.Millisecond, time.Second)
	assert.Equal(t, BookBusy, st)
	time.Sleep(40 * time.Millisecond)
	st, _, _ = l.Begin(ctx, "k", "fp", time.Second, time.Second)
	assert.Equal(t, BookLost, st, "a holder past its hold is presumed lost")
	require.NoError(t, l.Finish(ctx, "k", "fp", OutcomeOK, []byte("x"), time.Millisecond))
	time.Sleep(5 * time.Millisecond)
	st, _, _ = l.Begin(ctx, "k", "other", time.Second, time.Second)
	assert.Equal(t, BookNew, st, "records expire")
}

func TestBookingsOptOut(t *testing.T) {
	hs, up := bookingHarness(t)
	hs.h.d.Bookings = noLedger{} // not even configured: the opt-out needs none
	hs.setEnv(EnvExactlyOnce, "false")
	for i := 0; i < 2; i++ {
		r := book(t, hs, shipmentForm)
		assert.Equal(t, 200, r.Code, r.Raw)
		assert.Empty(t, r.Header.Get("Idempotent-Replayed"))
	}
	assert.Equal(t, 2, up.count("/new-shipment"), "EXACTLY_ONCE=false forwards every booking")
	up.set("5xx")
	r := book(t, hs, shipmentForm)
	assert.Equal(t, false, r.Env.Data["retryable"], "without the ledger a resend is not safe")
	assert.Contains(t, r.Env.Data["hint"], "do not resend blindly")
}

// One token bound to the order's shipping_client_ref books it, then reads
// the shipment booked with it, and nothing else.
func TestScopedTokenReadsTheShipmentItBooked(t *testing.T) {
	hs, _ := bookingHarness(t)
	hs.setEnv(EnvTokenSigningKey, testSigningKey)
	r := hs.mint(t, "operations=new-shipment,get-shipment,get-shipment-label,get-shipment-tracking&shipping_client_ref=ORD-77")
	require.Equal(t, 200, r.Code, r.Raw)
	tok := "Bearer " + r.Env.Data["token"].(string)

	// Before the booking there is nothing to read.
	r = hs.do(t, "GET", "/v1/get-shipment?dlvr_ref=DLV1", "", "Authorization", tok)
	assert.Equal(t, 403, r.Code, r.Raw)

	r = hs.do(t, "POST", "/v1/new-shipment", shipmentForm, "Authorization", tok)
	require.Equal(t, 200, r.Code, r.Raw)
	for _, target := range []string{"/v1/get-shipment?dlvr_ref=DLV1", "/v1/get-shipment-label?dlvr_ref=DLV1",
		"/v1/get-shipment-tracking?dlvr_ref=DLV1", "/v1/get-shipment-tracking?client_ref=ORD-77"} {
		r = hs.do(t, "GET", target, "", "Authorization", tok)
		assert.Equal(t, 200, r.Code, "%s: %s", target, r.Raw)
	}
	r = hs.do(t, "GET", "/v1/get-shipment?dlvr_ref=DLV2", "", "Authorization", tok)
	assert.Equal(t, 403, r.Code, "another shipment")
	assert.Equal(t, "dlvr_ref", r.Env.Data["errors"].([]any)[0].(map[string]any)["field"])

	// Without booking records (EXACTLY_ONCE=false) the edge cannot tell.
	hs.setEnv(EnvExactlyOnce, "false")
	r = hs.do(t, "GET", "/v1/get-shipment?dlvr_ref=DLV1", "", "Authorization", tok)
	assert.Equal(t, 403, r.Code)
}
