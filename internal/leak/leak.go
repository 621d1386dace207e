// Package leak finds the merchant's upstream credentials in a body the
// edge is about to relay: API_KEY, "API_USER:API_KEY", or the base64 of
// either at any alignment, or the base64 of the Authorization header's
// value, or the hex of any of them (what an upstream, or a proxy
// between, may echo back in an error: a request dump, base64- or
// hex-encoded or not, an Authorization header, a debug page, a URL).
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
// The same secret is found when %XX spells it (a URL or a form quoted in
// an error), and when line breaks or spaces split its base64 or hex: a
// dump in MIME base64 wrapped at 76 characters (Python's
// base64.encodebytes, PHP's chunk_split), a header's value split by an
// escaped newline, a spaced hex dump. Those texts are joined only where
// a break falls inside a run of base64 characters (or a hex run is long
// enough to hold a secret), so an ordinary answer costs one more pass
// over its bytes and no allocation. Joined runs are searched in windows
// of a few kilobytes, never held whole: an answer of megabytes (a label)
// costs the scan at most its one decoded copy. Every step is linear in
// the body's size: a fixed number of texts, each searched once for a
// fixed set of needles.
//
// The package is part of the TinyGo-compatible core (no fmt, reflect or
// regexp; nothing allocated for a body without escapes, %XX or broken
// runs), so the edge core module (worker/core, which the edge's
// JavaScript calls) runs the same code; there is no JavaScript port.
package leak

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// MinKeyScan: an API key shorter than this is only looked for as part of
// "user:key" (a very short key would match ordinary text).
const MinKeyScan = 8

// Filter holds the spellings of one set of credentials (a pointer: the
// edge copies it with its configuration, and a small Filter keeps the
// core's code small).
type Filter struct{ s *spellings }

type spellings struct {
	needles [][]byte // searched in the body, its decoded copies and its joined base64 runs
	hex     [][]byte // the secrets' hex, lower case, searched in the joined hex runs
	minRun  int      // the shortest needle: a shorter joined run cannot hold one
	minHex  int      // the shortest of hex
	maxRun  int      // the longest needle: what a window keeps for the next
	maxHex  int      // the longest of hex
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
	f := &spellings{}
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
		// Hex has no alignment: each byte is two digits of its own.
		h := make([]byte, 0, 2*len(n))
		for j := 0; j < len(n); j++ {
			h = append(h, hexDigits[n[j]>>4], hexDigits[n[j]&15])
		}
		f.hex = append(f.hex, h)
	}
	f.minRun, f.minHex = shortest(f.needles), shortest(f.hex)
	f.maxRun, f.maxHex = longest(f.needles), longest(f.hex)
	return Filter{f}
}

const hexDigits = "0123456789abcdef"

func longest(ns [][]byte) int {
	m := 0
	for _, n := range ns {
		m = max(m, len(n))
	}
	return m
}

