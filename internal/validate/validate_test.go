package validate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/testvectors"
)

// vector is one case of testdata/requests (internal/testvectors).
type vector = testvectors.Request

// formOf builds a vector's request; a parcel field the core does not know
// fails the test.
func formOf(t testing.TB, v *vector) *form.Request {
	t.Helper()
	r := &form.Request{}
	for _, f := range v.Request.Fields {
		r.Fields = append(r.Fields, form.Field{Name: f[0], Value: f[1]})
	}
	for _, p := range v.Request.Parcels {
		var pc form.Parcel
		for k, val := range p {
			require.True(t, pc.Set(k, val), "vector %q: parcel field %s", v.Name, k)
		}
		r.Parcels = append(r.Parcels, pc)
	}
	return r
}

func loadVectors(t testing.TB) []vector { return testvectors.Requests(t) }

func TestVectors(t *testing.T) {
	for _, v := range testvectors.Requests(t) {
		t.Run(v.Name, func(t *testing.T) {
			op := catalog.Lookup(v.Operation)
			require.NotNil(t, op, v.Operation)
			r := formOf(t, &v)
			opt := Options{Rules: v.Options.Rules, Today: v.Options.Today}
			got := Request(op, r, opt, nil)
			want := make([]FieldError, 0, len(v.Errors))
			for _, e := range v.Errors {
				want = append(want, FieldError{Field: e.Field, Code: e.Code, Message: e.Message})
			}
			if len(want) == 0 {
				assert.Empty(t, got)
			} else {
				assert.Equal(t, want, got)
			}
			// Field reports the same errors, one field at a time.
			for _, e := range want {
				assert.Contains(t, Field(op, r, e.Field, opt), e)
			}
			if v.Body != nil {
				Normalize(op, r)
				Canonicalize(op, r)
				assert.Equal(t, *v.Body, string(form.Encode(r)))
				// The normalized request is still valid and stable.
				assert.Empty(t, Request(op, r, opt, nil))
				before := string(form.Encode(r))
				Normalize(op, r)
				assert.Equal(t, before, string(form.Encode(r)))
			}
		})
	}
}

func TestEveryOperationHasVectors(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range testvectors.Requests(t) {
		seen[v.Operation] = true
	}
	for i := range catalog.Operations {
		assert.True(t, seen[catalog.Operations[i].Name], "no request vector for %s", catalog.Operations[i].Name)
	}
}

func TestDates(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{"2024-02-29", ""},
		{"2023-02-29", msgDateCalendar},
		{"2100-02-29", msgDateCalendar},
		{"2000-02-29", ""},
		{"2026-04-31", msgDateCalendar},
		{"1899-12-31", msgDateEarly},
		{"0001-01-01", msgDateEarly},
		{"1900-01-01", ""},
		{"1900-02-29", msgDateCalendar},
		{"2000-02-29", ""},
		{"1899-02-30", msgDateCalendar},
		{"2026-12-31", ""},
		{"2026-00-10", msgDateCalendar},
		{"2026-1-10", msgDate},
		{"2026/01/10", msgDate},
		{"２０２６-01-10", msgDate},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, checkDate(c.in, false, ""), c.in)
	}
	assert.Equal(t, msgDatePast, checkDate("2026-11-19", true, "2026-11-20"))
	assert.Equal(t, "", checkDate("2026-11-20", true, "2026-11-20"))
	assert.Equal(t, "", checkDate("2026-11-19", false, "2026-11-20"), "only booking dates are checked against today")
}

func TestEmail(t *testing.T) {
	good := []string{"a@b.es", "first.last+tag@sub.example.com", "josé@correo.españa.es", "x_y-z@a-b.co",
		"user@xn--e1afmkfd.xn--p1ai", "user@пример.рф", "info@example.xn--fiqs8s", "info@example.中国",
		"info@xn--espaa-rta.es", "Info@XN--ESPAA-RTA.ES", "a@b.xn--80asehdb", "a@xn--80ak6aa92e.com"}
	bad := []string{"", "@b.es", "a@", "a@b", "a@b.c", "a b@c.es", "a@@b.es", "a@b..es", ".a@b.es", "a.@b.es", "a..b@c.es", "a@-b.es", "a@b-.es", "a@b.e5", "a@b.es.", "a<b>@c.es",
		"a@b.xn--", "a@b.xn-", "a@b.xn--p1ai-", "a@xn--p1ai", "a@b.é"}
	for _, s := range good {
		assert.True(t, isEmail(s), s)
	}
	for _, s := range bad {
		assert.False(t, isEmail(s), s)
	}
}

