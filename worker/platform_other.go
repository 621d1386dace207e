//go:build !(js && wasm)

package main

import (
	"context"
	"net/http"
	"os"

	"github.com/parcelgate/parcelgate/internal/sandbox"
	"github.com/parcelgate/parcelgate/worker/edge"
)

// platform wires the handler to a native process: os.Getenv, net/http and
// an in-memory sandbox store that lives as long as the process.
func platform() edge.Deps {
	store := sandbox.NewMemoryStore()
	return edge.Deps{
		Getenv:   os.Getenv,
		Upstream: &http.Client{CheckRedirect: noRedirect},
		Store: func(context.Context) (sandbox.Store, error) {
			return store, nil
		},
		Log: os.Stdout,
	}
}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