func shortest(ns [][]byte) int {
	m := len(ns[0])
	for _, n := range ns {
		m = min(m, len(n))
	}
	return m
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

// Leaks reports whether body contains one of the filter's spellings: as
// it is, with its JSON escapes decoded, with its %XX decoded, or in a
// base64 or hex run that line breaks or spaces interrupt.
func (f Filter) Leaks(body []byte) bool {
	return f.scan(body, func(t []byte, ns [][]byte) bool {
		s := text(t)
		for _, n := range ns {
			// As strings: bytes.Contains compares candidates with
			// bytes.Equal, string(a) == string(b), which TinyGo compiles to
			// two copies: an allocation wherever a needle's first bytes
			// occur (megabytes over a large answer). strings', not
			// internal/substr's: over megabytes its Rabin-Karp fallback
			// keeps the search linear where a needle's prefix repeats
			// (substr compares at every position).
			if strings.Contains(s, text(n)) {
				return true
			}
		}
		return false
	})
}

// text is b as a string, without a copy (b is not written while the
// string is read).
func text(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// scan hands each text to search with the needles to look for in it,
// until search finds one. The texts are the body and at most two
// decoded copies of it, then the runs of the last one, joined, in windows
// of a fixed size: a constant number of texts and a bounded buffer,
// together a few times the body's size, so the scan is linear in it
// (FuzzScanIsLinear holds it to that) and holds at most two copies of the
// body at once (an upstream answer can be megabytes: a label).
func (flt Filter) scan(body []byte, search func(t []byte, ns [][]byte) bool) bool {
	f := flt.s
	if f == nil || len(body) == 0 {
		return false
	}
	t := body
	if search(t, f.needles) {
		return true
	}
	if bytes.IndexByte(t, '\\') >= 0 {
		t = Unescape(t)
		if search(t, f.needles) {
			return true
		}
	}
	if p := percentDecode(t); p != nil {
		if search(p, f.needles) {
			return true
		}
		t = p
	}
	b64 := stream{ns: f.needles, keep: f.maxRun - 1, search: search}
	hex := stream{ns: f.hex, keep: f.maxHex - 1, search: search}
	return f.joinRuns(t, &b64, &hex)
}

// Window is the size of the buffer in which joined runs are searched (a
// body whose base64 or hex runs are megabytes long is searched a window
// at a time, never copied whole).
const Window = 4096

// stream searches a text written to it a byte at a time, in windows:
// when its buffer is full it is searched, and only the bytes a needle
// starting there could still span (the longest needle's length less one)
// are kept for the next window. Every stretch of the text as long as a
// needle is therefore in one window: the same matches as one search of
// the whole text.
type stream struct {
	buf     []byte // allocated at the first byte: most bodies have no run to join
	keep    int
	ns      [][]byte
	search  func(t []byte, ns [][]byte) bool
	pending bool // bytes written since the last search
	found   bool
}

func (st *stream) put(c byte) {
	if st.buf == nil {
		st.buf = make([]byte, 0, Window+st.keep)
	}
	st.buf = append(st.buf, c)
	st.pending = true
	if len(st.buf) == cap(st.buf) {
		st.flush()
	}
}

// flush searches what was written since the last search (with the bytes
// kept before it).
func (st *stream) flush() {
	if !st.pending || st.found {
		return
	}
	st.pending = false
	st.found = st.search(st.buf, st.ns)
	if n := len(st.buf); n > st.keep {
		st.buf = st.buf[:copy(st.buf, st.buf[n-st.keep:])]
	}
}

// What each byte is to a run (classes).
const (
	alpha = 1 << iota // a base64 character, of either alphabet
	hexd              // a hex digit (alpha too)
	brk               // what a run may hold between its characters: ASCII whitespace
	esc               // '\\': a \n, \r or \t escape is a break too
)

// classes is each byte's class (a table: the scan reads it for every
// byte of every answer).
var classes = func() (t [256]uint8) {
	for c := '0'; c <= 'z'; c++ {
		switch {
		case c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
			t[c] = alpha | hexd
		case c >= 'g', c >= 'G' && c <= 'Z':
			t[c] = alpha
		}
	}
	t['+'], t['/'], t['-'], t['_'] = alpha, alpha, alpha, alpha
	t[' '], t['\t'], t['\r'], t['\n'] = brk, brk, brk, brk
	t['\\'] = esc
	return
}()

// escape reports whether t[i] is a \n, \r or \t escape (what a JSON text
// quoted in a JSON string keeps of its line breaks).
func escape(t []byte, i int) bool {
	return t[i] == '\\' && i+1 < len(t) && (t[i+1] == 'n' || t[i+1] == 'r' || t[i+1] == 't')
}

// joinRuns searches t's base64 runs that a break interrupts (whitespace
// or an escape) and its hex runs of at least minHex digits, each with
// its breaks removed (hex in lower case) and a NUL after it (which no
// credential holds, so no needle spans two runs), written to b64s and
// hexs: a request dump in MIME base64 (76 characters a line), a header's
// value split by escaped newlines, a hex dump. It reports whether either
// stream found a needle. Nothing is allocated when there is nothing to
// join (the usual case).
//
// The loop does little per byte: the rare run that holds a break or
// enough hex digits is handled whole (run), and the loop goes on after
// it. Every byte is read at most four times, so the work is linear.
func (f *spellings) joinRuns(t []byte, b64s, hexs *stream) bool {
	for i := 0; ; i++ {
		if b64s.found || hexs.found {
			return true
		}
		if i = next(t, i, f.minHex); i >= len(t) {
			b64s.flush()
			hexs.flush()
			return b64s.found || hexs.found
		}
		if t[i] == '\\' && !escape(t, i) {
			continue
		}
		// A break, or a long hex run: the run that holds t[i], from its
		// start (no break before i: it would have been handled here).
		s := i
		for s > 0 && classes[t[s-1]]&alpha != 0 {
			s--
		}
		i = f.run(t, s, b64s, hexs)
	}
}

// next is where, from t[i] on, the next break or backslash is, or the
// m-th hex digit in a row; len(t) if nowhere. The loop every byte goes
// through: a function of its own, so that its few variables stay in
// registers.
//
//go:noinline
func next(t []byte, i, m int) int {
	digits := 0
	for ; i < len(t); i++ {
		c := classes[t[i]]
		if c&(brk|esc) != 0 {
			return i
		}
		// No branch on the class: in base64 a hex digit is a coin toss.
		if digits = (digits + 1) & -int(c>>1&1); digits >= m {
			return i
		}
	}
	return i
}

// run reads the run that starts at t[s] and returns where it ends (at a
// byte that no run holds), having written the run to b64s if breaks
// split it, and its long hex runs to hexs.
func (f *spellings) run(t []byte, s int, b64s, hexs *stream) int {
	e, n := s, 0 // the end; the run's characters
	pending, broken := false, false
	for ; e < len(t); e++ {
		c := classes[t[e]]
		switch {
		case c&alpha != 0:
			broken = broken || pending && n > 0
			pending = false
			n++
		case c == brk:
			pending = true
		case escape(t, e):
			pending = true
			e++
		default:
			goto end
		}
	}
end:
	if broken && n >= f.minRun {
		b64s.join(t[s:e], false)
	}
	h, digits := -1, 0 // the hex run in t[s:e]: its start, its digits
	for i := s; i <= e; i++ {
		c := uint8(alpha)
		if i < e {
			c = classes[t[i]]
		}
		switch {
		case c&hexd != 0:
			if h < 0 {
				h, digits = i, 0
			}
			digits++
		case c == esc:
			i++ // a break: the escape's letter is not a digit
		case c == alpha:
			if digits >= f.minHex {
				hexs.join(t[h:i], true)
			}
			h, digits = -1, 0
		}
	}
	return e
}

// join writes run without its breaks (in lower case if lower), and a NUL.
func (st *stream) join(run []byte, lower bool) {
	for i := 0; i < len(run) && !st.found; i++ {
		c := run[i]
		switch {
		case c == '\\':
			i++ // an escape's letter
		case classes[c] == brk:
		case lower && c >= 'A' && c <= 'F':
			st.put(c + 'a' - 'A')
		default:
			st.put(c)
		}
	}
	st.put(0)
}

// percentDecode decodes every %XX in b (a URL or a form in an error
// message); nil when there is none.
func percentDecode(b []byte) []byte {
	var out []byte
	last := 0
	for i := bytes.IndexByte(b, '%'); i >= 0 && i+2 < len(b); {
		if hi, lo := b[i+1], b[i+2]; classes[hi]&classes[lo]&hexd != 0 {
			if out == nil {
				out = make([]byte, 0, len(b))
			}
			out = append(append(out, b[last:i]...), digit(hi)<<4|digit(lo))
			last = i + 3
		}
		j := bytes.IndexByte(b[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if out == nil {
		return nil
	}
	return append(out, b[last:]...)
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
		var n int
		if out, n = jsonlite.AppendEscape(out, b, i); n == 0 {
			// Not an escape: the backslash stands for itself.
			out, n = append(out, '\\'), 1
		}
		i += n
	}
	return out
}

// digit is the value of the hex digit c: its low four bits, plus 9 for
// a letter ('A' is 0x41, 'a' 0x61).
func digit(c byte) byte {
	return c&15 + 9*(c>>6)
}
