// Command wasm is the edge core as a WebAssembly module for the worker's
// JavaScript (worker/src/core.mjs): TinyGo, -target target.json (TinyGo's
// wasm-unknown, a reactor with plain exports and no imports, plus bulk
// memory), -gc=leaking (a bump allocator: the smallest code; it never
// frees, so the wrapper renews the instance past a bound, core.mjs's
// RENEW_ABOVE), -panic=trap (there is no recover on wasm: the wrapper catches the trap
// and instantiates afresh). `make worker-core` builds
// build/worker/core.wasm.
//
// A call: the wrapper asks pg_in for an input buffer, writes the JSON of
// the input followed by its raw bytes, calls pg_call(method, jsonLength,
// rawLength) and reads the answer from pg_out: its JSON (the length
// pg_call returned) followed by its raw parts (up to pg_out_len), which
// the JSON's "$raw" member places. worker/core/seam declares the calls.
package main
