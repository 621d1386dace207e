package postal

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/testvectors"
)

func TestCheckExamples(t *testing.T) {
	tests := []struct {
		name, country, input string
		want                 Result
		msg                  string
	}{
		{"Madrid", "ES", "28001", Result{"28001", 28, ZonePeninsular}, ""},
		{"Palma", "ES", "07001", Result{"07001", 7, ZoneBalearic}, ""},
		{"Las Palmas", "ES", "35001", Result{"35001", 35, ZoneCanary}, ""},
		{"Santa Cruz de Tenerife", "ES", "38001", Result{"38001", 38, ZoneCanary}, ""},
		{"Ceuta", "ES", "51001", Result{"51001", 51, ZoneCeuta}, ""},
		{"Melilla", "ES", "52001", Result{"52001", 52, ZoneMelilla}, ""},
		{"Barcelona padded", "ES", "  08001\t", Result{"08001", 8, ZonePeninsular}, ""},
		{"ES province 00", "ES", "00000", Result{}, msgESProvince},
		{"ES province 53", "ES", "53000", Result{}, msgESProvince},
		{"ES 4 digits", "ES", "2800", Result{}, msgES},
		{"ES letters", "ES", "28O01", Result{}, msgES},
		{"ES empty", "ES", " ", Result{}, msgEmpty},
		{"Lisboa", "PT", "1000-001", Result{Normalized: "1000-001"}, ""},
		{"Lisboa space", "PT", "1000 001", Result{Normalized: "1000-001"}, ""},
		{"Lisboa compact", "PT", "1000001", Result{Normalized: "1000-001"}, ""},
		{"PT old form", "PT", "1000", Result{}, msgPTShort},
		{"PT leading 0", "PT", "0999-001", Result{}, msgPTZero},
		{"PT 6 digits", "PT", "1000-01", Result{}, msgPT},
		{"Berlin", "DE", "10115", Result{Normalized: "10115"}, ""},
		{"Berlin D-", "DE", "D-10115", Result{Normalized: "10115"}, ""},
		{"DE 00", "DE", "00999", Result{}, msgDEZero},
		{"DE short", "DE", "1011", Result{}, msgDE},
		{"Roma", "IT", "00118", Result{Normalized: "00118"}, ""},
		{"Vatican", "IT", "V-00120", Result{Normalized: "V-00120"}, ""},
		{"Vatican lower", "IT", "v 00120", Result{Normalized: "V-00120"}, ""},
		{"Milano I-", "IT", "I-20121", Result{Normalized: "I-20121"}, ""},
		{"IT F- prefix", "IT", "F-20121", Result{}, msgIT},
		{"Paris", "FR", "75001", Result{Normalized: "75001"}, ""},
		{"Paris F-", "FR", "F-75001", Result{Normalized: "F-75001"}, ""},
		{"Paris f-", "FR", "f-75001", Result{Normalized: "F-75001"}, ""},
		{"Paris NN NNN", "FR", "75 001", Result{Normalized: "75001"}, ""},
		{"FR V- prefix", "FR", "V-75001", Result{}, msgFR},
		{"FR 00", "FR", "00750", Result{}, msgFRZero},
		{"FR F-00", "FR", "F-00750", Result{}, msgFRZero},
		{"FR 75 0 01", "FR", "75 0 01", Result{}, msgFR},
		{"Amsterdam", "NL", "1012 AB", Result{Normalized: "1012-AB"}, ""},
		{"Amsterdam messy", "NL", " 1012 ab ", Result{Normalized: "1012-AB"}, ""},
		{"Amsterdam compact", "NL", "1234ab", Result{Normalized: "1234-AB"}, ""},
		{"NL SA", "NL", "1012 SA", Result{}, msgNLPair},
		{"NL SD", "NL", "1012SD", Result{}, msgNLPair},
		{"NL SS", "NL", "1012-ss", Result{}, msgNLPair},
		{"NL SB ok", "NL", "1012 SB", Result{Normalized: "1012-SB"}, ""},
		{"NL leading 0", "NL", "0999 AB", Result{}, msgNLZero},
		{"NL digits only", "NL", "1012", Result{}, msgNL},
		{"Andorra la Vella", "AD", "AD500", Result{Normalized: "AD500"}, ""},
		{"AD lower", "AD", "ad100", Result{Normalized: "AD100"}, ""},
		{"AD spaced", "AD", "AD 100", Result{Normalized: "AD100"}, ""},
		{"AD bare", "AD", "700", Result{Normalized: "AD700"}, ""},
		{"AD 800", "AD", "AD800", Result{}, msgADParish},
		{"AD 4 digits", "AD", "AD1000", Result{}, msgAD},
		{"GB", "GB", " sw1a  1aa ", Result{Normalized: "SW1A 1AA"}, ""},
		{"US ZIP+4", "US", "12345-6789", Result{Normalized: "12345-6789"}, ""},
		{"CH 4 digits", "CH", "8001", Result{Normalized: "8001"}, ""},
		{"CH prefix", "CH", "ch-8001", Result{Normalized: "8001"}, ""},
		{"GB given a ZIP+4", "GB", "12345-6789", Result{}, msgFormat + "EC1Y 8SY."},
		{"CH 9 digits", "CH", "123456789", Result{}, msgFormat + "1001."},
		{"no codes, empty", "HK", "", Result{}, ""},
		{"no codes, given", "HK", "ab", Result{}, msgDigit},
		{"generic too long", "XX", "12345-67890", Result{}, msgLength},
		{"generic one char", "XX", "1", Result{}, msgLength},
		{"generic no digit", "XX", "ABCD", Result{}, msgDigit},
		{"generic bad char", "XX", "SW1A.1AA", Result{}, msgChars},
		{"generic double sep", "XX", "SW1A- 1AA", Result{}, msgDoubleSep},
		{"generic trailing hyphen", "XX", "SW1A-", Result{}, msgEdge},
		{"generic invalid UTF-8", "XX", "12\xff", Result{}, msgChars},
		{"table invalid UTF-8", "GB", "12\xff", Result{}, msgFormat + "EC1Y 8SY."},
		{"unknown country", "", "abc1", Result{Normalized: "ABC1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, msg := Check(tt.country, tt.input)
			assert.Equal(t, tt.msg, msg)
			assert.Equal(t, tt.want, got)
		})
	}
}

