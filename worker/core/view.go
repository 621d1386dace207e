package core

import "unsafe"

// view is b as a string without a copy, for reading an answer's body in
// a call that does not keep the string nor write b while reading it
// (priceAnswer, SignAnswer, dataSource: each result they return is built
// by copying). A conversion copied the whole answer two or three times
// per rates request (issue 31's CPU with rules and offers). appendPriced
// also views the price it has just written, until the offer's payload
// has copied it (the appends after it write past those bytes).
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
