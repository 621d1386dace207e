//go:build !(js && wasm)

// Command bench measures the edge worker under wrangler dev (workerd)
// against a minimal hand-written JavaScript proxy worker
// (worker/bench/proxy.js) as the baseline, both forwarding to the same
// fake upstream on 127.0.0.1:
//
//   - p50/p90 at concurrency 1 (requests interleaved across the two
//     workers, so that load from elsewhere hits both alike), throughput
//     at concurrency 16, and workerd CPU time per request (utime+stime of
//     each wrangler's workerd processes over the measured requests), for
//     /healthz, a forwarded read, a cached read and a new-shipment forward;
//   - memory over 20,000 requests (the Go instance's linear memory and
//     workerd's RSS at 0, 5k, 10k and 20k);
//   - cold start: the first request to a fresh isolate, and requests that
//     each get a fresh Go instance in a warm isolate;
//   - tracking webhooks: a booking with and without WEBHOOK_URL, and the
//     cost of a watcher run (webhooks.go);
//   - size: app.wasm raw and gzip, and `wrangler deploy --dry-run`.
//
// Run by `make bench` (bench-worker) after `make worker`. Bounded: every
// loop has a fixed count or duration, and every request a timeout.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

const (
	user  = "bench"
	key   = "bench-key-0123456789"
	token = "bench-proxy-token-0123456789abcdef"
	// Small valid envelopes, as the upstream answers.
	servicesAnswer = `{"status":"ok","data":[{"id_service":1,"service_name":"Rayo 24","service_type":"24","service_code":"rayo-24","is_drop_point":0,"carrier":{"id_carrier":1,"carrier_name":"Rayo Express","carrier_code":"rayo"},"status":1}]}`
	cutoffAnswer   = `{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}}`
	bookingAnswer  = `{"status":"ok","data":{"shipping_dlvr_ref":"DLV000123","shipping_client_ref":"ORDER-1","shipping_carrier_ref":"RAY123","shipping_carrier_guid":"g-1","service_type":"custom","carrier_code":"rayo","service_code":"rayo-24","carrier_phone":"900000000","advance_tracking_url":"https://track.example/DLV000123"}}`
)

// scenario is one kind of request, sent to both workers.
type scenario struct {
	name   string
	method string
	path   string
	body   string
	auth   bool
	goOnly bool // compared with the JS proxy's forwarded read instead
}

func scenarios() []scenario {
	ship := "shipping_date=" + nextWeekday() + "&service_type=custom&carrier_code=rayo&service_code=rayo-24&shipping_client_ref=ORDER-1" +
		"&from_name=Tienda&from_address=Calle+de+Alcala+1&from_city=Madrid&from_zip_code=28014&from_country_code=ES" +
		"&to_name=Ana&to_address=Carrer+de+Pau+Claris+1&to_city=Barcelona&to_zip_code=08001&to_country_code=ES&to_phone=600000000" +
		"&parcels%5B0%5D%5Bparcel_weight%5D=1.5&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10" +
		"&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000"
	return []scenario{
		{name: "GET /healthz", method: "GET", path: "/healthz"},
		{name: "forwarded read (get-collection-cutoff-hour)", method: "POST", path: "/v1/get-collection-cutoff-hour",
			body: "country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo"},
		{name: "cached read (get-client-services, HIT)", method: "POST", path: "/v1/get-client-services",
			body: "carrier_code=rayo&status=1", goOnly: true},
		{name: "new-shipment (Go worker: through the Bookings Durable Object)", method: "POST", path: "/v1/new-shipment", body: ship, auth: true},
	}
}

func nextWeekday() string {
	d := time.Now().AddDate(0, 0, 7)
	for d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
		d = d.AddDate(0, 0, 1)
	}
	return d.Format("2006-01-02")
}

type target struct {
	name string
	srv  *wranglerdev.Server
	// bookingOnly: measured on bookings only (the Go worker with
	// EXACTLY_ONCE=false: the plain forward, without the Bookings object).
	bookingOnly bool
}

// skip reports whether target tg sits out scenario sc.
func skip(tg target, sc scenario, js *wranglerdev.Server) bool {
	return sc.goOnly && tg.srv == js || tg.bookingOnly && !strings.Contains(sc.path, "new-shipment")
}

