// Command decoder is parcelgate's response-decoder module: the core's
// internal/envelope (the service's {status, data} envelope, every
// operation's data, error classes) compiled by TinyGo like the validation
// module (package wasm) and loaded by js/src/core.js on the first
// decode(). Checkout typing never needs it, so it is not part of the
// first download.
//
// Exports: pg_in(n) and pg_out() as in the validation module, and
//
//	pg_decode(n) len   op, HTTP status, body -> JSON {ok: true, data} or {ok: false, error}
//
// A negative result is a usage error (an unknown operation): minus the
// length of its message, which is the answer.
package main

import (
	"strconv"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

var (
	writer jsonlite.Writer
	raw    jsonlite.Writer
)

// callDecode: op, HTTP status, body -> the decoded answer as JSON.
func callDecode(msg []byte) int32 {
	r := wire.NewReader(msg)
	op := r.Next()
	status, _ := strconv.Atoi(r.Next())
	body := r.Rest()
	v, err := envelope.DecodeValue(op, status, body)
	writer.Reset()
	w := &emitter{w: &writer}
	w.BeginObject()
	if err == nil {
		w.Key("ok")
		w.Bool(true)
		w.Key("data")
		v.EmitTo(w)
		w.EndObject()
		return done()
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
		msg := err.Error()
		wire.SetOut(append(wire.Scratch(), msg...))
		return -int32(len(msg))
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
	return done()
}

func done() int32 {
	out := append(wire.Scratch(), writer.Bytes()...)
	wire.SetOut(out)
	return int32(len(out))
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
