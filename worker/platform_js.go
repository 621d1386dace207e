//go:build js && wasm

package main

import (
	"context"
	"os"

	"github.com/syumai/workers/cloudflare"

	"github.com/parcelgate/parcelgate/internal/sandbox"
	"github.com/parcelgate/parcelgate/worker/edge"
)

// KVBinding is the name of the KV namespace binding (wrangler.toml) that
// holds the embedded sandbox's state.
const KVBinding = "SANDBOX_KV"

// platform wires the handler to workerd: the worker's env, the fetch
// client, the KV-backed sandbox store and console logging (stdout).
func platform() edge.Deps {
	return edge.Deps{
		Getenv:   cloudflare.Getenv,
		Upstream: fetchDoer{},
		Store: func(ctx context.Context) (sandbox.Store, error) {
			return openKV(KVBinding)
		},
		Log: os.Stdout,
	}
}
