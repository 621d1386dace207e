//go:build js && wasm

package bridge

import (
	"context"
	"errors"
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

// Begin implements edge.Ledger.
func (l Ledger) Begin(ctx context.Context, key, fp string, wait, hold time.Duration) (string, []byte, error) {
	r, err := call(ctx, "bookBegin", l.Binding, key, fp, int(wait/time.Millisecond), int(hold/time.Millisecond))
	if err != nil {
		return "", nil, err
	}
	switch r.failure {
	case "":
	case "unbound":
		return "", nil, edge.ErrNoLedger
	default:
		return "", nil, errors.New("booking ledger: " + r.failure)
	}
	return r.head, r.body, nil
}

// Finish implements edge.Ledger.
func (l Ledger) Finish(ctx context.Context, key, fp, outcome string, body []byte, ttl time.Duration) error {
	r, err := call(ctx, "bookFinish", l.Binding, key, fp, outcome, jsBytes(body), int(ttl/time.Millisecond))
	if err != nil {
		return err
	}
	if r.failure != "" {
		return errors.New("booking ledger: " + r.failure)
	}
	return nil
}

// Peek implements edge.Ledger.
func (l Ledger) Peek(ctx context.Context, key string) (string, []byte, error) {
	r, err := call(ctx, "bookPeek", l.Binding, key)
	if err != nil {
		return "", nil, err
	}
	switch r.failure {
	case "":
		return r.head, r.body, nil
	case "unbound":
		return "", nil, edge.ErrNoLedger
	}
	return "", nil, errors.New("booking ledger: " + r.failure)
}
