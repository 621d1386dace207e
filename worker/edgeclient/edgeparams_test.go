package edgeclient

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/worker/core"
)

// The edge's own parameters (internal/catalog/edgeparams.go) are the names
// the edge core reads and strips: one declaration, checked here against
// the core's constants.
func TestEdgeParamsAreTheCoresNames(t *testing.T) {
	assert.Equal(t, core.FieldOrderValue, catalog.ParamOrderValue)
	assert.Equal(t, core.FieldOffer, catalog.ParamOffer)
	assert.Equal(t, core.FieldPoint, catalog.ParamPoint)
	assert.Contains(t, NormalizedAccept, core.NormalizedAccept)
}

// Every Params struct has a typed field for each of its operation's
// edge-only parameters (the policy table's Rules (RulesPrice) and Offered columns),
// and no other operation has one.
func TestEdgeParamsAreGeneratedFields(t *testing.T) {
	params := map[Operation]any{}
	for _, p := range []Params{GetClientCarriersParams{}, GetClientServicesParams{}, GetShipmentsRatesParams{},
		GetShipmentTimeArrivalEstimationParams{}, GetServiceInfoParams{}, GetDropPointsParams{}, NewShipmentParams{},
		GetCollectionCutoffHourParams{}, NewCollectionParams{}, GetShipmentLabelParams{}, GetShipmentParams{},
		GetShipmentsParams{}, GetShipmentTrackingParams{}} {
		params[p.operation()] = p
	}
	require.Len(t, params, len(Operations))
	seen := 0
	for i := range catalog.Policies {
		pol := &catalog.Policies[i]
		typ := reflect.TypeOf(params[Operation(pol.Name)])
		own := pol.EdgeParams()
		for _, e := range own {
			f, ok := typ.FieldByName(camel(e.Name))
			if assert.True(t, ok, "%s has no field for %s", typ, e.Name) {
				assert.Equal(t, reflect.String, f.Type.Kind())
			}
			seen++
		}
		for _, name := range []string{catalog.ParamOrderValue, catalog.ParamOffer, catalog.ParamPoint} {
			if !hasParam(own, name) {
				_, ok := typ.FieldByName(camel(name))
				assert.False(t, ok, "%s has a field for %s, which the edge does not read for %s", typ, name, pol.Name)
			}
		}
	}
	assert.Equal(t, 3, seen, "order_value on rates, offer and point on new-shipment")
}

func hasParam(own []catalog.EdgeParam, name string) bool {
	for _, e := range own {
		if e.Name == name {
			return true
		}
	}
	return false
}

func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

const quoted = `{"status":"ok","data":{"best_price_service":{"id_service":"12","service_name":"Shop","service_code":"swiftpost-shop","service_type":"48",` +
	`"carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"0.00","currency":"EUR","offer":"pgo1.x.y","carrier_price":"3.90"},` +
	`"services":[{"id_service":"12","service_name":"Shop","service_code":"swiftpost-shop","service_type":"48",` +
	`"carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"0.00","currency":"EUR","offer":"pgo1.x.y","carrier_price":"3.90"},` +
	`{"id_service":13,"service_name":"Home","service_code":"swiftpost-home","service_type":"24","carrier_code":"swiftpost",` +
	`"carrier_name":"SwiftPost","is_drop_point":0,"price":5.9,"offer":"pgo1.a.b"}],"source":"live"}}`

