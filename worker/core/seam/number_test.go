package seam

import (
	"math/rand"
	"strconv"
	"testing"

	"github.com/parcelgate/parcelgate/internal/decimal"
)

// num's fallback for numbers ParseInt refuses is int64(ParseFloat), as it
// was, on the numbers JavaScript and hand-written JSON send: fractions,
// exponents, negative zero, leading zeros of fractions, and random ones
// within ParseFloat's exact range; text that is not a number is 0.
func TestTruncNumberMatchesParseFloat(t *testing.T) {
	check := func(r string) {
		t.Helper()
		want := int64(0)
		if n, err := strconv.ParseInt(r, 10, 64); err == nil {
			want = n
		} else if f, err := strconv.ParseFloat(r, 64); err == nil {
			want = int64(f)
		}
		if got := numOf(r); got != want {
			t.Fatalf("num(%s) = %d, int64(ParseFloat) %d", r, got, want)
		}
	}
	for _, r := range []string{"0", "-0", "0.0", "-0.0", "1.5", "-1.5", "0.999999", "1e3", "1E3", "1e+3", "1e-3",
		"-2.5e2", "1764075600123.7", "1764075600123.1", "12345.678900000001", "1.0", "123456789012345678",
		"9223372036854775807", "1e18", "-1e18", "1.5e17", "0.00001e5", "100e-2",
		"4503599627370495.5", "9007199254740993.0", "1e-22", "123e-25", "0.1", "2.9999999999999996",
		`"5"`, "true", "null", "[1]", `{"a":1}`, "", "-", "1e", "1e+", ".5", "1.2.3", "1e400", "-1e400", "1e-400"} {
		check(r)
	}
	// Past int64: saturated, as TinyGo converts (natively Go gives MinInt64).
	for r, want := range map[string]int64{"9223372036854775806.5": 1<<63 - 1, "1e19": 1<<63 - 1, "-1e19": -1 << 63, "-9.3e18": -1 << 63, "1e22": 1<<63 - 1, "1e300": 1<<63 - 1} {
		if got := numOf(r); got != want {
			t.Fatalf("num(%s) = %d, want %d", r, got, want)
		}
	}
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 200000; i++ {
		m := rng.Int63n(1 << 53)
		if rng.Intn(2) == 0 {
			m = rng.Int63n(1e9)
		}
		e := rng.Intn(30) - 22
		r := strconv.FormatInt(m, 10)
		if rng.Intn(3) == 0 && len(r) > 1 { // a fraction instead of an exponent
			cut := rng.Intn(len(r)-1) + 1
			r = r[:cut] + "." + r[cut:]
		} else {
			r += "e" + strconv.Itoa(e)
		}
		if rng.Intn(2) == 0 {
			r = "-" + r
		}
		if f, _ := strconv.ParseFloat(r, 64); f > 9.2e18 || f < -9.2e18 {
			continue // beyond int64: the native conversion differs from wasm's saturation
		}
		check(r)
	}
}

// numOf is what readInt makes of a number member's text r.
func numOf(r string) int64 {
	if n, ok := decimal.ParseInt(r); ok {
		return n
	}
	return truncNumber(r)
}
