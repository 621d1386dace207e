package core_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

const offerRatesQuery = "from_country_code=es&from_zip_code=28014&to_country_code=ES&to_zip_code=08001" +
	"&parcels%5B0%5D%5Bparcel_weight%5D=1.50&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10" +
	"&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000"

const offerRatesAnswer = `{"status":"ok","data":{"best_price_service":{"id_service":"12","service_code":"swiftpost-shop","carrier_code":"swiftpost","is_drop_point":"1","price":"3.90","currency":"EUR"},` +
	`"services":[{"id_service":11,"service_code":"acme-24","carrier_code":"acme-express","is_drop_point":0,"price":4.95},` +
	`{"id_service":"12","service_code":"swiftpost-shop","carrier_code":"swiftpost","is_drop_point":"1","price":"3.90","currency":"EUR"},{}]}}`

const pointsAnswer = `{"status":"ok","data":{"drop_points":[{"carrier_code":"swiftpost","drop_point_key":"SP-1","name":"Kiosko"},` +
	`{"carrier_code":"acme-express","drop_point_key":7001}]}}`

// booking is a new-shipment from Madrid to Barcelona with the rates
// query's parcel (weight spelled 1.5).
const offerBooking = "shipping_date=2026-11-23&service_type=custom&carrier_code=acme-express&service_code=acme-24&shipping_client_ref=ORD-30" +
	"&from_name=Tienda&from_address=Calle+1&from_city=Madrid&from_zip_code=28014&from_country_code=ES" +
	"&to_name=Ana&to_address=Carrer+2&to_city=Barcelona&to_zip_code=08001&to_country_code=ES" +
	"&parcels%5B0%5D%5Bparcel_weight%5D=1.5&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000"

// signedAnswer runs a read through prepare and signs its answer (raw, or
// normalized) as the normalize call does.
func signedAnswer(t *testing.T, e *core.Edge, op, query, body string, normalized bool, now time.Time) map[string]any {
	t.Helper()
	p := e.Prepare(op, &core.Request{Method: "GET", Query: query, HasQuery: true, RequestID: "rid", Now: now}, nil)
	require.Equal(t, core.KindForward, p.Kind, "%+v", p.Response)
	require.NotEmpty(t, p.Forward.Sign)
	b := []byte(body)
	if normalized {
		b, _ = core.Normalize(op, b)
	}
	out := e.SignAnswer(op, b, p.Forward.Sign, now)
	var env struct {
		Data map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(out, &env), "%s", out)
	return env.Data
}

func offerOf(t *testing.T, data map[string]any, i int) string {
	t.Helper()
	s, _ := data["services"].([]any)[i].(map[string]any)["offer"].(string)
	return s
}

func keys() offers.Keys { return offers.Keys{[]byte(signing)} }

func TestRatesCarryOffers(t *testing.T) {
	e := ledgerEdge(core.EnvOfferTTL, "600")
	for _, normalized := range []bool{false, true} {
		data := signedAnswer(t, e, "get-shipments-rates", offerRatesQuery, offerRatesAnswer, normalized, day)
		home, err := offers.Verify(keys(), offerOf(t, data, 0), day)
		require.NoError(t, err)
		assert.Equal(t, offers.Offer{Carrier: "acme-express", Service: "acme-24", Price: "4.95", Currency: "EUR",
			From: offers.Place{Country: "ES", Postal: "28014"}, To: offers.Place{Country: "ES", Postal: "08001"},
			Parcels: []offers.Parcel{{Weight: "1.5", Width: "20", Height: "10", Length: "30", Volume: "6000"}},
			Source:  offers.SourceLive, Expires: day.Add(600 * time.Second)}, home)
		dp, err := offers.Verify(keys(), offerOf(t, data, 1), day)
		require.NoError(t, err)
		assert.True(t, dp.DropPoint)
		assert.Equal(t, "3.9", dp.Price)
		best := data["best_price_service"].(map[string]any)["offer"].(string)
		assert.Equal(t, offerOf(t, data, 1), best, "the best price is the same offer")
		assert.Empty(t, offerOf(t, data, 2), "a service without codes or price gets none")
	}
	// Raw and normalized answers carry the same offers.
	assert.Equal(t, offerOf(t, signedAnswer(t, e, "get-shipments-rates", offerRatesQuery, offerRatesAnswer, false, day), 0),
		offerOf(t, signedAnswer(t, e, "get-shipments-rates", offerRatesQuery, offerRatesAnswer, true, day), 0))
	// Drop points carry points bound to the queried place.
	pts := signedAnswer(t, e, "get-drop-points", "country_code=es&zip_code=08001", pointsAnswer, true, day)["drop_points"].([]any)
	p, err := offers.VerifyPoint(keys(), pts[1].(map[string]any)["point"].(string), day)
	require.NoError(t, err)
	assert.Equal(t, offers.Point{Carrier: "acme-express", Key: "7001", Near: offers.Place{Country: "ES", Postal: "08001"}, Expires: day.Add(600 * time.Second)}, p)
}

