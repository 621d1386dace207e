//go:build tinygo

package main

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

// main is not called: the module is a reactor (-target wasm-unknown builds
// with -buildmode=c-shared); the loader calls _initialize, then exports.
func main() {}

//export pg_in
func pgIn(n int32) *byte { return unsafe.SliceData(wire.Input(int(n))) }

//export pg_out
func pgOut() *byte { return unsafe.SliceData(wire.Out()) }

//export pg_version
func pgVersion() int32 { return callVersion() }

//export pg_validate
func pgValidate(n int32) int32 { return callValidate(wire.Request(int(n))) }

//export pg_encode
func pgEncode(n, canon int32) int32 { return callEncode(wire.Request(int(n)), canon != 0) }

//export pg_postal
func pgPostal(n int32) int32 { return callPostal(wire.Request(int(n))) }

//export pg_locate
func pgLocate(n int32) int32 { return callLocate(wire.Request(int(n))) }

//export pg_describe
func pgDescribe(n int32) int32 { return callDescribe(wire.Request(int(n))) }

//export pg_catalog
func pgCatalog() int32 { return callCatalog() }
