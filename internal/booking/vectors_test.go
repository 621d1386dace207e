package booking

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shared vectors (testdata/bookings.json) against the machine, driven
// the way the Bookings Durable Object drives it (ledger below); the same
// file runs against the object itself in worker/src/platform.

type vectorFile struct {
	Defaults struct{ HoldMs, GraceMs, TTLMs, WaitMs int64 } `json:"defaults"`
	Vectors  []vector                                       `json:"vectors"`
}

type vector struct {
	Name        string            `json:"name"`
	LegacyUntil int64             `json:"legacyUntil"`
	Earlier     *storedRecord     `json:"earlier"`
	Steps       []map[string]any  `json:"-"`
	RawSteps    []json.RawMessage `json:"steps"`
}

type step struct {
	Call      string          `json:"call"`
	Now       int64           `json:"now"`
	FP        string          `json:"fp"`
	Token     string          `json:"token"`
	Holder    string          `json:"holder"`
	Outcome   string          `json:"outcome"`
	Body      *string         `json:"body"`
	HoldMs    *int64          `json:"holdMs"`
	GraceMs   *int64          `json:"graceMs"`
	TTLMs     *int64          `json:"ttlMs"`
	WaitMs    *int64          `json:"waitMs"`
	Decisions []string        `json:"decisions"`
	Answer    json.RawMessage `json:"answer"`
	Stored    *storedRecord   `json:"stored"`
	Marked    json.RawMessage `json:"marked"`
}

// storedRecord is a record as the object stores it: the machine's fields
// and a done record's answer.
type storedRecord struct {
	State   string  `json:"state"`
	FP      string  `json:"fp"`
	Holder  string  `json:"holder"`
	Since   int64   `json:"since"`
	Prev    int64   `json:"prev"`
	Expires int64   `json:"expires"`
	Body    *string `json:"body,omitempty"`
}

func (s *storedRecord) record() *Record {
	if s == nil {
		return nil
	}
	return &Record{State: s.State, FP: s.FP, Holder: s.Holder, Since: s.Since, Prev: s.Prev, Expires: s.Expires}
}

// ledger is the Durable Object's part, for one key: the storage, the live
// holder, the mark, the earlier layout's object; every decision is the
// machine's.
type ledger struct {
	stored      *storedRecord
	live        Live
	mark        *int64
	earlier     *storedRecord
	legacyUntil int64
	decisions   []string
}

type beginAnswer struct {
	State        string  `json:"state"`
	Holder       string  `json:"holder,omitempty"`
	Body         *string `json:"body,omitempty"`
	RetryAfterMs int64   `json:"retryAfterMs,omitempty"`
}

func (l *ledger) note(call, verdict string) { l.decisions = append(l.decisions, call+":"+verdict) }

func (l *ledger) write(r *Record, body *string) {
	l.stored = &storedRecord{State: r.State, FP: r.FP, Holder: r.Holder, Since: r.Since, Prev: r.Prev, Expires: r.Expires, Body: body}
}

func (l *ledger) begin(now int64, fp, token string, hold, grace, ttl, wait int64) beginAnswer {
	read := false
	for {
		a := Begin(&Request{Record: l.stored.record(), Live: l.live, Now: now, FP: fp, Holder: token, Hold: hold, Grace: grace,
			TTL: ttl, WaitUntil: now + wait, LegacyUntil: l.legacyUntil, EarlierRead: read})
		l.note("begin", a.Verdict)
		if a.EndLive {
			l.live = Live{}
		}
		if a.Forget {
			l.stored = nil
		}
		switch a.Verdict {
		case ReadEarlier:
			l.takeOver(now)
			read = true
			continue
		case Take, Lookup:
			l.live = Live{Holder: a.Record.Holder, Until: a.LiveUntil}
			l.write(a.Record, nil)
			state := "new"
			if a.Verdict == Lookup {
				state = "lost"
			}
			return beginAnswer{State: state, Holder: a.Record.Holder}
		case Replay:
			return beginAnswer{State: "done", Body: l.stored.Body}
		case Unknown:
			return beginAnswer{State: "unknown", RetryAfterMs: a.RetryAfter}
		case Conflict, Busy:
			return beginAnswer{State: a.Verdict}
		}
		panic("the vectors never wait (waitMs 0): " + a.Verdict)
	}
}

