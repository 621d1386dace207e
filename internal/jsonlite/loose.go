package jsonlite

import (
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Loose readers accept the forms a tolerant client meets in practice:
// numbers sent as JSON strings, "" or null for "no value", and scalars of
// another kind where a string is expected. Objects and arrays are never
// accepted where a scalar is expected.

// LooseFloat reads a number that may arrive as a JSON number, as a JSON
// string holding a number ("1.50", surrounding spaces allowed), or as ""
// or null. ok is false (and f 0) for "" and null.
func (s *Scanner) LooseFloat() (f float64, ok bool, err error) {
	t, ok, err := s.looseNumberText()
	if err != nil || !ok {
		return 0, ok, err
	}
	f, perr := parseFloat(t)
	if perr != nil {
		return 0, false, &TypeError{Offset: s.pos, Want: "number within float64 range", Got: short(t)}
	}
	return f, true, nil
}

// LooseInt is LooseFloat for whole numbers: "12", 12, 12.0 and "1e2" are
// accepted; a fraction is an error.
func (s *Scanner) LooseInt() (n int64, ok bool, err error) {
	t, ok, err := s.looseNumberText()
	if err != nil || !ok {
		return 0, ok, err
	}
	n, ok = parseIntText(t)
	if !ok {
		return 0, false, &TypeError{Offset: s.pos, Want: "integer", Got: short(t)}
	}
	return n, true, nil
}

// looseNumberText returns the text of a number given as a number or a
// numeric string; ok is false for "" and null.
func (s *Scanner) looseNumberText() (string, bool, error) {
	k, err := s.peekOrFail()
	if err != nil {
		return "", false, err
	}
	off := s.pos
	switch k {
	case Number:
		t, _, err := s.scanNumber()
		return t, err == nil, err
	case Null:
		return "", false, s.Null()
	case String:
		v, err := s.readString()
		if err != nil {
			return "", false, err
		}
		v = unitab.TrimSpace(v)
		if v == "" {
			return "", false, nil
		}
		if !ValidNumber(v) {
			return "", false, &TypeError{Offset: off, Want: "number", Got: "string " + string(AppendString(nil, short(v)))}
		}
		return v, true, nil
	}
	return "", false, s.typeErr("number", k)
}

// LooseString reads a string that may arrive as a number (its literal
// text is returned), a boolean ("true"/"false") or null ("").
func (s *Scanner) LooseString() (string, error) {
	k, err := s.peekOrFail()
	if err != nil {
		return "", err
	}
	switch k {
	case String:
		return s.readString()
	case Number:
		t, _, err := s.scanNumber()
		return t, err
	case Null:
		return "", s.Null()
	case Bool:
		b, err := s.Bool()
		if b {
			return "true", err
		}
		return "false", err
	}
	return "", s.typeErr("string", k)
}

// LooseBool reads a flag that may arrive as true/false, a number (non-zero
// is true), a string ("1", "0", "true", "false", "" ) or null (false).
func (s *Scanner) LooseBool() (bool, error) {
	k, err := s.peekOrFail()
	if err != nil {
		return false, err
	}
	off := s.pos
	switch k {
	case Bool:
		return s.Bool()
	case Null:
		return false, s.Null()
	case Number:
		f, err := s.Float()
		return f != 0, err
	case String:
		v, err := s.readString()
		if err != nil {
			return false, err
		}
		switch unitab.TrimSpace(v) {
		case "1", "true", "TRUE", "True":
			return true, nil
		case "", "0", "false", "FALSE", "False":
			return false, nil
		}
		if t := unitab.TrimSpace(v); ValidNumber(t) {
			f, err := parseFloat(t)
			return f != 0, err
		}
		return false, &TypeError{Offset: off, Want: "boolean or 0/1", Got: "string " + string(AppendString(nil, short(v)))}
	}
	return false, s.typeErr("boolean or 0/1", k)
}

// ValidNumber reports whether t is a number in strict JSON grammar.
func ValidNumber(t string) bool {
	end, _, bad := number(t, 0)
	return bad == "" && end == len(t)
}

// ParseFloat is strconv.ParseFloat(t, 64) for the text t of a JSON
// number; ok is false when t is not one (strict grammar) or lies beyond
// float64's range. Under TinyGo it is decimal.go's table-free conversion,
// the one the Scanner uses: no second float parser in a module.
func ParseFloat(t string) (f float64, ok bool) {
	if !ValidNumber(t) {
		return 0, false
	}
	f, err := parseFloat(t)
	return f, err == nil
}

// short truncates s to at most 32 bytes on a rune boundary, for messages.
func short(s string) string {
	if len(s) <= 32 {
		return s
	}
	i := 32
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "..."
}
