package core_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/core"
	"github.com/parcelgate/parcelgate/worker/core/seam"
	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shop's prices at the edge (issue 31): PRICING_RULES checked by
// Configure, order_value taken off the rates request, the rules applied
// by the normalize call to raw and normalized answers.

// ratesBody is a rates answer as the upstream sends it: SwiftPost's drop
// point service the cheapest at "3.90" (a string), Acme 24 home delivery
// at 4.95 (a number).
const ratesBody = `{"status":"ok","data":{"best_price_service":{"id_service":"12","service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"3.90","currency":"EUR"},"services":[{"id_service":11,"service_name":"Acme 24","service_code":"acme-24","service_type":"24","carrier_code":"acme-express","carrier_name":"Acme Express","is_drop_point":0,"price":4.95,"currency":"EUR"},{"id_service":"12","service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"3.90","currency":"EUR"}]}}`

// shopRules: drop points 1 € more and free from 60; home delivery 10 %
// more, ending in .95, named the shop's way.
const shopRules = `[{"kind":"drop_point","markup_fixed":"1","free_from":"60"},` +
	`{"markup_percent":10,"round_end":".95","name":{"en":"Express 24","es":"Urgente 24"}}]`

const ratesQuery = "from_country_code=ES&from_zip_code=28014&to_country_code=es&to_zip_code=08001" +
	"&parcels[0][parcel_weight]=2&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000"

func pricedEdge(t *testing.T, extra ...string) *core.Edge {
	t.Helper()
	vars := env(append([]string{"PRICING_RULES", shopRules}, extra...)...)
	e := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{})
	require.Empty(t, e.Problems())
	return e
}

func prepareRates(e *core.Edge, query, lang string) *core.Prepared {
	return e.Prepare("get-shipments-rates", &core.Request{Method: "GET", Query: query, HasQuery: true, AcceptLanguage: lang,
		ClientIP: "203.0.113.9", RequestID: "rid", Now: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)}, nil)
}

// normalizeCall is worker/src's data(): the normalize call with the
// forward's pricing basis, raw (keep) or normalized.
func normalizeCall(t *testing.T, e *core.Edge, basis string, normalized bool, body string) (string, bool) {
	t.Helper()
	c := core.Calls{Edge: e}
	in, _ := json.Marshal(map[string]any{"operation": "get-shipments-rates", "keep": !normalized, "pricing": basis})
	head, parts := c.Call(seam.MethodNormalize, in, []byte(body))
	raw := bytes.Join(parts, nil) // the one raw part: the body
	var h struct{ Normalized bool }
	require.NoError(t, json.Unmarshal(head, &h))
	return string(raw), h.Normalized
}

type rate struct {
	ServiceCode  string          `json:"service_code"`
	ServiceName  string          `json:"service_name"`
	Price        json.RawMessage `json:"price"`
	CarrierPrice json.RawMessage `json:"carrier_price"`
}

