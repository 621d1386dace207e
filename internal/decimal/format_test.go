package decimal

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// The writers give strconv's text for every int64: the edges, and random
// values of every length.
func TestFormatMatchesStrconv(t *testing.T) {
	check := func(n int64) {
		t.Helper()
		want := strconv.FormatInt(n, 10)
		if got := FormatInt(n); got != want {
			t.Fatalf("FormatInt(%d) = %q", n, got)
		}
		if got := string(AppendInt([]byte("x="), n)); got != "x="+want {
			t.Fatalf("AppendInt(x=, %d) = %q", n, got)
		}
		if int64(int(n)) == n {
			if got := Itoa(int(n)); got != want {
				t.Fatalf("Itoa(%d) = %q", n, got)
			}
		}
	}
	for _, n := range []int64{0, 1, -1, 9, 10, -10, 99, 100, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		check(n)
	}
	r := rand.New(rand.NewSource(32))
	for i := 0; i < 100000; i++ {
		n := r.Int63() >> uint(r.Intn(63))
		if r.Intn(2) == 0 {
			n = -n
		}
		check(n)
	}
}
