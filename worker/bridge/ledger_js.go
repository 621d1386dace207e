//go:build js && wasm

package bridge

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/worker/edge"
)

// Ledger is the edge's booking ledger on a Durable Object namespace: one
// object per booking key (idFromName), so every request for a client
// reference meets the same single-threaded object wherever it arrives.
// The object's class, Bookings, is in worker/entry.mjs.
type Ledger struct {
	// Binding is the Durable Object namespace's binding in wrangler.toml.
	Binding string
}

var _ edge.Ledger = Ledger{}

// Begin implements edge.Ledger. The object answers its state, holder and
// retry-after (ms) as three lines, and the stored answer as the body.
func (l Ledger) Begin(ctx context.Context, key, fp string, o edge.BeginOptions) (edge.Begun, error) {
	r, err := call(ctx, "bookBegin", l.Binding, key, fp, int(o.Wait/time.Millisecond), int(o.Hold/time.Millisecond),
		int(o.Grace/time.Millisecond), float64(o.TTL/time.Millisecond))
	if err != nil {
		return edge.Begun{}, err
	}
	if err := failure(r.failure); err != nil {
		return edge.Begun{}, err
	}
	state, rest, _ := strings.Cut(r.head, "\n")
	holder, after, _ := strings.Cut(rest, "\n")
	ms, _ := strconv.ParseInt(after, 10, 64)
	return edge.Begun{State: state, Holder: holder, Body: r.body, RetryAfter: time.Duration(ms) * time.Millisecond}, nil
}

// Sending implements edge.Ledger.
func (l Ledger) Sending(ctx context.Context, key, holder string) error {
	r, err := call(ctx, "bookSending", l.Binding, key, holder)
	if err != nil {
		return err
	}
	return failure(r.failure)
}

// Finish implements edge.Ledger.
func (l Ledger) Finish(ctx context.Context, key, holder, outcome string, body []byte, ttl time.Duration) error {
	r, err := call(ctx, "bookFinish", l.Binding, key, holder, outcome, jsBytes(body), float64(ttl/time.Millisecond))
	if err != nil {
		return err
	}
	return failure(r.failure)
}

// Peek implements edge.Ledger.
func (l Ledger) Peek(ctx context.Context, key string) (string, []byte, error) {
	r, err := call(ctx, "bookPeek", l.Binding, key)
	if err != nil {
		return "", nil, err
	}
	if err := failure(r.failure); err != nil {
		return "", nil, err
	}
	return r.head, r.body, nil
}

// failure maps the object's failure text to the edge's errors.
func failure(f string) error {
	switch f {
	case "":
		return nil
	case "unbound":
		return edge.ErrNoLedger
	case "not the holder":
		return edge.ErrNotHolder
	}
	return errors.New("booking ledger: " + f)
}
