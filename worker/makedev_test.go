//go:build !(js && wasm)

package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/sandbox/holidays"
	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
)

// The tests here run make dev and make sandbox themselves, as a developer
// does, in a mirror of the repository (mirrorRepo): wrangler reads the
// .dev.vars beside the config it is given, and make dev and make sandbox
// write the sandbox worker's .dev.vars(.dev) beside its config, so running
// them in the checkout would read or clobber the developer's own files.

// mirrorRepo returns a temporary directory that is the repository to make
// and wrangler: every top-level entry a symlink to the checkout's (the
// Makefile, sources, build/, node_modules, ...), except the files make dev
// and make sandbox read or write per developer: no .dev.vars, no .wrangler
// state, and copies of the two wrangler configs (wrangler looks for
// .dev.vars beside the config), the sandbox's in a real
// internal/sandbox/worker directory whose .dev.vars files are the mirror's.
func mirrorRepo(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dst := t.TempDir()
	descend := map[string]bool{"internal": true, "internal/sandbox": true, "internal/sandbox/worker": true}
	copyFile := map[string]bool{"wrangler.toml": true, "internal/sandbox/worker/wrangler.toml": true}
	var walk func(rel string)
	walk = func(rel string) {
		entries, err := os.ReadDir(filepath.Join(root, rel))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Join(dst, rel), 0o755))
		for _, e := range entries {
			p := filepath.ToSlash(filepath.Join(rel, e.Name()))
			switch {
			case strings.HasPrefix(e.Name(), ".dev.vars") && e.Name() != ".dev.vars.example", e.Name() == ".wrangler":
				// the developer's: never seen by the mirror
			case descend[p]:
				walk(p)
			case copyFile[p]:
				b, err := os.ReadFile(filepath.Join(root, p))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(dst, p), b, 0o644))
			default:
				require.NoError(t, os.Symlink(filepath.Join(root, p), filepath.Join(dst, p)))
			}
		}
	}
	walk(".")
	return dst
}

// portPair returns a free port p whose p+10000 (the inspector make dev and
// make sandbox derive from it) is free too.
func portPair(t *testing.T) int {
	t.Helper()
	for i := 0; i < 50; i++ {
		p, err := wranglerdev.FreePort()
		require.NoError(t, err)
		if p+10000 > 65535 {
			continue
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p+10000))
		if err != nil {
			continue
		}
		l.Close()
		return p
	}
	t.Fatal("no free port pair")
	return 0
}

// devPorts returns a free DEV_PORT p for make dev: p+10000 (its inspector)
// and p+20000 (the demo shop's server, at most 65535) are free too.
func devPorts(t *testing.T) int {
	t.Helper()
	for i := 0; i < 100; i++ {
		p := portPair(t)
		if p+20000 > 65535 {
			continue
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p+20000))
		if err != nil {
			continue
		}
		l.Close()
		return p
	}
	t.Fatal("no free DEV_PORT with DEV_PORT+10000 and DEV_PORT+20000 free")
	return 0
}

// makeRun is a long-running make target (make dev, make sandbox) in its own
// process group.
type makeRun struct {
	cmd  *exec.Cmd
	out  *wranglerdev.SyncBuffer
	done chan struct{}
}

