// Command gen writes worker/edgeclient's operations_gen.go from the
// operation catalog (internal/catalog) and the result types of
// internal/envelope (their //envelope:result directives): the operation
// name constants, one parameter struct per operation and one typed method
// per operation. Run it with `go generate ./worker/edgeclient` (part of
// `make generate`).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parcelgate/parcelgate/internal/catalog"
)

func main() {
	envDir := flag.String("envelope", "../../internal/envelope", "the internal/envelope directory")
	out := flag.String("out", "operations_gen.go", "the file to write")
	flag.Parse()
	results, err := resultTypes(*envDir)
	if err != nil {
		fail(err)
	}
	src, err := generate(results)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	os.Stderr.WriteString("edgeclient/gen: " + err.Error() + "\n")
	os.Exit(1)
}

// resultTypes reads the //envelope:result <operation> directives of the
// envelope package's type declarations: operation -> type name.
func resultTypes(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE || g.Doc == nil {
				continue
			}
			for _, c := range g.Doc.List {
				op, ok := strings.CutPrefix(c.Text, "//envelope:result ")
				if !ok {
					continue
				}
				op = strings.TrimSpace(op)
				if prev, dup := out[op]; dup {
					return nil, fmt.Errorf("%s and %s are both results of %s", prev, g.Specs[0].(*ast.TypeSpec).Name.Name, op)
				}
				out[op] = g.Specs[0].(*ast.TypeSpec).Name.Name
			}
		}
	}
	for i := range catalog.Operations {
		if out[catalog.Operations[i].Name] == "" {
			return nil, fmt.Errorf("no //envelope:result for %s in %s", catalog.Operations[i].Name, dir)
		}
	}
	return out, nil
}

// camel turns a wire name into a Go name: "get-shipments-rates" ->
// "GetShipmentsRates", "shipping_client_ref" -> "ShippingClientRef" (the
// convention of internal/envelope's result fields).
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func paramFacts(p *catalog.Param) string {
	facts := p.Kind.String()
	if p.Kind == catalog.Zip {
		facts += " in the format of " + p.Country
	}
	if p.MaxLen > 0 {
		facts += ", at most " + strconv.Itoa(p.MaxLen) + " characters"
	}
	if p.Max > 0 {
		facts += ", at most " + strconv.Itoa(p.Max)
	}
	if p.Default > 0 {
		facts += ", default " + strconv.Itoa(p.Default)
	}
	switch p.Need {
	case catalog.Required:
		facts += "; required"
	case catalog.RequiredUnlessRules:
		facts += "; required unless the rules feature is enabled"
	}
	return facts + "; error code " + strconv.Itoa(p.Code)
}

