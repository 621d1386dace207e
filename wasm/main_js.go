//go:build js

package main

import (
	"syscall/js"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/geo"
	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Version is the module's version, exported as api.version.
const Version = "0.1.0"

// JavaScript constructors and helpers, looked up once in main.
var (
	jsObject  js.Value
	jsArray   js.Value
	jsKeys    js.Value // Object.keys
	jsIsArray js.Value // Array.isArray
)

// Scratch state reused across calls: exports run one at a time (JavaScript
// is single-threaded and they never block).
var (
	req     form.Request
	errsBuf []validate.FieldError
	builder Builder
)

// setup exports the API: it calls globalThis.__parcelgate_register(api)
// when the loader has set it, and otherwise sets globalThis.parcelgate.
// It runs from main (standard Go) or from init (the TinyGo reactor build,
// see start_tinygo.go).
func setup() {
	jsObject = js.Global().Get("Object")
	jsArray = js.Global().Get("Array")
	jsKeys = jsObject.Get("keys")
	jsIsArray = jsArray.Get("isArray")

	api := jsObject.New()
	api.Set("version", Version)
	export(api, "validate", jsValidate)
	export(api, "validateField", jsValidateField)
	export(api, "postal", jsPostal)
	export(api, "locate", jsLocate)
	export(api, "encode", jsEncode)
	export(api, "encodeForm", jsEncodeForm)
	export(api, "decode", jsDecode)
	export(api, "describeTracking", jsDescribeTracking)
	export(api, "catalog", jsCatalog)

	if reg := js.Global().Get("__parcelgate_register"); reg.Type() == js.TypeFunction {
		reg.Invoke(api)
	} else {
		js.Global().Set("parcelgate", api)
	}
}

func export(api js.Value, name string, fn func(args []js.Value) js.Value) {
	api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) any { return fn(args) }))
}

// usage returns the {__error: msg} marker the JavaScript wrapper throws.
func usage(msg string) js.Value {
	o := jsObject.New()
	o.Set("__error", msg)
	return o
}

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// operation reads the operation name argument.
func operation(v js.Value) (*catalog.Operation, string) {
	if v.Type() != js.TypeString {
		return nil, "operation must be a string such as \"new-shipment\""
	}
	name := v.String()
	op := catalog.Lookup(name)
	if op == nil {
		return nil, "unknown operation \"" + name + "\""
	}
	return op, ""
}

func options(v js.Value) validate.Options {
	var o validate.Options
	if v.Type() != js.TypeObject {
		return o
	}
	o.Rules = v.Get("rules").Truthy()
	if t := v.Get("today"); t.Type() == js.TypeString {
		o.Today = t.String()
	}
	return o
}

func fieldErrors(errs []validate.FieldError) js.Value {
	out := jsArray.New(len(errs))
	for i, e := range errs {
		o := jsObject.New()
		o.Set("field", e.Field)
		o.Set("code", e.Code)
		o.Set("message", e.Message)
		out.SetIndex(i, o)
	}
	return out
}

// jsValidate: validate(op, request, options) -> [{field, code, message}].
func jsValidate(args []js.Value) js.Value {
	op, msg := operation(arg(args, 0))
	if msg == "" {
		msg = readRequest(arg(args, 1), &req)
	}
	if msg != "" {
		return usage(msg)
	}
	errsBuf = validate.Request(op, &req, options(arg(args, 2)), errsBuf[:0])
	return fieldErrors(errsBuf)
}

// jsValidateField: validateField(op, request, field, options) -> the
// errors of that field in the context of the others.
func jsValidateField(args []js.Value) js.Value {
	op, msg := operation(arg(args, 0))
	if msg == "" {
		msg = readRequest(arg(args, 1), &req)
	}
	if msg == "" && arg(args, 2).Type() != js.TypeString {
		msg = "field must be a string"
	}
	if msg != "" {
		return usage(msg)
	}
	name := arg(args, 2).String()
	errsBuf = validate.Request(op, &req, options(arg(args, 3)), errsBuf[:0])
	n := 0
	for _, e := range errsBuf {
		if e.Field == name {
			errsBuf[n] = e
			n++
		}
	}
	return fieldErrors(errsBuf[:n])
}

// jsPostal: postal(country, input) -> {valid, normalized, province, zone,
// message}: postal.Check as it is. The country must be an uppercase ISO
// code (validate normalizes country fields; postal does not: "es" gets
// the generic rule, as in testdata/postal.json).
func jsPostal(args []js.Value) js.Value {
	c, in := arg(args, 0), arg(args, 1)
	if c.Type() != js.TypeString || in.Type() != js.TypeString {
		return usage("postal(country, input) takes two strings")
	}
	res, msg := postal.Check(c.String(), in.String())
	o := jsObject.New()
	o.Set("valid", msg == "")
	o.Set("normalized", res.Normalized)
	o.Set("province", res.Province)
	o.Set("zone", res.Zone.String())
	o.Set("message", msg)
	return o
}

