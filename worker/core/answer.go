package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/booking"
	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/substr"
)

// Failures of an upstream call the JavaScript reports.
const (
	FailTimeout     = "timeout"
	FailUnreachable = "unreachable"
	FailUnreadable  = "unreadable"
	FailTooLarge    = "too_large"
)

// Upstream is what came back from one upstream call, or why nothing did.
type Upstream struct {
	Status  int
	Body    []byte
	Failure string // "" when an answer was read
}

// Outcomes of a booking for its ledger record.
const (
	OutcomeOK      = "ok"      // booked: keep the answer
	OutcomeRefused = "refused" // refused: forget the reference
	OutcomeLost    = "lost"    // unknown: the next attempt looks it up
)

// WatchAdd is a booked shipment to put on the watchlist.
type WatchAdd struct{ DlvrRef, ClientRef string }

// Answered is the client's answer to an upstream reply.
type Answered struct {
	Response  *Response
	Outcome   string
	Cacheable bool
	Retry     bool
	Leak      bool
	Watch     *WatchAdd
	Note      string
}

// AnswerInput is what Answer decides from.
type AnswerInput struct {
	Context  AnswerContext
	Upstream *Upstream
	// RequestID goes into every envelope the edge writes itself.
	RequestID string
	// AcceptLanguage is the request's: the edge's own messages are in the
	// client's language.
	AcceptLanguage string
	Now            time.Time
	// SentAt is when a booking through the ledger was sent (zero
	// otherwise): a lost answer's Retry-After is the rest of its grace.
	SentAt time.Time
}

// Answer decides the client's answer from the upstream's.
func (e *Edge) Answer(in AnswerInput) *Answered {
	ctx, now, sentAt := in.Context, in.Now, in.SentAt
	a := e.answer(ctx, in.Upstream, in.RequestID, i18n.FromAcceptLanguage(in.AcceptLanguage))
	if a.Outcome == OutcomeLost && ctx.Ledger && lookedUp(ctx.Operation) && !sentAt.IsZero() {
		left := e.cfg.BookingGrace - since(sentAt, now) // sentAt+grace-now, without time.Time.Add or Sub
		a.Response.Headers = append(a.Response.Headers, Header{"Retry-After", decimal.FormatInt(retryAfterSeconds(left.Milliseconds()))})
	}
	return a
}

func (e *Edge) answer(ctx AnswerContext, up *Upstream, requestID string, l i18n.Locale) *Answered {
	a := &Answered{Outcome: OutcomeLost}
	books := ctx.ClientRef != "" || isBooking(ctx.Operation)
	retry := 1
	hint := ""
	if books {
		// A resend is safe only where the records make bookings exactly-once.
		if !ctx.Ledger {
			retry = 2
		}
		hint = e.bookingHint(ctx, l)
	}
	// fail answers with a 502 (or status) about the upstream's answer.
	fail := func(status int, class, msg string, data []byte) *Answered {
		r := refuse(status, class, msg)
		r.UpstreamStatus, r.UpstreamData, r.Retryable, r.Hint = up.Status, data, retry, hint
		a.Response = r.Response(requestID)
		return a
	}
	if up.Failure != "" {
		a.Retry = !books && up.Failure != FailTimeout
		if up.Failure == FailTimeout {
			return fail(504, "upstream_timeout", say(l, msgUpstreamTimeout, decimal.FormatInt(e.timeout().Milliseconds())), nil)
		}
		a.Note = "upstream " + up.Failure
		// A fixed message: the platform's error names the upstream's URL.
		msg := say(l, msgUpstreamUnreachable)
		if up.Status != 0 {
			msg = say(l, msgUpstreamUnreadable, decimal.Itoa(up.Status))
		}
		return fail(502, "upstream_unreachable", msg, nil)
	}
	st := decimal.Itoa(up.Status)
	a.Retry = !books && up.Status >= 500
	if e.leaks.Leaks(up.Body) {
		// Never relay the merchant's credentials, whatever the upstream
		// (or something between) echoed: not the body, not its data.
		a.Leak = true
		return fail(502, "upstream_leak", say(l, msgUpstreamLeak, st), nil)
	}
	status, data, reason := sniffEnvelope(up.Body)
	if reason == "" && status == "err" && up.Status < 500 {
		a.Outcome = OutcomeRefused
	}
	if status == "ok" && (up.Status < 200 || up.Status >= 300) && reason == "" {
		// An ok envelope under an error status is not a success: a 5xx
		// may or may not have done the work.
		return fail(502, "upstream_error", say(l, msgUpstreamOkOnError, st), data)
	}
	switch {
	case reason != "":
		class := "upstream_bad_response"
		if up.Status >= 500 {
			class = "upstream_error"
		}
		return fail(502, class, say(l, msgUpstreamNotEnvelope, st, reason), nil)
	case status == "ok":
		a.Outcome, a.Cacheable = OutcomeOK, true
		if e.watched(ctx.Operation) {
			a.Watch, a.Note = watchOf(data)
		}
		a.Response = ok(up.Body, "forwarded")
		return a
	case up.Status == 401 || up.Status == 403 || up.Status == 407:
		// No upstream data: an auth failure's details are for the
		// merchant's logs, not for whoever called.
		retry, hint = 0, ""
		return fail(502, "upstream_auth", say(l, msgUpstreamAuth, st), nil)
	case up.Status >= 500:
		return fail(502, "upstream_error", say(l, msgUpstreamFailed, st, upstreamMessage(data)), data)
	}
	// A refusal by the service (status "err"): relayed as is, with the
	// upstream's status (200 when it used a 1xx/3xx one).
	code := up.Status
	if code < 200 || code >= 300 && code < 400 {
		code = 200
	}
	a.Response = &Response{Status: code, Headers: withType(nil), Body: up.Body, Class: "upstream_refused"}
	return a
}

