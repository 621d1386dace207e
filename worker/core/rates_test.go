package core

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/core/seam"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ratesEdge(t testing.TB, kv ...string) *Edge {
	t.Helper()
	env := hardenEnv()
	for i := 0; i+1 < len(kv); i += 2 {
		env[kv[i]] = kv[i+1]
	}
	e := Configure(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, Bindings{})
	require.Empty(t, e.errs)
	return e
}

// ratesOp is the quote these tests ask for.
const ratesOp = "get-shipments-rates"

const liveRates = `{"status":"ok","data":{"best_price_service":{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":1,"price":"3.90","currency":"EUR"},"services":[{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":1,"price":"3.90","currency":"EUR"}]}}`

func TestRatesSettings(t *testing.T) {
	c, errs := LoadConfig(func(k string) string { return hardenEnv()[k] })
	require.Empty(t, errs)
	assert.Equal(t, 2500*time.Millisecond, c.RatesDeadline)
	assert.Equal(t, 24*time.Hour, c.RatesStale)
	assert.Equal(t, "EUR", c.RatesCurrency)
	assert.Empty(t, c.RatesFallback)

	e := ratesEdge(t, EnvRatesDeadlineMS, "0", EnvRatesStaleHours, "0", EnvRatesFallbackCurrency, "GBP",
		EnvRatesFallback, " es:home=4.95, drop=3.5 ; PT:HOME=7 ;*:home=12.00")
	assert.Equal(t, time.Duration(0), e.cfg.RatesDeadline)
	assert.Equal(t, time.Duration(0), e.cfg.RatesStale)
	assert.Equal(t, []fallbackRate{{"ES", false, "4.95"}, {"ES", true, "3.5"}, {"PT", false, "7"}, {"*", false, "12.00"}}, e.cfg.RatesFallback)

	bad := []struct{ name, value, problem string }{
		{EnvRatesDeadlineMS, "2.5s", "RATES_DEADLINE_MS: must be a whole number of milliseconds (0: no deadline"},
		{EnvRatesDeadlineMS, "300001", "from 0 to 300000"},
		{EnvRatesStaleHours, "-1", "RATES_STALE_HOURS: must be a whole number of hours"},
		{EnvRatesStaleHours, "721", "from 0 to 720"},
		{EnvRatesFallbackCurrency, "eur", "RATES_FALLBACK_CURRENCY: must be an ISO 4217 currency code in capitals"},
		{EnvRatesFallback, "ES home=4.95", `RATES_FALLBACK: row "ES home=4.95" must be a country, ':' and kind=price pairs`},
		{EnvRatesFallback, "ES:", `row "ES:" must be a country`},
		{EnvRatesFallback, "XX:home=4", `row "XX:home=4": "XX" is not an ISO 3166-1 country code (or * for any other)`},
		{EnvRatesFallback, "ES:express=4", `row "ES:express=4": kind "express" must be home or drop`},
		{EnvRatesFallback, "ES:home=4,95", `kind "95" must be home or drop`},
		{EnvRatesFallback, "ES:home=4.955", `the home price "4.955" must be an amount from 0 to 99999.99 with at most two decimals, e.g. 4.95`},
		{EnvRatesFallback, "ES:home=-1", `the home price "-1"`},
		{EnvRatesFallback, "ES:home=", `the home price ""`},
		{EnvRatesFallback, "ES:home=1e3", `the home price "1e3"`},
		{EnvRatesFallback, "ES:home=100000", `the home price "100000"`},
		{EnvRatesFallback, "ES:home=4;es:home=5", `row "es:home=5": ES home is set twice`},
	}
	for _, b := range bad {
		env := hardenEnv()
		env[b.name] = b.value
		_, errs := LoadConfig(func(k string) string { return env[k] })
		require.Len(t, errs, 1, b.value)
		assert.Equal(t, b.name, errs[0].Var)
		assert.Contains(t, errs[0].Error(), b.problem, b.value)
	}
}

