package form

import (
	"math/rand"
	"net/url"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEncodeValues(t *testing.T) {
	tests := []struct {
		name, value, want string
	}{
		{"empty", "", ""},
		{"kept as is", "AZaz09*-._", "AZaz09*-._"},
		{"space is plus", "a b  c", "a+b++c"},
		{"ampersand", "a&b", "a%26b"},
		{"equals", "a=b", "a%3Db"},
		{"plus", "+34 910", "%2B34+910"},
		{"percent", "100%", "100%25"},
		{"percent that looks like an escape", "%41", "%2541"},
		{"brackets", "[0][x]", "%5B0%5D%5Bx%5D"},
		{"double quote", `"x"`, "%22x%22"},
		{"single quote", "O'Neill", "O%27Neill"},
		{"tilde is escaped as URLSearchParams does", "~", "%7E"},
		{"semicolon and hash", ";#", "%3B%23"},
		{"slash, colon, question, at", "/:?@", "%2F%3A%3F%40"},
		{"newline and tab", "a\r\n\tb", "a%0D%0A%09b"},
		{"NUL", "\x00", "%00"},
		{"Spanish", "Ñandú, Alcalá 3º", "%C3%91and%C3%BA%2C+Alcal%C3%A1+3%C2%BA"},
		{"Portuguese", "São João, Conceição", "S%C3%A3o+Jo%C3%A3o%2C+Concei%C3%A7%C3%A3o"},
		{"CJK", "東京", "%E6%9D%B1%E4%BA%AC"},
		{"emoji", "📦", "%F0%9F%93%A6"},
		{"emoji with skin tone", "👍🏽", "%F0%9F%91%8D%F0%9F%8F%BD"},
		{"bytes are escaped even when not UTF-8", "\xff", "%FF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Request{Fields: []Field{{Name: "v", Value: tt.value}}}
			body := string(Encode(r))
			assert.Equal(t, "v="+tt.want, body)
			assert.Equal(t, len(body), EncodedLen(r))
			// net/url reads it back to the same value.
			q, err := url.ParseQuery(body)
			require.NoError(t, err)
			assert.Equal(t, []string{tt.value}, q["v"])
		})
	}
}

func TestEncodeLayout(t *testing.T) {
	tests := []struct {
		name string
		r    Request
		want string
	}{
		{"nothing", Request{}, ""},
		{"empty top-level value", Request{Fields: []Field{{"a", ""}, {"b", "1"}}}, "a=&b=1"},
		{"fields in order held", Request{Fields: []Field{{"z", "1"}, {"a", "2"}}}, "z=1&a=2"},
		{
			"parcels after fields, field order weight..volume, empty values skipped",
			Request{Fields: []Field{{"a", "1"}}, Parcels: []Parcel{{Volume: "5", Weight: "1"}, {Height: "2"}}},
			"a=1&parcels[0][parcel_weight]=1&parcels[0][parcel_volume]=5&parcels[1][parcel_height]=2",
		},
		{"only parcels", Request{Parcels: []Parcel{{Width: "3"}}}, "parcels[0][parcel_width]=3"},
		{"empty parcel keeps its place", Request{Parcels: []Parcel{{}, {Length: "4"}}}, "parcels[0][parcel_weight]=&parcels[1][parcel_length]=4"},
		{"top-level names are escaped too", Request{Fields: []Field{{"a b[", "1"}}}, "a+b%5B=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(Encode(&tt.r)))
			assert.Equal(t, len(tt.want), EncodedLen(&tt.r))
			assert.Equal(t, "x"+tt.want, string(AppendEncode([]byte("x"), &tt.r)))
		})
	}
}

func TestEncodeManyParcelIndices(t *testing.T) {
	r := &Request{}
	for i := 0; i < 120; i++ {
		r.Parcels = append(r.Parcels, Parcel{Weight: strconv.Itoa(i)})
	}
	body := string(Encode(r))
	assert.Equal(t, len(body), EncodedLen(r))
	assert.Contains(t, body, "&parcels[9][parcel_weight]=9&parcels[10][parcel_weight]=10&")
	assert.Contains(t, body, "&parcels[99][parcel_weight]=99&parcels[100][parcel_weight]=100&")
	assert.True(t, strings.HasSuffix(body, "&parcels[119][parcel_weight]=119"))
	got, err := Decode([]byte(body), Limits{MaxParcels: 120})
	require.NoError(t, err)
	assert.True(t, r.Equal(got))
}

