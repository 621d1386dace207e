//go:build !js

package main

import "os"

// main explains how to build the module: it only does something useful
// compiled for JavaScript (GOOS=js or tinygo -target wasm).
func main() {
	os.Stderr.WriteString("parcelgate/wasm: build with `tinygo build -target wasm` or GOOS=js GOARCH=wasm\n")
	os.Exit(2)
}
