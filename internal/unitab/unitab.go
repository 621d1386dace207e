// Package unitab answers the few Unicode questions the core asks (case
// mappings and folding, letter or digit, format character) from compact tables generated
// from Go's unicode package (gen/main.go), with the standard library's
// answers for every rune (the tests compare all of them). Replacing the
// unicode package's own tables with these made the edge module 4.0 KB
// smaller gzip (f9014fc: 156,597 -> 154,805 B; 14d02bd: 150,146 ->
// 147,930 B; 2026-11-28, TinyGo 0.39). Lookups scan the runs in
// order and stop at the first past the rune: no allocation, fast for the
// Latin scripts the core mostly sees.
package unitab

import (
	"strings"
	"unicode/utf8"
)

//go:generate go run ./gen

// Clip keeps the first n characters (runes) of s for a message, marking a
// cut with "...". The core's one clip (validate, worker/core,
// worker/tokens): a byte count showed fewer characters than it promised
// and could cut one in half, leaving invalid UTF-8 in the message.
func Clip(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "..."
		}
		n--
	}
	return s
}

// ToLower returns unicode.ToLower(r).
func ToLower(r rune) rune {
	if r < 0x80 {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	if r > lowerMax {
		return r
	}
	return mapCase(lowerRuns, r, false)
}

// ToUpper returns unicode.ToUpper(r).
func ToUpper(r rune) rune {
	if r < 0x80 {
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return r
	}
	if r > upperMax {
		return r
	}
	return mapCase(upperRuns, r, true)
}

// mapCase maps r by the case runs t.
func mapCase(t string, r rune, upper bool) rune {
	end := rune(0)
	for len(t) > 0 {
		var gap, n, d uint32
		gap, t = uvarint(t)
		n, t = uvarint(t)
		d, t = uvarint(t)
		lo := end + rune(gap)
		if r < lo {
			break
		}
		end = lo + rune(n) + 1
		if r < end {
			switch {
			case d != 0:
				return r + unzigzag(d)
			case upper:
				// Pairs of upper and lower case from lo: the lower
				// ones sit at odd distances.
				return r - (r-lo)&1
			default:
				return r + 1&^(r-lo)
			}
		}
	}
	return r
}

// SimpleFold returns unicode.SimpleFold(r): the next rune of r's case
// orbit (K, k, U+212A KELVIN SIGN, K...).
func SimpleFold(r rune) rune {
	if r < 0 || r > 0x10ffff {
		return r
	}
	if r <= orbitMax {
		t := orbitRuns
		at := rune(0)
		for len(t) > 0 {
			var gap, d uint32
			gap, t = uvarint(t)
			d, t = uvarint(t)
			if at += rune(gap); at >= r {
				if at == r {
					return r + unzigzag(d)
				}
				break
			}
		}
	}
	if l := ToLower(r); l != r {
		return l
	}
	return ToUpper(r)
}

// EqualFold returns strings.EqualFold(s, t): whether s and t are equal
// under simple Unicode case folding. The same algorithm, over SimpleFold.
func EqualFold(s, t string) bool {
	i := 0
	for n := min(len(s), len(t)); i < n; i++ {
		sr, tr := s[i], t[i]
		if sr|tr >= utf8.RuneSelf {
			goto hasUnicode
		}
		if tr == sr {
			continue
		}
		if tr < sr {
			tr, sr = sr, tr
		}
		if 'A' <= sr && sr <= 'Z' && tr == sr+'a'-'A' {
			continue
		}
		return false
	}
	return len(s) == len(t)

hasUnicode:
	s, t = s[i:], t[i:]
	for _, sr := range s {
		if len(t) == 0 {
			return false
		}
		tr, size := utf8.DecodeRuneInString(t)
		t = t[size:]
		if tr == sr {
			continue
		}
		if tr < sr {
			tr, sr = sr, tr
		}
		if tr < utf8.RuneSelf {
			if 'A' <= sr && sr <= 'Z' && tr == sr+'a'-'A' {
				continue
			}
			return false
		}
		// SimpleFold walks the orbit upwards, wrapping around to its
		// smallest rune.
		r := SimpleFold(sr)
		for r != sr && r < tr {
			r = SimpleFold(r)
		}
		if r != tr {
			return false
		}
	}
	return len(t) == 0
}

// Lower returns strings.ToLower(s).
func Lower(s string) string { return mapString(s, ToLower, 'A') }

// Upper returns strings.ToUpper(s).
func Upper(s string) string { return mapString(s, ToUpper, 'a') }

// mapString maps every rune of s by f (an invalid byte is U+FFFD, as in
// strings.Map); s itself when it is ASCII without letters of case from
// (the 26 letters from from on).
func mapString(s string, f func(rune) rune, from byte) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || from <= c && c < from+26 {
			b := make([]byte, i, len(s)+utf8.UTFMax)
			copy(b, s)
			for _, r := range s[i:] {
				b = AppendRune(b, f(r))
			}
			return string(b)
		}
	}
	return s
}

