package core

import (
	"fmt"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
)

// FuzzChanges polls a shipment whose history the input decides (its codes,
// then how much of it each poll shows, shrinking too, as a service that
// corrects its history would) and checks what the watcher queues: each
// event a change from the one before, its previous_code that one's code,
// nothing after a final code, one id per (code, date), and a record that
// survives its own encoding.
func FuzzChanges(f *testing.F) {
	f.Add([]byte{7, 0, 2, 4, 5, 7, 9, 10, 1, 3, 5, 7})
	f.Add([]byte{6, 0, 9, 11, 9, 9, 10, 6, 6, 2, 6})
	f.Add([]byte{5, 0, 12, 16, 27, 1, 5, 2, 5, 1, 5})
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 2 {
			return
		}
		n := int(in[0]%40) + 1
		if len(in) < 1+n {
			return
		}
		var timeline [][2]string
		for i := 0; i < n; i++ {
			code := fmt.Sprintf("%02d", int(in[1+i])%31) // 00 is not a known code
			timeline = append(timeline, [2]string{code, fmt.Sprintf("2026-11-23 %02d:%02d:00", i/60, i%60)})
		}
		var st watchState
		var got []queued
		ids := map[string]string{}
		for _, b := range in[1+n:] {
			shown := int(b) % (n + 1)
			tr := &envelope.ShipmentTracking{}
			for i := shown - 1; i >= 0; i-- {
				tr.TrackingHistory = append(tr.TrackingHistory, envelope.TrackingEvent{TrackingCode: timeline[i][0], TrackingDate: timeline[i][1]})
			}
			if shown > 0 {
				tr.TrackingEvent = tr.TrackingHistory[0]
			}
			wasFinal := st.Final
			evs := st.changes(tr, "R", "C", time.Unix(1795400000, 0))
			if wasFinal && len(evs) > 0 {
				t.Fatalf("events after the final state: %+v", evs)
			}
			got = append(got, evs...)
			back, ok := loadState(st.encode())
			if !ok || back.encode() != st.encode() {
				t.Fatalf("the record does not survive its encoding: %s", st.encode())
			}
		}
		prev := ""
		for i, e := range got {
			d := e.Data
			if d.TrackingCode == prev {
				t.Fatalf("event %d repeats code %s", i, prev)
			}
			if d.PreviousCode != prev {
				t.Fatalf("event %d: previous_code %q, the event before had %q", i, d.PreviousCode, prev)
			}
			if i > 0 && got[i-1].Data.Final {
				t.Fatalf("event %d follows a final event", i)
			}
			if key := d.TrackingCode + "|" + d.TrackingDate; ids[e.ID] != "" && ids[e.ID] != key {
				t.Fatalf("id %s names two changes: %s and %s", e.ID, ids[e.ID], key)
			} else {
				ids[e.ID] = key
			}
			prev = d.TrackingCode
		}
	})
}
