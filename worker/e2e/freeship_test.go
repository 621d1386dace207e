//go:build !(js && wasm)

package e2e

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
	"github.com/parcelgate/parcelgate/worker/offers"
)

// "Books at 0 €" end to end under workerd, against the sandbox (issue
// 31): the demo shop's rule (drop points free from 60 €) makes a 79 €
// cart's drop-point service free; its offer signs price 0 and the cart's
// order value; the shop's server verifies both offline, mints the grant
// bound to that offer, and the page's booking of it, with a point of its
// carrier listed near the destination, goes through once.
func TestFreeShippingBooksAtZero(t *testing.T) {
	skipUnlessE2E(t)
	s := start(t, wranglerdev.Options{Sandbox: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey,
		"PRICING_RULES": `[{"kind":"drop_point","free_from":"60"}]`,
	}})
	// Quote with the cart's value. Raw: order_value is the edge's own
	// parameter, no parameter of the client (as pricing_test.go's).
	q := parcel(route(url.Values{}))
	q.Set("order_value", "79.00")
	rates := call(t, s.URL, http.MethodGet, "get-shipments-rates", q, "Accept-Language", "es")
	require.Equal(t, 200, rates.Code, rates.Raw)
	assert.Equal(t, "live", rates.Header.Get("Rates-Source"))

	// The drop points near the destination, each with its signed point.
	pts := do(t, edge(t, s.URL), edgeclient.GetDropPointsParams{CountryCode: "ES", ZipCode: "08001"})
	require.Equal(t, 200, pts.Code, pts.Raw)
	list := pts.List
	if list == nil {
		list, _ = pts.Data["drop_points"].([]any)
	}
	pointOf := map[string][2]string{} // carrier -> key, point
	for _, x := range list {
		m := x.(map[string]any)
		c := str(m, "carrier_code")
		if _, seen := pointOf[c]; !seen && str(m, "point") != "" {
			pointOf[c] = [2]string{str(m, "drop_point_key"), str(m, "point")}
		}
	}

	// The shopper chooses a free drop-point service of a carrier with a
	// point there.
	var chosen map[string]any
	for _, x := range rates.Data["services"].([]any) {
		m := x.(map[string]any)
		dp := m["is_drop_point"]
		if (dp == true || dp == "1" || dp == 1.0) && num(t, m["price"]) == 0 && pointOf[str(m, "carrier_code")][1] != "" {
			chosen = m
			break
		}
	}
	require.NotNil(t, chosen, "no free drop-point service with a point near 08001: %s\n%s", rates.Raw, pts.Raw)
	carrier, service, offer := str(chosen, "carrier_code"), str(chosen, "service_code"), str(chosen, "offer")
	require.NotEmpty(t, offer, "%v", chosen)

	// The shop's server: the signed facts are the free price and the cart
	// it was given for.
	o, err := offers.Verify(offers.Keys{[]byte(signingKey)}, offer, time.Now())
	require.NoError(t, err)
	assert.Equal(t, "0", o.Price, "free from 60")
	assert.Equal(t, "79", o.OrderValue, "the cart's value, signed")
	assert.Equal(t, offers.SourceLive, o.Source)
	assert.Equal(t, carrier, o.Carrier)
	assert.Equal(t, service, o.Service)
	assert.True(t, o.DropPoint)

	// It mints the page's booking token bound to the offer (raw: /tokens
	// is the shop server's minting path, no operation of the client).
	mint := call(t, s.URL, http.MethodPost, "../tokens", url.Values{
		"operations": {"new-shipment"}, "shipping_client_ref": {"FREE-1"}, "offer": {offer}}, bearer()...)
	require.Equal(t, 200, mint.Code, mint.Raw)
	page := edge(t, s.URL, edgeclient.WithToken(str(mint.Data, "token")))

	v := shipment("FREE-1", carrier)
	v.Set("service_code", service)
	v.Set("offer", offer)
	v.Set("drop_point_key", pointOf[carrier][0])
	v.Set("point", pointOf[carrier][1])
	r := book(t, page, v)
	require.Equal(t, 200, r.Code, r.Raw)
	dlvr := str(r.Data, "shipping_dlvr_ref")
	require.NotEmpty(t, dlvr, r.Raw)
	// Once: the resend (a double click) is the first answer.
	again := book(t, page, v)
	require.Equal(t, 200, again.Code, again.Raw)
	assert.Equal(t, dlvr, str(again.Data, "shipping_dlvr_ref"))
}

