package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

func main() {
	runs := flag.Int("n", 5, "runs")
	mains := flag.String("mains", "", "label=path,...")
	path := flag.String("path", "/v1/get-collection-cutoff-hour", "")
	body := flag.String("body", "country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo", "")
	logs := flag.Bool("logs", false, "print logs")
	flag.Parse()
	root, _ := wranglerdev.FindRoot()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}}`)
	}))
	defer up.Close()
	vars := map[string]string{"UPSTREAM_BASE_URL": up.URL + "/v1", "API_USER": "bench", "API_KEY": "bench-key-0123456789", "PROXY_TOKEN": "bench-proxy-token-0123456789abcdef", "TOKEN_SIGNING_KEY": "bench-token-signing-key-0123456789abcdefgh"}
	type lm struct{ label, main string }
	var ms []lm
	for _, kv := range strings.Split(*mains, ",") {
		p := strings.SplitN(kv, "=", 2)
		ms = append(ms, lm{p[0], p[1]})
	}
	sum := map[string]float64{}
	cpus := map[string]float64{}
	for i := 0; i < *runs; i++ {
		for _, m := range ms {
			edge := !strings.HasSuffix(m.main, "proxy.js")
			s, err := wranglerdev.Start(wranglerdev.Options{Root: root, Vars: vars, Main: m.main, Edge: edge, NoProbe: true})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			time.Sleep(500 * time.Millisecond)
			c0, _ := s.WorkerdStats()
			req, _ := http.NewRequest("POST", s.URL+*path, strings.NewReader(*body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			t := time.Now()
			res, err := http.DefaultClient.Do(req)
			var st string
			if err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				st = fmt.Sprint(res.StatusCode, " ", res.Header.Get("Server-Timing"))
			}
			d := time.Since(t)
			c1, _ := s.WorkerdStats()
			time.Sleep(300 * time.Millisecond)
			lg := s.Logs()
			s.Stop()
			sum[m.label] += float64(d.Microseconds()) / 1000
			cpus[m.label] += float64((c1 - c0).Microseconds()) / 1000
			fmt.Printf("%s run %d: %.1f ms cpu %.0f %s %v\n", m.label, i, float64(d.Microseconds())/1000, float64((c1-c0).Microseconds())/1000, st, err)
			if *logs {
				for _, l := range strings.Split(lg, "\n") {
					if strings.Contains(l, "TT ") {
						fmt.Println("   ", l)
					}
				}
			}
		}
	}
	for _, m := range ms {
		fmt.Printf("%s mean %.1f ms cpu %.1f\n", m.label, sum[m.label]/float64(*runs), cpus[m.label]/float64(*runs))
	}
}
