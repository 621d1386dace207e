//go:build !(js && wasm)

package main

import (
	"errors"
	"testing"
)

// Every ordered pair of distinct workers is adjacent exactly once in the
// cycle (with the wrap-around), so each worker follows every other equally
// often and never itself.
func TestCycleOrderVisitsEveryOrderedPairOnce(t *testing.T) {
	for k := 2; k <= 8; k++ {
		o := cycleOrder(k)
		if len(o) != k*(k-1) {
			t.Fatalf("k=%d: length %d, want %d", k, len(o), k*(k-1))
		}
		pairs := map[[2]int]int{}
		times := make([]int, k)
		for i, w := range o {
			times[w]++
			pairs[[2]int{w, o[(i+1)%len(o)]}]++
		}
		for a := 0; a < k; a++ {
			if times[a] != k-1 {
				t.Errorf("k=%d: worker %d appears %d times, want %d", k, a, times[a], k-1)
			}
			for b := 0; b < k; b++ {
				want := 1
				if a == b {
					want = 0
				}
				if pairs[[2]int{a, b}] != want {
					t.Errorf("k=%d: %d then %d %d times, want %d (%v)", k, a, b, pairs[[2]int{a, b}], want, o)
				}
			}
		}
	}
	if got := cycleOrder(1); len(got) != 1 || got[0] != 0 {
		t.Errorf("k=1: %v", got)
	}
}

// interleave gives every worker exactly count turns, even when count is
// not a multiple of the cycle's turns per worker, and stops at an error.
func TestInterleaveCountsAndStops(t *testing.T) {
	for _, c := range []struct{ k, count int }{{1, 5}, {2, 7}, {3, 3000}, {4, 10}, {5, 2}} {
		got := make([]int, c.k)
		prev, repeats := -1, 0
		err := interleave(c.k, c.count, func(w int) error {
			got[w]++
			if w == prev {
				repeats++
			}
			prev = w
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for w, n := range got {
			if n != c.count {
				t.Errorf("k=%d count=%d: worker %d ran %d times", c.k, c.count, w, n)
			}
		}
		if c.k > 1 && c.count%(c.k-1) == 0 && repeats != 0 {
			t.Errorf("k=%d count=%d: a worker followed itself %d times", c.k, c.count, repeats)
		}
	}
	stop := errors.New("stop")
	n := 0
	if err := interleave(3, 10, func(int) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("interleave went on after an error: %v after %d calls", err, n)
	}
}
