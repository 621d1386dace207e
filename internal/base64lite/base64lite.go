// Package base64lite is the part of encoding/base64 the edge core uses:
// encoding to text and decoding text, in the standard or URL alphabet,
// padded or not, strict or not, with encoding/base64's results and error
// offsets (the tests hold it to the standard library).
//
// encoding/base64 builds four Encodings with a 256-byte decode map each
// and a general decoder with fast paths; this package computes a
// character's value instead, which costs both WebAssembly modules less.
// Unlike encoding/base64's decoders it does not skip CR and LF: its
// callers strip white space first (envelope's labels) or decode only text
// they minted themselves (worker/tokens).
//
// Pure and TinyGo-compatible: no cgo, reflection or fmt.
package base64lite

import "github.com/parcelgate/parcelgate/internal/decimal"

// Mode selects the alphabet, the padding and the strictness, as the
// encoding/base64 Encoding of the same name does.
type Mode uint8

// Modes, to be combined with |. The zero Mode is base64.StdEncoding.
const (
	URL    Mode = 1 << iota // the URL alphabet ('-' and '_' for 62 and 63) instead of the standard one ('+', '/')
	Raw                     // no padding (base64.RawStdEncoding, base64.RawURLEncoding)
	Strict                  // decoding refuses non-zero trailing bits (Encoding.Strict)
)

const (
	alphabet    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	urlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)

// CorruptInputError is encoding/base64's error, with the same message: the
// offset of the byte where the input stops being base64 of the mode.
type CorruptInputError int64

// Error implements error.
func (e CorruptInputError) Error() string {
	return "illegal base64 data at input byte " + decimal.FormatInt(int64(e))
}

// value is the 6-bit value of c in mode m's alphabet, or 0xff.
func value(c byte, m Mode) byte {
	switch {
	case c >= 'A' && c <= 'Z':
		return c - 'A'
	case c >= 'a' && c <= 'z':
		return c - 'a' + 26
	case c >= '0' && c <= '9':
		return c - '0' + 52
	case c == "+-"[m&URL]:
		return 62
	case c == "/_"[m&URL]:
		return 63
	}
	return 0xff
}

// Encode returns the base64 of src in mode m (Strict has no effect).
func Encode(src []byte, m Mode) string {
	return string(AppendEncode(make([]byte, 0, (len(src)+2)/3*4), src, m))
}

// AppendEncode appends the base64 of src in mode m to dst: a caller
// comparing a MAC encodes into a buffer of its own, with no allocation.
// dst grows once and the groups of three bytes are written by index (the
// edge encodes every offer's payload and MAC of a rates answer: byte by
// byte appends cost it about a microsecond an offer under TinyGo).
func AppendEncode(dst, src []byte, m Mode) []byte {
	n := (len(src) + 2) / 3 * 4
	if m&Raw != 0 {
		n = (len(src)*8 + 5) / 6
	}
	at := len(dst)
	if cap(dst)-at < n {
		grown := make([]byte, at, at+n+at/2)
		copy(grown, dst)
		dst = grown
	}
	dst = dst[:at+n]
	out := dst[at:]
	al := alphabet
	if m&URL != 0 {
		al = urlAlphabet
	}
	i, j := 0, 0
	for ; len(src)-i >= 3 && len(out)-j >= 4; i, j = i+3, j+4 {
		v := uint(src[i])<<16 | uint(src[i+1])<<8 | uint(src[i+2])
		out[j] = al[v>>18&63]
		out[j+1] = al[v>>12&63]
		out[j+2] = al[v>>6&63]
		out[j+3] = al[v&63]
	}
	if rem := len(src) - i; rem > 0 {
		v := uint(src[i]) << 16
		if rem == 2 {
			v |= uint(src[i+1]) << 8
		}
		out[j] = al[v>>18&63]
		out[j+1] = al[v>>12&63]
		switch {
		case rem == 2:
			out[j+2] = al[v>>6&63]
		case m&Raw == 0:
			out[j+2] = '='
		}
		if m&Raw == 0 {
			out[j+3] = '='
		}
	}
	return dst
}

// Decode returns the bytes whose base64 in mode m is s, or the
// CorruptInputError encoding/base64's DecodeString returns for s (s holds
// no CR or LF: see the package comment).
func Decode(s string, m Mode) ([]byte, error) {
	dst := make([]byte, 0, len(s)/4*3+2)
	for si := 0; si < len(s); {
		// One quantum: up to four characters, as encoding/base64's
		// decodeQuantum reads them.
		var v uint
		n := 0            // characters of the quantum read
		var garbage error // text after the padding (the strict check comes first)
		for n < 4 && si < len(s) {
			c := s[si]
			si++
			x := value(c, m)
			if x != 0xff {
				v = v<<6 | uint(x)
				n++
				continue
			}
			if c != '=' || m&Raw != 0 || n < 2 {
				return nil, CorruptInputError(si - 1)
			}
			// Padding: "==" after two characters, "=" after three, then
			// the end.
			if n == 2 {
				if si == len(s) {
					return nil, CorruptInputError(len(s))
				}
				if s[si] != '=' {
					return nil, CorruptInputError(si - 1)
				}
				si++
			}
			if si < len(s) {
				garbage = CorruptInputError(si)
			}
			break
		}
		switch {
		case n == 1, n < 4 && si == len(s) && m&Raw == 0 && s[si-1] != '=':
			return nil, CorruptInputError(si - n)
		}
		v <<= 6 * uint(4-n)
		if m&Strict != 0 && n < 4 {
			// The bits below the last full byte must be zero.
			if n == 3 && v&0xff != 0 {
				return nil, CorruptInputError(si - 1)
			}
			if n == 2 && v&0xffff != 0 {
				return nil, CorruptInputError(si - 2)
			}
		}
		for j := 0; j < n-1; j++ {
			dst = append(dst, byte(v>>(16-8*j)))
		}
		if garbage != nil {
			return nil, garbage
		}
	}
	return dst, nil
}
