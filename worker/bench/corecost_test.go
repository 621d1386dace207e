//go:build !(js && wasm)

package main

import (
	"math"
	"testing"
)

// meanErr's standard error is the sample deviation over the square root
// of the count: corecost's ± column.
func TestMeanErr(t *testing.T) {
	m, e := meanErr([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	// sample variance 32/7, so the error is sqrt(32/7/8).
	if m != 5 || math.Abs(e-math.Sqrt(32.0/7/8)) > 1e-12 {
		t.Fatalf("meanErr = %v ± %v, want 5 ± %v", m, e, math.Sqrt(32.0/7/8))
	}
	if m, e := meanErr([]float64{3}); m != 3 || e != 0 {
		t.Fatalf("one turn: %v ± %v, want 3 ± 0", m, e)
	}
	if m, e := meanErr(nil); m != 0 || e != 0 {
		t.Fatalf("no turns: %v ± %v, want 0 ± 0", m, e)
	}
}
