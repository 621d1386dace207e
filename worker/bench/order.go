//go:build !(js && wasm)

package main

import "math/rand"

// The order of interleaved requests. Interleaving the workers (rather than
// one worker's requests after another's) lets load from elsewhere on the
// machine hit them alike; but what a request costs depends on what ran
// just before it and on how long ago its own process last ran (its code
// and data still in the caches the two cores share), so the order must not
// favour any worker:
//
//   - a fixed round (edge, variants, proxy, edge, ...) puts every worker
//     after the same neighbour every time, and only the edge listed first
//     after the proxy;
//   - a cycle through every ordered pair once (tried on the way here) balances
//     the neighbours but not the gaps: the two workers whose turns came in
//     bursts (every other request for a while, then a long wait) read
//     0.007-0.037 ms less per forwarded read than their identical twins
//     (worker/bench/EDGE_COST.md, "The bare part's order").
//
// So every round is a new random permutation of the workers (from a fixed
// seed, the same every run): each worker comes once per round, and in
// every position, after every other worker (and, across rounds, after
// itself) and at every gap equally often in expectation, none in a place
// of its own.

// orderSeed seeds interleave's permutations: fixed, so two runs of the
// bench send the same order.
const orderSeed = 32

// interleave calls run(w) count times for each of k workers, in rounds:
// each round one call per worker, in a random order drawn afresh from a
// source seeded with orderSeed. It stops at run's first error.
func interleave(k, count int, run func(w int) error) error {
	return interleaveBlocks(k, count, 1, run)
}

// interleaveBlocks is interleave with turns of block calls in a row (the
// last turn of each worker shorter when block does not divide count):
// with block > 1 most requests follow their own worker's, which measures
// each worker warm rather than after a random neighbour (-bare-block).
func interleaveBlocks(k, count, block int, run func(w int) error) error {
	if block < 1 {
		block = 1
	}
	rng := rand.New(rand.NewSource(orderSeed))
	for done := 0; done < count; done += block {
		m := min(block, count-done)
		for _, w := range rng.Perm(k) {
			for b := 0; b < m; b++ {
				if err := run(w); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
