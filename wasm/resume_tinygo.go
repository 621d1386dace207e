//go:build js && tinygo && scheduler.none

package main

import _ "unsafe" // for go:linkname

// handleEvent is syscall/js's dispatcher: it reads go._pendingEvent (set by
// wasm_exec.js's function wrappers), calls the js.Func and stores the
// result.
//
//go:linkname handleEvent syscall/js.handleEvent
func handleEvent() bool

// resume is what wasm_exec.js calls for every js.Func invocation. TinyGo's
// runtime only exports it with a scheduler; without one, events are
// handled right away (an export never blocks).
//
//export resume
func resume() { handleEvent() }
