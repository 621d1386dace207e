//go:build !tinygo

package jsonlite

import "strconv"

// parseFloat is strconv.ParseFloat(s, 64) for a JSON number s.
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// appendFloat is strconv.AppendFloat(b, f, fmt, -1, 64).
func appendFloat(b []byte, f float64, fmt byte) []byte { return strconv.AppendFloat(b, f, fmt, -1, 64) }