func isBooking(op string) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.ClientRef != ""
}

// lookedUp: a booking of op whose answer was lost is looked up (its
// policy's Lookup) after its grace, rather than left for the client to
// check.
func lookedUp(op string) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.Lookup != ""
}

func watchOf(data []byte) (*WatchAdd, string) {
	dlvr, client := bookedRefs(data)
	if dlvr == "" {
		return nil, "booked shipment not watched: no shipping_dlvr_ref in the answer"
	}
	return &WatchAdd{DlvrRef: dlvr, ClientRef: client}, ""
}

// bookingHint tells the client what to do when a booking's answer was
// lost: it may have been made. What is safe depends on the mode.
func (e *Edge) bookingHint(ctx AnswerContext, l i18n.Locale) string {
	ref := "shipping_client_ref"
	if p := catalog.PolicyOf(ctx.Operation); p != nil && p.ClientRef != "" {
		ref = p.ClientRef
	}
	if ctx.Ledger {
		if !lookedUp(ctx.Operation) {
			return say(l, msgHintCollection, ref)
		}
		return say(l, msgHintShipment, ref, decimal.FormatInt(int64(e.cfg.BookingGrace/time.Second)))
	}
	if e.cfg.Sandbox {
		return say(l, msgHintSandbox, ref)
	}
	if lookedUp(ctx.Operation) {
		return say(l, msgHintLookUp, ctx.ClientRef)
	}
	return say(l, msgHintCheckArea)
}

// upstreamMessage formats the upstream's errorCode/errorMessage, if any.
func upstreamMessage(data []byte) string {
	if data == nil {
		return ""
	}
	d, _ := envelope.ParseErrorData(data) // what could be read
	msg := d.Message
	if msg == "" {
		msg = d.AltMessage
	}
	code := ""
	if d.Code != 0 {
		code = decimal.Itoa(d.Code)
	}
	switch {
	case code != "" && msg != "":
		return ": " + code + " " + clip(msg, 200)
	case msg != "":
		return ": " + clip(msg, 200)
	case code != "":
		return ": error " + code
	}
	return ""
}

// sniffEnvelope checks that body is a {status, data} envelope and returns
// its status and the raw JSON of data; reason says what came instead.
// Both are body's own bytes (an answer can be megabytes: a label), so
// they are read within the call, never kept.
func sniffEnvelope(body []byte) (status string, data []byte, reason string) {
	env, err := envelope.OpenInPlace(0, body)
	if err != nil {
		if u, ok := err.(*envelope.UnexpectedResponse); ok {
			return "", nil, u.Reason
		}
		return "", nil, "malformed JSON"
	}
	if env.Data == nil {
		return "", nil, "JSON without data"
	}
	return env.Status, env.Data, ""
}

