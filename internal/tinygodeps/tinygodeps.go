// Package tinygodeps lists the packages a TinyGo build links, as go list
// sees them under the build tags and platform TinyGo compiles with, for
// the boundary tests of the edge core (worker/boundary_test.go) and the
// browser modules (wasm/boundary_test.go). Listing with GOOS=js and the
// tag tinygo alone (what both tests did) skips every file only the real
// build takes: a `nodocs` or `wasm_unknown` file could import fmt unseen.
//
// Only targets that are or inherit TinyGo's wasm-unknown are understood;
// any other is an error, so a change of target fails the tests instead of
// listing the wrong files.
package tinygodeps

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// wasmUnknownTags are the build tags TinyGo 0.39 sets for wasm-unknown
// (`tinygo info -target wasm-unknown`) besides gc.* and the -tags flag's;
// it builds as linux/arm.
var wasmUnknownTags = []string{"tinygo", "tinygo.wasm", "wasm_unknown", "purego", "osusergo", "math_big_pure_go",
	"scheduler.none", "serial.none", "tinygo.unicore"}

// Build is what go list needs to select the files of a TinyGo build.
type Build struct {
	// Tags are the build tags, for go list's -tags.
	Tags []string
	// Env is the platform the target builds as.
	Env []string
}

// ParseFlags reads a build's TinyGo flags (a Makefile's, as written there):
// -target (wasm-unknown, or a target file under root that inherits it),
// -tags and -gc (leaking, wasm-unknown's own, when absent).
func ParseFlags(root, flags string) (Build, error) {
	f := strings.Fields(flags)
	target, gc := "", "leaking"
	var tags []string
	for i := 0; i < len(f); i++ {
		name, value, hasValue := strings.Cut(f[i], "=")
		if name != "-target" && name != "-tags" && name != "-gc" {
			continue
		}
		if !hasValue {
			if i+1 == len(f) {
				return Build{}, errors.New(name + " without a value")
			}
			i++
			value = f[i]
		}
		switch name {
		case "-target":
			target = value
		case "-tags":
			tags = append(tags, strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })...)
		case "-gc":
			gc = value
		}
	}
	switch {
	case target == "":
		return Build{}, errors.New("no -target in the flags")
	case target != "wasm-unknown":
		b, err := os.ReadFile(filepath.Join(root, target))
		if err != nil {
			return Build{}, err
		}
		if !strings.Contains(string(b), `"inherits": ["wasm-unknown"]`) {
			return Build{}, errors.New(target + " does not inherit wasm-unknown: teach tinygodeps what it builds as")
		}
	}
	all := append(append([]string{}, wasmUnknownTags...), "gc."+gc)
	return Build{Tags: append(all, tags...), Env: []string{"GOOS=linux", "GOARCH=arm", "CGO_ENABLED=0"}}, nil
}

// Deps is a package's dependency graph as the build links it.
type Deps struct {
	// Linked holds every package the build links.
	Linked map[string]bool
	// Importers maps a package to the packages importing it.
	Importers map[string][]string
}

// List runs go list -deps for pkg (a path relative to root) as b builds it.
func List(root, pkg string, b Build) (*Deps, error) {
	cmd := exec.Command("go", "list", "-deps", "-tags", strings.Join(b.Tags, ","), "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, pkg)
	cmd.Dir = root
	cmd.Env = append(cmd.Environ(), b.Env...)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, errors.New("go list: " + err.Error() + ": " + string(ee.Stderr))
		}
		return nil, err
	}
	d := &Deps{Linked: map[string]bool{}, Importers: map[string][]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		d.Linked[f[0]] = true
		for _, imp := range f[1:] {
			d.Importers[imp] = append(d.Importers[imp], f[0])
		}
	}
	return d, nil
}

// ImportedBy names the packages importing p, for a failure message that
// says which import to cut.
func (d *Deps) ImportedBy(p string) string {
	return strings.Join(d.Importers[p], ", ")
}
