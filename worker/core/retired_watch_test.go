package core

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/webhooks"
)

// worker/watch's watcher tests (watch_test.go), retired with worker/edge
// (issue 21), on the core's steps as worker/src's Cron run calls them
// (WatchOpen, WatchTracked, WatchNext, WatchSent, WatchClose). The run
// itself (leases, its budget, commits in chunks, its deadline) is
// worker/src's scheduled.mjs, tested beside it and under workerd
// (worker/e2e's webhooks tests).

// watchSim is a watchlist in memory, a service whose shipments show a
// growing part of their timelines, and a receiver.
type watchSim struct {
	t       *testing.T
	e       *Edge
	now     time.Time
	rows    map[string]*WatchRow
	tl      map[string][][2]string // ref -> timeline, oldest first
	shown   map[string]int         // how much of it the service shows
	pollErr bool
	fail    func() bool
	got     []map[string]any // delivered events
	posts   int
	postIDs []string
	polls   int
	errors  int
	dropped int
	expired int
}

func newWatchSim(t *testing.T, vars ...string) *watchSim {
	env := hardenEnv()
	env[EnvWebhookURL], env[EnvWebhookSecret] = "https://shop.example/hooks", strings.Repeat("s", 32)
	for i := 0; i+1 < len(vars); i += 2 {
		env[vars[i]] = vars[i+1]
	}
	e := Configure(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, Bindings{Watchlist: true})
	require.Empty(t, e.Problems())
	return &watchSim{t: t, e: e, now: time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC), rows: map[string]*WatchRow{},
		tl: map[string][][2]string{}, shown: map[string]int{}, fail: func() bool { return false }}
}

// book watches ref; the service shows one more entry of its timeline at
// each poll.
func (s *watchSim) book(ref string, timeline ...[2]string) {
	ms := s.now.UnixMilli()
	s.rows[ref] = &WatchRow{Ref: ref, ClientRef: "C-" + ref, Added: ms, NextAt: ms}
	s.tl[ref] = timeline
}

func (s *watchSim) tracking(ref string) *Upstream {
	s.polls++
	if s.pollErr {
		return &Upstream{Status: 503, Body: []byte("down")}
	}
	tl := s.tl[ref]
	n := s.shown[ref] + 1
	if n > len(tl) {
		n = len(tl)
	}
	s.shown[ref] = n
	var hist []string
	for i := n - 1; i >= 0; i-- {
		hist = append(hist, `{"tracking_code":"`+tl[i][0]+`","tracking_date":"`+tl[i][1]+`"}`)
	}
	cur := tl[n-1]
	return &Upstream{Status: 200, Body: []byte(`{"status":"ok","data":{"tracking_code":"` + cur[0] + `","tracking_date":"` + cur[1] +
		`","tracking_history":[` + strings.Join(hist, ",") + `]}}`)}
}

// run works on every due shipment once.
func (s *watchSim) run() (checked, changes int) {
	runAt := s.now.UnixMilli()
	for ref, row := range s.rows {
		if row.NextAt > runAt {
			continue
		}
		rec, due, body, bad := s.e.WatchOpen(row, runAt)
		assert.False(s.t, bad)
		touched := false
		if due {
			assert.Equal(s.t, "dlvr_ref="+ref, string(body))
			var n int
			var problem string
			rec, n, _, problem = s.e.WatchTracked(rec, row, s.tracking(ref), runAt)
			checked, changes, touched = checked+1, changes+n, true
			if problem != "" {
				s.errors++
			}
		}
		for {
			id, ev, sig := s.e.WatchNext(rec, runAt, s.now)
			if id == "" {
				break
			}
			require.NotEmpty(s.t, sig)
			touched = true
			s.posts++
			s.postIDs = append(s.postIDs, id)
			ok := !s.fail()
			if ok {
				var m map[string]any
				require.NoError(s.t, json.Unmarshal(ev, &m))
				s.got = append(s.got, m)
			}
			var dropped bool
			rec, dropped = s.e.WatchSent(rec, id, ok, runAt)
			if dropped {
				s.dropped++
			}
			if !ok && !dropped {
				break
			}
		}
		out, remove, _, expired := s.e.WatchClose(rec, row, runAt, touched, false)
		if expired {
			s.expired++
		}
		if remove {
			delete(s.rows, ref)
			continue
		}
		*row = out
	}
	return checked, changes
}

func (s *watchSim) codes() map[string][]string {
	out := map[string][]string{}
	for _, ev := range s.got {
		d := ev["data"].(map[string]any)
		out[d["shipping_dlvr_ref"].(string)] = append(out[d["shipping_dlvr_ref"].(string)], d["tracking_code"].(string))
	}
	return out
}

var deliveredTimeline = [][2]string{
	{"01", "2026-11-23 09:00:00"}, {"03", "2026-11-24 08:00:00"}, {"05", "2026-11-24 17:40:00"},
	{"06", "2026-11-24 19:40:00"}, {"08", "2026-11-24 21:40:00"}, {"10", "2026-11-25 08:41:00"},
	{"11", "2026-11-25 12:02:00"},
}

