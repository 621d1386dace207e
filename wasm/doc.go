// Command wasm is parcelgate's validation module: the core's validation,
// postal codes, form encoding, the operation catalog, tracking-code
// descriptions and postal-code locations compiled by TinyGo to a
// WebAssembly module with plain exports and no imports. The response
// decoder is a second module (wasm/decoder), loaded on first use.
//
// Build (see wasm/wasm.mk, `make wasm`):
//
//	tinygo build -target wasm-unknown -opt=z -no-debug -panic=trap -o build/wasm/parcelgate.wasm ./wasm
//
// A call is one WebAssembly function call: the loader (js/src/core.js)
// writes the request as one UTF-8 message into linear memory (pg_in gives
// the buffer), calls the export with its length, and reads one answer
// message from pg_out (format: wasm/internal/wire). There is no
// wasm_exec.js and no syscall/js: each js.Value crossing cost about 2 µs.
//
// The calls are declared once, in wasm/internal/seam (a named input and a
// named answer each): worker/core/gen writes their exports
// (exports_gen.go: pg_<name>(n) len, n the input's length in bytes; a
// negative result is a usage error, minus the length of its message, which
// is the answer), the dispatch (calls_gen.go: run<Name> reads the input,
// runs call<Name> of calls.go and writes the answer) and the loader's side
// (js/src/core.gen.js). Besides them:
//
//	pg_in(n) ptr              the input buffer, at least n bytes
//	pg_out() ptr              the last answer
//
// The module keeps no state between calls except its buffers; with
// TinyGo's leaking heap the loader swaps in a fresh instance when memory
// has grown past its limit.
package main
