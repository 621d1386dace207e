package watch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/worker/webhooks"
)

// state is a watched shipment's record (Row.State).
type state struct {
	// Seen is how many history entries (oldest first) have been turned
	// into events; SeenKey is the last one's code and date, to notice a
	// history that changed under us.
	Seen    int    `json:"seen"`
	SeenKey string `json:"seen_key,omitempty"`
	// Code is the tracking_code of the last event queued ("" before the
	// first).
	Code string `json:"code,omitempty"`
	// Final: a final code was seen; no more polling.
	Final bool `json:"final,omitempty"`
	// CheckAt is when tracking is due to be polled (Unix ms; 0: now).
	CheckAt int64 `json:"check_at,omitempty"`
	// Errors counts failed polls in a row (for the log).
	Errors int `json:"errors,omitempty"`
	// Queue holds the events not yet delivered, oldest first.
	Queue []queued `json:"queue,omitempty"`
}

// queued is an event waiting for delivery.
type queued struct {
	ID       string            `json:"id"`
	Created  int64             `json:"created"` // Unix seconds
	Data     webhooks.Tracking `json:"data"`
	Attempts int               `json:"attempts,omitempty"`
	RetryAt  int64             `json:"retry_at,omitempty"` // Unix ms; 0: now
}

// event is the queued event as sent.
func (q *queued) event() *webhooks.Event {
	return &webhooks.Event{ID: q.ID, Type: webhooks.TypeTrackingUpdated, Created: time.Unix(q.Created, 0), Data: q.Data}
}

func loadState(s string) (state, bool) {
	var st state
	if s == "" {
		return st, true
	}
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		// A record that cannot be read starts over: events already sent
		// come again with their same ids, and receivers dedupe.
		return state{}, false
	}
	return st, true
}

func (st *state) encode() string {
	b, _ := json.Marshal(st) // plain data: cannot fail
	return string(b)
}

// eventID names the change found at history entry i (oldest first) of a
// shipment: the same change always gets the same id, across retries and
// runs, without storing anything.
func eventID(dlvrRef string, i int, code, date string) string {
	h := sha256.New()
	h.Write([]byte("parcelgate/webhook/v1\n" + dlvrRef + "\n" + strconv.Itoa(i) + "\n" + code + "\n" + date))
	return "evt_" + hex.EncodeToString(h.Sum(nil)[:12])
}

func entryKey(e *envelope.TrackingEvent) string { return e.TrackingCode + "|" + e.TrackingDate }

// oldestFirst is the shipment's history in time order, with the current
// state appended when the history does not carry it (the spec's examples
// show the current event both as the current state and in the history;
// a service that lists only past events must not hide the newest one).
func oldestFirst(t *envelope.ShipmentTracking) []envelope.TrackingEvent {
	h := t.TrackingHistory // newest first (envelope sorts it)
	out := make([]envelope.TrackingEvent, 0, len(h)+1)
	for i := len(h) - 1; i >= 0; i-- {
		out = append(out, h[i])
	}
	cur := t.TrackingEvent
	if cur.TrackingCode != "" && (len(out) == 0 ||
		(entryKey(&cur) != entryKey(&out[len(out)-1]) && cur.TrackingDate >= out[len(out)-1].TrackingDate)) {
		out = append(out, cur)
	}
	return out
}

// changes turns what the service answered into the events not queued
// yet: one per change of tracking_code after what the record has seen,
// in order, none after a final code. It updates the record.
func (st *state) changes(t *envelope.ShipmentTracking, dlvrRef, clientRef string, seen time.Time) []queued {
	evs := oldestFirst(t)
	start := 0
	switch {
	case st.Seen == 0:
	case st.Seen <= len(evs) && entryKey(&evs[st.Seen-1]) == st.SeenKey:
		start = st.Seen
	default:
		// The history changed under us (an entry corrected or removed):
		// continue after the last entry seen if it is still there, else
		// look at the current state only.
		start = len(evs) - 1
		for i := len(evs) - 1; i >= 0; i-- {
			if entryKey(&evs[i]) == st.SeenKey {
				start = i + 1
				break
			}
		}
		if start < 0 {
			start = 0
		}
	}
	var out []queued
	for i := start; i < len(evs) && !st.Final; i++ {
		e := &evs[i]
		if e.TrackingCode == "" || e.TrackingCode == st.Code {
			continue // not a change of tracking_code
		}
		desc, known := envelope.DescribeTracking(e.TrackingCode)
		name, category := e.TrackingName, envelope.CategoryUnknown
		if known {
			category = desc.Category
			if name == "" {
				name = desc.Label
			}
		}
		out = append(out, queued{
			ID:      eventID(dlvrRef, i, e.TrackingCode, e.TrackingDate),
			Created: seen.Unix(),
			Data: webhooks.Tracking{
				ShippingDlvrRef: dlvrRef, ShippingClientRef: clientRef,
				TrackingCode: e.TrackingCode, TrackingName: name, Category: category,
				Final: known && desc.Final, TrackingDate: e.TrackingDate, PreviousCode: st.Code,
			},
		})
		st.Code = e.TrackingCode
		st.Final = known && desc.Final
	}
	if len(evs) > 0 {
		st.Seen, st.SeenKey = len(evs), entryKey(&evs[len(evs)-1])
	}
	return out
}
