//go:build !(js && wasm)

package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// The rates part (issue 31): get-shipments-rates p50/p99 at the edge
// (RATES_DEADLINE_MS at its default, 2500) and through the plain JS proxy,
// with the upstream healthy, 9 s slow, answering 503 and dropping
// connections. The edge has had one live answer for the route first, so
// in the last three it answers from the recent answer; the proxy waits or
// fails. Checked: the edge's p99 at most the deadline + 150 ms in the
// last three, every answer a 200.

const ratesAnswer = `{"status":"ok","data":{"best_price_service":{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"3.90","currency":"EUR"},"services":[{"id_service":12,"service_name":"SwiftPost Shop","service_code":"swiftpost-shop","service_type":"48","carrier_code":"swiftpost","carrier_name":"SwiftPost","is_drop_point":"1","price":"3.90","currency":"EUR"}]}}`

const ratesBody = "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001&parcels%5B0%5D%5Bparcel_weight%5D=2&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000"

// ratesN is the count of measured requests per cell (-rates-n); the
// proxy's 9 s cell sends its requests 8 at a time (sequentially it would
// take ratesN x 9 s).
var ratesN = 40

func ratesPart(root string) error {
	var mode atomic.Value
	mode.Store("healthy")
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch mode.Load().(string) {
		case "503":
			w.WriteHeader(503)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":999,"errorMessage":"unavailable"}}`)
			return
		case "drop":
			if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
				c.Close()
			}
			return
		case "slow":
			select {
			case <-time.After(9 * time.Second):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, ratesAnswer)
	}))
	defer up.Close()
	vars := map[string]string{"UPSTREAM_BASE_URL": up.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signing}
	edge, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars})
	if err != nil {
		return err
	}
	defer edge.Stop()
	proxy, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars, Main: filepath.Join(root, "worker", "bench", "proxy.js")})
	if err != nil {
		return err
	}
	defer proxy.Stop()
	// post returns the client's wait, the status, the source and the
	// edge's own time (its Server-Timing edge;dur=, from the request's
	// arrival in workerd to its answer; 0 for the proxy): what the client
	// waits beyond it is wrangler dev's proxy, the machine's scheduling
	// and the transport, not the worker's.
	post := func(base string) (time.Duration, int, string, time.Duration) {
		req, _ := http.NewRequest("POST", base+"/v1/get-shipments-rates", strings.NewReader(ratesBody))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return time.Since(t0), 0, "", 0
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		var inEdge time.Duration
		if st := res.Header.Get("Server-Timing"); strings.HasPrefix(st, "edge;dur=") {
			v, _, _ := strings.Cut(strings.TrimPrefix(st, "edge;dur="), ",")
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				inEdge = time.Duration(f * float64(time.Millisecond))
			}
		}
		return time.Since(t0), res.StatusCode, res.Header.Get("Rates-Source"), inEdge
	}
	// A live answer at the edge first (and warm-up for both).
	for i := 0; i < 10; i++ {
		post(edge.URL)
		post(proxy.URL)
	}
	const deadline = 2500 * time.Millisecond
	fmt.Printf("\n## Rates with a deadline (get-shipments-rates, %d requests per cell; RATES_DEADLINE_MS 2500; the edge had a live answer first)\n\n", ratesN)
	fmt.Println("| upstream | worker | p50 ms | p99 ms | in the edge p50 / p99 ms | answers 200 | sources |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var checks []func()
	for _, m := range []string{"healthy", "slow", "503", "drop"} {
		mode.Store(m)
		for _, tg := range []struct {
			name string
			base string
		}{{nEdge, edge.URL}, {nProxy, proxy.URL}} {
			lat := make([]time.Duration, ratesN)
			inEdge := make([]time.Duration, ratesN)
			codes := make([]int, ratesN)
			srcs := map[string]int{}
			var mu sync.Mutex
			par := 1
			if m == "slow" && tg.name == nProxy {
				par = 8
			}
			var wg sync.WaitGroup
			next := atomic.Int64{}
			for w := 0; w < par; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= ratesN {
							return
						}
						d, code, src, e := post(tg.base)
						mu.Lock()
						lat[i], codes[i], inEdge[i] = d, code, e
						srcs[src]++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			ok := 0
			for _, c := range codes {
				if c == 200 {
					ok++
				}
			}
			sorted := append([]time.Duration(nil), lat...)
			sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
			p50, p99 := pct(sorted, 50), pct(sorted, 99)
			sort.Slice(inEdge, func(i, j int) bool { return inEdge[i] < inEdge[j] })
			edgeCol := "-"
			if tg.name == nEdge {
				edgeCol = fmt.Sprintf("%.1f / %.1f", msf(pct(inEdge, 50)), msf(pct(inEdge, 99)))
			}
			var ss []string
			for k, v := range srcs {
				if k == "" {
					k = "none"
				}
				ss = append(ss, fmt.Sprintf("%s %d", k, v))
			}
			sort.Strings(ss)
			fmt.Printf("| %s | %s | %.1f | %.1f | %s | %d/%d | %s |\n", m, tg.name, msf(p50), msf(p99), edgeCol, ok, ratesN, strings.Join(ss, ", "))
			if tg.name == nEdge && m != "healthy" {
				what, met, detail := "edge rates p99 within the deadline + 150 ms, upstream "+m, p99 <= deadline+150*time.Millisecond && ok == ratesN,
					fmt.Sprintf("p99 %.1f ms, %d/%d answered 200", msf(p99), ok, ratesN)
				checks = append(checks, func() { check(what, met, detail) })
			}
		}
	}
	fmt.Println()
	for _, c := range checks {
		c()
	}
	return nil
}
