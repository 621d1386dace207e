//go:build !tinygo

package main

import "os"

// main explains how to build the module (see wasm/main_other.go).
func main() {
	os.Stderr.WriteString("parcelgate/wasm/decoder: build with `tinygo build -target wasm-unknown` (see wasm/wasm.mk)\n")
	os.Exit(2)
}