func TestAppendEncodeDoesNotAllocate(t *testing.T) {
	r := shipment()
	buf := make([]byte, 0, EncodedLen(r))
	allocs := testing.AllocsPerRun(100, func() {
		buf = AppendEncode(buf[:0], r)
	})
	assert.Zero(t, allocs)
	allocs = testing.AllocsPerRun(100, func() { _ = Encode(r) })
	assert.Equal(t, 1.0, allocs, "Encode allocates the result only")
}

func TestDecodeQueryAndBody(t *testing.T) {
	want := &Request{
		Fields:  []Field{{"from_country_code", "ES"}, {"from_zip_code", "28001"}, {"to_name", "José & Filhos"}},
		Parcels: []Parcel{{Weight: "3.2", Width: "30"}},
	}
	tests := []struct{ name, in string }{
		{"body", "from_country_code=ES&from_zip_code=28001&to_name=Jos%C3%A9+%26+Filhos&parcels[0][parcel_weight]=3.2&parcels[0][parcel_width]=30"},
		{"query string", "?from_country_code=ES&from_zip_code=28001&to_name=Jos%C3%A9%20%26%20Filhos&parcels%5B0%5D%5Bparcel_weight%5D=3.2&parcels%5B0%5D%5Bparcel_width%5D=30"},
		{"as net/url encodes it", url.Values{"from_country_code": {"ES"}}.Encode() + "&from_zip_code=28001&to_name=" + url.QueryEscape("José & Filhos") + "&" +
			url.QueryEscape("parcels[0][parcel_weight]") + "=3.2&" + url.QueryEscape("parcels[0][parcel_width]") + "=30"},
		{"parcel fields first and out of order", "parcels[0][parcel_width]=30&parcels[0][parcel_weight]=3.2&from_country_code=ES&from_zip_code=28001&to_name=Jos%C3%A9+%26+Filhos"},
		{"empty pairs", "&from_country_code=ES&&from_zip_code=28001&to_name=Jos%C3%A9+%26+Filhos&&parcels[0][parcel_weight]=3.2&parcels[0][parcel_width]=30&"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.in), DefaultLimits)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}

