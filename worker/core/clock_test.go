package core

import (
	"math/rand"
	"testing"
	"time"
)

func checkClock(t *testing.T, s int64) {
	t.Helper()
	tm := time.Unix(s, 0).UTC()
	if got, want := rfc3339(s), tm.Format(time.RFC3339); got != want {
		t.Fatalf("rfc3339(%d) = %q, time.Format %q", s, got, want)
	}
	if got, want := isoDate(s), tm.Format("2006-01-02"); got != want {
		t.Fatalf("isoDate(%d) = %q, time.Format %q", s, got, want)
	}
}

// rfc3339 and isoDate write exactly what time.Format writes: around the
// epoch, leap days and centuries, the four-digit year edges (year 0,
// negative years, 9999/10000) and random instants within ±10^13 s.
func TestClockMatchesTimeFormat(t *testing.T) {
	for _, s := range []int64{0, -1, 1, 59, 60, 86399, 86400, -86400, -86401,
		951782400, 951868799, 951868800, // 2000-02-29 (a leap century)
		4107542400, 4107628800, // 2100-03-01 (not a leap year)
		1700000000, 1764075600, 2147483647, 2147483648, -2147483648,
		-62135596800, -62135596801, -62167219200, -62167219201, // year 1, year 0, year -1
		253402300799, 253402300800, // 9999-12-31T23:59:59Z and 10000
		-377705116800, 1e13, -1e13} {
		checkClock(t, s)
	}
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 200000; i++ {
		checkClock(t, r.Int63n(2e13)-1e13)
		checkClock(t, r.Int63n(8e9)-1e9) // 1938-2223: the instants that occur
	}
	for d := int64(-800000); d <= 800000; d++ { // every day of years -220..4160
		checkClock(t, d*86400+d%86400)
	}
}

// unixOfMillis is time.UnixMilli(ms).Unix(), before 1970 too.
func TestUnixOfMillis(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for _, ms := range []int64{0, 1, 999, 1000, 1001, -1, -999, -1000, -1001, 1764075600123, -1764075600123} {
		if got, want := unixOfMillis(ms), time.UnixMilli(ms).Unix(); got != want {
			t.Fatalf("unixOfMillis(%d) = %d, want %d", ms, got, want)
		}
	}
	for i := 0; i < 100000; i++ {
		ms := r.Int63n(2e16) - 1e16
		if got, want := unixOfMillis(ms), time.UnixMilli(ms).Unix(); got != want {
			t.Fatalf("unixOfMillis(%d) = %d, want %d", ms, got, want)
		}
	}
}

// since is time.Time.Sub for instants without a monotonic reading: from
// milliseconds (the seam's), with nanoseconds, far apart and saturated.
func TestSinceIsSub(t *testing.T) {
	check := func(a, b time.Time) {
		t.Helper()
		if got, want := since(a, b), b.Sub(a); got != want {
			t.Fatalf("since(%v, %v) = %v, Sub %v", a, b, got, want)
		}
	}
	r := rand.New(rand.NewSource(32))
	for i := 0; i < 100000; i++ {
		a := time.UnixMilli(r.Int63n(4e12) - 1e12)
		b := time.UnixMilli(a.UnixMilli() + r.Int63n(2e9) - 1e9)
		check(a, b)
		check(b, a)
		check(time.Unix(a.Unix(), r.Int63n(1e9)), time.Unix(b.Unix(), r.Int63n(1e9)))
	}
	zero, now := time.Time{}, time.UnixMilli(1764075600123)
	check(zero, now) // saturated: year 1 is more than 292 years back
	check(now, zero)
	check(now, now)
	far := now.Add(200 * 365 * 24 * time.Hour)
	check(now, far)
	check(far, now)
}