func TestRescueDecisions(t *testing.T) {
	e := ratesEdge(t, EnvRatesFallback, "ES:home=4.95,drop=3.50;*:home=12")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	es := &RatesPlan{Key: "k", Country: "ES"}
	source := func(r *Response) string {
		if r == nil {
			return ""
		}
		var env struct {
			Status string
			Data   struct{ Source string }
		}
		require.NoError(t, json.Unmarshal(r.Body, &env), string(r.Body))
		assert.Equal(t, "ok", env.Status)
		assert.Equal(t, 200, r.Status)
		assert.Contains(t, r.Headers, Header{HeaderRatesSource, env.Data.Source})
		return env.Data.Source
	}
	stored := []byte(liveRates)
	for _, class := range []string{Late, "upstream_timeout", "upstream_unreachable", "upstream_error"} {
		assert.Equal(t, SourceRecent, source(e.Rescue(class, es, stored, now.Add(-23*time.Hour), now)), class)
	}
	// The stored data is the answer's, with its source.
	r := e.Rescue(Late, es, stored, now.Add(-time.Minute), now)
	assert.Equal(t, strings.Replace(liveRates, `"data":{`, `"data":{"source":"recent",`, 1), string(r.Body))
	// What the client or the upstream's own refusal caused is never hidden.
	for _, class := range []string{"upstream_refused", "upstream_auth", "upstream_leak", "upstream_bad_response", "forwarded", ""} {
		assert.Nil(t, e.Rescue(class, es, stored, now, now), class)
	}
	assert.Nil(t, e.Rescue(Late, nil, stored, now, now), "no plan: not a rates request")
	// Too old, from the future, not stored, not ok: the fallback table.
	for name, s := range map[string]struct {
		body []byte
		at   time.Time
	}{
		"older than RATES_STALE_HOURS": {stored, now.Add(-24*time.Hour - time.Second)},
		"stored in the future":         {stored, now.Add(2 * time.Minute)},
		"none stored":                  {nil, time.Time{}},
		"no time":                      {stored, time.Time{}},
		"an err envelope":              {[]byte(`{"status":"err","data":{"errorCode":1}}`), now},
		"data not an object":           {[]byte(`{"status":"ok","data":[]}`), now},
		"not JSON":                     {[]byte(`<html>`), now},
	} {
		assert.Equal(t, SourceFallback, source(e.Rescue(Late, es, s.body, s.at, now)), name)
	}
	// The country's rows, else the * rows, else nothing.
	fb := e.Rescue("upstream_error", es, nil, time.Time{}, now)
	norm, ok := Normalize(ratesOp, fb.Body)
	require.True(t, ok, string(fb.Body))
	assert.JSONEq(t, `{"status":"ok","data":{"source":"fallback",
		"best_price_service":{"id_service":0,"service_name":"Drop point delivery","service_code":"fallback-drop","service_type":"fallback","carrier_code":"fallback","carrier_name":"Standard rate","is_drop_point":true,"price":3.5,"currency":"EUR"},
		"services":[{"id_service":0,"service_name":"Home delivery","service_code":"fallback-home","service_type":"fallback","carrier_code":"fallback","carrier_name":"Standard rate","is_drop_point":false,"price":4.95,"currency":"EUR"},
		{"id_service":0,"service_name":"Drop point delivery","service_code":"fallback-drop","service_type":"fallback","carrier_code":"fallback","carrier_name":"Standard rate","is_drop_point":true,"price":3.5,"currency":"EUR"}]}}`, string(norm))
	fr := e.Rescue(Late, &RatesPlan{Country: "FR"}, nil, time.Time{}, now)
	assert.Contains(t, string(fr.Body), `"services":[{"id_service":0,"service_name":"Home delivery","service_code":"fallback-home","service_type":"fallback","carrier_code":"fallback","carrier_name":"Standard rate","is_drop_point":0,"price":12,"currency":"EUR"}]`)
	// The names are the shopper's: in the request's language, codes unchanged.
	for lang, want := range map[string][3]string{
		"es-ES,es;q=0.9": {"Entrega a domicilio", "Entrega en punto de recogida", "Tarifa estándar"},
		"pt-PT":          {"Entrega ao domicílio", "Entrega em ponto de recolha", "Tarifa padrão"},
		"fr":             {"Livraison à domicile", "Livraison en point relais", "Tarif standard"},
		"de-DE":          {"Lieferung nach Hause", "Lieferung an einen Abholpunkt", "Standardtarif"},
		"it":             {"Consegna a domicilio", "Consegna in un punto di ritiro", "Tariffa standard"},
		"nl-BE":          {"Thuisbezorging", "Bezorging bij een afhaalpunt", "Standaardtarief"},
		"ja, en;q=0.5":   {"Home delivery", "Drop point delivery", "Standard rate"},
	} {
		r := e.Rescue(Late, &RatesPlan{Country: "ES", AcceptLanguage: lang}, nil, time.Time{}, now)
		require.NotNil(t, r, lang)
		var got struct {
			Data struct {
				Services []struct {
					Name    string `json:"service_name"`
					Code    string `json:"service_code"`
					Carrier string `json:"carrier_name"`
				} `json:"services"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &got), lang)
		require.Len(t, got.Data.Services, 2, lang)
		home, drop := got.Data.Services[0], got.Data.Services[1]
		assert.Equal(t, [3]string{home.Name, drop.Name, home.Carrier}, want, lang)
		assert.Equal(t, [2]string{"fallback-home", "fallback-drop"}, [2]string{home.Code, drop.Code}, lang)
	}
	none := ratesEdge(t, EnvRatesFallback, "ES:home=4.95")
	assert.Nil(t, none.Rescue(Late, &RatesPlan{Country: "FR"}, nil, time.Time{}, now), "no row for FR and no *: as before")
	off := ratesEdge(t, EnvRatesStaleHours, "0")
	assert.Nil(t, off.Rescue(Late, es, stored, now, now), "RATES_STALE_HOURS=0 and no table")
}

func TestLiveRatesAreMarked(t *testing.T) {
	r := Live([]byte(liveRates))
	require.NotNil(t, r)
	n, ok := Normalize(ratesOp, r.Body)
	require.True(t, ok)
	assert.Contains(t, string(n), `"source":"live"`, "the normalized answer keeps it")
	assert.Equal(t, `{"status":"ok","data":{"source":"live"}}`, string(Live([]byte(` { "status" : "ok" , "data" : { } } `)).Body))
	assert.Nil(t, Live([]byte(`{"status":"err","data":{"errorCode":1}}`)))
}

// The module's calls: a rates forward carries its plan, others none; the
// rates method marks and rescues.
func TestRatesCalls(t *testing.T) {
	var c Calls
	env, _ := json.Marshal(map[string]any{"vars": map[string]string{EnvUpstreamBaseURL: "sandbox", EnvAPIUser: "u", EnvAPIKey: "k",
		EnvRatesFallback: "ES:home=4.95", EnvRatesDeadlineMS: "1200"}, "bindings": map[string]bool{"sandbox": true}})
	call(&c, seam.MethodConfigure, env, nil)
	prep := func(op, body string) map[string]any {
		in, _ := json.Marshal(map[string]any{"operation": op, "method": "POST", "contentType": "application/x-www-form-urlencoded", "now": 1796040000000})
		head, _ := call(&c, seam.MethodPrepare, in, []byte(body))
		var p map[string]any
		require.NoError(t, json.Unmarshal(head, &p), string(head))
		require.Equal(t, "forward", p["kind"], string(head))
		return p["forward"].(map[string]any)
	}
	route := "from_country_code=ES&from_zip_code=28013&to_country_code=es&to_zip_code=41001"
	f := prep("get-shipments-rates", route+"&parcels[0][parcel_weight]=2&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000")
	plan := f["rates"].(map[string]any)
	assert.Equal(t, "ES", plan["country"])
	assert.Equal(t, 1200.0, plan["deadlineMs"])
	assert.Equal(t, 86400000.0, plan["staleMs"])
	assert.Len(t, plan["key"], 64)
	assert.Nil(t, prep("get-service-info", route+"&carrier_code=rayo&service_code=rayo-48")["rates"])

	in, _ := json.Marshal(map[string]any{"class": "late", "plan": plan, "storedAt": 0, "now": 1796040000000})
	head, raw := call(&c, seam.MethodRates, in, nil)
	assert.JSONEq(t, `{"source":"fallback","response":{"status":200,"headers":{"Content-Type":"application/json; charset=utf-8","Rates-Source":"fallback"},"class":"rates_fallback"},"$raw":[["response.body",`+strconv.Itoa(len(raw))+`]]}`, string(head))
	assert.Contains(t, string(raw), `"source":"fallback"`)
	in, _ = json.Marshal(map[string]any{"class": "upstream_refused", "plan": plan, "now": 1796040000000})
	head, _ = call(&c, seam.MethodRates, in, nil)
	assert.JSONEq(t, `{"source":"","response":null}`, string(head))
	head, raw = call(&c, seam.MethodRates, []byte(`{"class":"live"}`), []byte(liveRates))
	assert.Contains(t, string(head), `"source":"live"`)
	assert.Contains(t, string(raw), `"data":{"source":"live","best_price_service"`)
}
