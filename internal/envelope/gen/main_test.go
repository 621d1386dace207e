package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedFilesAreFresh fails when a committed generated file differs
// from what the generator writes now: run `make generate`.
func TestGeneratedFilesAreFresh(t *testing.T) {
	files, err := generate("..", "../../js/results.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Errorf("%s: %v (run make generate)", name, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%s is stale: run make generate", filepath.Clean(filepath.Join("internal/envelope", name)))
		}
	}
}
