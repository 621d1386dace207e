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
	// edge is the configured Edge the heap's mark was taken after (the
	// arena: arena_leaking.go).
	edge *core.Edge
)

// pg_in begins a call: the last call's answer has been read, so the
// memory it used is taken back (the arena), then the message's buffer is
// made.
//
//export pg_in
func pgIn(n int32) *byte {
	crossing.Forget()
	resetHeap()
	return unsafe.SliceData(crossing.In(int(n)))
}

//export pg_call
func pgCall(method, headLen, rawLen int32) int32 {
	head, parts = crossing.Run(int(method), int(headLen), int(rawLen))
	if e := crossing.Calls.Edge; e != edge {
		// Configured by this call (configure, or the first call of an
		// unconfigured module): what it made is kept from now on.
		edge = e
		markHeap()
	}
	return int32(len(head))
}

//export pg_out
func pgOut() *byte { return unsafe.SliceData(head) }

// pg_part is the address of raw part i (the wrapper asks only for the
// parts "$raw" lists).
//
//export pg_part
func pgPart(i int32) *byte { return unsafe.SliceData(parts[i]) }
