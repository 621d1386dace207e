//go:build !(js && wasm)

// Package wranglerdev starts and stops `wrangler dev` (workerd) for the
// worker's end-to-end tests and benchmark: a generated wrangler.toml and
// .dev.vars in a temporary folder, a free 127.0.0.1 port, offline settings,
// bounded waits, and SIGTERM to stop.
//
// The edge worker under test is Options.Main (default: `make worker`'s
// build/worker/worker.mjs; any entry module works, so a rewritten edge runs
// the same tests by pointing Main at it). With Options.Sandbox the sandbox
// worker (`make sandbox-worker`'s build/sandbox/worker.mjs, or SandboxMain)
// runs in the same wrangler session, as `make dev` runs it: one `wrangler
// dev -c edge.toml -c sandbox.toml`, the edge serving the port and reaching
// the sandbox through its SANDBOX service binding, the edge's
// UPSTREAM_BASE_URL=sandbox. The sandbox gets its own .dev.vars: by default
// SANDBOX_USER and SANDBOX_KEY are the edge's API_USER and API_KEY, and
// SANDBOX_TIME_SCALE and RULES_FEATURE are copied from Vars when set, so a
// test configures one stack with one map; SandboxVars replaces that.
// Both workers' state (the sandbox's KV, the Durable Objects) is under
// PersistDir.
package wranglerdev

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Options describe one worker to run.
type Options struct {
	// Root is the repository root (found from the working directory when
	// empty).
	Root string
	// Main is the worker's entry module; default <Root>/build/worker/worker.mjs.
	Main string
	// Edge says Main is a build of the edge (another checkout's, a variant
	// under measurement): it gets the Durable Object bindings the default
	// build gets (less NoBookings / NoWatchlist).
	Edge bool
	// Vars are written to the edge's .dev.vars (variables and secrets).
	Vars map[string]string
	// Sandbox runs the sandbox worker beside the edge and gives the edge
	// the SANDBOX service binding to it (see the package comment).
	Sandbox bool
	// SandboxMain is the sandbox worker's entry module; default
	// <Root>/build/sandbox/worker.mjs (make sandbox-worker).
	SandboxMain string
	// SandboxVars, when set, are the sandbox worker's .dev.vars instead of
	// the ones derived from Vars.
	SandboxVars map[string]string
	// KV is the former name of Sandbox (the sandbox's KV namespace was
	// the edge's): it now means Sandbox.
	KV bool
	// RateLimit, when positive, adds the RATE_LIMIT_PUBLIC, RATE_LIMIT_ANONYMOUS and
	// RATE_LIMIT_TOKENS bindings with this many requests per 60 s.
	RateLimit int
	// NoBookings leaves out the BOOKINGS Durable Object binding that the
	// built worker (Main empty) otherwise gets.
	NoBookings bool
	// NoWatchlist leaves out the WATCHLIST Durable Object binding that
	// the built worker otherwise gets.
	NoWatchlist bool
	// Scheduled adds the Cron Trigger (every 5 minutes, as wrangler.toml)
	// and runs wrangler dev with --test-scheduled; Server.Scheduled fires
	// runs (locally nothing fires them by itself).
	Scheduled bool
	// PersistDir keeps KV and Durable Object state (a new temporary
	// folder when empty). A Start on the folder of a stopped or killed
	// Server finds its state: same worker name, same bindings.
	PersistDir string
	// StartTimeout bounds the wait for the first answer (default 180 s:
	// with Sandbox two modules of ~7 MB compile, on a machine shared with
	// other builds).
	StartTimeout time.Duration
	// ReadyPath is requested until it answers (default /healthz; any
	// HTTP status counts as up).
	ReadyPath string
	// NoProbe waits for wrangler's "Ready on" line instead of requesting
	// ReadyPath, so that the caller's first request is the worker's
	// first (cold-start measurements).
	NoProbe bool
	// Env adds variables to wrangler's own environment.
	Env []string
}

// Server is a running wrangler dev.
type Server struct {
	URL        string
	PersistDir string
	cmd        *exec.Cmd
	dir        string
	out        *SyncBuffer
	done       chan struct{}
	waitErr    error
}

