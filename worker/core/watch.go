package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/hexlite"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/worker/webhooks/wire"
)

// The tracking watcher's decisions, one leased shipment at a time (the
// run itself, its lease, budget, concurrency and commits, is
// worker/src/scheduled.mjs): what is due, what a poll found, what a
// delivery's outcome does to the queue, when the shipment is due next.
// The record is the JSON of worker/watch (the Go watcher, retired in
// issue 21), read and written with jsonlite, so records it wrote carry
// over.

// WatchRow is a watched shipment as the Watchlist object keeps it.
type WatchRow struct {
	Ref       string
	ClientRef string
	Added     int64 // booked, Unix ms
	NextAt    int64 // due, Unix ms
	Pending   int
	State     string
}

// watchState is a watched shipment's record.
type watchState struct {
	Seen    int
	SeenKey string
	Code    string
	Final   bool
	CheckAt int64 // Unix ms
	Errors  int
	Queue   []queued
}

// queued is an event waiting for delivery.
type queued struct {
	ID       string
	Created  int64 // Unix seconds
	Data     wire.Tracking
	Attempts int
	RetryAt  int64 // Unix ms
}

// loadState reads a record; one that cannot be read starts over (events
// already sent come again with their same ids, and receivers dedupe).
func loadState(s string) (watchState, bool) {
	var st watchState
	if s == "" {
		return st, true
	}
	sc := jsonlite.NewScannerString(s)
	err := sc.Object(func(k string) error {
		var err error
		switch k {
		case "seen":
			var n int64
			n, err = sc.Int()
			st.Seen = int(n)
		case "seen_key":
			st.SeenKey, err = sc.String()
		case "code":
			st.Code, err = sc.String()
		case "final":
			st.Final, err = sc.Bool()
		case "check_at":
			st.CheckAt, err = sc.Int()
		case "errors":
			var n int64
			n, err = sc.Int()
			st.Errors = int(n)
		case "queue":
			if sc.Peek() == jsonlite.Null {
				return sc.Null()
			}
			err = sc.Array(func(int) error {
				var q queued
				e := sc.Object(func(k string) error {
					var err error
					switch k {
					case "id":
						q.ID, err = sc.String()
					case "created":
						q.Created, err = sc.Int()
					case "attempts":
						var n int64
						n, err = sc.Int()
						q.Attempts = int(n)
					case "retry_at":
						q.RetryAt, err = sc.Int()
					case "data":
						err = readTracking(sc, &q.Data)
					default:
						err = sc.Skip()
					}
					return err
				})
				st.Queue = append(st.Queue, q)
				return e
			})
		default:
			err = sc.Skip()
		}
		return err
	})
	if err != nil {
		return watchState{}, false
	}
	return st, true
}

func readTracking(sc *jsonlite.Scanner, t *wire.Tracking) error {
	return sc.Object(func(k string) error {
		var err error
		switch k {
		case "shipping_dlvr_ref":
			t.ShippingDlvrRef, err = sc.String()
		case "shipping_client_ref":
			t.ShippingClientRef, err = sc.String()
		case "tracking_code":
			t.TrackingCode, err = sc.String()
		case "tracking_name":
			t.TrackingName, err = sc.String()
		case "category":
			t.Category, err = sc.String()
		case "final":
			t.Final, err = sc.Bool()
		case "tracking_date":
			t.TrackingDate, err = sc.String()
		case "previous_code":
			t.PreviousCode, err = sc.String()
		default:
			err = sc.Skip()
		}
		return err
	})
}

func writeTracking(w *jsonlite.Writer, t *wire.Tracking) {
	w.BeginObject()
	for _, kv := range [...][2]string{{"shipping_dlvr_ref", t.ShippingDlvrRef}, {"shipping_client_ref", t.ShippingClientRef},
		{"tracking_code", t.TrackingCode}, {"tracking_name", t.TrackingName}, {"category", t.Category}} {
		w.Key(kv[0])
		w.Raw(jsonString(kv[1]))
	}
	w.Key("final")
	w.Bool(t.Final)
	w.Key("tracking_date")
	w.Raw(jsonString(t.TrackingDate))
	w.Key("previous_code")
	w.Raw(jsonString(t.PreviousCode))
	w.EndObject()
}

