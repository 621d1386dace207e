//go:build !(js && wasm)

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// The "profile" part (-parts profile, not in the default; make
// profile-worker builds its bundle first): the edge alone in a workerd of
// its own, as the bare part starts it, with workerd's inspector on, and
// V8's sampling profiler over profileN warm requests of one scenario.
// profile.mjs holds the inspector's side (start, stop) and reads the
// profile into categories; this side starts workerd and sends the
// requests, so the config and the requests are the bare part's.

// profileBundle is the unminified bundle with a named core that make
// profile-worker writes (names in the profile's frames).
const profileBundle = "build/profile/bundle"

// profileN, profileWarm and profileScenario are -profile-n, -profile-warm
// and -profile-scenario.
var (
	profileN, profileWarm = 6000, 3000
	profileScenario       = "forward"
)

// profilePart profiles the edge's warm requests and prints profile.mjs's
// tables.
func profilePart(root string, vars map[string]string) error {
	wd, date, tmp, err := workerdSetup(root, "profile")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var sc *scenario
	for _, s := range scenarios() {
		if s.key == profileScenario && (s.key == "forward" || s.key == "healthz") {
			sc = &s
		}
	}
	if sc == nil {
		return fmt.Errorf("profile: -profile-scenario %q: forward or healthz", profileScenario)
	}
	dir := filepath.Join(root, profileBundle)
	w, err := bundled("edge (profile build)", dir)
	if err != nil {
		return fmt.Errorf("profile: %w (make profile-worker builds it)", err)
	}
	w.config = "profile.capnp" // beside the modules it embeds (build/ is not tracked)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	inspector := l.Addr().String()
	l.Close()
	p, err := startBare(wd, w, vars, date, "--inspector-addr="+inspector)
	if err != nil {
		return err
	}
	defer p.stop()
	for i := 0; i < profileWarm; i++ {
		if _, err := do(p.url, *sc, 200); err != nil {
			return fmt.Errorf("profile warm-up: %w", err)
		}
	}
	cmd := exec.Command("node", "--experimental-websocket", filepath.Join(root, "worker", "bench", "profile.mjs"),
		inspector, filepath.Join(dir, "worker.js"), strconv.Itoa(profileN), sc.name)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); err != nil || line != "profiling\n" {
		return fmt.Errorf("profile.mjs did not start profiling (%q): %v", line, err)
	}
	for i := 0; i < profileN; i++ {
		if _, err := do(p.url, *sc, 200); err != nil {
			return fmt.Errorf("profile: %w", err)
		}
	}
	if _, err := io.WriteString(stdin, "stop\n"); err != nil {
		return err
	}
	if _, err := io.Copy(os.Stdout, out); err != nil {
		return err
	}
	return cmd.Wait()
}
