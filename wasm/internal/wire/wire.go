// Package wire is the text format between the browser modules and their
// JavaScript loader (js/src/core.js): one UTF-8 buffer in linear memory in,
// one out, so a call crosses the JavaScript/WebAssembly boundary once.
//
// A message is a list of tokens, each followed by US (0x1f). In a request
// the token GS (0x1d) alone starts a parcel. A token that contains one of
// the four separator bytes 0x1c-0x1f carries it escaped as ESC (0x1c)
// followed by 'c', 'd', 'e' or 'f'; both sides escape and unescape, so any
// text survives (a shopper's stray control character is reported by
// validation, not lost).
//
// The buffers are package state: an export runs to completion before the
// next one starts (JavaScript is single-threaded and the exports never
// block), and nothing a call reads from In survives the call.
package wire

import (
	"strconv"
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/form"
)

// Separator bytes.
const (
	ESC = 0x1c
	GS  = 0x1d
	RS  = 0x1e
	US  = 0x1f
)

var (
	in  []byte
	out []byte
)

// Input returns a buffer of at least n bytes for the next request; the
// loader writes into it through the pointer of its first byte.
func Input(n int) []byte {
	if cap(in) < n {
		in = make([]byte, n+n/2)
	}
	return in[:cap(in)]
}

// Request returns the first n bytes of the input buffer.
func Request(n int) []byte {
	if n < 0 || n > cap(in) {
		return nil
	}
	return in[:n]
}

// Out is the answer of the last call; its first byte's address is what
// the loader reads from.
func Out() []byte { return out }

// SetOut stores the answer of a call (its buffer is reused by the next).
func SetOut(b []byte) { out = b }

// Scratch returns the output buffer, emptied, for the next answer.
func Scratch() []byte { return out[:0] }

// Reader splits a message into tokens. Tokens without escapes are views
// of the input (no copy): they are valid until the next call.
type Reader struct {
	b   []byte
	pos int
}

// NewReader reads b.
func NewReader(b []byte) Reader { return Reader{b: b} }

// More reports whether a token is left.
func (r *Reader) More() bool { return r.pos < len(r.b) }

// Next returns the next token ("" at the end).
func (r *Reader) Next() string {
	start, esc := r.pos, false
	for r.pos < len(r.b) {
		c := r.b[r.pos]
		if c == US {
			break
		}
		if c == ESC {
			esc = true
		}
		r.pos++
	}
	tok := r.b[start:r.pos]
	if r.pos < len(r.b) {
		r.pos++ // the US
	}
	if len(tok) == 0 {
		return ""
	}
	if esc {
		return unescape(tok)
	}
	return unsafe.String(&tok[0], len(tok))
}

func unescape(tok []byte) string {
	b := make([]byte, 0, len(tok))
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c == ESC && i+1 < len(tok) && tok[i+1] >= 'c' && tok[i+1] <= 'f' {
			b = append(b, ESC+tok[i+1]-'c')
			i++
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// Rest returns the rest of the message as it is: the last part of a
// message may be sent unescaped (a response body).
func (r *Reader) Rest() []byte {
	b := r.b[r.pos:]
	r.pos = len(r.b)
	return b
}

// Append appends s as a token: escaped, followed by US.
func Append(dst []byte, s string) []byte {
	i := 0
	for i < len(s) && (s[i] < ESC || s[i] > US) {
		i++
	}
	dst = append(dst, s[:i]...) // one copy for the text before a separator (usually all of it)
	for ; i < len(s); i++ {
		c := s[i]
		if c >= ESC && c <= US {
			dst = append(dst, ESC, 'c'+c-ESC)
			continue
		}
		dst = append(dst, c)
	}
	return append(dst, US)
}

// AppendInt appends a decimal integer token.
func AppendInt(dst []byte, n int) []byte {
	return append(decimal.AppendInt(dst, int64(n)), US)
}

// ReadRequest fills req from the rest of r: name and value tokens, a GS
// token before each parcel's own pairs. A parcel name that is not a
// parcel field is ignored (the loader refuses those before calling).
func ReadRequest(r *Reader, req *form.Request) {
	req.Fields = req.Fields[:0]
	req.Parcels = req.Parcels[:0]
	parcel := -1
	for r.More() {
		name := r.Next()
		if name == "\x1d" {
			req.Parcels = append(req.Parcels, form.Parcel{})
			parcel = len(req.Parcels) - 1
			continue
		}
		value := r.Next()
		if parcel >= 0 {
			req.Parcels[parcel].Set(name, value)
		} else {
			req.Set(name, value)
		}
	}
}

// AppendBool appends a boolean token: "1" or "".
func AppendBool(dst []byte, b bool) []byte {
	if b {
		dst = append(dst, '1')
	}
	return append(dst, US)
}

// ParseInt reads a decimal integer token (what AppendInt writes); anything
// else reads as the digits it starts with.
func ParseInt(s string) int64 {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	var n int64
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int64(s[i]-'0')
	}
	if neg {
		return -n
	}
	return n
}

// AppendFloat4 appends a number token with at most 4 decimals (the only
// floats on the wire are coordinates, held in geo's tables as 1e-4
// degrees), without strconv's float formatting: its tables alone are
// 11 KB of the module.
func AppendFloat4(dst []byte, f float64) []byte {
	n := int64(f*10000 + 0.5)
	if f < 0 {
		n = int64(f*10000 - 0.5)
		dst = append(dst, '-')
		n = -n
	}
	dst = decimal.AppendInt(dst, n/10000)
	if frac := n % 10000; frac != 0 {
		dst = append(dst, '.')
		for d := int64(1000); d > 0 && frac != 0; d /= 10 {
			dst = append(dst, byte('0'+frac/d))
			frac %= d
		}
	}
	return append(dst, US)
}

// ParseFloat reads a number token (0 when it is not one). Only the Go
// side's tests read floats (the module writes them): the module does not
// link strconv's float parsing.
func ParseFloat(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// AppendRequest appends req as the loader's packRequest does: name and
// value tokens, then GS alone before each parcel's pairs (in
// form.ParcelFieldNames order, empty ones left out).
func AppendRequest(dst []byte, req *form.Request) []byte {
	for _, f := range req.Fields {
		dst = Append(Append(dst, f.Name), f.Value)
	}
	for i := range req.Parcels {
		dst = append(dst, GS, US) // unescaped: a parcel's start, not a name
		for j, name := range form.ParcelFieldNames {
			if v := req.Parcels[i].At(j); v != "" {
				dst = Append(Append(dst, name), v)
			}
		}
	}
	return dst
}
