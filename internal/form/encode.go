package form

import (
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/urlquery"
)

// Encoding
//
// Keys are written as they are held; parcel keys are written with literal
// brackets, exactly as the spec shows them (parcels[0][parcel_weight]).
// Values are escaped the way WHATWG URLSearchParams does it: bytes of
// [A-Za-z0-9*-._] are kept, a space becomes '+', every other byte of the
// UTF-8 encoding becomes %XX with upper-case hex digits. PHP's parse_str,
// net/url.ParseQuery and URLSearchParams all read such a body back to the
// same values, including values holding & = + % [ ] ; # quotes and
// non-ASCII text.
//
// Order: the top-level fields in the order held (see SortFields), then the
// parcels by index, each parcel's fields in ParcelFieldNames order. Empty
// parcel values are skipped, except that a parcel whose values are all
// empty is written as parcels[<i>][parcel_weight]= so that it keeps its
// place in the list (and Decode gives it back as an empty Parcel).
// An empty top-level value is written as name=.

// keep reports whether byte c is written as-is in a value.
func keep(c byte) bool { return urlquery.Kept(c, '*') }

// escapedLen returns the length of s once escaped.
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; !keep(c) && c != ' ' {
			n += 2
		}
	}
	return n
}

// appendEscape appends s escaped as a form value.
func appendEscape(dst []byte, s string) []byte { return urlquery.AppendEscapeKeeping(dst, s, '*') }

// emptyParcel reports whether every value of p is empty.
func emptyParcel(p *Parcel) bool {
	return p.Weight == "" && p.Width == "" && p.Height == "" && p.Length == "" && p.Volume == ""
}

// decimalLen is the number of decimal digits of a non-negative i.
func decimalLen(i int) int {
	n := 1
	for i >= 10 {
		i /= 10
		n++
	}
	return n
}

// EncodedLen returns the exact length of the body Encode produces for r.
func EncodedLen(r *Request) int {
	n := 0
	for i := range r.Fields {
		f := &r.Fields[i]
		n += escapedLen(f.Name) + 1 + escapedLen(f.Value) + 1 // name=value&
	}
	for i := range r.Parcels {
		p := &r.Parcels[i]
		// parcels[ i ][ name ]= value &
		prefix := len("parcels[") + decimalLen(i) + len("][") + len("]=") + 1
		if emptyParcel(p) {
			n += prefix + len(ParcelFieldNames[0])
			continue
		}
		for j := range ParcelFieldNames {
			if v := p.At(j); v != "" {
				n += prefix + len(ParcelFieldNames[j]) + escapedLen(v)
			}
		}
	}
	if n > 0 {
		n-- // no '&' after the last pair
	}
	return n
}

// Encode returns r as an application/x-www-form-urlencoded body (see the
// encoding rules above). It allocates the result only.
func Encode(r *Request) []byte {
	return AppendEncode(make([]byte, 0, EncodedLen(r)), r)
}

// AppendEncode appends r, encoded as Encode does, to dst and returns the
// extended buffer. It does not allocate when dst has room for
// EncodedLen(r) more bytes.
func AppendEncode(dst []byte, r *Request) []byte {
	first := true
	for i := range r.Fields {
		f := &r.Fields[i]
		if !first {
			dst = append(dst, '&')
		}
		first = false
		dst = appendEscape(dst, f.Name)
		dst = append(dst, '=')
		dst = appendEscape(dst, f.Value)
	}
	for i := range r.Parcels {
		p := &r.Parcels[i]
		empty := emptyParcel(p)
		for j := range ParcelFieldNames {
			name := ParcelFieldNames[j]
			v := p.At(j)
			if v == "" && !(empty && j == 0) {
				continue
			}
			if !first {
				dst = append(dst, '&')
			}
			first = false
			dst = append(dst, "parcels["...)
			dst = decimal.AppendInt(dst, int64(i))
			dst = append(dst, "]["...)
			dst = append(dst, name...)
			dst = append(dst, "]="...)
			dst = appendEscape(dst, v)
		}
	}
	return dst
}