func TestDecodeSmallCases(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Request
	}{
		{"empty", "", Request{Fields: []Field{}}},
		{"lone ?", "?", Request{Fields: []Field{}}},
		{"only ampersands", "&&", Request{Fields: []Field{}}},
		{"key without =", "a", Request{Fields: []Field{{"a", ""}}}},
		{"key with =", "a=", Request{Fields: []Field{{"a", ""}}}},
		{"plus is space", "a=1+2", Request{Fields: []Field{{"a", "1 2"}}}},
		{"encoded plus", "a=1%2B2", Request{Fields: []Field{{"a", "1+2"}}}},
		{"equals in value", "a==", Request{Fields: []Field{{"a", "="}}}},
		{"second ? is part of the value", "?a=?", Request{Fields: []Field{{"a", "?"}}}},
		{"semicolon is not a separator", "a=1;b=2", Request{Fields: []Field{{"a", "1;b=2"}}}},
		{"control characters are kept (validation judges them)", "a=%00%0A", Request{Fields: []Field{{"a", "\x00\n"}}}},
		{"parcel key without =", "parcels[0][parcel_weight]", Request{Fields: []Field{}, Parcels: []Parcel{{}}}},
		{"max rune value", "a=%F4%8F%BF%BF", Request{Fields: []Field{{"a", "\U0010FFFF"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.in), Limits{})
			require.NoError(t, err)
			assert.True(t, tt.want.Equal(got), "got %+v", got)
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		lim        Limits
		field, msg string
	}{
		{"over default MaxBytes", "a=" + strings.Repeat("x", 64<<10-1), Limits{}, "", "body too large, at most 65536 bytes"},
		{"over MaxBytes", "abc", Limits{MaxBytes: 2}, "", "body too large, at most 2 bytes"},
		{"bad escape in value", "a=%4", Limits{}, "a", "invalid percent escape"},
		{"bad escape in key", "%=1", Limits{}, "", "invalid percent escape in a field name"},
		{"raw invalid UTF-8 in value", "a=\xff", Limits{}, "a", "invalid UTF-8"},
		{"raw invalid UTF-8 in key", "a\xff=1", Limits{}, "", "invalid UTF-8 in a field name"},
		{"invalid UTF-8 in the field of a parcel key", "parcels[0][\xff]=1", Limits{}, "", "invalid UTF-8 in a field name"},
		{"invalid UTF-8 in a parcel index", "parcels[%ff][parcel_weight]=1", Limits{}, "", "invalid UTF-8 in a field name"},
		{"invalid UTF-8 after a bracketed key", "a[%ff]=1", Limits{}, "", "invalid UTF-8 in a field name"},
		{"empty key", "=", Limits{}, "", "empty field name"},
		{"bad key character", "a*b=1", Limits{}, "a*b", "invalid field name: use letters, digits, _ and -"},
		{"bracket on other key", "a[0]=1", Limits{}, "a[0]", "brackets are only allowed in parcels[<i>][<field>]"},
		{"parcels alone", "parcels", Limits{}, "parcels", "parcels must be sent as parcels[<i>][<field>]"},
		{"parcels[]", "parcels[]", Limits{}, "parcels[]", "missing parcel index"},
		{"parcels[x]", "parcels[x][parcel_weight]=1", Limits{}, "parcels[x][parcel_weight]", "invalid parcel index: use 0, 1, 2, ..."},
		{"negative", "parcels[-0][parcel_weight]=1", Limits{}, "parcels[-0][parcel_weight]", "invalid parcel index: use 0, 1, 2, ..."},
		{"leading zero", "parcels[007][parcel_weight]=1", Limits{}, "parcels[007][parcel_weight]", "invalid parcel index: leading zeros"},
		{"huge index", "parcels[" + strings.Repeat("9", 5000) + "][parcel_weight]=1", Limits{}, "parcels[" + strings.Repeat("9", 5000) + "][parcel_weight]", "too many parcels, at most 50"},
		{"index at the limit", "parcels[3][parcel_weight]=1", Limits{MaxParcels: 3}, "parcels[3][parcel_weight]", "too many parcels, at most 3"},
		{"index at a huge limit", "parcels[9223372036854775807][parcel_weight]=1", Limits{MaxParcels: 1<<63 - 1}, "parcels[9223372036854775807][parcel_weight]", "too many parcels, at most 9223372036854775807"},
		{"no field", "parcels[0]", Limits{}, "parcels[0]", "missing parcel field: parcels[<i>][<field>]"},
		{"unknown field", "parcels[0][parcel_mass]=1", Limits{}, "parcels[0][parcel_mass]", "unknown parcel field: use parcel_weight, parcel_width, parcel_height, parcel_length or parcel_volume"},
		{"too deep", "parcels[0][a][b]=1", Limits{}, "parcels[0][a][b]", "nested too deep: at most parcels[<i>][<field>]"},
		{"trailing junk", "parcels[0][parcel_weight] =1", Limits{}, "parcels[0][parcel_weight] ", "unexpected characters after ]"},
		{"unclosed", "parcels[0][parcel_weight", Limits{}, "parcels[0][parcel_weight", "missing ]"},
		{"repeated top-level", "a=1&a=1", Limits{}, "a", "repeated field"},
		{"repeat of an early field after many", fieldsBody(100) + "&f3=y", Limits{}, "f3", "repeated field"},
		{"repeat of a late field after many", fieldsBody(100) + "&f99", Limits{}, "f99", "repeated field"},
		{"repeat right at the set threshold", fieldsBody(64) + "&f63=1", Limits{}, "f63", "repeated field"},
		{"repeated parcel field", "parcels[0][parcel_weight]=1&parcels[0][parcel_weight]", Limits{}, "parcels[0][parcel_weight]", "repeated field"},
		{"gap", "parcels[0][parcel_weight]=1&parcels[2][parcel_weight]=1&parcels[3][parcel_weight]=1", Limits{}, "parcels[1]", "parcels[1] is missing"},
		{"index beyond the pair count", "parcels[40][parcel_weight]=1", Limits{}, "parcels[0]", "parcels[0] is missing"},
		{"too many fields", fieldsBody(201), Limits{}, "", "too many fields, at most 200"},
		{"long value", "a=" + strings.Repeat("é", 1001), Limits{}, "a", "too long, at most 1000 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Decode([]byte(tt.in), tt.lim)
			assert.Nil(t, r)
			var fe *Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.field, fe.Field)
			assert.Equal(t, tt.msg, fe.Message)
			assert.True(t, utf8.ValidString(fe.Field), "field must be printable")
		})
	}
}

// fieldsBody returns n distinct fields f0=x&f1=x&...
func fieldsBody(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString("f" + strconv.Itoa(i) + "=x")
	}
	return b.String()
}

