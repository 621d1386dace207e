package e2e

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shop's prices under workerd (issue 31): PRICING_RULES applied by
// the edge to the sandbox's rates, raw and normalized; order_value never
// reaches the upstream (the sandbox would refuse an unknown field).
// Still to come: the same prices signed into offers (issue 30).
func TestPricingRulesUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	s := start(t, wranglerdev.Options{Sandbox: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token,
		"PRICING_SHOW_CARRIER_PRICE": "true",
		"PRICING_RULES": `[{"carrier":"rayo","hide":true},` +
			`{"kind":"drop_point","free_from":"60","name":{"en":"Pick-up point","es":"Punto de recogida"}},` +
			`{"markup_fixed":"1"}]`,
	}})
	params := parcel(route(url.Values{}))
	params.Set("order_value", "75.00")
	for _, normalized := range []bool{false, true} {
		hdr := []string{"Accept-Language", "es"}
		if normalized {
			hdr = append(hdr, "Accept", "application/json; parcelgate=normalized")
		}
		// raw: order_value is no parameter of the client, nor the normalized Accept
		r := call(t, s.URL, http.MethodGet, "get-shipments-rates", params, hdr...)
		require.Equal(t, 200, r.Code, r.Raw)
		assert.Equal(t, normalized, r.Header.Get("Parcelgate-Data") == "normalized")
		services, _ := r.Data["services"].([]any)
		require.NotEmpty(t, services, r.Raw)
		home, points := 0, 0
		for _, x := range services {
			sv := x.(map[string]any)
			assert.NotEqual(t, "rayo", sv["carrier_code"], "hidden")
			price, carrier := num(t, sv["price"]), num(t, sv["carrier_price"])
			if dp := sv["is_drop_point"]; dp == true || dp == "1" || dp == 1.0 {
				points++
				assert.Equal(t, 0.0, price, "free from 60: %v", sv)
				assert.Equal(t, "Punto de recogida", sv["service_name"])
			} else {
				home++
				assert.InDelta(t, carrier+1, price, 0.001, "1 € over the carrier's: %v", sv)
			}
		}
		assert.Positive(t, home)
		assert.Positive(t, points)
		best, _ := r.Data["best_price_service"].(map[string]any)
		require.NotNil(t, best, r.Raw)
		assert.Equal(t, 0.0, num(t, best["price"]), "the shop's cheapest: a free drop point")
	}
	// Below the threshold: drop points at the carrier's price.
	params.Set("order_value", "20")
	r := call(t, s.URL, http.MethodGet, "get-shipments-rates", params) // raw: order_value is no parameter of the client
	require.Equal(t, 200, r.Code, r.Raw)
	for _, x := range r.Data["services"].([]any) {
		sv := x.(map[string]any)
		if dp := sv["is_drop_point"]; dp == true || dp == "1" || dp == 1.0 {
			assert.Equal(t, num(t, sv["carrier_price"]), num(t, sv["price"]))
		}
	}
	// A bad order value: refused by the edge, in the shopper's language.
	params.Set("order_value", "20.123")
	r = call(t, s.URL, http.MethodGet, "get-shipments-rates", params, "Accept-Language", "es") // raw: order_value is no parameter of the client
	assert.Equal(t, 400, r.Code, r.Raw)
	assert.Contains(t, r.Raw, "order_value")
	assert.Contains(t, r.Raw, "valor del carrito")
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
