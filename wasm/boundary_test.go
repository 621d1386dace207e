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

// TestBrowserModuleBoundary fails when a browser module's dependencies
// (go list -deps, as TinyGo builds them: tag tinygo, GOOS=js GOARCH=wasm)
// pull a forbidden package, naming the import chain to cut. Both modules:
// the validation module (./wasm) and the response decoder (./wasm/decoder).
func TestBrowserModuleBoundary(t *testing.T) {
	for pkg, core := range map[string]string{
		".":         "github.com/parcelgate/parcelgate/internal/validate",
		"./decoder": "github.com/parcelgate/parcelgate/internal/envelope",
	} {
		t.Run(pkg, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-tags", "tinygo", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, pkg)
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
			if !seen[core] {
				t.Fatalf("the dependency list does not include %s: the test is not looking at the module", core)
			}
			for _, p := range forbidden {
				if seen[p] {
					t.Errorf("%s links %s (imported by %s): keep it out of the packages it imports", pkg, p, strings.Join(importers[p], ", "))
				}
			}
		})
	}
}