func main() {
	n := flag.Int("n", 300, "measured requests per target and scenario at concurrency 1")
	warm := flag.Int("warm", 30, "warm-up requests per target and scenario")
	dur := flag.Duration("d", 5*time.Second, "duration of each concurrency-16 run")
	memN := flag.Int("mem", 20000, "requests of the memory run")
	parts := flag.String("parts", "latency,throughput,memory,cold,webhooks,size", "parts to run")
	flag.Parse()
	for _, p := range strings.Split(*parts, ",") {
		want[strings.TrimSpace(p)] = true
	}
	if err := run(*n, *warm, *dur, *memN); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// want holds the parts of the bench to run (-parts).
var want = map[string]bool{}

var client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

func run(n, warm int, dur time.Duration, memN int) error {
	root, err := wranglerdev.FindRoot()
	if err != nil {
		return err
	}
	var upCalls atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		upCalls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/new-shipment"):
			_, _ = io.WriteString(w, bookingAnswer)
		case strings.HasSuffix(r.URL.Path, "/get-collection-cutoff-hour"):
			_, _ = io.WriteString(w, cutoffAnswer)
		default:
			_, _ = io.WriteString(w, servicesAnswer)
		}
	}))
	defer up.Close()
	vars := map[string]string{"UPSTREAM_BASE_URL": up.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token}

	goW, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars})
	if err != nil {
		return err
	}
	defer goW.Stop()
	jsW, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars, Main: filepath.Join(root, "worker", "bench", "proxy.js")})
	if err != nil {
		return err
	}
	defer jsW.Stop()
	plainVars := map[string]string{"EXACTLY_ONCE": "false"}
	for k, v := range vars {
		plainVars[k] = v
	}
	goPlain, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: plainVars, NoBookings: true})
	if err != nil {
		return err
	}
	defer goPlain.Stop()
	targets := []target{{name: "Go worker", srv: goW}, {name: "JS proxy worker", srv: jsW},
		{name: "Go worker, EXACTLY_ONCE=false (plain forward)", srv: goPlain, bookingOnly: true}}

	fmt.Printf("Machine: %d CPUs (%s/%s), %s. Fake upstream on 127.0.0.1; wrangler dev (workerd) per worker.\n",
		runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, cpuModel())
	if want["latency"] {
		if err := latencyAndThroughput(targets, goW, jsW, n, warm, dur); err != nil {
			return err
		}
	}
	if want["memory"] {
		if err := memoryRun(targets[:2], memN); err != nil {
			return err
		}
	}
	if want["cold"] {
		if err := coldStart(root, vars); err != nil {
			return err
		}
	}
	if want["webhooks"] {
		if err := webhooksPart(root); err != nil {
			return err
		}
	}
	if want["size"] {
		return sizes(root)
	}
	return nil
}

