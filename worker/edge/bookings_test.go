package edge

import (
	"context"
	"encoding/json"
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
)

const bookedAnswer = `{"status":"ok","data":{"shipping_dlvr_ref":"DLV1","shipping_client_ref":"ORD-77","shipping_carrier_ref":"C1","shipping_carrier_guid":"G1","service_type":"custom","carrier_code":"rapido","service_code":"rapido-48h","carrier_phone":"900","advance_tracking_url":"https://t.example/DLV1"}}`

// bookingUpstream books new-shipment requests (counting them), answers
// get-shipments from what it booked (its data as the request had it), and
// fails on demand.
type bookingUpstream struct {
	*fakeUpstream
	mu      sync.Mutex
	booked  map[string]url.Values // client ref -> the booking's form
	release chan struct{}         // when set, bookings wait for it before committing
	answer  chan struct{}         // when set, a committed booking's answer waits for it
	mode    string                // "", "hangup", "reject", "5xx", "drop"
}

func newBookingUpstream(t *testing.T) *bookingUpstream {
	b := &bookingUpstream{booked: map[string]url.Values{}}
	b.fakeUpstream = newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		b.mu.Lock()
		mode, release, answer := b.mode, b.release, b.answer
		b.mu.Unlock()
		reqs := b.requests()
		q, _ := url.ParseQuery(reqs[n-1].Body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/get-shipments"):
			ref := q.Get("filter_shipping_client_ref")
			b.mu.Lock()
			v, found := b.booked[ref]
			b.mu.Unlock()
			if !found {
				_, _ = io.WriteString(w, `{"status":"ok","data":{"page":1,"n_shipments":0,"shipments":[]}}`)
				return
			}
			js := func(s string) string { out, _ := json.Marshal(s); return string(out) }
			_, _ = io.WriteString(w, `{"status":"ok","data":{"page":1,"n_shipments":1,"shipments":[{"shipping_data":{"shipping_dlvr_ref":"DLV1",`+
				`"shipping_client_ref":`+js(ref)+`,"shipping_carrier_ref":"C1","shipping_carrier_guid":"G1","service_type":`+js(v.Get("service_type"))+
				`,"carrier_code":`+js(v.Get("carrier_code"))+`,"service_code":`+js(v.Get("service_code"))+`,"carrier_phone":"900","status":"1",`+
				`"shipping_date":`+js(v.Get("shipping_date")+" 00:00:00")+`},"to_data":{"to_name":`+js(v.Get("to_name"))+`,"to_zip_code":`+js(v.Get("to_zip_code"))+
				`,"to_country_code":`+js(v.Get("to_country_code"))+`,"to_city":`+js(v.Get("to_city"))+`}}]}}`)
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
			b.booked[q.Get("shipping_client_ref")] = q
			b.mu.Unlock()
			if answer != nil {
				<-answer
			}
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

// gate makes the next bookings wait for the returned channel before they
// commit (release) or, once committed, before they answer.
func (b *bookingUpstream) gate(beforeCommit bool) chan struct{} {
	ch := make(chan struct{})
	b.mu.Lock()
	if beforeCommit {
		b.release = ch
	} else {
		b.answer = ch
	}
	b.mu.Unlock()
	return ch
}

// committed is how many shipments the upstream holds.
func (b *bookingUpstream) committed() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.booked)
}

