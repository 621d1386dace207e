//go:build tinygo

package jsonlite

// parseFloat is strconv.ParseFloat(s, 64) for a JSON number s, error
// message included, without strconv's float tables (decimal.go).
func parseFloat(s string) (float64, error) {
	f, ok := decimalParseFloat(s, &scratch)
	if !ok {
		return f, rangeError(s)
	}
	return f, nil
}

// appendFloat is strconv.AppendFloat(b, f, fmt, -1, 64) for a finite f
// and fmt 'f' or 'g' (decimal.go).
func appendFloat(b []byte, f float64, fmt byte) []byte {
	return decimalAppendFloat(b, f, fmt, &scratch)
}

// scratch is every conversion's decimals (decimal.go): a package
// variable, as the modules built with TinyGo run one call at a time.
var scratch floatScratch
