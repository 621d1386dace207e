//go:build !(js && wasm)

package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/parcelgate/parcelgate/internal/sandbox"
	"github.com/parcelgate/parcelgate/worker/edge"
	"github.com/parcelgate/parcelgate/worker/watch"
)

// platform wires the handler to a native process: os.Getenv, net/http and
// an in-process sandbox on an in-memory store that lives as long as the
// process. Only this native build imports internal/sandbox: under workerd
// the sandbox is a worker of its own.
func platform() edge.Deps {
	store := sandbox.NewMemoryStore()
	return edge.Deps{
		Getenv:    os.Getenv,
		LookupEnv: os.LookupEnv,
		Upstream:  &http.Client{CheckRedirect: noRedirect},
		Sandbox: func(_ context.Context, o edge.SandboxOptions) (edge.Doer, error) {
			return edge.HandlerDoer{Handler: sandbox.New(sandbox.WithStore(store), sandbox.WithCredentials(o.User, o.Key),
				sandbox.WithRules(o.Rules), sandbox.WithTimeScale(o.TimeScale), sandbox.WithClock(o.Now))}, nil
		},
		Bookings:   edge.NewMemoryLedger(),
		Watchlists: memoryWatchlists(),
		Log:        os.Stdout,
	}
}

// memoryWatchlists keeps the tracking webhooks' watchlists in memory, one
// per name, for the life of the process.
func memoryWatchlists() func(string) watch.Store {
	var mu sync.Mutex
	lists := map[string]*watch.MemoryStore{}
	return func(name string) watch.Store {
		mu.Lock()
		defer mu.Unlock()
		if lists[name] == nil {
			lists[name] = watch.NewMemoryStore()
		}
		return lists[name]
	}
}

// watchLoop is the native stand-in for the Cron Trigger: a watcher run
// every minute while WEBHOOK_URL is set.
func watchLoop(h *edge.Handler) {
	if os.Getenv(edge.EnvWebhookURL) == "" {
		return
	}
	t := time.NewTicker(time.Minute)
	for now := range t.C {
		_, _ = h.Watch(context.Background(), now) // it logs its own line
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
	go watchLoop(h)
	fmt.Fprintf(os.Stderr, "parcelgate edge worker (native) on http://%s\n", srv.Addr)
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}