func TestOfferSettings(t *testing.T) {
	for _, v := range []string{"59", "86401", "x", "-1"} {
		e := edgeOf(core.EnvOfferTTL, v)
		a := drive(t, e, "get-client-carriers", &core.Request{Method: "GET", Authorization: bearerMaster}, nil)
		assert.Equal(t, 500, a.Status, v)
		assert.Contains(t, a.message(), "OFFER_TTL_SECONDS: must be a whole number of seconds from 60 to 86400", v)
	}
	a := drive(t, edgeOf(core.EnvAllowUnbound, "maybe"), "get-client-carriers", &core.Request{Method: "GET", Authorization: bearerMaster}, nil)
	assert.Contains(t, a.message(), "ALLOW_UNBOUND_BOOKING_GRANTS: must be true or false")
}

// book prepares a booking and returns the answer when refused, or nil
// and the upstream body when forwarded.
func book(t *testing.T, e *core.Edge, auth, form, lang string, now time.Time) (*answer, string) {
	t.Helper()
	p := e.Prepare("new-shipment", &core.Request{Method: "POST", Body: []byte(form), ContentType: "application/x-www-form-urlencoded",
		Authorization: auth, AcceptLanguage: lang, RequestID: "rid", Now: now}, nil)
	if p.Kind == core.KindRespond {
		return toAnswer(t, p.Response, nil), ""
	}
	require.Equal(t, core.KindForward, p.Kind)
	return nil, string(p.Forward.UpstreamBody)
}