// The fallback table under workerd, with the sandbox failing (issue 31):
// the shop's backup prices get the free-shipping rule but no markup
// again, the offers sign source fallback and the cart's value, and a
// fallback offer (no carrier's service) is never booked: POST /tokens
// refuses to bind a grant to it and the edge refuses a booking of it
// (the master token's), both with offer_fallback in the client's
// language, before any upstream call.
func TestFallbackOffersUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	s := start(t, wranglerdev.Options{Sandbox: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey,
		"PRICING_RULES":  `[{"kind":"drop_point","markup_fixed":"1","free_from":"60"},{"markup_percent":10,"round_end":".95"}]`,
		"RATES_FALLBACK": "ES:home=4.50,drop=3.50",
	}})
	q := parcel(route(url.Values{}))
	q.Set("order_value", "79.00")
	// Raw: order_value is no parameter of the client.
	r := call(t, s.URL, http.MethodGet, "get-shipments-rates", q, "Sandbox-Fault", "status=503")
	require.Equal(t, 200, r.Code, r.Raw)
	assert.Equal(t, "fallback", r.Header.Get("Rates-Source"))
	offerOf := map[string]string{}
	for _, x := range r.Data["services"].([]any) {
		m := x.(map[string]any)
		switch str(m, "service_code") {
		case "fallback-home":
			assert.Equal(t, 4.5, num(t, m["price"]), "the shop's own price: no 10 %% and .95 again")
		case "fallback-drop":
			assert.Equal(t, 0.0, num(t, m["price"]), "free from 60, no 1 € markup")
		}
		offerOf[str(m, "service_code")] = str(m, "offer")
	}
	require.NotEmpty(t, offerOf["fallback-home"], r.Raw)
	o, err := offers.Verify(offers.Keys{[]byte(signingKey)}, offerOf["fallback-home"], time.Now())
	require.NoError(t, err)
	assert.Equal(t, offers.SourceFallback, o.Source)
	assert.Equal(t, "79", o.OrderValue)
	assert.Equal(t, "4.5", o.Price)

	mint := call(t, s.URL, http.MethodPost, "../tokens", url.Values{
		"operations": {"new-shipment"}, "shipping_client_ref": {"FALLBACK-1"}, "offer": {offerOf["fallback-home"]}}, append(bearer(), "Accept-Language", "es")...)
	assert.Equal(t, 403, mint.Code, mint.Raw)
	assert.Equal(t, "offer_fallback", str(mint.Data, "errorClass"), mint.Raw)
	assert.Contains(t, str(mint.Data, "errorMessage"), "elige de nuevo un servicio", mint.Raw)
	assert.Empty(t, str(mint.Data, "token"), mint.Raw)
	v := shipment("FALLBACK-1", "fallback")
	v.Set("service_code", "fallback-home")
	v.Set("offer", offerOf["fallback-home"])
	b := book(t, edge(t, s.URL, edgeclient.WithHeader("Accept-Language", "es")), v)
	assert.Equal(t, 403, b.Code, b.Raw)
	assert.Equal(t, "offer_fallback", str(b.Data, "errorClass"), b.Raw)
	assert.Contains(t, str(b.Data, "errorMessage"), "elige de nuevo un servicio", b.Raw)
	// Nothing was booked: the shop's server finds no shipment of that reference.
	got := do(t, edge(t, s.URL), edgeclient.GetShipmentsParams{FilterShippingClientRef: "FALLBACK-1"})
	assert.NotContains(t, got.Raw, "shipping_dlvr_ref", got.Raw)
}
