package core

import (
	"github.com/parcelgate/parcelgate/internal/booking"
	"github.com/parcelgate/parcelgate/worker/core/seam"
)

// The Bookings Durable Object's decisions: internal/booking's state
// machine behind the seam's ledger* calls. They need no configuration
// (everything is in the input), so they are free calls.

func (c *Calls) ledgerBegin(in *seam.LedgerBeginInput, out *seam.LedgerBegun) {
	a := booking.Begin(&booking.Request{Record: record(in.Record), Live: live(in.Live), Now: in.Now, FP: in.FP, Holder: in.Holder,
		Hold: in.HoldMs, Grace: in.GraceMs, TTL: in.TTLMs, WaitUntil: in.WaitUntil, LegacyUntil: in.LegacyUntil, EarlierRead: in.EarlierRead})
	*out = seam.LedgerBegun{Verdict: a.Verdict, Record: ledgerRecord(a.Record), LiveUntil: a.LiveUntil, RetryAfterMs: a.RetryAfter,
		EndLive: a.EndLive, Forget: a.Forget}
}

func (c *Calls) ledgerSending(in *seam.LedgerTurnInput, out *seam.LedgerWritten) {
	written(booking.Sending(turn(in)), out)
}

func (c *Calls) ledgerSettle(in *seam.LedgerTurnInput, out *seam.LedgerWritten) {
	q := turn(in)
	if q.Outcome == booking.OutcomeRefused {
		q.Outcome = booking.OutcomeRelease
	}
	written(booking.Finish(q), out)
}

func (c *Calls) ledgerPeek(in *seam.LedgerPeekInput, out *seam.LedgerPeeked) {
	out.State, out.Forget = booking.Peek(&booking.Request{Record: record(in.Record), Live: live(in.Live), Now: in.Now})
}

func (c *Calls) ledgerTakeOver(in *seam.LedgerTakeOverInput, out *seam.LedgerTakenOver) {
	out.Verdict, out.MarkExpires = booking.TakeOver(record(in.Record), record(in.Earlier), in.Marked, in.Read, in.Now)
}

func (c *Calls) ledgerSweep(in *seam.LedgerSweepInput, out *seam.LedgerSwept) {
	expired, next := booking.Sweep(in.Expires, in.Now, in.EveryMs)
	out.Expired, out.Next = make([]int64, len(expired)), next
	for i, x := range expired {
		out.Expired[i] = int64(x)
	}
}

func turn(in *seam.LedgerTurnInput) *booking.Request {
	return &booking.Request{Record: record(in.Record), Live: live(in.Live), Now: in.Now, Holder: in.Holder, Outcome: in.Outcome, TTL: in.TTLMs}
}

func written(a booking.Action, out *seam.LedgerWritten) {
	*out = seam.LedgerWritten{Verdict: a.Verdict, Record: ledgerRecord(a.Record), KeepBody: a.KeepBody, EndLive: a.EndLive, Forget: a.Forget}
}

func record(r *seam.LedgerRecord) *booking.Record {
	if r == nil {
		return nil
	}
	return &booking.Record{State: r.State, FP: r.FP, Holder: r.Holder, Since: r.Since, Prev: r.Prev, Expires: r.Expires}
}

func ledgerRecord(r *booking.Record) *seam.LedgerRecord {
	if r == nil {
		return nil
	}
	return &seam.LedgerRecord{State: r.State, FP: r.FP, Holder: r.Holder, Since: r.Since, Prev: r.Prev, Expires: r.Expires}
}

func live(l *seam.LedgerLive) booking.Live {
	if l == nil {
		return booking.Live{}
	}
	return booking.Live{Holder: l.Holder, Until: l.Until}
}