func TestBookingsHeldToTheirOffer(t *testing.T) {
	e := bookingEdge()
	data := signedAnswer(t, e, "get-shipments-rates", offerRatesQuery, offerRatesAnswer, true, day)
	home, dp := offerOf(t, data, 0), offerOf(t, data, 1)
	pts := signedAnswer(t, e, "get-drop-points", "country_code=ES&zip_code=08001", pointsAnswer, false, day)["drop_points"].([]any)
	spPoint, acmePoint := pts[0].(map[string]any)["point"].(string), pts[1].(map[string]any)["point"].(string)
	otherPlace := signedAnswer(t, e, "get-drop-points", "country_code=ES&zip_code=28014", pointsAnswer, false, day)["drop_points"].([]any)[0].(map[string]any)["point"].(string)
	withOffer := func(form, offer string) string { return form + "&offer=" + url.QueryEscape(offer) }
	dpForm := strings.NewReplacer("carrier_code=acme-express", "carrier_code=swiftpost", "service_code=acme-24", "service_code=swiftpost-shop").Replace(offerBooking)

	// POST /tokens: a booking grant needs an offer; a tampered one is refused.
	r := mintAt(e, "operations=new-shipment&shipping_client_ref=ORD-30", bearerMaster, day)
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "offer", r.Env.Data["errors"].([]any)[0].(map[string]any)["field"])
	tampered := home[:20] + string(home[20]^1) + home[21:]
	r = mintAt(e, "operations=new-shipment&shipping_client_ref=ORD-30&offer="+url.QueryEscape(tampered), bearerMaster, day)
	assert.Equal(t, 400, r.Status, r.Raw)
	assert.Contains(t, r.message(), "offer: ")
	mint := func(offer string) string {
		r := mintAt(e, "operations=new-shipment,get-shipment&shipping_client_ref=ORD-30&ttl=7200&offer="+url.QueryEscape(offer), bearerMaster, day)
		require.Equal(t, 200, r.Status, r.Raw)
		return "Bearer " + r.Env.Data["token"].(string)
	}
	bound, dpBound := mint(home), mint(dp)

	// The offer's booking is forwarded, without offer or point.
	a, sent := book(t, e, bound, withOffer(offerBooking, home), "", day)
	require.Nil(t, a, "%+v", a)
	assert.NotContains(t, sent, "offer")
	assert.NotContains(t, sent, "pgo1")
	a, sent = book(t, e, dpBound, withOffer(dpForm, dp)+"&drop_point_key=SP-1&point="+url.QueryEscape(spPoint), "", day)
	require.Nil(t, a, "%+v", a)
	assert.NotContains(t, sent, "pgp1")
	assert.Contains(t, sent, "drop_point_key=SP-1")

	cases := []struct {
		name, auth, form, class, field string
		status                         int
		now                            time.Time
	}{
		{"another service", bound, withOffer(strings.Replace(offerBooking, "service_code=acme-24", "service_code=acme-10", 1), home), "offer_service", "service_code", 403, day},
		{"another destination", bound, withOffer(strings.Replace(offerBooking, "to_zip_code=08001", "to_zip_code=08002", 1), home), "offer_route", "to_zip_code", 403, day},
		{"another origin", bound, withOffer(strings.Replace(offerBooking, "from_zip_code=28014", "from_zip_code=28001", 1), home), "offer_route", "from_zip_code", 403, day},
		{"a heavier parcel", bound, withOffer(strings.Replace(offerBooking, "parcel_weight%5D=1.5", "parcel_weight%5D=15", 1), home), "offer_parcels", "parcels", 403, day},
		{"another parcel", bound, withOffer(offerBooking+"&parcels%5B1%5D%5Bparcel_weight%5D=1&parcels%5B1%5D%5Bparcel_width%5D=1&parcels%5B1%5D%5Bparcel_height%5D=1&parcels%5B1%5D%5Bparcel_length%5D=1&parcels%5B1%5D%5Bparcel_volume%5D=1", home), "offer_parcels", "parcels", 403, day},
		{"the other offer of the answer", bound, withOffer(dpForm, dp), "offer_other", "", 403, day},
		{"no offer", bound, offerBooking, "offer_required", "offer", 400, day},
		{"a tampered offer (its MAC kept)", bound, withOffer(offerBooking, tampered), "offer_invalid", "", 403, day},
		{"master: an expired offer", bearerMaster, withOffer(offerBooking, home), "offer_expired", "", 403, day.Add(31 * time.Minute)},
		{"expired", bound, withOffer(offerBooking, home), "offer_expired", "", 403, day.Add(31 * time.Minute)},
		{"a drop point of another carrier", dpBound, withOffer(dpForm, dp) + "&drop_point_key=7001&point=" + url.QueryEscape(acmePoint), "offer_drop_point", "drop_point_key", 403, day},
		{"a key the point does not name", dpBound, withOffer(dpForm, dp) + "&drop_point_key=SP-2&point=" + url.QueryEscape(spPoint), "offer_drop_point", "drop_point_key", 403, day},
		{"a point near another place", dpBound, withOffer(dpForm, dp) + "&drop_point_key=SP-1&point=" + url.QueryEscape(otherPlace), "offer_drop_point", "drop_point_key", 403, day},
		{"a drop-point service without a point", dpBound, withOffer(dpForm, dp) + "&drop_point_key=SP-1", "offer_drop_point", "drop_point_key", 403, day},
		{"a home service with a drop point", bound, withOffer(offerBooking, home) + "&drop_point_key=SP-1&point=" + url.QueryEscape(spPoint), "offer_drop_point", "drop_point_key", 403, day},
		{"master: held to the offer it carries", bearerMaster, withOffer(strings.Replace(offerBooking, "service_code=acme-24", "service_code=acme-10", 1), home), "offer_service", "service_code", 403, day},
		{"master: a tampered offer", bearerMaster, withOffer(offerBooking, tampered), "offer_invalid", "", 403, day},
	}
	for _, c := range cases {
		a, sent := book(t, e, c.auth, c.form, "es-ES", c.now)
		require.NotNil(t, a, "%s: forwarded %s", c.name, sent)
		assert.Equal(t, c.status, a.Status, c.name)
		assert.Equal(t, c.class, a.Env.Data["errorClass"], "%s: %s", c.name, a.Raw)
		assert.NotContains(t, a.message(), "the ", "%s: in Spanish: %s", c.name, a.message())
		if c.field != "" {
			errs, _ := a.Env.Data["errors"].([]any)
			require.Len(t, errs, 1, "%s: %s", c.name, a.Raw)
			assert.Equal(t, c.field, errs[0].(map[string]any)["field"], "%s: names what differs", c.name)
		}
	}
	// An unbound booking grant is refused at the booking too (one minted
	// by a Go server with worker/tokens), unless the operator allows it.
	unbound := "Bearer " + mintAt(ledgerEdge(core.EnvAllowUnbound, "true"), "operations=new-shipment&shipping_client_ref=ORD-30", bearerMaster, day).Env.Data["token"].(string)
	a, _ = book(t, e, unbound, offerBooking, "", day)
	require.NotNil(t, a)
	assert.Equal(t, "offer_unbound", a.Env.Data["errorClass"])
	a, _ = book(t, bookingEdgeUnbound(), unbound, offerBooking, "", day)
	assert.Nil(t, a)
	// The master token books without an offer, as before.
	a, _ = book(t, e, bearerMaster, offerBooking, "", day)
	assert.Nil(t, a)
}

