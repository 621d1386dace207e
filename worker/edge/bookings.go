package edge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Exactly-once bookings. The upstream has no idempotency key, so a
// retried new-shipment or new-collection books twice. The edge keeps a
// record per (API user, operation, client reference) in a Ledger (a
// Durable Object under workerd, one per key, so every request for a
// reference meets the same object wherever it arrives):
//
//   - The first request takes the record with a fingerprint of its
//     normalized body and is forwarded once.
//   - A concurrent duplicate waits for it (bounded) and gets its answer.
//   - A later duplicate with the same data gets the stored answer with
//     Idempotent-Replayed: true; with other data, 409 with errorCode 421.
//   - A refusal (an err envelope) releases the reference, so a corrected
//     request can go through.
//   - When the answer was lost (timeout, 5xx, dropped connection, not an
//     envelope) the record says so, and the next attempt first asks the
//     upstream whether the shipment exists (get-shipments filtered by the
//     client reference) and answers with it instead of booking again.
//     Collections cannot be looked up upstream: a lost collection answers
//     409 until the record expires, rather than risk a second pickup.
//
// Records expire after BookingRecordTTL.

// BookingRecordTTL is how long a booking's record is kept: a retry with
// the same client reference within it never books twice.
const BookingRecordTTL = 30 * 24 * time.Hour

// Booking states a Ledger reports to Begin's caller.
const (
	BookNew      = "new"      // the caller holds the record: forward
	BookLost     = "lost"     // the caller holds it, a previous answer was lost: look up first
	BookDone     = "done"     // answered before: body is the stored answer
	BookConflict = "conflict" // the reference was used with other data
	BookBusy     = "busy"     // another request holds it past the wait
)

// Booking outcomes the holder reports to Finish.
const (
	OutcomeOK      = "ok"      // booked: keep the answer
	OutcomeRelease = "release" // refused: forget the reference
	OutcomeLost    = "lost"    // unknown: the next attempt looks it up
)

// Ledger keeps the booking records.
type Ledger interface {
	// Begin takes or reads the record of key for a request with the
	// fingerprint; it waits up to wait while another request holds it.
	// A holder that never finishes loses the record after hold.
	Begin(ctx context.Context, key, fingerprint string, wait, hold time.Duration) (state string, body []byte, err error)
	// Finish ends the holder's turn with its outcome.
	Finish(ctx context.Context, key, fingerprint, outcome string, body []byte, ttl time.Duration) error
	// Peek reads a record without taking it: its state (BookDone,
	// BookLost, or "" for none) and the stored answer.
	Peek(ctx context.Context, key string) (state string, body []byte, err error)
}

// ErrNoLedger is a Ledger's answer when the platform has none configured
// (the BOOKINGS Durable Object binding is missing).
var ErrNoLedger = errors.New("no booking ledger configured")

// exactlyOnce reports whether bookings go through the ledger.
func (x *exchange) exactlyOnce(cfg *Config) bool {
	return x.h.d.Bookings != nil && cfg.ExactlyOnce
}

// bookingKey names the record of a booking: the API user, the upstream,
// the operation and the client reference.
func bookingKey(cfg *Config, op, ref string) string {
	base := cfg.UpstreamBase
	if base == "" {
		base = SandboxBaseURL
	}
	return cfg.APIUser + "\n" + base + "\n" + op + "\n" + ref
}

// bookedDlvrRef is the shipping_dlvr_ref of the shipment booked with a
// shipping_client_ref, from the booking record ("" when there is none).
func (x *exchange) bookedDlvrRef(cfg *Config, ref string) string {
	if !x.exactlyOnce(cfg) || ref == "" {
		return ""
	}
	state, body, err := x.h.d.Bookings.Peek(x.r.Context(), bookingKey(cfg, "new-shipment", ref))
	if err != nil || state != BookDone {
		return ""
	}
	_, data, reason := sniffEnvelope(body)
	if reason != "" {
		return ""
	}
	dlvr, _ := bookedRefs(data)
	return dlvr
}

// bookedRefs reads the references of a new-shipment answer's data ("" for
// one that is missing).
func bookedRefs(data []byte) (dlvr, client string) {
	s := jsonlite.NewScanner(data)
	_ = s.Object(func(k string) error {
		var err error
		switch k {
		case "shipping_dlvr_ref":
			dlvr, err = s.LooseString()
		case "shipping_client_ref":
			client, err = s.LooseString()
		default:
			err = s.Skip()
		}
		return err
	})
	return dlvr, client
}

// bookingRef is the client reference parameter of a booking operation
// (catalog.Policies' ClientRef).
func bookingRef(op *catalog.Operation) string {
	return catalog.PolicyOf(op.Name).ClientRef
}

