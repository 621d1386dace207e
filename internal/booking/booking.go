// Package booking is the pure decision logic of exactly-once bookings: the
// fingerprint of a booking's normalized body, the state machine of a
// booking record (who may forward, who waits, when a lost answer may be
// looked up, what each outcome writes, when a record is forgotten, when a
// record of the earlier layout is taken over), and the rule that decides
// whether a shipment found upstream is the one a request booked.
//
// The service has no idempotency key, so the edge keeps one record per
// (API user, upstream, operation, client reference) in a ledger (the
// Bookings Durable Objects, worker/src/platform/bookings.mjs). This package
// holds no storage, no clock and no timers: the ledger stores Records, keeps
// in memory the holder it saw take each record (Live), passes the time in
// milliseconds, waits and sets alarms, and asks the machine below for every
// decision through the edge core (worker/core, the seam's Ledger* calls:
// ledgerBegin ... ledgerSweep in JavaScript). It is free of the edge's
// types, net/http, fmt and reflection, so that TinyGo builds it into the
// core. The vectors of testdata/bookings.json run
// against it here and against the Durable Object through the core module
// in Node (worker/src/platform/platform.test.mjs).
//
// A record's life:
//
//	(none) --Begin: Take--> pending(holder, since=now) --Finish ok------> done(answer)
//	                                                  --Finish release-> (none)
//	                                                  --Finish lost----> lost(since)
//	lost, or pending whose holder is gone (a restart, a holder past its hold):
//	    before since+grace: Unknown (nothing is sent; retry after the rest)
//	    after it:           Lookup: taken as pending(prev=since) by one caller,
//	                        which asks the upstream before booking
//
// One holder per key, always (issue 29): while the ledger knows a live
// holder of the key, whatever the record says (none, pending, lost), Begin
// answers Wait; only a stored answer (Replay) or other data (Conflict) is
// answered at once. A turn ends by its holder's Finish or past its hold,
// never by another take.
//
// since is when the booking was sent upstream (the pending record is
// written before forwarding), so since+grace bounds the upstream's commit
// when grace is longer than its worst commit time.
package booking

import "github.com/parcelgate/parcelgate/internal/hmacsha256"

// States of a stored record.
const (
	Pending = "pending" // a holder is forwarding (or was, and vanished)
	Done    = "done"    // booked: the ledger keeps the answer beside the record
	Lost    = "lost"    // the answer was lost: the booking may exist
)

// Verdicts of Begin.
const (
	Take        = "take"        // no record: take it (write Record) and forward
	Lookup      = "lookup"      // lost and past its grace: take it (write Record), look the booking up first
	Replay      = "replay"      // booked: answer with the stored answer
	Conflict    = "conflict"    // the reference was used with other data
	Wait        = "wait"        // a live holder has the key: wait for its outcome, then Begin again
	Busy        = "busy"        // a live holder has the key and the caller's wait is over
	Unknown     = "unknown"     // lost, within its grace: send nothing, retry later
	ReadEarlier = "readEarlier" // no record here, within the earlier layout's window: TakeOver first, then Begin again
)

// Verdicts of Sending and Finish.
const (
	Write  = "write"  // store Record (with the finish's body when KeepBody)
	Delete = "delete" // delete the stored record
	Refuse = "refuse" // the caller does not hold the record: write nothing (and say so loudly)
)

// Verdicts of TakeOver.
const (
	Read  = "read"  // read the key's record of the earlier layout, then TakeOver again with it
	Adopt = "adopt" // store the earlier record as it was, with its mark (expiring at MarkExpires), in one write
	None  = "none"  // nothing to take over
)

// Answers of Peek.
const (
	PeekDone = "done" // booked: the stored answer
	PeekLost = "lost" // lost, or pending without its live holder: the booking may exist
	PeekNone = ""     // none, or held by a live request
)

// Outcomes a holder finishes its turn with.
const (
	OutcomeOK      = "ok"      // booked: keep the answer
	OutcomeRelease = "release" // refused by the upstream: forget the reference
	OutcomeRefused = "refused" // the core's answer's name for OutcomeRelease
	OutcomeLost    = "lost"    // sent, answer lost: it may have booked
	// OutcomeUnsent: the holder sent no booking (a lookup failed or found
	// another booking's data): the record goes back to what it was, a lost
	// record keeping its own since, or nothing.
	OutcomeUnsent = "unsent"
)