type vector struct {
	Country    string `json:"country"`
	Input      string `json:"input"`
	Valid      bool   `json:"valid"`
	Normalized string `json:"normalized"`
	Zone       string `json:"zone"`
	Province   int    `json:"province"`
	Message    string `json:"message"`
	Note       string `json:"note"`
}

func loadVectors(t testing.TB) []vector {
	t.Helper()
	var vs []vector
	testvectors.Load(t, "postal.json", &vs)
	require.GreaterOrEqual(t, len(vs), 60)
	return vs
}

// TestSharedVectors runs testdata/postal.json, shared with the JavaScript tests.
func TestSharedVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		got, msg := Check(v.Country, v.Input)
		name := v.Country + " " + strconv.Quote(v.Input)
		if v.Valid {
			assert.Empty(t, msg, name)
			assert.Equal(t, v.Normalized, got.Normalized, name)
			assert.Equal(t, v.Zone, got.Zone.String(), name)
			assert.Equal(t, v.Province, got.Province, name)
		} else {
			assert.Equal(t, v.Message, msg, name)
			assert.NotEmpty(t, v.Message, name)
			assert.Equal(t, Result{}, got, name)
		}
	}
}

func TestZone(t *testing.T) {
	names := map[Zone]string{
		ZoneNone: "", ZonePeninsular: "peninsular", ZoneBalearic: "balearic",
		ZoneCanary: "canary", ZoneCeuta: "ceuta", ZoneMelilla: "melilla", Zone(99): "",
	}
	for z, want := range names {
		assert.Equal(t, want, z.String())
	}
	for p := -1; p <= 60; p++ {
		want := ZonePeninsular
		switch p {
		case 7:
			want = ZoneBalearic
		case 35, 38:
			want = ZoneCanary
		case 51:
			want = ZoneCeuta
		case 52:
			want = ZoneMelilla
		}
		if p < 1 || p > 52 {
			want = ZoneNone
		}
		assert.Equal(t, want, ProvinceZone(p), "province %d", p)
	}
}

