package seam

import (
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Writer writes an answer: its JSON and the raw parts the JSON's "$raw"
// member places ([[path, bytes], ...]: "response.body", "event.body"), so
// bodies never pass through JSON escaping.
type Writer struct {
	jsonlite.Writer
	// Parts are the answer's raw parts, at the paths of PartAt.
	Parts  [][]byte
	PartAt []string
}

// Reset empties the writer for the next answer.
func (w *Writer) Reset() {
	w.Writer.Reset()
	w.Parts, w.PartAt = w.Parts[:0], w.PartAt[:0]
}

// raw keeps b as the raw part at path.
//
//go:noinline
func (w *Writer) raw(path string, b []byte) {
	w.Parts = append(w.Parts, b)
	w.PartAt = append(w.PartAt, path)
}

// end writes "$raw" (when there are raw parts) and closes the answer.
func (w *Writer) end() {
	if len(w.Parts) > 0 {
		w.Key("$raw")
		w.BeginArray()
		for i, p := range w.PartAt {
			w.BeginArray()
			w.String(p)
			w.Int(int64(len(w.Parts[i])))
			w.EndArray()
		}
		w.EndArray()
	}
	w.EndObject()
}

// Error answers a call the module does not have.
func (w *Writer) Error(problem string) {
	w.BeginObject()
	w.Key("error")
	w.String(problem)
	w.end()
}

// The readers below take what the typed wrapper sends; a member of
// another type reads as the zero value (a misuse is an answer, never a
// trap), as does null.

//go:noinline
func readString(s *jsonlite.Scanner, v *string) error {
	if s.Peek() != jsonlite.String {
		*v = ""
		return s.Skip()
	}
	t, err := s.String()
	*v = t
	return err
}

//go:noinline
func readStringPtr(s *jsonlite.Scanner, v **string) error {
	if s.Peek() != jsonlite.String {
		*v = nil
		return s.Skip()
	}
	t, err := s.String()
	*v = &t
	return err
}

//go:noinline
func readBool(s *jsonlite.Scanner, v *bool) error {
	if s.Peek() != jsonlite.Bool {
		*v = false
		return s.Skip()
	}
	b, err := s.Bool()
	*v = b
	return err
}

//go:noinline
func readInt(s *jsonlite.Scanner, v *int64) error {
	if s.Peek() != jsonlite.Number {
		*v = 0
		return s.Skip()
	}
	t, err := s.RawText()
	if n, ok := decimal.ParseInt(t); ok {
		*v = n
	} else {
		*v = truncNumber(t)
	}
	return err
}

//go:noinline
func readRaw(s *jsonlite.Scanner, v *string) error {
	t, err := s.RawText()
	*v = t
	return err
}

func readStrings(s *jsonlite.Scanner, v *[]string) error {
	*v = nil
	if s.Peek() != jsonlite.Array {
		return s.Skip()
	}
	return s.Array(func(int) error {
		var t string
		err := readString(s, &t)
		*v = append(*v, t)
		return err
	})
}

func readInts(s *jsonlite.Scanner, v *[]int64) error {
	*v = nil
	if s.Peek() != jsonlite.Array {
		return s.Skip()
	}
	return s.Array(func(int) error {
		var n int64
		err := readInt(s, &n)
		*v = append(*v, n)
		return err
	})
}

// readPairs reads an object's string members (others are left out).
func readPairs(s *jsonlite.Scanner, v *Pairs) error {
	*v = nil
	if s.Peek() != jsonlite.Object {
		return s.Skip()
	}
	return s.Object(func(k string) error {
		if s.Peek() != jsonlite.String {
			return s.Skip()
		}
		t, err := s.String()
		*v = append(*v, Pair{Name: k, Value: t})
		return err
	})
}

// object reads an object's members with fn; anything else is skipped.
func object(s *jsonlite.Scanner, fn func(k string) error) error {
	if s.Peek() != jsonlite.Object {
		return s.Skip()
	}
	return s.Object(fn)
}

//go:noinline
func writeString(w *Writer, k, v string) {
	w.Key(k)
	w.String(v)
}

//go:noinline
func writeBool(w *Writer, k string, v bool) {
	w.Key(k)
	w.Bool(v)
}

//go:noinline
func writeInt(w *Writer, k string, v int64) {
	w.Key(k)
	w.Int(v)
}

func writeStrings(w *Writer, v []string) {
	w.BeginArray()
	for _, s := range v {
		w.String(s)
	}
	w.EndArray()
}

func writeInts(w *Writer, v []int64) {
	w.BeginArray()
	for _, n := range v {
		w.Int(n)
	}
	w.EndArray()
}

func writePairs(w *Writer, v Pairs) {
	w.BeginObject()
	for _, p := range v {
		w.Key(p.Name)
		w.String(p.Value)
	}
	w.EndObject()
}
