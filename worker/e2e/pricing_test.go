package e2e

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// The shop's prices under workerd (issue 31): PRICING_RULES applied by
// the edge to the sandbox's rates, raw and normalized; order_value never
// reaches the upstream (the sandbox would refuse an unknown field).
// The same prices signed into offers and booked: freeship_test.go.
func TestPricingRulesUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	s := start(t, wranglerdev.Options{Sandbox: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token,
		"PRICING_SHOW_CARRIER_PRICE": "true",
		"PRICING_RULES": `[{"carrier":"rayo","hide":true},` +
			`{"kind":"drop_point","free_from":"60","name":{"en":"Pick-up point","es":"Punto de recogida"}},` +
			`{"markup_fixed":"1"}]`,
	}})
	ctx := context.Background()
	p := rateParams(t, parcel(route(url.Values{})))
	p.OrderValue = "75.00"
	for _, normalized := range []bool{false, true} {
		c := edge(t, s.URL, edgeclient.WithHeader("Accept-Language", "es"), edgeclient.WithNormalized(normalized))
		res, err := c.GetShipmentsRates(ctx, p)
		ok(t, res, err)
		assert.Equal(t, normalized, res.Normalized)
		assert.Equal(t, normalized, res.Header.Get("Parcelgate-Data") == "normalized")
		services := res.Data.Services
		require.NotEmpty(t, services, string(res.Body))
		home, points := 0, 0
		for _, sv := range services {
			assert.NotEqual(t, "rayo", sv.CarrierCode, "hidden")
			carrier := carrierPrice(t, sv)
			if sv.IsDropPoint {
				points++
				assert.Equal(t, 0.0, sv.Price, "free from 60: %+v", sv)
				assert.Equal(t, "Punto de recogida", sv.ServiceName)
			} else {
				home++
				assert.InDelta(t, carrier+1, sv.Price, 0.001, "1 € over the carrier's: %+v", sv)
			}
		}
		assert.Positive(t, home)
		assert.Positive(t, points)
		best := res.Data.BestPriceService
		require.NotNil(t, best, string(res.Body))
		assert.Equal(t, 0.0, best.Price, "the shop's cheapest: a free drop point")
	}
	// Below the threshold: drop points at the carrier's price.
	c := edge(t, s.URL)
	p.OrderValue = "20"
	res, err := c.GetShipmentsRates(ctx, p)
	ok(t, res, err)
	for _, sv := range res.Data.Services {
		if sv.IsDropPoint {
			assert.Equal(t, carrierPrice(t, sv), sv.Price)
		}
	}
	// A bad order value: refused by the edge, in the shopper's language.
	p.OrderValue = "20.123"
	_, err = c.With(edgeclient.WithHeader("Accept-Language", "es")).GetShipmentsRates(ctx, p)
	e := refused(t, err)
	assert.Equal(t, 400, e.HTTPStatus)
	assert.Equal(t, edgeclient.SourceEdge, e.Source)
	f, found := e.Field("order_value")
	require.True(t, found, "%v", e.FieldErrors)
	assert.Contains(t, f.Message, "valor del carrito")
}

// carrierPrice is a priced service's carrier_price (PRICING_SHOW_CARRIER_PRICE):
// the edge's member, kept in the typed result's Extra.
func carrierPrice(t *testing.T, sv edgeclient.RateService) float64 {
	t.Helper()
	b, found := sv.Extra.Get("carrier_price")
	require.True(t, found, "carrier_price: %+v", sv)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	return num(t, v)
}

func num(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(x, 64)
		require.NoError(t, err, x)
		return f
	}
	t.Fatalf("not a number: %#v", v)
	return 0
}