// TestEveryESProvince checks all 100 two-digit prefixes.
func TestEveryESProvince(t *testing.T) {
	for p := 0; p < 100; p++ {
		code := string([]byte{byte('0' + p/10), byte('0' + p%10), '0', '1', '0'})
		r, msg := Check("ES", code)
		if p >= 1 && p <= 52 {
			assert.Empty(t, msg, code)
			assert.Equal(t, p, r.Province, code)
			assert.Equal(t, ProvinceZone(p), r.Zone, code)
		} else {
			assert.Equal(t, msgESProvince, msg, code)
		}
	}
}

func TestNoAllocWhenNormalized(t *testing.T) {
	for _, v := range loadVectors(t) {
		if !v.Valid {
			continue
		}
		c, in := v.Country, v.Normalized
		allocs := testing.AllocsPerRun(50, func() { _, _ = Check(c, in) })
		assert.Zero(t, allocs, "%s %q", c, in)
		// Padding only: the trimmed input is reused, no allocation either.
		padded := " " + in + "\t"
		allocs = testing.AllocsPerRun(50, func() { _, _ = Check(c, padded) })
		assert.Zero(t, allocs, "%s %q", c, padded)
	}
	for _, in := range []string{"00000", "1000", "", "SW1A.1AA", "1012 SA"} {
		allocs := testing.AllocsPerRun(50, func() { _, _ = Check("NL", in); _, _ = Check("ES", in); _, _ = Check("XX", in) })
		assert.Zero(t, allocs, "invalid %q", in)
	}
	// A dataset format's message carries an example: one allocation, on the error path only.
	allocs := testing.AllocsPerRun(50, func() { _, _ = Check("GB", "SW1A.1AA") })
	assert.Equal(t, 1.0, allocs)
	// Messy input needs exactly one allocation: the normalized copy.
	allocs = testing.AllocsPerRun(50, func() { _, _ = Check("NL", " 1012 ab ") })
	assert.Equal(t, 1.0, allocs)
}

// listed are the countries with a specific format; their normalized length is 5-8.
var listed = map[string]bool{"ES": true, "PT": true, "DE": true, "IT": true, "FR": true, "NL": true, "AD": true}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// checkProperties asserts the invariants of Check that hold for any input.
func checkProperties(t *testing.T, country, input string) {
	r, msg := Check(country, input)
	if msg != "" {
		require.Equal(t, Result{}, r, "invalid result must be zero")
	} else {
		n := r.Normalized
		require.True(t, utf8.ValidString(n))
		require.Equal(t, len(n), utf8.RuneCountInString(n), "ASCII only: %q", n)
		require.Equal(t, strings.ToUpper(n), n)
		if n == "" {
			require.False(t, HasCodes(country), "only countries without postal codes take an empty code")
		} else {
			require.GreaterOrEqual(t, len(n), genericMin)
			require.LessOrEqual(t, len(n), len(buffer{}))
		}
		if listed[country] {
			require.GreaterOrEqual(t, len(n), 5, "%s %q", country, n)
			require.LessOrEqual(t, len(n), 8, "%s %q", country, n)
		}
		if country == "ES" {
			require.Equal(t, ProvinceZone(r.Province), r.Zone)
			require.NotEqual(t, ZoneNone, r.Zone)
		} else {
			require.Zero(t, r.Province)
			require.Equal(t, ZoneNone, r.Zone)
		}
		r2, msg2 := Check(country, n)
		require.Empty(t, msg2, "normalized %q of %q must be valid", n, input)
		require.Equal(t, r, r2, "idempotent for %q", input)
	}
	// Surrounding space and ASCII case never change the outcome.
	r3, msg3 := Check(country, " "+input+"\t")
	require.Equal(t, msg, msg3, "padded %q", input)
	require.Equal(t, r, r3)
	r4, msg4 := Check(country, lowerASCII(input))
	require.Equal(t, msg, msg4, "lowercased %q", input)
	require.Equal(t, r, r4)
}

