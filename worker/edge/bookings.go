package edge

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/parcelgate/parcelgate/internal/booking"
	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Exactly-once bookings. The upstream has no idempotency key, so a
// retried new-shipment or new-collection books twice. The edge keeps a
// record per (API user, upstream, operation, client reference) in a Ledger
// (a Durable Object under workerd, one per key, so every request for a
// reference meets the same object wherever it arrives). The decisions are
// internal/booking's; a Ledger stores the records and applies them:
//
//   - The first request takes the record: a pending record with a
//     fingerprint of its normalized body and the time, written BEFORE the
//     booking is forwarded (once, never retried).
//   - A concurrent duplicate waits for it (bounded) and gets its answer.
//   - A later duplicate with the same data gets the stored answer with
//     Idempotent-Replayed: true; with other data, 409 with errorCode 421.
//   - A refusal (an err envelope) releases the reference, so a corrected
//     request can go through.
//   - When the answer was lost (timeout, 5xx, dropped connection, not an
//     envelope), or the holder vanished (a pending record nobody holds
//     after a restart, or a holder past its hold), the booking may exist,
//     and the upstream may still be committing it. For BOOKING_GRACE_SECONDS
//     from the send a resend never books: 425 with errorCode 1425 and
//     Retry-After. After it one resend takes the record and asks the
//     upstream (get-shipments filtered by the client reference): a shipment
//     whose data agrees with the request is the answer (the rule is
//     booking.Mismatches); one that disagrees is 409, never adopted; none
//     means it was never booked, and the booking is sent (the record's time
//     moves to that send first). Collections cannot be looked up upstream:
//     a lost collection answers 409 until the record expires, rather than
//     risk a second pickup.
//   - A holder whose turn was taken over (it outlived the grace) cannot
//     settle the record: Finish returns ErrNotHolder and the request's log
//     line says so whatever LOG_REQUESTS is.
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
	BookUnknown  = "unknown"  // a previous answer was lost, within the grace: send nothing
)

// Booking outcomes the holder reports to Finish (internal/booking's).
const (
	OutcomeOK      = booking.OutcomeOK      // booked: keep the answer
	OutcomeRelease = booking.OutcomeRelease // refused: forget the reference
	OutcomeLost    = booking.OutcomeLost    // sent, answer unknown: it may have booked
	OutcomeUnsent  = booking.OutcomeUnsent  // the holder sent nothing: the record goes back as it was
)

// BeginOptions bound a Begin.
type BeginOptions struct {
	Wait  time.Duration // how long to wait while another request holds the record
	Hold  time.Duration // a holder that never finishes is presumed gone after it
	Grace time.Duration // how long after a send whose answer was lost nothing is sent
	TTL   time.Duration // how long a record is kept
}

// Begun is a Ledger's answer to Begin.
type Begun struct {
	State      string        // one of the Book* states
	Body       []byte        // BookDone: the stored answer
	Holder     string        // BookNew, BookLost: the token of the caller's turn
	RetryAfter time.Duration // BookUnknown: the rest of the grace
}

// Ledger keeps the booking records.
type Ledger interface {
	// Begin takes or reads the record of key for a request with the
	// fingerprint, following booking.Decide; a record it hands out
	// (BookNew, BookLost) is stored as pending before it returns.
	Begin(ctx context.Context, key, fingerprint string, o BeginOptions) (Begun, error)
	// Sending moves the holder's record's time to now: it is about to
	// send the booking after a lookup found nothing.
	Sending(ctx context.Context, key, holder string) error
	// Finish ends the holder's turn with its outcome (booking.Settle);
	// ErrNotHolder when the caller no longer holds the record.
	Finish(ctx context.Context, key, holder, outcome string, body []byte, ttl time.Duration) error
	// Peek reads a record without taking it: its state (BookDone,
	// BookLost, or "" for none or one being booked) and the stored answer.
	Peek(ctx context.Context, key string) (state string, body []byte, err error)
}

// ErrNoLedger is a Ledger's answer when the platform has none configured
// (the BOOKINGS Durable Object binding is missing).
var ErrNoLedger = errors.New("no booking ledger configured")

