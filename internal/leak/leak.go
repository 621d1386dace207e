// Package leak finds the merchant's upstream credentials in a body the
// edge is about to relay: API_KEY, "API_USER:API_KEY", or the base64 of
// either at any alignment, or the base64 of the Authorization header's
// value (what an upstream, or a proxy between, may echo back in an
// error: a request dump, base64-encoded or not, an Authorization header,
// a debug page).
//
// A JSON body can spell the same text in many ways: "a\/b", "\u0061/b"
// and "a/b" are one string. The scan therefore looks at the body's
// decoded text too: every JSON escape (\" \\ \/ \b \f \n \r \t \uXXXX,
// surrogate pairs included) decoded in place, left to right. Outside
// strings valid JSON has no backslash, so that text is the body's
// decoded strings with the structure between them; it also covers a
// body that is not JSON (an HTML error page quoting a JSON fragment).
// A body without a backslash is searched once, as it is.
//
// The package is part of the TinyGo-compatible core (no fmt, reflect or
// regexp; nothing allocated for a body without escapes), so the edge's
// JavaScript port calls the same code.
package leak

import (
	"bytes"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/base64lite"
)

// MinKeyScan: an API key shorter than this is only looked for as part of
// "user:key" (a very short key would match ordinary text).
const MinKeyScan = 8

// Filter holds the spellings of one set of credentials.
type Filter struct {
	needles [][]byte
}

// New returns the filter for user and key; with an empty key it finds
// nothing.
func New(user, key string) Filter {
	if key == "" {
		return Filter{}
	}
	plain := []string{user + ":" + key}
	if len(key) >= MinKeyScan {
		plain = append(plain, key)
	}
	// The Authorization header's value: a request dump that is itself
	// base64-encoded holds its base64.
	plain = append(plain, base64lite.Encode([]byte(user+":"+key), 0))
	var f Filter
	for i, n := range plain {
		if i < len(plain)-1 {
			// (The header's value is already a needle: its first groups.)
			f.needles = append(f.needles, []byte(n))
		}
		for _, enc := range []base64lite.Mode{0, base64lite.URL} {
			// The secret may start at any byte of the encoded text: each
			// of the three alignments spells it differently.
			for shift := 0; shift < 3; shift++ {
				if e := aligned(enc, n, shift); len(e) > 0 {
					f.needles = append(f.needles, e)
				}
			}
		}
	}
	return f
}

// aligned is the base64 of n preceded by shift other bytes, without the
// characters that depend on those bytes or on what follows n: the full
// groups of n's own bytes (nil when that leaves under MinKeyScan).
func aligned(enc base64lite.Mode, n string, shift int) []byte {
	e := base64lite.Encode(append(make([]byte, shift), n...), enc)
	end := (shift + len(n)) / 3 * 4
	if shift == 0 {
		if end >= MinKeyScan {
			return []byte(e[:end])
		}
		// A short secret: all of it, unpadded.
		for len(e) > 0 && e[len(e)-1] == '=' {
			e = e[:len(e)-1]
		}
		return []byte(e)
	}
	// The first group mixes the shift's bytes with n's.
	if end-4 < MinKeyScan {
		return nil
	}
	return []byte(e[4:end])
}

// Leaks reports whether body contains one of the filter's spellings, as
// it is or with its JSON escapes decoded.
func (f Filter) Leaks(body []byte) bool {
	if len(f.needles) == 0 || len(body) == 0 {
		return false
	}
	if f.contains(body) {
		return true
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return false
	}
	return f.contains(Unescape(body))
}

func (f Filter) contains(b []byte) bool {
	for _, n := range f.needles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

// Unescape decodes every JSON escape in b, left to right, wherever it
// is; a backslash that starts no valid escape is kept. A lone surrogate
// becomes U+FFFD, as a JSON decoder makes it.
func Unescape(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		// Copy the run up to the next backslash at once.
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			return append(out, b[i:]...)
		}
		out = append(out, b[i:i+j]...)
		i += j
		c := b[i]
		if i+1 >= len(b) {
			out = append(out, c)
			i++
			continue
		}
		switch b[i+1] {
		case '"', '\\', '/':
			out = append(out, b[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b, i+2)
			if !ok {
				out = append(out, c)
				i++
				continue
			}
			i += 6
			if r >= 0xD800 && r < 0xDC00 {
				if r2, ok := hex4(b, i+2); ok && b[i] == '\\' && b[i+1] == 'u' && r2 >= 0xDC00 && r2 < 0xE000 {
					r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
					i += 6
				} else {
					r = utf8.RuneError
				}
			} else if r >= 0xDC00 && r < 0xE000 {
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			out = append(out, c)
			i++
			continue
		}
		i += 2
	}
	return out
}

// hex4 reads four hex digits at b[at:].
func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}
