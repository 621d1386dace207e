package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/parcelgate/parcelgate/worker/core"
)

// What issue 20 changed in worker/edge, in the core the JavaScript edge
// asks (worker/e2e's security and bookings tests run both through workerd).

// A percent-encoded path is refused, quoted, in the client's language.
func TestFailureEncodedPath(t *testing.T) {
	e := core.Configure(func(k string) (string, bool) { v, ok := env()[k]; return v, ok }, core.Bindings{})
	r := e.Failure(core.FailureInput{Kind: "encoded_path", RequestID: "rid", Path: "/v1/new%2Dshipment"})
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "encoded_path", r.Class)
	assert.Contains(t, string(r.Body), `"errorCode":1400`)
	assert.Contains(t, string(r.Body), `path \"/v1/new%2Dshipment\": percent-encoded characters are not accepted`)
	es := e.Failure(core.FailureInput{Kind: "encoded_path", RequestID: "rid", AcceptLanguage: "es", Path: "/x%41"})
	assert.Contains(t, string(es.Body), `ruta \"/x%41\"`)
}

// A booking's lost answer tells the client about the grace and the 425
// (worker/edge's bookingHint, word for word), with the configured grace.
func TestBookingHintAfterALostAnswer(t *testing.T) {
	e := core.Configure(func(k string) (string, bool) {
		v, ok := env("EXACTLY_ONCE", "true", "BOOKING_GRACE_SECONDS", "90", "UPSTREAM_TIMEOUT_MS", "3000")[k]
		return v, ok
	}, core.Bindings{Bookings: true})
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	a := e.Answer(core.AnswerInput{Context: core.AnswerContext{Operation: "new-shipment", ClientRef: "O1", Ledger: true}, Upstream: &core.Upstream{Failure: "timeout"}, RequestID: "rid", Now: now, SentAt: now.Add(-10 * time.Second)})
	body := string(a.Response.Body)
	assert.Equal(t, 504, a.Response.Status)
	assert.Contains(t, body, "for 90 s after the booking was sent (BOOKING_GRACE_SECONDS) a resend is answered 425 (errorCode 1425) and sends nothing")
	assert.True(t, strings.Contains(body, `"retryable":true`), body)
	c := e.Answer(core.AnswerInput{Context: core.AnswerContext{Operation: "new-collection", ClientRef: "C1", Ledger: true}, Upstream: &core.Upstream{Failure: "timeout"}, RequestID: "rid", Now: now, SentAt: now})
	assert.Contains(t, string(c.Response.Body), "is answered 409 and never books twice")
}

// A configuration error names the variable to the master token's holder
// only, on every endpoint; the log line's detail names it always.
func TestMisconfigurationNamedToTheMasterOnly(t *testing.T) {
	e := core.Configure(func(k string) (string, bool) { v, ok := env("API_KEY", "")[k]; return v, ok }, core.Bindings{})
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	anon := e.Prepare("get-client-carriers", &core.Request{Method: "GET", RequestID: "r", Now: now}, nil)
	assert.Equal(t, 500, anon.Response.Status)
	assert.NotContains(t, string(anon.Response.Body), "API_KEY")
	assert.Contains(t, string(anon.Response.Body), "a required secret or setting is missing")
	assert.Contains(t, anon.Response.Detail, "API_KEY")
	m := e.Prepare("get-client-carriers", &core.Request{Method: "GET", RequestID: "r", Now: now, Authorization: "Bearer " + master}, nil)
	assert.Contains(t, string(m.Response.Body), "API_KEY: secret is not set")
	tk := e.Tokens(&core.Request{Method: "POST", RequestID: "r", Now: now})
	assert.NotContains(t, string(tk.Response.Body), "API_KEY")
}

// After a lost answer, the lookup's page decides (issue 20's review, as
// worker/edge): a shipment with the request's data that the service
// cancelled is not adopted, and a full page without the booking is not
// "never booked" (the booking is not sent).
func TestLookedUpNeverAdoptsCancelledNorConcludesFromAFullPage(t *testing.T) {
	e := core.Configure(func(k string) (string, bool) {
		v, ok := env("EXACTLY_ONCE", "true", "BOOKING_GRACE_SECONDS", "90", "UPSTREAM_TIMEOUT_MS", "3000")[k]
		return v, ok
	}, core.Bindings{Bookings: true})
	booking := []byte("shipping_client_ref=O1&carrier_code=rayo&to_name=Ana")
	tk := &core.Ticket{Key: "k", RefField: "shipping_client_ref", Ref: "O1"}
	ctx := core.AnswerContext{Operation: "new-shipment", ClientRef: "O1", Ledger: true}
	cancelled := `{"status":"ok","data":{"page":1,"n_shipments":1,"shipments":[{"shipping_data":{"shipping_dlvr_ref":"D1","shipping_client_ref":"O1","carrier_code":"rayo","status":"-2"},"to_data":{"to_name":"Ana"}}]}}`
	s := e.LookedUp(core.LookedUpInput{Context: ctx, Ticket: tk, UpstreamBody: booking, Upstream: &core.Upstream{Status: 200, Body: []byte(cancelled)}, RequestID: "rid"})
	assert.Equal(t, core.KindRespond, s.Kind)
	assert.Equal(t, 409, s.Response.Status)
	assert.Contains(t, string(s.Response.Body), "did not make or cancelled")
	assert.NotContains(t, string(s.Response.Body), "D1")

	items := make([]string, 50)
	for i := range items {
		items[i] = `{"shipping_data":{"shipping_dlvr_ref":"X","shipping_client_ref":"O10","status":"1"}}`
	}
	full := `{"status":"ok","data":{"page":1,"n_shipments":50,"shipments":[` + strings.Join(items, ",") + `]}}`
	s = e.LookedUp(core.LookedUpInput{Context: ctx, Ticket: tk, UpstreamBody: booking, Upstream: &core.Upstream{Status: 200, Body: []byte(full)}, RequestID: "rid"})
	assert.Equal(t, core.KindRespond, s.Kind, "nothing forwarded")
	assert.Equal(t, 409, s.Response.Status)
	assert.Contains(t, string(s.Response.Body), "booking_unknown")
	assert.Equal(t, core.OutcomeUnsent, s.Finish.Outcome)
}
