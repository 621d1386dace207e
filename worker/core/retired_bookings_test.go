package core_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
)

// worker/edge's bookings_test.go, retired with it (issue 21): the
// decisions of exactly-once bookings, on the core. The Bookings object
// (records, holders, waits, expiry, a restart's pending record) is
// worker/src's, tested in its platform tests; the whole flow, with
// concurrent duplicates, a slow commit and a restart, runs under workerd
// in worker/e2e's TestBookingsExactlyOnceUnderWorkerd and
// TestBookingLostAnswersUnderWorkerd.

// bookingTicket prepares shipmentForm (or form) as worker/src would and
// returns the forward with its ticket.
func bookingTicket(t *testing.T, e *core.Edge, form string) *core.Forward {
	t.Helper()
	p := e.Prepare("new-shipment", &core.Request{Method: "POST", Body: []byte(form), ContentType: "application/x-www-form-urlencoded",
		Authorization: bearerMaster, RequestID: "rid", Now: day}, nil)
	require.Equal(t, core.KindForward, p.Kind, "%+v", p.Response)
	require.NotNil(t, p.Forward.Booking)
	return p.Forward
}

func bookingEdge() *core.Edge {
	return ledgerEdge(core.EnvBookingGrace, "30", core.EnvUpstreamTimeoutMS, "200")
}

const bookedAnswer = `{"status":"ok","data":{"shipping_dlvr_ref":"DLV1","shipping_client_ref":"ORD-77","shipping_carrier_ref":"C1","service_type":"custom","carrier_code":"rapido","service_code":"rapido-48h"}}`

func TestBookingsReplayConflictAndRelease(t *testing.T) {
	e := bookingEdge()
	f := bookingTicket(t, e, shipmentForm)
	// The same request spelled otherwise has the same fingerprint; other
	// data another.
	g := bookingTicket(t, e, strings.Replace(shipmentForm, "to_country_code=PT", "to_country_code=pt", 1))
	h := bookingTicket(t, e, strings.Replace(shipmentForm, "to_name=Ana", "to_name=Bea", 1))
	assert.Equal(t, f.Booking.Key, g.Booking.Key)
	assert.Equal(t, f.Booking.Fingerprint, g.Booking.Fingerprint)
	assert.Equal(t, f.Booking.Key, h.Booking.Key)
	assert.NotEqual(t, f.Booking.Fingerprint, h.Booking.Fingerprint)

	// Booked: the answer is kept.
	a := e.Answer(core.AnswerInput{Context: f.Context, Upstream: okUp(bookedAnswer), RequestID: "rid", Now: day, SentAt: day})
	assert.Equal(t, core.OutcomeOK, a.Outcome)
	// A resend gets it, marked replayed.
	s := e.Booking(core.BookingInput{Context: f.Context, Ticket: f.Booking, State: core.BookDone, Stored: []byte(bookedAnswer), RequestID: "rid"})
	r := toAnswer(t, s.Response, nil)
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, "true", r.Header["Idempotent-Replayed"])
	assert.Equal(t, bookedAnswer, r.Raw)
	// The same reference with other data: 409, 421, the field named.
	r = toAnswer(t, e.Booking(core.BookingInput{Context: h.Context, Ticket: h.Booking, State: core.BookConflict, RequestID: "rid"}).Response, nil)
	assert.Equal(t, 409, r.Status)
	assert.Equal(t, 421, r.code())
	assert.Equal(t, "shipping_client_ref", r.Env.Data["errors"].([]any)[0].(map[string]any)["field"])
	// A refusal releases the reference.
	a = e.Answer(core.AnswerInput{Context: f.Context, Upstream: &core.Upstream{Status: 400, Body: []byte(`{"status":"err","data":{"errorCode":484,"errorMessage":"to_zip_code not accepted"}}`)}, RequestID: "rid", Now: day, SentAt: day})
	assert.Equal(t, core.OutcomeRefused, a.Outcome)
	assert.Equal(t, 484, toAnswer(t, a.Response, nil).code())
	// A new record is forwarded.
	assert.Equal(t, core.KindForward, e.Booking(core.BookingInput{Context: f.Context, Ticket: f.Booking, State: core.BookNew, RequestID: "rid"}).Kind)
}

