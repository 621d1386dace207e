package core

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// PriceAndSign prices and signs a rates answer in one scan (issue 32's
// cut of issue 31's CPU); its bytes must be the two passes' it replaced:
// PriceAnswer, then SignAnswer over the priced body. These tests hold
// the two to the same bytes over generated answers, and fail when the
// single pass is not taken where it should be (so they do not pass by
// always falling back to the two passes).

// signBasis stands for an offer's request basis (offerBasis): the
// signing pass copies it into every payload without reading it.
const signBasis = "fc=ES&fz=28014&tc=ES&tz=08001&pc=2,20,10,30,6000&ov=45"

// twoPass is the normalize call's work before the single pass: each
// pass over its own copy of body with the normalized body's spare room
// (signAnswer writes into it when normalized).
func twoPass(e *Edge, op string, body []byte, pricingBasis string, now time.Time, normalized bool) []byte {
	b := append(make([]byte, 0, len(body)+len(body)/3), body...)
	return e.signAnswer(op, e.PriceAnswer(op, b, pricingBasis, normalized), signBasis, now, normalized)
}

func onePass(e *Edge, op string, body []byte, pricingBasis string, now time.Time, normalized bool) []byte {
	b := append(make([]byte, 0, len(body)+len(body)/3), body...)
	return e.PriceAndSign(op, b, pricingBasis, signBasis, now, normalized)
}

// answerGen writes rates (and arrival estimate) answers the way carriers
// and the edge vary them: members in any order, numbers or strings,
// missing or repeated fields, escapes, whitespace between any tokens,
// data.source first or last, best_price_service an entry, [] or null.
type answerGen struct {
	r  *rand.Rand
	sb strings.Builder
}

