package edge

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
)

// Public reads whose answers rarely change (DefaultCacheTTL) are answered
// from a cache: a bounded in-instance LRU (entries and bytes) in front of
// a SharedCache (the Workers Cache API under workerd, which outlives the
// instance and the isolate but is a no-op on *.workers.dev hostnames).
// Only ok envelopes are stored. The key is the operation, the request
// after normalization and canonical ordering, and the upstream identity
// (base URL and API_USER): never a client header, so one shop's answer is
// the same for every shopper and never another merchant's. Identical
// concurrent misses make one upstream call (a flight); the others wait
// for it. Bookings and personal-data reads are never cached.

// SharedCache is the second cache tier. Get reports a stored body and
// when it expires; Put stores one for ttl and may finish after the
// response (the platform keeps the request alive for it).
type SharedCache interface {
	Get(ctx context.Context, key string) (body []byte, expires time.Time, ok bool)
	Put(ctx context.Context, key string, body []byte, ttl time.Duration)
}

// cacheKey is the hex SHA-256 of what identifies an answer.
func cacheKey(cfg *Config, op *catalog.Operation, body []byte) string {
	h := sha256.New()
	base := cfg.UpstreamBase
	if base == "" {
		base = SandboxBaseURL
	}
	for _, s := range []string{"parcelgate-cache-v1", op.Name, base, cfg.APIUser} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

type cacheEntry struct {
	key     string
	body    []byte
	expires time.Time
}

// flight is one upstream call that identical concurrent misses share.
type flight struct {
	done chan struct{}
	body []byte // the ok answer; nil when the call did not give one
}

// respCache is the in-instance tier: LRU over entries, bounded in count
// and in body bytes. A zero maxBytes keeps nothing (flights still
// coalesce).
type respCache struct {
	mu         sync.Mutex
	ll         *list.List // front = most recently used
	byKey      map[string]*list.Element
	bytes      int
	maxBytes   int
	maxEntries int
	flights    map[string]*flight
}

func newRespCache(maxBytes, maxEntries int) *respCache {
	return &respCache{ll: list.New(), byKey: map[string]*list.Element{}, maxBytes: maxBytes,
		maxEntries: maxEntries, flights: map[string]*flight{}}
}

// get returns a fresh entry's body.
func (c *respCache) get(key string, now time.Time) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !now.Before(e.expires) {
		c.remove(el)
		return nil, false
	}
	c.ll.MoveToFront(el)
	return e.body, true
}

// put stores a body until expires, evicting the least recently used
// entries past the bounds; a body larger than a quarter of the byte bound
// is not kept (it would evict most of the cache).
func (c *respCache) put(key string, body []byte, expires time.Time) {
	if len(body) > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.remove(el)
	}
	c.byKey[key] = c.ll.PushFront(&cacheEntry{key: key, body: body, expires: expires})
	c.bytes += len(body)
	for c.bytes > c.maxBytes || c.ll.Len() > c.maxEntries {
		c.remove(c.ll.Back())
	}
}

func (c *respCache) remove(el *list.Element) {
	e := c.ll.Remove(el).(*cacheEntry)
	delete(c.byKey, e.key)
	c.bytes -= len(e.body)
}

// join returns the flight for key and whether the caller leads it (and
// must call land).
func (c *respCache) join(key string) (*flight, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.flights[key]; ok {
		return f, false
	}
	f := &flight{done: make(chan struct{})}
	c.flights[key] = f
	return f, true
}

// land ends a flight with its ok body (nil when there is none).
func (c *respCache) land(key string, f *flight, body []byte) {
	c.mu.Lock()
	delete(c.flights, key)
	c.mu.Unlock()
	f.body = body
	close(f.done)
}

func (c *respCache) stats() (entries, bytes int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len(), c.bytes
}
