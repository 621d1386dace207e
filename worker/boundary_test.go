//go:build !(js && wasm)

package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/tinygodeps"
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

// coreFlags are the TinyGo flags `make worker-core` builds the core module
// with (worker.mk's CORE_TINYGO_FLAGS), so that go list selects the files
// TinyGo compiles: a file only that build takes (internal/catalog's
// doc_nodocs.go, tagged nodocs) is checked too.
func coreFlags(t *testing.T) string {
	mk, err := os.ReadFile("worker.mk")
	require.NoError(t, err)
	flags := regexp.MustCompile(`(?m)^CORE_TINYGO_FLAGS := (.*)$`).FindSubmatch(mk)
	require.NotNil(t, flags, "worker.mk: no CORE_TINYGO_FLAGS")
	return string(flags[1])
}

// TestProductionBuildHasNoSandbox fails when the core module's
// dependencies (go list -deps with the tags TinyGo builds it with) pull a
// forbidden package, naming the import chain to cut.
func TestProductionBuildHasNoSandbox(t *testing.T) {
	b, err := tinygodeps.ParseFlags("..", coreFlags(t))
	require.NoError(t, err)
	deps, err := tinygodeps.List("..", "./worker/core/wasm", b)
	require.NoError(t, err)
	seen := deps.Linked
	require.True(t, seen["github.com/parcelgate/parcelgate/worker/core"], "the list is the core module's")
	for d := range seen {
		if strings.HasPrefix(d, "github.com/parcelgate/parcelgate/internal/sandbox") || strings.HasPrefix(d, "github.com/tinylib/msgp") ||
			strings.HasPrefix(d, "github.com/syumai/workers") {
			t.Errorf("the core module imports %s (imported by %s)", d, deps.ImportedBy(d))
		}
	}
	for _, p := range forbidden {
		if seen[p] {
			t.Errorf("the core module links %s (imported by %s): keep it out of the packages it imports", p, deps.ImportedBy(p))
		}
	}
}
