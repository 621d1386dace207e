package catalog

import (
	"sort"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

//go:generate go run ./gen -out ../../testdata

// Files returns the generated export files by path relative to testdata/:
// catalog.json, schemas/<op>.json and schemas/rules/<op>.json, each as
// indented JSON ending in a newline. Used by the generator and by the
// drift test; not on any request path.
func Files() map[string][]byte {
	files := map[string][]byte{"catalog.json": indent(jsonlite.Marshal(Catalog{}))}
	for i := range Operations {
		op := &Operations[i]
		files["schemas/"+op.Name+".json"] = indent(jsonlite.Marshal(Schema{Op: op}))
		files["schemas/rules/"+op.Name+".json"] = indent(jsonlite.Marshal(Schema{Op: op, Rules: true}))
	}
	return files
}

// SortedFileNames returns the keys of files in order.
func SortedFileNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// indent re-indents compact JSON with two spaces, so that the committed
// files diff well. The input is trusted (it comes from jsonlite.Writer).
func indent(src []byte) []byte {
	out := make([]byte, 0, len(src)*2)
	depth, inStr := 0, false
	nl := func() {
		out = append(out, '\n')
		for i := 0; i < depth; i++ {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			out = append(out, c)
			if c == '\\' && i+1 < len(src) {
				i++
				out = append(out, src[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			out = append(out, c)
		case '{', '[':
			out = append(out, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				i++
				out = append(out, src[i])
				continue
			}
			depth++
			nl()
		case '}', ']':
			depth--
			nl()
			out = append(out, c)
		case ',':
			out = append(out, c)
			nl()
		case ':':
			out = append(out, ':', ' ')
		default:
			out = append(out, c)
		}
	}
	return append(out, '\n')
}
