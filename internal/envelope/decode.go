package envelope

import (
	"strings"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Field readers: each reads the value at the Scanner into dst, with the
// tolerance of the jsonlite Loose readers.

func str(s *jsonlite.Scanner, dst *string) error {
	v, err := s.LooseString()
	*dst = v
	return err
}

func i64(s *jsonlite.Scanner, dst *int64) error {
	v, _, err := s.LooseInt()
	*dst = v
	return err
}

func f64(s *jsonlite.Scanner, dst *float64) error {
	v, _, err := s.LooseFloat()
	*dst = v
	return err
}

func flag(s *jsonlite.Scanner, dst *bool) error {
	v, err := s.LooseBool()
	*dst = v
	return err
}

// date reads a Date or DateTime. Empty, null and MySQL zero dates
// ("0000-00-00", "0000-00-00 00:00:00") become "".
func date(s *jsonlite.Scanner, dst *string) error {
	v, err := s.LooseString()
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "0000-00-00") {
		v = ""
	}
	*dst = v
	return err
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

// raw reads any value as compact JSON (strings re-encoded as valid UTF-8).
// null and "" give nil; an empty array gives "{}" when asObject is set
// (PHP's encoding of an empty associative array).
func raw(s *jsonlite.Scanner, dst *[]byte, asObject bool) error {
	switch s.Peek() {
	case jsonlite.Null:
		*dst = nil
		return s.Null()
	case jsonlite.String:
		if v, err := s.String(); err != nil || v == "" {
			*dst = nil
			return err
		} else {
			*dst = jsonlite.AppendString(nil, v)
			return nil
		}
	}
	w := jsonlite.NewWriter()
	if err := s.Transcode(w); err != nil {
		return err
	}
	b := w.Bytes()
	if asObject && string(b) == "[]" {
		b = []byte("{}")
	}
	*dst = b
	return nil
}

// Emit helpers: a key and its value.

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

// kDate writes a date, null when empty.
func kDate(e jsonlite.Emitter, k, v string) {
	e.Key(k)
	if v == "" {
		e.Null()
	} else {
		e.String(v)
	}
}

// kRaw writes raw JSON, null when nil.
func kRaw(e jsonlite.Emitter, k string, v []byte) {
	e.Key(k)
	if len(v) == 0 {
		e.Null()
	} else {
		e.Raw(v)
	}
}