func ratesOf(t *testing.T, body string) (best *rate, services []rate) {
	t.Helper()
	var env struct {
		Data struct {
			Best     json.RawMessage `json:"best_price_service"`
			Services []rate          `json:"services"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &env), body)
	if b := strings.TrimSpace(string(env.Data.Best)); b != "[]" && b != "null" {
		best = &rate{}
		require.NoError(t, json.Unmarshal(env.Data.Best, best))
	}
	return best, env.Data.Services
}

func TestPricingRulesSettingIsChecked(t *testing.T) {
	vars := env("PRICING_RULES", `[{"hide":true},{"min":"5","max":"3"}]`)
	_, errs := core.LoadConfig(func(k string) string { return vars[k] })
	require.Len(t, errs, 1)
	assert.Equal(t, "PRICING_RULES", errs[0].Var)
	assert.Equal(t, "rule 2: min: is above max (5.00 > 3.00) (see worker/README.md, Shipping prices)", errs[0].Problem)
	vars = env("PRICING_SHOW_CARRIER_PRICE", "maybe")
	_, errs = core.LoadConfig(func(k string) string { return vars[k] })
	require.Len(t, errs, 1)
	assert.Equal(t, "PRICING_SHOW_CARRIER_PRICE", errs[0].Var)
}

// order_value is the edge's: never forwarded, and so not in anything
// keyed by the forwarded body (the edge does not cache rates today; a
// store of recent answers by route and parcels, issue 31 part 2, keys on
// that body); the basis carries it, in minor units.
func TestOrderValueIsTheEdgesOnly(t *testing.T) {
	e := pricedEdge(t)
	plain := prepareRates(e, ratesQuery, "es")
	with := prepareRates(e, ratesQuery+"&order_value=59.9", "es")
	other := prepareRates(e, ratesQuery+"&order_value=75", "es")
	for _, p := range []*core.Prepared{plain, with, other} {
		require.Equal(t, core.KindForward, p.Kind)
		assert.NotContains(t, string(p.Forward.UpstreamBody), "order_value")
		assert.Equal(t, string(plain.Forward.UpstreamBody), string(p.Forward.UpstreamBody), "one upstream request for every cart")
		assert.Equal(t, e.CacheKey("get-shipments-rates", plain.Forward.UpstreamBody), e.CacheKey("get-shipments-rates", p.Forward.UpstreamBody))
	}
	assert.Equal(t, "tc=ES&ov=&l=1", plain.Forward.Pricing)
	assert.Equal(t, "tc=ES&ov=5990&l=1", with.Forward.Pricing)
	assert.Equal(t, "tc=ES&ov=7500&l=1", other.Forward.Pricing)

	// Without rules order_value is still taken (a page may always send
	// it) and there is nothing to apply.
	vars := env()
	bare := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{})
	p := prepareRates(bare, ratesQuery+"&order_value=10", "")
	require.Equal(t, core.KindForward, p.Kind)
	assert.Equal(t, "", p.Forward.Pricing)
	assert.NotContains(t, string(p.Forward.UpstreamBody), "order_value")
}

func TestOrderValueRefusals(t *testing.T) {
	e := pricedEdge(t)
	for _, v := range []string{"12.345", "-1", "abc", "1e3", url.QueryEscape("60,00")} {
		p := prepareRates(e, ratesQuery+"&order_value="+v, "es-ES")
		require.Equal(t, core.KindRespond, p.Kind, v)
		assert.Equal(t, 400, p.Response.Status, v)
		body := string(p.Response.Body)
		assert.Contains(t, body, `"field":"order_value"`, v)
		assert.Contains(t, body, "debe ser el valor del carrito: un importe de 0 o más con 2 decimales como máximo, por ejemplo 59.90", v)
	}
	// Another operation does not take it.
	p := e.Prepare("get-shipment-time-arrival-estimation", &core.Request{Method: "GET", HasQuery: true,
		Query: "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001&order_value=10", RequestID: "r", Now: time.Now()}, nil)
	require.Equal(t, core.KindRespond, p.Kind)
	assert.Equal(t, 400, p.Response.Status)
	assert.Contains(t, string(p.Response.Body), "order_value")
}

func TestRulesAppliedToRawAndNormalizedAnswers(t *testing.T) {
	e := pricedEdge(t)
	for _, normalized := range []bool{false, true} {
		// A cart of 45 €: no free shipping.
		basis := prepareRates(e, ratesQuery+"&order_value=45", "es").Forward.Pricing
		body, norm := normalizeCall(t, e, basis, normalized, ratesBody)
		assert.Equal(t, normalized, norm)
		best, list := ratesOf(t, body)
		require.Len(t, list, 2, body)
		assert.Equal(t, "acme-24", list[0].ServiceCode)
		assert.Equal(t, "Urgente 24", list[0].ServiceName, "the shop's name in Spanish")
		assert.JSONEq(t, "5.95", string(list[0].Price), "4.95 + 10 % = 5.45, ending in .95")
		assert.Equal(t, "SwiftPost Shop", list[1].ServiceName)
		if normalized {
			assert.JSONEq(t, "4.9", string(list[1].Price))
		} else {
			assert.Equal(t, `"4.90"`, string(list[1].Price), "a string stays a string")
		}
		require.NotNil(t, best)
		assert.Equal(t, "swiftpost-shop", best.ServiceCode, "the shop's cheapest")
		assert.Nil(t, list[0].CarrierPrice, "the carrier's price does not reach the page")
		assert.NotContains(t, body, "3.90")

		// 60 € or more: the drop point is free, and the cheapest.
		basis = prepareRates(e, ratesQuery+"&order_value=60.00", "en").Forward.Pricing
		body, _ = normalizeCall(t, e, basis, normalized, ratesBody)
		best, list = ratesOf(t, body)
		assert.Equal(t, "Express 24", list[0].ServiceName)
		free := `"0.00"` // raw: a string as the carrier sent it
		if normalized {
			free = "0"
		}
		assert.JSONEq(t, free, string(list[1].Price))
		require.NotNil(t, best)
		assert.Equal(t, "swiftpost-shop", best.ServiceCode)
		assert.JSONEq(t, free, string(best.Price))
	}
}

func TestShowCarrierPrice(t *testing.T) {
	e := pricedEdge(t, "PRICING_SHOW_CARRIER_PRICE", "true")
	basis := prepareRates(e, ratesQuery, "").Forward.Pricing
	body, _ := normalizeCall(t, e, basis, false, ratesBody)
	_, list := ratesOf(t, body)
	assert.Equal(t, "4.95", string(list[0].CarrierPrice))
	assert.Equal(t, `"3.90"`, string(list[1].CarrierPrice))
	assert.Equal(t, `"4.90"`, string(list[1].Price))
}

func TestHiddenServicesAndTheCheapest(t *testing.T) {
	vars := env("PRICING_RULES", `[{"carrier":"swiftpost","hide":true}]`)
	e := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{})
	require.Empty(t, e.Problems())
	basis := prepareRates(e, ratesQuery, "").Forward.Pricing
	for _, normalized := range []bool{false, true} {
		body, _ := normalizeCall(t, e, basis, normalized, ratesBody)
		best, list := ratesOf(t, body)
		require.Len(t, list, 1)
		assert.Equal(t, "acme-24", list[0].ServiceCode)
		require.NotNil(t, best, "the cheapest of what is shown")
		assert.Equal(t, "acme-24", best.ServiceCode)
		assert.JSONEq(t, "4.95", string(best.Price), "a service no rule matches keeps its price")
		assert.NotContains(t, body, "swiftpost")
	}
	// Everything hidden: no services, no best (as the upstream says none).
	vars = env("PRICING_RULES", `[{"hide":true}]`)
	e = core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{})
	basis = prepareRates(e, ratesQuery, "").Forward.Pricing
	raw, _ := normalizeCall(t, e, basis, false, ratesBody)
	assert.JSONEq(t, `{"status":"ok","data":{"best_price_service":[],"services":[]}}`, raw)
	norm, _ := normalizeCall(t, e, basis, true, ratesBody)
	assert.JSONEq(t, `{"status":"ok","data":{"best_price_service":null,"services":[]}}`, norm)
}

func TestNoRuleMatchesLeavesTheBytes(t *testing.T) {
	vars := env("PRICING_RULES", `[{"country":"PT","markup_fixed":"1"}]`)
	e := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{})
	basis := prepareRates(e, ratesQuery, "").Forward.Pricing
	body, _ := normalizeCall(t, e, basis, false, ratesBody)
	assert.Equal(t, ratesBody, body)
	// Not a rates envelope the rules can read: as received.
	for _, b := range []string{`{"status":"ok","data":[]}`, `{"status":"error","message":"x"}`, `not json`, `{"status":"ok","data":{"services":[1]}}`} {
		got, _ := normalizeCall(t, e, "tc=PT&ov=&l=0", false, b)
		assert.Equal(t, b, got)
	}
}

// Offers (issue 30) sign the shop's price: the normalize call prices the
// answer first, then signs each service with the price the shopper sees.
func TestOffersSignTheShopsPrice(t *testing.T) {
	e := pricedEdge(t, "TOKEN_SIGNING_KEY", signing)
	p := prepareRates(e, ratesQuery+"&order_value=20", "es")
	require.Equal(t, core.KindForward, p.Kind)
	require.NotEmpty(t, p.Forward.Sign)
	for _, normalized := range []bool{false, true} {
		c := core.Calls{Edge: e}
		in, _ := json.Marshal(map[string]any{"operation": "get-shipments-rates", "keep": !normalized, "pricing": p.Forward.Pricing,
			"sign": p.Forward.Sign, "now": time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC).UnixMilli()})
		_, parts := c.Call(seam.MethodNormalize, in, []byte(ratesBody))
		var env struct {
			Data struct {
				Services []struct {
					ServiceCode string          `json:"service_code"`
					Price       json.RawMessage `json:"price"`
					Offer       string          `json:"offer"`
				} `json:"services"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(bytes.Join(parts, nil), &env))
		require.Len(t, env.Data.Services, 2)
		want := map[string]string{"acme-24": "5.95", "swiftpost-shop": "4.9"} // home +10 % ending .95; drop point +1 €
		for _, s := range env.Data.Services {
			o, err := offers.Verify(offers.Keys{[]byte(signing)}, s.Offer, time.Date(2026, 11, 2, 10, 1, 0, 0, time.UTC))
			require.NoError(t, err, "%s normalized=%v", s.ServiceCode, normalized)
			assert.Equal(t, want[s.ServiceCode], o.Price, "%s normalized=%v: the offer binds the shop's price, shown as %s", s.ServiceCode, normalized, s.Price)
			assert.Equal(t, "20", o.OrderValue, "the offer signs the cart's order value (issue 31)")
			shown, _ := strconv.ParseFloat(strings.Trim(string(s.Price), `"`), 64)
			signed, _ := strconv.ParseFloat(o.Price, 64)
			assert.Equal(t, shown, signed, "%s: the shown price is the signed one", s.ServiceCode)
		}
	}
}

