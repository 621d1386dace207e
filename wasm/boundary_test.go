//go:build !js

package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/parcelgate/parcelgate/internal/tinygodeps"
)

// forbidden are the packages the browser module must not link: they cost
// tens of kilobytes under TinyGo (fmt, reflect) or do not belong in a
// browser at all (net/http). What needs them lives in internal/sandbox or
// worker/, outside the module's imports.
var forbidden = []string{"fmt", "reflect", "net", "net/http", "encoding/json", "regexp", "os", "log"}

// TestBrowserModuleBoundary fails when a browser module's dependencies
// (go list -deps with the tags and platform TinyGo builds it with: wasm.mk's
// TINYGO_FLAGS, read by internal/tinygodeps) pull a forbidden package,
// naming the import chain to cut. Both modules: the validation module
// (./wasm) and the response decoder (./wasm/decoder).
func TestBrowserModuleBoundary(t *testing.T) {
	mk, err := os.ReadFile("wasm.mk")
	if err != nil {
		t.Fatal(err)
	}
	flags := regexp.MustCompile(`(?m)^TINYGO_FLAGS := (.*)$`).FindSubmatch(mk)
	if flags == nil {
		t.Fatal("wasm.mk: no TINYGO_FLAGS")
	}
	b, err := tinygodeps.ParseFlags("..", string(flags[1]))
	if err != nil {
		t.Fatal(err)
	}
	for pkg, core := range map[string]string{
		"./wasm":         "github.com/parcelgate/parcelgate/internal/validate",
		"./wasm/decoder": "github.com/parcelgate/parcelgate/internal/envelope",
	} {
		t.Run(pkg, func(t *testing.T) {
			deps, err := tinygodeps.List("..", pkg, b)
			if err != nil {
				t.Fatal(err)
			}
			if !deps.Linked[core] {
				t.Fatalf("the dependency list does not include %s: the test is not looking at the module", core)
			}
			for _, p := range forbidden {
				if deps.Linked[p] {
					t.Errorf("%s links %s (imported by %s): keep it out of the packages it imports", pkg, p, deps.ImportedBy(p))
				}
			}
		})
	}
}
