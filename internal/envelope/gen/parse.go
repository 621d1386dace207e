package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// parseDir reads the hand-written Go files of dir (not tests, not
// *_gen.go) and returns the types that carry wire tags, the named slices
// of them and the hook types (hand-written decode), with their
// directives.
func parseDir(dir string) (*pkg, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, "_gen.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, n, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %s", dir)
	}
	p := &pkg{Name: files[0].Name.Name, Types: map[string]*typeDef{}}
	methods := map[string]map[string]bool{}
	specs := map[string]*ast.TypeSpec{}
	docs := map[string]*ast.CommentGroup{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				r := d.Recv.List[0].Type
				if st, ok := r.(*ast.StarExpr); ok {
					r = st.X
				}
				if id, ok := r.(*ast.Ident); ok {
					if methods[id.Name] == nil {
						methods[id.Name] = map[string]bool{}
					}
					methods[id.Name][d.Name.Name] = true
				}
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					specs[ts.Name.Name] = ts
					p.Order = append(p.Order, ts.Name.Name)
					docs[ts.Name.Name] = ts.Doc
					if docs[ts.Name.Name] == nil {
						docs[ts.Name.Name] = d.Doc
					}
				}
			}
		}
	}
	// Wire structs first: a struct with at least one wire tag.
	for name, ts := range specs {
		st, ok := ts.Type.(*ast.StructType)
		if !ok || !hasWireTag(st) {
			continue
		}
		p.Types[name] = &typeDef{Name: name, Kind: kStruct}
	}
	// Hook types: a hand-written decode on a type without wire tags.
	for name := range specs {
		if p.Types[name] == nil && methods[name]["decode"] {
			p.Types[name] = &typeDef{Name: name, Kind: kHook}
		}
	}
	// Named slices of wire structs.
	for name, ts := range specs {
		at, ok := ts.Type.(*ast.ArrayType)
		if !ok || at.Len != nil || p.Types[name] != nil {
			continue
		}
		if id, ok := at.Elt.(*ast.Ident); ok && p.Types[id.Name] != nil && p.Types[id.Name].Kind == kStruct {
			p.Types[name] = &typeDef{Name: name, Kind: kSlice, Elem: id.Name}
		}
	}
	var order []string
	for _, name := range p.Order {
		t := p.Types[name]
		if t == nil {
			continue
		}
		order = append(order, name)
		t.HasDecode = methods[name]["decode"]
		t.HasAfter = methods[name]["afterDecode"]
		if err := directives(t, docs[name]); err != nil {
			return nil, err
		}
		if t.Kind == kHook && !methods[name]["EmitTo"] && !embedsEmitter(specs[name]) {
			return nil, fmt.Errorf("%s: a hook type needs EmitTo as well as decode", name)
		}
		if t.Kind != kStruct {
			continue
		}
		for _, af := range specs[name].Type.(*ast.StructType).Fields.List {
			f, err := p.parseField(af)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			if f != nil {
				t.Fields = append(t.Fields, f)
			}
		}
	}
	p.Order = order
	return p, nil
}

func hasWireTag(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if f.Tag != nil {
			tag, _ := strconv.Unquote(f.Tag.Value)
			if _, ok := reflect.StructTag(tag).Lookup("wire"); ok {
				return true
			}
		}
	}
	return false
}

// embedsEmitter reports a struct that embeds a type (whose EmitTo it
// promotes).
func embedsEmitter(ts *ast.TypeSpec) bool {
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return false
	}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			return true
		}
	}
	return false
}

// directives reads //envelope:result and //envelope:ts, and the doc.
func directives(t *typeDef, doc *ast.CommentGroup) error {
	if doc == nil {
		return nil
	}
	var text []string
	for _, c := range doc.List {
		line := strings.TrimPrefix(c.Text, "//")
		switch {
		case strings.HasPrefix(line, "envelope:result "):
			t.Op = strings.TrimSpace(strings.TrimPrefix(line, "envelope:result "))
		case strings.HasPrefix(line, "envelope:tsname "):
			t.TSName = strings.TrimSpace(strings.TrimPrefix(line, "envelope:tsname "))
		case strings.HasPrefix(line, "envelope:ts "):
			t.TS = strings.TrimSpace(strings.TrimPrefix(line, "envelope:ts "))
		case strings.HasPrefix(line, "envelope:"):
			return fmt.Errorf("%s: unknown directive %q", t.Name, c.Text)
		default:
			text = append(text, strings.TrimSpace(line))
		}
	}
	t.Doc = strings.TrimSpace(strings.Join(text, "\n"))
	return nil
}