func TestDecodeAtDefaultLimits(t *testing.T) {
	assert.Equal(t, Limits{MaxBytes: 65536, MaxFields: 200, MaxParcels: 50, MaxValueRunes: 1000}, DefaultLimits)
	assert.Equal(t, DefaultLimits, Limits{}.withDefaults(), "zero fields mean the defaults")
	assert.Equal(t, Limits{MaxBytes: 10, MaxFields: 200, MaxParcels: 3, MaxValueRunes: 1000}, Limits{MaxBytes: 10, MaxFields: -1, MaxParcels: 3}.withDefaults())

	// Exactly at every default limit: accepted.
	body := fieldsBody(200)
	r, err := Decode([]byte(body), DefaultLimits)
	require.NoError(t, err)
	assert.Len(t, r.Fields, 200)

	big := &Request{Fields: []Field{{"a", strings.Repeat("x", 1000)}}}
	for i := 0; i < 50; i++ {
		big.Parcels = append(big.Parcels, Parcel{Weight: "1", Width: "2", Height: "3", Length: "4", Volume: "5"})
	}
	r, err = Decode(Encode(big), DefaultLimits)
	require.NoError(t, err)
	assert.True(t, big.Equal(r))

	pad := "a=" + strings.Repeat("x", 64<<10-2)
	_, err = Decode([]byte(pad), Limits{MaxValueRunes: 1 << 20})
	assert.NoError(t, err, "exactly MaxBytes is accepted")
}

func TestErrorString(t *testing.T) {
	assert.Equal(t, "form: a: repeated field", (&Error{Field: "a", Message: "repeated field"}).Error())
	assert.Equal(t, "form: empty field name", (&Error{Message: "empty field name"}).Error())
}

func TestDecodeNeverAllocatesByIndex(t *testing.T) {
	// With an absurd MaxParcels the index passes the limit check, yet the
	// memory used must depend on the input size, not on the index.
	lim := Limits{MaxParcels: 1 << 40}
	for _, body := range []string{
		"parcels[999999999999][parcel_weight]=1",
		"parcels[0][parcel_weight]=1&parcels[999999999999][parcel_weight]=1",
		strings.Repeat("&", 100) + "parcels[999999999][parcel_weight]=1",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode([]byte(body), lim)
		runtime.ReadMemStats(&after)
		var fe *Error
		require.ErrorAs(t, err, &fe)
		assert.Contains(t, fe.Message, "is missing")
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<10), body)
	}
}

func TestDecodeAllocations(t *testing.T) {
	body := Encode(shipment())
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := Decode(body, DefaultLimits); err != nil {
			t.Fatal(err)
		}
	})
	// The Request, its Fields, its Parcels and one buffer for all strings.
	assert.LessOrEqual(t, allocs, 4.0)

	var r Request
	require.NoError(t, DecodeInto(&r, body, DefaultLimits))
	allocs = testing.AllocsPerRun(100, func() {
		if err := DecodeInto(&r, body, DefaultLimits); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, allocs, 1.0, "DecodeInto reuses Fields and Parcels")
}

func TestDecodeIntoReuses(t *testing.T) {
	r := &Request{}
	require.NoError(t, DecodeInto(r, []byte("a=1&b=2&parcels[0][parcel_weight]=1&parcels[1][parcel_width]=2&parcels[1][parcel_volume]=9"), Limits{}))
	require.NoError(t, DecodeInto(r, []byte("c=3&parcels[0][parcel_height]=4&parcels[1][parcel_length]=5"), Limits{}))
	assert.Equal(t, []Field{{"c", "3"}}, r.Fields)
	assert.Equal(t, []Parcel{{Height: "4"}, {Length: "5"}}, r.Parcels, "old parcel values are cleared")
	require.NoError(t, DecodeInto(r, nil, Limits{}))
	assert.Empty(t, r.Fields)
	assert.Empty(t, r.Parcels)
}

func TestDecodedStringsSurviveBodyReuse(t *testing.T) {
	body := []byte("to_name=Ana&parcels[0][parcel_weight]=1.5")
	r, err := Decode(body, Limits{})
	require.NoError(t, err)
	for i := range body {
		body[i] = 'X'
	}
	assert.Equal(t, "to_name", r.Fields[0].Name)
	assert.Equal(t, "Ana", r.Fields[0].Value)
	assert.Equal(t, "1.5", r.Parcels[0].Weight)
}