// startMake runs `make args...` in dir and waits until base+ready answers
// (any HTTP answer), failing with make's output if make exits first.
func startMake(t *testing.T, dir, base, ready string, args ...string) *makeRun {
	t.Helper()
	m := &makeRun{out: &wranglerdev.SyncBuffer{}, done: make(chan struct{})}
	m.cmd = exec.Command("make", append([]string{"--no-print-directory"}, args...)...)
	m.cmd.Dir = dir
	m.cmd.Env = append(os.Environ(), "NO_COLOR=1", "CI=1", "WRANGLER_LOG_PATH="+filepath.Join(dir, ".wrangler", "logs"))
	m.cmd.Stdout, m.cmd.Stderr = m.out, m.out
	m.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, m.cmd.Start())
	go func() { _ = m.cmd.Wait(); close(m.done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
		<-m.done
		if t.Failed() {
			t.Logf("make %s output:\n%s", strings.Join(args, " "), m.out.String())
		}
	})
	c := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(240 * time.Second)
	for {
		select {
		case <-m.done:
			t.Fatalf("make %s exited before answering:\n%s", strings.Join(args, " "), m.out.String())
		default:
		}
		if res, err := c.Get(base + ready); err == nil {
			res.Body.Close()
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("make %s: %s did not answer:\n%s", strings.Join(args, " "), base+ready, m.out.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// stop sends SIGTERM to the process group (what Ctrl-C's terminal does with
// SIGINT) and requires that make exits and that no process of the group
// (wrangler, workerd) is left behind.
func (m *makeRun) stop(t *testing.T) {
	t.Helper()
	pg := m.cmd.Process.Pid
	t.Logf("stopping make's process group %d: %d processes", pg, len(procsOfGroup(pg)))
	require.NoError(t, syscall.Kill(-pg, syscall.SIGTERM))
	select {
	case <-m.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("make did not exit on SIGTERM:\n%s", m.out.String())
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		err := syscall.Kill(-pg, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of make's group %d left behind: %v", pg, groupProcs(pg))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// groupProcs lists the pids and commands of process group pg.
func groupProcs(pg int) []string {
	var out []string
	for _, pid := range procsOfGroup(pg) {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmd), "\x00", " ")))
	}
	return out
}

// procsOfGroup is every live pid whose process group is pg (/proc/<pid>/stat).
func procsOfGroup(pg int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so after the last ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pg) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// listeningPorts is the TCP ports the processes of group pg listen on
// (their socket inodes matched against /proc/net/tcp and tcp6, state 0A).
func listeningPorts(t *testing.T, pg int) map[int]bool {
	t.Helper()
	inodes := map[string]bool{}
	for _, pid := range procsOfGroup(pg) {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		for _, fd := range fds {
			l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
			if err == nil && strings.HasPrefix(l, "socket:[") {
				inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
			}
		}
	}
	ports := map[int]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		sc.Scan() // header
		for sc.Scan() {
			x := strings.Fields(sc.Text())
			if len(x) < 10 || x[3] != "0A" || !inodes[x[9]] {
				continue
			}
			port, err := strconv.ParseUint(x[1][strings.LastIndexByte(x[1], ':')+1:], 16, 16)
			require.NoError(t, err)
			ports[int(port)] = true
		}
	}
	return ports
}

// ephemeral is the kernel's range for ports it picks (a bind to port 0).
func ephemeral(t *testing.T) (int, int) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	require.NoError(t, err)
	f := strings.Fields(string(b))
	require.Len(t, f, 2)
	lo, _ := strconv.Atoi(f[0])
	hi, _ := strconv.Atoi(f[1])
	return lo, hi
}

// shBlock is the first ```sh block after the line containing marker in doc.
func shBlock(t *testing.T, doc, marker string) string {
	t.Helper()
	i := strings.Index(doc, marker)
	require.GreaterOrEqual(t, i, 0, "%q", marker)
	rest := doc[i:]
	j := strings.Index(rest, "```sh\n")
	require.GreaterOrEqual(t, j, 0, "a sh block after %q", marker)
	rest = rest[j+len("```sh\n"):]
	k := strings.Index(rest, "```")
	require.GreaterOrEqual(t, k, 0)
	return rest[:k]
}

// commands are the block's commands: continuation lines joined, comments
// (whole-line and trailing "# ..." after two spaces) and blank lines dropped.
func commands(block string) []string {
	var out []string
	cur := ""
	for _, line := range strings.Split(block, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") && cur == "" {
			continue
		}
		if i := strings.Index(line, "  # "); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimRight(line, " ")
		if strings.HasSuffix(line, "\\") {
			cur += strings.TrimSuffix(line, "\\")
			continue
		}
		cur += line
		if strings.TrimSpace(cur) != "" {
			out = append(out, strings.Join(strings.Fields(cur), " "))
		}
		cur = ""
	}
	return out
}

