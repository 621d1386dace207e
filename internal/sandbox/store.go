package sandbox

import (
	"context"
	"sort"
	"strings"
	"sync"
)

// Store is where the sandbox keeps its state: a byte-oriented key-value
// store, small enough for a Cloudflare KV binding to implement.
//
// Keys (all ASCII):
//
//	shp/<dlvr_ref>                  a ShipmentRecord
//	cref/<shipping_client_ref>      a RefRecord: the shipment booked with that client reference
//	col/<collection_client_ref>     a CollectionRec
//	idx/<YYYYMMDDhhmmss>/<dlvr_ref> empty: the listing index of get-shipments (creation time, UTC)
//
// Carrier references and GUIDs need no index: a carrier reference embeds
// the digits of its dlvr_ref (see refs.go).
//
// Consistency: the sandbox writes the shipment record first and the
// index entries after it, so a reader that finds an index entry finds
// the record. On an eventually consistent store (Cloudflare KV, where
// List and reads at other locations may lag writes by up to a minute) a
// new shipment can be missing from get-shipments, or a repeated booking
// made at another location in that window may not see the first one;
// because a dlvr_ref is derived from the client reference, such a race
// rewrites the same keys instead of creating a second shipment.
type Store interface {
	// Get returns the value stored under key; ok is false when there is
	// none.
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// Put stores value under key, replacing any previous value.
	Put(ctx context.Context, key string, value []byte) error
	// List returns every key that starts with prefix, in ascending byte
	// order (the order KV's list uses). Implementations page internally.
	List(ctx context.Context, prefix string) ([]string, error)
}

// MemoryStore is an in-memory Store, safe for concurrent use. Values are
// copied in and out.
type MemoryStore struct {
	mu sync.RWMutex
	m  map[string][]byte
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{m: map[string][]byte{}} }

// Get implements Store.
func (s *MemoryStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	s.mu.RLock()
	v, ok := s.m[key]
	s.mu.RUnlock()
	if !ok {
		return nil, false, nil
	}
	return append([]byte(nil), v...), true, nil
}

// Put implements Store.
func (s *MemoryStore) Put(ctx context.Context, key string, value []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	s.m[key] = append([]byte(nil), value...)
	s.mu.Unlock()
	return nil
}

// List implements Store.
func (s *MemoryStore) List(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	var keys []string
	for k := range s.m {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	s.mu.RUnlock()
	sort.Strings(keys)
	return keys, nil
}

// Len returns the number of keys stored.
func (s *MemoryStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.m)
}

// Key prefixes.
const (
	keyShipment   = "shp/"
	keyClientRef  = "cref/"
	keyCollection = "col/"
	keyIndex      = "idx/"
)

func (sb *Sandbox) loadShipment(ctx context.Context, dlvr string) (*ShipmentRecord, error) {
	b, ok, err := sb.store.Get(ctx, keyShipment+dlvr)
	if err != nil || !ok {
		return nil, err
	}
	rec := new(ShipmentRecord)
	if _, err := rec.UnmarshalMsg(b); err != nil {
		return nil, err
	}
	return rec, nil
}

func (sb *Sandbox) saveShipment(ctx context.Context, rec *ShipmentRecord) error {
	b, err := rec.MarshalMsg(nil)
	if err != nil {
		return err
	}
	return sb.store.Put(ctx, keyShipment+rec.DlvrRef, b)
}

func (sb *Sandbox) loadCollection(ctx context.Context, clientRef string) (*CollectionRec, error) {
	b, ok, err := sb.store.Get(ctx, keyCollection+clientRef)
	if err != nil || !ok {
		return nil, err
	}
	rec := new(CollectionRec)
	if _, err := rec.UnmarshalMsg(b); err != nil {
		return nil, err
	}
	return rec, nil
}

func (sb *Sandbox) dlvrByClientRef(ctx context.Context, clientRef string) (string, error) {
	b, ok, err := sb.store.Get(ctx, keyClientRef+clientRef)
	if err != nil || !ok {
		return "", err
	}
	var r RefRecord
	if _, err := r.UnmarshalMsg(b); err != nil {
		return "", err
	}
	return r.DlvrRef, nil
}
