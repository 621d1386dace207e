package envelope

import (
	"strings"
	"testing"
)

// dropSpaces is the strings.Map it replaced (a label's base64 without
// its line breaks): every string of up to 4 pieces of spaces, base64,
// non-ASCII text, U+FFFD itself and bytes that are not valid UTF-8 (which
// Map writes as U+FFFD).
func TestDropSpacesIsMap(t *testing.T) {
	drop := func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}
	pieces := []string{" ", "\t", "\r", "\n", "\v", "QUJD", "=", "é", "\u2028", "\U0001F600", "\uFFFD", "\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80"}
	var grow func(s string, n int)
	grow = func(s string, n int) {
		if got, want := dropSpaces(s), strings.Map(drop, s); got != want {
			t.Fatalf("dropSpaces(%q) = %q, strings.Map says %q", s, got, want)
		}
		if n > 0 {
			for _, p := range pieces {
				grow(s+p, n-1)
			}
		}
	}
	grow("", 4)
}