// TestDevVarsRealUpstreamMakeDev follows worker/DEPLOY.md's "A real upstream
// under make dev" to its end: in a mirror of the repository, the recipe's
// commands as written, the edit its comment asks for (UPSTREAM_BASE_URL a
// fake service on 127.0.0.1, an account's user and key), make dev-secrets,
// then make dev on a free DEV_PORT. /healthz answers 200 ok; a read goes to
// the fake service with the account's Basic credentials and its envelope
// comes back. A second make dev on another DEV_PORT (the sandbox upstream)
// runs beside it: the two listen on no common port, every port either
// listens on is its DEV_PORT, its DEV_PORT+10000 (the inspector), its
// DEV_PORT+20000 (the demo shop's server) or one the kernel picked. SIGTERM to each make's process group leaves no process.
func TestDevVarsRealUpstreamMakeDev(t *testing.T) {
	skipUnlessDeployTest(t)
	doc, err := os.ReadFile("DEPLOY.md")
	require.NoError(t, err)
	cmds := commands(shBlock(t, string(doc), "## A real upstream under make dev"))
	require.Equal(t, []string{"cp .dev.vars.example .dev.vars", "make dev-secrets", "make dev"}, cmds,
		"DEPLOY.md's recipe (this test follows it)")
	require.Contains(t, string(doc), "# in .dev.vars: UPSTREAM_BASE_URL=https://<service host>/v1, API_USER=..., API_KEY=...")

	const apiUser, apiKey = "shop-42", "acct-key-9f8e7d6c-do-not-leak"
	var mu sync.Mutex
	var seen []*http.Request
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Clone(r.Context()))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if u, k, ok := r.BasicAuth(); !ok || u != apiUser || k != apiKey {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"status":"err","data":{"errorCode":401,"errorMessage":"bad credentials"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"status":"ok","data":[{"carrier_code":"fake-carrier","carrier_name":"Fake"}]}`)
	}))
	t.Cleanup(up.Close)

	dir := mirrorRepo(t)
	sh := func(c string) string {
		cmd := exec.Command("bash", "-c", c)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "MAKEFLAGS=--no-print-directory")
		o, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s", c, o)
		return string(o)
	}
	sh(cmds[0])
	dv := filepath.Join(dir, ".dev.vars")
	b, err := os.ReadFile(dv)
	require.NoError(t, err)
	s := regexp.MustCompile(`(?m)^UPSTREAM_BASE_URL=.*$`).ReplaceAllString(string(b), "UPSTREAM_BASE_URL="+up.URL+"/v1")
	s = regexp.MustCompile(`(?m)^API_USER=.*$`).ReplaceAllString(s, "API_USER="+apiUser)
	s = regexp.MustCompile(`(?m)^API_KEY=.*$`).ReplaceAllString(s, "API_KEY="+apiKey)
	require.NoError(t, os.WriteFile(dv, []byte(s), 0o600))
	assert.Contains(t, sh(cmds[1]), "wrote a random PROXY_TOKEN")

	port := devPorts(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	m := startMake(t, dir, base, "/healthz", "dev", fmt.Sprintf("DEV_PORT=%d", port))
	c := &http.Client{Timeout: 30 * time.Second}

	res, err := c.Get(base + "/healthz")
	require.NoError(t, err)
	hb, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode, "%s\n%s", hb, m.out.String())
	var env struct {
		Status string `json:"status"`
	}
	require.NoError(t, json.Unmarshal(hb, &env), string(hb))
	assert.Equal(t, "ok", env.Status, string(hb))
	assert.NotContains(t, string(hb), apiKey)

	res, err = c.Get(base + "/v1/get-client-carriers")
	require.NoError(t, err)
	rb, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode, "%s\n%s", rb, m.out.String())
	assert.JSONEq(t, `{"status":"ok","data":[{"carrier_code":"fake-carrier","carrier_name":"Fake"}]}`, string(rb))
	mu.Lock()
	require.Len(t, seen, 1, "one request reached the fake upstream")
	r := seen[0]
	mu.Unlock()
	assert.Equal(t, "/v1/get-client-carriers", r.URL.Path)
	assert.Equal(t, "Basic "+base64.StdEncoding.EncodeToString([]byte(apiUser+":"+apiKey)), r.Header.Get("Authorization"))
	sv, err := os.ReadFile(filepath.Join(dir, "internal/sandbox/worker/.dev.vars.dev"))
	require.NoError(t, err, "make dev wrote the mirror's sandbox .dev.vars.dev")
	assert.NotContains(t, string(sv), apiKey, "a real account's key never goes to the sandbox")

	// A second make dev (the example's sandbox upstream) on another DEV_PORT.
	dir2 := mirrorRepo(t)
	port2 := devPorts(t)
	for d := port2 - port; d == 0 || d == 10000 || d == -10000 || d == 20000 || d == -20000; d = port2 - port {
		port2 = devPorts(t)
	}
	base2 := fmt.Sprintf("http://127.0.0.1:%d", port2)
	m2 := startMake(t, dir2, base2, "/healthz", "dev", fmt.Sprintf("DEV_PORT=%d", port2))
	for _, b := range []string{base, base2} {
		res, err := c.Get(b + "/healthz")
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, 200, res.StatusCode, "%s/healthz with two make dev running", b)
	}
	lo, hi := ephemeral(t)
	p1, p2 := listeningPorts(t, m.cmd.Process.Pid), listeningPorts(t, m2.cmd.Process.Pid)
	t.Logf("DEV_PORT %d listens on %v; DEV_PORT %d on %v", port, p1, port2, p2)
	for _, x := range []struct {
		ports map[int]bool
		dev   int
	}{{p1, port}, {p2, port2}} {
		assert.True(t, x.ports[x.dev], "listens on DEV_PORT %d: %v", x.dev, x.ports)
		assert.True(t, x.ports[x.dev+10000], "the inspector on DEV_PORT+10000: %v", x.ports)
		assert.True(t, x.ports[x.dev+20000], "the demo shop's server on DEV_PORT+20000: %v", x.ports)
		for p := range x.ports {
			if p != x.dev && p != x.dev+10000 && p != x.dev+20000 {
				assert.True(t, p >= lo && p <= hi, "port %d is neither DEV_PORT-derived nor the kernel's pick (%d-%d)", p, lo, hi)
			}
		}
	}
	for p := range p1 {
		assert.False(t, p2[p], "both make dev listen on %d", p)
	}
	m2.stop(t)
	m.stop(t)
	for _, p := range []int{port, port + 10000, port + 20000, port2, port2 + 10000, port2 + 20000} {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if assert.NoError(t, err, "port %d free again after make dev stopped", p) {
			l.Close()
		}
	}
}

// TestMakeSandboxWalk runs make sandbox (the sandbox worker alone, offline)
// on a free SANDBOX_PORT in a mirror of the repository and walks
// internal/sandbox/README.md's curl walk against it, the commands as the
// README writes them: only the port (B's), the reference the walk writes
// as SBX... (the booking's) and, when the README's D falls on a Spanish
// holiday, D are substituted. The label's pipe is checked here (its
// label_raw is a PDF). Every answer is status ok.
func TestMakeSandboxWalk(t *testing.T) {
	skipUnlessDeployTest(t)
	doc, err := os.ReadFile("../internal/sandbox/README.md")
	require.NoError(t, err)
	require.Contains(t, string(doc), "the curl\n  walk above, which runs against it unchanged")
	cmds := commands(shBlock(t, string(doc), "A walk with curl"))
	require.GreaterOrEqual(t, len(cmds), 2)
	prelude := cmds[0]
	require.Contains(t, prelude, "B=http://127.0.0.1:8080/v1", "the walk's B is make sandbox's default SANDBOX_PORT")
	require.Contains(t, prelude, "A=\"-u sandbox:sandbox-key\"")

	dir := mirrorRepo(t)
	port := portPair(t)
	prelude = strings.Replace(prelude, "127.0.0.1:8080", "127.0.0.1:"+strconv.Itoa(port), 1)
	// D as the README computes it, unless that day is a holiday (the README
	// asks for a working day).
	out, err := exec.Command("bash", "-c", prelude+"; echo $D").Output()
	require.NoError(t, err)
	d, err := time.Parse("2006-01-02", strings.TrimSpace(string(out)))
	require.NoError(t, err, "the walk's D: %q", out)
	if !holidays.IsWorkingDay(d) {
		prelude += "; D=" + holidays.NextWorkingDay(d).Format("2006-01-02")
	}

	m := startMake(t, dir, fmt.Sprintf("http://127.0.0.1:%d", port), "/healthz", "sandbox", fmt.Sprintf("SANDBOX_PORT=%d", port))
	sv, err := os.ReadFile(filepath.Join(dir, "internal/sandbox/worker/.dev.vars"))
	require.NoError(t, err, "make sandbox wrote the mirror's .dev.vars")
	assert.Contains(t, string(sv), `SANDBOX_KEY="sandbox-key"`)

	ref := ""
	ops := map[string]bool{}
	for _, c := range cmds[1:] {
		require.True(t, strings.HasPrefix(c, "curl "), "a curl command: %s", c)
		pipe := ""
		if i := strings.Index(c, " | "); i >= 0 {
			c, pipe = c[:i], c[i+3:]
		}
		if strings.Contains(c, "SBX...") {
			require.NotEmpty(t, ref, "the walk books before it uses the reference: %s", c)
			c = strings.ReplaceAll(c, "SBX...", ref)
		}
		op := regexp.MustCompile(`\$B/([a-z-]+)`).FindStringSubmatch(c)
		require.NotNil(t, op, c)
		ops[op[1]] = true
		cmd := exec.Command("bash", "-c", prelude+"; "+c)
		cmd.Dir = t.TempDir()
		b, err := cmd.Output()
		require.NoError(t, err, c)
		var env struct {
			Status string         `json:"status"`
			Data   map[string]any `json:"data"`
		}
		_ = json.Unmarshal(b, &env)
		require.Equal(t, "ok", env.Status, "%s\n%s", c, b)
		if op[1] == "new-shipment" {
			ref, _ = env.Data["shipping_dlvr_ref"].(string)
			assert.Regexp(t, `^SBX[0-9]{10}$`, ref)
			assert.Regexp(t, `^[0-9]{15}$`, env.Data["shipping_carrier_ref"])
		}
		if pipe != "" {
			require.Equal(t, "jq -r .data.label_raw | base64 -d > label.pdf", pipe, "the walk's pipe (checked here)")
			raw, _ := env.Data["label_raw"].(string)
			pdf, err := base64.StdEncoding.DecodeString(raw)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(pdf), "%PDF"), "label_raw is a PDF")
		}
	}
	for _, op := range []string{"get-shipments-rates", "new-shipment", "get-shipment-label", "new-collection", "get-shipment-tracking"} {
		assert.True(t, ops[op], "the walk calls %s", op)
	}
	m.stop(t)
	for _, p := range []int{port, port + 10000} {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if assert.NoError(t, err, "port %d free again after make sandbox stopped", p) {
			l.Close()
		}
	}
}