// IsLetterOrDigit reports unicode.IsLetter(r) || unicode.IsDigit(r).
func IsLetterOrDigit(r rune) bool {
	if r < 0x80 {
		return 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9'
	}
	return r <= alnumMax && in(alnumRuns, r)
}

// IsFormat reports unicode.Is(unicode.Cf, r).
func IsFormat(r rune) bool {
	return r <= formatMax && in(formatRuns, r)
}

// in reports whether r is in one of the runs of the set table t.
func in(t string, r rune) bool {
	end := rune(0)
	for len(t) > 0 {
		var gap, n uint32
		gap, t = uvarint(t)
		n, t = uvarint(t)
		lo := end + rune(gap)
		if r < lo {
			return false
		}
		end = lo + rune(n) + 1
		if r < end {
			return true
		}
	}
	return false
}

func unzigzag(d uint32) rune { return rune(d>>1) ^ -rune(d&1) }

// uvarint reads the unsigned varint at the start of t (the generator
// writes them, so they are well formed).
func uvarint(t string) (uint32, string) {
	var v uint32
	for i, shift := 0, uint(0); ; i, shift = i+1, shift+7 {
		c := t[i]
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v, t[i+1:]
		}
	}
}

// ContainsAnyASCII is strings.ContainsAny(s, set) for a set of ASCII
// bytes: strings.ContainsAny's general version (its ASCII set and rune
// loops) is 1 KB of the edge module's code for three small sets.
func ContainsAnyASCII(s, set string) bool {
	for i := 0; i < len(set); i++ {
		if strings.IndexByte(s, set[i]) >= 0 {
			return true
		}
	}
	return false
}

// TrimSpace returns strings.TrimSpace(s): s without its leading and
// trailing white space (unicode.IsSpace), where a byte that is not valid
// UTF-8 is not space. The white space above ASCII is matched by its
// encoding (wideSpace), so neither strings' TrimFunc fallback nor
// unicode's White_Space table is linked for it.
func TrimSpace(s string) string {
	for s != "" {
		n := spaceLen(s[0], s)
		if n == 0 {
			break
		}
		s = s[n:]
	}
	for s != "" {
		n := 1
		if c := s[len(s)-1]; c >= utf8.RuneSelf {
			n = 0
			if len(s) >= 2 && wideSpace(s[len(s)-2:]) {
				n = 2
			} else if len(s) >= 3 && wideSpace(s[len(s)-3:]) {
				n = 3
			}
		} else if !asciiSpace(c) {
			n = 0
		}
		if n == 0 {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// spaceLen is the length of the white space s starts with (its first
// byte c), 0 when it starts with none.
func spaceLen(c byte, s string) int {
	switch {
	case c < utf8.RuneSelf:
		if asciiSpace(c) {
			return 1
		}
	case len(s) >= 2 && wideSpace(s[:2]):
		return 2
	case len(s) >= 3 && wideSpace(s[:3]):
		return 3
	}
	return 0
}

func asciiSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// wideSpace reports whether e is the UTF-8 encoding of a white space
// above ASCII: U+0085, U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029,
// U+202F, U+205F or U+3000 (unicode.White_Space; a test holds it to
// unicode.IsSpace for every rune).
func wideSpace(e string) bool {
	if len(e) == 2 {
		return e[0] == 0xc2 && (e[1] == 0x85 || e[1] == 0xa0)
	}
	switch e[:2] {
	case "\xe1\x9a":
		return e[2] == 0x80
	case "\xe2\x80":
		return e[2] >= 0x80 && e[2] <= 0x8a || e[2] == 0xa8 || e[2] == 0xa9 || e[2] == 0xaf
	case "\xe2\x81":
		return e[2] == 0x9f
	case "\xe3\x80":
		return e[2] == 0x80
	}
	return false
}

// AppendRune returns utf8.AppendRune(p, r): p with the UTF-8 encoding of
// r, or of U+FFFD when r has none (a surrogate, negative or past
// U+10FFFF). Each length is one append of its bytes, a third of the
// standard library's code under TinyGo.
func AppendRune(p []byte, r rune) []byte {
	u := uint32(r)
	switch {
	case u < utf8.RuneSelf:
		return append(p, byte(u))
	case u > utf8.MaxRune || 0xd800 <= u && u <= 0xdfff:
		u = utf8.RuneError
	case u < 0x800:
		return append(p, 0xc0|byte(u>>6), 0x80|byte(u)&0x3f)
	case u >= 0x10000:
		return append(p, 0xf0|byte(u>>18), 0x80|byte(u>>12)&0x3f, 0x80|byte(u>>6)&0x3f, 0x80|byte(u)&0x3f)
	}
	return append(p, 0xe0|byte(u>>12), 0x80|byte(u>>6)&0x3f, 0x80|byte(u)&0x3f)
}
