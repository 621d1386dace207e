//go:build !(js && wasm)

package main

import (
	"errors"
	"testing"
)

// interleave gives every worker exactly count turns, one per round, and
// over many rounds every worker comes in every position, and after every
// other worker, about equally often: none has a place of its own.
func TestInterleaveFavoursNoWorker(t *testing.T) {
	const count = 3000
	for k := 2; k <= 6; k++ {
		var seq []int
		if err := interleave(k, count, func(w int) error { seq = append(seq, w); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(seq) != k*count {
			t.Fatalf("k=%d: %d turns, want %d", k, len(seq), k*count)
		}
		pos := make([][]int, k)   // pos[w][p]: rounds where w came p-th
		after := make([][]int, k) // after[a][b]: turns of b right after a
		for w := range pos {
			pos[w], after[w] = make([]int, k), make([]int, k)
		}
		for r := 0; r < count; r++ {
			seen := make([]bool, k)
			for p, w := range seq[r*k : (r+1)*k] {
				if seen[w] {
					t.Fatalf("k=%d: worker %d twice in round %d", k, w, r)
				}
				seen[w] = true
				pos[w][p]++
			}
		}
		for i := 1; i < len(seq); i++ {
			after[seq[i-1]][seq[i]]++
		}
		near := func(got int, want float64) bool { return float64(got) > 0.85*want && float64(got) < 1.15*want }
		for w := 0; w < k; w++ {
			for p := 0; p < k; p++ {
				if want := float64(count) / float64(k); !near(pos[w][p], want) {
					t.Errorf("k=%d: worker %d came %d-th %d times, want about %.0f", k, w, p, pos[w][p], want)
				}
			}
			for b := 0; b < k; b++ {
				// Within a round each of the k(k-1) ordered pairs is as
				// likely; across rounds each of the k*k pairs.
				want := float64(count-1) / float64(k*k)
				if b != w {
					want += float64(count) / float64(k)
				}
				if !near(after[w][b], want) {
					t.Errorf("k=%d: worker %d after %d %d times, want about %.0f", k, b, w, after[w][b], want)
				}
			}
		}
	}
}

// interleave stops at run's first error.
func TestInterleaveStopsAtAnError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	if err := interleave(3, 10, func(int) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("interleave went on after an error: %v after %d calls", err, n)
	}
}

// interleaveBlocks gives every worker exactly count turns in runs of block
// (the last one shorter), each worker once per round.
func TestInterleaveBlocks(t *testing.T) {
	for _, c := range []struct{ k, count, block int }{{2, 3000, 8}, {3, 10, 4}, {4, 7, 7}, {2, 5, 0}} {
		var seq []int
		if err := interleaveBlocks(c.k, c.count, c.block, func(w int) error { seq = append(seq, w); return nil }); err != nil {
			t.Fatal(err)
		}
		block := max(c.block, 1)
		got := make([]int, c.k)
		for i := 0; i < len(seq); {
			w, j := seq[i], i
			for j < len(seq) && seq[j] == w && j-i < block {
				j++
			}
			if want := min(block, c.count-got[w]); j-i != want {
				t.Fatalf("%+v: worker %d ran %d in a row at %d, want %d", c, w, j-i, i, want)
			}
			got[w] += j - i
			i = j
		}
		for w, n := range got {
			if n != c.count {
				t.Errorf("%+v: worker %d ran %d times, want %d", c, w, n, c.count)
			}
		}
	}
}