// arrivalBody: SwiftPost's drop-point service is the fastest, Acme's
// home delivery the slower (hours as a string and as a number, as the
// service sends them).
const arrivalBody = `{"status":"ok","data":{"bestArrivalTime":{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"24","carrier_code":"swiftpost","carrier_name":"SwiftPost","transit_hours":"24","working_days":1,"estimated_delivery_date":"2026-11-03"},` +
	`"services":[{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"24","carrier_code":"swiftpost","carrier_name":"SwiftPost","transit_hours":"24","working_days":1,"estimated_delivery_date":"2026-11-03"},` +
	`{"id_service":11,"service_name":"Acme 72","service_code":"acme-72","service_type":"72","carrier_code":"acme-express","carrier_name":"Acme Express","transit_hours":72,"working_days":3,"estimated_delivery_date":"2026-11-05"},` +
	`{"id_service":13,"service_name":"Rayo 48","service_code":"rayo-48","service_type":"48","carrier_code":"rayo","carrier_name":"Rayo","transit_hours":48,"working_days":2,"estimated_delivery_date":"2026-11-04"}]}}`

// get-shipment-time-arrival-estimation lists the services the rates
// list: a service the rules hide is not listed there either, and the
// shop's names apply (issue 31). Its entries carry no kind, so a kind
// rule does not match them; bestArrivalTime is the fastest one left.
func TestArrivalEstimatesHideAndName(t *testing.T) {
	rules := `[{"carrier":"swiftpost","hide":true},{"kind":"drop_point","name":{"en":"Pick-up point"}},` +
		`{"carrier":"acme-express","markup_percent":10,"name":{"en":"Express","es":"Urgente"}}]`
	e := pricedEdge(t, "PRICING_RULES", rules)
	q := "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001&shipping_date=2026-11-02"
	p := e.Prepare("get-shipment-time-arrival-estimation", &core.Request{Method: "GET", Query: q, HasQuery: true, AcceptLanguage: "es",
		ClientIP: "203.0.113.9", RequestID: "rid", Now: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)}, nil)
	require.Equal(t, core.KindForward, p.Kind, "%+v", p.Response)
	require.NotEmpty(t, p.Forward.Pricing)
	for _, normalized := range []bool{false, true} {
		c := core.Calls{Edge: e}
		in, _ := json.Marshal(map[string]any{"operation": "get-shipment-time-arrival-estimation", "keep": !normalized, "pricing": p.Forward.Pricing})
		_, parts := c.Call(seam.MethodNormalize, in, []byte(arrivalBody))
		var env struct {
			Data struct {
				Best     map[string]any   `json:"bestArrivalTime"`
				Services []map[string]any `json:"services"`
			} `json:"data"`
		}
		out := bytes.Join(parts, nil)
		require.NoError(t, json.Unmarshal(out, &env), "%s", out)
		var codes []string
		for _, s := range env.Data.Services {
			codes = append(codes, s["service_code"].(string))
		}
		assert.Equal(t, []string{"acme-72", "rayo-48"}, codes, "normalized=%v: SwiftPost hidden", normalized)
		assert.Equal(t, "Urgente", env.Data.Services[0]["service_name"], "the shop's name in the shopper's language")
		assert.Equal(t, "Rayo 48", env.Data.Services[1]["service_name"], "the kind rule does not match an entry without a kind")
		assert.Equal(t, "rayo-48", env.Data.Best["service_code"], "the fastest service left")
		assert.NotContains(t, string(out), "price", "an estimate gets no price")
	}
	// It takes no order_value: not a priced operation.
	p = e.Prepare("get-shipment-time-arrival-estimation", &core.Request{Method: "GET", Query: q + "&order_value=10", HasQuery: true,
		RequestID: "rid", Now: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)}, nil)
	assert.Equal(t, core.KindRespond, p.Kind)
}

