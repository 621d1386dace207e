package core

import (
	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
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
	// Room for a call's members up front: growing both slices by appends
	// was a tenth of a read's allocations (TinyGo's allocator walks the
	// heap's blocks on each one).
	a.keys, a.vals = make([]string, 0, 16), make([]string, 0, 16)
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
	if n, ok := decimal.ParseInt(r); ok {
		return n
	}
	return truncNumber(r)
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// truncNumber is int64(strconv.ParseFloat(r, 64)) for the JSON number r
// that is not an integer ParseInt reads (a fraction, an exponent, beyond
// int64), and 0 for any other text, as num was before. ParseFloat and its
// ~17 KB of tables and algorithms stay out of the core for what the
// typed wrapper sends as integers anyway.
//
// Exactly ParseFloat's value wherever its exact fast path applies (at
// most 19 significant digits of which the value needs 2^53 or less, times
// 10^-22..10^37): a float64 product or quotient of two exact values,
// correctly rounded. Beyond (a 17-digit mantissa above 2^53, tiny or huge
// exponents) within one rounding of it; the integer part can differ only
// for such a number within 2^-52 of a whole number. A value past int64
// saturates, as wasm's conversion does; past float64's range it is 0, as
// ParseFloat's error made it.
func truncNumber(r string) int64 {
	i, neg := 0, false
	if i < len(r) && r[i] == '-' {
		neg, i = true, i+1
	}
	var mant uint64
	digits, exp, sawDigit, sawDot := 0, 0, false, false
	for ; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '.' && !sawDot:
			sawDot = true
			continue
		case c < '0' || c > '9':
		default:
			sawDigit = true
			if c == '0' && digits == 0 {
				if sawDot {
					exp--
				}
				continue
			}
			if digits < 19 {
				mant = mant*10 + uint64(c-'0')
				digits++
				if sawDot {
					exp--
				}
			} else if !sawDot {
				exp++ // digits past 19 are dropped, as strconv's readFloat does
			}
			continue
		}
		break
	}
	if !sawDigit {
		return 0
	}
	if i < len(r) && (r[i] == 'e' || r[i] == 'E') {
		i++
		esign := 1
		if i < len(r) && (r[i] == '+' || r[i] == '-') {
			if r[i] == '-' {
				esign = -1
			}
			i++
		}
		if i == len(r) {
			return 0
		}
		e := 0
		for ; i < len(r) && r[i] >= '0' && r[i] <= '9'; i++ {
			if e < 10000 {
				e = e*10 + int(r[i]-'0')
			}
		}
		exp += esign * e
	}
	if i != len(r) {
		return 0
	}
	if mant == 0 {
		return 0
	}
	for mant%10 == 0 { // "2.50", "1.0": the same value, one rounding fewer
		mant /= 10
		exp++
	}
	f := float64(mant)
	switch {
	case exp < 0:
		for ; exp < -22; exp += 22 {
			f /= pow10[22]
		}
		f /= pow10[-exp]
	default:
		for ; exp > 22; exp -= 22 {
			f *= pow10[22]
		}
		f *= pow10[exp]
	}
	switch {
	case f > 1.7976931348623157e308:
		return 0 // ParseFloat: out of range
	case f >= 9223372036854775807:
		if neg {
			return -9223372036854775808
		}
		return 9223372036854775807
	}
	if neg {
		return -int64(f)
	}
	return int64(f)
}

// whole reads a member that must be a whole number (absent: 0).
func (a args) whole(k string) (int64, bool) {
	r := a.raw(k)
	if r == "" || r == "null" {
		return 0, true
	}
	return decimal.ParseInt(r)
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
