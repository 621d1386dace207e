package watch

import (
	"context"
	"sort"
	"sync"
	"time"
)

// MemoryStore is a Store in process memory, for the native server and
// tests; it behaves as the Watchlist Durable Object does.
type MemoryStore struct {
	mu        sync.Mutex
	rows      map[string]*Row
	delivered int64
	dropped   int64
	last      *Report
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{rows: map[string]*Row{}} }

// Add implements Store.
func (m *MemoryStore) Add(_ context.Context, ref, clientRef string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.rows[ref]; !ok {
		m.rows[ref] = &Row{Ref: ref, ClientRef: clientRef, Added: at.UnixMilli(), NextAt: at.UnixMilli()}
	}
	return nil
}

// Lease implements Store.
func (m *MemoryStore) Lease(_ context.Context, now time.Time, n int, hold time.Duration) ([]Row, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var due []*Row
	for _, r := range m.rows {
		if r.NextAt <= now.UnixMilli() {
			due = append(due, r)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		if due[i].NextAt != due[j].NextAt {
			return due[i].NextAt < due[j].NextAt
		}
		return due[i].Ref < due[j].Ref
	})
	if len(due) > n {
		due = due[:n]
	}
	out := make([]Row, len(due))
	for i, r := range due {
		out[i] = *r
		r.NextAt = now.Add(hold).UnixMilli()
	}
	return out, nil
}

// Commit implements Store.
func (m *MemoryStore) Commit(_ context.Context, c Commit) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range c.Save {
		if cur, ok := m.rows[r.Ref]; ok {
			cur.NextAt, cur.Pending, cur.State = r.NextAt, r.Pending, r.State
		}
	}
	for _, ref := range c.Remove {
		delete(m.rows, ref)
	}
	m.delivered += int64(c.Delivered)
	m.dropped += int64(c.Dropped)
	run := c.Run
	m.last = &run
	return nil
}

// Stats implements Store.
func (m *MemoryStore) Stats(context.Context) (Stats, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Stats{Watched: len(m.rows), Delivered: m.delivered, Dropped: m.dropped}
	for _, r := range m.rows {
		s.Pending += r.Pending
	}
	if m.last != nil {
		last := *m.last
		s.LastRun = &last
	}
	return s, nil
}

// Rows returns a copy of the rows, for tests.
func (m *MemoryStore) Rows() []Row {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Row, 0, len(m.rows))
	for _, r := range m.rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out
}
