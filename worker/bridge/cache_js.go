//go:build js && wasm

package bridge

import (
	"context"
	"strconv"
	"time"
)

// Cache is the Workers Cache API (caches.default) as the edge's second
// cache tier. Entries are keyed by a synthetic URL the entry derives from
// the key; the Cache API ignores them on *.workers.dev hostnames, where
// Get always misses. syumai's cache package is not used: its Put turns
// the body into a stream whose callbacks are never released, and its
// calls would run in whatever request's context Go happens to be in.
type Cache struct{}

// Get implements the edge's SharedCache.
func (Cache) Get(ctx context.Context, key string) ([]byte, time.Time, bool) {
	r, err := call(ctx, "cacheGet", key)
	if err != nil || r.status != 200 || r.failure != "" {
		return nil, time.Time{}, false
	}
	// head carries the expiry in unix milliseconds.
	ms, err := strconv.ParseInt(r.head, 10, 64)
	if err != nil {
		return nil, time.Time{}, false
	}
	return r.body, time.UnixMilli(ms), true
}

// Put implements the edge's SharedCache: the entry stores it in the
// background of the request (ctx.waitUntil).
func (Cache) Put(ctx context.Context, key string, body []byte, ttl time.Duration) {
	send(ctx, "cachePut", key, jsBytes(body), int(ttl/time.Second))
}