// The attack: the upstream commits a booking after the edge gave
// up on it. A resend within the grace sends nothing and says when.
func TestBookingsSlowCommitIsNotBookedTwice(t *testing.T) {
	e := bookingEdge()
	f := bookingTicket(t, e, shipmentForm)
	a := e.Answer(core.AnswerInput{Context: f.Context, Upstream: &core.Upstream{Failure: core.FailTimeout}, RequestID: "rid", Now: day, SentAt: day})
	r := toAnswer(t, a.Response, nil)
	require.Equal(t, 504, r.Status, r.Raw)
	assert.Equal(t, core.OutcomeLost, a.Outcome)
	assert.Equal(t, true, r.Env.Data["retryable"])
	hint, _ := r.Env.Data["hint"].(string)
	for _, want := range []string{"Retry-After", "30 s", "425", "1425", "looks the booking up", "409", "never books twice"} {
		assert.Contains(t, hint, want)
	}
	assert.Equal(t, "30", r.Header["Retry-After"])
	// Two seconds later: nothing is sent, Retry-After says when.
	s := e.Booking(core.BookingInput{Context: f.Context, Ticket: f.Booking, State: core.BookUnknown, RetryAfter: 28 * time.Second, RequestID: "rid"})
	assert.Equal(t, core.KindRespond, s.Kind)
	r = toAnswer(t, s.Response, nil)
	require.Equal(t, 425, r.Status, r.Raw)
	assert.Equal(t, core.CodeBookingUnconfirmed, r.code())
	assert.Equal(t, "booking_unconfirmed", r.Env.Data["errorClass"])
	assert.Equal(t, true, r.Env.Data["retryable"])
	assert.Equal(t, "28", r.Header["Retry-After"])
	assert.Contains(t, r.message(), "may have booked")
	assert.Contains(t, r.message(), "28 s")
	s = e.Booking(core.BookingInput{Context: f.Context, Ticket: f.Booking, State: core.BookUnknown, RetryAfter: 300 * time.Millisecond, RequestID: "rid"})
	assert.Equal(t, "1", toAnswer(t, s.Response, nil).Header["Retry-After"], "whole seconds, at least one")
	// After the grace: looked up.
	s = e.Booking(core.BookingInput{Context: f.Context, Ticket: f.Booking, State: core.BookLost, RequestID: "rid"})
	require.Equal(t, core.KindLookup, s.Kind)
	assert.Equal(t, "get-shipments", s.Operation)
	assert.Equal(t, "filter_shipping_client_ref=ORD-77&n_items=50", string(s.LookupBody))
}

func shipmentsOf(items ...string) []byte {
	return []byte(`{"status":"ok","data":{"page":1,"n_shipments":` + strconv.Itoa(len(items)) + `,"shipments":[` + strings.Join(items, ",") + `]}}`)
}

const ord77 = `{"shipping_data":{"shipping_dlvr_ref":"DLV1","shipping_client_ref":"ORD-77","shipping_carrier_ref":"C1","carrier_code":"rapido","service_code":"rapido-48h","service_type":"custom","status":"1","shipping_date":"2026-11-23 00:00:00"},"to_data":{"to_name":"%n","to_zip_code":"%z","to_country_code":"%c","to_city":"Lisboa"}}`

func found(name, zip, country string) string {
	return strings.NewReplacer("%n", name, "%z", zip, "%c", country).Replace(ord77)
}

// A lost answer whose booking the upstream made: found by the lookup and
// answered with the booking's references, never its personal data, and
// never booked again.
func TestBookingsLostAnswerIsLookedUpNotBookedAgain(t *testing.T) {
	e := bookingEdge()
	f := bookingTicket(t, e, shipmentForm)
	for _, up := range []*core.Upstream{{Failure: core.FailUnreachable}, {Status: 503, Body: []byte("<html>")}} {
		a := e.Answer(core.AnswerInput{Context: f.Context, Upstream: up, RequestID: "rid", Now: day, SentAt: day})
		r := toAnswer(t, a.Response, nil)
		assert.Equal(t, 502, r.Status, r.Raw)
		assert.Equal(t, core.OutcomeLost, a.Outcome)
		assert.Contains(t, r.Env.Data["hint"], "never books twice")
		assert.Equal(t, "30", r.Header["Retry-After"])
	}
	s := e.LookedUp(core.LookedUpInput{Context: f.Context, Ticket: f.Booking, UpstreamBody: f.UpstreamBody, Upstream: okUp(string(shipmentsOf(found("Ana", "1100-053", "PT")))), RequestID: "rid"})
	require.Equal(t, core.KindRespond, s.Kind)
	r := toAnswer(t, s.Response, nil)
	require.Equal(t, 200, r.Status, r.Raw)
	assert.Equal(t, "true", r.Header["Idempotent-Replayed"])
	assert.Contains(t, r.Raw, `"shipping_dlvr_ref":"DLV1"`)
	assert.Contains(t, r.Raw, `"shipping_client_ref":"ORD-77"`)
	assert.NotContains(t, r.Raw, "Ana", "no personal data from the lookup")
	assert.Equal(t, core.OutcomeOK, s.Finish.Outcome, "recorded after the lookup")
	assert.Equal(t, r.Raw, string(s.Finish.Body))
	// Lost before the upstream booked anything: the lookup finds none and
	// the booking is sent (marked as sent again first).
	s = e.LookedUp(core.LookedUpInput{Context: f.Context, Ticket: f.Booking, UpstreamBody: f.UpstreamBody, Upstream: okUp(string(shipmentsOf())), RequestID: "rid"})
	assert.Equal(t, core.KindForward, s.Kind)
	assert.True(t, s.Sending)
	// A failed lookup sends nothing.
	s = e.LookedUp(core.LookedUpInput{Context: f.Context, Ticket: f.Booking, UpstreamBody: f.UpstreamBody, Upstream: &core.Upstream{Failure: core.FailTimeout}, RequestID: "rid"})
	assert.Equal(t, core.KindRespond, s.Kind)
	assert.Equal(t, core.OutcomeUnsent, s.Finish.Outcome)
}