// order_value goes in the rates query, as written, with the route and
// parcels; the default Accept is plain JSON and the answer is not marked
// normalized.
func TestOrderValueOnTheWire(t *testing.T) {
	s, c, _ := serve(t, answer{200, nil, quoted})
	res, err := c.GetShipmentsRates(context.Background(), GetShipmentsRatesParams{FromCountryCode: "ES", FromZipCode: "28014",
		ToCountryCode: "ES", ToZipCode: "08001", Parcels: []Parcel{{Weight: "2.5"}}, OrderValue: "59.90"})
	require.NoError(t, err)
	assert.False(t, res.Normalized)
	require.Len(t, s.reqs, 1)
	r := s.reqs[0]
	assert.Equal(t, "GET", r.Method)
	assert.Equal(t, "application/json", r.Header.Get("Accept"))
	assert.Equal(t, "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001&order_value=59.90&parcels[0][parcel_weight]=2.5", r.URL.RawQuery)
	assert.Equal(t, "pgo1.x.y", res.Data.BestPriceService.Offer)

	// Absent when not given: nothing the edge would read as a cart of 0.
	_, err = c.GetShipmentsRates(context.Background(), GetShipmentsRatesParams{FromCountryCode: "ES"})
	require.NoError(t, err)
	assert.NotContains(t, s.reqs[1].URL.RawQuery, "order_value")
}

// offer and point go in the booking's body after the catalog's fields,
// once, and the resend is the same bytes.
func TestOfferAndPointOnTheWire(t *testing.T) {
	s, c, _ := serve(t, answer{200, nil, shipped})
	b := booking
	b.Offer, b.Point, b.DropPointKey = "pgo1.offer.sig", "pgp1.point.sig", "SP-1"
	_, err := c.NewShipment(context.Background(), b)
	require.NoError(t, err)
	require.Len(t, s.bodies, 1)
	q, err := url.ParseQuery(s.bodies[0])
	require.NoError(t, err)
	assert.Equal(t, []string{"pgo1.offer.sig"}, q["offer"])
	assert.Equal(t, []string{"pgp1.point.sig"}, q["point"])
	assert.Equal(t, []string{"SP-1"}, q["drop_point_key"])
	assert.Contains(t, s.bodies[0], "&to_country_code=ES&offer=pgo1.offer.sig&point=pgp1.point.sig&insurance=1&parcels[0]",
		"after the catalog's fields, the edge's own, then the carrier's")

	// Without them, neither is sent (a master-token booking held to no offer).
	_, err = c.NewShipment(context.Background(), booking)
	require.NoError(t, err)
	q, _ = url.ParseQuery(s.bodies[1])
	assert.NotContains(t, q, "offer")
	assert.NotContains(t, q, "point")
}

// Extra may repeat an edge-only field with its value, or give it when the
// typed field is empty (one field on the wire either way); another value
// is refused before anything is sent, naming the field, not settled by
// picking one of the two offers.
func TestExtraCannotContradictTheEdgesFields(t *testing.T) {
	s, c, _ := serve(t, answer{200, nil, shipped})
	ctx := context.Background()

	b := booking
	b.Offer = "pgo1.offer.sig"
	b.Extra = []Field{{Name: "offer", Value: "pgo1.offer.sig"}, {Name: "insurance", Value: "1"}}
	_, err := c.NewShipment(ctx, b)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(s.bodies[0], "offer="), s.bodies[0])

	b = booking
	b.Extra = []Field{{Name: "point", Value: "pgp1.p"}, {Name: "offer", Value: "pgo1.o"}}
	_, err = c.NewShipment(ctx, b)
	require.NoError(t, err)
	q, _ := url.ParseQuery(s.bodies[1])
	assert.Equal(t, []string{"pgo1.o"}, q["offer"])
	assert.Equal(t, []string{"pgp1.p"}, q["point"])

	for _, tc := range []struct {
		field string
		p     func(*NewShipmentParams)
	}{
		{"offer", func(p *NewShipmentParams) { p.Offer = "pgo1.a"; p.Extra = []Field{{Name: "offer", Value: "pgo1.b"}} }},
		{"point", func(p *NewShipmentParams) {
			p.Offer, p.Point = "pgo1.a", "pgp1.a"
			p.Extra = []Field{{Name: "insurance", Value: "1"}, {Name: "point", Value: "pgp1.b"}}
		}},
	} {
		n := s.count()
		b := booking
		tc.p(&b)
		for _, send := range []func() error{
			func() error { _, err := c.NewShipment(ctx, b); return err },
			func() error { _, err := c.Call(ctx, b); return err },
		} {
			err := send()
			var e *Error
			require.True(t, errors.As(err, &e), "%v", err)
			assert.Equal(t, SourceClient, e.Source)
			assert.Equal(t, OpNewShipment, e.Operation)
			assert.Equal(t, 400, e.Code)
			assert.Equal(t, 0, e.Attempts)
			f, ok := e.Field(tc.field)
			assert.True(t, ok, "%v", e.FieldErrors)
			assert.Contains(t, f.Message, "repeated field")
			assert.Contains(t, err.Error(), tc.field+": repeated field")
		}
		assert.Equal(t, n, s.count(), "%s: nothing sent", tc.field)
	}

	// A catalog field in Extra still replaces it (carrier-specific spellings).
	b = booking
	b.Extra = []Field{{Name: "to_name", Value: "Other"}}
	_, err = c.NewShipment(ctx, b)
	require.NoError(t, err)
	q, _ = url.ParseQuery(s.bodies[len(s.bodies)-1])
	assert.Equal(t, []string{"Other"}, q["to_name"])
}

