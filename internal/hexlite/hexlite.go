// Package hexlite is lower-case hex encoding for the edge core module:
// encoding/hex imports fmt (for its error types), which costs the module
// tens of kilobytes under TinyGo (worker/boundary_test.go forbids it).
package hexlite

const digits = "0123456789abcdef"

// Append appends the lower-case hex of b to dst, as
// hex.AppendEncode.
func Append(dst, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, digits[c>>4], digits[c&15])
	}
	return dst
}

// EncodeToString is the lower-case hex of b, as hex.EncodeToString.
func EncodeToString(b []byte) string {
	return string(Append(make([]byte, 0, 2*len(b)), b))
}
