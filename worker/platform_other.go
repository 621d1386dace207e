//go:build !(js && wasm)

package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/parcelgate/parcelgate/internal/sandbox"
	"github.com/parcelgate/parcelgate/worker/edge"
)

// platform wires the handler to a native process: os.Getenv, net/http and
// an in-memory sandbox store that lives as long as the process.
func platform() edge.Deps {
	store := sandbox.NewMemoryStore()
	return edge.Deps{
		Getenv:    os.Getenv,
		LookupEnv: os.LookupEnv,
		Upstream:  &http.Client{CheckRedirect: noRedirect},
		Store: func(context.Context) (sandbox.Store, error) {
			return store, nil
		},
		Bookings: edge.NewMemoryLedger(),
		Log:      os.Stdout,
	}
}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// serve runs plain net/http on 127.0.0.1:$PORT (default 9900): loopback
// only (it holds the merchant's credentials), with timeouts so that a
// slow client cannot hold a connection forever.
func serve(h *edge.Handler) {
	port := os.Getenv("PORT")
	if port == "" {
		port = "9900"
	}
	srv := &http.Server{
		Addr:              "127.0.0.1:" + port,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    32 << 10,
	}
	fmt.Fprintf(os.Stderr, "parcelgate edge worker (native) on http://%s\n", srv.Addr)
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}