// Booking states the Bookings object's begin reports (internal/booking's
// verdicts, as the object applies them to its record).
const (
	BookNew      = "new"      // taken: forward
	BookLost     = "lost"     // taken after a lost answer, past its grace: look up first
	BookDone     = "done"     // booked: the stored answer
	BookConflict = "conflict" // the reference was used with other data
	BookBusy     = "busy"     // a live holder has it past the wait
	BookUnknown  = "unknown"  // lost, within its grace: send nothing
)

// CodeBookingUnconfirmed: a resend within the grace of a lost answer.
const CodeBookingUnconfirmed = 1425

// OutcomeUnsent: the holder sent no booking (a lookup failed or found
// another booking's data): the record goes back to what it was.
const OutcomeUnsent = "unsent"

// Finish is what to write to the ledger record.
type Finish struct {
	Outcome string
	Body    []byte
}

// Step is the decision about a booking after the ledger or a lookup.
type Step struct {
	Kind     string // KindForward, KindRespond or KindLookup
	Response *Response
	Finish   *Finish
	Watch    *WatchAdd
	// KindForward after a lookup: mark the record as sent again (the
	// Bookings object's sending) before forwarding; if that fails, answer
	// Failure "booking_taken_over".
	Sending bool
	// KindLookup: what to POST, and where.
	Operation  string
	LookupBody []byte
}

func (e *Edge) collectionUnknown(t *Ticket, requestID string, l i18n.Locale) *Response {
	return refRefusal(t, "booking_unknown", say(l, msgCollectionUnknown, t.RefField), requestID)
}

// refRefusal is a booking's 409 (errorCode 421) about its reference:
// msg, in the client's language, once for the whole answer (after the
// field's name, which is never translated) and once for the field.
func refRefusal(t *Ticket, class, msg, requestID string) *Response {
	return fieldRefusal(409, 421, class, t.RefField, msg).Response(requestID)
}

// differ says, in locale l, why found shipments were not adopted:
// booking.Find's mismatch, a list of field names and "status".
func differ(l i18n.Locale, mismatch []string) string {
	fields := make([]string, 0, len(mismatch))
	status := false
	for _, f := range mismatch {
		if f == "status" {
			status = true
			continue
		}
		fields = append(fields, f)
	}
	switch {
	case status && len(fields) == 0:
		return say(l, msgDifferStatus)
	case status:
		return say(l, msgDifferStatusFields, substr.Join(fields, ", "))
	}
	return say(l, msgDifferFields, substr.Join(fields, ", "))
}

// retryAfterSeconds rounds a wait up to whole seconds, at least one.
func retryAfterSeconds(ms int64) int64 { return booking.RetryAfterSeconds(ms) }

// BookingInput is what Booking decides from.
type BookingInput struct {
	Context AnswerContext
	Ticket  *Ticket
	// State is the ledger record's (BookNew, BookDone, ...); Stored its
	// answer when done.
	State  string
	Stored []byte
	// RetryAfter is the rest of a lost answer's grace (state unknown).
	RetryAfter                time.Duration
	RequestID, AcceptLanguage string
}

