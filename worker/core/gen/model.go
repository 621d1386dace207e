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
	"strings"
)

// kind is what a field's Go type is on the wire.
type kind int

const (
	kString kind = iota
	kStringPtr
	kBool
	kInt
	kIntPtr
	kFloat
	kStruct
	kStructPtr
	kStrings
	kInts
	kStructs
	kPairs
	kRaw     // []byte with seam:"raw": the raw part
	kRawText // Number, RawJSON: a JSON value's text
	kEnum    // a seam:enum string type
	kCustom  // a seam:custom type: its codec is hand-written (the browser seam's Request)
)

type field struct {
	GoName    string
	JSON      string
	Omit      bool
	TS        string // the ts tag ("" when none)
	Doc       string
	Kind      kind
	Type      string // the named type (struct, enum) when there is one
	Embedded  bool
	GoTypeStr string
}

type variant struct {
	Value  string
	Fields []string
}

type union struct {
	Field    string // the JSON member that decides
	Variants []variant
}

type structType struct {
	Name   string
	Doc    string
	Fields []field
	Union  *union
}

type enumValue struct{ Go, Value, Comment string }

type call struct {
	GoName  string
	JS      string
	In, Out string
	Doc     string
	Free    bool
}

type model struct {
	Preface string
	Calls   []call
	// DecoderCalls are the browser's second module's (wasm/decoder), from
	// the DecoderCalls interface; none in the edge's declaration.
	DecoderCalls []call
	Structs      []*structType
	byName       map[string]*structType
	Aliases      [][2]string
	Enums        map[string][]enumValue
	EnumDoc      map[string]string
	order        []string // type names in source order (structs, aliases, enums)
	records      map[string]bool
	texts        map[string]bool
	customs      map[string]bool
}

func (m *model) st(name string) *structType { return m.byName[name] }

func load(dir string) (*model, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	// The declarations, in a fixed file order: doc, calls, types.
	rank := func(n string) int {
		switch filepath.Base(n) {
		case "doc.go":
			return 0
		case "calls.go":
			return 1
		case "types.go":
			return 2
		}
		return 3
	}
	sort.SliceStable(names, func(i, j int) bool { return rank(names[i]) < rank(names[j]) })
	m := &model{byName: map[string]*structType{}, Enums: map[string][]enumValue{}, EnumDoc: map[string]string{},
		records: map[string]bool{}, texts: map[string]bool{}, customs: map[string]bool{}}
	var files []*ast.File
	for _, n := range names {
		if rank(n) == 3 {
			continue // the codec and the readers: not declarations
		}
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		if filepath.Base(n) == "doc.go" {
			m.Preface = preface(f)
		}
	}
	// First pass: named types' kinds.
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				doc := docOf(g.Doc, ts.Doc)
				switch {
				case directive(doc, "seam:record") != "":
					m.records[ts.Name.Name] = true
				case directive(doc, "seam:custom") != "":
					m.customs[ts.Name.Name] = true
				case directive(doc, "seam:enum") != "":
					m.Enums[ts.Name.Name] = nil
					m.EnumDoc[ts.Name.Name] = text(doc)
					m.order = append(m.order, ts.Name.Name)
				default:
					if id, ok := ts.Type.(*ast.Ident); ok && id.Name == "string" {
						m.texts[ts.Name.Name] = true
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			switch g.Tok {
			case token.CONST:
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					id, ok := vs.Type.(*ast.Ident)
					if !ok {
						continue
					}
					if _, isEnum := m.Enums[id.Name]; !isEnum {
						continue
					}
					lit := vs.Values[0].(*ast.BasicLit).Value
					m.Enums[id.Name] = append(m.Enums[id.Name], enumValue{Go: vs.Names[0].Name, Value: strings.Trim(lit, `"`), Comment: strings.TrimSpace(text(vs.Comment))})
				}
			case token.TYPE:
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					doc := docOf(g.Doc, ts.Doc)
					name := ts.Name.Name
					if m.customs[name] {
						continue
					}
					if ts.Assign != 0 {
						m.Aliases = append(m.Aliases, [2]string{name, ts.Type.(*ast.Ident).Name})
						m.order = append(m.order, name)
						continue
					}
					switch t := ts.Type.(type) {
					case *ast.InterfaceType:
						if name != "Calls" && name != "DecoderCalls" {
							continue
						}
						for _, meth := range t.Methods.List {
							ft := meth.Type.(*ast.FuncType)
							c := call{GoName: meth.Names[0].Name, Doc: text(meth.Doc)}
							c.JS = strings.ToLower(c.GoName[:1]) + c.GoName[1:]
							if js := directive(meth.Doc, "seam:js"); js != "" {
								c.JS = strings.TrimSpace(strings.TrimPrefix(js, "seam:js"))
							}
							c.Free = directive(meth.Doc, "seam:free") != ""
							if len(ft.Params.List) > 0 {
								c.In = ft.Params.List[0].Type.(*ast.Ident).Name
							}
							c.Out = ft.Results.List[0].Type.(*ast.Ident).Name
							if name == "Calls" {
								m.Calls = append(m.Calls, c)
							} else {
								m.DecoderCalls = append(m.DecoderCalls, c)
							}
						}
					case *ast.StructType:
						if m.records[name] || name == "Pair" {
							continue
						}
						st := &structType{Name: name, Doc: text(doc)}
						if u := directive(doc, "seam:union"); u != "" {
							st.Union = parseUnion(u)
						}
						for _, fl := range t.Fields.List {
							fd, err := m.field(fl)
							if err != nil {
								return nil, fmt.Errorf("%s: %v", name, err)
							}
							st.Fields = append(st.Fields, fd)
						}
						m.Structs = append(m.Structs, st)
						m.byName[name] = st
						m.order = append(m.order, name)
					}
				}
			}
		}
	}
	return m, nil
}