// latencyAndThroughput measures every scenario on both workers and checks
// the targets.
func latencyAndThroughput(targets []target, goW, jsW *wranglerdev.Server, n, warm int, dur time.Duration) error {
	fmt.Printf("\n## Latency and CPU (concurrency 1, %d requests per cell after %d warm-up, interleaved)\n\n", n, warm)
	fmt.Println("| scenario | worker | p50 ms | p90 ms | workerd CPU ms/request | errors |")
	fmt.Println("|---|---|---|---|---|---|")
	type cell struct {
		p50, p90, cpu float64
		rps           float64
	}
	res := map[string]map[string]*cell{}
	for _, sc := range scenarios() {
		res[sc.name] = map[string]*cell{}
		lat := make([][]time.Duration, len(targets))
		errs := make([]int, len(targets))
		for i := 0; i < warm; i++ {
			for _, tg := range targets {
				if skip(tg, sc, jsW) {
					continue
				}
				_, _ = do(tg.srv.URL, sc)
			}
		}
		cpu0 := make([]time.Duration, len(targets))
		for j, tg := range targets {
			cpu0[j], _ = tg.srv.WorkerdStats()
		}
		for i := 0; i < n; i++ {
			for j, tg := range targets {
				if skip(tg, sc, jsW) {
					continue
				}
				d, err := do(tg.srv.URL, sc)
				if err != nil {
					errs[j]++
					continue
				}
				lat[j] = append(lat[j], d)
			}
		}
		for j, tg := range targets {
			if skip(tg, sc, jsW) {
				continue
			}
			cpu1, _ := tg.srv.WorkerdStats()
			c := &cell{p50: msf(pct(lat[j], 50)), p90: msf(pct(lat[j], 90)), cpu: msf(cpu1-cpu0[j]) / float64(n)}
			res[sc.name][tg.name] = c
			fmt.Printf("| %s | %s | %.2f | %.2f | %.2f | %d |\n", sc.name, tg.name, c.p50, c.p90, c.cpu, errs[j])
		}
	}

	fmt.Printf("\n## Throughput (concurrency 16, %v per cell, one worker at a time)\n\n", dur)
	fmt.Println("| scenario | worker | requests/s | errors |")
	fmt.Println("|---|---|---|---|")
	for _, sc := range scenarios() {
		for _, tg := range targets {
			if skip(tg, sc, jsW) {
				continue
			}
			rps, errs := throughput(tg.srv.URL, sc, 16, dur)
			res[sc.name][tg.name].rps = rps
			fmt.Printf("| %s | %s | %.0f | %d |\n", sc.name, tg.name, rps, errs)
		}
	}

	fmt.Println("\n## Targets (issue: edge runtime)")
	fmt.Println()
	sc := scenarios()
	fwd, cached := sc[1].name, sc[2].name
	check := func(what string, ok bool, detail string) {
		mark := "met"
		if !ok {
			mark = "NOT met"
		}
		fmt.Printf("- %s: %s (%s)\n", what, mark, detail)
	}
	g, j := res[fwd]["Go worker"], res[fwd]["JS proxy worker"]
	check("forwarded read p50 within 1.5x of the JS proxy", g.p50 <= 1.5*j.p50, fmt.Sprintf("%.2f vs %.2f ms, %.2fx", g.p50, j.p50, g.p50/j.p50))
	for _, s := range sc {
		if s.goOnly {
			continue
		}
		g, j := res[s.name]["Go worker"], res[s.name]["JS proxy worker"]
		name := s.name
		if p := res[s.name]["Go worker, EXACTLY_ONCE=false (plain forward)"]; p != nil {
			// The target is about the forward; exactly-once is reported beside it.
			fmt.Printf("- (information) new-shipment through the Bookings Durable Object: %.0f req/s (%.2fx), %.2f ms CPU (%.2fx); the JS proxy has no exactly-once\n",
				g.rps, g.rps/j.rps, g.cpu, g.cpu/j.cpu)
			g, name = p, "new-shipment forward (EXACTLY_ONCE=false)"
		}
		check("throughput at c=16 at least half the JS proxy's, "+name, g.rps >= 0.5*j.rps, fmt.Sprintf("%.0f vs %.0f req/s, %.2fx", g.rps, j.rps, g.rps/j.rps))
		check("CPU per request within 2x of the JS proxy, "+name, g.cpu <= 2*j.cpu, fmt.Sprintf("%.2f vs %.2f ms, %.2fx", g.cpu, j.cpu, g.cpu/j.cpu))
	}
	c := res[cached]["Go worker"]
	check("cached read faster than the JS proxy's forwarded read", c.p50 < j.p50, fmt.Sprintf("p50 %.2f vs %.2f ms", c.p50, j.p50))
	return nil
}

// refs numbers the bookings: each is a new client reference, so that the
// Bookings Durable Object forwards it rather than replaying the first.
var refs atomic.Int64

// do sends one request and reports its latency; an answer other than 200
// is an error.
func do(base string, sc scenario) (time.Duration, error) {
	var body io.Reader
	if sc.body != "" {
		b := sc.body
		if strings.Contains(b, "ORDER-1") {
			b = strings.Replace(b, "ORDER-1", "B-"+strconv.FormatInt(refs.Add(1), 10), 1)
		}
		body = strings.NewReader(b)
	}
	req, _ := http.NewRequest(sc.method, base+sc.path, body)
	if sc.body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if sc.auth {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	t0 := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	d := time.Since(t0)
	if res.StatusCode != 200 {
		return d, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return d, nil
}

// throughput runs c clients for d and returns completed requests per second.
func throughput(base string, sc scenario, c int, d time.Duration) (float64, int) {
	var ok, bad atomic.Int64
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for i := 0; i < c; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if _, err := do(base, sc); err != nil {
					bad.Add(1)
				} else {
					ok.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return float64(ok.Load()) / d.Seconds(), int(bad.Load())
}

// memoryRun sends n requests to each worker (healthz, cached and
// forwarded reads and bookings in turn, 4 at a time) and reports memory
// at 0, 5k, 10k and 20k: the Go instance's linear memory, and workerd's
// RSS next to the JS proxy's under the same load (what the dev runtime
// itself keeps, e.g. console lines for the inspector, shows in both).
func memoryRun(targets []target, n int) error {
	fmt.Printf("\n## Memory over %d requests (concurrency 4)\n\n", n)
	fmt.Println("| requests | Go instance | Go instance linear memory MiB | Go worker workerd RSS MiB | JS proxy workerd RSS MiB |")
	fmt.Println("|---|---|---|---|---|")
	report := func(done int) error {
		r, err := client.Get(targets[0].srv.URL + "/healthz")
		if err != nil {
			return err
		}
		defer r.Body.Close()
		var h struct {
			Data struct {
				Instance struct {
					ID          string `json:"id"`
					MemoryBytes int64  `json:"memory_bytes"`
				} `json:"instance"`
			} `json:"data"`
		}
		if err := json.NewDecoder(r.Body).Decode(&h); err != nil {
			return err
		}
		_, rssGo := targets[0].srv.WorkerdStats()
		_, rssJS := targets[1].srv.WorkerdStats()
		fmt.Printf("| %d | %s | %.1f | %.1f | %.1f |\n", done, h.Data.Instance.ID, float64(h.Data.Instance.MemoryBytes)/(1<<20),
			float64(rssGo)/(1<<20), float64(rssJS)/(1<<20))
		return nil
	}
	if err := report(0); err != nil {
		return err
	}
	sc := scenarios()
	marks := []int{5000, 10000, 20000}
	if n != 20000 {
		marks = []int{n / 4, n / 2, n}
	}
	done := 0
	for _, m := range marks {
		for _, tg := range targets {
			var next atomic.Int64
			next.Store(int64(done))
			var wg sync.WaitGroup
			for i := 0; i < 4; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						k := next.Add(1)
						if k > int64(m) {
							return
						}
						_, _ = do(tg.srv.URL, sc[int(k)%len(sc)])
					}
				}()
			}
			wg.Wait()
		}
		done = m
		if err := report(done); err != nil {
			return err
		}
	}
	return nil
}

