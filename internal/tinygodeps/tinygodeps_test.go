//go:build !js

package tinygodeps

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFlags(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "t.json"), []byte(`{"inherits": ["wasm-unknown"], "features": "+bulk-memory"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "other.json"), []byte(`{"inherits": ["wasip1"]}`), 0o644))

	b, err := ParseFlags(root, "-target t.json -tags nodocs -gc=conservative -no-debug -opt=z")
	require.NoError(t, err)
	assert.Contains(t, b.Tags, "nodocs")
	assert.Contains(t, b.Tags, "gc.conservative")
	assert.NotContains(t, b.Tags, "gc.leaking")
	assert.Contains(t, b.Tags, "wasm_unknown")
	assert.Equal(t, []string{"GOOS=linux", "GOARCH=arm", "CGO_ENABLED=0"}, b.Env)

	b, err = ParseFlags(root, "-target=wasm-unknown -tags=a,b -panic=trap")
	require.NoError(t, err)
	assert.Contains(t, b.Tags, "a")
	assert.Contains(t, b.Tags, "b")
	assert.Contains(t, b.Tags, "gc.leaking", "wasm-unknown's own collector when -gc is absent")

	for flags, why := range map[string]string{
		"-tags nodocs":             "no -target",
		"-target other.json":       "does not inherit wasm-unknown",
		"-target missing.json":     "no such file",
		"-target wasm-unknown -gc": "-gc without a value",
	} {
		_, err := ParseFlags(root, flags)
		assert.ErrorContains(t, err, why, flags)
	}
}

// TestListSeesTaggedFiles: a file only the tagged build compiles is listed
// with its imports, and not without the tag (what the boundary tests
// missed before: internal/catalog's doc_nodocs.go).
func TestListSeesTaggedFiles(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(text), 0o644))
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("p/p.go", "package p\n")
	write("p/tagged.go", "//go:build nodocs && wasm_unknown\n\npackage p\n\nimport _ \"strconv\"\n")

	b, err := ParseFlags(root, "-target wasm-unknown")
	require.NoError(t, err)
	d, err := List(root, "./p", b)
	require.NoError(t, err)
	assert.True(t, d.Linked["example.com/m/p"])
	assert.False(t, d.Linked["strconv"], "without nodocs the tagged file is not compiled")

	b, err = ParseFlags(root, "-target wasm-unknown -tags nodocs")
	require.NoError(t, err)
	d, err = List(root, "./p", b)
	require.NoError(t, err)
	assert.True(t, d.Linked["strconv"])
	assert.Equal(t, "example.com/m/p", d.ImportedBy("strconv"))
}

// TestTagsAreTinyGos holds wasmUnknownTags to `tinygo info -target
// wasm-unknown` of the toolchain make installs: make test runs it with
// PARCELGATE_TINYGO set (worker/worker.mk, test-worker-js), after TinyGo is
// installed; a plain go test, which may run before that, skips it.
func TestTagsAreTinyGos(t *testing.T) {
	tg := os.Getenv("PARCELGATE_TINYGO")
	if tg == "" {
		t.Skip("PARCELGATE_TINYGO not set (make test sets it once TinyGo is installed)")
	}
	out, err := exec.Command(tg, "info", "-target", "wasm-unknown").CombinedOutput()
	require.NoError(t, err, "%s", out)
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "build tags:"); ok {
			got = strings.Fields(rest)
		}
	}
	require.NotEmpty(t, got, "no build tags line in tinygo info: %s", out)
	want := append(append([]string{}, wasmUnknownTags...), "gc.leaking")
	sort.Strings(got)
	sort.Strings(want)
	assert.Equal(t, want, got, "TinyGo's wasm-unknown tags changed: update wasmUnknownTags")
	assert.Contains(t, string(out), "GOOS:              linux")
	assert.Contains(t, string(out), "GOARCH:            arm")
}
