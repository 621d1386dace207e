//go:build tinygo

package main

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/worker/core"
)

// main is not called: the module is a reactor; the wrapper calls
// _initialize, then the exports.
func main() {}

var (
	crossing = core.Crossing{Calls: core.Calls{Trap: func() { panic("injected fault: trap") }}}
	head     []byte   // the last answer's JSON
	parts    [][]byte // and its raw parts, in the order of its "$raw"
)

//export pg_in
func pgIn(n int32) *byte {
	return unsafe.SliceData(crossing.In(int(n)))
}

//export pg_call
func pgCall(method, headLen, rawLen int32) int32 {
	head, parts = crossing.Run(int(method), int(headLen), int(rawLen))
	return int32(len(head))
}

//export pg_out
func pgOut() *byte { return unsafe.SliceData(head) }

// pg_part is the address of raw part i (the wrapper asks only for the
// parts "$raw" lists).
//
//export pg_part
func pgPart(i int32) *byte { return unsafe.SliceData(parts[i]) }