// Every change reaches the receiver once, in order, with the previous
// code; the final one says so, and nothing follows it.
func TestRunDeliversEveryChangeInOrderUntilFinal(t *testing.T) {
	s := newWatchSim(t)
	s.book("DLV-1", deliveredTimeline...)
	s.book("DLV-2", [][2]string{{"01", "2026-11-23 09:00:00"}, {"10", "2026-11-25 08:30:00"}, {"12", "2026-11-25 10:30:00"},
		{"10", "2026-11-26 08:30:00"}, {"10", "2026-11-26 09:00:00"}, {"11", "2026-11-26 11:00:00"}}...)
	for i := 0; i < 12; i++ {
		s.run()
		s.now = s.now.Add(DefaultCheckEvery)
	}
	got := s.codes()
	assert.Equal(t, []string{"01", "03", "05", "06", "08", "10", "11"}, got["DLV-1"])
	// 10 twice in a row is one state: one event, not two.
	assert.Equal(t, []string{"01", "10", "12", "10", "11"}, got["DLV-2"])
	prev := map[string]any{}
	ids := map[string]bool{}
	for _, ev := range s.got {
		d := ev["data"].(map[string]any)
		ref := d["shipping_dlvr_ref"].(string)
		if p, ok := prev[ref]; ok {
			assert.Equal(t, p, d["previous_code"], "previous_code chains the events")
		} else {
			assert.Empty(t, d["previous_code"])
		}
		prev[ref] = d["tracking_code"]
		assert.Equal(t, d["tracking_code"] == "11", d["final"] == true)
		assert.Equal(t, "C-"+ref, d["shipping_client_ref"])
		assert.Equal(t, webhooks.TypeTrackingUpdated, ev["type"])
		assert.False(t, ids[ev["id"].(string)], "ids are unique")
		ids[ev["id"].(string)] = true
	}
	assert.Empty(t, s.rows, "final shipments are no longer watched")
	polls := s.polls
	s.run()
	assert.Equal(t, polls, s.polls, "no poll after the final state")
}

// Several changes between two polls are each an event, in order.
func TestRunCatchesUpSeveralChangesInOnePoll(t *testing.T) {
	s := newWatchSim(t, EnvWebhookCheckMinutes, "180")
	s.book("DLV-1", deliveredTimeline...)
	s.run()                      // sees 01
	s.shown["DLV-1"] = 5         // 03, 05, 06, 08 happen meanwhile
	s.now = s.now.Add(time.Hour) // not due yet
	checked, _ := s.run()
	assert.Zero(t, checked)
	s.now = s.now.Add(2 * time.Hour) // due
	checked, changes := s.run()
	assert.Equal(t, 1, checked)
	assert.Equal(t, 5, changes) // 03 05 06 08 and the sixth, 10, now shown
	assert.Equal(t, []string{"01", "03", "05", "06", "08", "10"}, s.codes()["DLV-1"])
}

// A failing receiver gets the same event again after a backoff, and the
// later events wait behind it; after the retry period it is dropped and
// counted, and the next one goes out.
func TestRunRetriesTheSameEventThenDrops(t *testing.T) {
	s := newWatchSim(t, EnvWebhookRetryHours, "3")
	s.book("DLV-1", deliveredTimeline...)
	failing := true
	s.fail = func() bool { return failing }
	s.run()
	assert.Equal(t, 1, s.posts)
	s.now = s.now.Add(30 * time.Second) // within the first backoff (1 min)
	s.run()
	assert.Equal(t, 1, s.posts, "no attempt before the backoff")
	s.now = s.now.Add(FirstRetry)
	s.run()
	assert.Equal(t, 2, s.posts, "retried after the backoff")
	assert.Equal(t, s.postIDs[0], s.postIDs[1], "a retry carries the same id")
	failing = false
	s.now = s.now.Add(backoff(2))
	s.run()
	got := s.codes()["DLV-1"]
	require.NotEmpty(t, got)
	assert.Equal(t, "01", got[0], "the failed event goes first, then the rest in order")

	// Now a receiver that never recovers: dropped after the retry period.
	failing = true
	for i := 0; i < 40; i++ {
		s.now = s.now.Add(20 * time.Minute)
		s.run()
	}
	assert.Positive(t, s.dropped)
	assert.Empty(t, s.rows, "dropping the final event ends the watch")
}

func TestRunStopsAtTheMaximumAge(t *testing.T) {
	s := newWatchSim(t)
	s.book("DLV-1", deliveredTimeline[:3]...)
	s.run()
	s.now = s.now.Add(DefaultMaxAge)
	polls := s.polls
	checked, _ := s.run()
	assert.Zero(t, checked, "no poll past the maximum age")
	assert.Equal(t, polls, s.polls)
	assert.Equal(t, 1, s.expired)
	assert.Empty(t, s.rows)
}

// A failed poll is counted and tried again at the next check.
func TestRunPollFailure(t *testing.T) {
	s := newWatchSim(t)
	s.book("DLV-1", deliveredTimeline...)
	s.pollErr = true
	s.run()
	assert.Equal(t, 1, s.errors)
	assert.Empty(t, s.got)
	s.pollErr = false
	s.now = s.now.Add(time.Minute)
	checked, _ := s.run()
	assert.Zero(t, checked, "not before the next check")
	s.now = s.now.Add(DefaultCheckEvery)
	checked, _ = s.run()
	assert.Equal(t, 1, checked)
	assert.Equal(t, []string{"01"}, s.codes()["DLV-1"])
}
