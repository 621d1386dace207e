// Package urlquery is the part of net/url the edge core needs: a form
// body's parse (url.ParseQuery's verdict and values) and the query
// component's escape and unescape (url.QueryEscape, url.QueryUnescape),
// byte for byte.
//
// Under TinyGo net/url costs the core module ~9 KB: ParseQuery alone is
// 3 KB, and it links fmt (its semicolon error), internal/godebug (the
// urlmaxqueryparams setting) and a sort of ints. This is ~2.5 KB with the
// same answers (b38869c and 741422d, 2026-11-25, TinyGo 0.39: the core
// module went from 472,523 to 458,691 B raw, 209,524 to 203,054 B gzip);
// the tests hold it to net/url on many inputs and a fuzz target.
//
// Pure and TinyGo-compatible: no cgo, reflection or fmt.
package urlquery

// MaxParams is the most pairs a body may have: url.ParseQuery refuses a
// query with more (its default when GODEBUG urlmaxqueryparams is unset,
// as it always is in the core module).
const MaxParams = 10000

// Values maps a form's keys to their values in body order.
type Values map[string][]string

// Get returns the first value of key, or "" when there is none.
func (v Values) Get(key string) string {
	if vs := v[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Parse parses an application/x-www-form-urlencoded body as
// url.ParseQuery does. ok is false exactly where ParseQuery returns an
// error: more than MaxParams pairs, a pair containing ';', or a key or
// value with a bad %-escape. Like ParseQuery, the well-formed pairs are
// in the map even then.
func Parse(raw string) (v Values, ok bool) {
	v = Values{}
	params := 1
	for i := 0; i < len(raw); i++ {
		if raw[i] == '&' {
			params++
		}
	}
	if params > MaxParams {
		return v, false
	}
	ok = true
	for raw != "" {
		pair := raw
		if i := indexByte(raw, '&'); i >= 0 {
			pair, raw = raw[:i], raw[i+1:]
		} else {
			raw = ""
		}
		if indexByte(pair, ';') >= 0 {
			ok = false
			continue
		}
		if pair == "" {
			continue
		}
		key, value := pair, ""
		if i := indexByte(pair, '='); i >= 0 {
			key, value = pair[:i], pair[i+1:]
		}
		k, good := Unescape(key)
		if !good {
			ok = false
			continue
		}
		val, good := Unescape(value)
		if !good {
			ok = false
			continue
		}
		v[k] = append(v[k], val)
	}
	return v, ok
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// Unhex is the value of the hex digit c; false when c is not one (the
// edge's URL parser decodes a path's and a host's %XX with it too).
func Unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Unescape decodes a query component as url.QueryUnescape does: %XX is
// the byte XX, '+' is a space; ok is false where QueryUnescape fails (a
// '%' not followed by two hex digits). Bytes are not checked for UTF-8,
// as QueryUnescape does not.
func Unescape(s string) (string, bool) {
	if indexByte(s, '%') < 0 && indexByte(s, '+') < 0 {
		return s, true
	}
	b, ok := AppendUnescape(make([]byte, 0, len(s)), []byte(s))
	if !ok {
		return "", false
	}
	return string(b), true
}

// AppendUnescape appends raw decoded as Unescape decodes it (internal/form
// reads a body's names and values with it: one decoder in the modules).
// It reports false for a '%' not followed by two hex digits.
func AppendUnescape(dst, raw []byte) ([]byte, bool) {
	run := 0
	for i := 0; i < len(raw); {
		switch raw[i] {
		case '+':
			dst = append(dst, raw[run:i]...)
			dst = append(dst, ' ')
			i++
			run = i
		case '%':
			if i+2 >= len(raw) {
				return dst, false
			}
			hi, ok1 := Unhex(raw[i+1])
			lo, ok2 := Unhex(raw[i+2])
			if !ok1 || !ok2 {
				return dst, false
			}
			dst = append(dst, raw[run:i]...)
			dst = append(dst, hi<<4|lo)
			i += 3
			run = i
		default:
			i++
		}
	}
	return append(dst, raw[run:]...), true
}

// Kept reports whether an escaper writes c as it is: letters, digits,
// '-', '.', '_' and the escaper's one more byte, extra: '~' for
// url.QueryEscape's (RFC 3986's unreserved characters), '*' for
// URLSearchParams' (internal/form's bodies).
func Kept(c, extra byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == extra
}

// Escape escapes s for a query component as url.QueryEscape does: the
// unreserved characters as they are, a space as '+', every other byte as
// %XX in upper-case hex.
func Escape(s string) string {
	for i := 0; i < len(s); i++ {
		if !Kept(s[i], '~') {
			return string(AppendEscape(make([]byte, 0, len(s)+8), s))
		}
	}
	return s
}

// AppendEscape appends Escape(s) to b.
func AppendEscape(b []byte, s string) []byte { return AppendEscapeKeeping(b, s, '~') }

// AppendEscapeKeeping appends s escaped: the bytes Kept(c, extra) as they
// are, a space as '+', every other byte as %XX in upper-case hex (one
// escaper for the query's and the form's sets).
func AppendEscapeKeeping(b []byte, s string, extra byte) []byte {
	const upperHex = "0123456789ABCDEF"
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if Kept(c, extra) {
			continue
		}
		b = append(b, s[start:i]...)
		if c == ' ' {
			b = append(b, '+')
		} else {
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}
