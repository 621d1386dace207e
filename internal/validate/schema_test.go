//go:build !js

package validate

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/testvectors"
)

// The exported JSON Schemas (testdata/schemas, draft 4) against validation,
// with an independent validator (santhosh-tekuri/jsonschema, Go regexp for
// patterns): on every request vector and on corpora of postal codes, phones,
// e-mails, dates, hours, texts and service types, a request is valid for
// the schema exactly when Request finds no error. Requests whose only errors
// are ones the schemas say they cannot express (ordering rules, booking
// dates in the past) are left out.

var schemaCache = map[string]*jsonschema.Schema{}

func loadSchema(t testing.TB, op string, rules bool) *jsonschema.Schema {
	path := "schemas/" + op + ".json"
	if rules {
		path = "schemas/rules/" + op + ".json"
	}
	if s, ok := schemaCache[path]; ok {
		return s
	}
	raw := testvectors.Read(t, path)
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft4
	require.NoError(t, c.AddResource("file:///"+op+".json", bytes.NewReader(raw)))
	s, err := c.Compile("file:///" + op + ".json")
	require.NoError(t, err, path)
	schemaCache[path] = s
	return s
}

var decimalSyntax = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// instance turns a form request into the JSON a client would send: strings
// as they are; numbers as JSON numbers when written as such (a blank one is
// left out), anything else as the string it is.
func instance(op *catalog.Operation, r *form.Request) map[string]any {
	num := func(v string) (any, bool) {
		v = strings.TrimSpace(v)
		if v == "" {
			return nil, false
		}
		if decimalSyntax.MatchString(v) {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f, true
			}
		}
		return v, true
	}
	out := map[string]any{}
	for _, f := range r.Fields {
		p := op.Param(f.Name)
		if p != nil && p.Kind.JSONType() != "string" {
			if v, ok := num(f.Value); ok {
				out[f.Name] = v
			}
			continue
		}
		out[f.Name] = f.Value
	}
	if len(r.Parcels) > 0 {
		var ps []any
		for i := range r.Parcels {
			m := map[string]any{}
			for _, name := range form.ParcelFieldNames {
				v, _ := r.Parcels[i].Get(name)
				if n, ok := num(v); ok {
					m[name] = n
				}
			}
			ps = append(ps, m)
		}
		out["parcels"] = ps
	}
	return out
}

// inexpressible reports errors the schemas cannot state (see SchemaLimits).
func inexpressible(e FieldError) bool {
	return e.Message == msgDatePast || e.Message == msgExtraCase || strings.HasPrefix(e.Message, "At most 20 carrier-specific") ||
		strings.HasPrefix(e.Message, "The name of an extra field") || strings.HasPrefix(e.Message, "Must be later than") || strings.HasPrefix(e.Message, "Must not be earlier than")
}

// agree validates r both ways and reports a disagreement; it returns
// whether the request was valid, and false for skipped ones too.
func agree(t *testing.T, name string, op *catalog.Operation, r *form.Request, opt Options) (checked, valid bool) {
	errs := Request(op, r, opt, nil)
	for _, e := range errs {
		if inexpressible(e) {
			return false, false
		}
	}
	inst := instance(op, r)
	// Round-trip through JSON so the validator sees plain JSON values.
	raw, err := json.Marshal(inst)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(raw, &doc))
	serr := loadSchema(t, op.Name, opt.Rules).Validate(doc)
	if (len(errs) == 0) != (serr == nil) {
		t.Errorf("%s: validation says %v, the schema says %v\n%s", name, errs, serr, raw)
	}
	return true, len(errs) == 0
}

func TestSchemasAgreeWithRequestVectors(t *testing.T) {
	n := 0
	for _, v := range testvectors.Requests(t) {
		op := catalog.Lookup(v.Operation)
		r := formOf(t, &v)
		if ok, _ := agree(t, v.Name, op, r, Options{Rules: v.Options.Rules, Today: v.Options.Today}); ok {
			n++
		}
	}
	assert.Greater(t, n, 30)
}

