package core_test

import (
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/core"
)

// benchRates is the bench's rates answer (worker/bench/offers.go): five
// services, one a drop point.
const benchRates = `{"status":"ok","data":{"best_price_service":{"id_service":12,"service_code":"swift-shop","carrier_code":"swift","is_drop_point":1,"price":"3.90","currency":"EUR"},` +
	`"services":[{"id_service":11,"service_name":"Rayo 24","service_code":"rayo-24","carrier_code":"rayo","is_drop_point":0,"price":"4.95","currency":"EUR","transit_days":1},` +
	`{"id_service":12,"service_name":"Swift Shop","service_code":"swift-shop","carrier_code":"swift","is_drop_point":1,"price":"3.90","currency":"EUR","transit_days":2},` +
	`{"id_service":13,"service_name":"Rayo 48","service_code":"rayo-48","carrier_code":"rayo","is_drop_point":0,"price":"4.10","currency":"EUR","transit_days":2},` +
	`{"id_service":14,"service_name":"Norte 72","service_code":"norte-72","carrier_code":"norte","is_drop_point":0,"price":"3.95","currency":"EUR","transit_days":3},` +
	`{"id_service":15,"service_name":"Rayo 10","service_code":"rayo-10","carrier_code":"rayo","is_drop_point":0,"price":"9.80","currency":"EUR","transit_days":1}]}}`

// benchRules are the bench's PRICING_RULES (worker/bench/offers.go).
const benchRules = `[{"kind":"drop_point","markup_fixed":"0.50","free_from":"60",` +
	`"name":{"en":"Pick-up point","es":"Punto de recogida","pt":"Ponto de recolha","fr":"Point relais","de":"Paketshop","it":"Punto di ritiro","nl":"Afhaalpunt"}},` +
	`{"country":["PT","FR"],"markup_percent":15,"round_end":".95"},` +
	`{"markup_percent":10,"markup_fixed":"0.30","round_end":".95","min":"3.95","max":"14.95"}]`

// BenchmarkRatesAnswer is a raw rates answer's work in the core after
// the upstream answered (pricing, then offers: the normalize call's
// PriceAndSign), natively: where the
// edge's CPU with rules and offers goes (issues 30 and 31; the figures
// that count are workerd's, go run ./worker/bench -parts offers).
func BenchmarkRatesAnswer(b *testing.B) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		vars []string
	}{
		{"plain", []string{"TOKEN_SIGNING_KEY", ""}},
		{"offers", nil},
		{"rules+offers", []string{"PRICING_RULES", benchRules}},
	} {
		vars := env(c.vars...)
		if vars["TOKEN_SIGNING_KEY"] == "" {
			delete(vars, "TOKEN_SIGNING_KEY")
		}
		e := core.Configure(func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, core.Bindings{})
		p := e.Prepare("get-shipments-rates", &core.Request{Method: "GET", Query: ratesQuery + "&order_value=45", HasQuery: true,
			ClientIP: "203.0.113.9", RequestID: "rid", Now: now}, nil)
		if p.Kind != core.KindForward {
			b.Fatalf("%s: %s", c.name, p.Kind)
		}
		f := p.Forward
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = e.PriceAndSign(f.Operation, []byte(benchRates), f.Pricing, f.Sign, now, false)
			}
		})
	}
}
