//go:build js

package main

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

func init() {
	jsObject = js.Global().Get("Object")
	jsArray = js.Global().Get("Array")
	jsKeys = jsObject.Get("keys")
	jsIsArray = jsArray.Get("isArray")
}

func stringify(v js.Value) string {
	return js.Global().Get("JSON").Call("stringify", v).String()
}

type emitFunc func(e jsonlite.Emitter)

func (f emitFunc) EmitTo(e jsonlite.Emitter) { f(e) }

func build(v jsonlite.Value) js.Value {
	var b Builder
	b.Reset()
	v.EmitTo(&b)
	return b.Value()
}

func TestBuilderMatchesTheJSONWriter(t *testing.T) {
	values := []jsonlite.Value{
		emitFunc(func(e jsonlite.Emitter) {
			e.BeginObject()
			e.Key("s")
			e.String("José \"x\" \u2028")
			e.Key("i")
			e.Int(-42)
			e.Key("f")
			e.Float(1.5)
			e.Key("t")
			e.Bool(true)
			e.Key("n")
			e.Null()
			e.Key("a")
			e.BeginArray()
			e.Int(1)
			e.BeginObject()
			e.EndObject()
			e.BeginArray()
			e.EndArray()
			e.String("")
			e.EndArray()
			e.Key("raw")
			e.Raw([]byte(`{"type":"object","properties":{"a":{"minimum":0.5}},"required":["a"],"x":[1,-2e3,true,null]}`))
			e.Key("rawnum")
			e.Raw([]byte("12.25"))
			e.EndObject()
		}),
		catalog.Catalog{},
		emitFunc(func(e jsonlite.Emitter) { e.String("top") }),
	}
	for _, v := range values {
		assert.JSONEq(t, string(jsonlite.Marshal(v)), stringify(build(v)))
	}
}

func TestBuilderRawInvalidBecomesNullInPlace(t *testing.T) {
	got := build(emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		e.Key("a")
		e.BeginArray()
		e.Int(1)
		e.Raw([]byte(`{"x":[1,`))
		e.Int(3)
		e.EndArray()
		e.Key("b")
		e.Raw([]byte(`{"k":`))
		e.Key("c")
		e.Raw([]byte("1.2.3"))
		e.EndObject()
	}))
	assert.Equal(t, `{"a":[1,null,3],"b":null,"c":null}`, stringify(got))
}

func TestBuilderNothingEmittedIsNull(t *testing.T) {
	var b Builder
	b.Reset()
	assert.True(t, b.Value().IsNull())
}

func eval(src string) js.Value {
	return js.Global().Get("Function").New("return (" + src + ")").Invoke()
}

func TestReadRequestShapes(t *testing.T) {
	cases := []struct {
		src     string
		fields  []form.Field
		parcels []form.Parcel
	}{
		{`{fields: {a: "x", b: 1.5, c: true, d: null, e: undefined}}`,
			[]form.Field{{Name: "a", Value: "x"}, {Name: "b", Value: "1.5"}, {Name: "c", Value: "1"}}, nil},
		{`{fields: [["z", "1"], ["a", 2e-7], ["z", "3"]]}`,
			[]form.Field{{Name: "z", Value: "3"}, {Name: "a", Value: "0.0000002"}}, nil},
		{`{dlvr_ref: "R", page: 2, parcels: [{parcel_weight: 1e21, parcel_width: "20"}]}`,
			[]form.Field{{Name: "dlvr_ref", Value: "R"}, {Name: "page", Value: "2"}},
			[]form.Parcel{{Weight: "1000000000000000000000", Width: "20"}}},
		{`{fields: {}, parcels: [{}, {parcel_volume: 0}]}`, nil, []form.Parcel{{}, {Volume: "0"}}},
	}
	for _, c := range cases {
		var r form.Request
		require.Equal(t, "", readRequest(eval(c.src), &r), c.src)
		assert.Equal(t, len(c.fields), len(r.Fields), c.src)
		if len(c.fields) > 0 {
			assert.Equal(t, c.fields, r.Fields, c.src)
		}
		assert.Equal(t, len(c.parcels), len(r.Parcels), c.src)
		if len(c.parcels) > 0 {
			assert.Equal(t, c.parcels, r.Parcels, c.src)
		}
	}
}

func TestReadRequestMisuse(t *testing.T) {
	cases := map[string]string{
		`"x"`:                                   "request must be an object",
		`{fields: "a=1"}`:                       "request.fields must be an object or an array",
		`{fields: [["a"]]}`:                     "request.fields[0] must be a [name, value] pair",
		`{fields: {a: {}}}`:                     "field a must be a string, a number or a boolean",
		`{parcels: {}}`:                         "request.parcels must be an array",
		`{parcels: [1]}`:                        "request.parcels[0] must be an object",
		`{parcels: [{parcel_weight: [1]}]}`:     "request.parcels[0].parcel_weight must be a string or a number",
		`{parcels: [{}, {parcel_colour: "x"}]}`: "request.parcels[1] has an unknown field parcel_colour",
	}
	for src, want := range cases {
		var r form.Request
		assert.Contains(t, readRequest(eval(src), &r), want, src)
	}
}
