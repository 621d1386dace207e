// Command gen writes the seam between the edge's JavaScript and its core
// from its one declaration, worker/core/seam (see that package's doc):
// seam/wire_gen.go (method numbers, decoders, encoders) with its tests,
// worker/core/calls_gen.go (the dispatch), worker/src/core.gen.mjs (the
// JavaScript calls) and worker/src/core.d.mts (their types). It runs in
// worker/core/seam (go generate there; `make generate`).
package main

import (
	"go/format"
	"os"
	"path/filepath"
)

func main() {
	m, err := load(".")
	if err != nil {
		fail("%v", err)
	}
	if len(m.Calls) == 0 {
		fail("no Calls interface in %s", must(os.Getwd()))
	}
	writeGo("wire_gen.go", goWire(m))
	writeGo("wire_gen_test.go", goTests(m))
	writeGo(filepath.Join("..", "calls_gen.go"), goDispatch(m))
	write(filepath.Join("..", "..", "src", "core.gen.mjs"), jsCalls(m))
	write(filepath.Join("..", "..", "src", "core.d.mts"), dts(m))
}

func writeGo(path, src string) {
	b, err := format.Source([]byte(src))
	if err != nil {
		_ = os.WriteFile(path+".broken", []byte(src), 0o644)
		fail("%s: %v (source in %s.broken)", path, err, path)
	}
	write(path, string(b))
}

func write(path, s string) {
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		fail("%v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		fail("%v", err)
	}
	return v
}