// ErrNotHolder is Finish's and Sending's answer to a caller that no longer
// holds the record: another caller took it after the grace, or it was
// settled. Nothing was stored.
var ErrNotHolder = errors.New("the booking record is no longer held by this request")

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
	ctx := x.r.Context()
	// A holder looks up (lookupPages timeouts at most), then books (one
	// more).
	hold := time.Duration(lookupPages+1)*cfg.Timeout + 5*time.Second
	b, err := ledger.Begin(ctx, key, booking.Fingerprint(body),
		BeginOptions{Wait: cfg.Timeout + 2*time.Second, Hold: hold, Grace: cfg.BookingGrace, TTL: BookingRecordTTL})
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
	switch b.State {
	case BookDone:
		x.w.Header().Set("Idempotent-Replayed", "true")
		x.respond(http.StatusOK, b.Body)
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
	case BookUnknown:
		if op.Name != "new-shipment" {
			x.collectionUnknown(refField)
			return
		}
		secs := strconv.FormatInt(booking.RetryAfterSeconds(b.RetryAfter.Milliseconds()), 10)
		x.w.Header().Set("Retry-After", secs)
		x.fail(&edgeError{status: http.StatusTooEarly, code: CodeBookingUnconfirmed, class: "booking_unconfirmed", retryable: 1,
			message: "an earlier attempt with this " + refField + " may have booked the shipment, and the upstream may still be committing it; " +
				"nothing was sent. Resend the same request in " + secs + " s (Retry-After): the edge then looks the booking up and answers with it, " +
				"or books it if it is not there"})
		return
	case BookLost:
		if op.Name != "new-shipment" {
			x.finish(ledger, key, b.Holder, OutcomeUnsent, nil)
			x.collectionUnknown(refField)
			return
		}
		found, mismatch, err := x.lookupShipment(cfg, ref, req)
		switch {
		case errors.Is(err, errLookupIncomplete):
			// Asking again gets the same pages: not retryable.
			x.finish(ledger, key, b.Holder, OutcomeUnsent, nil)
			msg := "the answer to an earlier attempt with this " + refField + " was lost, and the upstream lists more than " +
				strconv.Itoa(lookupPages*booking.LookupPageSize) + " shipments for it, so the edge cannot tell whether it booked; nothing was sent: check the customer area, then book with a new reference"
			x.fail(&edgeError{status: http.StatusConflict, code: 421, class: "booking_unknown", message: refField + ": " + msg,
				fieldErrors: []validate.FieldError{{Field: refField, Code: 421, Message: msg}}})
			return
		case err != nil:
			x.finish(ledger, key, b.Holder, OutcomeUnsent, nil)
			x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: "upstream_unreachable",
				message: "an earlier attempt's answer was lost and the upstream could not be asked whether it booked; nothing was sent", retryable: 1})
			return
		case found != nil:
			x.finish(ledger, key, b.Holder, OutcomeOK, found)
			if _, data, reason := sniffEnvelope(found); reason == "" {
				x.watchBooked(cfg, data)
			}
			x.w.Header().Set("Idempotent-Replayed", "true")
			x.respond(http.StatusOK, found)
			return
		case mismatch != nil:
			// Someone else's booking, or this one's data changed: never
			// adopted. The record stays lost, so a resend asks again.
			x.finish(ledger, key, b.Holder, OutcomeUnsent, nil)
			msg := "the upstream holds a shipment booked with " + refField + " " + strconv.Quote(ref) + " " +
				booking.Differ(mismatch) + "; it is not this booking: check it in the customer area, and book with a new reference"
			x.fail(&edgeError{status: http.StatusConflict, code: 421, class: "booking_mismatch", message: refField + ": " + msg,
				fieldErrors: []validate.FieldError{{Field: refField, Code: 421, Message: msg}}})
			return
		}
		// Not there: it was never booked. The grace covers this send.
		if err := ledger.Sending(ctx, key, b.Holder); err != nil {
			x.ledgerTrouble("sending", err)
			x.fail(&edgeError{status: http.StatusServiceUnavailable, code: CodeUnavailable, class: "booking_in_progress",
				message: "another attempt with this " + refField + " took over its booking; nothing was sent: retry shortly to get its answer", retryable: 1})
			return
		}
	}
	sent := x.h.d.Now()
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
	x.finish(ledger, key, b.Holder, outcome, keep)
	if outcome == OutcomeLost && op.Name == "new-shipment" {
		left := sent.Add(cfg.BookingGrace).Sub(x.h.d.Now())
		x.w.Header().Set("Retry-After", strconv.FormatInt(booking.RetryAfterSeconds(left.Milliseconds()), 10))
	}
	x.relay(cfg, op, req, &a)
}

