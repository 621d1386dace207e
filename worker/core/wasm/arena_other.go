//go:build tinygo && !gc.leaking

package main

// With a collector, memory comes back by collection: no arena
// (arena_leaking.go).

func markHeap() {}

func resetHeap() {}
