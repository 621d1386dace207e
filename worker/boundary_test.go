//go:build !(js && wasm)

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The production build (GOOS=js, what `make worker` uploads) carries no
// sandbox: the sandbox is a worker of its own (internal/sandbox/worker),
// reached through the SANDBOX service binding. Only the native build
// (platform_other.go, `go run ./worker`) and the tests use it in-process.
func TestProductionBuildHasNoSandbox(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/parcelgate/parcelgate/worker/edge", "the list is the worker's")
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/parcelgate/parcelgate/internal/sandbox") || strings.HasPrefix(d, "github.com/tinylib/msgp") {
			t.Errorf("the js/wasm build of ./worker imports %s", d)
		}
	}
}