func TestSortFields(t *testing.T) {
	catalog := []string{"shipping_date", "service_type", "carrier_code", "from_name"}
	order := func(name string) int {
		for i, n := range catalog {
			if n == name {
				return i
			}
		}
		return -1
	}
	tests := []struct {
		name     string
		in, want []string
	}{
		{"empty", nil, nil},
		{"already sorted", []string{"shipping_date", "carrier_code"}, []string{"shipping_date", "carrier_code"}},
		{"reversed", []string{"from_name", "carrier_code", "service_type", "shipping_date"}, []string{"shipping_date", "service_type", "carrier_code", "from_name"}},
		{"unknown last, by name", []string{"zz_extra", "from_name", "aa_extra", "shipping_date", "Mx"}, []string{"shipping_date", "from_name", "Mx", "aa_extra", "zz_extra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Request{}
			for _, n := range tt.in {
				r.Fields = append(r.Fields, Field{Name: n, Value: "v-" + n})
			}
			r.SortFields(order)
			var got []string
			for _, f := range r.Fields {
				got = append(got, f.Name)
				assert.Equal(t, "v-"+f.Name, f.Value, "values travel with names")
			}
			assert.Equal(t, tt.want, got)
		})
	}
	// Stable for equal ranks.
	r := &Request{Fields: []Field{{"b", "1"}, {"a", "2"}, {"c", "3"}}}
	r.SortFields(func(string) int { return 0 })
	assert.Equal(t, []Field{{"b", "1"}, {"a", "2"}, {"c", "3"}}, r.Fields)
	assert.Zero(t, testing.AllocsPerRun(10, func() { r.SortFields(order) }))
}

func TestEqual(t *testing.T) {
	base := func() *Request {
		return &Request{Fields: []Field{{"a", "1"}, {"b", ""}}, Parcels: []Parcel{{Weight: "1"}}}
	}
	var nilReq *Request
	tests := []struct {
		name string
		a, b *Request
		want bool
	}{
		{"same", base(), base(), true},
		{"both nil", nilReq, nilReq, true},
		{"nil and empty", nilReq, &Request{}, false},
		{"nil slices equal empty ones", &Request{}, &Request{Fields: []Field{}, Parcels: []Parcel{}}, true},
		{"field order matters", base(), &Request{Fields: []Field{{"b", ""}, {"a", "1"}}, Parcels: []Parcel{{Weight: "1"}}}, false},
		{"value differs", base(), &Request{Fields: []Field{{"a", "2"}, {"b", ""}}, Parcels: []Parcel{{Weight: "1"}}}, false},
		{"missing field", base(), &Request{Fields: []Field{{"a", "1"}}, Parcels: []Parcel{{Weight: "1"}}}, false},
		{"parcel differs", base(), &Request{Fields: []Field{{"a", "1"}, {"b", ""}}, Parcels: []Parcel{{Width: "1"}}}, false},
		{"extra empty parcel", base(), &Request{Fields: []Field{{"a", "1"}, {"b", ""}}, Parcels: []Parcel{{Weight: "1"}, {}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.a.Equal(tt.b))
			assert.Equal(t, tt.want, tt.b.Equal(tt.a))
		})
	}
}

// randomRune returns a rune from a mix of ranges that matter here: form
// metacharacters, ASCII, Latin-1 accents, the rest of the BMP (no
// surrogates) and astral planes (emoji).
func randomRune(rng *rand.Rand) rune {
	switch rng.Intn(6) {
	case 0:
		return rune("&=+%[]? \"';#~*-._/\\,:@\x00\n\t"[rng.Intn(25)])
	case 1:
		return rune(rng.Intn(0x80))
	case 2:
		return rune(0x80 + rng.Intn(0x180)) // Latin-1 and Latin Extended-A
	case 3:
		r := rune(0x800 + rng.Intn(0xF800))
		if utf8.ValidRune(r) {
			return r
		}
		return 'ñ'
	case 4:
		return rune(0x1F300 + rng.Intn(0x300)) // emoji
	}
	return rune(0x10000 + rng.Intn(0x100000))
}

func randomValue(rng *rand.Rand, maxRunes int) string {
	if rng.Intn(5) == 0 {
		return ""
	}
	n := rng.Intn(maxRunes + 1)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(randomRune(rng))
	}
	return b.String()
}

const nameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"