// The fallback table is the shop's own backup prices: the rules hide and
// name its services and make them free from the order value, but do not
// add the markup, rounding or bounds again (issue 31). No carrier_price:
// no carrier charged it.
func TestFallbackPricesTakeHideNamesAndFreeOnly(t *testing.T) {
	e := pricedEdge(t, "PRICING_RULES", shopRules+"", "RATES_FALLBACK", "ES:home=4.50,drop=3.50", "PRICING_SHOW_CARRIER_PRICE", "true")
	for _, c := range []struct {
		order string
		drop  string // the drop point's price shown
	}{{"", "3.5"}, {"&order_value=20", "3.5"}, {"&order_value=60", "0.00"}} {
		p := prepareRates(e, ratesQuery+c.order, "es")
		require.Equal(t, core.KindForward, p.Kind)
		r := e.Rescue(core.Late, p.Forward.Rates, nil, time.Time{}, time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC))
		require.NotNil(t, r)
		for _, normalized := range []bool{false, true} {
			out, _ := normalizeCall(t, e, p.Forward.Pricing, normalized, string(r.Body))
			best, services := ratesOf(t, out)
			require.Len(t, services, 2, out)
			home, drop := services[0], services[1]
			assert.Equal(t, "fallback-home", home.ServiceCode)
			assert.Equal(t, 4.5, num(home.Price), "%s: the shop's own price, no 10 %% and no .95 again", c.order)
			assert.Equal(t, "Urgente 24", home.ServiceName, "the shop's name")
			assert.Equal(t, num(json.RawMessage(c.drop)), num(drop.Price), "%s normalized=%v: no 1 € markup; free from 60", c.order, normalized)
			assert.Empty(t, home.CarrierPrice)
			assert.Empty(t, drop.CarrierPrice)
			require.NotNil(t, best)
			if c.drop == "0.00" {
				assert.Equal(t, "fallback-drop", best.ServiceCode)
			}
		}
	}
	// A hide rule hides a fallback service of its kind.
	e = pricedEdge(t, "PRICING_RULES", `[{"kind":"drop_point","hide":true}]`, "RATES_FALLBACK", "ES:home=4.50,drop=3.50")
	p := prepareRates(e, ratesQuery, "")
	r := e.Rescue(core.Late, p.Forward.Rates, nil, time.Time{}, time.Now())
	out, _ := normalizeCall(t, e, p.Forward.Pricing, false, string(r.Body))
	_, services := ratesOf(t, out)
	require.Len(t, services, 1, out)
	assert.Equal(t, "fallback-home", services[0].ServiceCode)
}

func num(raw json.RawMessage) float64 {
	f, _ := strconv.ParseFloat(strings.Trim(string(raw), `"`), 64)
	return f
}