func TestPhone(t *testing.T) {
	for in, want := range map[string]string{
		"+34 600 000 000":     "+34600000000",
		"+351 912 345 678":    "+351912345678", // 16 characters as typed, 13 once normalized
		"(91) 555-12.34":      "915551234",
		"030/1234567":         "0301234567", // German area code and slash
		"0049 30 1234567":     "+49301234567",
		"00 44 20 7946 0000":  "+442079460000",
		"+44 (20) 7946-0000":  "+442079460000",
		"+49 1512 3456789":    "+4915123456789",
		"912345678":           "912345678",
		"0912345678":          "0912345678", // a single leading 0 is a trunk prefix, kept
		"+1 (212) 555-0100":   "+12125550100",
		"06 12 34 56 78":      "0612345678",
		"+33 6.12.34.56.78":   "+33612345678",
		"123456789012345":     "123456789012345",
		"+12345678901234":     "+12345678901234",
		"00 12345678901234":   "+12345678901234",
		"+49 (0) 30 1234 567": "+490301234567", // the (0) is not dropped: see the README
	} {
		assert.Equal(t, "", checkPhone(in, 15), in)
		assert.Equal(t, want, NormalizePhone(in), in)
		assert.Equal(t, "", checkPhone(NormalizePhone(in), 15), in)
	}
	for in, want := range map[string]string{
		"12345":              msgPhoneDigits,
		"1234567890123456":   msgPhoneDigits,
		"+123456789012345":   msgPhoneLong, // 15 digits and a +: 16 characters
		"00 123456789012345": msgPhoneLong,
		"00 12345":           msgPhoneDigits, // 00 is the prefix, 5 digits follow
		"600+000000":         msgPhoneChars,
		"++34600000000":      msgPhoneChars,
		"tel 600000000":      msgPhoneChars,
		"600 000 000 ext 2":  msgPhoneChars,
	} {
		assert.Equal(t, want, checkPhone(in, 15), in)
	}
	assert.Equal(t, "", checkPhone("+123456789012345", 0), "no length limit of its own")
	n := "+34600000000"
	assert.Zero(t, testing.AllocsPerRun(10, func() { _ = NormalizePhone(n) }))
}

func TestHours(t *testing.T) {
	for in, want := range map[string]int{"00:00": 0, "9:05": 545, "23:59": 1439} {
		got, ok := parseHour(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"24:00", "12:60", "123:00", "12:5", "1200", ":30", "ab:cd", ""} {
		_, ok := parseHour(in)
		assert.False(t, ok, in)
	}
}

func TestDecimal(t *testing.T) {
	for _, s := range []string{"1", "0.5", "10.25", "1234567", "0.001"} {
		assert.Equal(t, "", checkDecimal(s), s)
	}
	for s, want := range map[string]string{
		"1,5": msgDecimalComma, "0": msgDecimalZero, "0.0": msgDecimalZero, "-1": msgDecimal, "1e3": msgDecimal,
		".5": msgDecimal, "5.": msgDecimal, "1.2.3": msgDecimal, "12345678": msgDecimalHuge, "NaN": msgDecimal, "": msgDecimal,
	} {
		assert.Equal(t, want, checkDecimal(s), s)
	}
}

func TestCanonicalizeDoesNotLoseFields(t *testing.T) {
	op := catalog.Lookup("new-shipment")
	r := &form.Request{Fields: []form.Field{{Name: "z_extra", Value: "1"}, {Name: "to_name", Value: "a"}, {Name: "a_extra", Value: "2"}, {Name: "shipping_date", Value: "d"}}}
	Canonicalize(op, r)
	assert.Equal(t, []form.Field{{Name: "shipping_date", Value: "d"}, {Name: "to_name", Value: "a"}, {Name: "a_extra", Value: "2"}, {Name: "z_extra", Value: "1"}}, r.Fields)
}

// TestValidRequestDoesNotAllocate guards the zero-allocation promise of the
// valid path (measured, not timed).
func TestValidRequestDoesNotAllocate(t *testing.T) {
	op := catalog.Lookup("new-shipment")
	r := benchShipment()
	Normalize(op, r)
	require.Empty(t, Request(op, r, Options{}, nil))
	allocs := testing.AllocsPerRun(100, func() {
		if len(Request(op, r, Options{Today: "2026-11-20"}, nil)) != 0 {
			t.Fatal("invalid")
		}
	})
	assert.Zero(t, allocs)
}

func benchShipment() *form.Request {
	return &form.Request{
		Fields: []form.Field{
			{Name: "shipping_date", Value: "2026-11-23"}, {Name: "service_type", Value: "custom"}, {Name: "carrier_code", Value: "rapido"}, {Name: "service_code", Value: "rapido-48h"},
			{Name: "shipping_client_ref", Value: "ORD-1001"}, {Name: "from_name", Value: "Tienda Ñandú S.L."}, {Name: "from_address", Value: "Calle de Alcalá 1"},
			{Name: "from_city", Value: "Madrid"}, {Name: "from_zip_code", Value: "28014"}, {Name: "from_country_code", Value: "ES"}, {Name: "from_phone", Value: "+34 910 000 000"},
			{Name: "from_email", Value: "envios@tienda.example"}, {Name: "to_name", Value: "José Álvarez"}, {Name: "to_address", Value: "Rua Augusta 10"},
			{Name: "to_city", Value: "Lisboa"}, {Name: "to_zip_code", Value: "1100-053"}, {Name: "to_country_code", Value: "PT"}, {Name: "to_phone", Value: "912345678"},
			{Name: "to_email", Value: "jose@example.pt"},
		},
		Parcels: []form.Parcel{
			{Weight: "1.5", Width: "20", Height: "10", Length: "30", Volume: "6000"},
			{Weight: "0.75", Width: "15.5", Height: "5", Length: "20", Volume: "1550"},
		},
	}
}

func TestParseDay(t *testing.T) {
	y, m, d, ok := ParseDay("2028-02-29")
	assert.True(t, ok)
	assert.Equal(t, []int{2028, 2, 29}, []int{y, m, d})
	for _, s := range []string{"2026-02-29", "2026-13-01", "2026-00-01", "2026-04-31", "2026-4-01", "+026-01-01", "2026/01/01", ""} {
		_, _, _, ok := ParseDay(s)
		assert.False(t, ok, s)
	}
}
