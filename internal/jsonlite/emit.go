// Package jsonlite is a small reflection-free JSON toolkit for the core:
// a pull scanner for decoding and an Emitter interface with a JSON writer
// for encoding. Values produced by the core (catalog, decoded responses,
// field errors) describe themselves to an Emitter, so the same code writes
// the JSON of the Go servers, the edge core and the browser modules: those
// modules answer JavaScript with JSON text (wasm/calls.go's catalogWriter,
// wasm/decoder's Writer), with no syscall/js.
package jsonlite

// Emitter receives a JSON-shaped value as a stream of events. Inside an
// object every value is preceded by Key. Implementations: Writer (JSON
// text) and wrappers or smaller writers of JSON text around it (the
// validation module's catalogWriter, without floats, in wasm/calls.go).
type Emitter interface {
	BeginObject()
	EndObject()
	BeginArray()
	EndArray()
	Key(k string)
	String(s string)
	Int(n int64)
	Float(f float64)
	Bool(b bool)
	Null()
	// Raw emits a value that is already JSON text (schemas kept verbatim).
	Raw(json []byte)
}

// Value is anything that can describe itself to an Emitter.
type Value interface {
	EmitTo(e Emitter)
}

// EmitFunc is a Value written by a function. Passing a func rather than a
// struct as the Value keeps that struct's type out of the WebAssembly
// modules' type descriptors: TinyGo writes one for every type converted to
// an interface, with the name and tag of each field, its fields' types
// recursively (for envelope's results, 3.2 KB of the edge core's gzip).
type EmitFunc func(e Emitter)

// EmitTo implements Value.
func (f EmitFunc) EmitTo(e Emitter) { f(e) }

// StringMember emits the member k: v of the object being emitted.
func StringMember(e Emitter, k, v string) {
	e.Key(k)
	e.String(v)
}

// IntMember emits the member k: v of the object being emitted.
func IntMember(e Emitter, k string, v int64) {
	e.Key(k)
	e.Int(v)
}
