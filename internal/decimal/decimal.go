// Package decimal reads base-10 integers as strconv.ParseInt(s, 10, 64)
// and strconv.Atoi do, answering ok instead of an error.
//
// Under TinyGo, strconv's parsers compare their error values as
// interfaces (err.(*NumError).Err != ErrRange), and TinyGo's interface
// comparison links internal/reflectlite (~9 KB raw of the edge core module
// with runtime.reflectValueEqual; 741422d, 2026-11-25, TinyGo 0.39). The core and worker/tokens read their
// integers here; the tests hold both functions to strconv.
//
// Pure and TinyGo-compatible: no cgo, reflection or fmt.
package decimal

// intSize is the size of int in bits: 32 under TinyGo's wasm, 64 natively
// (as strconv.IntSize).
const intSize = 32 << (^uint(0) >> 63)

// ParseInt is strconv.ParseInt(s, 10, 64): an optional sign, then at least
// one decimal digit and nothing else (no underscores, no prefix), within
// int64. ok is false exactly where ParseInt returns an error.
func ParseInt(s string) (n int64, ok bool) {
	return parse(s, 64)
}

// Atoi is strconv.Atoi: ParseInt within int's size. ok is false exactly
// where Atoi returns an error.
func Atoi(s string) (int, bool) {
	n, ok := parse(s, intSize)
	return int(n), ok
}

func parse(s string, bits uint) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	limit := uint64(1) << (bits - 1) // the magnitude of the most negative value
	var u uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if u > (limit+9)/10 { // past limit whatever digit follows
			return 0, false
		}
		u = u*10 + uint64(c-'0')
		if u > limit {
			return 0, false
		}
	}
	if neg {
		return -int64(u), true // u == limit gives the most negative value
	}
	if u == limit {
		return 0, false
	}
	return int64(u), true
}
