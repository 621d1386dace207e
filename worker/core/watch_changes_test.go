package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/parcelgate/parcelgate/internal/envelope"
)

func tracking(cur [2]string, hist ...[2]string) *envelope.ShipmentTracking {
	t := &envelope.ShipmentTracking{}
	t.TrackingCode, t.TrackingDate = cur[0], cur[1]
	for _, h := range hist {
		t.TrackingHistory = append(t.TrackingHistory, envelope.TrackingEvent{TrackingCode: h[0], TrackingDate: h[1]})
	}
	return t
}

func codesOf(q []queued) []string {
	var out []string
	for _, e := range q {
		out = append(out, e.Data.PreviousCode+">"+e.Data.TrackingCode)
	}
	return out
}

// The tracking change detection of worker/watch (changes_test.go,
// fuzz_test.go, watch_test.go's TestBackoff), retired with worker/edge
// (issue 21), on the core's copy that the JavaScript Cron run calls.

func TestChanges(t *testing.T) {
	seen := time.Unix(1795400000, 0)
	var st watchState
	// Newest first, as the service sends the history.
	q := st.changes(tracking([2]string{"05", "d3"}, [2]string{"05", "d3"}, [2]string{"03", "d2"}, [2]string{"01", "d1"}), "R", "C", seen)
	assert.Equal(t, []string{">01", "01>03", "03>05"}, codesOf(q))
	assert.Equal(t, "Picked up", q[2].Data.TrackingName, "the core's label when the service sends no name")
	assert.Equal(t, envelope.CategoryInTransit, q[2].Data.Category)
	assert.Equal(t, seen.Unix(), q[0].Created)

	// Nothing new: nothing queued.
	assert.Empty(t, st.changes(tracking([2]string{"05", "d3"}, [2]string{"05", "d3"}, [2]string{"03", "d2"}, [2]string{"01", "d1"}), "R", "C", seen))

	// The current state missing from the history still counts; the same
	// history entry always gets the same id.
	again := st
	q = st.changes(tracking([2]string{"06", "d4"}, [2]string{"05", "d3"}, [2]string{"03", "d2"}, [2]string{"01", "d1"}), "R", "C", seen)
	q2 := again.changes(tracking([2]string{"06", "d4"}, [2]string{"05", "d3"}, [2]string{"03", "d2"}, [2]string{"01", "d1"}), "R", "C", seen.Add(time.Hour))
	assert.Equal(t, []string{"05>06"}, codesOf(q))
	assert.Equal(t, q[0].ID, q2[0].ID)

	// A final code ends it: what follows is not sent.
	q = st.changes(tracking([2]string{"25", "d7"}, [2]string{"25", "d7"}, [2]string{"11", "d6"}, [2]string{"10", "d5"},
		[2]string{"06", "d4"}, [2]string{"05", "d3"}, [2]string{"03", "d2"}, [2]string{"01", "d1"}), "R", "C", seen)
	assert.Equal(t, []string{"06>10", "10>11"}, codesOf(q))
	assert.True(t, q[1].Data.Final)
	assert.True(t, st.Final)

	// A history rewritten under us: continue after the last entry seen.
	var st2 watchState
	st2.changes(tracking([2]string{"03", "d2"}, [2]string{"03", "d2"}, [2]string{"01", "d1"}), "R", "C", seen)
	q = st2.changes(tracking([2]string{"05", "d3"}, [2]string{"05", "d3"}, [2]string{"03", "d2"}), "R", "C", seen)
	assert.Equal(t, []string{"03>05"}, codesOf(q))

	// Unknown codes pass through with the unknown category.
	var st3 watchState
	q = st3.changes(tracking([2]string{"99", "d1"}), "R", "C", seen)
	assert.Equal(t, envelope.CategoryUnknown, q[0].Data.Category)
	assert.False(t, q[0].Data.Final)
}

func TestBackoff(t *testing.T) {
	assert.Equal(t, []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 32 * time.Minute, time.Hour, time.Hour},
		[]time.Duration{backoff(1), backoff(2), backoff(3), backoff(6), backoff(7), backoff(30)})
}
