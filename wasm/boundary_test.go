//go:build !js

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are the packages the browser module must not link: they cost
// tens of kilobytes under TinyGo (fmt, reflect) or do not belong in a
// browser at all (net/http). What needs them lives in internal/sandbox or
// worker/, outside the module's imports.
var forbidden = []string{"fmt", "reflect", "net", "net/http", "encoding/json", "regexp", "os", "log"}

// TestBrowserModuleBoundary fails when the browser module's dependencies
// (go list -deps ./wasm for GOOS=js GOARCH=wasm) pull a forbidden
// package, naming the import chain to cut.
func TestBrowserModuleBoundary(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	importers := map[string][]string{} // package -> packages importing it
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		seen[f[0]] = true
		for _, imp := range f[1:] {
			importers[imp] = append(importers[imp], f[0])
		}
	}
	if !seen["github.com/parcelgate/parcelgate/internal/envelope"] {
		t.Fatal("the dependency list does not include the core: the test is not looking at the browser module")
	}
	for _, p := range forbidden {
		if seen[p] {
			t.Errorf("the browser module links %s (imported by %s): keep it out of the packages ./wasm imports", p, strings.Join(importers[p], ", "))
		}
	}
}
