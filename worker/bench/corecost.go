//go:build !(js && wasm)

package main

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The "corecost" part (-parts corecost, not in the default set): what the
// edge core's calls cost in workerd when each runs once per request, as in
// the edge. Issue 32 found a forwarded read's prepare and answer costing
// about 70 µs of workerd CPU per request against 22-26 µs in a hot loop
// (the same calls cold, once per request); this part measures that per
// build, so a change to the core or its crossing can be judged where it
// counts.
//
// Each build (this checkout's build/worker, and every -variants
// label=path/to/worker.mjs, whose core.mjs, core.gen.mjs and core.wasm sit
// next to it) runs corecost.mjs alone in a workerd of its own (bare.go's
// config, spawning and /proc CPU): per request one call of a mode, or
// none. A round measures every mode (in a random order) with corecostN
// requests per build, interleaved across the builds (order.go); a mode's
// extra is its CPU per request less the same round's "none", the median
// over the rounds.

// corecostModes are corecost.mjs's modes: "none" first, the baseline.
var corecostModes = []struct{ key, name string }{
	{"none", "the request alone"},
	{"both", "prepare + answer of a forwarded read"},
	{"prepare", "prepare alone"},
	{"answer", "answer alone"},
	{"version", "version (the crossing, little else)"},
	{"json", "the two calls' JSON in plain JavaScript, no call"},
}

// corecostN, corecostRounds and corecostWarm are the part's counts
// (-corecost-n, -corecost-rounds, -corecost-warm): requests per build and
// mode in a round, rounds, and warm-up requests per build and mode (V8's
// tiering settles after about 2,000 requests of any kind).
var corecostN, corecostRounds, corecostWarm = 2000, 5, 1500

// corecostPart runs the part on this build and the variants.
func corecostPart(root string, variants []variant) error {
	wd, err := workerdPath(root)
	if err != nil {
		return err
	}
	date, err := compatibilityDate(root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "parcelgate-corecost-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	builds := append([]variant{{label: "this build", main: filepath.Join(root, "build", "worker", "worker.mjs")}}, variants...)
	procs := make([]*bareProc, len(builds))
	for i, b := range builds {
		w, err := corecostWorker(root, b, filepath.Join(tmp, fmt.Sprint("build", i)))
		if err != nil {
			return err
		}
		if procs[i], err = startBare(wd, w, nil, date); err != nil {
			return err
		}
		defer procs[i].stop()
	}
	for _, m := range corecostModes {
		if err := interleave(len(procs), corecostWarm, func(i int) error { return corecostGet(procs[i].url, m.key) }); err != nil {
			return fmt.Errorf("corecost warm-up: %w", err)
		}
	}
	// cpu[build][mode][round]: µs of workerd CPU per request.
	cpu := make([][][]float64, len(builds))
	for b := range cpu {
		cpu[b] = make([][]float64, len(corecostModes))
	}
	rng := rand.New(rand.NewSource(orderSeed))
	for r := 0; r < corecostRounds; r++ {
		for _, mi := range rng.Perm(len(corecostModes)) {
			m := corecostModes[mi].key
			before := make([]time.Duration, len(procs))
			for i, p := range procs {
				before[i] = p.cpu()
			}
			if err := interleave(len(procs), corecostN, func(i int) error { return corecostGet(procs[i].url, m) }); err != nil {
				return fmt.Errorf("corecost %s: %w", m, err)
			}
			for i, p := range procs {
				cpu[i][mi] = append(cpu[i][mi], float64(p.cpu()-before[i])/float64(time.Microsecond)/float64(corecostN))
			}
		}
	}

	fmt.Printf("\n## The core's calls once per request (corecost): each build's core alone in its own workerd\n\n")
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("Load average at the end: %s.\n\n", strings.Join(strings.Fields(string(la))[:3], " "))
	}
	fmt.Printf("%d rounds of %d requests per build and mode (after %d warm-up per mode), concurrency 1, the builds interleaved in random order, the modes in a random order per round; workerd CPU per request from /proc (schedstat). Extra: the mode's CPU less the same round's `none`, median over the rounds (range in brackets).\n",
		corecostRounds, corecostN, corecostWarm)
	for b, build := range builds {
		fmt.Printf("\n### %s (%s)\n\n", build.label, build.main)
		fmt.Println("| mode | | workerd CPU µs per request |")
		fmt.Println("|---|---|---|")
		none := cpu[b][0]
		fmt.Printf("| none | %s | %.1f (%.1f-%.1f) |\n", corecostModes[0].name, median(none), minOf(none), maxOf(none))
		for mi, m := range corecostModes[1:] {
			extra := make([]float64, corecostRounds)
			for r := range extra {
				extra[r] = cpu[b][mi+1][r] - none[r]
			}
			fmt.Printf("| %s | %s | +%.1f (%.1f to %.1f) |\n", m.key, m.name, median(extra), minOf(extra), maxOf(extra))
		}
	}
	fmt.Println()
	return nil
}

// corecostWorker lays out build b's core beside corecost.mjs in dir, as a
// bare worker: no bindings, no Durable Objects (the script configures the
// core itself).
func corecostWorker(root string, b variant, dir string) (bareWorker, error) {
	w := bareWorker{name: "corecost " + b.label, dir: dir, modules: []bareModule{{name: "corecost.mjs"}}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return w, err
	}
	from := filepath.Dir(b.main)
	copies := []struct {
		src, name      string
		wasm, optional bool
	}{
		{src: filepath.Join(root, "worker", "bench", "corecost.mjs"), name: "corecost.mjs"},
		{src: filepath.Join(from, "core.mjs"), name: "core.mjs"},
		// Builds before the generated seam have no core.gen.mjs.
		{src: filepath.Join(from, "core.gen.mjs"), name: "core.gen.mjs", optional: true},
		{src: filepath.Join(from, "core.wasm"), name: "core.wasm", wasm: true},
	}
	for _, c := range copies {
		src, err := os.ReadFile(c.src)
		if c.optional && os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return w, fmt.Errorf("corecost %s: %w (make worker?)", b.label, err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.name), src, 0o644); err != nil {
			return w, err
		}
		if c.name != "corecost.mjs" {
			w.modules = append(w.modules, bareModule{name: c.name, wasm: c.wasm})
		}
	}
	return w, nil
}

// corecostGet sends one request of mode m; anything but a 200 is an error
// carrying the worker's answer (corecost.mjs names a call that failed).
func corecostGet(base, m string) error {
	res, err := client.Get(base + "/?m=" + m)
	if err != nil {
		return err
	}
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
	res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("%s mode %s: HTTP %d: %s", base, m, res.StatusCode, strings.TrimSpace(string(b)))
	}
	return nil
}

// median of xs (the mean of the middle two when their count is even).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// minOf is the least of xs (0 when empty).
func minOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}

// maxOf is the greatest of xs (0 when empty).
func maxOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}