// finish settles the holder's record; a refusal is logged loudly.
func (x *exchange) finish(ledger Ledger, key, holder, outcome string, body []byte) {
	if err := ledger.Finish(x.r.Context(), key, holder, outcome, body, BookingRecordTTL); err != nil {
		x.ledgerTrouble("finish "+outcome, err)
	}
}

// ledgerTrouble puts a ledger call that failed on the request's log line,
// which is written whatever LOG_REQUESTS says: the record may not say what
// happened (no reference or key: the line carries none elsewhere either).
func (x *exchange) ledgerTrouble(call string, err error) {
	what := "booking ledger " + call + " failed: " + clip(err.Error(), 100)
	if errors.Is(err, ErrNotHolder) {
		what = "booking ledger refused " + call + ": this request no longer held the record (another attempt took it over after the grace)"
	}
	if x.note != "" {
		x.note += "; "
	}
	x.note += what
	x.alert = true
}

// collectionUnknown answers a resent collection whose first answer was lost.
func (x *exchange) collectionUnknown(refField string) {
	msg := "the answer to an earlier attempt with this " + refField + " was lost, and the service offers no way to look a collection up: check the customer area, then book with a new reference"
	x.fail(&edgeError{status: http.StatusConflict, code: 421, class: "booking_unknown", message: refField + ": " + msg,
		fieldErrors: []validate.FieldError{{Field: refField, Code: 421, Message: msg}}})
}

// exchangeOnce sends one booking upstream (never retried).
func (x *exchange) exchangeOnce(cfg *Config, op *catalog.Operation, body []byte) attempt {
	doer, base, e := x.target(cfg)
	if e != nil {
		return attempt{err: errors.New(e.message)}
	}
	return x.call(cfg, doer, base+"/"+op.Name, body)
}

// lookupPages bounds a lookup's get-shipments pages: the holder's hold
// covers lookupPages calls and the booking (see booked).
const lookupPages = 2

// lookupShipment asks the upstream for the shipment booked with ref: found
// is new-shipment's answer built from one whose data agrees with req;
// mismatch names the fields in which the one found disagrees; both empty
// when there is none. A lookup that read lookupPages full pages without a
// match is an error: the booking may be on a later page (the filter may
// match other references), so "not there" cannot be concluded.
func (x *exchange) lookupShipment(cfg *Config, ref string, req *form.Request) (found []byte, mismatch []string, err error) {
	doer, base, e := x.target(cfg)
	if e != nil {
		return nil, nil, errors.New(e.message)
	}
	for page := 1; page <= lookupPages; page++ {
		q := &form.Request{}
		q.Set("filter_shipping_client_ref", ref)
		q.Set("n_items", strconv.Itoa(booking.LookupPageSize))
		if page > 1 {
			q.Set("page", strconv.Itoa(page))
		}
		a := x.call(cfg, doer, base+"/get-shipments", form.Encode(q))
		if a.err != nil || a.status >= 500 || leaksSecret(cfg, a.body) {
			return nil, nil, errors.New("lookup failed")
		}
		list, err := envelope.DecodeShipments(a.status, a.body)
		if err != nil {
			return nil, nil, errors.New("lookup refused")
		}
		s, m := booking.Find(&list, ref, req)
		if s != nil {
			return booking.Answer(s), nil, nil
		}
		if mismatch == nil {
			mismatch = m
		}
		if !booking.Incomplete(&list) {
			return nil, mismatch, nil
		}
	}
	return nil, nil, errLookupIncomplete
}

// errLookupIncomplete: lookupPages full pages without the booking.
var errLookupIncomplete = errors.New("lookup incomplete")

