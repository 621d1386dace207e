// Package seam declares the calls between the browser package's loader
// (js/src/core.js) and its two TinyGo modules, the validation module (wasm/)
// and the response decoder (wasm/decoder): the one source of that contract,
// as worker/core/seam is the edge's. worker/core/gen (run with -browser)
// reads this package and writes the readers and writers (wire_gen.go) with
// their round-trip tests (wire_gen_test.go), each module's exports and
// dispatch (wasm/calls_gen.go, wasm/exports_gen.go; wasm/decoder's) and the
// JavaScript side (js/src/core.gen.js: each call's packing of its named
// input and reading of its named answer).
// `make generate` runs it; `make check-generated` fails when any is stale.
//
// A call is a method of Calls (the validation module's) or DecoderCalls
// (the decoder's): one named input struct in, one named output
// struct out; the `json` tag is a member's JavaScript name. The wire is
// wasm/internal/wire's tokens, not JSON: the members travel in declaration
// order, so neither side writes an order by hand, and validation on each
// keystroke pays no JSON scanner (nor its kilobytes in the module). Kinds:
// string, bool ("1" or ""), int64, float64 (at most 4 decimals: the only
// floats are coordinates), a struct, a pointer to a struct and a list of
// structs (both last in their struct: they run to the end of the message;
// a nil pointer is nothing) and Request (the form request, last; its
// directive `seam:custom` says its codec is hand-written: wire.ReadRequest
// and wire.AppendRequest, the loader's packRequest in js/src/wire.js).
// The generated tests hold both sides to the same message of the same
// sample (wire_gen_test.go, js/test/seam.gen.test.mjs).
//
//go:generate go run ../../../worker/core/gen -browser
package seam
