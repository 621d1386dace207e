package main

import (
	"strconv"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/geo"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/validate"
	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

// Version is the module's version (the loader's core.version).
const Version = "0.2.0"

// Scratch state reused across calls (see package wire).
var (
	req     form.Request
	errsBuf []validate.FieldError
	writer  catalogWriter
)

// usage answers a misuse: the message, and minus its length so the
// loader throws.
func usage(msg string) int32 {
	wire.SetOut(append(wire.Scratch(), msg...))
	return -int32(len(msg))
}

func answer(b []byte) int32 {
	wire.SetOut(b)
	return int32(len(b))
}

func operation(name string) (*catalog.Operation, string) {
	if op := catalog.Lookup(name); op != nil {
		return op, ""
	}
	return nil, "unknown operation \"" + name + "\""
}

func locale(tag string) i18n.Locale {
	l, _ := i18n.Parse(tag)
	return l
}

// callValidate: op, rules ("1" or ""), today, locale, field ("" for every
// field), then the request -> one (field, code, message) triple per error.
func callValidate(msg []byte) int32 {
	r := wire.NewReader(msg)
	op, bad := operation(r.Next())
	if bad != "" {
		return usage(bad)
	}
	opt := validate.Options{Rules: r.Next() == "1", Today: r.Next(), Locale: locale(r.Next())}
	field := r.Next()
	wire.ReadRequest(&r, &req)
	errsBuf = validate.Request(op, &req, opt, errsBuf[:0])
	out := wire.Scratch()
	for _, e := range errsBuf {
		if field != "" && e.Field != field {
			continue
		}
		out = wire.Append(out, e.Field)
		out = wire.AppendInt(out, e.Code)
		out = wire.Append(out, e.Message)
	}
	return answer(out)
}

// callEncode: op (ignored unless canon), then the request -> the form
// body; canon normalizes the values and orders the fields as the catalog
// does (what the edge forwards), otherwise the request is encoded as held.
func callEncode(msg []byte, canon bool) int32 {
	r := wire.NewReader(msg)
	name := r.Next()
	wire.ReadRequest(&r, &req)
	if canon {
		op, bad := operation(name)
		if bad != "" {
			return usage(bad)
		}
		validate.Normalize(op, &req)
		validate.Canonicalize(op, &req)
	}
	return answer(form.AppendEncode(wire.Scratch(), &req))
}

// Bits of pg_postal's result: the answer's length in the low 16 bits, the
// province and zone above, validity on top.
const (
	postalValid      = 1 << 30
	postalZoneShift  = 16
	postalProvShift  = 19
	postalLengthMask = 1<<postalZoneShift - 1
)

// callPostal: country, input, locale -> the normalized code (valid) or the
// message (invalid) as the answer, and the packed result.
func callPostal(msg []byte) int32 {
	r := wire.NewReader(msg)
	c, in := r.Next(), r.Next()
	res, m := postal.Check(c, in)
	out := wire.Scratch()
	if m != "" {
		out = append(out, i18n.Message(locale(r.Next()), m)...)
		answer(out)
		return int32(len(out))
	}
	out = append(out, res.Normalized...)
	answer(out)
	return int32(len(out)) | int32(res.Zone)<<postalZoneShift | int32(res.Province)<<postalProvShift | postalValid
}

// callLocate: country, zip -> city, lat, lon, precision, or 0 when the
// location is unknown.
func callLocate(msg []byte) int32 {
	r := wire.NewReader(msg)
	c, z := r.Next(), r.Next()
	p, prec := geo.Locate(c, z)
	if prec == geo.PrecisionUnknown {
		return answer(wire.Scratch())
	}
	out := wire.Append(wire.Scratch(), p.City)
	out = appendDegrees(out, p.Lat)
	out = appendDegrees(out, p.Lon)
	out = wire.Append(out, prec.String())
	return answer(out)
}

// appendDegrees writes a coordinate token with at most 4 decimals (geo's
// tables hold 1e-4 degrees), without strconv's float formatting: its
// tables alone are 11 KB of the module.
func appendDegrees(dst []byte, f float64) []byte {
	n := int64(f*10000 + 0.5)
	if f < 0 {
		n = int64(f*10000 - 0.5)
		dst = append(dst, '-')
		n = -n
	}
	dst = strconv.AppendInt(dst, n/10000, 10)
	if frac := n % 10000; frac != 0 {
		dst = append(dst, '.')
		for d := int64(1000); d > 0 && frac != 0; d /= 10 {
			dst = append(dst, byte('0'+frac/d))
			frac %= d
		}
	}
	return append(dst, wire.US)
}

// callDescribe: a tracking code -> code, meaning, label, category, final
// ("1" or ""), or 0 for a code outside 01-30.
func callDescribe(msg []byte) int32 {
	r := wire.NewReader(msg)
	tc, ok := envelope.DescribeTracking(r.Next())
	if !ok {
		return answer(wire.Scratch())
	}
	out := wire.Append(wire.Scratch(), tc.Code)
	out = wire.Append(out, tc.Meaning)
	out = wire.Append(out, tc.Label)
	out = wire.Append(out, tc.Category)
	final := ""
	if tc.Final {
		final = "1"
	}
	return answer(wire.Append(out, final))
}

// callCatalog: the operation catalog as JSON (catalog.Catalog).
func callCatalog() int32 {
	writer = catalogWriter{buf: wire.Scratch()}
	catalog.Catalog{}.EmitTo(&writer)
	return answer(writer.buf)
}

func callVersion() int32 {
	return answer(append(wire.Scratch(), Version...))
}

// catalogWriter is a JSON writer for the catalog, which has no floats and
// no raw JSON: without jsonlite.Writer's float formatting the module is
// 11 KB smaller (strconv's tables).
type catalogWriter struct {
	buf   []byte
	comma bool
}

var _ jsonlite.Emitter = (*catalogWriter)(nil)

func (w *catalogWriter) sep() {
	if w.comma {
		w.buf = append(w.buf, ',')
	}
}

func (w *catalogWriter) open(c byte)  { w.sep(); w.buf = append(w.buf, c); w.comma = false }
func (w *catalogWriter) close(c byte) { w.buf = append(w.buf, c); w.comma = true }

// BeginObject implements jsonlite.Emitter.
func (w *catalogWriter) BeginObject() { w.open('{') }

// EndObject implements jsonlite.Emitter.
func (w *catalogWriter) EndObject() { w.close('}') }

// BeginArray implements jsonlite.Emitter.
func (w *catalogWriter) BeginArray() { w.open('[') }

// EndArray implements jsonlite.Emitter.
func (w *catalogWriter) EndArray() { w.close(']') }

// Key implements jsonlite.Emitter.
func (w *catalogWriter) Key(k string) {
	w.sep()
	w.buf = append(jsonlite.AppendString(w.buf, k), ':')
	w.comma = false
}

// String implements jsonlite.Emitter.
func (w *catalogWriter) String(s string) {
	w.sep()
	w.buf = jsonlite.AppendString(w.buf, s)
	w.comma = true
}

// Int implements jsonlite.Emitter.
func (w *catalogWriter) Int(n int64) {
	w.sep()
	w.buf = strconv.AppendInt(w.buf, n, 10)
	w.comma = true
}

// Float implements jsonlite.Emitter for whole numbers (the catalog has no
// others); anything else is written as null.
func (w *catalogWriter) Float(f float64) {
	if f == float64(int64(f)) {
		w.Int(int64(f))
		return
	}
	w.Null()
}

// Bool implements jsonlite.Emitter.
func (w *catalogWriter) Bool(b bool) {
	w.sep()
	if b {
		w.buf = append(w.buf, "true"...)
	} else {
		w.buf = append(w.buf, "false"...)
	}
	w.comma = true
}

// Null implements jsonlite.Emitter.
func (w *catalogWriter) Null() { w.sep(); w.buf = append(w.buf, "null"...); w.comma = true }

// Raw implements jsonlite.Emitter: the catalog has no raw JSON; null.
func (w *catalogWriter) Raw([]byte) { w.Null() }
