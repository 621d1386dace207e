//go:build !(js && wasm)

// Command bench measures the edge worker under wrangler dev (workerd):
// request latency through the Go worker, through a minimal hand-written
// JavaScript proxy worker (worker/bench/proxy.js) and against the upstream
// called directly, plus the worker's size (wasm raw and gzip, and the
// upload size `wrangler deploy --dry-run` reports). Run by `make bench`
// (bench-worker) after `make worker`.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

const (
	user = "bench"
	key  = "bench-key"
	// A small valid envelope, as get-client-services answers.
	answer = `{"status":"ok","data":[{"id_service":1,"service_name":"Rayo 24","service_type":"24","service_code":"rayo-24","is_drop_point":0,"carrier":{"id_carrier":1,"carrier_name":"Rayo Express","carrier_code":"rayo"},"status":1}]}`
	form   = "carrier_code=rayo&status=1"
)

func main() {
	n := flag.Int("n", 300, "measured requests per target")
	warm := flag.Int("warm", 20, "warm-up requests per target")
	flag.Parse()
	if err := run(*n, *warm); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type row struct {
	name          string
	p50, p90, p99 time.Duration
	errors        int
}

func run(n, warm int) error {
	root, err := wranglerdev.FindRoot()
	if err != nil {
		return err
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	defer up.Close()
	vars := map[string]string{"UPSTREAM_BASE_URL": up.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": "t"}

	goWorker, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars})
	if err != nil {
		return err
	}
	defer goWorker.Stop()
	jsWorker, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars,
		Main: filepath.Join(root, "worker", "bench", "proxy.js")})
	if err != nil {
		return err
	}
	defer jsWorker.Stop()
	sbWorker, err := wranglerdev.Start(wranglerdev.Options{Root: root, KV: true,
		Vars: map[string]string{"API_USER": user, "API_KEY": key, "PROXY_TOKEN": "t"}})
	if err != nil {
		return err
	}
	defer sbWorker.Stop()

	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+key))
	targets := []struct {
		name, url, auth string
	}{
		{"upstream called directly", up.URL + "/v1/get-client-services", auth},
		{"hand-written JS proxy worker", jsWorker.URL + "/v1/get-client-services", ""},
		{"Go worker (validate + forward)", goWorker.URL + "/v1/get-client-services", ""},
		{"Go worker, embedded sandbox", sbWorker.URL + "/v1/get-client-services", ""},
	}
	// Requests are interleaved across the targets (one to each in turn) so
	// that load from elsewhere on the machine hits them alike.
	client := &http.Client{Timeout: 30 * time.Second}
	rows := make([]row, len(targets))
	lat := make([][]time.Duration, len(targets))
	for i := 0; i < warm+n; i++ {
		for j, tg := range targets {
			rows[j].name = tg.name
			req, _ := http.NewRequest("POST", tg.url, strings.NewReader(form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tg.auth != "" {
				req.Header.Set("Authorization", tg.auth)
			}
			t0 := time.Now()
			res, err := client.Do(req)
			if err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			d := time.Since(t0)
			if err != nil || res.StatusCode != 200 {
				rows[j].errors++
				continue
			}
			if i >= warm {
				lat[j] = append(lat[j], d)
			}
		}
	}
	for j := range rows {
		l := lat[j]
		sort.Slice(l, func(a, b int) bool { return l[a] < l[b] })
		rows[j].p50, rows[j].p90, rows[j].p99 = pct(l, 50), pct(l, 90), pct(l, 99)
	}

	fmt.Printf("\nLatency under wrangler dev (workerd), %d sequential POST /v1/get-client-services per target (interleaved) after %d warm-up, 127.0.0.1:\n\n", n, warm)
	fmt.Printf("| %-32s | %8s | %8s | %8s | %6s |\n", "target", "p50 ms", "p90 ms", "p99 ms", "errors")
	fmt.Printf("|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 34), strings.Repeat("-", 10), strings.Repeat("-", 10), strings.Repeat("-", 10), strings.Repeat("-", 8))
	for _, r := range rows {
		fmt.Printf("| %-32s | %8.2f | %8.2f | %8.2f | %6d |\n", r.name, msf(r.p50), msf(r.p90), msf(r.p99), r.errors)
	}

	wasm, err := os.ReadFile(filepath.Join(root, "build", "worker", "app.wasm"))
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(wasm)
	_ = zw.Close()
	upload, err := dryRun(root)
	if err != nil {
		return err
	}
	fmt.Printf("\nSize:\n\n| %-40s | %12s |\n|%s|%s|\n", "artifact", "size", strings.Repeat("-", 42), strings.Repeat("-", 14))
	fmt.Printf("| %-40s | %9.0f KiB |\n", "app.wasm raw", float64(len(wasm))/1024)
	fmt.Printf("| %-40s | %9.0f KiB |\n", "app.wasm gzip -9", float64(gz.Len())/1024)
	fmt.Printf("| %-40s | %12s |\n", "wrangler deploy --dry-run upload", upload)
	fmt.Println("\nCloudflare's compressed upload limits: 3 MiB (free plan), 10 MiB (paid).")
	return nil
}

// dryRun runs `wrangler deploy --dry-run --outdir` on the project's
// wrangler.toml and returns its "Total Upload" figure.
func dryRun(root string) (string, error) {
	out, err := os.MkdirTemp("", "parcelgate-dry-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(out)
	cmd := exec.Command("node", filepath.Join(root, "node_modules", "wrangler", "bin", "wrangler.js"),
		"deploy", "--dry-run", "--outdir", out)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "WRANGLER_SEND_ERROR_REPORTS=false",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "WRANGLER_HIDE_BANNER=true", "NO_COLOR=1", "CI=1")
	b, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("wrangler deploy --dry-run: %v\n%s", err, b)
	}
	m := regexp.MustCompile(`Total Upload: ([0-9.]+ KiB / gzip: [0-9.]+ KiB)`).FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("no Total Upload line in:\n%s", b)
	}
	return string(m[1]), nil
}

func pct(s []time.Duration, p int) time.Duration {
	if len(s) == 0 {
		return 0
	}
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