// Booking decides a booking from its record's state.
func (e *Edge) Booking(in BookingInput) *Step {
	ctx, t, state, stored, retryAfter, requestID := in.Context, in.Ticket, in.State, in.Stored, in.RetryAfter, in.RequestID
	l := i18n.FromAcceptLanguage(in.AcceptLanguage)
	switch state {
	case BookDone:
		return &Step{Kind: KindRespond, Response: ok(stored, "replayed", Header{"Idempotent-Replayed", "true"})}
	case BookConflict:
		return &Step{Kind: KindRespond, Response: refRefusal(t, "booking_conflict", say(l, msgBookingConflict, t.RefField, quote(t.Ref)), requestID)}
	case BookBusy:
		return &Step{Kind: KindRespond, Response: refuse(503, "booking_in_progress", say(l, msgBusy, t.RefField)).retry().
			with("Retry-After", "2").Response(requestID)}
	case BookUnknown:
		if !lookedUp(ctx.Operation) {
			return &Step{Kind: KindRespond, Response: e.collectionUnknown(t, requestID, l)}
		}
		secs := decimal.FormatInt(retryAfterSeconds(retryAfter.Milliseconds()))
		return &Step{Kind: KindRespond, Response: refuse(425, "booking_unconfirmed", say(l, msgBookingUnconfirmed, t.RefField, secs)).retry().
			with("Retry-After", secs).Response(requestID)}
	case BookLost:
		p := catalog.PolicyOf(ctx.Operation)
		if p == nil || p.Lookup == "" {
			return &Step{Kind: KindRespond, Finish: &Finish{Outcome: OutcomeUnsent}, Response: e.collectionUnknown(t, requestID, l)}
		}
		q := &form.Request{}
		q.Set(p.LookupBy, t.Ref)
		q.Set("n_items", "50")
		return &Step{Kind: KindLookup, Operation: p.Lookup, LookupBody: form.Encode(q)}
	}
	return &Step{Kind: KindForward}
}

// LookedUpInput is what LookedUp decides from.
type LookedUpInput struct {
	Context AnswerContext
	Ticket  *Ticket
	// UpstreamBody is the booking's own form, compared with what was found.
	UpstreamBody []byte
	// Upstream is the get-shipments answer.
	Upstream                  *Upstream
	RequestID, AcceptLanguage string
}

// LookedUp decides a booking whose earlier answer was lost, from the
// upstream's get-shipments answer: the shipment booked with the
// reference is adopted only when its data matches the request's
// (upstreamBody, the booking's form); another booking's data is never
// adopted. Refusals are in AcceptLanguage's language.
func (e *Edge) LookedUp(in LookedUpInput) *Step {
	ctx, t, upstreamBody, up, requestID := in.Context, in.Ticket, in.UpstreamBody, in.Upstream, in.RequestID
	l := i18n.FromAcceptLanguage(in.AcceptLanguage)
	failed := &Step{Kind: KindRespond, Finish: &Finish{Outcome: OutcomeUnsent},
		Response: refuse(502, "upstream_unreachable", say(l, msgLookupFailed)).retry().Response(requestID)}
	if up.Failure != "" || up.Status >= 500 || e.leaks.Leaks(up.Body) || len(upstreamBody) == 0 {
		// Without the booking's own body nothing could be compared: a
		// found shipment is never adopted blind.
		return failed
	}
	list, err := envelope.DecodeShipments(up.Status, up.Body)
	if err != nil {
		return failed
	}
	req, err := form.Decode(upstreamBody, form.Limits{MaxBytes: len(upstreamBody) + 1, MaxParcels: catalog.MaxParcels})
	if err != nil {
		return failed
	}
	found, mismatch := booking.Find(&list, t.Ref, req)
	switch {
	case found != nil:
		body := booking.Answer(found)
		s := &Step{Kind: KindRespond, Finish: &Finish{Outcome: OutcomeOK, Body: body},
			Response: ok(body, "replayed", Header{"Idempotent-Replayed", "true"})}
		if e.watched(ctx.Operation) {
			if _, d, r := sniffEnvelope(body); r == "" {
				s.Watch, _ = watchOf(d)
			}
		}
		return s
	case booking.Incomplete(&list):
		// A full page without the booking: it may be on a later one (the
		// filter may match other references), so "never booked" cannot be
		// concluded. worker/edge read a second page first; this core
		// asks one.
		return &Step{Kind: KindRespond, Finish: &Finish{Outcome: OutcomeUnsent},
			Response: refRefusal(t, "booking_unknown", say(l, msgLookupPage, t.RefField), requestID)}
	case mismatch != nil:
		return &Step{Kind: KindRespond, Finish: &Finish{Outcome: OutcomeUnsent},
			Response: refRefusal(t, "booking_mismatch", say(l, msgMismatch, t.RefField, quote(t.Ref), differ(l, mismatch)), requestID)}
	}
	// Not there: it was never booked. The grace covers this send.
	return &Step{Kind: KindForward, Sending: true}
}
