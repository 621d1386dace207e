package main

import (
	"fmt"
	"strconv"
	"strings"
)

// writeTables writes, for each wire struct T, its member table (wireT, read
// by the interpreter in table.go: one decoder and one emitter for every
// type, far smaller in WebAssembly than code per type) and the methods
// every wire type has: decode (named decodeObject when a hand-written
// decode hooks it) and EmitTo. For each hook type used as a member it
// writes hookT (its decode and EmitTo), and for each named slice decode and
// EmitTo over the element's table.
func writeTables(w *writer, p *pkg) error {
	ptrElem, sliceElem := map[string]bool{}, map[string]bool{}
	hooks := map[string]bool{}
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kStruct }) {
		for _, f := range t.wireFields() {
			switch f.T.kind {
			case kPtr:
				if f.T.elem.kind == kStruct || f.T.elem.kind == kHook {
					ptrElem[f.T.elem.name] = true
				}
			case kSlice:
				sliceElem[f.T.elem.name] = true
			}
			if n := memberType(f.T); n != "" && p.Types[n] != nil && p.Types[n].Kind != kStruct {
				hooks[n] = true
			}
			if n := memberType(f.T); n != "" && p.Types[n] != nil && p.Types[n].Kind == kStruct && p.Types[n].HasDecode {
				return fmt.Errorf("%s.%s: a wire struct with a hand-written decode (%s) as a member is not supported", t.Name, f.GoName, n)
			}
		}
	}
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kSlice }) {
		sliceElem[t.Elem] = true
	}
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kStruct }) {
		if err := writeTable(w, p, t, ptrElem[t.Name], sliceElem[t.Name]); err != nil {
			return err
		}
	}
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind != kStruct && hooks[t.Name] }) {
		w.line("// hook%s is the hook type %s as a member.", t.Name, t.Name)
		w.line("var hook%s = wtype{", t.Name)
		w.line("\tdec:  func(s *jsonlite.Scanner, p unsafe.Pointer) error { return (*%s)(p).decode(s) },", t.Name)
		w.line("\temit: func(e jsonlite.Emitter, p unsafe.Pointer) { (*%s)(p).EmitTo(e) },", t.Name)
		if ptrElem[t.Name] {
			w.line("\talloc: newOf[%s],", t.Name)
		}
		if sliceElem[t.Name] {
			w.line("\tsize: unsafe.Sizeof(%s{}), newElem: appendOf[%s],", t.Name, t.Name)
		}
		w.line("}")
		w.line("")
	}
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kSlice }) {
		el := tableName(p, t.Elem)
		w.line("func (l *%s) decode(s *jsonlite.Scanner) error {", t.Name)
		w.line("\t*l = (*l)[:0]")
		w.line("\treturn decodeSlice(s, unsafe.Pointer(l), &%s)", el)
		w.line("}")
		w.line("")
		w.line("// EmitTo writes an array of %s.", t.Elem)
		w.line("func (l %s) EmitTo(e jsonlite.Emitter) {", t.Name)
		w.line("\temitSlice(e, unsafe.Pointer(&l), &%s)", el)
		w.line("}")
		w.line("")
	}
	return nil
}

// memberType is the named type a member holds (itself, or what it points
// to or lists), or "".
func memberType(t goType) string {
	switch t.kind {
	case kStruct, kHook:
		return t.name
	case kPtr, kSlice:
		return memberType(*t.elem)
	}
	return ""
}

// tableName is the wtype describing the named type n as a member.
func tableName(p *pkg, n string) string {
	if t := p.Types[n]; t != nil && t.Kind == kStruct {
		return "wire" + n
	}
	return "hook" + n
}

func writeTable(w *writer, p *pkg, t *typeDef, isPtrElem, isSliceElem bool) error {
	fields := t.wireFields()
	if len(fields) > 64 {
		return fmt.Errorf("%s: more than 64 wire members", t.Name)
	}
	w.line("// wire%s is %s's member table.", t.Name, t.Name)
	w.line("var wire%s = wtype{", t.Name)
	w.line("\tfields: []wfield{")
	required := false
	for _, f := range fields {
		required = required || f.Required
		lit, err := fieldLit(p, t, f)
		if err != nil {
			return err
		}
		w.line("\t\t{%s},", lit)
	}
	w.line("\t},")
	if pf := t.prefixField(); pf != nil {
		var qs []string
		for _, x := range pf.Prefixes {
			qs = append(qs, strconv.Quote(x))
		}
		w.line("\tprefixes: []string{%s}, prefix: unsafe.Offsetof(%s{}.%s),", strings.Join(qs, ", "), t.Name, pf.GoName)
	}
	if x := t.extra(); x != nil {
		w.line("\textra: unsafe.Offsetof(%s{}.%s),", t.Name, x.GoName)
	} else {
		w.line("\textra: noOffset,")
	}
	if required {
		w.line("\trequired: true,")
	}
	if t.HasAfter {
		w.line("\tafter: func(p unsafe.Pointer) { (*%s)(p).afterDecode() },", t.Name)
	}
	if isPtrElem {
		w.line("\talloc: newOf[%s],", t.Name)
	}
	if isSliceElem {
		w.line("\tsize: unsafe.Sizeof(%s{}), newElem: appendOf[%s],", t.Name, t.Name)
	}
	w.line("}")
	w.line("")
	name := "decode"
	if t.HasDecode {
		name = "decodeObject" // called by the hand-written decode
	}
	w.line("func (v *%s) %s(s *jsonlite.Scanner) error {", t.Name, name)
	w.line("\treturn decodeStruct(s, unsafe.Pointer(v), &wire%s)", t.Name)
	w.line("}")
	w.line("")
	w.line("// EmitTo writes the %s with the wire's keys; unknown members follow, unchanged.", t.Name)
	w.line("func (v *%s) EmitTo(e jsonlite.Emitter) {", t.Name)
	w.line("\temitStruct(e, unsafe.Pointer(v), &wire%s, \"\")", t.Name)
	w.line("}")
	w.line("")
	return nil
}

