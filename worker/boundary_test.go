//go:build !(js && wasm)

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// forbidden are the packages the edge core module must not link, as the
// browser modules must not (wasm/boundary_test.go): fmt, reflect and
// encoding/json cost tens of kilobytes under TinyGo; the sandbox, net/http
// and syumai/workers do not belong in the production upload at all (the
// sandbox is a worker of its own, internal/sandbox/worker, reached through
// the SANDBOX service binding; only tests use it in-process). What needs
// them lives in the Go-only packages: worker/webhooks parses events with
// encoding/json, the edge signs with worker/webhooks/wire.
var forbidden = []string{"fmt", "reflect", "encoding/json", "encoding/hex", "regexp", "os", "log", "net", "net/http"}

// coreBuildTags are the build tags and platform under which `make
// worker-core` compiles the core module, so that go list selects the files
// TinyGo compiles: a file only that build takes (internal/catalog's
// doc_nodocs.go, tagged nodocs) is checked too. The target
// (worker/core/wasm/target.json) inherits TinyGo's wasm-unknown, which
// builds as linux/arm with the tags tinygo.wasm and wasm_unknown and the
// scheduler none; the -tags and -gc flags are read from worker/worker.mk's
// CORE_TINYGO_FLAGS.
func coreBuildTags(t *testing.T) (tags string, env []string) {
	target, err := os.ReadFile("core/wasm/target.json")
	require.NoError(t, err)
	require.Contains(t, string(target), `"inherits": ["wasm-unknown"]`, "the core's target changed: update coreBuildTags to what it builds as")
	mk, err := os.ReadFile("worker.mk")
	require.NoError(t, err)
	flags := regexp.MustCompile(`(?m)^CORE_TINYGO_FLAGS := (.*)$`).FindSubmatch(mk)
	require.NotNil(t, flags, "worker.mk: no CORE_TINYGO_FLAGS")
	gc := regexp.MustCompile(`-gc=(\S+)`).FindSubmatch(flags[1])
	require.NotNil(t, gc, "CORE_TINYGO_FLAGS: no -gc=")
	tagList := []string{"tinygo", "tinygo.wasm", "wasm_unknown", "scheduler.none", "gc." + string(gc[1])}
	tagFlags := regexp.MustCompile(`-tags[ =](\S+)`).FindAllSubmatch(flags[1], -1)
	require.Equal(t, strings.Count(string(flags[1]), "-tags"), len(tagFlags), "CORE_TINYGO_FLAGS: a -tags flag not read")
	for _, m := range tagFlags {
		tagList = append(tagList, strings.Split(string(m[1]), ",")...)
	}
	return strings.Join(tagList, " "), []string{"GOOS=linux", "GOARCH=arm", "CGO_ENABLED=0"}
}

// TestProductionBuildHasNoSandbox fails when the core module's
// dependencies (go list -deps with the tags TinyGo builds it with) pull a
// forbidden package, naming the import chain to cut.
func TestProductionBuildHasNoSandbox(t *testing.T) {
	tags, env := coreBuildTags(t)
	cmd := exec.Command("go", "list", "-deps", "-tags", tags, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../worker/core/wasm")
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	importers := map[string][]string{} // package -> packages importing it
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		seen[f[0]] = true
		for _, imp := range f[1:] {
			importers[imp] = append(importers[imp], f[0])
		}
	}
	require.True(t, seen["github.com/parcelgate/parcelgate/worker/core"], "the list is the core module's")
	for d := range seen {
		if strings.HasPrefix(d, "github.com/parcelgate/parcelgate/internal/sandbox") || strings.HasPrefix(d, "github.com/tinylib/msgp") ||
			strings.HasPrefix(d, "github.com/syumai/workers") {
			t.Errorf("the core module imports %s (imported by %s)", d, strings.Join(importers[d], ", "))
		}
	}
	for _, p := range forbidden {
		if seen[p] {
			t.Errorf("the core module links %s (imported by %s): keep it out of the packages it imports", p, strings.Join(importers[p], ", "))
		}
	}
}
