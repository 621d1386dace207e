// Command gen writes the catalog's JSON exports into testdata/: the whole
// catalog (catalog.json, what tools outside Go read) and one JSON Schema
// (draft 4) per operation, without and with the rules feature
// (schemas/<op>.json, schemas/rules/<op>.json). Run it with `make
// generate`; a test fails when the committed files drift from the catalog.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/parcelgate/parcelgate/internal/catalog"
)

func main() {
	out := flag.String("out", "testdata", "folder to write into")
	flag.Parse()
	files := catalog.Files()
	for _, name := range catalog.SortedFileNames(files) {
		p := filepath.Join(*out, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
