package jsonlite

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// The TinyGo builds convert numbers with decimal.go instead of strconv:
// it must give strconv's results exactly, for every JSON number and every
// finite float64. Every check converts with the same scratch, as the
// TinyGo build does (one for the module): what one number leaves in it
// must not change the next.
var reused floatScratch

func checkParse(t *testing.T, s string) {
	t.Helper()
	want, err := strconv.ParseFloat(s, 64)
	got, ok := decimalParseFloat(s, &reused)
	if ok != (err == nil) || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("decimalParseFloat(%q) = %v, %v; strconv: %v, %v", s, got, ok, want, err)
	}
}

func checkFormat(t *testing.T, f float64) {
	t.Helper()
	for _, fmt := range []byte{'f', 'g'} {
		want := strconv.AppendFloat(nil, f, fmt, -1, 64)
		if got := decimalAppendFloat(nil, f, fmt, &reused); string(got) != string(want) {
			t.Fatalf("decimalAppendFloat(%v, %c) = %s; strconv: %s", f, fmt, got, want)
		}
	}
}

func TestDecimalFloatEdges(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "0.0", "1", "-1", "0.1", "0.2", "0.3", "1.5", "8.50", "40.4168", "-3.7038",
		"1e2", "1E2", "1e+2", "1.0e-2", "123456789012345678", "9007199254740993", "9007199254740992",
		"1e22", "1e23", "1e-22", "1e-23", "1e308", "1.7976931348623157e308", "1.7976931348623159e308",
		"1e309", "-1e309", "2e-308", "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
		"1e-400", "0.000001", "0.0000001", "1e21", "999999999999999999999", "123.456e-5",
		"0.1000000000000000055511151231257827021181583404541015625",
		"2.2250738585072011e-308", "2.2250738585072012e-308",
		"1" + strings.Repeat("0", 900), "0." + strings.Repeat("0", 900) + "1",
		"1." + strings.Repeat("9", 850), strings.Repeat("7", 30) + "e-10",
	} {
		checkParse(t, s)
	}
	for _, f := range []float64{
		0, 1, -1, 0.1, 0.2, 0.3, 1.5, 8.5, 1e21, 1e20, 999999999999999900000, 1e-6, 1e-7, 9.99999e-7,
		123456, 1234567, 100000, 1000000, 0.0001, 0.00001, math.MaxFloat64, math.SmallestNonzeroFloat64,
		2.2250738585072014e-308, 1 << 53, 1<<53 + 2, 40.4168, -3.7038, 1.0 / 3, 2.0 / 3,
	} {
		checkFormat(t, f)
		checkFormat(t, -f)
	}
}

func TestDecimalFloatRandom(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	n := 50000
	if testing.Short() {
		n = 5000
	}
	for i := 0; i < n; i++ {
		// Any finite float64, by its bits.
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		checkFormat(t, f)
		checkParse(t, strconv.FormatFloat(f, 'g', -1, 64))
		checkParse(t, strconv.FormatFloat(f, 'e', r.Intn(25), 64))
		// Decimal texts as the wire has them: a few digits, a point, an exponent.
		var b strings.Builder
		if r.Intn(4) == 0 {
			b.WriteByte('-')
		}
		b.WriteString(strconv.FormatUint(r.Uint64()>>uint(r.Intn(64)), 10))
		if r.Intn(2) == 0 {
			b.WriteByte('.')
			for k := r.Intn(25) + 1; k > 0; k-- {
				b.WriteByte(byte('0' + r.Intn(10)))
			}
		}
		if r.Intn(3) == 0 {
			b.WriteString("e" + strconv.Itoa(r.Intn(700)-350))
		}
		s := b.String()
		checkParse(t, s)
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			checkFormat(t, v)
		}
	}
}

func FuzzDecimalFloat(f *testing.F) {
	f.Add("1.5", uint64(0))
	f.Fuzz(func(t *testing.T, s string, bits uint64) {
		if ValidNumber(s) {
			checkParse(t, s)
		}
		if v := math.Float64frombits(bits); !math.IsNaN(v) && !math.IsInf(v, 0) {
			checkFormat(t, v)
		}
	})
}

// The TinyGo build's range error (float_tinygo.go) says what strconv's says.
func TestRangeErrorMessage(t *testing.T) {
	for _, s := range []string{"1e309", "-1e309", "1.7976931348623159e308", "123456789e999", "-0.5E+400"} {
		f, ok := decimalParseFloat(s, &reused)
		_, err := strconv.ParseFloat(s, 64)
		if ok || err == nil || rangeError(s).Error() != err.Error() {
			t.Errorf("%q: decimalParseFloat %v, %v, %v; strconv: %v", s, f, ok, rangeError(s), err)
		}
	}
}