func bookingEdgeUnbound() *core.Edge {
	return ledgerEdge(core.EnvBookingGrace, "30", core.EnvUpstreamTimeoutMS, "200", core.EnvAllowUnbound, "true")
}

// The demo token binds its grant to an offer signed with the worker's key.
func TestDemoTokenBindsItsOffer(t *testing.T) {
	e := demoEdge(core.EnvAllowUnbound, "")
	data := signedAnswer(t, e, "get-shipments-rates", offerRatesQuery, offerRatesAnswer, true, day)
	home := offerOf(t, data, 0)
	demo := func(body string) *answer {
		return toAnswer(t, e.DemoToken(&core.Request{Method: "POST", Body: []byte(body), ContentType: "application/x-www-form-urlencoded", RequestID: "rid", Now: day}).Response, nil)
	}
	// Without an offer: the order's reads only (a reloaded confirmation's
	// label and tracking), never a booking.
	r := demo("shipping_client_ref=DEMO-1")
	require.Equal(t, 200, r.Status, r.Raw)
	assert.NotContains(t, r.Env.Data["operations"], "new-shipment")
	assert.Contains(t, r.Env.Data["operations"], "get-shipment-label")
	a, _ := book(t, e, "Bearer "+r.Env.Data["token"].(string), strings.Replace(offerBooking, "ORD-30", "DEMO-1", 1)+"&offer="+url.QueryEscape(home), "", day)
	require.NotNil(t, a, "a read-only demo token books nothing")
	assert.Equal(t, 403, a.Status, a.Raw)
	r = demo("shipping_client_ref=ORD-30&offer=" + url.QueryEscape(home))
	require.Equal(t, 200, r.Status, r.Raw)
	tok := "Bearer " + r.Env.Data["token"].(string)
	a, _ = book(t, e, tok, offerBooking+"&offer="+url.QueryEscape(home), "", day)
	assert.Nil(t, a)
	a, _ = book(t, e, tok, strings.Replace(offerBooking, "to_zip_code=08001", "to_zip_code=08002", 1)+"&offer="+url.QueryEscape(home), "", day)
	require.NotNil(t, a)
	assert.Equal(t, "offer_route", a.Env.Data["errorClass"])
}