// seed puts a shipment booked by someone else in the upstream.
func (b *bookingUpstream) seed(form string) {
	q, _ := url.ParseQuery(form)
	b.mu.Lock()
	b.booked[q.Get("shipping_client_ref")] = q
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

// bookingHarness runs the edge with a MemoryLedger on the harness's clock
// and a grace of 30 s.
func bookingHarness(t *testing.T) (*harness, *bookingUpstream) {
	up := newBookingUpstream(t)
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	hs.env[EnvBookingGrace] = "30"
	l := NewMemoryLedger()
	l.Now = func() time.Time { return hs.now }
	hs.h.d.Bookings = l
	return hs, up
}

func book(t *testing.T, hs *harness, form string) *response {
	t.Helper()
	return hs.do(t, "POST", "/v1/new-shipment", form, "Authorization", "Bearer "+testToken)
}

func TestBookingsConcurrentDuplicatesBookOnce(t *testing.T) {
	hs, up := bookingHarness(t)
	release := up.gate(true)
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
	close(release)
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

// A lost answer (the upstream booked, the answer never came back): a
// resend within the grace sends nothing; after it, the booking is found.
// Changed by issue 20: the resend used to look up at once.
func TestBookingsLostAnswerIsLookedUpNotBookedAgain(t *testing.T) {
	for _, mode := range []string{"hangup", "5xx"} {
		t.Run(mode, func(t *testing.T) {
			hs, up := bookingHarness(t)
			up.set(mode)
			r := book(t, hs, shipmentForm)
			assert.Equal(t, 502, r.Code, r.Raw)
			assert.Contains(t, r.Env.Data["hint"], "never books twice")
			assert.Equal(t, "30", r.Header.Get("Retry-After"))
			up.set("")
			r = book(t, hs, shipmentForm)
			assert.Equal(t, 425, r.Code, r.Raw)
			assert.Equal(t, 0, up.count("/get-shipments"), "nothing is asked or sent within the grace")
			hs.now = hs.now.Add(30 * time.Second)
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
	// Lost before the upstream booked anything: after the grace the lookup
	// finds none and the retry books.
	hs, up := bookingHarness(t)
	hs.setEnv(EnvUpstreamTimeoutMS, "200")
	up.set("drop")
	r := book(t, hs, shipmentForm)
	assert.Equal(t, 504, r.Code)
	up.set("")
	hs.now = hs.now.Add(31 * time.Second)
	r = book(t, hs, shipmentForm)
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.Empty(t, r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 2, up.count("/new-shipment"))
	assert.Equal(t, 1, up.count("/get-shipments"))
}

// The attack: the upstream commits a booking after the edge gave
// up on it. A resend right after the timeout must not book again.
func TestBookingsSlowCommitIsNotBookedTwice(t *testing.T) {
	hs, up := bookingHarness(t)
	hs.setEnv(EnvUpstreamTimeoutMS, "200")
	release := up.gate(true)
	r := book(t, hs, shipmentForm)
	require.Equal(t, 504, r.Code, r.Raw)
	assert.Equal(t, true, r.Env.Data["retryable"])
	hint, _ := r.Env.Data["hint"].(string)
	for _, want := range []string{"Retry-After", "30 s", "425", "1425", "looks the booking up", "409", "never books twice"} {
		assert.Contains(t, hint, want)
	}
	assert.Equal(t, "30", r.Header.Get("Retry-After"))

	// The resend comes at once: nothing is sent, Retry-After says when.
	hs.now = hs.now.Add(2 * time.Second)
	r = book(t, hs, shipmentForm)
	require.Equal(t, 425, r.Code, r.Raw)
	assert.Equal(t, CodeBookingUnconfirmed, r.errorCode())
	assert.Equal(t, "booking_unconfirmed", r.Env.Data["errorClass"])
	assert.Equal(t, true, r.Env.Data["retryable"])
	assert.Equal(t, "28", r.Header.Get("Retry-After"))
	assert.Contains(t, r.message(), "may have booked")
	assert.Contains(t, r.message(), "28 s")
	assert.Equal(t, 1, up.count("/new-shipment"))
	assert.Equal(t, 0, up.count("/get-shipments"))

	// The upstream commits the first attempt late.
	close(release)
	require.Eventually(t, func() bool { return up.committed() == 1 }, 5*time.Second, time.Millisecond)
	hs.now = hs.now.Add(27 * time.Second)
	r = book(t, hs, shipmentForm)
	assert.Equal(t, 425, r.Code)
	assert.Equal(t, "1", r.Header.Get("Retry-After"))

	// After the grace: looked up and answered, never booked again.
	hs.now = hs.now.Add(time.Second)
	r = book(t, hs, shipmentForm)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Contains(t, r.Raw, `"shipping_dlvr_ref":"DLV1"`)
	assert.Equal(t, 1, up.count("/new-shipment"), "one booking upstream")
	assert.Equal(t, 1, up.committed())
}

// A shipment found upstream with the reference but other data is not
// this booking: 409, never adopted, and asked again on the next resend.
func TestBookingsFoundShipmentWithOtherDataIsAConflict(t *testing.T) {
	hs, up := bookingHarness(t)
	hs.setEnv(EnvUpstreamTimeoutMS, "200")
	up.seed(strings.NewReplacer("to_name=Ana", "to_name=Mallory", "to_zip_code=1100-053", "to_zip_code=4000-001").Replace(shipmentForm))
	up.set("drop")
	r := book(t, hs, shipmentForm)
	require.Equal(t, 504, r.Code, r.Raw)
	up.set("")
	hs.now = hs.now.Add(30 * time.Second)
	for i := 1; i <= 2; i++ {
		r = book(t, hs, shipmentForm)
		require.Equal(t, 409, r.Code, r.Raw)
		assert.Equal(t, 421, r.errorCode())
		assert.Equal(t, "booking_mismatch", r.Env.Data["errorClass"])
		assert.Contains(t, r.message(), "to_name, to_zip_code differ")
		assert.NotContains(t, r.Raw, "Mallory", "the other booking's data is not shown")
		assert.NotContains(t, r.Raw, "DLV1")
		assert.Equal(t, i, up.count("/get-shipments"))
	}
	assert.Equal(t, 1, up.count("/new-shipment"), "nothing booked after the lookup")

	// The same found shipment, spelled as the service may store it, is adopted.
	hs2, up2 := bookingHarness(t)
	hs2.setEnv(EnvUpstreamTimeoutMS, "200")
	up2.seed(strings.NewReplacer("to_name=Ana", "to_name=ANA", "to_country_code=PT", "to_country_code=pt").Replace(shipmentForm))
	up2.set("drop")
	require.Equal(t, 504, book(t, hs2, shipmentForm).Code)
	hs2.now = hs2.now.Add(30 * time.Second)
	r = book(t, hs2, shipmentForm)
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
}

// The ledger restarts while a booking is in flight (its memory of the
// holder is gone, its storage is not): the pending record is a lost
// answer, and the holder that comes back after its turn was taken over
// cannot settle it, which its log line says whatever LOG_REQUESTS is.
func TestBookingsPendingRecordAfterARestart(t *testing.T) {
	hs, up := bookingHarness(t)
	ledger := hs.h.d.Bookings.(*MemoryLedger)
	answer := up.gate(false) // commits at once, answers when told
	first := make(chan *httptest.ResponseRecorder)
	go func() {
		req := httptest.NewRequest("POST", "/v1/new-shipment", strings.NewReader(shipmentForm))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+testToken)
		rec := httptest.NewRecorder()
		hs.h.ServeHTTP(rec, req)
		first <- rec
	}()
	require.Eventually(t, func() bool { return up.committed() == 1 }, 5*time.Second, time.Millisecond)
	ledger.dropHolders()

	r := book(t, hs, shipmentForm)
	require.Equal(t, 425, r.Code, "a pending record nobody holds is a lost answer: %s", r.Raw)
	assert.Equal(t, "30", r.Header.Get("Retry-After"))
	hs.now = hs.now.Add(30 * time.Second)
	r = book(t, hs, shipmentForm)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 1, up.count("/new-shipment"))

	// The first request's answer arrives now: it is relayed, and its
	// outcome is refused by the ledger, loudly.
	hs.setEnv(EnvLogRequests, "off")
	before := hs.log.Len()
	close(answer)
	rec := <-first
	assert.Equal(t, 200, rec.Code)
	line := hs.log.String()[before:]
	assert.Contains(t, line, "booking ledger refused finish ok: this request no longer held the record")
	assert.NotContains(t, line, "ORD-77", "no reference in the log")
	hs.setEnv(EnvLogRequests, "all")
	r = book(t, hs, shipmentForm)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 1, up.count("/new-shipment"))
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

func (noLedger) Begin(context.Context, string, string, BeginOptions) (Begun, error) {
	return Begun{}, ErrNoLedger
}
func (noLedger) Sending(context.Context, string, string) error { return ErrNoLedger }
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
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	l := NewMemoryLedger()
	l.Now = func() time.Time { return now }
	ctx := context.Background()
	o := BeginOptions{Wait: time.Second, Hold: 30 * time.Millisecond, Grace: time.Minute, TTL: time.Hour}
	b, err := l.Begin(ctx, "k", "fp", o)
	require.NoError(t, err)
	assert.Equal(t, BookNew, b.State)
	holder := b.Holder
	b, _ = l.Begin(ctx, "k", "fp", BeginOptions{Wait: 10 * time.Millisecond, Hold: time.Second, Grace: time.Minute, TTL: time.Hour})
	assert.Equal(t, BookBusy, b.State)
	st, _, _ := l.Peek(ctx, "k")
	assert.Equal(t, "", st, "being booked")

	now = now.Add(40 * time.Millisecond)
	b, _ = l.Begin(ctx, "k", "fp", o)
	assert.Equal(t, BookUnknown, b.State, "a holder past its hold is presumed lost: within the grace nothing is sent")
	assert.Equal(t, time.Minute-40*time.Millisecond, b.RetryAfter)
	st, _, _ = l.Peek(ctx, "k")
	assert.Equal(t, BookLost, st)

	now = now.Add(time.Minute)
	b, _ = l.Begin(ctx, "k", "fp", o)
	require.Equal(t, BookLost, b.State, "after the grace: look it up")
	assert.ErrorIs(t, l.Finish(ctx, "k", holder, OutcomeOK, []byte("late"), time.Hour), ErrNotHolder, "the first holder was taken over")
	assert.ErrorIs(t, l.Sending(ctx, "k", holder), ErrNotHolder)
	require.NoError(t, l.Sending(ctx, "k", b.Holder))
	require.NoError(t, l.Finish(ctx, "k", b.Holder, OutcomeOK, []byte("x"), time.Millisecond))
	assert.ErrorIs(t, l.Finish(ctx, "k", b.Holder, OutcomeOK, []byte("x"), time.Millisecond), ErrNotHolder, "settled once")
	st, body, _ := l.Peek(ctx, "k")
	assert.Equal(t, BookDone, st)
	assert.Equal(t, "x", string(body))
	now = now.Add(time.Millisecond)
	b, _ = l.Begin(ctx, "k", "other", o)
	assert.Equal(t, BookNew, b.State, "records expire")
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

// BOOKING_GRACE_SECONDS must outlast the upstream timeout: a grace over
// before the answer is even lost would let a resend book again.
func TestBookingGraceConfig(t *testing.T) {
	load := func(kv ...string) (Config, []ConfigError) {
		e := baseEnv("https://api.example.com/v1")
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
	hs, up := bookingHarness(t)
	hs.setEnv(EnvBookingGrace, "2")
	hs.setEnv(EnvUpstreamTimeoutMS, "2000")
	r := book(t, hs, shipmentForm)
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.message(), "BOOKING_GRACE_SECONDS: must be longer than UPSTREAM_TIMEOUT_MS (2000 ms)")
	assert.Equal(t, 0, up.count("/new-shipment"))
}

// lookupHarness: an upstream whose bookings are lost (slower than the
// edge's 200 ms timeout; the first one books nothing) and whose
// get-shipments answers are pages(page).
func lookupHarness(t *testing.T, pages func(page string) string) (*harness, *fakeUpstream) {
	var up *fakeUpstream
	up = newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if strings.HasSuffix(r.URL.Path, "/get-shipments") {
			q, _ := url.ParseQuery(up.requests()[n-1].Body)
			assert.Equal(t, "ORD-77", q.Get("filter_shipping_client_ref"))
			assert.Equal(t, "50", q.Get("n_items"))
			_, _ = io.WriteString(w, pages(q.Get("page")))
			return
		}
		time.Sleep(400 * time.Millisecond)
	})
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	hs.env[EnvBookingGrace] = "30"
	hs.env[EnvUpstreamTimeoutMS] = "200"
	l := NewMemoryLedger()
	l.Now = func() time.Time { return hs.now }
	hs.h.d.Bookings = l
	return hs, up
}

// shipmentsPage is a get-shipments answer of n shipments with other
// references ("ORD-770", "ORD-771"...: a filter that matches by
// substring) followed by the given ones.
func shipmentsPage(n int, more ...string) string {
	items := make([]string, 0, n+len(more))
	for i := 0; i < n; i++ {
		items = append(items, `{"shipping_data":{"shipping_dlvr_ref":"O`+strconv.Itoa(i)+`","shipping_client_ref":"ORD-77`+strconv.Itoa(i)+`","status":"1"}}`)
	}
	items = append(items, more...)
	return `{"status":"ok","data":{"page":1,"n_shipments":` + strconv.Itoa(len(items)) + `,"shipments":[` + strings.Join(items, ",") + `]}}`
}

const ord77 = `{"shipping_data":{"shipping_dlvr_ref":"DLV1","shipping_client_ref":"ORD-77","carrier_code":"rapido","service_code":"rapido-48h","status":"%s"},"to_data":{"to_name":"Ana","to_zip_code":"1100-053","to_country_code":"PT"}}`

// After a lost answer, a shipment with the request's data that the service
// did not make or cancelled is not the answer: 409, nothing booked.
func TestBookingsFoundShipmentNotMadeOrCancelledIsNotAdopted(t *testing.T) {
	for _, st := range []string{"-1", "-2"} {
		hs, up := lookupHarness(t, func(string) string { return shipmentsPage(0, strings.Replace(ord77, "%s", st, 1)) })
		require.Equal(t, 504, book(t, hs, shipmentForm).Code)
		hs.now = hs.now.Add(30 * time.Second)
		r := book(t, hs, shipmentForm)
		require.Equal(t, 409, r.Code, "status %s: %s", st, r.Raw)
		assert.Equal(t, "booking_mismatch", r.Env.Data["errorClass"])
		assert.Contains(t, r.message(), "did not make or cancelled")
		assert.NotContains(t, r.Raw, "DLV1")
		n := 0
		for _, q := range up.requests() {
			if strings.HasSuffix(q.Path, "/new-shipment") {
				n++
			}
		}
		assert.Equal(t, 1, n, "nothing booked after the lookup")
	}
}

// The filter may match other references too: the booking on the second
// page is found, not booked again; beyond the pages read nothing is
// concluded and nothing is booked.
func TestBookingsLookupReadsPastAFullPage(t *testing.T) {
	hs, up := lookupHarness(t, func(page string) string {
		if page == "2" {
			return shipmentsPage(3, strings.Replace(ord77, "%s", "1", 1))
		}
		return shipmentsPage(50)
	})
	require.Equal(t, 504, book(t, hs, shipmentForm).Code)
	hs.now = hs.now.Add(30 * time.Second)
	r := book(t, hs, shipmentForm)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Contains(t, r.Raw, `"shipping_dlvr_ref":"DLV1"`)

	hs, up = lookupHarness(t, func(string) string { return shipmentsPage(50) })
	require.Equal(t, 504, book(t, hs, shipmentForm).Code)
	hs.now = hs.now.Add(30 * time.Second)
	r = book(t, hs, shipmentForm)
	require.Equal(t, 409, r.Code, r.Raw)
	assert.Equal(t, "booking_unknown", r.Env.Data["errorClass"])
	assert.Contains(t, r.message(), "more than 100 shipments")
	n := 0
	for _, q := range up.requests() {
		if strings.HasSuffix(q.Path, "/new-shipment") {
			n++
		}
	}
	assert.Equal(t, 1, n, "nothing booked after an incomplete lookup")
}
