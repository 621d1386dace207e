package envelope

import (
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// stableOrder is held to sort.SliceStable on lists with many equal keys,
// of every length up to 70 (runs of 1, 2, 4, ... and ragged ends).
func TestStableOrderMatchesSortStable(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n <= 70; n++ {
		for round := 0; round < 20; round++ {
			keys := make([]int, n)
			for i := range keys {
				keys[i] = r.Intn(1 + n/3)
			}
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			sort.SliceStable(want, func(a, b int) bool { return keys[want[a]] > keys[want[b]] })
			got := stableOrder(n, func(i, j int) bool { return keys[i] > keys[j] })
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d keys=%v: got %v, want %v", n, keys, got, want)
			}
		}
	}
}

// A tracking history is sorted newest first, stable for equal dates and
// with undated events last.
func TestTrackingHistoryOrder(t *testing.T) {
	tr := &Tracking{TrackingHistory: []TrackingEvent{
		{TrackingCode: "a", TrackingDate: "2026-01-01 10:00:00"},
		{TrackingCode: "b"},
		{TrackingCode: "c", TrackingDate: "2026-01-03 10:00:00"},
		{TrackingCode: "d", TrackingDate: "2026-01-01 10:00:00"},
		{TrackingCode: "e"},
	}}
	tr.afterDecode()
	var got []string
	for _, e := range tr.TrackingHistory {
		got = append(got, e.TrackingCode)
	}
	if want := []string{"c", "a", "d", "b", "e"}; !slices.Equal(got, want) {
		t.Fatalf("history order %v, want %v", got, want)
	}
	if tr.TrackingCode != "c" {
		t.Fatalf("current state %q, want the newest event c", tr.TrackingCode)
	}
}

// A carriers answer's codes are its keys in byte order.
func TestCarrierCodesSorted(t *testing.T) {
	c, err := DecodeCarriers(200, []byte(`{"status":"ok","data":{"ups":{"status":1},"dhl":{"status":1},"gls":{"status":1},"b":{"status":1},"a":{"status":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "dhl", "gls", "ups"}; !slices.Equal(c.Codes, want) {
		t.Fatalf("codes %v, want %v", c.Codes, want)
	}
}