// Record is one booking record as the ledger stores it (without the
// stored answer of a done record, which the ledger keeps beside it and
// the decisions never read). Times are Unix milliseconds.
type Record struct {
	State   string
	FP      string // Fingerprint of the normalized body
	Holder  string // Pending: the token of the holder's turn
	Since   int64  // Pending, Lost: when the booking was (last) sent upstream
	Prev    int64  // Pending taken for a lookup: the lost record's Since
	Expires int64  // after it the record is forgotten
}

// Live is the holder the ledger saw take a key's record, in this
// incarnation of the ledger (none after a restart), and the end of its
// hold. Holder "" is none.
type Live struct {
	Holder string
	Until  int64
}

// Request is one call on the ledger for one key, with what the ledger
// knows: the record as stored (nil: none), its live holder, the time.
type Request struct {
	Record *Record
	Live   Live
	Now    int64
	// Begin: the fingerprint of the request's data.
	FP string
	// Begin: the token a take gives its turn (unique per request);
	// Sending, Finish: the caller's turn.
	Holder string
	// Begin: how long a new holder holds the key, the grace after a lost
	// answer, the record's lifetime, when the caller stops waiting.
	Hold, Grace, TTL, WaitUntil int64
	// Begin: until when (exclusive) the earlier layout is read (0: never),
	// and whether this Begin has read it already.
	LegacyUntil int64
	EarlierRead bool
	// Finish: the outcome (Outcome*).
	Outcome string
}

// Action is the machine's answer: what the ledger does.
type Action struct {
	Verdict string
	// The record to write (Take, Lookup, Write): nil otherwise.
	Record *Record
	// Write: store the finish's body as the done record's answer.
	KeepBody bool
	// Unknown: the rest of the grace in milliseconds (at least 1).
	RetryAfter int64
	// Take, Lookup: the new holder's hold ends then (Live.Until).
	LiveUntil int64
	// The live holder's turn is over (past its hold, or finished): forget
	// it and wake the requests waiting for it.
	EndLive bool
	// The stored record is past its expiry: delete it (unless Record
	// replaces it).
	Forget bool
}

// live reports whether the request's live holder still holds its turn,
// and whether one past its hold is to be ended.
func live(q *Request) (holding, ended bool) {
	if q.Live.Holder == "" {
		return false, false
	}
	if q.Now > q.Live.Until {
		return false, true
	}
	return true, false
}

// current is the stored record unless it has expired.
func current(q *Request) (rec *Record, expired bool) {
	if q.Record != nil && Expired(q.Record, q.Now) {
		return nil, true
	}
	return q.Record, false
}

// Begin decides a request to book: what it is answered, or the record it
// takes. A live holder of the key, whatever the record, means Wait (Busy
// once the caller's wait is over): nothing but its holder's finish or the
// end of its hold ends a turn.
func Begin(q *Request) Action {
	holding, ended := live(q)
	rec, expired := current(q)
	a := Action{EndLive: ended, Forget: expired}
	switch {
	case rec == nil && !holding && !q.EarlierRead && q.Now < q.LegacyUntil:
		a.Verdict = ReadEarlier
		return a
	case rec != nil && rec.FP != q.FP:
		a.Verdict = Conflict
		return a
	case rec != nil && rec.State == Done:
		a.Verdict = Replay
		return a
	case holding:
		// Whoever holds it (issue 29), even with no record yet: its
		// outcome decides; no read of the earlier layout is needed.
		a.Verdict = Wait
		if q.Now >= q.WaitUntil {
			a.Verdict = Busy
		}
		return a
	case rec == nil:
		a.Verdict = Take
	default:
		// Lost, or pending without a live holder: a lost answer.
		if left := Remaining(rec.Since, q.Now, q.Grace); left > 0 {
			a.Verdict, a.RetryAfter = Unknown, left
			return a
		}
		a.Verdict = Lookup
	}
	taken := Record{State: Pending, FP: q.FP, Holder: q.Holder, Since: q.Now, Expires: q.Now + q.TTL}
	if rec != nil {
		taken.Prev = rec.Since
	}
	a.Record, a.LiveUntil, a.Forget = &taken, q.Now+q.Hold, false
	return a
}

