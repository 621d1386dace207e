// Command gen writes a seam between JavaScript and a TinyGo module from
// its one declaration. Run in worker/core/seam, it writes the edge's from
// worker/core/seam (see that package's doc):
// seam/wire_gen.go (method numbers, decoders, encoders) with its tests,
// worker/core/calls_gen.go (the dispatch), worker/src/core.gen.mjs (the
// JavaScript calls) and worker/src/core.d.mts (their types). Run in
// wasm/internal/seam with -browser, it writes the browser module's (see
// browser.go). Both run by go generate there (`make generate`).
package main

import (
	"flag"
	"go/format"
	"os"
	"path/filepath"
)

func main() {
	browser := flag.Bool("browser", false, "the declaration is the browser module's (wasm/internal/seam): write its token codec, wasm/'s exports and js/src/core.gen.js")
	flag.Parse()
	m, err := load(".")
	if err != nil {
		fail("%v", err)
	}
	if len(m.Calls) == 0 {
		fail("no Calls interface in %s", must(os.Getwd()))
	}
	if *browser {
		writeBrowser(m)
		return
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
