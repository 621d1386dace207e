//go:build !(js && wasm)

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The production upload (what `make worker` builds) is the worker's
// JavaScript and the core module: it carries no sandbox, no net/http and
// no syumai/workers. The sandbox is a worker of its own
// (internal/sandbox/worker), reached through the SANDBOX service binding;
// only tests use it in-process.
func TestProductionBuildHasNoSandbox(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-tags", "tinygo", "../worker/core/wasm")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/parcelgate/parcelgate/worker/core", "the list is the core module's")
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/parcelgate/parcelgate/internal/sandbox") || strings.HasPrefix(d, "github.com/tinylib/msgp") ||
			d == "net/http" || strings.HasPrefix(d, "github.com/syumai/workers") {
			t.Errorf("the core module imports %s", d)
		}
	}
}
