//go:build !(js && wasm)

package main

import (
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
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
// none. Every (build, mode) pair is a cell; the cells take turns of
// corecostTurn requests, each round of turns a new random permutation of
// all cells from order.go's seed, and the turn's CPU is read from its
// build's process: modes and builds alternate every few milliseconds, so
// drift and load from elsewhere hit them alike (in rounds of 2,000
// requests per mode, two identical builds differed by up to 30 µs). A
// cell's figure is its CPU over all its turns per request (GC included
// where it falls), its error the standard error of its turns' means; a
// mode's extra is its cell less the same build's "none".

// corecostModes are corecost.mjs's modes: "none" first, the baseline.
var corecostModes = []struct{ key, name string }{
	{"none", "the request alone"},
	{"both", "prepare + answer of a forwarded read"},
	{"prepare", "prepare alone"},
	{"answer", "answer alone"},
	{"version", "version (the crossing, little else)"},
	{"prepare2", "prepare twice in the same request"},
	{"both2", "prepare + answer twice in the same request"},
	{"json", "the two calls' JSON in plain JavaScript, no call"},
	{"arrays", "the same messages by position (no names), objects built from them, no call"},
}

// corecostN, corecostTurn and corecostWarm are the part's counts
// (-corecost-n, -corecost-turn, -corecost-warm): measured requests per
// cell, requests in a row per turn, and warm-up requests per cell (V8's
// tiering settles after about 2,000 requests of any kind).
var corecostN, corecostTurn, corecostWarm = 30000, 50, 1500

// corecostPart runs the part on this build and the variants.
func corecostPart(root string, variants []variant) error {
	wd, date, tmp, err := workerdSetup(root, "corecost")
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
	// turns[build][mode]: µs of workerd CPU per request of each turn.
	turns := make([][][]float64, len(builds))
	for b := range turns {
		turns[b] = make([][]float64, len(corecostModes))
	}
	cells := len(builds) * len(corecostModes)
	rng := rand.New(rand.NewSource(orderSeed))
	for done := 0; done < corecostN; done += corecostTurn {
		k := min(corecostTurn, corecostN-done)
		for _, c := range rng.Perm(cells) {
			b, mi := c/len(corecostModes), c%len(corecostModes)
			c0 := procs[b].cpu()
			for j := 0; j < k; j++ {
				if err := corecostGet(procs[b].url, corecostModes[mi].key); err != nil {
					return fmt.Errorf("corecost %s: %w", builds[b].label, err)
				}
			}
			turns[b][mi] = append(turns[b][mi], float64(procs[b].cpu()-c0)/float64(time.Microsecond)/float64(k))
		}
	}

	fmt.Printf("\n## The core's calls once per request (corecost): each build's core alone in its own workerd\n\n")
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("Load average at the end: %s.\n\n", strings.Join(strings.Fields(string(la))[:3], " "))
	}
	fmt.Printf("%d requests per build and mode (after %d warm-up), concurrency 1, in turns of %d, the (build, mode) cells in a new random order every round of turns; workerd CPU per request from /proc (schedstat), ± the standard error over the turns. Extra: the mode's CPU less the build's `none`.\n",
		corecostN, corecostWarm, corecostTurn)
	for b, build := range builds {
		fmt.Printf("\n### %s (%s)\n\n", build.label, build.main)
		fmt.Println("| mode | | workerd CPU µs per request |")
		fmt.Println("|---|---|---|")
		none, noneErr := meanErr(turns[b][0])
		fmt.Printf("| none | %s | %.1f ± %.1f |\n", corecostModes[0].name, none, noneErr)
		for mi, m := range corecostModes[1:] {
			x, e := meanErr(turns[b][mi+1])
			fmt.Printf("| %s | %s | +%.1f ± %.1f |\n", m.key, m.name, x-none, math.Hypot(e, noneErr))
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

// meanErr is the mean of xs and its standard error (0 for fewer than two).
func meanErr(xs []float64) (mean, stderr float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}