func (l *ledger) takeOver(now int64) {
	v, _ := TakeOver(nil, nil, l.mark != nil, false, now)
	l.note("takeOver", v)
	if v != Read {
		return
	}
	v, mark := TakeOver(l.stored.record(), l.earlier.record(), false, true, now)
	l.note("takeOver", v)
	if v == Adopt {
		e := *l.earlier
		l.stored, l.mark = &e, &mark
	}
}

func (l *ledger) turn(call string, now int64, holder, outcome string, body *string, ttl int64) bool {
	q := &Request{Record: l.stored.record(), Live: l.live, Now: now, Holder: holder, Outcome: outcome, TTL: ttl}
	var a Action
	if call == "sending" {
		a = Sending(q)
	} else {
		if q.Outcome == OutcomeRefused {
			q.Outcome = OutcomeRelease
		}
		a = Finish(q)
	}
	l.note(call, a.Verdict)
	if a.Forget {
		l.stored = nil
	}
	switch a.Verdict {
	case Refuse:
		return false
	case Delete:
		l.stored = nil
	case Write:
		var keep *string
		if a.KeepBody {
			keep = body
		}
		l.write(a.Record, keep)
	}
	if a.EndLive {
		l.live = Live{}
	}
	return true
}

func (l *ledger) peek(now int64) map[string]any {
	state, forget := Peek(&Request{Record: l.stored.record(), Live: l.live, Now: now})
	l.note("peek", state)
	if forget {
		l.stored = nil
	}
	if state == PeekDone {
		return map[string]any{"state": state, "body": *l.stored.Body}
	}
	return map[string]any{"state": state}
}

func TestVectors(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "bookings.json"))
	require.NoError(t, err)
	var f vectorFile
	require.NoError(t, json.Unmarshal(raw, &f))
	require.NotEmpty(t, f.Vectors)
	or := func(p *int64, d int64) int64 {
		if p != nil {
			return *p
		}
		return d
	}
	for _, v := range f.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			l := &ledger{earlier: v.Earlier, legacyUntil: v.LegacyUntil}
			for i, rs := range v.RawSteps {
				var s step
				require.NoError(t, json.Unmarshal(rs, &s))
				l.decisions = nil
				var got any
				switch s.Call {
				case "restart":
					l.live = Live{}
					continue
				case "begin":
					got = l.begin(s.Now, s.FP, s.Token, or(s.HoldMs, f.Defaults.HoldMs), or(s.GraceMs, f.Defaults.GraceMs),
						or(s.TTLMs, f.Defaults.TTLMs), or(s.WaitMs, f.Defaults.WaitMs))
				case "sending", "finish":
					got = l.turn(s.Call, s.Now, s.Holder, s.Outcome, s.Body, or(s.TTLMs, f.Defaults.TTLMs))
				case "peek":
					got = l.peek(s.Now)
				default:
					t.Fatalf("step %d: unknown call %q", i, s.Call)
				}
				assert.Equal(t, s.Decisions, l.decisions, "step %d (%s): decisions", i, s.Call)
				gotJSON, _ := json.Marshal(got)
				assert.JSONEq(t, string(s.Answer), string(gotJSON), "step %d (%s): answer", i, s.Call)
				assert.Equal(t, s.Stored, l.stored, "step %d (%s): stored", i, s.Call)
				if len(s.Marked) > 0 {
					mark, _ := json.Marshal(l.mark)
					assert.JSONEq(t, string(s.Marked), string(mark), "step %d (%s): mark", i, s.Call)
				}
			}
		})
	}
}
