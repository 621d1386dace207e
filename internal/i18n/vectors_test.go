package i18n_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/country"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/testvectors"
	"github.com/parcelgate/parcelgate/internal/validate"
)

var update = flag.Bool("update", false, "rewrite testdata/messages.json")

// probe is a request that produces some of the core's messages.
type probe struct {
	Name string `json:"name"`
	// InvalidUTF8 marks a request JSON cannot carry (its bytes are not
	// UTF-8; the file shows them as U+FFFD): only the edge can receive it,
	// so only the Go tests run it.
	InvalidUTF8 bool       `json:"invalid_utf8,omitempty"`
	Operation   string     `json:"operation"`
	Options     probeOpts  `json:"options"`
	Request     probeReq   `json:"request"`
	Errors      errsByLang `json:"errors"`
}

type probeOpts struct {
	Rules bool   `json:"rules"`
	Today string `json:"today,omitempty"`
}

type probeReq struct {
	Fields  [][2]string         `json:"fields"`
	Parcels []map[string]string `json:"parcels"`
}

type fieldError struct {
	Field   string `json:"field"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type errsByLang map[string][]fieldError

type postalProbe struct {
	Country  string            `json:"country"`
	Input    string            `json:"input"`
	Messages map[string]string `json:"message"`
}

type acceptCase struct {
	Header string `json:"header"`
	Locale string `json:"locale"`
}

type vectors struct {
	Comment string        `json:"comment"`
	Locales []string      `json:"locales"`
	Request []probe       `json:"requests"`
	Postal  []postalProbe `json:"postal"`
	Accept  []acceptCase  `json:"accept_language"`
}

func fields(kv ...string) [][2]string {
	out := make([][2]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, [2]string{kv[i], kv[i+1]})
	}
	return out
}

var okParcel = map[string]string{"parcel_weight": "1", "parcel_width": "10", "parcel_height": "10", "parcel_length": "10", "parcel_volume": "1000"}

// probes: together they produce every validate message (the coverage test
// checks it), each in a realistic request.
func probes() []probe {
	manyParcels := make([]map[string]string, catalog.MaxParcels+1)
	for i := range manyParcels {
		manyParcels[i] = okParcel
	}
	return []probe{
		{Name: "new-shipment: empty", Operation: "new-shipment", Request: probeReq{}},
		{Name: "new-shipment: bad values", Operation: "new-shipment", Options: probeOpts{Today: "2026-11-20"}, Request: probeReq{
			Fields: fields(
				"shipping_date", "2026-11-19", "service_type", "24", "carrier_code", "rapido express",
				"service_code", "r48", "shipping_client_ref", "ORD-1", "docs_number", "100",
				"from_name", strings.Repeat("ñ", 101), "from_address", "Calle\nMayor 1", "from_city", "Madrid",
				"from_zip_code", "2800", "from_country_code", "España", "from_phone", "910 000 000 x3",
				"from_email", "envios@tienda", "to_name", "Ana", "to_address", "Rua Augusta 10", "to_city", "Lisboa",
				"to_zip_code", "1100", "to_country_code", "PT", "to_phone", "12345", "gift_wrap", "1"),
			Parcels: []map[string]string{
				{"parcel_weight": "1,5", "parcel_width": "0", "parcel_height": "12345678", "parcel_length": "abc", "parcel_volume": "1e3"},
			},
		}},
		{Name: "new-shipment: rules feature, calendar", Operation: "new-shipment", Options: probeOpts{Rules: true}, Request: probeReq{
			Fields: fields("shipping_date", "2026-02-30", "service_type", "custom", "shipping_client_ref", "ORD-2",
				"from_name", "Tienda", "from_address", "Calle Mayor 1", "from_city", "Madrid", "from_zip_code", "53001",
				"from_country_code", "ES", "to_name", "Ana", "to_address", "Calle Sol 2", "to_city", "Palma",
				"to_zip_code", "07001", "to_country_code", "ES", "docs_number", "two"),
			Parcels: []map[string]string{okParcel},
		}},
		{Name: "new-shipment: a date that is not a date", Operation: "new-shipment", Request: probeReq{
			Fields: fields("shipping_date", "23/11/2026", "service_type", "custom", "carrier_code", "rapido",
				"service_code", "rapido-48h", "shipping_client_ref", "ORD-3", "from_name", "Tienda", "from_address", "Calle Mayor 1",
				"from_city", "Madrid", "from_zip_code", "28001", "from_country_code", "ES", "to_name", "Ana",
				"to_address", "Calle Sol 2", "to_city", "Ceuta", "to_zip_code", "51001", "to_country_code", "ES"),
			Parcels: manyParcels,
		}},
		{Name: "new-collection: hour windows", Operation: "new-collection", Options: probeOpts{Today: "2026-11-20"}, Request: probeReq{
			Fields: fields("collection_date", "2026-11-23", "hour_start_1", "14:00", "hour_end_1", "09:00",
				"hour_start_2", "13:00", "carrier_code", "rapido", "service_code", "rapido-48h", "shipping_dlvr_ref", "D1",
				"collection_client_ref", "C1", "from_name", "Tienda", "from_address", "Calle Mayor 1", "from_city", "Madrid",
				"from_zip_code", "28001", "from_country_code", "ES", "to_name", "Ana", "to_address", "Calle Sol 2",
				"to_city", "Madrid", "to_zip_code", "28002", "to_country_code", "ES", "to_phone", "612345678"),
		}},
		{Name: "new-collection: morning ends after the afternoon starts, bad hour", Operation: "new-collection", Request: probeReq{
			Fields: fields("collection_date", "2026-11-23", "hour_start_1", "09:00", "hour_end_1", "14:00",
				"hour_start_2", "13:00", "hour_end_2", "25:00", "carrier_code", "rapido", "service_code", "rapido-48h",
				"shipping_dlvr_ref", "D1", "collection_client_ref", "C1", "from_name", "Tienda", "from_address", "Calle Mayor 1",
				"from_city", "Madrid", "from_zip_code", "28001", "from_country_code", "ES", "to_name", "Ana",
				"to_address", "Calle Sol 2", "to_city", "Madrid", "to_zip_code", "28002", "to_country_code", "ES",
				"to_phone", "612345678"),
		}},
		{Name: "new-collection: afternoon window ends too early", Operation: "new-collection", Request: probeReq{
			Fields: fields("collection_date", "2026-11-23", "hour_start_1", "09:00", "hour_end_1", "12:00",
				"hour_start_2", "16:00", "hour_end_2", "15:00", "carrier_code", "rapido", "service_code", "rapido-48h",
				"shipping_dlvr_ref", "D1", "collection_client_ref", "C1", "from_name", "Tienda", "from_address", "Calle Mayor 1",
				"from_city", "Madrid", "from_zip_code", "28001", "from_country_code", "ES", "to_name", "Ana",
				"to_address", "Calle Sol 2", "to_city", "Madrid", "to_zip_code", "28002", "to_country_code", "ES",
				"to_phone", "612345678"),
			Parcels: []map[string]string{okParcel},
		}},
		{Name: "get-shipment-tracking: no reference, carrier_ref without carrier_code", Operation: "get-shipment-tracking", Request: probeReq{}},
		{Name: "get-shipment-tracking: carrier_ref without carrier_code", Operation: "get-shipment-tracking", Request: probeReq{
			Fields: fields("carrier_ref", "1Z999"),
		}},
		{Name: "get-shipment-label: no reference", Operation: "get-shipment-label", Request: probeReq{}},
		{Name: "get-shipments: period and paging", Operation: "get-shipments", Request: probeReq{
			Fields: fields("filter_date_ini", "2026-11-20", "filter_date_end", "2026-11-01", "page", "0", "n_items", "1000"),
		}},
		{Name: "get-client-services: flag, bytes", Operation: "get-client-services", InvalidUTF8: true, Request: probeReq{
			Fields: fields("status", "yes", "carrier_code", "r\xffpido", "x-carrier", "1"),
		}},
		{Name: "get-shipments: a date before 1900", Operation: "get-shipments", Request: probeReq{
			Fields: fields("filter_date_ini", "1899-12-31"),
		}},
		{Name: "new-collection: a phone over 15 characters", Operation: "new-collection", Request: probeReq{
			Fields: fields("collection_date", "2026-11-23", "hour_start_1", "09:00", "hour_end_1", "13:00",
				"carrier_code", "rapido", "service_code", "rapido-48h", "shipping_dlvr_ref", "D1", "collection_client_ref", "C1",
				"from_name", "Tienda", "from_address", "Calle Mayor 1", "from_zip_code", "28001", "from_country_code", "ES",
				"to_name", "Ana", "to_address", "Calle Sol 2", "to_city", "Madrid", "to_zip_code", "28002", "to_country_code", "ES",
				"to_phone", "+34 612 345 678 901 2"),
		}},
		{Name: "new-shipment: carrier-specific extra fields", Operation: "new-shipment", Request: probeReq{
			Fields: fields("service_type", "custom", "carrier_code", "rapido", "service_code", "rapido-48h",
				"shipping_client_ref", "ORD-4", "from_name", "Tienda", "from_address", "Calle Mayor 1", "from_city", "Madrid",
				"from_zip_code", "28001", "from_country_code", "ES", "to_name", "Ana", "to_address", "Calle Sol 2",
				"to_city", "Madrid", "to_zip_code", "28002", "to_country_code", "ES",
				"To_Zip_Code", "99999", "x_"+strings.Repeat("n", validate.MaxExtraNameRunes), "1", "x_note", strings.Repeat("v", validate.MaxExtraValueRunes+1),
				"x_1", "1", "x_2", "1", "x_3", "1", "x_4", "1", "x_5", "1", "x_6", "1", "x_7", "1", "x_8", "1", "x_9", "1",
				"x_10", "1", "x_11", "1", "x_12", "1", "x_13", "1", "x_14", "1", "x_15", "1", "x_16", "1", "x_17", "1",
				"x_18", "1"),
			Parcels: []map[string]string{okParcel},
		}},
		{Name: "new-collection: invisible characters in references and codes", Operation: "new-collection", Request: probeReq{
			Fields: fields("collection_date", "2026-11-23", "hour_start_1", "09:00", "hour_end_1", "13:00",
				"carrier_code", "rapido\u200d", "service_code", "rapido-48h", "shipping_dlvr_ref", "\u202eD1", "collection_client_ref", "AB\u200b12",
				"from_name", "Tienda", "from_address", "Calle Mayor 1", "from_zip_code", "28001", "from_country_code", "ES",
				"to_name", "Ana", "to_address", "Calle Sol 2", "to_city", "Madrid", "to_zip_code", "28002", "to_country_code", "ES",
				"to_phone", "612345678"),
		}},
		{Name: "get-shipments-rates: no parcels", Operation: "get-shipments-rates", Request: probeReq{
			Fields: fields("from_country_code", "ES", "from_zip_code", "28001", "to_country_code", "ES", "to_zip_code", "07001"),
		}},
	}
}

func (p *probe) request() *form.Request {
	r := &form.Request{}
	for _, f := range p.Request.Fields {
		r.Fields = append(r.Fields, form.Field{Name: f[0], Value: f[1]})
	}
	for _, m := range p.Request.Parcels {
		var pc form.Parcel
		for k, v := range m {
			pc.Set(k, v)
		}
		r.Parcels = append(r.Parcels, pc)
	}
	return r
}

func run(t *testing.T, p *probe, l i18n.Locale) []fieldError {
	op := catalog.Lookup(p.Operation)
	require.NotNil(t, op, p.Operation)
	errs := validate.Request(op, p.request(), validate.Options{Rules: p.Options.Rules, Today: p.Options.Today, Locale: l}, nil)
	out := []fieldError{}
	for _, e := range errs {
		out = append(out, fieldError{e.Field, e.Code, e.Message})
	}
	return out
}

// postalInputs are typed in every country: together with the per-country
// examples below they reach every message postal.Check has.
var postalInputs = []string{"", "  ", "1", "12", "0", "00", "000", "0000", "00000", "000000", "0000000", "12345678901",
	"ab", "AB12", "12-", "-12", "1--2", "1  -2", "12.34", "12/34", "1234", "12345", "123456", "1234567",
	"1234-567", "0123-456", "1234 AB", "0123 AB", "1234 SA", "AD100", "AD800", "AD 050", "V-12345", "F 12345",
	"75 001", "D-10115", "00123", "99999", "53001", "1000"}

func postalProbes() []postalProbe {
	var out []postalProbe
	for _, c := range []string{"ES", "PT", "DE", "IT", "FR", "NL", "AD", "BE", "US", "KP"} {
		seen := map[string]bool{} // the first input of each message
		for _, in := range postalInputs {
			if _, msg := postal.Check(c, in); msg != "" && !seen[msg] {
				seen[msg] = true
				out = append(out, postalProbe{Country: c, Input: in})
			}
		}
	}
	return out
}

// allCountries lists every assigned ISO code: postal rules are per country.
func allCountries() []string {
	var out []string
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			if c := string([]rune{a, b}); country.Valid(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

func build(t *testing.T) vectors {
	v := vectors{
		Comment: "Generated by `go test ./internal/i18n -update` from the probes in internal/i18n/vectors_test.go " +
			"and the table in internal/i18n/messages.go. Every message of the core in every locale; run by the Go " +
			"tests and, in Chromium, by js/test/browser.test.mjs.",
	}
	for l := i18n.Locale(0); l < i18n.Count; l++ {
		v.Locales = append(v.Locales, l.String())
	}
	for _, p := range probes() {
		p.Errors = errsByLang{}
		for l := i18n.Locale(0); l < i18n.Count; l++ {
			p.Errors[l.String()] = run(t, &p, l)
		}
		v.Request = append(v.Request, p)
	}
	for _, p := range postalProbes() {
		_, en := postal.Check(p.Country, p.Input)
		p.Messages = map[string]string{}
		for l := i18n.Locale(0); l < i18n.Count; l++ {
			p.Messages[l.String()] = i18n.Message(l, en)
		}
		v.Postal = append(v.Postal, p)
	}
	for _, h := range []string{"", "es-ES,es;q=0.9,en;q=0.8", "en-US,en;q=0.9,es;q=0.8", "ca-ES,ca;q=0.9,es;q=0.8",
		"fr;q=0.5, de;q=0.7", "pt-BR;q=0, it;q=0.1", "nl-BE", "da, sv;q=0.8", "*"} {
		v.Accept = append(v.Accept, acceptCase{h, i18n.FromAcceptLanguage(h).String()})
	}
	return v
}

func encode(v vectors) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// The committed vectors are what the core answers today (the JavaScript
// tests run the same file against the browser module).
func TestVectorsAreCurrent(t *testing.T) {
	testvectors.Golden(t, "messages.json", encode(build(t)), *update, "go test ./internal/i18n -update")
}

// matches reports whether text is row's text in locale l, reading {0} as
// any non-empty text.
func matches(pattern, text string) bool {
	i := strings.Index(pattern, "{0}")
	if i < 0 {
		return pattern == text
	}
	pre, post := pattern[:i], pattern[i+3:]
	return len(text) > len(pre)+len(post) && strings.HasPrefix(text, pre) && strings.HasSuffix(text, post)
}

// The vectors show every row of the table in every language: no message
// is left without a test that runs it in the browser too.
func TestVectorsCoverTheTable(t *testing.T) {
	v := build(t)
	for i := 0; i < i18n.Entries(); i++ {
		row := i18n.Entry(i)
		for l := i18n.Locale(0); l < i18n.Count; l++ {
			found := false
			for _, p := range v.Request {
				for _, e := range p.Errors[l.String()] {
					if matches(row[l], e.Message) || (row[0] == i18n.OrWord && strings.Contains(e.Message, row[l])) {
						found = true
					}
				}
			}
			for _, p := range v.Postal {
				if matches(row[l], p.Messages[l.String()]) {
					found = true
				}
			}
			assert.True(t, found, "no vector shows %q in %s", row[0], l)
		}
	}
}

// Every message the core can write has every language: the probes, the
// request vectors of testdata/requests, and every postal input above in
// every assigned country. An English message that comes out unchanged in
// another language is missing from the table.
func TestEveryMessageHasEveryLanguage(t *testing.T) {
	missing := map[string]bool{}
	check := func(en, other string, l i18n.Locale) {
		if en == other {
			missing[en+" ("+l.String()+")"] = true
		}
	}
	for _, p := range append(probes(), requestVectors(t)...) {
		en := run(t, &p, i18n.English)
		for l := i18n.Locale(1); l < i18n.Count; l++ {
			got := run(t, &p, l)
			require.Len(t, got, len(en), p.Name)
			for i := range en {
				assert.Equal(t, en[i].Field, got[i].Field, "field names never change")
				assert.Equal(t, en[i].Code, got[i].Code, "codes never change")
				check(en[i].Message, got[i].Message, l)
			}
		}
	}
	for _, c := range append(allCountries(), "", "es", "XX") {
		for _, in := range postalInputs {
			if _, en := postal.Check(c, in); en != "" {
				for l := i18n.Locale(1); l < i18n.Count; l++ {
					check(en, i18n.Message(l, en), l)
				}
			}
		}
	}
	for m := range missing {
		t.Errorf("no translation: %s", m)
	}
}

// requestVectors reads testdata/requests/*.json as probes.
func requestVectors(t *testing.T) []probe {
	var out []probe
	for _, p := range testvectors.List[struct {
		probe
		Errors any `json:"errors"`
	}](t, "requests/*.json") {
		out = append(out, p.V.probe)
	}
	return out
}
