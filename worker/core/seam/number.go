package seam

import "github.com/parcelgate/parcelgate/internal/jsonlite"

// truncNumber is int64(strconv.ParseFloat(r, 64)) for the JSON number r
// that is not an integer ParseInt reads (a fraction, an exponent, beyond
// int64), and 0 for any other text, as num was before: jsonlite's
// ParseFloat, the module's one float parser (decimal.go under TinyGo, no
// strconv tables). A value past int64 saturates, as wasm's conversion
// does (natively Go's conversion would give MinInt64); past float64's
// range it is 0, as ParseFloat's error made it.
func truncNumber(r string) int64 {
	f, ok := jsonlite.ParseFloat(r)
	switch {
	case !ok:
		return 0
	case f >= 9223372036854775807:
		return 9223372036854775807
	case f <= -9223372036854775808:
		return -9223372036854775808
	}
	return int64(f)
}