// Sending is the holder about to send the booking after its lookup found
// nothing: since moves to now, so that the grace covers this send. Refuse
// when the caller does not hold the record.
func Sending(q *Request) Action {
	rec, expired := current(q)
	if !holds(rec, q.Holder) {
		return Action{Verdict: Refuse, Forget: expired}
	}
	r := *rec
	r.Since, r.Prev = q.Now, 0
	return Action{Verdict: Write, Record: &r}
}

// Finish ends a holder's turn with its outcome: the record to store, or
// Delete; Refuse when the caller no longer holds the record (another
// caller took it after its hold, or it was finished): nothing may be
// stored and the caller must say so loudly.
func Finish(q *Request) Action {
	rec, expired := current(q)
	if !holds(rec, q.Holder) {
		return Action{Verdict: Refuse, Forget: expired}
	}
	a := Action{Verdict: Write, EndLive: q.Live.Holder == q.Holder}
	expires := q.Now + q.TTL
	switch q.Outcome {
	case OutcomeOK:
		a.Record, a.KeepBody = &Record{State: Done, FP: rec.FP, Expires: expires}, true
	case OutcomeLost:
		a.Record = &Record{State: Lost, FP: rec.FP, Since: rec.Since, Expires: expires}
	case OutcomeUnsent:
		if rec.Prev != 0 {
			a.Record = &Record{State: Lost, FP: rec.FP, Since: rec.Prev, Expires: expires}
		}
	}
	if a.Record == nil {
		a.Verdict = Delete // release, refused, a new turn's unsent
	}
	return a
}

// Peek reads a record without taking it: the edge resolves a token's
// shipping_client_ref to the shipment booked with it.
func Peek(q *Request) (state string, forget bool) {
	rec, expired := current(q)
	holding, _ := live(q)
	switch {
	case rec == nil:
		return PeekNone, expired
	case rec.State == Done:
		return PeekDone, false
	case rec.State == Lost || !holding || q.Live.Holder != rec.Holder:
		return PeekLost, false
	}
	return PeekNone, false
}

// TakeOver decides what to do with a key that has no record here within
// the earlier layout's window (Begin's ReadEarlier). Before the read
// (earlier not read): Read, unless marked (that record was taken over once
// already: a released or expired record is not brought back). After it,
// with here the record here as it is now: Adopt a live earlier record when
// there is still none here.
func TakeOver(here, earlier *Record, marked, read bool, now int64) (verdict string, markExpires int64) {
	switch {
	case marked || (here != nil && !Expired(here, now)):
		return None, 0
	case !read:
		return Read, 0
	case earlier == nil || Expired(earlier, now) || earlier.Expires == 0:
		return None, 0
	}
	return Adopt, earlier.Expires
}

// Sweep is the ledger's alarm: which of its records (by their expiries)
// are past them, and when to come back (0: nothing left), at the earliest
// expiry left but no sooner than every after now.
func Sweep(expires []int64, now, every int64) (expired []int, next int64) {
	for i, at := range expires {
		if at <= now {
			expired = append(expired, i)
		} else if next == 0 || at < next {
			next = at
		}
	}
	if next != 0 && next < now+every {
		next = now + every
	}
	return expired, next
}

// holds reports whether holder holds the record (its pending turn).
func holds(rec *Record, holder string) bool {
	return rec != nil && rec.State == Pending && holder != "" && rec.Holder == holder
}

// Expired reports whether a record is past its expiry.
func Expired(rec *Record, now int64) bool { return rec.Expires != 0 && rec.Expires <= now }

// Remaining is what is left of the grace that started at since, in
// milliseconds (0 when over).
func Remaining(since, now, grace int64) int64 {
	if left := since + grace - now; left > 0 {
		return left
	}
	return 0
}

// RetryAfterSeconds renders a wait in milliseconds as a Retry-After value:
// whole seconds, rounded up, at least 1.
func RetryAfterSeconds(ms int64) int64 {
	s := (ms + 999) / 1000
	if s < 1 {
		return 1
	}
	return s
}

// Fingerprint identifies a booking's data: the SHA-256 of its normalized,
// canonically ordered form body, in hex (written here: encoding/hex
// brings fmt). Two spellings of the same data
// (case, spaces, field order) have the same fingerprint.
func Fingerprint(body []byte) string {
	sum := hmacsha256.Sum(body)
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(sum))
	for i, b := range sum {
		out[2*i], out[2*i+1] = digits[b>>4], digits[b&15]
	}
	return string(out)
}