// SyncBuffer collects a process's output while a test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// FindRoot walks up from the working directory to the folder holding go.mod.
func FindRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// FreePort returns a TCP port free on 127.0.0.1 at the time of the call.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Start runs wrangler dev and waits until the worker answers. A start
// that fails because a port was taken between FreePort and workerd's
// bind (workerd binds several, and other tests start servers too) is
// tried again with new ports, twice at most.
func Start(o Options) (*Server, error) {
	for attempt := 0; ; attempt++ {
		s, err := start(o)
		if err != nil && attempt < 2 && strings.Contains(err.Error(), "Address already in use") {
			continue
		}
		return s, err
	}
}

// start is one attempt of Start.
func start(o Options) (*Server, error) {
	if o.Root == "" {
		root, err := FindRoot()
		if err != nil {
			return nil, err
		}
		o.Root = root
	}
	bookings, watchlist := false, false
	if o.Main == "" || o.Edge {
		bookings, watchlist = !o.NoBookings, !o.NoWatchlist
	}
	if o.Main == "" {
		o.Main = filepath.Join(o.Root, "build", "worker", "worker.mjs")
	}
	if _, err := os.Stat(o.Main); err != nil {
		return nil, fmt.Errorf("worker not built (%v): run `make worker`", err)
	}
	o.Sandbox = o.Sandbox || o.KV
	if o.Sandbox && o.SandboxMain == "" {
		o.SandboxMain = filepath.Join(o.Root, "build", "sandbox", "worker.mjs")
	}
	if o.Sandbox {
		if _, err := os.Stat(o.SandboxMain); err != nil {
			return nil, fmt.Errorf("sandbox worker not built (%v): run `make sandbox-worker`", err)
		}
	}
	wrangler := filepath.Join(o.Root, "node_modules", "wrangler", "bin", "wrangler.js")
	if _, err := os.Stat(wrangler); err != nil {
		return nil, fmt.Errorf("wrangler not installed (%v): run `npm ci`", err)
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = 180 * time.Second
	}
	if o.ReadyPath == "" {
		o.ReadyPath = "/healthz"
	}
	dir, err := os.MkdirTemp("", "parcelgate-wrangler-")
	if err != nil {
		return nil, err
	}
	if o.PersistDir == "" {
		o.PersistDir = filepath.Join(dir, "state")
	}
	var toml strings.Builder
	// minify as wrangler.toml does, so tests and benchmarks run the bundle that ships.
	fmt.Fprintf(&toml, "name = %q\nmain = %q\ncompatibility_date = \"2026-04-01\"\nsend_metrics = false\nminify = true\n", "parcelgate-e2e", o.Main)
	if o.Sandbox {
		fmt.Fprintf(&toml, "\n[[services]]\nbinding = \"SANDBOX\"\nservice = %q\n", SandboxName)
	}
	if o.RateLimit > 0 {
		for i, name := range []string{"RATE_LIMIT_PUBLIC", "RATE_LIMIT_TOKENS", "RATE_LIMIT_ANONYMOUS"} {
			fmt.Fprintf(&toml, "\n[[ratelimits]]\nname = %q\nnamespace_id = \"%d\"\nsimple = { limit = %d, period = 60 }\n", name, 1001+i, o.RateLimit)
		}
	}
	if bookings {
		toml.WriteString("\n[[durable_objects.bindings]]\nname = \"BOOKINGS\"\nclass_name = \"Bookings\"\n" +
			"\n[[migrations]]\ntag = \"v1\"\nnew_sqlite_classes = [\"Bookings\"]\n")
	}
	if watchlist {
		toml.WriteString("\n[[durable_objects.bindings]]\nname = \"WATCHLIST\"\nclass_name = \"Watchlist\"\n" +
			"\n[[migrations]]\ntag = \"v2\"\nnew_sqlite_classes = [\"Watchlist\"]\n")
	}
	if o.Scheduled {
		fmt.Fprintf(&toml, "\n[triggers]\ncrons = [%q]\n", Cron)
	}
	if err := os.WriteFile(filepath.Join(dir, "wrangler.toml"), []byte(toml.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, ".dev.vars"), devVars(o.Vars), 0o600); err != nil {
		return nil, err
	}
	configs := []string{"--config", filepath.Join(dir, "wrangler.toml")}
	if o.Sandbox {
		sdir := filepath.Join(dir, "sandbox")
		if err := os.Mkdir(sdir, 0o755); err != nil {
			return nil, err
		}
		stoml := fmt.Sprintf("name = %q\nmain = %q\ncompatibility_date = \"2026-04-01\"\nsend_metrics = false\n"+
			"\n[[kv_namespaces]]\nbinding = \"SANDBOX_KV\"\nid = \"parcelgate-e2e-sandbox\"\n", SandboxName, o.SandboxMain)
		if err := os.WriteFile(filepath.Join(sdir, "wrangler.toml"), []byte(stoml), 0o644); err != nil {
			return nil, err
		}
		sv := o.SandboxVars
		if sv == nil {
			sv = SandboxVarsFor(o.Vars)
		}
		if err := os.WriteFile(filepath.Join(sdir, ".dev.vars"), devVars(sv), 0o600); err != nil {
			return nil, err
		}
		configs = append(configs, "--config", filepath.Join(sdir, "wrangler.toml"))
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	s := &Server{
		URL:        fmt.Sprintf("http://127.0.0.1:%d", port),
		PersistDir: o.PersistDir,
		dir:        dir,
		out:        &SyncBuffer{},
		done:       make(chan struct{}),
	}
	args := append([]string{wrangler, "dev"}, configs...)
	args = append(args, "--local", "--ip", "127.0.0.1", "--port", fmt.Sprint(port),
		"--inspector-port", fmt.Sprint(mustPort()),
		"--show-interactive-dev-session=false", "--persist-to", o.PersistDir)
	if o.Scheduled {
		args = append(args, "--test-scheduled")
	}
	s.cmd = exec.Command("node", args...)
	s.cmd.Dir = dir
	s.cmd.Env = append(os.Environ(),
		"WRANGLER_SEND_METRICS=false", "WRANGLER_SEND_ERROR_REPORTS=false",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "WRANGLER_HIDE_BANNER=true", "NO_COLOR=1", "CI=1",
		"WRANGLER_LOG_PATH="+filepath.Join(dir, "logs"))
	s.cmd.Env = append(s.cmd.Env, o.Env...)
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.done)
	}()

	// The first request compiles the wasm: allow it time.
	client := &http.Client{Timeout: 60 * time.Second}
	deadline := time.Now().Add(o.StartTimeout)
	for {
		select {
		case <-s.done:
			s.Stop() // removes its folder
			return nil, fmt.Errorf("wrangler dev exited early (%v):\n%s", s.waitErr, s.Logs())
		default:
		}
		// Only once wrangler says it listens: before that, another
		// process may have taken the port (FreePort cannot hold it), and
		// its answers must not pass for the worker's.
		if strings.Contains(s.Logs(), "Ready on "+s.URL) {
			if o.NoProbe {
				return s, nil
			}
			if res, err := client.Get(s.URL + o.ReadyPath); err == nil {
				res.Body.Close()
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("wrangler dev did not answer within %v:\n%s", o.StartTimeout, s.Logs())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// SandboxName is the sandbox worker's name in a session started with
// Options.Sandbox (the service the edge's SANDBOX binding names).
const SandboxName = "parcelgate-e2e-sandbox"

// SandboxVarsFor is the sandbox worker's configuration that matches an
// edge configured with vars: the credentials the edge sends, and its
// SANDBOX_TIME_SCALE and RULES_FEATURE when set.
func SandboxVarsFor(vars map[string]string) map[string]string {
	sv := map[string]string{"SANDBOX_USER": vars["API_USER"], "SANDBOX_KEY": vars["API_KEY"]}
	for _, k := range []string{"SANDBOX_TIME_SCALE", "RULES_FEATURE"} {
		if v, ok := vars[k]; ok {
			sv[k] = v
		}
	}
	return sv
}

// devVars renders a .dev.vars file, keys sorted.
func devVars(vars map[string]string) []byte {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		// dotenv does not unescape \" inside double quotes: a JSON value
		// (PRICING_RULES) goes in single quotes, taken literally.
		if v := vars[k]; strings.Contains(v, `"`) && !strings.ContainsAny(v, "'\n") {
			fmt.Fprintf(&b, "%s='%s'\n", k, v)
			continue
		}
		fmt.Fprintf(&b, "%s=%q\n", k, vars[k])
	}
	return []byte(b.String())
}

func mustPort() int {
	p, err := FreePort()
	if err != nil {
		return 0
	}
	return p
}

// WorkerdStats sums the CPU time and resident memory of the workerd
// processes this wrangler started (its process group), read from /proc:
// the cost of the worker itself, without wrangler's proxy. CPU is
// ProcessCPU's (nanoseconds where the kernel keeps them).
func (s *Server) WorkerdStats() (cpu time.Duration, rssBytes int64) {
	if s.cmd.Process == nil {
		return 0, 0
	}
	pgid := s.cmd.Process.Pid
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		st := string(b)
		open, close := strings.IndexByte(st, '('), strings.LastIndexByte(st, ')')
		if open < 0 || close < open || st[open+1:close] != "workerd" {
			continue
		}
		f := strings.Fields(st[close+2:])
		// f[0] is the state (field 3): pgrp is field 5, rss 24.
		if len(f) < 22 || f[2] != fmt.Sprint(pgid) {
			continue
		}
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		var rss int64
		fmt.Sscan(f[21], &rss)
		cpu += ProcessCPU(pid)
		rssBytes += rss * int64(os.Getpagesize())
	}
	return cpu, rssBytes
}

// ProcessCPU is the CPU time a process has used so far. From the
// scheduler's own account of each live thread (/proc/<pid>/task/*/
// schedstat, nanoseconds on the CPU) when the kernel keeps it, else from
// utime+stime in /proc/<pid>/stat, counted in 10 ms ticks: too coarse for
// one request (a cold start's first request is one or two ticks), which
// is why the first is preferred. A thread that exits between two reads
// takes its time with it; workerd's threads live as long as the process.
func ProcessCPU(pid int) time.Duration {
	if tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid)); err == nil {
		var sum time.Duration
		read := 0
		for _, t := range tasks {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
			if err != nil {
				continue
			}
			f := strings.Fields(string(b))
			if len(f) == 0 {
				continue
			}
			ns, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				continue
			}
			sum += time.Duration(ns)
			read++
		}
		if read > 0 {
			return sum
		}
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	st := string(b)
	close := strings.LastIndexByte(st, ')')
	if close < 0 || close+2 > len(st) {
		return 0
	}
	f := strings.Fields(st[close+2:])
	if len(f) < 13 {
		return 0
	}
	var ut, stime int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &stime)
	return time.Duration(ut+stime) * (time.Second / 100) // USER_HZ on Linux
}

