package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// offersRatesAnswer is a get-shipments-rates answer with five services (one a
// drop-point service), as the upstream answers a checkout's quote.
const offersRatesAnswer = `{"status":"ok","data":{"best_price_service":{"id_service":12,"service_code":"swift-shop","carrier_code":"swift","is_drop_point":1,"price":"3.90","currency":"EUR"},` +
	`"services":[{"id_service":11,"service_name":"Rayo 24","service_code":"rayo-24","carrier_code":"rayo","is_drop_point":0,"price":"4.95","currency":"EUR","transit_days":1},` +
	`{"id_service":12,"service_name":"Swift Shop","service_code":"swift-shop","carrier_code":"swift","is_drop_point":1,"price":"3.90","currency":"EUR","transit_days":2},` +
	`{"id_service":13,"service_name":"Rayo 48","service_code":"rayo-48","carrier_code":"rayo","is_drop_point":0,"price":"4.10","currency":"EUR","transit_days":2},` +
	`{"id_service":14,"service_name":"Norte 72","service_code":"norte-72","carrier_code":"norte","is_drop_point":0,"price":"3.95","currency":"EUR","transit_days":3},` +
	`{"id_service":15,"service_name":"Rayo 10","service_code":"rayo-10","carrier_code":"rayo","is_drop_point":0,"price":"9.80","currency":"EUR","transit_days":1}]}}`

// offersRules is the PRICING_RULES of the rules-and-offers process: the
// kinds of rule a shop writes (internal/pricing/README.md's example without
// its hide rule, which would drop three of the five services and make the
// answer cheaper to sign): a drop-point markup with a free threshold and
// names in seven languages, a country rule that does not match, and a
// catch-all markup with rounding and bounds. Every service is priced.
const offersRules = `[{"kind":"drop_point","markup_fixed":"0.50","free_from":"60",` +
	`"name":{"en":"Pick-up point","es":"Punto de recogida","pt":"Ponto de recolha","fr":"Point relais","de":"Paketshop","it":"Punto di ritiro","nl":"Afhaalpunt"}},` +
	`{"country":["PT","FR"],"markup_percent":15,"round_end":".95"},` +
	`{"markup_percent":10,"markup_fixed":"0.30","round_end":".95","min":"3.95","max":"14.95"}]`

// offersPart (-parts offers): the CPU of a get-shipments-rates answer with
// signed offers against the same answer without (issue 30: at most +10%
// per request), and with the shop's pricing rules and offers against
// without either (issue 31: at most 1.1x). Three workerd processes run the
// same bundle of this edge: one with TOKEN_SIGNING_KEY (every service gets
// an offer), one without (nothing to sign with), one with TOKEN_SIGNING_KEY
// and PRICING_RULES, against one fake upstream; requests alternate between
// them (the same body, the cart's order_value included), and each
// process's CPU comes from /proc.
func offersPart(root string, n, warm int) error {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, offersRatesAnswer)
	}))
	defer up.Close()
	wd, date, tmp, err := workerdSetup(root, "offers")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	with := map[string]string{"UPSTREAM_BASE_URL": up.URL + "/v1", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signing}
	without := map[string]string{}
	for k, v := range with {
		if k != "TOKEN_SIGNING_KEY" {
			without[k] = v
		}
	}
	rules := map[string]string{"PRICING_RULES": offersRules}
	for k, v := range with {
		rules[k] = v
	}
	// One bundle, three directories (each workerd writes its own config).
	var procs []*bareProc
	names := []string{"rates with offers (TOKEN_SIGNING_KEY set)", "rates without offers (no TOKEN_SIGNING_KEY)",
		"rates with PRICING_RULES and offers"}
	for i, vars := range []map[string]string{with, without, rules} {
		dir := filepath.Join(tmp, fmt.Sprint("edge", i))
		if _, err := bundle(root, dir); err != nil {
			return err
		}
		w, err := bundled(names[i], dir)
		if err != nil {
			return err
		}
		p, err := startBare(wd, w, vars, date)
		if err != nil {
			return err
		}
		defer p.stop()
		procs = append(procs, p)
	}
	sc := scenario{name: "get-shipments-rates, 5 services", method: "POST", path: "/v1/get-shipments-rates", auth: true,
		body: "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001" +
			"&parcels%5B0%5D%5Bparcel_weight%5D=1.5&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10" +
			"&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000&order_value=45"}
	// The answers differ as they should: offers in the first and the third,
	// none in the second; the third's prices are the rules' (Rayo 24's 4.95
	// becomes 5.95: +10% +0.30, rounded to end in .95).
	for i, p := range procs {
		body, err := fetchBody(p.url, sc)
		if err != nil {
			return err
		}
		want := 6
		if i == 1 {
			want = 0
		}
		if got := strings.Count(body, `"offer":"pgo1.`); got != want {
			return fmt.Errorf("offers: %s answered %d offers, want %d: %.300s", names[i], got, want, body)
		}
		if priced := strings.Contains(body, `"price":"5.95"`); priced != (i == 2) {
			return fmt.Errorf("offers: %s: rules applied %v, want %v: %.300s", names[i], priced, i == 2, body)
		}
	}
	for k := 0; k < warm; k++ {
		for _, p := range procs {
			if _, err := do(p.url, sc, 200); err != nil {
				return err
			}
		}
	}
	lat := make([][]time.Duration, len(procs))
	cpu := make([]time.Duration, len(procs))
	for i, p := range procs {
		cpu[i] = -p.cpu()
	}
	for k := 0; k < n; k++ {
		for i, p := range procs {
			d, err := do(p.url, sc, 200)
			if err != nil {
				return err
			}
			lat[i] = append(lat[i], d)
		}
	}
	for i, p := range procs {
		cpu[i] += p.cpu()
	}
	fmt.Printf("\n## Offers: a rates answer with signed offers (and with pricing rules and offers) against without either (bare workerd, %d requests each after %d warm-up, alternating)\n\n", n, warm)
	fmt.Println("| worker | p50 ms | p90 ms | workerd CPU ms/request |")
	fmt.Println("|---|---|---|---|")
	for i := range procs {
		fmt.Printf("| %s | %.2f | %.2f | %.3f |\n", names[i], msf(pct(lat[i], 50)), msf(pct(lat[i], 90)), msf(cpu[i])/float64(n))
	}
	fmt.Printf("| with / without | %.2fx | | %.3fx |\n", float64(pct(lat[0], 50))/float64(pct(lat[1], 50)), float64(cpu[0])/float64(cpu[1]))
	fmt.Printf("| rules and offers / without | %.2fx | | %.3fx |\n\n", float64(pct(lat[2], 50))/float64(pct(lat[1], 50)), float64(cpu[2])/float64(cpu[1]))
	r30, r31 := float64(cpu[0])/float64(cpu[1]), float64(cpu[2])/float64(cpu[1])
	check("rates CPU with offers at most 1.10x without (issue 30)", r30 <= 1.10, fmt.Sprintf("%.3fx", r30))
	check("rates CPU with pricing rules and offers at most 1.1x without (issue 31)", r31 <= 1.10, fmt.Sprintf("%.3fx", r31))
	return nil
}

// fetchBody sends sc once and returns the answer's body.
func fetchBody(base string, sc scenario) (string, error) {
	req, _ := http.NewRequest(sc.method, base+sc.path, strings.NewReader(sc.body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}