// Rotation: offers and points signed before TOKEN_SIGNING_KEY changed
// still book while TOKEN_SIGNING_KEY_PREVIOUS holds the old key, and are
// refused once it is removed; the new key's offers carry its id.
func TestOffersAcrossAKeyRotation(t *testing.T) {
	const newKey = "a-new-token-signing-key-0123456789abcdef"
	old := bookingEdge()
	home := offerOf(t, signedAnswer(t, old, "get-shipments-rates", offerRatesQuery, offerRatesAnswer, true, day), 0)
	rotated := ledgerEdge(core.EnvBookingGrace, "30", core.EnvTokenSigningKey, newKey, core.EnvTokenSigningKeyPrevious, signing)
	a, _ := book(t, rotated, bearerMaster, offerBooking+"&offer="+url.QueryEscape(home), "", day)
	assert.Nil(t, a, "the previous key's offer books during the rotation")
	// And a page's grant binds it: POST /tokens verifies the offer with the
	// key set, as the booking does (it answered offer foreign before).
	form := "operations=new-shipment&shipping_client_ref=ORD-30&offer=" + url.QueryEscape(home)
	mint := func(e *core.Edge) *answer {
		return toAnswer(t, e.Tokens(&core.Request{Method: "POST", Body: []byte(form), ContentType: "application/x-www-form-urlencoded",
			Authorization: bearerMaster, RequestID: "rid", Now: day}).Response, nil)
	}
	minted := mint(rotated)
	require.Equal(t, 200, minted.Status, "the previous key's offer binds during the rotation: %s", minted.Raw)
	a, _ = book(t, rotated, "Bearer "+minted.Env.Data["token"].(string), offerBooking+"&offer="+url.QueryEscape(home), "", day)
	assert.Nil(t, a, "and its grant books it")
	fresh := offerOf(t, signedAnswer(t, rotated, "get-shipments-rates", offerRatesQuery, offerRatesAnswer, true, day), 0)
	assert.Contains(t, fresh, "."+offers.KeyID([]byte(newKey))+".")
	done := ledgerEdge(core.EnvBookingGrace, "30", core.EnvTokenSigningKey, newKey)
	a, _ = book(t, done, bearerMaster, offerBooking+"&offer="+url.QueryEscape(home), "", day)
	require.NotNil(t, a)
	assert.Equal(t, "offer_invalid", a.Env.Data["errorClass"], "refused once the previous key is removed")
	assert.Equal(t, 400, mint(done).Status, "and no grant binds it")
	a, _ = book(t, done, bearerMaster, offerBooking+"&offer="+url.QueryEscape(fresh), "", day)
	assert.Nil(t, a)
}

// A rescued rates answer (data.source recent or fallback, issue 31) is
// not the carrier's price of now: its offers expire after at most five
// minutes, a live one's after OFFER_TTL_SECONDS.
func TestRescuedRatesOffersExpireSooner(t *testing.T) {
	e := demoEdge(core.EnvAllowUnbound, "")
	p := e.Prepare("get-shipments-rates", &core.Request{Method: "GET", Query: offerRatesQuery, HasQuery: true, RequestID: "rid", Now: day}, nil)
	require.Equal(t, core.KindForward, p.Kind)
	for source, ttl := range map[string]time.Duration{core.SourceLive: 1800 * time.Second, core.SourceRecent: core.RescuedOfferTTL, core.SourceFallback: core.RescuedOfferTTL, "": 1800 * time.Second} {
		body := offerRatesAnswer
		if source != "" {
			body = strings.Replace(body, `"data":{`, `"data":{"source":"`+source+`",`, 1)
		}
		for _, normalized := range []bool{false, true} {
			b := []byte(body)
			if normalized {
				b, _ = core.Normalize("get-shipments-rates", b)
				require.Contains(t, string(b), source)
			}
			var env struct {
				Data map[string]any `json:"data"`
			}
			require.NoError(t, json.Unmarshal(e.SignAnswer("get-shipments-rates", b, p.Forward.Sign, day), &env))
			o, err := offers.Verify(keys(), offerOf(t, env.Data, 0), day)
			require.NoError(t, err, source)
			assert.Equal(t, day.Add(ttl).Unix(), o.Expires.Unix(), "source %q normalized=%v", source, normalized)
			want := source
			if want == "" {
				want = core.SourceLive
			}
			assert.Equal(t, want, o.Source, "the offer signs the answer's source (normalized=%v)", normalized)
		}
	}
	// A service's own member named source (the upstream's, passed through)
	// is not the answer's (a live answer, marked as every rates answer
	// through the edge is: core.Live).
	body := core.Live([]byte(strings.Replace(offerRatesAnswer, `"service_code":"acme-24"`, `"service_code":"acme-24","source":"fallback"`, 1))).Body
	for _, normalized := range []bool{false, true} {
		b := body
		if normalized {
			b, _ = core.Normalize("get-shipments-rates", b)
		}
		var env struct {
			Data map[string]any `json:"data"`
		}
		require.NoError(t, json.Unmarshal(e.SignAnswer("get-shipments-rates", b, p.Forward.Sign, day), &env))
		o, err := offers.Verify(keys(), offerOf(t, env.Data, 0), day)
		require.NoError(t, err)
		assert.Equal(t, core.SourceLive, o.Source, "normalized=%v", normalized)
	}
}