// A shipment found upstream with the reference but other data is not
// this booking: 409, never adopted; spelled as the service may store it,
// it is.
func TestBookingsFoundShipmentWithOtherDataIsAConflict(t *testing.T) {
	e := bookingEdge()
	f := bookingTicket(t, e, shipmentForm)
	s := e.LookedUp(core.LookedUpInput{Context: f.Context, Ticket: f.Booking, UpstreamBody: f.UpstreamBody, Upstream: okUp(string(shipmentsOf(found("Mallory", "4000-001", "PT")))), RequestID: "rid"})
	require.Equal(t, core.KindRespond, s.Kind)
	r := toAnswer(t, s.Response, nil)
	require.Equal(t, 409, r.Status, r.Raw)
	assert.Equal(t, 421, r.code())
	assert.Equal(t, "booking_mismatch", r.Env.Data["errorClass"])
	assert.Contains(t, r.message(), "to_name, to_zip_code differ")
	assert.NotContains(t, r.Raw, "Mallory", "the other booking's data is not shown")
	assert.NotContains(t, r.Raw, "DLV1")
	assert.Equal(t, core.OutcomeUnsent, s.Finish.Outcome, "asked again on the next resend")

	s = e.LookedUp(core.LookedUpInput{Context: f.Context, Ticket: f.Booking, UpstreamBody: f.UpstreamBody, Upstream: okUp(string(shipmentsOf(found("ANA", "1100-053", "pt")))), RequestID: "rid"})
	r = toAnswer(t, s.Response, nil)
	assert.Equal(t, 200, r.Status, r.Raw)
	assert.Equal(t, "true", r.Header["Idempotent-Replayed"])
}

func TestBookingsLostCollectionIsNotRetriedBlindly(t *testing.T) {
	e := bookingEdge()
	col := "collection_date=2026-11-24&hour_start_1=09:00&hour_end_1=13:00&carrier_code=rapido&service_code=rapido-48h" +
		"&shipping_dlvr_ref=DLV1&collection_client_ref=COL-1&from_name=T&from_address=Calle+1&from_zip_code=28014&from_country_code=ES" +
		"&to_name=A&to_address=Rua+2&to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT&to_phone=912345678"
	p := e.Prepare("new-collection", &core.Request{Method: "POST", Body: []byte(col), ContentType: "application/x-www-form-urlencoded",
		Authorization: bearerMaster, RequestID: "rid", Now: day}, nil)
	require.Equal(t, core.KindForward, p.Kind)
	a := e.Answer(core.AnswerInput{Context: p.Forward.Context, Upstream: &core.Upstream{Status: 503, Body: []byte("<html>")}, RequestID: "rid", Now: day, SentAt: day})
	assert.Equal(t, 502, a.Response.Status)
	assert.Equal(t, core.OutcomeLost, a.Outcome)
	for _, state := range []string{core.BookUnknown, core.BookLost} {
		s := e.Booking(core.BookingInput{Context: p.Forward.Context, Ticket: p.Forward.Booking, State: state, RetryAfter: time.Second, RequestID: "rid"})
		require.Equal(t, core.KindRespond, s.Kind, state)
		r := toAnswer(t, s.Response, nil)
		assert.Equal(t, 409, r.Status, r.Raw)
		assert.Equal(t, "booking_unknown", r.Env.Data["errorClass"])
	}
}