// booked forwards a booking through the ledger.
func (x *exchange) booked(cfg *Config, op *catalog.Operation, req *form.Request, body []byte) {
	ledger := x.h.d.Bookings
	refField := bookingRef(op)
	ref := req.Get(refField)
	key := bookingKey(cfg, op.Name, ref)
	sum := sha256.Sum256(body)
	fp := hex.EncodeToString(sum[:])
	ctx := x.r.Context()
	hold := time.Duration(len(readBackoff)+1)*cfg.Timeout + 5*time.Second

	state, stored, err := ledger.Begin(ctx, key, fp, cfg.Timeout+2*time.Second, hold)
	switch {
	case errors.Is(err, ErrNoLedger):
		if cfg.UpstreamBase == "" {
			// The embedded sandbox answers a resent reference with the
			// first booking itself.
			x.forward(cfg, op, req, body)
			return
		}
		x.misconfigured([]ConfigError{{"BOOKINGS", "Durable Object binding is not configured: bookings against a real upstream need it (see worker/README.md, Deploy)"}})
		return
	case err != nil:
		x.fail(&edgeError{status: http.StatusServiceUnavailable, code: CodeUnavailable, class: "ledger_unavailable",
			message: "the booking ledger could not be reached; nothing was booked", retryable: 1})
		return
	}
	switch state {
	case BookDone:
		x.w.Header().Set("Idempotent-Replayed", "true")
		x.respond(http.StatusOK, stored)
		return
	case BookConflict:
		msg := refField + " " + strconv.Quote(ref) + " was already used for a booking with other data; use a new reference for a new booking"
		x.fail(&edgeError{status: http.StatusConflict, code: 421, class: "booking_conflict", message: refField + ": " + msg,
			fieldErrors: []validate.FieldError{{Field: refField, Code: 421, Message: msg}}})
		return
	case BookBusy:
		x.w.Header().Set("Retry-After", "2")
		x.fail(&edgeError{status: http.StatusServiceUnavailable, code: CodeUnavailable, class: "booking_in_progress",
			message: "a booking with this " + refField + " is still in progress; retry shortly to get its answer", retryable: 1})
		return
	case BookLost:
		if op.Name != "new-shipment" {
			_ = ledger.Finish(ctx, key, fp, OutcomeLost, nil, BookingRecordTTL)
			msg := "the answer to an earlier attempt with this " + refField + " was lost, and the service offers no way to look a collection up: check the customer area, then book with a new reference"
			x.fail(&edgeError{status: http.StatusConflict, code: 421, class: "booking_unknown", message: refField + ": " + msg,
				fieldErrors: []validate.FieldError{{Field: refField, Code: 421, Message: msg}}})
			return
		}
		found, err := x.lookupShipment(cfg, ref)
		if err != nil {
			_ = ledger.Finish(ctx, key, fp, OutcomeLost, nil, BookingRecordTTL)
			x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: "upstream_unreachable",
				message: "an earlier attempt's answer was lost and the upstream could not be asked whether it booked; nothing was sent", retryable: 1})
			return
		}
		if found != nil {
			_ = ledger.Finish(ctx, key, fp, OutcomeOK, found, BookingRecordTTL)
			if _, data, reason := sniffEnvelope(found); reason == "" {
				x.watchBooked(cfg, data)
			}
			x.w.Header().Set("Idempotent-Replayed", "true")
			x.respond(http.StatusOK, found)
			return
		}
	}
	a := x.exchangeOnce(cfg, op, body)
	// Booked only on a 2xx ok envelope the client may see; refused on an
	// err envelope below 500; anything else (no answer, 5xx, not an
	// envelope, an ok envelope under another status, an answer withheld
	// for carrying the credentials) may have booked: lost.
	outcome := OutcomeLost
	var keep []byte
	if a.err == nil && a.status < 500 && !leaksSecret(cfg, a.body) {
		switch st, _, reason := sniffEnvelope(a.body); {
		case reason != "":
		case st == "ok" && a.status >= 200 && a.status < 300:
			outcome, keep = OutcomeOK, a.body
		case st == "err":
			outcome = OutcomeRelease
		}
	}
	// Recorded before the client hears: a retry arriving right after the
	// answer finds the record.
	if err := ledger.Finish(ctx, key, fp, outcome, keep, BookingRecordTTL); err != nil {
		x.note = "booking ledger finish failed: " + clip(err.Error(), 100)
	}
	x.relay(cfg, op, req, &a)
}

// exchangeOnce sends one booking upstream (never retried).
func (x *exchange) exchangeOnce(cfg *Config, op *catalog.Operation, body []byte) attempt {
	doer, base, e := x.target(cfg)
	if e != nil {
		return attempt{err: errors.New(e.message)}
	}
	return x.call(cfg, doer, base+"/"+op.Name, body)
}

