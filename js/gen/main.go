// Command gen writes the files of the JavaScript package that are
// generated from the operation catalog (see package parcelgatejs). Run it
// with `go generate ./js` from the repository root.
package main

import (
	"flag"
	"os"
	"path/filepath"

	parcelgatejs "github.com/parcelgate/parcelgate/js"
)

func main() {
	dir := flag.String("dir", ".", "the js/ directory")
	flag.Parse()
	for name, data := range parcelgatejs.Files() {
		path := filepath.Join(*dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
	}
}
