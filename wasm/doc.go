// Command wasm is parcelgate's browser module: the core (validation, postal
// codes, the form codec, response decoding, tracking codes and the
// operation catalog) compiled to WebAssembly and exported to JavaScript
// through syscall/js.
//
// The shipped build is TinyGo:
//
//	tinygo build -target wasm -opt=z -no-debug -o build/wasm/parcelgate.wasm ./wasm
//	wasm-opt -Oz ...
//
// (see wasm/wasm.mk, `make wasm`); a standard-Go build works too:
//
//	GOOS=js GOARCH=wasm go build -o parcelgate-go.wasm ./wasm
//
// When started, the program hands an object with its exports to
// globalThis.__parcelgate_register(api) when the loader has set that
// function, and otherwise stores it as globalThis.parcelgate. The exports
// (all synchronous; the JavaScript package in js/ wraps them):
//
//	validate(op, request, options)        -> [{field, code, message}]
//	validateField(op, request, field, options) -> [{field, code, message}]
//	postal(country, input)                -> {valid, normalized, province, zone, message}
//	encode(op, request)                   -> "form body" (normalized, canonical order)
//	encodeForm(request)                   -> "form body" (as held: no normalization)
//	decode(op, httpStatus, body)          -> {ok: true, data} | {ok: false, error}
//	describeTracking(code)                -> {code, meaning, label, category, final} | null
//	catalog()                             -> the operation catalog
//
// A request is a plain object, either {fields, parcels} (fields an object
// or an array of [name, value] pairs; parcels an array of objects keyed by
// parcel_weight, parcel_width, ...) or flat ({name: value, ..., parcels}).
// Values may be strings, numbers (written with a point as the decimal
// separator and never in exponent form), booleans (1/0); null and
// undefined mean absent. Options are {rules: boolean, today: "YYYY-MM-DD"}.
//
// Misuse (an unknown operation, a request that is not an object) does not
// throw from Go: the export returns {__error: "message"} and the
// JavaScript wrapper throws a TypeError with it.
package main
