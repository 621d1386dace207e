//go:build js && wasm

package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/syumai/workers/cloudflare"

	"github.com/parcelgate/parcelgate/worker/watch"
)

// Watchlist is the tracking webhooks' watch.Store on a Durable Object
// namespace: one object per name (idFromName), so every booking and every
// Cron run of an (API user, upstream) meet the same single-threaded list.
// The object's class, Watchlist, is in worker/entry.mjs; rows cross as
// JSON text (a run's worth at a time, so the cost is two calls a run).
type Watchlist struct {
	// Binding is the namespace's binding name in wrangler.toml.
	Binding string
	// Name picks the object.
	Name string
}

var _ watch.Store = Watchlist{}

// Bound reports whether the binding is configured (no I/O).
func Bound(binding string) bool {
	v := cloudflare.GetBinding(binding)
	return !v.IsUndefined() && !v.IsNull()
}

// Add implements watch.Store. It does not wait: the entry runs the call
// under the request's waitUntil, so a booking's answer is not held for it,
// and logs a failure.
func (w Watchlist) Add(ctx context.Context, ref, clientRef string, at time.Time) error {
	send(ctx, "watchAdd", w.Binding, w.Name, ref, clientRef, float64(at.UnixMilli()))
	return nil
}

// Lease implements watch.Store.
func (w Watchlist) Lease(ctx context.Context, now time.Time, n int, hold time.Duration) ([]watch.Row, error) {
	r, err := w.call(ctx, "watchLease", float64(now.UnixMilli()), n, float64(hold.Milliseconds()))
	if err != nil {
		return nil, err
	}
	var rows []watch.Row
	if err := json.Unmarshal([]byte(r), &rows); err != nil {
		return nil, errors.New("watchlist: unreadable rows: " + err.Error())
	}
	return rows, nil
}

// Commit implements watch.Store.
func (w Watchlist) Commit(ctx context.Context, c watch.Commit) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = w.call(ctx, "watchCommit", string(b))
	return err
}

// Stats implements watch.Store.
func (w Watchlist) Stats(ctx context.Context) (watch.Stats, error) {
	var s watch.Stats
	r, err := w.call(ctx, "watchStats")
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal([]byte(r), &s); err != nil {
		return s, errors.New("watchlist: unreadable stats: " + err.Error())
	}
	return s, nil
}

// call runs a method of the named object; its answer is JSON text.
func (w Watchlist) call(ctx context.Context, kind string, args ...any) (string, error) {
	r, err := call(ctx, kind, append([]any{w.Binding, w.Name}, args...)...)
	if err != nil {
		return "", err
	}
	if r.failure != "" {
		return "", errors.New("watchlist: " + r.failure)
	}
	return r.head, nil
}
