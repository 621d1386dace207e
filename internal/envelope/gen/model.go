package main

import (
	"strings"
)

// kind is how a Go type travels on the wire.
type kind int

const (
	kString kind = iota
	kInt
	kInt64
	kFloat64
	kBool
	kBytes  // []byte: needs an as= codec
	kStruct // a struct with wire tags: generated decode and EmitTo
	kHook   // a named type with a hand-written decode and EmitTo
	kSlice  // []T
	kPtr    // *T: null, "" and empty blocks are nil
)

// goType is a field's type as the generator sees it.
type goType struct {
	kind kind
	name string  // named types (kStruct, kHook)
	elem *goType // kSlice, kPtr
}

// field is one field of a wire struct, with its tag's options.
type field struct {
	GoName     string
	Wire       string   // key on the wire
	Aliases    []string // other keys read into the field (alias=a|b)
	As         string   // codec of hooks.go: readX/writeX (as=x)
	Seen       string   // bool field set when a value was given (seen=f)
	NullUnless string   // bool field: emitted as null unless it is set (nullunless=f)
	Prefix     string   // a prefixed struct's prefix, forced on read and write (prefix=to_)
	Prefixes   []string // on the prefix field of a prefixed struct: the accepted prefixes
	Required   bool     // absent is an error naming the key
	OmitEmpty  bool     // not written when zero
	EmitOnly   bool     // written, and ignored on read (a derived value)
	WriteOnly  bool     // written; on read an unknown member like any other (kept in Extra)
	Embedded   bool     // an embedded wire struct: its fields are inlined
	Extra      bool     // the RawMembers that keeps unknown members
	Doc        string   // the field's comment
	T          goType
}

// typeDef is a named type of the package the generator writes code for.
type typeDef struct {
	Name      string
	Doc       string
	Op        string // the catalog operation whose result it is (//envelope:result)
	TS        string // TypeScript type overriding the generated one (//envelope:ts)
	TSName    string // TypeScript name when the Go one is taken in the package (//envelope:tsname)
	Kind      kind   // kStruct, kSlice (of a wire struct) or kHook
	Fields    []*field
	Elem      string // kSlice: the element type
	HasDecode bool   // a hand-written decode exists (a hook); decodeObject is generated for it to call
	HasAfter  bool   // a hand-written afterDecode exists
}

// tsName is the type's name in TypeScript.
func (t *typeDef) tsName() string {
	if t.TSName != "" {
		return t.TSName
	}
	return t.Name
}

func (t *typeDef) extra() *field {
	for _, f := range t.Fields {
		if f.Extra {
			return f
		}
	}
	return nil
}

// prefixField returns the field holding a prefixed struct's prefix.
func (t *typeDef) prefixField() *field {
	for _, f := range t.Fields {
		if len(f.Prefixes) > 0 {
			return f
		}
	}
	return nil
}

// wireFields are the fields on the wire (not the prefix, not Extra).
func (t *typeDef) wireFields() []*field {
	var out []*field
	for _, f := range t.Fields {
		if f.Extra || len(f.Prefixes) > 0 {
			continue
		}
		out = append(out, f)
	}
	return out
}

// pkg is the parsed package.
type pkg struct {
	Name  string
	Types map[string]*typeDef
	Order []string // declaration order, for stable output
}

func (p *pkg) ordered(pred func(*typeDef) bool) []*typeDef {
	var out []*typeDef
	for _, n := range p.Order {
		if t := p.Types[n]; pred(t) {
			out = append(out, t)
		}
	}
	return out
}

func exported(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// goName is the Go spelling of a type.
func goName(t goType) string {
	switch t.kind {
	case kString:
		return "string"
	case kInt:
		return "int"
	case kInt64:
		return "int64"
	case kFloat64:
		return "float64"
	case kBool:
		return "bool"
	case kBytes:
		return "[]byte"
	case kPtr:
		return "*" + goName(*t.elem)
	case kSlice:
		return "[]" + goName(*t.elem)
	}
	return t.name
}
