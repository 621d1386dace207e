package core

import (
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/worker/core/seam"
)

// Crossing is the module's side of a call: the buffer the JavaScript
// writes a call's message into (the input's JSON, then its raw part), and
// the answer it reads back: the answer's JSON, and each of its raw parts
// where it lies (the wasm exports, worker/core/wasm, are its methods; the
// native tests run the same code).
//
// An upstream answer can be most of the isolate's memory (a label of
// MaxUpstreamBody, a base64 PDF), so a body crosses without a copy of the
// module's: the message buffer is sized to the message, and a raw part is
// read where it is, in the message (a body relayed as the upstream sent
// it) or where the call built it (a normalized answer). The answers were
// once assembled into one buffer, JSON then parts: a copy of every body,
// in a buffer that TinyGo's append rounded up to the next power of two.
type Crossing struct {
	Calls Calls
	in    []byte // the message
}

// In returns a new buffer for a message of n bytes (its JSON, then its
// raw part), exactly its size, valid until the next In. Not kept for the
// next message: in the module every call's memory is taken back when the
// next begins (worker/core/wasm's arena), so a new buffer costs a pointer
// move.
func (x *Crossing) In(n int) []byte {
	x.in = make([]byte, max(n, 0))
	return x.in
}

// Run runs method on the message In's buffer holds (h bytes of JSON, then
// r raw bytes) and returns the answer's JSON and its raw parts (in the
// order of its "$raw" member), valid until the next In or Run.
func (x *Crossing) Run(method, h, r int) (head []byte, parts [][]byte) {
	if h < 0 || r < 0 || h > cap(x.in) || r > cap(x.in)-h {
		h, r = 0, 0
	}
	msg := x.in[:h+r]
	return x.Calls.Call(method, msg[:h], msg[h:])
}

// Forget drops the buffers a call may have allocated that the next call
// would otherwise reuse: the answer's writer and form's scratch. The module
// calls it before it takes back all the memory the last call allocated
// (worker/core/wasm's arena): what Configure made is kept, and nothing
// else is held across calls.
func (x *Crossing) Forget() {
	x.Calls.w = seam.Writer{}
	form.ForgetScratch()
}
