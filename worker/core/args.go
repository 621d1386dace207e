package core

import (
	"strconv"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// args is a JSON object of a call's input, its members kept as raw JSON
// text and read on demand: absent members, nulls and values of another
// type read as zero values (the wrapper and worker/src are typed; a
// misuse is an answer, never a trap).
type args struct {
	keys []string
	vals []string
}

func newArgs(b []byte) args {
	return parseArgs(jsonlite.NewScanner(b))
}

func parseArgs(s *jsonlite.Scanner) args {
	var a args
	if s.Peek() != jsonlite.Object {
		return a
	}
	_ = s.Object(func(k string) error {
		v, err := s.RawText()
		a.keys = append(a.keys, k)
		a.vals = append(a.vals, v)
		return err
	})
	return a
}

func (a args) present() bool { return a.keys != nil }

// raw is a member's JSON text ("" when absent).
func (a args) raw(k string) string {
	for i, key := range a.keys {
		if key == k {
			return a.vals[i]
		}
	}
	return ""
}

func (a args) strOK(k string) (string, bool) {
	r := a.raw(k)
	if r == "" || r[0] != '"' {
		return "", false
	}
	v, err := jsonlite.NewScannerString(r).String()
	return v, err == nil
}

func (a args) str(k string) string {
	v, _ := a.strOK(k)
	return v
}

func (a args) num(k string) int64 {
	r := a.raw(k)
	if r == "" {
		return 0
	}
	if n, err := strconv.ParseInt(r, 10, 64); err == nil {
		return n
	}
	f, err := strconv.ParseFloat(r, 64)
	if err != nil {
		return 0
	}
	return int64(f)
}

// whole reads a member that must be a whole number (absent: 0).
func (a args) whole(k string) (int64, bool) {
	r := a.raw(k)
	if r == "" || r == "null" {
		return 0, true
	}
	n, err := strconv.ParseInt(r, 10, 64)
	return n, err == nil
}

func (a args) boolean(k string) bool { return a.raw(k) == "true" }

func (a args) obj(k string) args {
	r := a.raw(k)
	if r == "" || r[0] != '{' {
		return args{}
	}
	return parseArgs(jsonlite.NewScannerString(r))
}

func (a args) strs(k string) []string {
	r := a.raw(k)
	if r == "" || r[0] != '[' {
		return nil
	}
	s := jsonlite.NewScannerString(r)
	var out []string
	_ = s.Array(func(int) error {
		if s.Peek() != jsonlite.String {
			return s.Skip()
		}
		v, err := s.String()
		out = append(out, v)
		return err
	})
	return out
}

func operationNames() []string {
	out := make([]string, len(catalog.Operations))
	for i := range catalog.Operations {
		out[i] = catalog.Operations[i].Name
	}
	return out
}

func lookup(name string) *catalog.Operation { return catalog.Lookup(name) }