// lookupShipment asks the upstream for the shipment booked with ref and
// returns a new-shipment answer built from it, nil when there is none.
func (x *exchange) lookupShipment(cfg *Config, ref string) ([]byte, error) {
	doer, base, e := x.target(cfg)
	if e != nil {
		return nil, errors.New(e.message)
	}
	q := &form.Request{}
	q.Set("filter_shipping_client_ref", ref)
	q.Set("n_items", "50")
	a := x.call(cfg, doer, base+"/get-shipments", form.Encode(q))
	if a.err != nil || a.status >= 500 {
		return nil, errors.New("lookup failed")
	}
	st, data, reason := sniffEnvelope(a.body)
	if reason != "" || st != "ok" {
		return nil, errors.New("lookup refused")
	}
	return shipmentAnswer(data, ref), nil
}

// shipmentAnswer finds the shipment with the client reference in
// get-shipments' data and renders it as new-shipment's answer would.
func shipmentAnswer(data []byte, ref string) []byte {
	fields := []string{"shipping_dlvr_ref", "shipping_client_ref", "shipping_carrier_ref", "shipping_carrier_guid",
		"service_type", "carrier_code", "service_code", "carrier_phone"}
	var found map[string]string
	s := jsonlite.NewScanner(data)
	_ = s.Object(func(key string) error {
		if key != "shipments" || found != nil {
			return s.Skip()
		}
		return s.Array(func(int) error {
			var got map[string]string
			err := s.Object(func(k string) error {
				if k != "shipping_data" {
					return s.Skip()
				}
				got = map[string]string{}
				return s.Object(func(f string) error {
					v, err := s.LooseString()
					got[f] = v
					return err
				})
			})
			if found == nil && got != nil && got["shipping_client_ref"] == ref {
				found = got
			}
			return err
		})
	})
	if found == nil {
		return nil
	}
	body := okObject(func(w jsonlite.Emitter) {
		for _, f := range fields {
			w.Key(f)
			w.String(found[f])
		}
	})
	return body
}

// MemoryLedger is a Ledger in process memory: for the native server and
// tests (one process is one place). Records expire after their ttl.
type MemoryLedger struct {
	mu   sync.Mutex
	recs map[string]*memRecord
}

type memRecord struct {
	fp      string
	state   string // BookDone or BookLost when settled
	body    []byte
	expires time.Time
	holder  chan struct{} // closed when the holder finishes; nil when none
	held    time.Time     // when the holder took it
	hold    time.Duration
}

// NewMemoryLedger returns an empty ledger.
func NewMemoryLedger() *MemoryLedger { return &MemoryLedger{recs: map[string]*memRecord{}} }

// Begin implements Ledger.
func (l *MemoryLedger) Begin(ctx context.Context, key, fp string, wait, hold time.Duration) (string, []byte, error) {
	deadline := time.Now().Add(wait)
	for {
		l.mu.Lock()
		r := l.recs[key]
		now := time.Now()
		if r != nil && r.holder == nil && r.state != "" && now.After(r.expires) {
			delete(l.recs, key)
			r = nil
		}
		if r != nil && r.holder != nil && now.Sub(r.held) > r.hold {
			// The holder vanished (its instance died): its outcome is unknown.
			close(r.holder)
			r.holder, r.state = nil, BookLost
		}
		switch {
		case r == nil:
			l.recs[key] = &memRecord{fp: fp, holder: make(chan struct{}), held: now, hold: hold}
			l.mu.Unlock()
			return BookNew, nil, nil
		case r.fp != fp:
			l.mu.Unlock()
			return BookConflict, nil, nil
		case r.holder != nil:
			ch := r.holder
			l.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-time.After(time.Until(deadline)):
				return BookBusy, nil, nil
			case <-ctx.Done():
				return "", nil, ctx.Err()
			}
		case r.state == BookDone:
			l.mu.Unlock()
			return BookDone, r.body, nil
		default: // lost: the caller takes it and looks up first
			r.holder, r.held, r.hold = make(chan struct{}), now, hold
			l.mu.Unlock()
			return BookLost, nil, nil
		}
	}
}

// Peek implements Ledger.
func (l *MemoryLedger) Peek(_ context.Context, key string) (string, []byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.recs[key]
	if r == nil || r.state == "" || r.holder != nil || time.Now().After(r.expires) {
		return "", nil, nil
	}
	return r.state, r.body, nil
}

// Finish implements Ledger.
func (l *MemoryLedger) Finish(_ context.Context, key, fp, outcome string, body []byte, ttl time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.recs[key]
	if r == nil || r.fp != fp || r.holder == nil {
		return errors.New("not the holder")
	}
	close(r.holder)
	r.holder = nil
	switch outcome {
	case OutcomeOK:
		r.state, r.body = BookDone, body
	case OutcomeLost:
		r.state = BookLost
	default:
		delete(l.recs, key)
		return nil
	}
	r.expires = time.Now().Add(ttl)
	return nil
}
