// Package allocated measures what a function allocates, for the tests that
// hold a call's memory to a bound (worker/core's memory tests, the key-leak
// scan's windows in internal/leak). Native Go only: TinyGo's leaking heap
// keeps no such count.
package allocated

import "runtime"

// Bytes is what f allocates, in bytes (runtime.MemStats.TotalAlloc over
// the call; other goroutines' allocations in that time count too, so the
// tests that use it run nothing beside f).
func Bytes(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}
