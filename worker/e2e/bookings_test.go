//go:build !(js && wasm)

package e2e

import (
	"encoding/json"
	"io"
	"net"
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

	"github.com/parcelgate/parcelgate/worker/core"
	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// Exactly-once bookings under workerd, through the Bookings Durable Object.

func shipment(ref, carrier string) url.Values {
	v := parcel(parties(url.Values{}))
	v.Set("shipping_date", nextWorkingDay())
	v.Set("service_type", "custom")
	v.Set("carrier_code", carrier)
	v.Set("service_code", carrier+"-24")
	v.Set("shipping_client_ref", ref)
	return v
}

func (u *upstream) bookings() int {
	n := 0
	for _, r := range u.all() {
		if r.Path == "/v1/new-shipment" {
			n++
		}
	}
	return n
}

// Exactly once under workerd, with the upgrade window closed (the default)
// and open (BOOKINGS_LEGACY_UNTIL set, as an operator does for 30 days
// after an upgrade: every new reference is first read from the earlier
// layout; issue 29 booked 2 to 10 times there).
func TestBookingsExactlyOnceUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	for _, window := range []struct {
		name string
		vars map[string]string
	}{
		{"window closed", nil},
		{"window open", map[string]string{"BOOKINGS_LEGACY_UNTIL": time.Now().UTC().AddDate(0, 0, 30).Format("2006-01-02")}},
	} {
		t.Run(window.name, func(t *testing.T) {
			up := newUpstream(t)
			s := runtimeStack(t, up, window.vars)
			exactlyOnce(t, s.URL, up)
		})
	}
}

func exactlyOnce(t *testing.T, base string, up *upstream) {
	// Ten concurrent identical bookings (the upstream takes 1.5 s and
	// books a shipment per request): one reaches the upstream, all get
	// its answer. Three rounds, each a new reference: the race it guards
	// against does not show in every round.
	c := edge(t, base)
	for round := 1; round <= 3; round++ {
		ref := "SAME-" + strconv.Itoa(round)
		var wg sync.WaitGroup
		rs := make([]*result, 10)
		for i := range rs {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				rs[i] = book(t, c, shipment(ref, "delay-book"))
			}(i)
		}
		wg.Wait()
		replayed := 0
		refs := map[string]int{}
		for _, r := range rs {
			require.Equal(t, 200, r.Code, r.Raw)
			refs[str(r.Data, "shipping_dlvr_ref")]++
			if r.Header.Get("Idempotent-Replayed") == "true" {
				replayed++
			}
		}
		require.Equal(t, round, up.bookings(), "%s: ten concurrent identical bookings reach the upstream once", ref)
		require.Len(t, refs, 1, "%s: every answer carries the one shipment booked: %v", ref, refs)
		for dlvr := range refs {
			assert.Regexp(t, `^PG-\d+$`, dlvr)
		}
		for _, r := range rs {
			assert.Equal(t, rs[0].Raw, r.Raw, "every duplicate gets the same answer")
		}
		assert.Equal(t, 9, replayed)
	}

	// Later: the same data is replayed, other data is a conflict.
	r := book(t, c, shipment("SAME-1", "delay-book"))
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Regexp(t, `^PG-\d+$`, str(r.Data, "shipping_dlvr_ref"))
	other := shipment("SAME-1", "delay-book")
	other.Set("to_name", "Someone Else")
	r = book(t, c, other)
	assert.Equal(t, 409, r.Code, r.Raw)
	assert.EqualValues(t, 421, r.Data["errorCode"])
	assert.Equal(t, 3, up.bookings())

	// A refusal releases the reference.
	r = book(t, c, shipment("REJ-1", "reject-108"))
	assert.EqualValues(t, 108, r.Data["errorCode"])
	r = book(t, c, shipment("REJ-1", "rayo"))
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.Empty(t, r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 5, up.bookings())
}

// slowUpstream is a fake service that commits bookings the way a slow real
// one does: by the carrier_code, "commit-4s" commits 4 s after receiving
// (the edge gave up long before), "commit-2500ms" after 2.5 s, "never" takes
// 4 s and commits nothing, "hangup" commits and drops the connection;
// whatever happens to the connection meanwhile. get-shipments answers
// from what it holds, with the data the booking had.
type slowUpstream struct {
	mu       sync.Mutex
	held     map[string]url.Values // client ref -> the booking's form
	received map[string]int        // client ref -> new-shipment requests
	lookups  int
	srv      *httptest.Server
}

