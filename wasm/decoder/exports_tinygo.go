//go:build tinygo

package main

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

// main is not called (a reactor, like the validation module).
func main() {}

//export pg_in
func pgIn(n int32) *byte { return unsafe.SliceData(wire.Input(int(n))) }

//export pg_out
func pgOut() *byte { return unsafe.SliceData(wire.Out()) }

// The calls' exports are generated (exports_gen.go, from wasm/internal/seam's DecoderCalls).
