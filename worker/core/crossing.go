package core

import "unsafe"

// Crossing is the module's side of a call: the buffer the JavaScript
// writes a call's message into (the input's JSON, then its raw part) and
// the answer it reads back (the answer's JSON, then its raw parts). The
// wasm exports (worker/core/wasm) are its three methods; the native tests
// run the same code.
//
// An upstream answer can be most of the isolate's memory (a label of
// MaxUpstreamBody, a base64 PDF), so the crossing copies a body only where
// it must: the message buffer is sized to the message (no growth factor
// past SmallMessage), and an answer whose one raw part is a stretch of the
// message (a body relayed as the upstream sent it) is read in place: its
// JSON is written just before that stretch, into the headroom and the
// input's own JSON, which the call no longer needs. Any other answer is
// assembled once, in a buffer of its exact size.
type Crossing struct {
	Calls Calls
	in    []byte // Headroom bytes, then the message
	out   []byte // where answers are assembled (never in: in holds the next message)
	ans   []byte // the last answer: in out, or in place in in
}

// Headroom is kept before every message: with the input's JSON before a
// raw part, room for an answer's JSON in front of a part read in place
// (an answer's JSON is a few hundred bytes).
const Headroom = 1024

// SmallMessage: buffers for messages up to this size get half again as
// much room, so that a run of slightly larger calls does not allocate for
// each; larger ones get exactly their size.
const SmallMessage = 64 << 10

// In returns the buffer for a message of n bytes (its JSON, then its raw
// part), valid until the next In.
func (x *Crossing) In(n int) []byte {
	if n < 0 {
		n = 0
	}
	if n > cap(x.in)-Headroom {
		size := n
		if n <= SmallMessage {
			size += n / 2
		}
		x.in = make([]byte, Headroom+size)
	}
	return x.in[Headroom : Headroom+n]
}

// Run runs method on the message In's buffer holds (h bytes of JSON, then
// r raw bytes) and returns the answer (its JSON, then its raw parts) and
// the length of its JSON. The answer is valid until the next In or Run.
func (x *Crossing) Run(method, h, r int) (answer []byte, headLen int) {
	room := cap(x.in) - Headroom
	if h < 0 || r < 0 || h > room || r > room-h {
		h, r = 0, 0
	}
	var msg []byte
	if room >= 0 {
		msg = x.in[Headroom : Headroom+h+r]
	}
	head, parts := x.Calls.Call(method, msg[:h], msg[h:])
	if len(parts) == 1 {
		if at, ok := x.inPlace(parts[0], len(head)); ok {
			x.ans = x.in[at-len(head) : at+len(parts[0])]
			copy(x.ans, head)
			return x.ans, len(head)
		}
	}
	total := len(head)
	for _, p := range parts {
		total += len(p)
	}
	if total > cap(x.out) {
		size := total
		if total <= SmallMessage {
			size += total / 2
		}
		x.out = make([]byte, size)
	}
	x.ans = x.out[:total]
	at := copy(x.ans, head)
	for _, p := range parts {
		at += copy(x.ans[at:], p)
	}
	return x.ans, len(head)
}

// inPlace is the offset in x.in of part when it is a stretch of the
// message with room for n bytes before it.
func (x *Crossing) inPlace(part []byte, n int) (int, bool) {
	if len(part) == 0 || len(part) > cap(x.in) {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(x.in[:cap(x.in)])))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(part)))
	if p < base+uintptr(n) || p-base > uintptr(cap(x.in)-len(part)) {
		return 0, false // elsewhere, or no room for n bytes before it
	}
	return int(p - base), true
}