// WithNormalized asks for the edge's normalized data; the answer is
// marked, and the typed result of the edge's normalized answer (what
// worker/core's Normalize writes) is the typed result of the raw one.
func TestNormalizedAnswers(t *testing.T) {
	norm, ok := core.Normalize(string(OpGetShipmentsRates), []byte(quoted))
	require.True(t, ok)
	require.NotEqual(t, quoted, string(norm))
	assert.Contains(t, string(norm), `"is_drop_point":true`)

	s, c, _ := serve(t, answer{200, map[string]string{"Parcelgate-Data": "normalized"}, string(norm)}, answer{200, nil, quoted})
	nc := c.With(WithNormalized(true))
	ctx := context.Background()
	p := GetShipmentsRatesParams{FromCountryCode: "ES", OrderValue: "75.00"}
	n, err := nc.GetShipmentsRates(ctx, p)
	require.NoError(t, err)
	assert.Equal(t, NormalizedAccept, s.reqs[0].Header.Get("Accept"))
	assert.True(t, n.Normalized)
	raw, err := c.GetShipmentsRates(ctx, p) // the Client nc was made from keeps the default
	require.NoError(t, err)
	assert.Equal(t, "application/json", s.reqs[1].Header.Get("Accept"))
	assert.False(t, raw.Normalized)

	want, err := envelope.DecodeRates(200, []byte(quoted))
	require.NoError(t, err)
	assert.Equal(t, want, raw.Data)
	assert.Equal(t, want.Services, n.Data.Services, "the same typed services")
	assert.Equal(t, *want.BestPriceService, *n.Data.BestPriceService)
	assert.Equal(t, 0.0, n.Data.Services[0].Price)
	assert.True(t, n.Data.Services[0].IsDropPoint)
	src, _ := n.Data.Extra.Get("source")
	assert.Equal(t, `"live"`, string(src))

	// Call relays the normalized data undecoded: what a page would get.
	s2, c2, _ := serve(t, answer{200, map[string]string{"Parcelgate-Data": "normalized"}, string(norm)})
	rel, err := c2.With(WithNormalized(true)).Call(ctx, p)
	require.NoError(t, err)
	assert.True(t, rel.Normalized)
	assert.Contains(t, string(rel.Data), `"price":0,`)
	assert.Equal(t, NormalizedAccept, s2.reqs[0].Header.Get("Accept"))

	// A caller's Accept header is the Client's to set.
	_, err = c2.With(WithHeader("Accept", "text/html")).Call(ctx, p)
	require.NoError(t, err)
	assert.Equal(t, "application/json", s2.reqs[1].Header.Get("Accept"))
}
