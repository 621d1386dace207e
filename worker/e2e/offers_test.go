package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// The recording fake upstream's rates and drop points (newUpstream): a
// home service of rayo and a drop-point service of swift; a drop point of
// each carrier.
const (
	offersRates = `{"status":"ok","data":{"services":[` +
		`{"id_service":1,"service_code":"rayo-24","carrier_code":"rayo","is_drop_point":0,"price":"4.95","currency":"EUR"},` +
		`{"id_service":2,"service_code":"swift-shop","carrier_code":"swift","is_drop_point":1,"price":"3.90","currency":"EUR"}]}}`
	offersPoints = `{"status":"ok","data":[{"carrier_code":"rayo","drop_point_key":"R-1","name":"Kiosko"},` +
		`{"carrier_code":"swift","drop_point_key":"S-1","name":"Estanco"}]}`
)

// Issue 30 under workerd, against the recording fake upstream: what a
// page's script may change after the quote is refused with its code and
// never reaches the upstream; the offer's booking does, without offer or
// point.
func TestOfferRefusalsReachNoUpstream(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := start(t, wranglerdev.Options{Vars: map[string]string{
		"UPSTREAM_BASE_URL": up.srv.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey}})
	var quote edgeclient.GetShipmentsRatesParams
	fill(t, parcel(route(url.Values{})), &quote)
	rates := do(t, edge(t, s.URL), quote)
	require.Equal(t, 200, rates.Code, rates.Raw)
	offerOf := func(service string) string {
		for _, x := range rates.Data["services"].([]any) {
			if m := x.(map[string]any); m["service_code"] == service {
				return m["offer"].(string)
			}
		}
		t.Fatalf("no %s: %s", service, rates.Raw)
		return ""
	}
	require.NotNil(t, rates.Data["services"], rates.Raw)
	home, shop := offerOf("rayo-24"), offerOf("swift-shop")
	pts := do(t, edge(t, s.URL), edgeclient.GetDropPointsParams{CountryCode: "ES", ZipCode: "08001"})
	require.Equal(t, 200, pts.Code, pts.Raw)
	var rayoPoint, swiftPoint string
	for _, x := range pts.List {
		m := x.(map[string]any)
		if m["carrier_code"] == "rayo" {
			rayoPoint, _ = m["point"].(string)
		} else {
			swiftPoint, _ = m["point"].(string)
		}
	}
	require.NotEmpty(t, rayoPoint, pts.Raw)
	require.NotEmpty(t, swiftPoint, pts.Raw)
	// An offer of this worker's key that expired a minute ago, as a page
	// left open would hold.
	expired, err := offers.Sign([]byte(signingKey), &offers.Offer{Carrier: "rayo", Service: "rayo-24", Price: "4.95", Currency: "EUR",
		From: offers.Place{Country: "ES", Postal: "28014"}, To: offers.Place{Country: "ES", Postal: "08001"},
		Parcels: []offers.Parcel{{Weight: "2.5", Width: "20", Height: "10", Length: "30", Volume: "6000"}}, Expires: time.Now().Add(-time.Minute)})
	require.NoError(t, err)
	// A booking grant without an offer, minted by a Go server with the
	// key (POST /tokens refuses to mint it).
	unbound, _, err := tokens.Mint([]byte(signingKey), tokens.Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "OFR-U"}, time.Hour, time.Now())
	require.NoError(t, err)

	// booking books through the client with the master token or, if given,
	// the token tok.
	booking := func(ref, service, offer string, more url.Values, tok ...string) *result {
		v := shipment(ref, strings.SplitN(service, "-", 2)[0])
		v.Set("service_code", service)
		if offer != "" {
			v.Set("offer", offer)
		}
		for k, x := range more {
			v[k] = x
		}
		c := edge(t, s.URL)
		if len(tok) > 0 {
			c = edge(t, s.URL, edgeclient.WithToken(tok[0]))
		}
		return book(t, c, v)
	}
	before := up.bookings()
	for _, c := range []struct {
		name, class string
		r           *result
	}{
		{"a drop point of another carrier", "offer_drop_point", booking("OFR-1", "swift-shop", shop, url.Values{"drop_point_key": {"R-1"}, "point": {rayoPoint}})},
		{"another service", "offer_service", booking("OFR-2", "rayo-48", home, nil)},
		{"an expired offer", "offer_expired", booking("OFR-3", "rayo-24", expired, nil)},
		{"an unbound booking grant", "offer_unbound", booking("OFR-U", "rayo-24", "", nil, unbound)},
	} {
		assert.Equal(t, 403, c.r.Code, "%s: %s", c.name, c.r.Raw)
		assert.Equal(t, c.class, str(c.r.Data, "errorClass"), "%s: %s", c.name, c.r.Raw)
	}
	assert.Equal(t, before, up.bookings(), "refused bookings reach no upstream")

	// The offer's booking, with the point of its carrier: forwarded once,
	// without offer or point.
	r := booking("OFR-4", "swift-shop", shop, url.Values{"drop_point_key": {"S-1"}, "point": {swiftPoint}})
	require.Equal(t, 200, r.Code, r.Raw)
	require.Equal(t, before+1, up.bookings())
	sent := up.last().Body
	assert.Contains(t, sent, "drop_point_key=S-1")
	assert.NotContains(t, sent, "offer")
	assert.NotContains(t, sent, "pgp1")
}