func (g *answerGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

// ws is whitespace between tokens, mostly none.
func (g *answerGen) ws() string {
	if g.r.Intn(4) > 0 {
		return ""
	}
	return g.pick(" ", "\n", "\t", "  \r\n ")
}

func (g *answerGen) member(k, v string) string {
	return g.ws() + `"` + k + `"` + g.ws() + ":" + g.ws() + v + g.ws()
}

func (g *answerGen) object(members []string) string {
	g.r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	return "{" + strings.Join(members, ",") + g.ws() + "}"
}

// entry is one service: carriers "norte" (hidden by the hiding rules),
// "rayo", "swift", "fallback" and odd spellings; prices as numbers,
// strings, padded, escaped, not decimals, or missing.
func (g *answerGen) entry(arrival bool) string {
	if g.r.Intn(20) == 0 {
		return "{" + g.ws() + "}"
	}
	var m []string
	add := func(k, v string) {
		if g.r.Intn(10) > 0 { // a field sometimes missing
			m = append(m, g.member(k, v))
		}
		if g.r.Intn(25) == 0 { // or given twice
			m = append(m, g.member(k, v))
		}
	}
	add("id_service", g.pick("11", `"12"`, "13"))
	add("service_name", g.pick(`"Rayo 24"`, `"Swift \u00e9 Shop"`, `"Norte \"72\""`, `"a\\/b"`, "null"))
	add("service_code", g.pick(`"rayo-24"`, `"swift-shop"`, `"norte-72"`, `"r\u0061yo-10"`, `""`, "7"))
	add("carrier_code", g.pick(`"rayo"`, `"swift"`, `"norte"`, `"fallback"`, `"sw\u0069ft"`, `""`))
	add("is_drop_point", g.pick("0", "1", `"1"`, `"0"`, "true", "false", "null"))
	add("price", g.pick(`"3.90"`, "4.95", `"4.10"`, "9.8", `" 4.95"`, `"4\u002e95"`, `"abc"`, "null", `"0.50"`, "12", `"007.500"`, "1e2", `"59.99"`))
	add("currency", g.pick(`"EUR"`, `"EUR"`, `"GBP"`, `""`, "null"))
	add("transit_days", g.pick("1", "2", `"3"`))
	if arrival || g.r.Intn(3) == 0 {
		add("transit_hours", g.pick("24", `"48"`, "72.5", `"x"`))
	}
	if g.r.Intn(4) == 0 {
		add("extra", g.pick(`{"a":[1,2,{"price":"1"}]}`, `[]`, `"}"`))
	}
	return g.object(m)
}

// answer is an ok envelope of op's shape.
func (g *answerGen) answer(arrival bool) string {
	bestKey := "best_price_service"
	if arrival {
		bestKey = "bestArrivalTime"
	}
	var data []string
	n := g.r.Intn(7)
	if g.r.Intn(12) > 0 {
		list := make([]string, n)
		for i := range list {
			list[i] = g.ws() + g.entry(arrival) + g.ws()
		}
		data = append(data, g.member("services", "["+strings.Join(list, ",")+"]"))
	}
	switch g.r.Intn(6) {
	case 0: // none
	case 1:
		data = append(data, g.member(bestKey, g.pick("[]", "null", "{}")))
	default:
		data = append(data, g.member(bestKey, g.entry(arrival)))
	}
	if g.r.Intn(30) == 0 { // a second list: signed twice by SignAnswer
		data = append(data, g.member(g.pick("services", bestKey), "["+g.entry(arrival)+"]"))
	}
	if g.r.Intn(5) == 0 {
		data = append(data, g.member("other", `{"services":[{"carrier_code":"rayo"}]}`))
	}
	g.r.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
	// data.source as the edge writes it (rates.go): first or last, exact
	// bytes, so dataSource sees it (in the first envelope below);
	// sometimes spaced, so it may not.
	source := `"source":"` + g.pick(SourceRecent, SourceFallback) + `"`
	switch g.r.Intn(5) {
	case 0:
		data = append([]string{source}, data...)
	case 1:
		data = append(data, source)
	case 2:
		data = append(data, g.member("source", `"`+SourceFallback+`"`))
	}
	body := "{" + strings.Join(data, ",") + "}"
	return g.pick(`{"status":"ok","data":`+body+"}", `{"data":`+body+`,"status":"ok"}`, `{"status":"ok","meta":{"data":1},"data":`+body+"}")
}

// namedEdge is one shop of pricingEdges.
type namedEdge struct {
	name string
	e    *Edge
}

// pricingEdges are the shops, in a fixed order (the generated cases
// repeat run to run): rules that price, name and hide (with and without
// the carrier's price shown), a table in another currency, rules that
// match nothing, no rules, no signing key.
func pricingEdges(t testing.TB) []namedEdge {
	const rules = `[{"carrier":"norte","hide":true},` +
		`{"kind":"drop_point","markup_fixed":"0.50","free_from":"60","name":{"en":"Pick-up point","es":"Punto de recogida"}},` +
		`{"carrier":"swift","service":"swift-shop","round_step":"0.50","min":"3.95"},` +
		`{"country":["PT","FR"],"markup_percent":15,"round_end":".95"},` +
		`{"markup_percent":10,"markup_fixed":"0.30","round_end":".95","min":"3.95","max":"14.95","name":{"fr":"Express"}}]`
	return []namedEdge{
		{"rules", ratesEdge(t, EnvPricingRules, rules)},
		{"rules+carrier", ratesEdge(t, EnvPricingRules, rules, EnvShowCarrierPrice, "true")},
		{"rules, no hide", ratesEdge(t, EnvPricingRules, `[{"kind":"home","markup_percent":10},{"name":{"en":"Any"}}]`)},
		{"yen", ratesEdge(t, EnvPricingRules, `{"currency":"JPY","rules":[{"markup_percent":10}]}`)},
		{"no match", ratesEdge(t, EnvPricingRules, `[{"country":"JP","markup_percent":10}]`)},
		{"no rules", ratesEdge(t)},
		{"rules, no key", ratesEdge(t, EnvPricingRules, rules, EnvTokenSigningKey, "")},
	}
}

func TestPriceAndSignIsTheTwoPasses(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	edges := pricingEdges(t)
	g := &answerGen{r: rand.New(rand.NewSource(32))}
	bases := []string{"tc=ES&ov=4500&l=1", "tc=PT&ov=&l=0", "tc=FR&ov=6000&l=3", "tc=ES&ov=10000000&l=2"}
	cases, single, offered := 0, 0, 0
	for i := 0; i < 4000; i++ {
		op := "get-shipments-rates"
		if i%5 == 4 {
			op = g.pick("get-shipment-time-arrival-estimation", "get-drop-points")
		}
		body := []byte(g.answer(op == "get-shipment-time-arrival-estimation"))
		for _, ne := range edges {
			name, e := ne.name, ne.e
			basis := bases[g.r.Intn(len(bases))]
			normalized := g.r.Intn(2) == 0
			want := twoPass(e, op, body, basis, now, normalized)
			got := onePass(e, op, body, basis, now, normalized)
			if !bytes.Equal(want, got) {
				t.Fatalf("%s, %s, normalized %v, basis %s: one pass differs from the two\nanswer: %s\ntwo:    %s\none:    %s",
					name, op, normalized, basis, body, want, got)
			}
			cases++
			if _, signed := e.priceAnswer(op, append([]byte(nil), body...), basis, normalized, signBasis, now); signed {
				single++
				if bytes.Contains(got, []byte(`"offer":"`)) {
					offered++
				}
			}
		}
	}
	t.Logf("%d cases, %d priced and signed in one pass, %d of them with offers", cases, single, offered)
	// The single pass must carry a good share of them (rules that match
	// and a signing key: four shops of seven; rates: four answers of five).
	require.Greater(t, single, cases/6)
	require.Greater(t, offered, single/2)
}

// TestPriceAndSignLiveRates: rates_test.go's live answer (best and one
// service, SwiftPost's drop point) through every shop, raw and
// normalized.
func TestPriceAndSignLiveRates(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for _, ne := range pricingEdges(t) {
		name, e := ne.name, ne.e
		for _, normalized := range []bool{false, true} {
			want := twoPass(e, "get-shipments-rates", []byte(liveRates), "tc=ES&ov=4500&l=1", now, normalized)
			require.Equal(t, string(want), string(onePass(e, "get-shipments-rates", []byte(liveRates), "tc=ES&ov=4500&l=1", now, normalized)), name)
		}
	}
}

// FuzzPriceAndSign holds the two to the same bytes over any body
// (go test -fuzz FuzzPriceAndSign ./worker/core/).
func FuzzPriceAndSign(f *testing.F) {
	g := &answerGen{r: rand.New(rand.NewSource(1))}
	for i := 0; i < 20; i++ {
		f.Add(g.answer(false), i%2 == 0)
	}
	f.Add(liveRates, false)
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	edges := pricingEdges(f)
	f.Fuzz(func(t *testing.T, body string, normalized bool) {
		for _, ne := range edges {
			name, e := ne.name, ne.e
			want := twoPass(e, "get-shipments-rates", []byte(body), "tc=ES&ov=4500&l=1", now, normalized)
			got := onePass(e, "get-shipments-rates", []byte(body), "tc=ES&ov=4500&l=1", now, normalized)
			if !bytes.Equal(want, got) {
				t.Fatalf("%s: one pass differs from the two\nanswer: %s\ntwo:    %s\none:    %s", name, body, want, got)
			}
		}
	})
}
