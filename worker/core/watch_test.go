package core

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/webhooks"
)

// An event's body is byte for byte what worker/webhooks.Event.Marshal
// writes (receivers verify the signature over these bytes, and Go
// receivers use that package), whatever the text.
func TestEventBodyIsWebhooksMarshal(t *testing.T) {
	for _, name := range []string{"En reparto", "<b>&amp;</b>", "Zoë \"quoted\" \\ back", "line\nbreak\ttab\x01", "back\bspace\fform\x1f", "\u2028\u2029", "bad\xffutf8", ""} {
		q := queued{ID: "evt_1", Created: 1795348800, Data: webhooks.Tracking{ShippingDlvrRef: "D1", ShippingClientRef: "ORD-1",
			TrackingCode: "04", TrackingName: name, Category: "transit", TrackingDate: "2026-11-22 12:59:58", PreviousCode: "01"}}
		want, err := (&webhooks.Event{ID: q.ID, Type: webhooks.TypeTrackingUpdated, Created: time.Unix(q.Created, 0), Data: q.Data}).Marshal()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(EventBody(&q)), "%q", name)
	}
}

// A shipment's watch: a poll queues one event per change of
// tracking_code, the record survives its encoding, a failed delivery is
// retried with backoff, a delivered final state removes the shipment.
func TestWatchSteps(t *testing.T) {
	e := Configure(func(k string) (string, bool) {
		v, ok := map[string]string{"UPSTREAM_BASE_URL": "https://api.example.com/v1", "API_USER": "u", "API_KEY": "k-0123456789",
			"WEBHOOK_URL": "https://shop.example/hooks", "WEBHOOK_SECRET": strings.Repeat("s", 32)}[k]
		return v, ok
	}, Bindings{Watchlist: true})
	require.Empty(t, e.Problems())
	run := time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC).UnixMilli()
	row := &WatchRow{Ref: "D1", ClientRef: "ORD-1", Added: run - 3600e3, NextAt: run}
	rec, due, body, bad := e.WatchOpen(row, run)
	require.True(t, due)
	assert.False(t, bad)
	assert.Equal(t, "dlvr_ref=D1", string(body))
	tracking := `{"status":"ok","data":{"tracking_code":"04","tracking_date":"2026-11-22 12:00:00","tracking_history":[` +
		`{"tracking_code":"04","tracking_date":"2026-11-22 12:00:00"},{"tracking_code":"01","tracking_date":"2026-11-22 09:00:00"}]}}`
	rec, changes, dropped, problem := e.WatchTracked(rec, row, &Upstream{Status: 200, Body: []byte(tracking)}, run)
	require.Empty(t, problem)
	assert.Equal(t, 2, changes)
	assert.Zero(t, dropped)
	id, ev, sig := e.WatchNext(rec, run, time.Unix(1795348800, 0))
	require.NotEmpty(t, id)
	assert.Contains(t, string(ev), `"tracking_code":"01"`)
	_, err := webhooks.Verify(webhooks.Keys{[]byte(strings.Repeat("s", 32))}, ev, sig, time.Unix(1795348800, 0), 0)
	require.NoError(t, err)
	// Refused: retried a minute later, not dropped.
	rec2, dropped2 := e.WatchSent(rec, id, false, run)
	assert.False(t, dropped2)
	again, _, _ := e.WatchNext(rec2, run, time.Unix(1795348800, 0))
	assert.Empty(t, again, "not due before its retry")
	again, _, _ = e.WatchNext(rec2, run+FirstRetry.Milliseconds(), time.Unix(1795348800, 0))
	assert.Equal(t, id, again)
	// Delivered, both: the shipment is due at its next check.
	rec3, _ := e.WatchSent(rec2, id, true, run)
	id2, _, _ := e.WatchNext(rec3, run, time.Now())
	rec4, _ := e.WatchSent(rec3, id2, true, run)
	out, remove, _, _ := e.WatchClose(rec4, row, run, true, false)
	assert.False(t, remove)
	assert.Equal(t, run+DefaultCheckEvery.Milliseconds(), out.NextAt)
	assert.Zero(t, out.Pending)
	// A final state (17: delivered), delivered: removed as finished.
	final := `{"status":"ok","data":{"tracking_code":"17","tracking_date":"2026-11-22 14:00:00","tracking_history":[]}}`
	rec5, n, _, _ := e.WatchTracked(out.State, row, &Upstream{Status: 200, Body: []byte(final)}, run+1)
	assert.Equal(t, 1, n)
	id3, _, _ := e.WatchNext(rec5, run+1, time.Now())
	rec6, _ := e.WatchSent(rec5, id3, true, run+1)
	_, remove, finished, _ := e.WatchClose(rec6, row, run+1, true, false)
	assert.True(t, remove)
	assert.True(t, finished)
}
