//go:build !(js && wasm)

package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// The "bare" part: the edge as `wrangler deploy --dry-run` bundles it (the
// upload) and the JS proxy, each alone in a workerd process of its own with
// a generated config, as Cloudflare runs a script: no wrangler proxy in
// front and no Miniflare workers beside it. Two things of `wrangler dev`
// hide what the worker itself costs:
//
//   - every request crosses wrangler's proxy and Miniflare's entry worker
//     first (about 5 ms of wall time and its CPU, the same for both
//     workers), so ratios there are diluted;
//   - Miniflare starts its own workers' isolates after the user's, and V8
//     then drops the WebAssembly code the edge's top level compiled (its
//     Liftoff code, engine-wide), so under wrangler dev the first request
//     compiles the core's request path again (about 7 ms here): with the
//     same two workers in a config of our own, the order decides it
//     (worker/bench/README.md, "Cold start").
//
// The figures are printed beside the wrangler dev ones; the issue's targets
// are checked on those (its table was measured there).
//
// Order: no worker has a place of its own. The warm requests (warm-up and
// measured) and the cold starts go in rounds, each round a new random
// permutation of the workers from a fixed seed (order.go), so that each
// worker comes in every position, after every other one and at every gap
// since its own last turn equally often; before, a fixed round (edge,
// variants, proxy) put each worker after the same neighbour every time.
// Every process's CPU is read over the same stretch of requests.
// -bare-twins runs a second workerd on each bundle, an A/A check of what
// the bench itself adds: the gap between twins is the noise every figure
// here carries (worker/bench/EDGE_COST.md, "The bare part's order").

// bareN and bareWarm are the bare part's counts (-bare-n, -bare-warm):
// requests there take about a millisecond, and with 300 after 30 warm-up
// V8's tiering was still under way (a forwarded read's CPU 1.47 ms at
// 300/30, 0.94 at 5,000/2,000; the proxy's 0.73 and 0.61).
var bareN, bareWarm = 3000, 2000

// bareTwins (-bare-twins) runs every worker of the bare part twice: a
// second workerd on the same bundle, named "... (twin)", so that what the
// bench itself adds (the order of the cells, the order of the spawns)
// shows as a difference between two identical processes.
var bareTwins bool

// bareBlock (-bare-block) is how many requests in a row each worker's warm
// turn has (order.go): 1, the default, puts every request after a random
// neighbour; 8 measures each worker mostly after itself.
var bareBlock = 1

// bareV8Flags (-bare-v8-flags, comma-separated) are V8 flags for every
// workerd of the parts that run it alone (the config's v8Flags), for
// questions such as "does the core's cost depend on its code's tier":
// --liftoff-only against --no-liftoff (worker/bench/EDGE_COST.md).
var bareV8Flags []string

// bareWorker is one worker of the bare part.
type bareWorker struct {
	name    string
	dir     string // where its config and modules are
	modules []bareModule
	objects bool // the Bookings and Watchlist Durable Objects
	// config names its config file in dir (a twin shares the dir).
	config string
}

// bareModule is one module of a worker's config: an ES module or a wasm one.
type bareModule struct {
	name string
	wasm bool
}

// issue32Bare is issue 32's limit on the edge's warm CPU alone in workerd,
// as a multiple of the proxy's, by scenario key (EDGE_COST.md).
var issue32Bare = map[string]float64{"healthz": 1.15, "forward": 1.3}