// jsLocate: locate(country, zip) -> {city, lat, lon, precision} (precision
// "province" or "country"), or null when the location of that postal code
// is not known (geo.Locate).
func jsLocate(args []js.Value) js.Value {
	c, z := arg(args, 0), arg(args, 1)
	if c.Type() != js.TypeString || z.Type() != js.TypeString {
		return usage("locate(country, zip) takes two strings")
	}
	p, prec := geo.Locate(c.String(), z.String())
	if prec == geo.PrecisionUnknown {
		return js.Null()
	}
	o := jsObject.New()
	o.Set("city", p.City)
	o.Set("lat", p.Lat)
	o.Set("lon", p.Lon)
	o.Set("precision", prec.String())
	return o
}

// jsEncode: encode(op, request) -> the form body the edge forwards
// (values normalized, fields in catalog order, then parcels). It does not
// validate.
func jsEncode(args []js.Value) js.Value {
	op, msg := operation(arg(args, 0))
	if msg == "" {
		msg = readRequest(arg(args, 1), &req)
	}
	if msg != "" {
		return usage(msg)
	}
	validate.Normalize(op, &req)
	validate.Canonicalize(op, &req)
	return js.ValueOf(string(form.Encode(&req)))
}

// jsEncodeForm: encodeForm(request) -> the form body of the request as it
// is held: no operation, no normalization, fields in the given order.
func jsEncodeForm(args []js.Value) js.Value {
	if msg := readRequest(arg(args, 0), &req); msg != "" {
		return usage(msg)
	}
	return js.ValueOf(string(form.Encode(&req)))
}

// jsDecode: decode(op, httpStatus, body) -> {ok: true, data} or
// {ok: false, error: {type, class, message, description, ...}}.
func jsDecode(args []js.Value) js.Value {
	opv, st, body := arg(args, 0), arg(args, 1), arg(args, 2)
	if opv.Type() != js.TypeString || st.Type() != js.TypeNumber || body.Type() != js.TypeString {
		return usage("decode(operation, httpStatus, body) takes a string, a number and a string")
	}
	v, err := envelope.Decode(opv.String(), st.Int(), []byte(body.String()))
	out := jsObject.New()
	builder.Reset()
	if err == nil {
		v.EmitTo(&builder)
		out.Set("ok", true)
		out.Set("data", builder.Value())
		return out
	}
	var e js.Value
	switch err := err.(type) {
	case *envelope.APIError:
		err.EmitTo(&builder)
		e = builder.Value()
	case *envelope.UnexpectedResponse:
		err.EmitTo(&builder)
		e = builder.Value()
		e.Set("message", err.Error())
	case *envelope.ShapeError:
		err.EmitTo(&builder)
		e = builder.Value()
		e.Set("class", envelope.ClassUnexpectedResponse)
		e.Set("message", err.Error())
	case *envelope.UnknownOperationError:
		return usage(err.Error())
	default:
		e = jsObject.New()
		e.Set("type", "unexpected")
		e.Set("class", envelope.ClassUnexpectedResponse)
		e.Set("message", err.Error())
		e.Set("http_status", st.Int())
	}
	e.Set("description", err.Error())
	out.Set("ok", false)
	out.Set("error", e)
	return out
}

// jsDescribeTracking: describeTracking(code) -> {code, meaning, label,
// category, final} or null for a code outside 01-30.
func jsDescribeTracking(args []js.Value) js.Value {
	c := arg(args, 0)
	var s string
	switch c.Type() {
	case js.TypeString:
		s = c.String()
	case js.TypeNumber:
		s = formatNumber(c.Float())
	default:
		return js.Null()
	}
	tc, ok := envelope.DescribeTracking(s)
	if !ok {
		return js.Null()
	}
	o := jsObject.New()
	o.Set("code", tc.Code)
	o.Set("meaning", tc.Meaning)
	o.Set("label", tc.Label)
	o.Set("category", tc.Category)
	o.Set("final", tc.Final)
	return o
}

// jsCatalog: catalog() -> the operation catalog (catalog.Catalog).
func jsCatalog(args []js.Value) js.Value {
	builder.Reset()
	catalog.Catalog{}.EmitTo(&builder)
	return builder.Value()
}