// wrap writes text as a field's comment, in lines of at most 80 columns.
func wrap(w func(string, ...any), text string) {
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > 72 {
			w("\t// %s", line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		w("\t// %s", line)
	}
}

// names lists the edge's own parameters' wire names: "offer, point".
func names(own []catalog.EdgeParam) string {
	s := make([]string, len(own))
	for i := range own {
		s[i] = own[i].Name
	}
	return strings.Join(s, ", ")
}

// refLimits checks that the catalog's references have two limits, the
// shop's own (shipping_client_ref's) and catalog.MaxRefRunes, and returns
// the names of the shop's own references: two constants then describe
// every reference.
func refLimits() ([]string, error) {
	client := catalog.Lookup("new-shipment").Param("shipping_client_ref").MaxLen
	var names []string
	for i := range catalog.Operations {
		op := &catalog.Operations[i]
		for j := range op.Params {
			p := &op.Params[j]
			switch {
			case p.Kind != catalog.Ref || p.MaxLen == catalog.MaxRefRunes:
			case p.MaxLen == client:
				if !slices.Contains(names, p.Name) {
					names = append(names, p.Name)
				}
			default:
				return nil, fmt.Errorf("%s.%s: a reference of %d characters, neither MaxClientRefRunes (%d) nor MaxRefRunes (%d)", op.Name, p.Name, p.MaxLen, client, catalog.MaxRefRunes)
			}
		}
	}
	return names, nil
}

func generate(results map[string]string) ([]byte, error) {
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	w("// Code generated by `make generate` (worker/edgeclient/gen) from internal/catalog and internal/envelope. DO NOT EDIT.")
	w("")
	w("package edgeclient")
	w("")
	w("import (")
	w("\t\"context\"")
	w("")
	w("\t\"github.com/parcelgate/parcelgate/internal/envelope\"")
	w("\t\"github.com/parcelgate/parcelgate/internal/form\"")
	w(")")
	w("")
	w("// The operations of the edge, one constant per operation of the catalog,")
	w("// so that a misspelt name fails at compile time.")
	w("const (")
	for i := range catalog.Operations {
		op := &catalog.Operations[i]
		w("\t// Op%s is %s: %s", camel(op.Name), op.Name, op.Doc)
		w("\tOp%s Operation = %q", camel(op.Name), op.Name)
	}
	w(")")
	w("")
	clientRef, err := refLimits()
	if err != nil {
		return nil, err
	}
	w("// The limits of references, in characters (runes) after trimming, as")
	w("// the edge counts them (internal/catalog). The Client refuses a longer")
	w("// reference before sending (an *Error with Source SourceClient naming")
	w("// the field): the edge would refuse it with the same code.")
	w("const (")
	w("	// MaxClientRefRunes bounds the shop's own references: %s.", strings.Join(clientRef, ", "))
	w("	MaxClientRefRunes = %d", catalog.Lookup("new-shipment").Param("shipping_client_ref").MaxLen)
	w("	// MaxRefRunes bounds every other reference (dlvr_ref, carrier references).")
	w("	MaxRefRunes = %d", catalog.MaxRefRunes)
	w(")")
	w("")
	w("// refs lists the references of op with their limit and the code the")
	w("// edge refuses a longer one with.")
	w("func (op Operation) refs() []refLimit {")
	w("	switch op {")
	for i := range catalog.Operations {
		op := &catalog.Operations[i]
		var items []string
		for j := range op.Params {
			p := &op.Params[j]
			if p.Kind != catalog.Ref {
				continue
			}
			max := "MaxRefRunes"
			if p.MaxLen != catalog.MaxRefRunes {
				max = "MaxClientRefRunes"
			}
			items = append(items, fmt.Sprintf("{%q, %s, %d}", p.Name, max, p.Code))
		}
		if len(items) > 0 {
			w("	case Op%s:", camel(op.Name))
			w("		return []refLimit{%s}", strings.Join(items, ", "))
		}
	}
	w("	}")
	w("	return nil")
	w("}")
	w("")
	w("// Operations lists every operation in the catalog's (the spec's) order.")
	w("var Operations = [...]Operation{")
	for i := range catalog.Operations {
		w("\tOp%s,", camel(catalog.Operations[i].Name))
	}
	w("}")
	w("")
	w("// books reports whether op books something upstream (the resend rules apply).")
	w("func (op Operation) books() bool {")
	w("\tswitch op {")
	var books []string
	for i := range catalog.Operations {
		if catalog.Operations[i].Books {
			books = append(books, "Op"+camel(catalog.Operations[i].Name))
		}
	}
	w("\tcase %s:", strings.Join(books, ", "))
	w("\t\treturn true")
	w("\t}")
	w("\treturn false")
	w("}")
	w("")
	w("// read reports whether op is a read (sent with GET).")
	w("func (op Operation) read() bool {")
	w("\tswitch op {")
	var reads []string
	for i := range catalog.Operations {
		if catalog.Operations[i].Read {
			reads = append(reads, "Op"+camel(catalog.Operations[i].Name))
		}
	}
	w("\tcase %s:", strings.Join(reads, ",\n\t\t"))
	w("\t\treturn true")
	w("\t}")
	w("\treturn false")
	w("}")
	w("")
	for i := range catalog.Operations {
		op := &catalog.Operations[i]
		name := camel(op.Name)
		res := results[op.Name]
		w("// %sParams are the parameters of %s. An empty string is an absent", name, op.Name)
		w("// parameter; values are sent as written (the edge trims and normalizes).")
		w("type %sParams struct {", name)
		for j := range op.Params {
			p := &op.Params[j]
			w("\t// %s is %s: %s (%s).", camel(p.Name), p.Name, sentence(p.Doc), paramFacts(p))
			w("\t%s string", camel(p.Name))
		}
		if op.TakesParcels() {
			need := "optional"
			if op.Parcels == catalog.Required {
				need = "at least one"
			}
			w("\t// Parcels are sent as parcels[<i>][<field>] (%s, at most %d).", need, catalog.MaxParcels)
			w("\tParcels []Parcel")
		}
		own := catalog.PolicyOf(op.Name).EdgeParams()
		for _, e := range own {
			wrap(w, fmt.Sprintf("%s is %s, the edge's own parameter (read and removed by the edge, never forwarded). %s", camel(e.Name), e.Name, e.Doc))
			w("\t%s string", camel(e.Name))
		}
		if op.Extra {
			w("\t// Extra are carrier-specific fields (get-service-info describes them),")
			w("\t// sent after the listed ones; a name of a listed parameter replaces it.")
			if len(own) > 0 {
				w("\t// A name of the edge's own (%s) may be given here only", names(own))
				w("\t// with its field's value or with the field empty: another value is")
				w("\t// refused before sending, as the edge refuses a repeated field.")
			}
			w("\tExtra []Field")
		}
		w("}")
		w("")
		w("func (%sParams) operation() Operation { return Op%s }", name, name)
		w("")
		w("func (p %sParams) request() (*form.Request, *Error) {", name)
		if len(op.Params) == 0 && !op.TakesParcels() && !op.Extra && len(own) == 0 {
			w("\treturn &form.Request{}, nil")
			w("}")
			w("")
		} else {
			w("\tr := &form.Request{Fields: make([]form.Field, 0, %d)}", len(op.Params)+len(own))
			for j := range op.Params {
				p := &op.Params[j]
				w("\tadd(r, %q, p.%s)", p.Name, camel(p.Name))
			}
			for _, e := range own {
				w("\tadd(r, %q, p.%s)", e.Name, camel(e.Name))
			}
			if op.TakesParcels() {
				w("\tr.Parcels = p.Parcels")
			}
			if op.Extra {
				args := "p.Extra"
				for _, e := range own {
					args += ", " + strconv.Quote(e.Name)
				}
				w("\tif e := setExtra(Op%s, r, %s); e != nil {", name, args)
				w("\t\treturn nil, e")
				w("\t}")
			}
			w("\treturn r, nil")
			w("}")
			w("")
		}
		w("// %s calls %s: %s", name, op.Name, op.Doc)
		if op.Books {
			w("// It books: the body is encoded once and resent, identical, while the")
			w("// edge answers that resending is safe (see Client).")
		}
		if len(op.Params) == 0 && !op.TakesParcels() && len(own) == 0 {
			w("func (c *Client) %s(ctx context.Context) (*Response[%s], error) {", name, res)
			w("\treturn call(ctx, c, %sParams{}, envelope.Decode%s)", name, res)
		} else {
			w("func (c *Client) %s(ctx context.Context, p %sParams) (*Response[%s], error) {", name, name, res)
			w("\treturn call(ctx, c, p, envelope.Decode%s)", res)
		}
		w("}")
		w("")
	}
	return format.Source(b.Bytes())
}