// scalarKinds maps the scalar Go kinds and the as= codecs of hooks.go to
// the interpreter's kinds.
var (
	scalarKinds = map[kind]string{kString: "wString", kInt: "wInt", kInt64: "wInt64", kFloat64: "wFloat64", kBool: "wBool"}
	codecKinds  = map[string]string{"date": "wDate", "text": "wText", "code": "wCode", "raw": "wRaw", "rawObject": "wRawObject", "pdf": "wPdf"}
)

// fieldLit is the wfield literal of member f of t.
func fieldLit(p *pkg, t *typeDef, f *field) (string, error) {
	var parts, extra []string // extra: the members of its wextra
	add := func(k, v string) { parts = append(parts, k+": "+v) }
	addX := func(k, v string) { extra = append(extra, k+": "+v) }
	bad := func(why string) (string, error) { return "", fmt.Errorf("%s.%s: %s", t.Name, f.GoName, why) }
	if !f.Embedded {
		add("key", strconv.Quote(f.Wire))
	}
	switch len(f.Aliases) {
	case 0:
	case 1:
		addX("alias", strconv.Quote(f.Aliases[0]))
	default:
		return bad("more than one alias")
	}
	kindOf := func(g goType) (string, bool) {
		if f.As != "" {
			k, ok := codecKinds[f.As]
			return k, ok
		}
		k, ok := scalarKinds[g.kind]
		return k, ok
	}
	switch {
	case f.Embedded:
		if f.T.kind != kStruct {
			return bad("an embedded member that is not a wire struct")
		}
		add("kind", "wEmbed")
		add("sub", "&"+tableName(p, f.T.name))
	case f.T.kind == kStruct || f.T.kind == kHook:
		if f.As != "" {
			return bad("as= on a struct")
		}
		add("kind", "wStruct")
		add("sub", "&"+tableName(p, f.T.name))
		if f.Prefix != "" {
			if st := p.Types[f.T.name]; st == nil || st.prefixField() == nil {
				return bad("prefix= on a struct without a prefix field")
			}
			addX("prefix", strconv.Quote(f.Prefix))
		}
	case f.T.kind == kPtr:
		add("kind", "wPtr")
		if e := f.T.elem; e.kind == kStruct || e.kind == kHook {
			add("sub", "&"+tableName(p, e.name))
		} else if k, ok := kindOf(*e); ok {
			addX("elem", k)
		} else {
			return bad("a pointer to an unsupported type")
		}
	case f.T.kind == kSlice:
		add("kind", "wSlice")
		add("sub", "&"+tableName(p, f.T.elem.name))
	default:
		k, ok := kindOf(f.T)
		if !ok {
			return bad("an unsupported type or codec")
		}
		add("kind", k)
	}
	var flags []string
	if f.Required {
		flags = append(flags, "fRequired")
	}
	if f.OmitEmpty {
		if f.T.kind == kStruct || f.T.kind == kHook {
			return bad("omitempty on a struct")
		}
		flags = append(flags, "fOmitEmpty")
	}
	if f.EmitOnly {
		flags = append(flags, "fEmitOnly")
	}
	if f.WriteOnly {
		flags = append(flags, "fWriteOnly")
	}
	if f.Seen != "" {
		if f.T.kind != kInt64 && f.T.kind != kFloat64 || f.As != "" {
			return bad("seen= on a member that is not an int64 or float64")
		}
		flags = append(flags, "fSeen")
	}
	if f.NullUnless != "" {
		flags = append(flags, "fNullUnless")
	}
	if len(flags) > 0 {
		add("flags", strings.Join(flags, " | "))
	}
	add("off", fmt.Sprintf("uint16(unsafe.Offsetof(%s{}.%s))", t.Name, f.GoName))
	if f.Seen != "" {
		addX("seen", fmt.Sprintf("uint16(unsafe.Offsetof(%s{}.%s))", t.Name, f.Seen))
	}
	if f.NullUnless != "" {
		addX("set", fmt.Sprintf("uint16(unsafe.Offsetof(%s{}.%s))", t.Name, f.NullUnless))
	}
	if len(extra) > 0 {
		add("x", "&wextra{"+strings.Join(extra, ", ")+"}")
	}
	return strings.Join(parts, ", "), nil
}
