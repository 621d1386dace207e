//go:build js && wasm

package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/syumai/workers/cloudflare"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/worker/bridge"
	"github.com/parcelgate/parcelgate/worker/edge"
	"github.com/parcelgate/parcelgate/worker/watch"
)

// SandboxBinding is the service binding (wrangler.toml's [env.dev]) to
// the sandbox worker (internal/sandbox/worker) that UPSTREAM_BASE_URL =
// "sandbox" selects. The production configuration has none.
const SandboxBinding = "SANDBOX"

// BookingsBinding is the Durable Object namespace (class Bookings in
// worker/entry.mjs) that makes bookings exactly-once.
const BookingsBinding = "BOOKINGS"

// platform wires the handler to workerd: the worker's env, fetch and the
// Cache API through the entry, the sandbox worker through its service
// binding and console logging (stdout).
func platform() edge.Deps {
	return edge.Deps{
		Getenv: cloudflare.Getenv,
		// env.X is undefined when unset and "" when set empty: PUBLIC_OPERATIONS
		// set but empty means none, not the defaults.
		LookupEnv: func(name string) (string, bool) {
			v := cloudflare.GetBinding(name)
			if v.IsUndefined() || v.IsNull() {
				return "", false
			}
			return v.String(), true
		},
		Upstream: bridge.Fetch{MaxBytes: edge.MaxUpstreamBody},
		Shared:   bridge.Cache{},
		Bookings: bridge.Ledger{Binding: BookingsBinding},
		Limiter:  bridge.Limiter{},
		Sandbox:  sandboxService(),
		Instance: func(ctx context.Context) edge.InstanceInfo {
			id, n, mem := bridge.Info(ctx)
			return edge.InstanceInfo{ID: id, Requests: n, MemoryBytes: mem}
		},
		Watchlists: watchlists(),
		// Only the status of a delivery counts: the receiver's answer is
		// not read.
		Webhooks: bridge.Fetch{Discard: true, Label: "webhook"},
		Log:      os.Stdout,
	}
}

// sandboxService reaches the sandbox worker through the SANDBOX service
// binding; nil when the binding is absent (a configuration error only
// with UPSTREAM_BASE_URL=sandbox).
func sandboxService() func(context.Context, edge.SandboxOptions) (edge.Doer, error) {
	if !bridge.Bound(SandboxBinding) {
		return nil
	}
	// The sandbox worker has settings of its own: o is for in-process
	// sandboxes.
	fetch := bridge.Fetch{MaxBytes: edge.MaxUpstreamBody, Service: SandboxBinding}
	return func(context.Context, edge.SandboxOptions) (edge.Doer, error) { return fetch, nil }
}

// watchlists opens the WATCHLIST Durable Object's lists; nil when the
// binding is absent (a configuration error only with WEBHOOK_URL set).
func watchlists() func(string) watch.Store {
	if !bridge.Bound(edge.WatchlistBinding) {
		return nil
	}
	return func(name string) watch.Store { return bridge.Watchlist{Binding: edge.WatchlistBinding, Name: name} }
}

// serve hands the isolate's requests to h for the life of the instance.
func serve(h *edge.Handler) {
	// The instance lives across requests and its live heap is small (a
	// few MB): collecting at 5x the live heap instead of 2x spends less
	// CPU in the collector and stays far below INSTANCE_MAX_MEMORY_MB.
	debug.SetGCPercent(400)
	maxBody, maxRequests, maxMemoryMB, deadline := h.Limits()
	bridge.Scheduled = h.Watch
	var bookings []string
	for i := range catalog.Operations {
		if op := &catalog.Operations[i]; op.Books {
			bookings = append(bookings, "/v1/"+op.Name)
		}
	}
	bridge.Serve(h, bridge.Limits{MaxBodyBytes: maxBody, MaxRequests: maxRequests,
		MaxMemoryBytes: int64(maxMemoryMB) << 20, BookingPaths: bookings, Deadline: deadline})
}