// jsonString quotes s exactly as encoding/json does without HTML
// escaping (webhooks.Event.Marshal; since Go 1.22 it spells \b and \f
// short): receivers check signatures over these bytes, so one event has
// one spelling in Go and in the module (TestEventBodyIsWebhooksMarshal).
func jsonString(s string) []byte { return jsonlite.AppendStringAsGo(nil, s) }

// encode writes the record as worker/watch did (empty members omitted).
func (st *watchState) encode() string {
	w := jsonlite.NewWriter()
	w.BeginObject()
	w.Key("seen")
	w.Int(int64(st.Seen))
	if st.SeenKey != "" {
		w.Key("seen_key")
		w.String(st.SeenKey)
	}
	if st.Code != "" {
		w.Key("code")
		w.String(st.Code)
	}
	if st.Final {
		w.Key("final")
		w.Bool(true)
	}
	if st.CheckAt != 0 {
		w.Key("check_at")
		w.Int(st.CheckAt)
	}
	if st.Errors != 0 {
		w.Key("errors")
		w.Int(int64(st.Errors))
	}
	if len(st.Queue) > 0 {
		w.Key("queue")
		w.BeginArray()
		for i := range st.Queue {
			q := &st.Queue[i]
			w.BeginObject()
			w.Key("id")
			w.String(q.ID)
			w.Key("created")
			w.Int(q.Created)
			w.Key("data")
			writeTracking(w, &q.Data)
			if q.Attempts != 0 {
				w.Key("attempts")
				w.Int(int64(q.Attempts))
			}
			if q.RetryAt != 0 {
				w.Key("retry_at")
				w.Int(q.RetryAt)
			}
			w.EndObject()
		}
		w.EndArray()
	}
	w.EndObject()
	return string(w.Bytes())
}

// EventBody is an event's JSON body, as worker/webhooks.Event.Marshal
// writes it: members in the documented order, no HTML escaping, so one
// event always has one spelling.
func EventBody(q *queued) []byte {
	w := jsonlite.NewWriter()
	w.BeginObject()
	w.Key("id")
	w.String(q.ID)
	w.Key("type")
	w.String(wire.TypeTrackingUpdated)
	w.Key("created")
	w.String(rfc3339(q.Created))
	w.Key("data")
	writeTracking(w, &q.Data)
	w.EndObject()
	return w.Bytes()
}

// eventID names the change found at history entry i (oldest first) of a
// shipment: the same change always gets the same id.
func eventID(dlvrRef string, i int, code, date string) string {
	sum := hmacsha256.Sum([]byte("parcelgate/webhook/v1\n" + dlvrRef + "\n" + decimal.Itoa(i) + "\n" + code + "\n" + date))
	return "evt_" + hexlite.EncodeToString(sum[:12])
}

func entryKey(e *envelope.TrackingEvent) string { return e.TrackingCode + "|" + e.TrackingDate }

