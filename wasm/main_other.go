//go:build !tinygo

package main

import "os"

// main explains how to build the module: only the TinyGo build exports
// the calls (standard Go's wasm needs wasm_exec.js and has no //export).
// The calls themselves are plain Go, tested natively.
func main() {
	os.Stderr.WriteString("parcelgate/wasm: build with `tinygo build -target wasm-unknown` (see wasm/wasm.mk)\n")
	os.Exit(2)
}