// parseField reads one struct field: nil when it is not on the wire (no
// tag, or wire:"-").
func (p *pkg) parseField(af *ast.Field) (*field, error) {
	tag := ""
	if af.Tag != nil {
		t, _ := strconv.Unquote(af.Tag.Value)
		tag = t
	}
	wire, tagged := reflect.StructTag(tag).Lookup("wire")
	f := &field{}
	if af.Comment != nil {
		f.Doc = strings.TrimSpace(af.Comment.Text())
	} else if af.Doc != nil {
		f.Doc = strings.TrimSpace(af.Doc.Text())
	}
	if len(af.Names) == 0 {
		// Embedded: inlined when it is a wire struct.
		id, ok := af.Type.(*ast.Ident)
		if !ok || tagged {
			return nil, fmt.Errorf("embedded field %v: only untagged wire structs can be embedded", af.Type)
		}
		if t := p.Types[id.Name]; t == nil || t.Kind != kStruct {
			return nil, nil
		}
		f.GoName, f.Embedded, f.T = id.Name, true, goType{kind: kStruct, name: id.Name}
		return f, nil
	}
	if !tagged || wire == "-" {
		return nil, nil
	}
	if len(af.Names) != 1 {
		return nil, fmt.Errorf("one field per tagged line")
	}
	f.GoName = af.Names[0].Name
	t, err := p.goType(af.Type)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", f.GoName, err)
	}
	f.T = t
	parts := strings.Split(wire, ",")
	f.Wire = parts[0]
	for _, opt := range parts[1:] {
		key, val, _ := strings.Cut(opt, "=")
		switch key {
		case "alias":
			f.Aliases = strings.Split(val, "|")
		case "as":
			f.As = val
		case "seen":
			f.Seen = val
		case "nullunless":
			f.NullUnless = val
		case "prefix":
			if f.Wire == "" {
				f.Prefixes = strings.Split(val, "|")
			} else {
				f.Prefix = val
			}
		case "required":
			f.Required = true
		case "omitempty":
			f.OmitEmpty = true
		case "emitonly":
			f.EmitOnly = true
		case "writeonly":
			f.WriteOnly = true
		case "extra":
			f.Extra = true
		default:
			return nil, fmt.Errorf("%s: unknown wire option %q", f.GoName, opt)
		}
	}
	switch {
	case f.Extra:
		if t.kind != kHook || t.name != "RawMembers" {
			return nil, fmt.Errorf("%s: extra needs a RawMembers field", f.GoName)
		}
	case len(f.Prefixes) > 0:
		if t.kind != kString {
			return nil, fmt.Errorf("%s: the prefix field is a string", f.GoName)
		}
	case f.Wire == "":
		return nil, fmt.Errorf("%s: no wire name", f.GoName)
	case t.kind == kBytes && f.As == "":
		return nil, fmt.Errorf("%s: []byte needs an as= codec", f.GoName)
	case f.Seen != "" && t.kind != kInt && t.kind != kInt64 && t.kind != kFloat64:
		return nil, fmt.Errorf("%s: seen= is for numbers", f.GoName)
	}
	return f, nil
}

func (p *pkg) goType(e ast.Expr) (goType, error) {
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "string":
			return goType{kind: kString}, nil
		case "int":
			return goType{kind: kInt}, nil
		case "int64":
			return goType{kind: kInt64}, nil
		case "float64":
			return goType{kind: kFloat64}, nil
		case "bool":
			return goType{kind: kBool}, nil
		}
		if t := p.Types[e.Name]; t != nil {
			if t.Kind == kSlice {
				return goType{kind: kHook, name: e.Name}, nil // generated decode and EmitTo, called like a hook's
			}
			return goType{kind: t.Kind, name: e.Name}, nil
		}
		return goType{}, fmt.Errorf("type %s is neither a wire struct nor a hook type", e.Name)
	case *ast.StarExpr:
		el, err := p.goType(e.X)
		if err != nil {
			return goType{}, err
		}
		return goType{kind: kPtr, elem: &el}, nil
	case *ast.ArrayType:
		if e.Len != nil {
			return goType{}, fmt.Errorf("arrays are not supported")
		}
		if id, ok := e.Elt.(*ast.Ident); ok && id.Name == "byte" {
			return goType{kind: kBytes}, nil
		}
		el, err := p.goType(e.Elt)
		if err != nil {
			return goType{}, err
		}
		if el.kind != kStruct && el.kind != kHook {
			return goType{}, fmt.Errorf("slices of %v are not supported", e.Elt)
		}
		return goType{kind: kSlice, elem: &el}, nil
	}
	return goType{}, fmt.Errorf("unsupported type %T", e)
}
