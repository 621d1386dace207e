package main

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/geo"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/validate"
	"github.com/parcelgate/parcelgate/wasm/internal/seam"
	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

// Version is the module's version (the loader's core.version).
const Version = "0.2.0"

// Scratch state reused across calls (see package wire).
var (
	errsBuf  []validate.FieldError
	bodyBuf  []byte
	location seam.Location
	tracking seam.TrackingCode
	writer   catalogWriter
)

// The calls: each takes its input and fills its answer (both declared in
// wasm/internal/seam; calls_gen.go reads and writes them), and returns ""
// or a usage error's message (the loader throws it).

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

func callVersion(out *seam.VersionResult) string {
	out.Version = Version
	return ""
}

// callValidate: the request's errors, or only those of in.Field.
func callValidate(in *seam.ValidateInput, out *seam.Validated) string {
	op, bad := operation(in.Operation)
	if bad != "" {
		return bad
	}
	opt := validate.Options{Rules: in.Rules, Today: in.Today, Locale: locale(in.Locale)}
	errsBuf = validate.Request(op, &in.Request, opt, errsBuf[:0])
	for _, e := range errsBuf {
		if in.Field != "" && e.Field != in.Field {
			continue
		}
		out.Errors = append(out.Errors, seam.FieldError{Field: e.Field, Code: int64(e.Code), Message: e.Message})
	}
	return ""
}

// callEncode: the values normalized and the fields in the catalog's order
// (what the edge forwards).
func callEncode(in *seam.EncodeInput, out *seam.Encoded) string {
	op, bad := operation(in.Operation)
	if bad != "" {
		return bad
	}
	validate.Normalize(op, &in.Request)
	validate.Canonicalize(op, &in.Request)
	out.Body = body(&in.Request)
	return ""
}

// callEncodeForm: the request encoded as held.
func callEncodeForm(in *seam.EncodeFormInput, out *seam.Encoded) string {
	out.Body = body(&in.Request)
	return ""
}

// body is req's form body, a view of bodyBuf (valid until the next call;
// the answer copies it).
func body(req *form.Request) string {
	bodyBuf = form.AppendEncode(bodyBuf[:0], req)
	if len(bodyBuf) == 0 {
		return ""
	}
	return unsafe.String(&bodyBuf[0], len(bodyBuf))
}

// callPostal: the normalized code (valid) or the message (invalid).
func callPostal(in *seam.PostalInput, out *seam.PostalResult) string {
	res, m := postal.Check(in.Country, in.Input)
	if m != "" {
		out.Message = i18n.Message(locale(in.Locale), m)
		return ""
	}
	out.Valid = true
	out.Normalized = res.Normalized
	out.Province = int64(res.Province)
	out.Zone = res.Zone.String()
	return ""
}

// callLocate: city, coordinates and precision, or none when unknown.
func callLocate(in *seam.LocateInput, out *seam.Located) string {
	p, prec := geo.Locate(in.Country, in.Zip)
	if prec == geo.PrecisionUnknown {
		return ""
	}
	location = seam.Location{City: p.City, Lat: p.Lat, Lon: p.Lon, Precision: prec.String()}
	out.Location = &location
	return ""
}

// callDescribe: a tracking code's entry, or none outside 01-30.
func callDescribe(in *seam.DescribeInput, out *seam.Described) string {
	tc, ok := envelope.DescribeTracking(in.Code)
	if !ok {
		return ""
	}
	tracking = seam.TrackingCode{Code: tc.Code, Meaning: tc.Meaning, Label: tc.Label, Category: tc.Category, Final: tc.Final}
	out.Tracking = &tracking
	return ""
}

// callCatalog: the operation catalog as JSON (catalog.Catalog).
func callCatalog(out *seam.CatalogResult) string {
	writer.buf, writer.comma = writer.buf[:0], false
	catalog.Catalog{}.EmitTo(&writer)
	out.JSON = string(writer.buf)
	return ""
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
	w.buf = decimal.AppendInt(w.buf, n)
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
