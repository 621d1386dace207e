//go:build js

package main

import (
	"strconv"
	"syscall/js"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Builder is a jsonlite.Emitter that builds JavaScript values directly
// (objects, arrays, strings, numbers, booleans, null): the core's values
// reach JavaScript without a JSON text round trip. Raw JSON (schemas kept
// verbatim by the decoder) is transcoded with jsonlite's scanner, not
// JSON.parse. Use Reset between values; Value returns the last complete
// top-level value.
type Builder struct {
	stack []frame
	key   string
	root  js.Value
}

type frame struct {
	v   js.Value
	n   int
	arr bool
}

var _ jsonlite.Emitter = (*Builder)(nil)

// Reset drops any partial value so the Builder can be reused.
func (b *Builder) Reset() {
	b.stack = b.stack[:0]
	b.key = ""
	b.root = js.Null()
}

// Value returns the value built (null before anything was emitted).
func (b *Builder) Value() js.Value {
	if b.root.IsUndefined() {
		return js.Null()
	}
	return b.root
}

func (b *Builder) put(v js.Value) {
	if len(b.stack) == 0 {
		b.root = v
		return
	}
	f := &b.stack[len(b.stack)-1]
	if f.arr {
		f.v.SetIndex(f.n, v)
		f.n++
		return
	}
	f.v.Set(b.key, v)
}

// BeginObject implements jsonlite.Emitter.
func (b *Builder) BeginObject() {
	o := jsObject.New()
	b.put(o)
	b.stack = append(b.stack, frame{v: o})
}

// EndObject implements jsonlite.Emitter.
func (b *Builder) EndObject() { b.pop() }

// BeginArray implements jsonlite.Emitter.
func (b *Builder) BeginArray() {
	a := jsArray.New()
	b.put(a)
	b.stack = append(b.stack, frame{v: a, arr: true})
}

// EndArray implements jsonlite.Emitter.
func (b *Builder) EndArray() { b.pop() }

func (b *Builder) pop() {
	if len(b.stack) > 0 {
		b.stack[len(b.stack)-1] = frame{}
		b.stack = b.stack[:len(b.stack)-1]
	}
}

// Key implements jsonlite.Emitter.
func (b *Builder) Key(k string) { b.key = k }

// String implements jsonlite.Emitter.
func (b *Builder) String(s string) { b.put(js.ValueOf(s)) }

// Int implements jsonlite.Emitter (a JavaScript number: exact up to 2^53).
func (b *Builder) Int(n int64) { b.put(js.ValueOf(float64(n))) }

// Float implements jsonlite.Emitter.
func (b *Builder) Float(f float64) { b.put(js.ValueOf(f)) }

// Bool implements jsonlite.Emitter.
func (b *Builder) Bool(v bool) { b.put(js.ValueOf(v)) }

// Null implements jsonlite.Emitter.
func (b *Builder) Null() { b.put(js.Null()) }

// Raw implements jsonlite.Emitter: a number literal becomes a number,
// anything else is transcoded event by event; invalid JSON becomes null.
func (b *Builder) Raw(text []byte) {
	if len(text) > 0 && (text[0] == '-' || text[0] >= '0' && text[0] <= '9') {
		if f, err := strconv.ParseFloat(string(text), 64); err == nil {
			b.Float(f)
			return
		}
		b.Null()
		return
	}
	depth, key, n := len(b.stack), b.key, 0
	if depth > 0 {
		n = b.stack[depth-1].n
	}
	if err := jsonlite.NewScanner(text).Transcode(b); err != nil {
		// Close what the failed transcoding opened and put null in the
		// place of the partial value.
		for len(b.stack) > depth {
			b.pop()
		}
		b.key = key
		if depth > 0 {
			b.stack[depth-1].n = n
		}
		b.Null()
	}
}