func (m *model) field(fl *ast.Field) (field, error) {
	var f field
	f.Doc = text(fl.Doc)
	if len(fl.Names) == 0 {
		f.Embedded = true
		f.GoName = fl.Type.(*ast.Ident).Name
		f.Type = f.GoName
		f.Kind = kStruct
		return f, nil
	}
	f.GoName = fl.Names[0].Name
	if fl.Tag == nil {
		return f, fmt.Errorf("field %s has no json tag", f.GoName)
	}
	tag := reflect.StructTag(strings.Trim(fl.Tag.Value, "`"))
	js := strings.Split(tag.Get("json"), ",")
	f.JSON = js[0]
	f.Omit = len(js) > 1 && js[1] == "omitempty"
	f.TS = tag.Get("ts")
	raw := tag.Get("seam") == "raw"
	switch t := fl.Type.(type) {
	case *ast.Ident:
		switch {
		case t.Name == "string":
			f.Kind = kString
		case t.Name == "bool":
			f.Kind = kBool
		case t.Name == "int64":
			f.Kind = kInt
		case t.Name == "float64":
			f.Kind = kFloat
		case m.records[t.Name]:
			f.Kind, f.Type = kPairs, t.Name
		case m.customs[t.Name]:
			f.Kind, f.Type = kCustom, t.Name
		case m.texts[t.Name]:
			f.Kind, f.Type = kRawText, t.Name
		default:
			if _, ok := m.Enums[t.Name]; ok {
				f.Kind, f.Type = kEnum, t.Name
			} else {
				f.Kind, f.Type = kStruct, t.Name
			}
		}
	case *ast.StarExpr:
		id := t.X.(*ast.Ident)
		switch id.Name {
		case "string":
			f.Kind = kStringPtr
		case "int64":
			f.Kind = kIntPtr
		default:
			f.Kind, f.Type = kStructPtr, id.Name
		}
	case *ast.ArrayType:
		id := t.Elt.(*ast.Ident)
		switch id.Name {
		case "byte":
			if !raw {
				return f, fmt.Errorf("field %s: []byte without seam:\"raw\"", f.GoName)
			}
			f.Kind = kRaw
		case "string":
			f.Kind = kStrings
		case "int64":
			f.Kind = kInts
		default:
			f.Kind, f.Type = kStructs, id.Name
		}
	default:
		return f, fmt.Errorf("field %s: unsupported type", f.GoName)
	}
	return f, nil
}

func parseUnion(d string) *union {
	parts := strings.Fields(strings.TrimPrefix(d, "seam:union"))
	u := &union{Field: parts[0]}
	for _, p := range parts[1:] {
		v, fs, _ := strings.Cut(p, "=")
		u.Variants = append(u.Variants, variant{Value: v, Fields: strings.Split(fs, ",")})
	}
	return u
}

func docOf(gs ...*ast.CommentGroup) *ast.CommentGroup {
	for _, g := range gs {
		if g != nil {
			return g
		}
	}
	return nil
}

// directive is the comment line of g that starts with name ("" when none).
func directive(g *ast.CommentGroup, name string) string {
	if g == nil {
		return ""
	}
	for _, c := range g.List {
		t := strings.TrimPrefix(c.Text, "//")
		if strings.HasPrefix(t, name) {
			return t
		}
	}
	return ""
}

// text is g's comment without directives.
func text(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	var lines []string
	for _, c := range g.List {
		t := strings.TrimPrefix(c.Text, "//")
		if strings.HasPrefix(t, "seam:") || strings.HasPrefix(t, "go:") {
			continue
		}
		lines = append(lines, strings.TrimPrefix(t, " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// preface is the text between //seam:preface and //seam:end of doc.go.
func preface(f *ast.File) string {
	var out []string
	for _, g := range f.Comments {
		in := false
		for _, c := range g.List {
			switch c.Text {
			case "//seam:preface":
				in = true
				continue
			case "//seam:end":
				in = false
			}
			if in {
				out = append(out, c.Text)
			}
		}
	}
	return strings.Join(out, "\n")
}

// hasRaw: a value of the struct carries a raw part (itself or a member's).
func (m *model) hasRaw(name string) bool {
	st := m.st(name)
	if st == nil {
		return false
	}
	for _, f := range st.Fields {
		switch f.Kind {
		case kRaw:
			return true
		case kStruct, kStructPtr:
			if m.hasRaw(f.Type) {
				return true
			}
		}
	}
	return false
}

// rawPaths are the Go and JSON paths of an input's raw field (none: "").
func (m *model) rawPath(name string) (goPath, jsonPath []string) {
	st := m.st(name)
	for _, f := range st.Fields {
		switch f.Kind {
		case kRaw:
			return []string{f.GoName}, []string{f.JSON}
		case kStruct:
			if g, j := m.rawPath(f.Type); g != nil {
				if f.Embedded {
					return g, j
				}
				return append([]string{f.GoName}, g...), append([]string{f.JSON}, j...)
			}
		}
	}
	return nil, nil
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "seam gen: "+format+"\n", a...)
	os.Exit(1)
}