func newSlowUpstream(t *testing.T) *slowUpstream {
	u := &slowUpstream{held: map[string]url.Values{}, received: map[string]int{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	u.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		q, _ := url.ParseQuery(string(b))
		ref := q.Get("shipping_client_ref")
		switch r.URL.Path {
		case "/v1/get-shipments":
			u.mu.Lock()
			u.lookups++
			v, ok := u.held[q.Get("filter_shipping_client_ref")]
			u.mu.Unlock()
			if !ok {
				_, _ = io.WriteString(w, `{"status":"ok","data":{"page":1,"n_shipments":0,"shipments":[]}}`)
				return
			}
			sd := map[string]string{"shipping_dlvr_ref": "DLV-" + v.Get("shipping_client_ref"), "status": "1"}
			for _, k := range []string{"shipping_client_ref", "service_type", "carrier_code", "service_code", "shipping_date"} {
				sd[k] = v.Get(k)
			}
			to := map[string]string{}
			for _, k := range []string{"to_name", "to_address", "to_city", "to_zip_code", "to_country_code"} {
				to[k] = v.Get(k)
			}
			out, _ := json.Marshal(map[string]any{"status": "ok", "data": map[string]any{"page": 1, "n_shipments": 1,
				"shipments": []any{map[string]any{"shipping_data": sd, "to_data": to}}}})
			_, _ = w.Write(out)
		case "/v1/new-shipment":
			u.mu.Lock()
			u.received[ref]++
			u.mu.Unlock()
			commit := func() {
				u.mu.Lock()
				u.held[ref] = q
				u.mu.Unlock()
			}
			switch q.Get("carrier_code") {
			case "commit-4s":
				time.Sleep(4 * time.Second)
				commit()
			case "commit-2500ms":
				time.Sleep(2500 * time.Millisecond)
				commit()
			case "never":
				time.Sleep(4 * time.Second)
				return
			case "hangup":
				commit()
				if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
					conn.Close()
				}
				return
			default:
				commit()
			}
			_, _ = io.WriteString(w, `{"status":"ok","data":{"shipping_dlvr_ref":"DLV-`+ref+`","shipping_client_ref":"`+ref+`"}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	u.srv.Listener = l
	u.srv.Start()
	t.Cleanup(u.srv.Close)
	return u
}

// seed puts a shipment booked by someone else in the upstream.
func (u *slowUpstream) seed(v url.Values) {
	u.mu.Lock()
	u.held[v.Get("shipping_client_ref")] = v
	u.mu.Unlock()
}

// counts reports the new-shipment requests received with ref, whether a
// shipment with ref is held, and the lookups so far.
func (u *slowUpstream) counts(ref string) (received int, held bool, lookups int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	_, held = u.held[ref]
	return u.received[ref], held, u.lookups
}

func slowVars(up *slowUpstream, timeoutMS, graceSeconds string) map[string]string {
	return map[string]string{"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "UPSTREAM_TIMEOUT_MS": timeoutMS,
		"BOOKING_GRACE_SECONDS": graceSeconds, "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "LOG_REQUESTS": "all"}
}

// resendAfterGrace resends a booking until the grace is over and returns
// the first other answer: the client's resend rules (each 425 says how long
// is left; the identical body is sent again after it).
func resendAfterGrace(t *testing.T, base string, v url.Values) *result {
	t.Helper()
	return book(t, edge(t, base), v)
}

// The two attacks under workerd, on one runtime (each start costs
// seconds). The upstream commits a booking after the edge timed out on
// it: an immediate resend never books; after the grace it is answered
// with the booking; a shipment found with the reference but other data is
// 409. Then the runtime dies 1 s into a 2.5 s booking and comes back on
// the same state: the Bookings object's pending record makes the resend a
// lost answer (grace, then lookup), not a second booking.
func TestBookingLostAnswersUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	up := newSlowUpstream(t)
	const grace = 8 * time.Second
	opts := wranglerdev.Options{PersistDir: t.TempDir(), Vars: slowVars(up, "3000", "8")}
	s := start(t, opts)
	slow := shipment("SLOW-1", "commit-4s")
	lost := shipment("HANG-1", "hangup")
	other := shipment("MISM-1", "never")
	seeded := shipment("MISM-1", "never")
	seeded.Set("to_name", "Someone Else")
	up.seed(seeded)

	// each sends the three at once and waits for their answers: the first
	// answer each time (no resends), which is what is asserted.
	once := edge(t, s.URL, edgeclient.WithMaxResends(0))
	each := func() []*result {
		var wg sync.WaitGroup
		out := make([]*result, 3)
		for i, v := range []url.Values{slow, lost, other} {
			wg.Add(1)
			go func(i int, v url.Values) {
				defer wg.Done()
				out[i] = book(t, once, v)
			}(i, v)
		}
		wg.Wait()
		return out
	}
	sent := time.Now() // no later than the Bookings object's since
	first := each()
	assert.Equal(t, 504, first[0].Code, first[0].Raw)
	assert.Equal(t, 502, first[1].Code, first[1].Raw)
	assert.Equal(t, 504, first[2].Code, first[2].Raw)
	for _, r := range first {
		assert.Equal(t, true, r.Data["retryable"])
		assert.Contains(t, str(r.Data, "hint"), "answered 425 (errorCode 1425) and sends nothing")
		assert.NotEmpty(t, r.Header.Get("Retry-After"))
	}

	// Resent at once: nothing is sent upstream, Retry-After says when.
	again := each()
	if time.Since(sent) >= grace {
		// Only on a machine so loaded that the resends came after the
		// grace; what follows still holds (one booking each).
		t.Logf("the resends came %v after the first attempts, past the grace: 425 not checked", time.Since(sent))
	} else {
		for _, r := range again {
			require.Equal(t, 425, r.Code, r.Raw)
			assert.EqualValues(t, 1425, r.Data["errorCode"])
			assert.Equal(t, "booking_unconfirmed", str(r.Data, "errorClass"))
			secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
			require.NoError(t, err)
			assert.True(t, secs >= 1 && secs <= 8, "Retry-After %d", secs)
		}
		_, _, lookups := up.counts("")
		assert.Equal(t, 0, lookups, "nothing asked within the grace")
	}
	// The late commit lands: the upstream holds exactly one SLOW-1.
	require.Eventually(t, func() bool { _, held, _ := up.counts("SLOW-1"); return held }, 10*time.Second, 50*time.Millisecond)
	received, _, _ := up.counts("SLOW-1")
	assert.Equal(t, 1, received, "the resend within the grace sent nothing")

	// After the grace: the booking is found and answered, never made again.
	r := resendAfterGrace(t, s.URL, slow)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, "DLV-SLOW-1", str(r.Data, "shipping_dlvr_ref"))
	r = resendAfterGrace(t, s.URL, lost)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "DLV-HANG-1", str(r.Data, "shipping_dlvr_ref"))
	// Someone else's MISM-1: not adopted.
	r = resendAfterGrace(t, s.URL, other)
	require.Equal(t, 409, r.Code, r.Raw)
	assert.Equal(t, "booking_mismatch", str(r.Data, "errorClass"))
	assert.Contains(t, str(r.Data, "errorMessage"), "to_name differ")
	for _, ref := range []string{"SLOW-1", "HANG-1", "MISM-1"} {
		received, _, _ := up.counts(ref)
		assert.Equal(t, 1, received, "%s reached the upstream once", ref)
	}

	// The restart.
	v := shipment("RESTART-1", "commit-2500ms")
	go func() {
		// Its connection dies with the runtime: no answer to check.
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/v1/new-shipment", strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+token)
		if res, err := client.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	require.Eventually(t, func() bool { n, _, _ := up.counts("RESTART-1"); return n == 1 }, 20*time.Second, 10*time.Millisecond)
	time.Sleep(time.Second)
	s.Kill()

	s2 := start(t, opts)
	_, _, before := up.counts("")
	r = resendAfterGrace(t, s2.URL, v)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, "DLV-RESTART-1", str(r.Data, "shipping_dlvr_ref"))
	received, held, lookups := up.counts("RESTART-1")
	assert.Equal(t, 1, received, "one booking upstream across the restart")
	assert.True(t, held)
	assert.Equal(t, before+1, lookups, "the pending record was found and looked up")
	// The records from before the restart are there too.
	r = book(t, edge(t, s2.URL), slow)
	assert.Equal(t, "DLV-SLOW-1", str(r.Data, "shipping_dlvr_ref"))
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
}

func TestBookingsRefusedWithoutTheDurableObject(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := start(t, wranglerdev.Options{NoBookings: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token}})
	r := book(t, edge(t, s.URL, edgeclient.WithMaxResends(0)), shipment("NODO-1", "rayo"))
	assert.Equal(t, 500, r.Code, r.Raw)
	assert.Contains(t, str(r.Data, "errorMessage"), "BOOKINGS")
	assert.Equal(t, 0, up.bookings(), "fail closed: nothing booked")
}

// The shop's server mints one token for the order; the page books with it
// and then reads that shipment's label and tracking, nothing else.
func TestScopedTokenFlowUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	const signing = "e2e-token-signing-key-0123456789abcdef"
	s := start(t, wranglerdev.Options{Sandbox: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signing}})
	// Since issue 30 the grant is bound to the offer the shopper chose
	// (an unbound booking grant is refused by default): quote first.
	// Raw: /tokens is the shop server's minting path, no operation of the client.
	unbound := call(t, s.URL, http.MethodPost, "../tokens", url.Values{
		"operations":          {"new-shipment,get-shipment-label,get-shipment-tracking"},
		"shipping_client_ref": {"SCOPED-1"}}, bearer()...)
	require.Equal(t, 400, unbound.Code, unbound.Raw)
	assert.Contains(t, str(unbound.Data, "errorMessage"), "offer: required")
	offer := quotedOffer(t, s.URL, "rayo", "rayo-48")
	tampered := offer[:30] + string(offer[30]^1) + offer[31:]
	r := call(t, s.URL, http.MethodPost, "../tokens", url.Values{"operations": {"new-shipment"}, "shipping_client_ref": {"SCOPED-1"}, "offer": {tampered}}, bearer()...)
	assert.Equal(t, 400, r.Code, r.Raw)
	mint := call(t, s.URL, http.MethodPost, "../tokens", url.Values{
		"operations":          {"new-shipment,get-shipment-label,get-shipment-tracking"},
		"shipping_client_ref": {"SCOPED-1"}, "offer": {offer}}, bearer()...)
	require.Equal(t, 200, mint.Code, mint.Raw)
	scoped := edge(t, s.URL, edgeclient.WithToken(str(mint.Data, "token")))

	v := shipment("SCOPED-1", "rayo")
	v.Set("service_code", "rayo-48")
	// What the page's script may change after the quote: each refused with
	// its own code, nothing booked (the sandbox would book each).
	for field, change := range map[string][2]string{
		"service_code": {"rayo-24", "offer_service"}, "to_zip_code": {"08002", "offer_route"}, "from_zip_code": {"28001", "offer_route"},
		"parcels[0][parcel_weight]": {"25", "offer_parcels"},
	} {
		w := url.Values{}
		for k, x := range v {
			w[k] = x
		}
		w.Set(field, change[0])
		w.Set("offer", offer)
		r = book(t, scoped, w)
		assert.Equal(t, 403, r.Code, "%s: %s", field, r.Raw)
		assert.Equal(t, change[1], str(r.Data, "errorClass"), field)
	}
	r = book(t, scoped, v)
	assert.Equal(t, 400, r.Code, "no offer: %s", r.Raw)
	v.Set("offer", offer)
	r = book(t, scoped, v)
	require.Equal(t, 200, r.Code, r.Raw)
	dlvr := str(r.Data, "shipping_dlvr_ref")
	require.NotEmpty(t, dlvr)

	r = do(t, scoped, edgeclient.GetShipmentLabelParams{DlvrRef: dlvr})
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.NotEmpty(t, str(r.Data, "label_raw"))
	r = do(t, scoped, edgeclient.GetShipmentTrackingParams{ClientRef: "SCOPED-1"})
	assert.Equal(t, 200, r.Code, r.Raw)

	// Booked once: the resend is the first answer.
	again := book(t, scoped, v)
	assert.Equal(t, dlvr, str(again.Data, "shipping_dlvr_ref"))
	// Another order's reference, another operation: refused.
	other := shipment("SCOPED-2", "rayo")
	other.Set("service_code", "rayo-48")
	r = book(t, scoped, other)
	assert.Equal(t, 403, r.Code, r.Raw)
	r = do(t, scoped, edgeclient.GetShipmentsParams{})
	assert.Equal(t, 403, r.Code, r.Raw)
	// A different booking made by the shop's server is not readable with it.
	r = book(t, edge(t, s.URL), other)
	require.Equal(t, 200, r.Code, r.Raw)
	r = do(t, scoped, edgeclient.GetShipmentLabelParams{DlvrRef: str(r.Data, "shipping_dlvr_ref")})
	assert.Equal(t, 403, r.Code, r.Raw)
}

// An upgrade from the earlier Bookings layout (one object per booking key)
// under workerd: a record that layout wrote is taken over while
// BOOKINGS_LEGACY_UNTIL lasts, so a resend of a booking made before the
// upgrade replays its answer and books nothing; without the setting the
// same resend books again (what the setting is for).
func TestBookingsTakenOverFromTheEarlierLayout(t *testing.T) {
	skipUnlessE2E(t)
	root, err := wranglerdev.FindRoot()
	require.NoError(t, err)
	up := newUpstream(t)
	until := time.Now().UTC().AddDate(0, 0, 30).Format("2006-01-02")
	vars := map[string]string{"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token,
		"TOKEN_SIGNING_KEY": signingKey, "BOOKINGS_LEGACY_UNTIL": until}
	booked := shipment("OLD-1", "rayo")
	// The booking key and fingerprint the edge computes for it: the core's.
	cfg := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{Bookings: true})
	p := cfg.Prepare("new-shipment", &core.Request{Method: http.MethodPost, Body: []byte(booked.Encode()),
		ContentType: "application/x-www-form-urlencoded", Authorization: "Bearer " + token, Now: time.Now()}, nil)
	require.Equal(t, core.KindForward, p.Kind)
	ticket := p.Forward.Booking
	require.NotNil(t, ticket)
	answer := `{"status":"ok","data":{"shipping_dlvr_ref":"PG-OLD-1","shipping_client_ref":"OLD-1"}}`

	// The earlier layout's worker books OLD-1 (its record), then the edge is deployed on the same state.
	upgraded := func(vars map[string]string) *wranglerdev.Server {
		persist := t.TempDir()
		old := start(t, wranglerdev.Options{Main: root + "/worker/e2e/testdata/legacy-bookings.mjs", Edge: true, PersistDir: persist, Vars: vars})
		seed, err := json.Marshal(map[string]any{"key": ticket.Key, "rec": map[string]any{"state": "done", "fp": ticket.Fingerprint,
			"body": answer, "expires": time.Now().Add(20 * 24 * time.Hour).UnixMilli()}})
		require.NoError(t, err)
		res, err := http.Post(old.URL+"/", "application/json", strings.NewReader(string(seed)))
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, "seeded", string(b))
		old.Stop()
		return start(t, wranglerdev.Options{PersistDir: persist, Vars: vars})
	}

	s := upgraded(vars)
	h := get(t, s.URL, "/healthz")
	require.Equal(t, 200, h.Code, h.Raw)
	assert.Equal(t, map[string]any{"exactly_once": true, "legacy_until": until}, h.Data["bookings"], "the operator sees the window")
	r := book(t, edge(t, s.URL), booked)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, "PG-OLD-1", str(r.Data, "shipping_dlvr_ref"), "the answer the earlier layout kept")
	other := shipment("OLD-1", "rayo")
	other.Set("to_name", "Someone Else")
	r = book(t, edge(t, s.URL), other)
	assert.Equal(t, 409, r.Code, r.Raw)
	assert.Equal(t, 0, up.bookings(), "nothing booked again")
	s.Stop()

	// Without the setting the earlier layout is not read: the resend books a second shipment.
	without := map[string]string{}
	for k, v := range vars {
		if k != "BOOKINGS_LEGACY_UNTIL" {
			without[k] = v
		}
	}
	s = upgraded(without)
	assert.Equal(t, map[string]any{"exactly_once": true}, get(t, s.URL, "/healthz").Data["bookings"])
	r = book(t, edge(t, s.URL), booked)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Empty(t, r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 1, up.bookings())
}

// quotedOffer asks the edge for rates of shipment()'s route and parcels and
// returns the offer of carrier/service.
func quotedOffer(t *testing.T, base, carrier, service string) string {
	t.Helper()
	var p edgeclient.GetShipmentsRatesParams
	fill(t, parcel(route(url.Values{})), &p)
	r := do(t, edge(t, base), p)
	require.Equal(t, 200, r.Code, r.Raw)
	services, _ := r.Data["services"].([]any)
	for _, x := range services {
		m, _ := x.(map[string]any)
		if m["carrier_code"] == carrier && m["service_code"] == service {
			o, _ := m["offer"].(string)
			require.NotEmpty(t, o, "%v", m)
			return o
		}
	}
	t.Fatalf("no %s/%s in %s", carrier, service, r.Raw)
	return ""
}
