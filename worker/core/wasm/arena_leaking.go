//go:build tinygo && gc.leaking

package main

import "unsafe"

// The arena: TinyGo's leaking allocator hands out memory by moving one
// pointer up and never frees. The core keeps nothing across calls but what
// configure made (the Edge), so after configure the module marks where the
// heap ends, and before each later call it sets the pointer back to that
// mark: every call then runs in the same few kilobytes of memory, already
// in the CPU's caches, and the instance no longer grows by what each call
// leaves behind until the wrapper has to renew it (worker/bench/CORE.md,
// "The arena").
//
// Two rules make it sound. What a call allocated must not be reachable
// from anything kept (Crossing.Forget drops the buffers that were reused
// across calls; worker/src/core.test.mjs compares a long mix of every call
// with a fresh instance per call). And the memory handed out again must be
// zero, as a new allocation is: the leaking allocator does not clear what
// it hands out on wasm (fresh linear memory is zero), so the reset clears
// what the last call used.

// heapptr is the leaking allocator's pointer (runtime/gc_leaking.go). A
// TinyGo without that variable fails to link this module.
//
//go:extern runtime.heapptr
var heapptr uintptr

// mark is where the heap ended after the last configure; 0 before any.
var mark uintptr

// markHeap keeps everything allocated so far.
func markHeap() { mark = heapptr }

// resetHeap takes back everything allocated since the mark, cleared
// (nothing before the first mark).
func resetHeap() {
	if mark != 0 {
		clear(unsafe.Slice((*byte)(unsafe.Pointer(mark)), heapptr-mark))
		heapptr = mark
	}
}