// TestSchemasAgreeOnPostalCodes runs postal.Corpus for every assigned
// country (and a few invalid ones) through get-drop-points, whose country
// and postal code are required, and through new-shipment's recipient.
func TestSchemasAgreeOnPostalCodes(t *testing.T) {
	var countries []struct{ Code string }
	testvectors.Load(t, "countries.json", &countries)
	codes := []string{"XX", "", " gb ", "es", "Hk"}
	for _, c := range countries {
		codes = append(codes, c.Code)
	}
	dp := catalog.Lookup("get-drop-points")
	valid, invalid := 0, 0
	for _, c := range codes {
		cc := strings.ToUpper(strings.TrimSpace(c))
		// The full corpus runs against the patterns in internal/postal
		// (TestSchemaPatternsAgree); a sample of it goes through whole
		// schemas here, as this validator is slow on failing branches.
		corpus := postal.Corpus(cc)
		sample := append(corpus[:min(6, len(corpus))], corpus[len(corpus)-20:]...)
		if c == "GB" || c == "US" || c == "CH" || c == "HK" || c == "XX" {
			sample = corpus
		}
		for _, zip := range sample {
			r := &form.Request{Fields: []form.Field{{Name: "country_code", Value: c}, {Name: "zip_code", Value: zip}}}
			if _, ok := agree(t, c+" "+strconv.Quote(zip), dp, r, Options{}); ok {
				valid++
			} else {
				invalid++
			}
		}
	}
	assert.Greater(t, valid, 300)
	assert.Greater(t, invalid, 1500)
	// The shared postal vectors: the spec countries' edge cases.
	var vectors []struct{ Country, Input string }
	testvectors.Load(t, "postal.json", &vectors)
	for _, v := range vectors {
		r := &form.Request{Fields: []form.Field{{Name: "country_code", Value: v.Country}, {Name: "zip_code", Value: v.Input}}}
		agree(t, v.Country+" "+strconv.Quote(v.Input), dp, r, Options{})
	}
	// Absent, rather than blank: allowed only for countries without postal codes.
	for _, c := range []string{"HK", "GB", "XX"} {
		r := &form.Request{Fields: []form.Field{{Name: "country_code", Value: c}}}
		agree(t, c+" without zip_code", dp, r, Options{})
	}
}

// fieldCorpus holds realistic values per kind, valid and not.
var fieldCorpus = map[catalog.Kind][]string{
	catalog.Phone: {"+34 600 000 000", "+351 912 345 678", "030/1234567", "0049 30 1234567", "(91) 555-12.34", "+44 (20) 7946 0000",
		"912345678", "12345", "+123456789012345", "+12345678901234", "00 123456789012345", "00 12345678901234", "600+000000", "tel 600000000",
		"00 12345", "0 0 49 30 1234567", "++34 600", "+34\u00a0600 000 000", "  +34 600 000 000  ", "001 202 456 1111"},
	catalog.Email: {"a@b.es", "user@xn--e1afmkfd.xn--p1ai", "user@пример.рф", "info@example.xn--fiqs8s", "info@example.中国", "a@b.c", "a@b",
		"a b@c.es", "a@b.e5", "a@b.xn--", ".a@b.es", "a..b@c.es", "a@-b.es", "first.last+tag@sub.example.com", "josé@correo.españa.es",
		"a@b.es.", "a<b>@c.es", " a@b.es ", "a@b.é", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@b.es", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@b.es"},
	catalog.Date: {"2026-11-23", "1899-12-31", "1900-01-01", "2026-02-29", "2028-02-29", "2000-02-29", "2100-02-29", "2026-04-31",
		"2026-13-01", "2026-1-10", " 2026-12-01 ", "26-12-01", "2026/12/01", "9999-12-31"},
	catalog.Hour: {"09:00", "9:00", "23:59", "24:00", "12:60", " 8:30 ", "0830", "8h30"},
	catalog.Text: {"Ana", " Ana ", "", "  ", "\u00a0", "O\u0092Brien", "Line\nbreak", "Tab\there", "12345678901234567890",
		"123456789012345678901", " 12345678901234567890 ", "Ñandú", "🚚 Envíos", "\u3000名前\u3000"},
	catalog.Code: {"rapido", "rapido-24h", "ra pido", "rápido", " rapido ", "a_b-C9"},
}

// TestSchemasAgreeOnFields varies one field of a valid request at a time.
func TestSchemasAgreeOnFields(t *testing.T) {
	base := func(op string) *vector {
		for _, v := range testvectors.Requests(t) {
			if v.Operation == op && len(v.Errors) == 0 && v.Body != nil {
				return &v
			}
		}
		t.Fatalf("no valid vector for %s", op)
		return nil
	}
	n := 0
	for _, opName := range []string{"new-shipment", "new-collection"} {
		v := base(opName)
		op := catalog.Lookup(opName)
		for _, rules := range []bool{false, true} {
			for i := range op.Params {
				p := &op.Params[i]
				values := fieldCorpus[p.Kind]
				switch p.Kind {
				case catalog.Ref:
					values = fieldCorpus[catalog.Text]
				case catalog.ServiceType:
					values = []string{"custom", "24", "48", "72", " custom ", "Custom", "96", ""}
				}
				for _, val := range append(values, "") {
					r := formOf(t, v)
					r.Set(p.Name, val)
					if rules && op.Param("service_type") != nil && p.Name != "service_type" {
						r.Set("service_type", "48")
					}
					if ok, _ := agree(t, opName+" "+p.Name+"="+strconv.Quote(val)+" rules="+strconv.FormatBool(rules), op, r, Options{Rules: rules}); ok {
						n++
					}
				}
			}
		}
		// Parcels where the operation has none.
		r := formOf(t, v)
		r.Parcels = append(r.Parcels, form.Parcel{Weight: "1", Width: "1", Height: "1", Length: "1", Volume: "1"})
		agree(t, opName+" with a parcel", op, r, Options{})
	}
	assert.Greater(t, n, 500)
}
