//go:build !(js && wasm)

package e2e

import (
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

func TestBookingsExactlyOnceUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, nil)

	// Ten concurrent identical bookings (the upstream takes 1.5 s): one
	// reaches the upstream, all get its answer.
	var wg sync.WaitGroup
	rs := make([]*result, 10)
	for i := range rs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rs[i] = call(t, s.URL, http.MethodPost, "new-shipment", shipment("SAME-1", "delay"), bearer()...)
		}(i)
	}
	wg.Wait()
	replayed := 0
	for _, r := range rs {
		require.Equal(t, 200, r.Code, r.Raw)
		assert.Equal(t, rs[0].Raw, r.Raw, "every duplicate gets the same answer")
		if r.Header.Get("Idempotent-Replayed") == "true" {
			replayed++
		}
	}
	assert.Equal(t, 9, replayed)
	assert.Equal(t, 1, up.bookings(), "ten concurrent identical bookings reach the upstream once")

	// Later: the same data is replayed, other data is a conflict.
	r := call(t, s.URL, http.MethodPost, "new-shipment", shipment("SAME-1", "delay"), bearer()...)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	other := shipment("SAME-1", "delay")
	other.Set("to_name", "Someone Else")
	r = call(t, s.URL, http.MethodPost, "new-shipment", other, bearer()...)
	assert.Equal(t, 409, r.Code, r.Raw)
	assert.EqualValues(t, 421, r.Data["errorCode"])
	assert.Equal(t, 1, up.bookings())

	// A refusal releases the reference.
	r = call(t, s.URL, http.MethodPost, "new-shipment", shipment("REJ-1", "reject-108"), bearer()...)
	assert.EqualValues(t, 108, r.Data["errorCode"])
	r = call(t, s.URL, http.MethodPost, "new-shipment", shipment("REJ-1", "rayo"), bearer()...)
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.Empty(t, r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 3, up.bookings())
}

func TestBookingLostAnswerBooksOnce(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, nil)
	// The upstream books, then drops the connection: the answer is lost.
	r := call(t, s.URL, http.MethodPost, "new-shipment", shipment("LOST-1", "hangup"), bearer()...)
	assert.Equal(t, 502, r.Code, r.Raw)
	assert.Contains(t, str(r.Data, "hint"), "never books twice")
	// The shop resends: the edge finds the booking instead of making another.
	r = call(t, s.URL, http.MethodPost, "new-shipment", shipment("LOST-1", "hangup"), bearer()...)
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, "DLV-LOST-1", str(r.Data, "shipping_dlvr_ref"))
	assert.Equal(t, 1, up.bookings(), "the lost booking was made once")
}

func TestBookingsRefusedWithoutTheDurableObject(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := start(t, wranglerdev.Options{NoBookings: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token}})
	r := call(t, s.URL, http.MethodPost, "new-shipment", shipment("NODO-1", "rayo"), bearer()...)
	assert.Equal(t, 500, r.Code, r.Raw)
	assert.Contains(t, str(r.Data, "errorMessage"), "BOOKINGS")
	assert.Equal(t, 0, up.bookings(), "fail closed: nothing booked")
}

// The shop's server mints one token for the order; the page books with it
// and then reads that shipment's label and tracking, nothing else.
func TestScopedTokenFlowUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	const signing = "e2e-token-signing-key-0123456789abcdef"
	s := start(t, wranglerdev.Options{KV: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signing}})
	mint := call(t, s.URL, http.MethodPost, "../tokens", url.Values{
		"operations":          {"new-shipment,get-shipment-label,get-shipment-tracking"},
		"shipping_client_ref": {"SCOPED-1"}}, bearer()...)
	require.Equal(t, 200, mint.Code, mint.Raw)
	scoped := []string{"Authorization", "Bearer " + str(mint.Data, "token")}

	v := shipment("SCOPED-1", "rayo")
	v.Set("service_code", "rayo-48")
	r := call(t, s.URL, http.MethodPost, "new-shipment", v, scoped...)
	require.Equal(t, 200, r.Code, r.Raw)
	dlvr := str(r.Data, "shipping_dlvr_ref")
	require.NotEmpty(t, dlvr)

	r = call(t, s.URL, http.MethodGet, "get-shipment-label", url.Values{"dlvr_ref": {dlvr}}, scoped...)
	assert.Equal(t, 200, r.Code, r.Raw)
	assert.NotEmpty(t, str(r.Data, "label_raw"))
	r = call(t, s.URL, http.MethodGet, "get-shipment-tracking", url.Values{"client_ref": {"SCOPED-1"}}, scoped...)
	assert.Equal(t, 200, r.Code, r.Raw)

	// Another order's reference, another operation: refused.
	other := shipment("SCOPED-2", "rayo")
	other.Set("service_code", "rayo-48")
	r = call(t, s.URL, http.MethodPost, "new-shipment", other, scoped...)
	assert.Equal(t, 403, r.Code, r.Raw)
	r = call(t, s.URL, http.MethodGet, "get-shipments", nil, scoped...)
	assert.Equal(t, 403, r.Code, r.Raw)
	// A different booking made by the shop's server is not readable with it.
	r = call(t, s.URL, http.MethodPost, "new-shipment", other, bearer()...)
	require.Equal(t, 200, r.Code, r.Raw)
	r = call(t, s.URL, http.MethodGet, "get-shipment-label", url.Values{"dlvr_ref": {str(r.Data, "shipping_dlvr_ref")}}, scoped...)
	assert.Equal(t, 403, r.Code, r.Raw)
}
