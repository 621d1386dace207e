//go:build !(js && wasm)

package main

// The order of interleaved requests. Interleaving the workers (rather than
// one worker's requests after another's) lets load from elsewhere on the
// machine hit them alike; but a fixed round (edge, variants, proxy, edge,
// ...) puts every worker after the same neighbour every time, and what a
// request costs depends on what ran just before it: a worker following
// an identical build (the same workerd code and V8 builtins, the same
// JavaScript paths, warm in the caches the processes share) read about
// 0.01-0.04 ms of CPU less per forwarded read than the same build
// following the JS proxy (worker/bench/EDGE_COST.md, "The bare part's
// order"). So the workers take turns along a cycle through every ordered
// pair of distinct workers once: each worker follows every other equally
// often, none follows itself, and none has a place of its own.

// cycleOrder is a cycle of length k(k-1) through 0..k-1 in which every
// ordered pair (a, b), a != b, is adjacent exactly once, counting the pair
// from the last element back to the first (an Eulerian circuit of the
// complete directed graph on k vertices, by Hierholzer's algorithm); each
// worker appears k-1 times. For k < 2 it is [0] or empty.
func cycleOrder(k int) []int {
	if k < 2 {
		return make([]int, k)
	}
	// next[v] is the next unused edge v -> next[v] (skipping v itself).
	next := make([]int, k)
	stack, circuit := []int{0}, make([]int, 0, k*(k-1)+1)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		if next[v] == v {
			next[v]++
		}
		if next[v] < k {
			stack = append(stack, next[v])
			next[v]++
			continue
		}
		circuit = append(circuit, v)
		stack = stack[:len(stack)-1]
	}
	// The circuit comes out reversed and closed (its first vertex again at
	// the end): reversed it is still a circuit of the complete graph.
	return circuit[:len(circuit)-1]
}

// interleave calls run(w) count times for each of k workers, in
// cycleOrder(k)'s order over and over; a worker that is done sits out the
// rest (only when count is not a multiple of k-1: at most k-2 requests
// out of place). It stops at run's first error.
func interleave(k, count int, run func(w int) error) error {
	order := cycleOrder(k)
	left := make([]int, k)
	for i := range left {
		left[i] = count
	}
	for rest := k * count; rest > 0; {
		for _, w := range order {
			if left[w] == 0 {
				continue
			}
			left[w]--
			rest--
			if err := run(w); err != nil {
				return err
			}
		}
	}
	return nil
}