// Cron is the schedule Options.Scheduled adds (wrangler.toml's).
const Cron = "*/5 * * * *"

// Scheduled fires one run of the worker's scheduled handler as the Cron
// Trigger would at the given time (controller.scheduledTime), and waits
// for it. It uses Miniflare's /cdn-cgi/handler/scheduled, which takes the
// time (wrangler's /__scheduled of --test-scheduled takes only the cron);
// an error says the run failed or could not be fired.
func (s *Server) Scheduled(at time.Time) error {
	u := s.URL + "/cdn-cgi/handler/scheduled?cron=" + url.QueryEscape(Cron) + "&time=" + fmt.Sprint(at.UnixMilli())
	client := &http.Client{Timeout: 6 * time.Minute}
	res, err := client.Get(u)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK || strings.TrimSpace(string(b)) != "ok" {
		return fmt.Errorf("scheduled run: HTTP %d %q", res.StatusCode, b)
	}
	return nil
}

// Logs returns wrangler's output so far (worker log lines included).
func (s *Server) Logs() string { return s.out.String() }

// Kill ends wrangler and its workerd at once (SIGKILL to the process
// group), as a crash or an eviction would: nothing is closed gracefully.
// A PersistDir given in Options is kept for the next Start.
func (s *Server) Kill() {
	if s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
	_ = os.RemoveAll(s.dir)
}

// Stop sends SIGTERM to wrangler and waits up to 15 s, then kills the
// process group it started; the temporary folder is removed (the persist
// folder too when it is inside it).
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
		// workerd children of this wrangler, if any survived.
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	}
	_ = os.RemoveAll(s.dir)
}
