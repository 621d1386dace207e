// Package booking is the pure decision logic of exactly-once bookings: the
// fingerprint of a booking's normalized body, the state machine of a
// booking record (who may forward, who waits, when a lost answer may be
// looked up), and the rule that decides whether a shipment found upstream
// is the one a request booked.
//
// The service has no idempotency key, so the edge keeps one record per
// (API user, upstream, operation, client reference) in a ledger (a Durable
// Object under workerd, worker/src/platform/bookings.mjs). This package
// holds no storage and no clock: a ledger stores Records, passes the time
// in milliseconds, and applies what Decide and Settle answer. It is free of the edge's types,
// net/http, fmt and reflection, so that TinyGo builds it into the edge's
// core (worker/core links Fingerprint, RetryAfterSeconds and Find). The
// ledger under workerd applies its own JavaScript copy of the record rules
// (Decide, Taken, Sending, Settle; issue 20): here they run in tests only.
//
// A record's life:
//
//	(none) --Decide: Take--> pending(holder, since=now) --Settle ok------> done(answer)
//	                                                   --Settle release-> (none)
//	                                                   --Settle lost----> lost(since)
//	lost, or pending whose holder is gone (a restart, a holder past its hold):
//	    before since+grace: Unknown (nothing is sent; retry after the rest)
//	    after it:           Lookup: taken as pending(prev=since) by one caller,
//	                        which asks the upstream before booking
//
// since is when the booking was sent upstream (the pending record is
// written before forwarding), so since+grace bounds the upstream's commit
// when grace is longer than its worst commit time.
package booking

import "github.com/parcelgate/parcelgate/internal/hmacsha256"

// States of a stored record.
const (
	Pending = "pending" // a holder is forwarding (or was, and vanished)
	Done    = "done"    // booked: Body is the answer
	Lost    = "lost"    // the answer was lost: the booking may exist
)

// Verdicts of Decide.
const (
	Take     = "take"     // no record: take it (a pending record) and forward
	Lookup   = "lookup"   // lost and past its grace: take it, look the booking up first
	Replay   = "replay"   // booked: answer with the record's Body
	Conflict = "conflict" // the reference was used with other data
	Wait     = "wait"     // a live holder has it: wait for its outcome
	Unknown  = "unknown"  // lost, within its grace: send nothing, retry later
)

// Outcomes a holder settles its record with.
const (
	OutcomeOK      = "ok"      // booked: keep the answer
	OutcomeRelease = "release" // refused by the upstream: forget the reference
	OutcomeLost    = "lost"    // sent, answer lost: it may have booked
	// OutcomeUnsent: the holder sent no booking (a lookup failed or found
	// another booking's data): the record goes back to what it was, a lost
	// record keeping its own since, or nothing.
	OutcomeUnsent = "unsent"
)

// Record is one booking record as a ledger stores it. Times are Unix
// milliseconds.
type Record struct {
	State   string
	FP      string // Fingerprint of the normalized body
	Holder  string // Pending: the token of the holder's turn
	Since   int64  // Pending, Lost: when the booking was (last) sent upstream
	Prev    int64  // Pending taken for a lookup: the lost record's Since
	Body    []byte // Done: the answer
	Expires int64  // after it the record is forgotten
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

// Decide tells a request with fingerprint fp what to do with the record
// (nil: none). live reports that the record's holder is known to be at
// work (the ledger saw it take the record and it is within its hold); a
// Pending record without a live holder is a lost answer. For Unknown,
// retryAfter is the rest of the grace in milliseconds (at least 1).
func Decide(rec *Record, fp string, live bool, now, grace int64) (verdict string, retryAfter int64) {
	if rec == nil || Expired(rec, now) {
		return Take, 0
	}
	if rec.FP != fp {
		return Conflict, 0
	}
	switch {
	case rec.State == Done:
		return Replay, 0
	case rec.State == Pending && live:
		return Wait, 0
	}
	if left := Remaining(rec.Since, now, grace); left > 0 {
		return Unknown, left
	}
	return Lookup, 0
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

// Taken is the pending record a caller writes when Decide answered Take
// or Lookup, before it forwards anything: holder is a token unique to this
// turn, ttl how long the record is kept.
func Taken(rec *Record, fp, holder string, now, ttl int64) Record {
	r := Record{State: Pending, FP: fp, Holder: holder, Since: now, Expires: now + ttl}
	if rec != nil && !Expired(rec, now) && (rec.State == Lost || rec.State == Pending) {
		r.Prev = rec.Since
	}
	return r
}

// Sending is the holder's record once it is about to send the booking
// upstream (after a lookup found nothing): since moves to now, so that
// the grace covers this send. ok is false when holder does not hold it.
func Sending(rec *Record, holder string, now int64) (Record, bool) {
	if !Holds(rec, holder) {
		return Record{}, false
	}
	r := *rec
	r.Since, r.Prev = now, 0
	return r, true
}

// Holds reports whether holder holds the record (its pending turn).
func Holds(rec *Record, holder string) bool {
	return rec != nil && rec.State == Pending && holder != "" && rec.Holder == holder
}

// Settle ends a holder's turn: the record to store (nil: delete it) and
// ok, false when holder no longer holds the record (another caller took it
// after the grace, or it was settled): then nothing may be stored and the
// caller must say so loudly.
func Settle(rec *Record, holder, outcome string, body []byte, now, ttl int64) (next *Record, ok bool) {
	if !Holds(rec, holder) {
		return nil, false
	}
	switch outcome {
	case OutcomeOK:
		return &Record{State: Done, FP: rec.FP, Body: body, Expires: now + ttl}, true
	case OutcomeLost:
		return &Record{State: Lost, FP: rec.FP, Since: rec.Since, Expires: now + ttl}, true
	case OutcomeUnsent:
		if rec.Prev == 0 {
			return nil, true
		}
		return &Record{State: Lost, FP: rec.FP, Since: rec.Prev, Expires: now + ttl}, true
	}
	return nil, true // OutcomeRelease
}