// coldStart times the first request to a fresh isolate (three fresh
// wrangler dev each), and requests that each get a fresh Go instance in a
// warm isolate (INSTANCE_MAX_REQUESTS=1), next to warm ones.
func coldStart(root string, vars map[string]string) error {
	fmt.Println("\n## Cold start")
	fmt.Println()
	fmt.Println("| measure | Go worker | JS proxy worker |")
	fmt.Println("|---|---|---|")
	first := func(main string) (string, error) {
		var ds []string
		for i := 0; i < 3; i++ {
			s, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars, Main: main, NoProbe: true})
			if err != nil {
				return "", err
			}
			d, err := do(s.URL, scenario{method: "GET", path: "/healthz"})
			cpu, _ := s.WorkerdStats()
			s.Stop()
			if err != nil {
				return "", err
			}
			ds = append(ds, fmt.Sprintf("%.0f", msf(d)))
			_ = cpu
		}
		return strings.Join(ds, ", ") + " ms", nil
	}
	g, err := first("")
	if err != nil {
		return err
	}
	j, err := first(filepath.Join(root, "worker", "bench", "proxy.js"))
	if err != nil {
		return err
	}
	fmt.Printf("| first request to a fresh isolate (module compile + instantiation + start), 3 runs | %s | %s |\n", g, j)

	fresh := map[string]string{"INSTANCE_MAX_REQUESTS": "1"}
	for k, v := range vars {
		fresh[k] = v
	}
	s, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: fresh})
	if err != nil {
		return err
	}
	defer s.Stop()
	var lat []time.Duration
	sc := scenario{method: "GET", path: "/healthz"}
	for i := 0; i < 20; i++ {
		_, _ = do(s.URL, sc)
	}
	cpu0, _ := s.WorkerdStats()
	for i := 0; i < 100; i++ {
		d, err := do(s.URL, sc)
		if err == nil {
			lat = append(lat, d)
		}
	}
	cpu1, _ := s.WorkerdStats()
	fmt.Printf("| /healthz on a fresh Go instance each (instantiation + Go start), p50 / p90, CPU per request | %.2f / %.2f ms, %.2f ms CPU | — |\n",
		msf(pct(lat, 50)), msf(pct(lat, 90)), msf(cpu1-cpu0)/100)
	return nil
}

func sizes(root string) error {
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
	fmt.Println("\n## Size")
	fmt.Println()
	fmt.Println("| artifact | size |")
	fmt.Println("|---|---|")
	fmt.Printf("| app.wasm raw | %.0f KiB |\n", float64(len(wasm))/1024)
	fmt.Printf("| app.wasm gzip -9 | %.0f KiB |\n", float64(gz.Len())/1024)
	fmt.Printf("| wrangler deploy --dry-run upload | %s |\n", upload)
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

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			if _, v, ok := strings.Cut(l, ":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return "unknown CPU"
}

func pct(s []time.Duration, p int) time.Duration {
	if len(s) == 0 {
		return 0
	}
	s = append([]time.Duration(nil), s...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
