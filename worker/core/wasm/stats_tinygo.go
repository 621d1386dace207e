//go:build tinygo && allocstats

package main

import "runtime"

// A measuring build only (-tags allocstats; never the upload): what the
// module has allocated so far, for worker/bench/core.mjs's bytes and
// allocations per read (worker/bench/CORE.md).

var ms runtime.MemStats

// pgStats returns the bytes allocated so far (which 0) or the number of
// allocations (1).
//
//export pg_stats
func pgStats(which int32) float64 {
	runtime.ReadMemStats(&ms)
	if which == 0 {
		return float64(ms.TotalAlloc)
	}
	return float64(ms.Mallocs)
}
