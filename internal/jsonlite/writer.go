package jsonlite

import (
	"math"
	"strconv"
	"unicode/utf8"

	integers "github.com/parcelgate/parcelgate/internal/decimal"
)

// Writer is an Emitter that produces compact JSON text. Strings are
// escaped for JSON and for JavaScript source (U+2028 and U+2029 are
// escaped); invalid UTF-8 is replaced by U+FFFD. Floats use the shortest
// representation that round-trips, without an exponent for magnitudes in
// [1e-6, 1e21) like JavaScript's Number#toString; NaN and infinities,
// which JSON cannot carry, are written as null.
//
// The caller is responsible for emitting a well-formed sequence of events
// (a Key before every value inside an object, balanced Begin/End).
type Writer struct {
	buf   []byte
	comma bool // the next value or key needs a separating comma
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer { return &Writer{} }

// NewWriterSize returns an empty Writer with room for size bytes (what
// the caller expects to write: the buffer then grows only past it).
func NewWriterSize(size int) *Writer { return &Writer{buf: make([]byte, 0, size)} }

// Bytes returns the JSON written so far. The slice aliases the Writer's
// buffer: it is valid until the next write or Reset.
func (w *Writer) Bytes() []byte { return w.buf }

// Reset empties the Writer, keeping its buffer for reuse.
func (w *Writer) Reset() {
	w.buf = w.buf[:0]
	w.comma = false
}

func (w *Writer) sep() {
	if w.comma {
		w.buf = append(w.buf, ',')
	}
}

// BeginObject implements Emitter.
func (w *Writer) BeginObject() {
	w.sep()
	w.buf = append(w.buf, '{')
	w.comma = false
}

// EndObject implements Emitter.
func (w *Writer) EndObject() {
	w.buf = append(w.buf, '}')
	w.comma = true
}

// BeginArray implements Emitter.
func (w *Writer) BeginArray() {
	w.sep()
	w.buf = append(w.buf, '[')
	w.comma = false
}

// EndArray implements Emitter.
func (w *Writer) EndArray() {
	w.buf = append(w.buf, ']')
	w.comma = true
}

// Key implements Emitter.
func (w *Writer) Key(k string) {
	w.sep()
	w.buf = AppendString(w.buf, k)
	w.buf = append(w.buf, ':')
	w.comma = false
}

// String implements Emitter.
func (w *Writer) String(s string) {
	w.sep()
	w.buf = AppendString(w.buf, s)
	w.comma = true
}

// Int implements Emitter.
func (w *Writer) Int(n int64) {
	w.sep()
	w.buf = integers.AppendInt(w.buf, n)
	w.comma = true
}

// Float implements Emitter.
func (w *Writer) Float(f float64) {
	w.sep()
	w.buf = AppendFloat(w.buf, f)
	w.comma = true
}

// Bool implements Emitter.
func (w *Writer) Bool(b bool) {
	w.sep()
	w.buf = strconv.AppendBool(w.buf, b)
	w.comma = true
}

// Null implements Emitter.
func (w *Writer) Null() {
	w.sep()
	w.buf = append(w.buf, "null"...)
	w.comma = true
}

// Raw implements Emitter: json is copied verbatim and must be one valid
// JSON value (an empty json writes null).
func (w *Writer) Raw(json []byte) {
	w.sep()
	if len(json) == 0 {
		w.buf = append(w.buf, "null"...)
	} else {
		w.buf = append(w.buf, json...)
	}
	w.comma = true
}

// Marshal returns the compact JSON text of v.
func Marshal(v Value) []byte {
	w := &Writer{}
	if v == nil {
		w.Null()
	} else {
		v.EmitTo(w)
	}
	return w.buf
}

// AppendFloat appends f as a JSON number (see Writer for the format).
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if f == 0 {
		return append(b, '0') // also for negative zero
	}
	if a := math.Abs(f); a < 1e21 && a >= 1e-6 {
		return appendFloat(b, f, 'f')
	}
	return appendFloat(b, f, 'g')
}

// AppendString appends s as a quoted JSON string; invalid UTF-8 becomes
// U+FFFD.
func AppendString(b []byte, s string) []byte { return appendString(b, s, "\uFFFD") }

// AppendStringAsGo appends s quoted exactly as encoding/json writes it
// without HTML escaping: as AppendString, but each invalid UTF-8 byte is
// the escape \ufffd rather than the rune (so bytes that Go's side signs,
// such as the webhooks' events, are spelled one way in both).
func AppendStringAsGo(b []byte, s string) []byte { return appendString(b, s, `\ufffd`) }

// appendString quotes s; invalid is what each invalid UTF-8 byte becomes.
func appendString(b []byte, s, invalid string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, invalid...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

var _ Emitter = (*Writer)(nil)
