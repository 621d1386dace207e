// Command decoder is parcelgate's response-decoder module: the core's
// internal/envelope (the service's {status, data} envelope, every
// operation's data, error classes) compiled by TinyGo like the validation
// module (package wasm) and loaded by js/src/core.js on the first
// decode(). Checkout typing never needs it, so it is not part of the
// first download.
//
// Exports: pg_in(n) and pg_out() as in the validation module, and the
// calls of wasm/internal/seam's DecoderCalls (exports_gen.go, calls_gen.go:
// generated with the validation module's), each implemented here as
// call<Name>(in, out) returning "" or a usage error's message:
//
//	pg_decode   {operation, status, body} -> {json}: {ok: true, data} or {ok: false, error}
package main

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/wasm/internal/seam"
	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

var (
	writer jsonlite.Writer
	raw    jsonlite.Writer
)

// callDecode: op, HTTP status, body -> the decoded answer as JSON; an
// unknown operation is a usage error.
func callDecode(in *seam.DecodeInput, out *seam.Decoded) string {
	status := int(in.Status)
	// The body's bytes in the message, not copied (nothing writes to them).
	body := unsafe.Slice(unsafe.StringData(in.Body), len(in.Body))
	v, err := envelope.DecodeValue(in.Operation, status, body)
	writer.Reset()
	w := &emitter{w: &writer}
	w.BeginObject()
	if err == nil {
		w.Key("ok")
		w.Bool(true)
		w.Key("data")
		v.EmitTo(w)
		w.EndObject()
		return done(out)
	}
	w.Key("ok")
	w.Bool(false)
	w.Key("error")
	// The error's own fields, then those the JavaScript side relies on
	// (a later key wins in JSON.parse, as a Set did in the js.Value days).
	switch err := err.(type) {
	case *envelope.APIError:
		w.open(err)
		w.Key("description")
		w.String(err.Error())
	case *envelope.UnexpectedResponse:
		w.open(err)
		w.Key("message")
		w.String(err.Error())
		w.Key("description")
		w.String(err.Error())
	case *envelope.ShapeError:
		w.open(err)
		w.Key("class")
		w.String(envelope.ClassUnexpectedResponse)
		w.Key("message")
		w.String(err.Error())
		w.Key("description")
		w.String(err.Error())
	case *envelope.UnknownOperationError:
		return err.Error()
	default:
		w.BeginObject()
		w.Key("type")
		w.String("unexpected")
		w.Key("class")
		w.String(envelope.ClassUnexpectedResponse)
		w.Key("message")
		w.String(err.Error())
		w.Key("http_status")
		w.Int(int64(status))
		w.Key("description")
		w.String(err.Error())
	}
	w.EndObject() // the error
	w.EndObject() // the answer
	return done(out)
}

// done sets the answer to the JSON written, without copying it: the
// generated runDecode appends it to the answer before the next call.
func done(out *seam.Decoded) string {
	if b := writer.Bytes(); len(b) > 0 {
		out.JSON = unsafe.String(&b[0], len(b))
	}
	return ""
}

// usage makes a usage error the answer (as the validation module's).
func usage(msg string) int32 {
	wire.SetOut(append(wire.Scratch(), msg...))
	return -int32(len(msg))
}

// answer makes b the answer.
func answer(b []byte) int32 {
	wire.SetOut(b)
	return int32(len(b))
}

// emitter is the JSON writer with two additions: open emits a value but
// leaves its top-level object open, so that keys can follow; and Raw is
// checked: a raw value (schemas the decoder keeps verbatim) that is not
// valid JSON becomes null instead of breaking the whole answer.
type emitter struct {
	w       *jsonlite.Writer
	depth   int
	swallow int // the depth whose EndObject is skipped (when > 0)
}

func (e *emitter) open(v jsonlite.Value) {
	e.swallow = e.depth + 1
	v.EmitTo(e)
	e.swallow = 0
}

func (e *emitter) BeginObject() { e.depth++; e.w.BeginObject() }
func (e *emitter) EndObject() {
	if e.swallow > 0 && e.depth == e.swallow {
		e.swallow = 0
		e.depth--
		return
	}
	e.depth--
	e.w.EndObject()
}
func (e *emitter) BeginArray()     { e.w.BeginArray() }
func (e *emitter) EndArray()       { e.w.EndArray() }
func (e *emitter) Key(k string)    { e.w.Key(k) }
func (e *emitter) String(s string) { e.w.String(s) }
func (e *emitter) Int(n int64)     { e.w.Int(n) }
func (e *emitter) Float(f float64) { e.w.Float(f) }
func (e *emitter) Bool(b bool)     { e.w.Bool(b) }
func (e *emitter) Null()           { e.w.Null() }
func (e *emitter) Raw(text []byte) {
	if len(text) > 0 && (text[0] == '-' || text[0] >= '0' && text[0] <= '9') {
		// jsonlite's reading, not strconv.ParseFloat: the same float64 for a
		// JSON number, without strconv's float tables in the module.
		if f, err := jsonlite.NewScanner(text).Float(); err == nil {
			e.w.Float(f)
		} else {
			e.w.Null()
		}
		return
	}
	raw.Reset()
	if jsonlite.NewScanner(text).Transcode(&raw) != nil {
		e.w.Null()
		return
	}
	e.w.Raw(raw.Bytes())
}
