//go:generate go run ./gen

package envelope

import (
	"strings"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// The hooks of the generated decoders (wire_gen.go): each reads the value
// at the Scanner into dst, or writes one value, for the Go types and the
// `as=` codecs of the wire tags. They hold every tolerance of the wire, so
// that the generated code is the same for every field.

func readString(s *jsonlite.Scanner, dst *string) error {
	v, err := s.LooseString()
	*dst = v
	return err
}

func readInt64(s *jsonlite.Scanner, dst *int64) error {
	v, _, err := s.LooseInt()
	*dst = v
	return err
}

// readInt64Seen also records whether a number was given (not null or "").
func readInt64Seen(s *jsonlite.Scanner, dst *int64, seen *bool) error {
	v, ok, err := s.LooseInt()
	*dst, *seen = v, ok
	return err
}

func readInt(s *jsonlite.Scanner, dst *int) error {
	v, _, err := s.LooseInt()
	if v < -1<<31 || v > 1<<31-1 {
		v = 0
	}
	*dst = int(v)
	return err
}

func readFloat64(s *jsonlite.Scanner, dst *float64) error {
	v, _, err := s.LooseFloat()
	*dst = v
	return err
}

// readFloat64Seen also records whether a number was given (not null or "").
func readFloat64Seen(s *jsonlite.Scanner, dst *float64, seen *bool) error {
	v, ok, err := s.LooseFloat()
	*dst, *seen = v, ok
	return err
}

func readBool(s *jsonlite.Scanner, dst *bool) error {
	v, err := s.LooseBool()
	*dst = v
	return err
}

// readDate reads a Date or DateTime. Empty, null and MySQL zero dates
// ("0000-00-00", "0000-00-00 00:00:00") become "".
func readDate(s *jsonlite.Scanner, dst *string) error {
	v, err := s.LooseString()
	v = unitab.TrimSpace(v)
	if strings.HasPrefix(v, "0000-00-00") {
		v = ""
	}
	*dst = v
	return err
}

// writeDate writes a date, null when empty.
func writeDate(e jsonlite.Emitter, k, v string) {
	e.Key(k)
	if v == "" {
		e.Null()
	} else {
		e.String(v)
	}
}

// readText reads any value as text: strings as is, numbers and booleans
// as their literal, null as "", objects and arrays as compact JSON (error
// bodies put anything in their message fields).
func readText(s *jsonlite.Scanner, dst *string) error {
	switch s.Peek() {
	case jsonlite.Object, jsonlite.Array:
		w := jsonlite.NewWriter()
		if err := s.Transcode(w); err != nil {
			return err
		}
		*dst = string(w.Bytes())
		return nil
	}
	v, err := s.LooseString()
	*dst = v
	return err
}

func writeText(e jsonlite.Emitter, k, v string) { kStr(e, k, v) }

// readCode reads an error code: a number or a numeric string that fits an
// int (surrounding spaces allowed); anything else is 0.
func readCode(s *jsonlite.Scanner, dst *int) error {
	var t string
	if err := readText(s, &t); err != nil {
		return err
	}
	*dst, _ = parseInt(t)
	return nil
}

func writeCode(e jsonlite.Emitter, k string, v int) { kInt(e, k, int64(v)) }

// parseInt parses a decimal integer that fits an int (surrounding spaces
// allowed).
func parseInt(t string) (int, bool) {
	t = strings.Trim(t, " ")
	s := jsonlite.NewScannerString(t)
	n, ok, err := s.LooseInt()
	if err != nil || !ok || s.End() != nil || n < -1<<31 || n > 1<<31-1 {
		return 0, false
	}
	return int(n), true
}

// readRaw reads any value as compact JSON (strings re-encoded as valid
// UTF-8); null and "" give nil.
func readRaw(s *jsonlite.Scanner, dst *[]byte) error {
	switch s.Peek() {
	case jsonlite.Null:
		*dst = nil
		return s.Null()
	case jsonlite.String:
		v, err := s.String()
		if err != nil || v == "" {
			*dst = nil
			return err
		}
		*dst = jsonlite.AppendString(nil, v)
		return nil
	}
	w := jsonlite.NewWriter()
	if err := s.Transcode(w); err != nil {
		return err
	}
	*dst = w.Bytes()
	return nil
}

// writeRaw writes raw JSON, null when nil.
func writeRaw(e jsonlite.Emitter, k string, v []byte) {
	e.Key(k)
	if len(v) == 0 {
		e.Null()
	} else {
		e.Raw(v)
	}
}

// readRawObject is readRaw for a value that is an object: PHP encodes an
// empty associative array as [], read as {}.
func readRawObject(s *jsonlite.Scanner, dst *[]byte) error {
	err := readRaw(s, dst)
	if string(*dst) == "[]" {
		*dst = []byte("{}")
	}
	return err
}

func writeRawObject(e jsonlite.Emitter, k string, v []byte) { writeRaw(e, k, v) }

// readPdf reads label_raw: base64 (standard or URL alphabet, padded or
// not, line breaks and spaces ignored, an optional data: URL prefix) of a
// PDF.
func readPdf(s *jsonlite.Scanner, dst *[]byte) error {
	if s.Peek() != jsonlite.String {
		_, err := s.String() // reports the kind found
		return err
	}
	b64, err := s.String()
	if err != nil {
		return err
	}
	*dst, err = decodePDF(b64)
	return err
}

// writePdf writes the label as standard base64.
func writePdf(e jsonlite.Emitter, k string, v []byte) {
	kStr(e, k, base64lite.Encode(v, 0))
}

func decodePDF(b64 string) ([]byte, error) {
	if strings.HasPrefix(b64, "data:") {
		if i := substr.Index(b64, ","); i >= 0 {
			b64 = b64[i+1:]
		}
	}
	if unitab.ContainsAnyASCII(b64, " \t\r\n") {
		b64 = dropSpaces(b64)
	}
	if b64 == "" {
		return nil, reasonError("empty label")
	}
	var mode base64lite.Mode
	if unitab.ContainsAnyASCII(b64, "-_") {
		mode = base64lite.URL
	}
	if len(b64)%4 != 0 {
		mode |= base64lite.Raw
		b64 = strings.TrimRight(b64, "=")
	}
	pdf, err := base64lite.Decode(b64, mode)
	if err != nil {
		return nil, reasonError("label is not valid base64: " + err.Error())
	}
	if !strings.HasPrefix(string(pdf[:min(len(pdf), 5)]), "%PDF-") {
		return nil, reasonError("label is not a PDF (it does not start with %PDF-)")
	}
	return pdf, nil
}

// obj reads an object member by member. null, "" and an empty array (PHP's
// encoding of an empty associative array) are read as an empty object.
func obj(s *jsonlite.Scanner, fn func(key string) error) error {
	switch s.Peek() {
	case jsonlite.Object:
		return s.Object(func(key string) error { return inKey(fn(key), key) })
	case jsonlite.Null:
		return s.Null()
	case jsonlite.Array:
		return s.Array(func(int) error {
			return reasonError("expected object, got non-empty array")
		})
	case jsonlite.String:
		if v, err := s.String(); err != nil || v == "" {
			return err
		}
		return reasonError("expected object, got non-empty string")
	}
	_, err := s.String() // reports the kind found, or a syntax error
	if err == nil {
		err = reasonError("expected object")
	}
	return typeWant(err, "object")
}

// arr reads an array element by element. null and "" are read as an empty
// array, and an object (PHP's encoding of an array whose keys are not
// 0..n-1) as the array of its member values in order.
func arr(s *jsonlite.Scanner, fn func(i int) error) error {
	switch s.Peek() {
	case jsonlite.Array:
		return s.Array(func(i int) error { return inIndex(fn(i), i) })
	case jsonlite.Null:
		return s.Null()
	case jsonlite.Object:
		i := 0
		return s.Object(func(string) error {
			err := inIndex(fn(i), i)
			i++
			return err
		})
	case jsonlite.String:
		if v, err := s.String(); err != nil || v == "" {
			return err
		}
		return reasonError("expected array, got non-empty string")
	}
	_, err := s.String()
	if err == nil {
		err = reasonError("expected array")
	}
	return typeWant(err, "array")
}

// typeWant rewrites the Want of a TypeError.
func typeWant(err error, want string) error {
	if te, ok := err.(*jsonlite.TypeError); ok {
		c := *te
		c.Want = want
		return &c
	}
	return err
}

// empty consumes and reports a value that stands for "nothing": null, ""
// or an empty array or object. Other values are left unread. Optional
// blocks (pointers) are nil when empty.
func empty(s *jsonlite.Scanner) bool {
	at := s.Offset()
	switch s.Peek() {
	case jsonlite.Null:
		return s.Null() == nil
	case jsonlite.String:
		if v, err := s.String(); err == nil && v == "" {
			return true
		}
	case jsonlite.Array, jsonlite.Object:
		t, err := s.RawText()
		if err == nil && len(t) >= 2 && isBlank(t[1:len(t)-1]) {
			return true
		}
	default:
		return false
	}
	s.Seek(at)
	return false
}

func isBlank(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// cutPrefix splits key into the first of prefixes it starts with and
// the rest; a key without any of them is all name (read as well).
func cutPrefix(key string, prefixes ...string) (prefix, name string) {
	for _, p := range prefixes {
		if strings.HasPrefix(key, p) {
			return p, key[len(p):]
		}
	}
	return "", key
}

// missing is the error of a required member that is absent.
func missing(key string) error { return inKey(reasonError("missing"), key) }

// The emit helpers of the generated code: a key and its value, so that a
// member is one call.

func kStr(e jsonlite.Emitter, k, v string) {
	e.Key(k)
	e.String(v)
}

func kInt(e jsonlite.Emitter, k string, v int64) {
	e.Key(k)
	e.Int(v)
}

func kFloat(e jsonlite.Emitter, k string, v float64) {
	e.Key(k)
	e.Float(v)
}

func kBool(e jsonlite.Emitter, k string, v bool) {
	e.Key(k)
	e.Bool(v)
}

func kNull(e jsonlite.Emitter, k string) {
	e.Key(k)
	e.Null()
}

// dropSpaces is strings.Map dropping ' ', '\t', '\r' and '\n' from s,
// with invalid UTF-8 written as U+FFFD as Map writes it.
func dropSpaces(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b = unitab.AppendRune(b, r)
		i += n
	}
	return string(b)
}
