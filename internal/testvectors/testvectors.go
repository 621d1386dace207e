// Package testvectors loads the shared vectors of testdata/ for the Go
// tests (the JavaScript tests read the same files), so that every test
// finds, reads and names them the same way. It is imported by _test.go
// files only.
package testvectors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Dir is the repository's testdata/ folder, relative to the test's
// working directory (its package's folder): the nearest parent holding
// go.mod. Relative, so that it also works in the browser, where the Go
// tests read files through wasmbrowsertest.
func Dir() string {
	up := "."
	for i := 0; i < 6; i++ {
		if _, err := os.Stat(filepath.Join(up, "go.mod")); err == nil {
			return filepath.Join(up, "testdata")
		}
		up = filepath.Join(up, "..")
	}
	return "testdata"
}

// Read returns the bytes of testdata/<name>.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(), filepath.FromSlash(name)))
	if err != nil {
		t.Fatalf("testvectors: %v", err)
	}
	return b
}

// Load decodes testdata/<name> into v.
func Load(t testing.TB, name string, v any) {
	t.Helper()
	if err := json.Unmarshal(Read(t, name), v); err != nil {
		t.Fatalf("testvectors: %s: %v", name, err)
	}
}

// List decodes every file matching testdata/<pattern> (each a JSON array
// of T) and returns the vectors in file order, each with the file's base
// name, so that a failing vector can be found. It fails when nothing
// matches.
func List[T any](t testing.TB, pattern string) []Named[T] {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(), filepath.FromSlash(pattern)))
	if err != nil || len(files) == 0 {
		t.Fatalf("testvectors: no file matches testdata/%s (%v)", pattern, err)
	}
	sort.Strings(files)
	var out []Named[T]
	for _, f := range files {
		var list []T
		rel, _ := filepath.Rel(Dir(), f)
		Load(t, filepath.ToSlash(rel), &list)
		for _, v := range list {
			out = append(out, Named[T]{File: filepath.Base(f), V: v})
		}
	}
	return out
}

// Named is a vector and the file it comes from.
type Named[T any] struct {
	File string
	V    T
}

// Golden checks that testdata/<name> holds want, the vectors a Go test
// generates for the Go and JavaScript tests; with update it writes want
// first. A stale file fails the test and says how to regenerate it.
func Golden(t testing.TB, name string, want []byte, update bool, regenerate string) {
	t.Helper()
	path := filepath.Join(Dir(), filepath.FromSlash(name))
	if update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatalf("testvectors: %v", err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("testvectors: %v (run %s)", err, regenerate)
	}
	if string(got) != string(want) {
		t.Fatalf("testdata/%s is stale: run %s", name, regenerate)
	}
}
