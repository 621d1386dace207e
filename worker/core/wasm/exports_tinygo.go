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
	calls = core.Calls{Trap: func() { panic("injected fault: trap") }}
	in    []byte
	out   []byte
)

//export pg_in
func pgIn(n int32) *byte {
	if int(n) > cap(in) {
		in = make([]byte, int(n)+int(n)/2)
	}
	return unsafe.SliceData(in[:cap(in)])
}

//export pg_call
func pgCall(method, headLen, rawLen int32) int32 {
	h, r := int(headLen), int(rawLen)
	if h < 0 || r < 0 || h+r > cap(in) {
		h, r = 0, 0
	}
	buf := in[:h+r]
	head, parts := calls.Call(int(method), buf[:h], buf[h:])
	out = append(out[:0], head...)
	for _, p := range parts {
		out = append(out, p...)
	}
	return int32(len(head))
}

//export pg_out
func pgOut() *byte { return unsafe.SliceData(out) }

//export pg_out_len
func pgOutLen() int32 { return int32(len(out)) }
