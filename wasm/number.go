package main

import (
	"math"
	"strconv"
)

// formatNumber writes a JavaScript number the way the service expects a
// number in a form field: a point as the decimal separator, no exponent,
// the shortest digits that read back to the same float64 (1.5 -> "1.5",
// 1e21 -> "1000000000000000000000", 1e-7 -> "0.0000001", -0 -> "0").
// NaN and the infinities give "NaN", "Infinity" and "-Infinity", which
// validation rejects as numbers.
func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