func TestBookingsFailClosedWithoutTheLedger(t *testing.T) {
	vars := env(core.EnvExactlyOnce, "true")
	e := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{})
	a := drive(t, e, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), Authorization: bearerMaster}, nil)
	assert.Equal(t, 500, a.Status)
	assert.Contains(t, a.message(), "BOOKINGS")
	// The sandbox dedupes by reference itself.
	sb := env(core.EnvExactlyOnce, "true", core.EnvUpstreamBaseURL, core.SandboxUpstream)
	s := core.Configure(func(k string) (string, bool) { v, ok := sb[k]; return v, ok }, core.Bindings{Sandbox: true})
	p := s.Prepare("new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), ContentType: "application/x-www-form-urlencoded",
		Authorization: bearerMaster, RequestID: "rid", Now: day}, nil)
	assert.Equal(t, core.KindForward, p.Kind)
	assert.Nil(t, p.Forward.Booking)
}

func TestBookingsOptOut(t *testing.T) {
	vars := env(core.EnvExactlyOnce, "false")
	e := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{}) // no binding needed
	p := e.Prepare("new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), ContentType: "application/x-www-form-urlencoded",
		Authorization: bearerMaster, RequestID: "rid", Now: day}, nil)
	require.Equal(t, core.KindForward, p.Kind, "EXACTLY_ONCE=false forwards every booking")
	assert.Nil(t, p.Forward.Booking)
	r := toAnswer(t, e.Answer(core.AnswerInput{Context: p.Forward.Context, Upstream: &core.Upstream{Status: 503, Body: []byte("<html>")}, RequestID: "rid", Now: day}).Response, nil)
	assert.Equal(t, false, r.Env.Data["retryable"], "without the ledger a resend is not safe")
	assert.Contains(t, r.Env.Data["hint"], "do not resend blindly")
}

// One token bound to the order's shipping_client_ref books it, then reads
// the shipment booked with it (its record names it), and nothing else.
func TestScopedTokenReadsTheShipmentItBooked(t *testing.T) {
	// An unbound booking grant (allowed explicitly since issue 30): the
	// reads are what this test is about.
	e := ledgerEdge(core.EnvBookingGrace, "30", core.EnvUpstreamTimeoutMS, "200", core.EnvAllowUnbound, "true")
	tok := "Bearer " + mintAt(e, "operations=new-shipment,get-shipment,get-shipment-label,get-shipment-tracking&shipping_client_ref=ORD-77",
		bearerMaster, day).Env.Data["token"].(string)
	read := func(e *core.Edge, op, q string, booked *core.Peeked) *core.Prepared {
		r := &core.Request{Method: "GET", Query: q, HasQuery: true, Authorization: tok, RequestID: "rid", Now: day}
		p := e.Prepare(op, r, nil)
		if p.Kind == core.KindPeek {
			assert.Equal(t, e.BookingKey("new-shipment", "ORD-77"), p.BookingKey)
			p = e.Prepare(op, r, booked)
		}
		return p
	}
	// Before the booking there is nothing to read.
	assert.Equal(t, 403, read(e, "get-shipment", "dlvr_ref=DLV1", &core.Peeked{}).Response.Status)
	done := &core.Peeked{State: "done", Body: []byte(bookedAnswer)}
	for _, c := range [][2]string{{"get-shipment", "dlvr_ref=DLV1"}, {"get-shipment-label", "dlvr_ref=DLV1"},
		{"get-shipment-tracking", "dlvr_ref=DLV1"}, {"get-shipment-tracking", "client_ref=ORD-77"}} {
		assert.Equal(t, core.KindForward, read(e, c[0], c[1], done).Kind, "%s %s", c[0], c[1])
	}
	p := read(e, "get-shipment", "dlvr_ref=DLV2", done)
	require.Equal(t, core.KindRespond, p.Kind)
	r := toAnswer(t, p.Response, nil)
	assert.Equal(t, 403, r.Status, "another shipment")
	assert.Equal(t, "dlvr_ref", r.Env.Data["errors"].([]any)[0].(map[string]any)["field"])
	// Without booking records (EXACTLY_ONCE=false) the edge cannot tell.
	off := ledgerEdge(core.EnvExactlyOnce, "false")
	assert.Equal(t, 403, read(off, "get-shipment", "dlvr_ref=DLV1", done).Response.Status)
}