// MemoryLedger is a Ledger in process memory: for the native server and
// tests (one process is one place). It applies internal/booking's rules
// like the Bookings Durable Object; its "storage" is the same map as its
// memory of live holders, which dropHolders separates for tests of a
// restart.
type MemoryLedger struct {
	// Now is the clock (time.Now when nil).
	Now func() time.Time

	mu   sync.Mutex
	recs map[string]*memEntry
	seq  int
}

type memEntry struct {
	rec   booking.Record
	live  chan struct{} // closed when the live holder's turn ends; nil when none
	until time.Time     // the live holder is presumed gone after it
}

// NewMemoryLedger returns an empty ledger.
func NewMemoryLedger() *MemoryLedger { return &MemoryLedger{recs: map[string]*memEntry{}} }

func (l *MemoryLedger) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// endTurn wakes the waiters of a live holder.
func (e *memEntry) endTurn() {
	if e.live != nil {
		close(e.live)
		e.live = nil
	}
}

// Begin implements Ledger.
func (l *MemoryLedger) Begin(ctx context.Context, key, fp string, o BeginOptions) (Begun, error) {
	deadline := time.Now().Add(o.Wait)
	for {
		l.mu.Lock()
		now := l.now()
		e := l.recs[key]
		var rec *booking.Record
		if e != nil {
			rec = &e.rec
			if e.live != nil && now.After(e.until) {
				// The holder vanished: its outcome is unknown.
				e.endTurn()
			}
		}
		v, after := booking.Decide(rec, fp, e != nil && e.live != nil, now.UnixMilli(), o.Grace.Milliseconds())
		switch v {
		case booking.Take, booking.Lookup:
			l.seq++
			holder := strconv.Itoa(l.seq)
			l.recs[key] = &memEntry{rec: booking.Taken(rec, fp, holder, now.UnixMilli(), o.TTL.Milliseconds()),
				live: make(chan struct{}), until: now.Add(o.Hold)}
			l.mu.Unlock()
			if v == booking.Lookup {
				return Begun{State: BookLost, Holder: holder}, nil
			}
			return Begun{State: BookNew, Holder: holder}, nil
		case booking.Wait:
			ch := e.live
			l.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-time.After(time.Until(deadline)):
				return Begun{State: BookBusy}, nil
			case <-ctx.Done():
				return Begun{}, ctx.Err()
			}
		case booking.Replay:
			body := e.rec.Body
			l.mu.Unlock()
			return Begun{State: BookDone, Body: body}, nil
		case booking.Unknown:
			l.mu.Unlock()
			return Begun{State: BookUnknown, RetryAfter: time.Duration(after) * time.Millisecond}, nil
		default:
			l.mu.Unlock()
			return Begun{State: BookConflict}, nil
		}
	}
}

// Sending implements Ledger.
func (l *MemoryLedger) Sending(_ context.Context, key, holder string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.recs[key]
	if e == nil {
		return ErrNotHolder
	}
	r, ok := booking.Sending(&e.rec, holder, l.now().UnixMilli())
	if !ok {
		return ErrNotHolder
	}
	e.rec = r
	return nil
}

// Finish implements Ledger.
func (l *MemoryLedger) Finish(_ context.Context, key, holder, outcome string, body []byte, ttl time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.recs[key]
	if e == nil {
		return ErrNotHolder
	}
	next, ok := booking.Settle(&e.rec, holder, outcome, body, l.now().UnixMilli(), ttl.Milliseconds())
	if !ok {
		return ErrNotHolder
	}
	e.endTurn()
	if next == nil {
		delete(l.recs, key)
	} else {
		e.rec = *next
	}
	return nil
}

// Peek implements Ledger.
func (l *MemoryLedger) Peek(_ context.Context, key string) (string, []byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.recs[key]
	if e == nil || booking.Expired(&e.rec, l.now().UnixMilli()) {
		return "", nil, nil
	}
	switch {
	case e.rec.State == booking.Done:
		return BookDone, e.rec.Body, nil
	case e.rec.State == booking.Lost, e.rec.State == booking.Pending && e.live == nil:
		return BookLost, nil, nil
	}
	return "", nil, nil
}

// dropHolders forgets the live holders and keeps the records: what a
// Durable Object's restart does to the Bookings object (tests).
func (l *MemoryLedger) dropHolders() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.recs {
		e.endTurn()
	}
}