// The offer signs the cart's order value the page sent with the rates
// request, as a canonical decimal, with or without pricing rules; none
// when it sent none (issue 31).
func TestOffersSignTheOrderValue(t *testing.T) {
	e := ledgerEdge(core.EnvOfferTTL, "600")
	for q, want := range map[string]string{"": "", "&order_value=79.90": "79.9", "&order_value=0": "0", "&order_value=120": "120"} {
		data := signedAnswer(t, e, "get-shipments-rates", offerRatesQuery+q, offerRatesAnswer, false, day)
		o, err := offers.Verify(keys(), offerOf(t, data, 0), day)
		require.NoError(t, err, q)
		assert.Equal(t, want, o.OrderValue, q)
	}
}

// A fallback offer (the shop's backup price: no carrier's service) is
// never booked by a page: POST /tokens and /demo/token refuse to bind a
// grant to it, and the edge refuses its booking (the master token's, or a
// token bound to its tag by a shop's server that verified it or by a
// version before that rule), each with offer_fallback in the client's
// language, and none reaches the upstream. A recent offer (a carrier's
// service, priced from the last good answer) binds and books (issue 31).
func TestFallbackOffersAreNotBooked(t *testing.T) {
	offerFrom := func(e *core.Edge, source string) string {
		p := e.Prepare("get-shipments-rates", &core.Request{Method: "GET", Query: offerRatesQuery, HasQuery: true, RequestID: "rid", Now: day}, nil)
		require.Equal(t, core.KindForward, p.Kind)
		body := strings.Replace(offerRatesAnswer, `"data":{`, `"data":{"source":"`+source+`",`, 1)
		var env struct {
			Data map[string]any `json:"data"`
		}
		require.NoError(t, json.Unmarshal(e.SignAnswer("get-shipments-rates", []byte(body), p.Forward.Sign, day), &env))
		return offerOf(t, env.Data, 0)
	}
	refused := func(a *answer, what string) {
		t.Helper()
		require.NotNil(t, a, "%s: forwarded", what)
		assert.Equal(t, 403, a.Status, what)
		assert.Equal(t, "offer_fallback", a.Env.Data["errorClass"], "%s: %s", what, a.Raw)
		assert.Contains(t, a.message(), "elige de nuevo un servicio", "%s: in the client's language: quote again", what)
	}
	e, demo := bookingEdge(), demoEdge(core.EnvAllowUnbound, "")
	for _, source := range []string{core.SourceFallback, core.SourceRecent} {
		offer := offerFrom(e, source)
		form := "operations=new-shipment&shipping_client_ref=ORD-30&offer=" + url.QueryEscape(offer)
		minted := toAnswer(t, e.Tokens(&core.Request{Method: "POST", Body: []byte(form), ContentType: "application/x-www-form-urlencoded",
			Authorization: bearerMaster, AcceptLanguage: "es", RequestID: "rid", Now: day}).Response, nil)
		demoMinted := toAnswer(t, demo.DemoToken(&core.Request{Method: "POST", Body: []byte("shipping_client_ref=ORD-30&offer=" + url.QueryEscape(offerFrom(demo, source))),
			ContentType: "application/x-www-form-urlencoded", AcceptLanguage: "es", RequestID: "rid", Now: day}).Response, nil)
		// Bound by its tag, as tokens.Mint binds a grant whose caller
		// verified the offer itself (Grant.OfferTag).
		tagged, _, err := tokens.Mint([]byte(signing), tokens.Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "ORD-30", OfferTag: offers.Tag(offer)}, 0, day)
		require.NoError(t, err)
		if source == core.SourceRecent {
			require.Equal(t, 200, minted.Status, minted.Raw)
			require.Equal(t, 200, demoMinted.Status, demoMinted.Raw)
			a, _ := book(t, e, "Bearer "+minted.Env.Data["token"].(string), offerBooking+"&offer="+url.QueryEscape(offer), "es", day)
			assert.Nil(t, a, "a recent offer books")
			continue
		}
		refused(minted, "POST /tokens")
		refused(demoMinted, "/demo/token")
		for who, auth := range map[string]string{"master": bearerMaster, "tag": "Bearer " + tagged} {
			a, _ := book(t, e, auth, offerBooking+"&offer="+url.QueryEscape(offer), "es", day)
			refused(a, "booking with the "+who+" token")
		}
	}
}