// oldestFirst is the shipment's history in time order, with the current
// state appended when the history does not carry it.
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
func (st *watchState) changes(t *envelope.ShipmentTracking, dlvrRef, clientRef string, seen time.Time) []queued {
	evs := oldestFirst(t)
	start := 0
	switch {
	case st.Seen == 0:
	case st.Seen <= len(evs) && entryKey(&evs[st.Seen-1]) == st.SeenKey:
		start = st.Seen
	default:
		// The history changed under us: continue after the last entry
		// seen if it is still there, else look at the current state only.
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
			Data: wire.Tracking{
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

// backoff is the wait after the n-th failed attempt of an event.
func backoff(n int) time.Duration {
	d := FirstRetry
	for i := 1; i < n && d < MaxRetry; i++ {
		d *= 2
	}
	if d > MaxRetry {
		d = MaxRetry
	}
	return d
}

func (e *Edge) webhookConfig() *WebhookConfig {
	if e.cfg.Webhooks != nil {
		return e.cfg.Webhooks
	}
	return &WebhookConfig{CheckEvery: DefaultCheckEvery, RetryFor: DefaultRetryFor, MaxAge: DefaultMaxAge}
}

// WatchOpen reads a leased shipment's record: whether its check is due.
func (e *Edge) WatchOpen(row *WatchRow, runAt int64) (record string, pollDue bool, pollBody []byte, unreadable bool) {
	st, ok := loadState(row.State)
	tooOld := runAt-row.Added >= e.webhookConfig().MaxAge.Milliseconds()
	q := &form.Request{}
	q.Set("dlvr_ref", row.Ref)
	return st.encode(), !st.Final && !tooOld && st.CheckAt <= runAt, form.Encode(q), !ok
}

// WatchNext is the first queued event if it is due: its body, and the
// signature at now (the receiver compares it with its clock).
func (e *Edge) WatchNext(record string, runAt int64, now time.Time) (id string, body []byte, signature string) {
	st, _ := loadState(record)
	if len(st.Queue) == 0 || st.Queue[0].RetryAt > runAt {
		return "", nil, ""
	}
	q := &st.Queue[0]
	body = EventBody(q)
	return q.ID, body, e.SignWebhook(body, now)
}

// WatchSent records a delivery attempt of the first queued event: taken
// off the queue when delivered, else retried with backoff, or dropped
// once older than WEBHOOK_RETRY_HOURS.
func (e *Edge) WatchSent(record, eventID string, delivered bool, runAt int64) (string, bool) {
	st, _ := loadState(record)
	if len(st.Queue) == 0 || st.Queue[0].ID != eventID {
		return st.encode(), false
	}
	if delivered {
		st.Queue = st.Queue[1:]
		return st.encode(), false
	}
	q := &st.Queue[0]
	q.Attempts++
	if runAt-q.Created*1000 >= e.webhookConfig().RetryFor.Milliseconds() {
		st.Queue = st.Queue[1:]
		return st.encode(), true
	}
	q.RetryAt = runAt + backoff(q.Attempts).Milliseconds()
	return st.encode(), false
}

// WatchTracked takes a poll's answer: the next check is scheduled, and
// each change found is queued (the oldest dropped past MaxQueue). The
// error names neither the shipment nor the upstream.
func (e *Edge) WatchTracked(record string, row *WatchRow, up *Upstream, runAt int64) (rec string, changes, dropped int, problem string) {
	st, _ := loadState(record)
	st.CheckAt = runAt + e.webhookConfig().CheckEvery.Milliseconds()
	switch {
	case up.Failure == FailTimeout:
		problem = "upstream timeout"
	case up.Failure != "":
		problem = "upstream unreachable"
	case e.leaks.Leaks(up.Body):
		problem = "upstream answer withheld: it contained the credentials"
	}
	var t envelope.ShipmentTracking
	if problem == "" {
		var err error
		t, err = envelope.DecodeShipmentTracking(up.Status, up.Body)
		if err != nil {
			if api, ok := err.(*envelope.APIError); ok {
				problem = "the service refused: errorCode " + decimal.Itoa(api.Code) + " (HTTP " + decimal.Itoa(up.Status) + ")"
			} else {
				problem = "unreadable answer (HTTP " + decimal.Itoa(up.Status) + ")"
			}
		}
	}
	if problem != "" {
		st.Errors++
		return st.encode(), 0, 0, problem
	}
	st.Errors = 0
	evs := st.changes(&t, row.Ref, row.ClientRef, time.UnixMilli(runAt))
	st.Queue = append(st.Queue, evs...)
	if n := len(st.Queue) - MaxQueue; n > 0 {
		dropped = n
		st.Queue = st.Queue[n:]
	}
	return st.encode(), len(evs), dropped, ""
}

// WatchClose ends the run's work on a shipment: removed when its final
// state was delivered or it is past the maximum age with nothing queued;
// otherwise the row to write back, due at its next check or retry. One
// the run did not touch keeps its place.
func (e *Edge) WatchClose(record string, row *WatchRow, runAt int64, touched, deferred bool) (out WatchRow, remove, finished, expired bool) {
	st, _ := loadState(record)
	tooOld := runAt-row.Added >= e.webhookConfig().MaxAge.Milliseconds()
	out = *row
	if len(st.Queue) == 0 && (st.Final || tooOld) {
		return out, true, st.Final, !st.Final
	}
	if !touched {
		return out, false, false, false
	}
	out.State = st.encode()
	out.Pending = len(st.Queue)
	if deferred {
		return out, false, false, false
	}
	next := int64(-1)
	if !st.Final && !tooOld {
		next = st.CheckAt
	}
	if len(st.Queue) > 0 && (next < 0 || st.Queue[0].RetryAt < next) {
		next = st.Queue[0].RetryAt
	}
	if next < runAt {
		next = runAt
	}
	out.NextAt = next
	return out, false, false, false
}