func randomRequest(rng *rand.Rand) *Request {
	r := &Request{}
	seen := map[string]bool{"parcels": true}
	for n := rng.Intn(30); len(r.Fields) < n; {
		b := make([]byte, 1+rng.Intn(20))
		for i := range b {
			b[i] = nameChars[rng.Intn(len(nameChars))]
		}
		if seen[string(b)] {
			continue
		}
		seen[string(b)] = true
		r.Fields = append(r.Fields, Field{Name: string(b), Value: randomValue(rng, 40)})
	}
	for n := rng.Intn(12); len(r.Parcels) < n; {
		var p Parcel
		for j := range ParcelFieldNames {
			p.setAt(j, randomValue(rng, 8))
		}
		r.Parcels = append(r.Parcels, p)
	}
	return r
}

// multiset of the pairs a Request should produce on the wire.
func expectedPairs(r *Request) []string {
	var out []string
	for _, f := range r.Fields {
		out = append(out, f.Name+"\x00"+f.Value)
	}
	for i := range r.Parcels {
		p := &r.Parcels[i]
		if emptyParcel(p) {
			out = append(out, "parcels["+strconv.Itoa(i)+"][parcel_weight]\x00")
		}
		for j, n := range ParcelFieldNames {
			if v := p.At(j); v != "" {
				out = append(out, "parcels["+strconv.Itoa(i)+"]["+n+"]\x00"+v)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestRoundTripProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(20261120))
	lim := Limits{MaxBytes: 1 << 20}
	var reused Request
	for i := 0; i < 3000; i++ {
		r := randomRequest(rng)
		body := Encode(r)
		require.Equal(t, len(body), EncodedLen(r))
		got, err := Decode(body, lim)
		require.NoError(t, err, "body %q", body)
		require.True(t, r.Equal(got), "round trip %d: %q", i, body)
		require.NoError(t, DecodeInto(&reused, body, lim))
		require.True(t, r.Equal(&reused), "DecodeInto round trip %d", i)
		// As a query string, too.
		got, err = Decode(append([]byte{'?'}, body...), lim)
		require.NoError(t, err)
		require.True(t, r.Equal(got))
	}
}

func TestCrossCheckNetURL(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 2000; i++ {
		r := randomRequest(rng)
		body := string(Encode(r))
		q, err := url.ParseQuery(body)
		require.NoError(t, err, body)
		var got []string
		for k, vs := range q {
			for _, v := range vs {
				got = append(got, k+"\x00"+v)
			}
		}
		sort.Strings(got)
		want := expectedPairs(r)
		if len(want) == 0 {
			assert.Empty(t, got)
			continue
		}
		require.Equal(t, want, got, "body %q", body)

		// And net/url's encoding of the same pairs decodes to the same request.
		re := url.Values{}
		for _, f := range r.Fields {
			re.Add(f.Name, f.Value)
		}
		for i := range r.Parcels {
			for j, n := range ParcelFieldNames {
				if v := r.Parcels[i].At(j); v != "" || (j == 0 && emptyParcel(&r.Parcels[i])) {
					re.Add("parcels["+strconv.Itoa(i)+"]["+n+"]", v)
				}
			}
		}
		dec, err := Decode([]byte(re.Encode()), Limits{MaxBytes: 1 << 20})
		require.NoError(t, err)
		assert.ElementsMatch(t, expectedPairs(r), expectedPairs(dec))
	}
}

// shipment is the realistic new-shipment with two parcels used by the
// benchmarks and the allocation tests.
func shipment() *Request {
	return &Request{
		Fields: []Field{
			{"shipping_date", "2026-11-23"}, {"service_type", "custom"}, {"carrier_code", "rapido"},
			{"service_code", "rapido-48h"}, {"shipping_client_ref", "ORD-1001"},
			{"from_name", "Tienda Ñandú S.L."}, {"from_address", "Calle de Alcalá 1, 3º"},
			{"from_city", "Madrid"}, {"from_zip_code", "28014"}, {"from_country_code", "ES"},
			{"from_phone", "+34 910 000 000"}, {"from_email", "envios@tienda.example"},
			{"to_name", "José Álvarez & Filhos"}, {"to_address", "Rua Augusta 10"},
			{"to_city", "Lisboa"}, {"to_zip_code", "1100-053"}, {"to_country_code", "PT"},
			{"to_phone", "912345678"}, {"to_observations", "Entregar por la mañana, 2º piso"},
		},
		Parcels: []Parcel{
			{Weight: "1.5", Width: "20", Height: "10", Length: "30", Volume: "6000"},
			{Weight: "0.75", Width: "15.5", Height: "5", Length: "20", Volume: "1550"},
		},
	}
}
