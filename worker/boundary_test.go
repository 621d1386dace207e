//go:build !(js && wasm)

package main

import (
	"os/exec"
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

// TestProductionBuildHasNoSandbox fails when the core module's
// dependencies (go list -deps as TinyGo builds them) pull a forbidden
// package, naming the import chain to cut.
func TestProductionBuildHasNoSandbox(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-tags", "tinygo", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../worker/core/wasm")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
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
