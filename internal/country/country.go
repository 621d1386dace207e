// Package country validates ISO 3166-1 alpha-2 country codes against the official list
// of assigned codes, using static tables only (no init work, no allocation).
package country

import (
	"math/bits"

	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Count is the number of officially assigned ISO 3166-1 alpha-2 codes.
const Count = count

// index returns the position of code in names, or -1 when code is not an assigned,
// uppercase ISO 3166-1 alpha-2 code.
func index(code string) int {
	if len(code) != 2 {
		return -1
	}
	a, b := code[0]-'A', code[1]-'A'
	if a >= 26 || b >= 26 { // bytes below 'A' wrap around to large values
		return -1
	}
	w := assigned[a]
	if w&(1<<b) == 0 {
		return -1
	}
	return int(offsets[a]) + bits.OnesCount32(w&(1<<b-1))
}

// Valid reports whether code is an officially assigned ISO 3166-1 alpha-2 code.
// Only the exact uppercase form is accepted (use Normalize first for user input);
// user-assigned or reserved codes such as XK, EU or UK are not valid.
func Valid(code string) bool {
	return index(code) >= 0
}

// Name returns the English short name of code (for messages), or "" when code is not
// valid as reported by Valid.
func Name(code string) string {
	if i := index(code); i >= 0 {
		return names[i]
	}
	return ""
}

// Normalize trims surrounding white space from s and upper-cases its ASCII letters.
// When s is already in that form it is returned as is, without allocating.
func Normalize(s string) string {
	s = unitab.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'a' && c <= 'z' {
					b[j] = c - ('a' - 'A')
				}
			}
			return string(b)
		}
	}
	return s
}
