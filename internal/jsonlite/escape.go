package jsonlite

import (
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/unitab"
)

// AppendEscape appends what the JSON escape at s[i] (a backslash) stands
// for and returns how many bytes of s it took: 0 when s[i:] is not a
// valid escape (the caller decides what a stray backslash means). A \u
// escape of a lone surrogate, or of a high one not followed by its low
// one, is U+FFFD. The scanner and internal/leak (which decodes escapes in
// bodies that need not be JSON) share it, so they read an escape alike.
func AppendEscape[T ~string | ~[]byte](b []byte, s T, i int) ([]byte, int) {
	if i+1 >= len(s) {
		return b, 0
	}
	switch s[i+1] {
	case '"', '\\', '/':
		return append(b, s[i+1]), 2
	case 'b':
		return append(b, '\b'), 2
	case 'f':
		return append(b, '\f'), 2
	case 'n':
		return append(b, '\n'), 2
	case 'r':
		return append(b, '\r'), 2
	case 't':
		return append(b, '\t'), 2
	case 'u':
		r, ok := hexAt(s, i+2)
		if !ok {
			return b, 0
		}
		n := 6
		if r >= 0xD800 && r < 0xDC00 {
			// High surrogate: a low one must follow as \uXXXX.
			if r2, ok := hexAt(s, i+8); ok && s[i+6] == '\\' && s[i+7] == 'u' && r2 >= 0xDC00 && r2 < 0xE000 {
				r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
				n = 12
			} else {
				r = utf8.RuneError
			}
		} else if r >= 0xDC00 && r < 0xE000 {
			r = utf8.RuneError
		}
		return unitab.AppendRune(b, r), n
	}
	return b, 0
}

// hexAt reads four hex digits at s[at:].
func hexAt[T ~string | ~[]byte](s T, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	var r rune
	for k := at; k < at+4; k++ {
		v := hexVal(s[k])
		if v < 0 {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}