func TestProperties(t *testing.T) {
	for _, v := range loadVectors(t) {
		checkProperties(t, v.Country, v.Input)
	}
}

// FuzzCheck checks that Check never panics and that valid results are stable.
// Set POSTAL_FUZZ_COUNTRY=ES (etc.) to pin the country while fuzzing one group.
func FuzzCheck(f *testing.F) {
	var vs []vector
	testvectors.Load(f, "postal.json", &vs)
	for _, v := range vs {
		f.Add(v.Country, v.Input)
	}
	pinned := os.Getenv("POSTAL_FUZZ_COUNTRY")
	f.Fuzz(func(t *testing.T, country, input string) {
		if pinned != "" {
			country = pinned
		}
		checkProperties(t, country, input)
	})
}

// Regexp baselines doing the same validation as Check for ES and NL.
var (
	reES = regexp.MustCompile(`^\s*(\d\d)\d{3}\s*$`)
	reNL = regexp.MustCompile(`^\s*([1-9]\d{3})\s*-?\s*([A-Za-z]{2})\s*$`)
)

func regexpCheckES(in string) (Result, string) {
	m := reES.FindStringSubmatch(in)
	if m == nil {
		return Result{}, msgES
	}
	p, _ := strconv.Atoi(m[1])
	if p < 1 || p > 52 {
		return Result{}, msgESProvince
	}
	return Result{Normalized: strings.TrimSpace(in), Province: p, Zone: ProvinceZone(p)}, ""
}

func regexpCheckNL(in string) (Result, string) {
	m := reNL.FindStringSubmatch(in)
	if m == nil {
		return Result{}, msgNL
	}
	l := strings.ToUpper(m[2])
	if l == "SA" || l == "SD" || l == "SS" {
		return Result{}, msgNLPair
	}
	return Result{Normalized: m[1] + "-" + l}, ""
}

// TestRegexpBaselineAgrees makes sure the benchmark compares like with like.
func TestRegexpBaselineAgrees(t *testing.T) {
	for _, in := range []string{"28001", " 07001 ", "35001", "52001", "53000", "1012 SA", " 1012 ab ", "1012ab", "1012 - AB"} {
		r, msg := Check("ES", in)
		rr, rmsg := regexpCheckES(in)
		assert.Equal(t, msg == "", rmsg == "", in)
		assert.Equal(t, r, rr, in)
		r, msg = Check("NL", in)
		rr, rmsg = regexpCheckNL(in)
		assert.Equal(t, msg == "", rmsg == "", in)
		assert.Equal(t, r, rr, in)
	}
}

var sink Result

func BenchmarkCheck(b *testing.B) {
	cases := []struct {
		name, country, input string
		fn                   func(string) (Result, string)
	}{
		{"ES_valid", "ES", "28001", regexpCheckES},
		{"ES_invalid", "ES", "53001", regexpCheckES},
		{"NL_normalized", "NL", "1012-AB", regexpCheckNL},
		{"NL_messy", "NL", " 1012 ab ", regexpCheckNL},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink, _ = Check(c.country, c.input)
			}
		})
		b.Run(c.name+"_regexp", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink, _ = c.fn(c.input)
			}
		})
	}
	b.Run("generic_GB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = Check("GB", "SW1A 1AA")
		}
	})
}