// barePart runs the bare part's cold starts and warm latency; variants
// (-variants) are bundled as the edge is and measured beside it.
func barePart(root string, vars map[string]string, n, warm int, variants []variant) error {
	wd, date, tmp, err := workerdSetup(root, "bare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	edgeDir := filepath.Join(tmp, "edge")
	if _, err := bundle(root, edgeDir); err != nil {
		return err
	}
	edge, err := bundled(nEdge, edgeDir)
	if err != nil {
		return err
	}
	edges := []bareWorker{edge}
	for i, v := range variants {
		dir := filepath.Join(tmp, fmt.Sprint("variant", i))
		if err := bundleMain(root, v.main, date, dir); err != nil {
			return fmt.Errorf("variant %s: %w", v.label, err)
		}
		w, err := bundled("edge variant "+v.label, dir)
		if err != nil {
			return err
		}
		edges = append(edges, w)
	}
	proxyDir := filepath.Join(tmp, "proxy")
	if err := os.MkdirAll(proxyDir, 0o755); err != nil {
		return err
	}
	src, err := os.ReadFile(filepath.Join(root, "worker", "bench", "proxy.js"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(proxyDir, "proxy.js"), src, 0o644); err != nil {
		return err
	}
	proxy := bareWorker{name: nProxy, dir: proxyDir, modules: []bareModule{{name: "proxy.js"}}}
	workers := append(edges, proxy)
	last := len(edges) // the proxy: the ratios' baseline
	if bareTwins {
		for _, w := range workers[:len(workers):len(workers)] {
			w.name += " (twin)"
			w.config = "config-twin.capnp"
			workers = append(workers, w)
		}
	}

	sc := scenarios()
	firsts := []scenario{sc[0], sc[1]}
	fmt.Printf("\n## Bare workerd: each worker alone in its own workerd (no wrangler proxy, no Miniflare workers), the edge as uploaded\n\n")
	fmt.Printf("Cold start: the first request to a fresh process, %d runs per worker and kind, alternating; wall ms at the client.\n\n", coldRuns)
	fmt.Println("| first request | worker | wall ms | mean | workerd CPU from spawn to ready, ms (mean) |")
	fmt.Println("|---|---|---|---|---|")
	for _, first := range firsts {
		walls := map[string][]time.Duration{}
		starts := map[string]time.Duration{}
		err := interleave(len(workers), coldRuns, func(i int) error {
			w := workers[i]
			p, err := startBare(wd, w, vars, date)
			if err != nil {
				return err
			}
			time.Sleep(500 * time.Millisecond)
			starts[w.name] += p.cpu()
			d, err := do(p.url, first, 200)
			p.stop()
			if err != nil {
				return fmt.Errorf("bare %s, first request %s: %w", w.name, first.name, err)
			}
			walls[w.name] = append(walls[w.name], d)
			return nil
		})
		if err != nil {
			return err
		}
		for _, w := range workers {
			fmt.Printf("| %s | %s | %s | %.1f | %.0f |\n", first.name, w.name, msList(walls[w.name]), msf(mean(walls[w.name])),
				msf(starts[w.name])/float64(coldRuns))
		}
		for i, w := range workers {
			if i != last {
				fmt.Printf("| %s | %s / proxy | | %.2fx | |\n", first.name, w.name, float64(mean(walls[w.name]))/float64(mean(walls[nProxy])))
			}
		}
	}

	fmt.Printf("\nWarm: %d requests per cell after %d warm-up, concurrency 1, interleaved (turns of %d, random order); workerd CPU per request from /proc (each thread's schedstat, ns).\n\n", n, warm, bareBlock)
	fmt.Println("| scenario | worker | p50 ms | p90 ms | workerd CPU ms/request |")
	fmt.Println("|---|---|---|---|---|")
	var verdicts []func()
	procs := make([]*bareProc, len(workers))
	for i, w := range workers {
		if procs[i], err = startBare(wd, w, vars, date); err != nil {
			return err
		}
		defer procs[i].stop()
	}
	for _, s := range firsts {
		lat := make([][]time.Duration, len(workers))
		cpu := make([]time.Duration, len(workers))
		err := interleaveBlocks(len(procs), warm, bareBlock, func(i int) error {
			if _, err := do(procs[i].url, s, 200); err != nil {
				return fmt.Errorf("bare warm-up %s %s: %w", workers[i].name, s.name, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i, p := range procs {
			cpu[i] = -p.cpu()
		}
		err = interleaveBlocks(len(procs), n, bareBlock, func(i int) error {
			d, err := do(procs[i].url, s, 200)
			if err != nil {
				return fmt.Errorf("bare %s %s: %w", workers[i].name, s.name, err)
			}
			lat[i] = append(lat[i], d)
			return nil
		})
		if err != nil {
			return err
		}
		for i, p := range procs {
			cpu[i] += p.cpu()
			fmt.Printf("| %s | %s | %.2f | %.2f | %.3f |\n", s.name, workers[i].name, msf(pct(lat[i], 50)), msf(pct(lat[i], 90)),
				msf(cpu[i])/float64(n))
		}
		for i := range workers {
			if i != last {
				fmt.Printf("| %s | %s / proxy | %.2fx | | %.2fx |\n", s.name, workers[i].name, float64(pct(lat[i], 50))/float64(pct(lat[last], 50)),
					float64(cpu[i])/float64(cpu[last]))
			}
		}
		if limit, ok := issue32Bare[s.key]; ok {
			what, e, p := s.name, msf(cpu[0])/float64(n), msf(cpu[last])/float64(n)
			verdicts = append(verdicts, func() {
				check(fmt.Sprintf("issue 32: warm CPU alone in workerd <= %.2fx, %s", limit, what), e <= limit*p,
					fmt.Sprintf("%.3f vs %.3f ms, %.2fx", e, p, e/p))
			})
		}
	}
	fmt.Println()
	for _, v := range verdicts {
		v()
	}
	fmt.Println("- Issue 21's targets are checked under wrangler dev (the latency part), where its table was measured.")
	return nil
}

// bundled describes the worker wrangler bundled into dir: worker.js and
// its wasm modules.
func bundled(name, dir string) (bareWorker, error) {
	w := bareWorker{name: name, dir: dir, objects: true, modules: []bareModule{{name: "worker.js"}}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return w, err
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".wasm") {
			w.modules = append(w.modules, bareModule{name: e.Name(), wasm: true})
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "worker.js")); err != nil || len(w.modules) < 2 {
		return w, fmt.Errorf("bare: the bundle in %s has no worker.js and core module", dir)
	}
	return w, nil
}

// bundleMain bundles another build of the edge (a variant's worker.mjs)
// as wrangler.toml's settings bundle this one: minified, names not kept.
func bundleMain(root, main, date, out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	toml := fmt.Sprintf("name = \"variant\"\nmain = %q\ncompatibility_date = %q\nminify = true\nkeep_names = false\n"+
		"[[durable_objects.bindings]]\nname = \"BOOKINGS\"\nclass_name = \"Bookings\"\n"+
		"[[durable_objects.bindings]]\nname = \"WATCHLIST\"\nclass_name = \"Watchlist\"\n", main, date)
	cfg := filepath.Join(out, "..", filepath.Base(out)+".toml")
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		return err
	}
	_, err := bundle(root, out, "-c", cfg)
	return err
}

// bareProc is one running workerd of the bare part.
type bareProc struct {
	cmd *exec.Cmd
	url string
}

// startBare writes w's config and starts workerd on it (extra: more of
// workerd serve's flags), returning once its socket accepts connections
// (no request: the first one is the caller's).
func startBare(wd string, w bareWorker, vars map[string]string, date string, extra ...string) (*bareProc, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	cfg, err := bareConfig(w, vars, date, addr)
	if err != nil {
		return nil, err
	}
	conf := w.config
	if conf == "" {
		conf = "config.capnp"
	}
	path := filepath.Join(w.dir, conf)
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(wd, append([]string{"serve", path, "--experimental"}, extra...)...)
	cmd.Dir = w.dir
	var out wranglerdev.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &bareProc{cmd: cmd, url: "http://" + addr}
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return p, nil
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("bare: workerd for %s did not listen on %s within 30 s:\n%s", w.name, addr, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the process group and waits for it.
func (p *bareProc) stop() {
	if p.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	_ = p.cmd.Wait()
	p.cmd.Process = nil
}

// cpu is the process's CPU so far (all its threads: wranglerdev.ProcessCPU).
func (p *bareProc) cpu() time.Duration {
	if p.cmd.Process == nil {
		return 0
	}
	return wranglerdev.ProcessCPU(p.cmd.Process.Pid)
}

// bareConfig is w's workerd config: its modules, vars as text bindings,
// the Durable Objects in memory, and outbound fetches to anywhere
// (the fake upstream is on 127.0.0.1).
func bareConfig(w bareWorker, vars map[string]string, date, addr string) (string, error) {
	var b strings.Builder
	b.WriteString("using Workerd = import \"/workerd/workerd.capnp\";\n")
	b.WriteString("const config :Workerd.Config = (\n")
	b.WriteString("  services = [ (name = \"main\", worker = .w), (name = \"internet\", network = (allow = [\"public\", \"private\", \"local\"])) ],\n")
	fmt.Fprintf(&b, "  sockets = [ (name = \"http\", address = %s, http = (), service = \"main\") ],\n", capnpString(addr))
	if len(bareV8Flags) > 0 {
		b.WriteString("  v8Flags = [")
		for i, f := range bareV8Flags {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + capnpString(f))
		}
		b.WriteString(" ],\n")
	}
	b.WriteString(");\n")
	b.WriteString("const w :Workerd.Worker = (\n  modules = [\n")
	for _, m := range w.modules {
		kind := "esModule"
		if m.wasm {
			kind = "wasm"
		}
		fmt.Fprintf(&b, "    (name = %s, %s = embed %s),\n", capnpString(m.name), kind, capnpString(m.name))
	}
	fmt.Fprintf(&b, "  ],\n  compatibilityDate = %s,\n  bindings = [\n", capnpString(date))
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "    (name = %s, text = %s),\n", capnpString(k), capnpString(vars[k]))
	}
	if w.objects {
		b.WriteString("    (name = \"BOOKINGS\", durableObjectNamespace = \"Bookings\"),\n")
		b.WriteString("    (name = \"WATCHLIST\", durableObjectNamespace = \"Watchlist\"),\n")
	}
	b.WriteString("  ],\n")
	if w.objects {
		b.WriteString("  durableObjectNamespaces = [ (className = \"Bookings\", uniqueKey = \"bench-Bookings\"), (className = \"Watchlist\", uniqueKey = \"bench-Watchlist\") ],\n")
		b.WriteString("  durableObjectStorage = (inMemory = void),\n")
	}
	b.WriteString("  globalOutbound = \"internet\",\n);\n")
	return b.String(), nil
}

// capnpString quotes s for the config.
func capnpString(s string) string { return "\"" + capnpEscaper.Replace(s) + "\"" }

// capnpEscaper escapes what a Cap'n Proto text string cannot hold as is
// (its lexer reads C's escapes), so a var may be JSON (PRICING_RULES).
var capnpEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// workerdSetup is what every part running workerd alone needs: the
// workerd binary wrangler ships, the project's compatibility date and a
// scratch directory named for the part (the caller removes it).
func workerdSetup(root, part string) (wd, date, tmp string, err error) {
	if wd, err = workerdPath(root); err != nil {
		return "", "", "", err
	}
	if date, err = compatibilityDate(root); err != nil {
		return "", "", "", err
	}
	if tmp, err = os.MkdirTemp("", "parcelgate-"+part+"-"); err != nil {
		return "", "", "", err
	}
	return wd, date, tmp, nil
}

// workerdPath is the workerd binary wrangler runs: the project's workerd
// package, resolved from the repository root.
func workerdPath(root string) (string, error) {
	cmd := exec.Command("node", "-p", "require('workerd').default")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("bare: no workerd binary (npm ci): %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// compatibilityDate is wrangler.toml's.
func compatibilityDate(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "wrangler.toml"))
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`(?m)^compatibility_date\s*=\s*"([0-9-]+)"`).FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("bare: no compatibility_date in wrangler.toml")
	}
	return string(m[1]), nil
}

// mean of ds.
func mean(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s / time.Duration(len(ds))
}

// msList formats ds as "9.1, 8.7, ...".
func msList(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = fmt.Sprintf("%.1f", msf(d))
	}
	return strings.Join(s, ", ")
}
