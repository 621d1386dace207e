// Command sandbox runs the parcelgate sandbox (the shipping service's test
// mode) natively, with its state in memory:
//
//	go run ./internal/sandbox/cmd/sandbox -addr 127.0.0.1:8080
//
// then, with the default credentials:
//
//	curl -u sandbox:sandbox-key http://127.0.0.1:8080/v1/get-client-carriers
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/parcelgate/parcelgate/internal/sandbox"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	user := flag.String("user", envOr("SANDBOX_USER", sandbox.DefaultUser), "Basic auth user (env SANDBOX_USER)")
	key := flag.String("key", envOr("SANDBOX_KEY", sandbox.DefaultKey), "Basic auth API key (env SANDBOX_KEY)")
	scale := flag.Float64("time-scale", 1, "tracking speed-up factor (3600: a day in 24 s)")
	rules := flag.Bool("rules", false, "enable the carrier-selection rules feature")
	clockHeader := flag.Bool("clock-header", false, "let requests set the clock with "+sandbox.HeaderNow)
	flag.Parse()

	sb := sandbox.New(
		sandbox.WithCredentials(*user, *key),
		sandbox.WithTimeScale(*scale),
		sandbox.WithRules(*rules),
		sandbox.WithClockHeader(*clockHeader),
	)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write([]byte(`{"status":"ok","data":{"service":"parcelgate-sandbox"}}`))
	})
	mux.Handle("/", sb)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/v1"
	log.Printf("parcelgate sandbox on %s (user %q, time scale %g, rules %v)", base, *user, *scale, *rules)
	log.Printf("try: curl -u %s:%s %s/get-client-carriers", *user, strings.Repeat("*", len(*key)), base)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
