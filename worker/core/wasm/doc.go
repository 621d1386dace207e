// Command wasm is the edge core as a WebAssembly module for the worker's
// JavaScript (worker/src/core.mjs): TinyGo, -target target.json (TinyGo's
// wasm-unknown, a reactor with plain exports and no imports, plus bulk
// memory), -gc=leaking (a bump allocator: the smallest code), run as an
// arena: everything a call allocated is taken back when the next call
// begins (arena_leaking.go); the wrapper renews the instance after a call
// that grew memory past core.mjs's RENEW_ABOVE), -panic=trap (there is no recover on wasm: the wrapper catches the trap
// and instantiates afresh). `make worker-core` builds
// build/worker/core.wasm.
//
// A call: the wrapper asks pg_in for an input buffer, writes the JSON of
// the input followed by its raw bytes, calls pg_call(method, jsonLength,
// rawLength) and reads the answer: its JSON at pg_out (the length pg_call
// returned), and raw part i at pg_part(i), with the length and the place
// the JSON's "$raw" member gives it (each where the call left it: a body
// is never copied to sit after the JSON). worker/core/seam declares the
// calls.
package main
