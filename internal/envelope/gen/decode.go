package main

import (
	"strconv"
	"strings"
)

// writeDecoders writes, for each wire struct T:
//
//	decode(s) error              (unless a hand-written hook exists)
//	decodeObject(s) error        reads the object, keeps unknown members, runs afterDecode
//	decodeField(s, key) (bool, error)  one known member (embedded structs' too)
//
// and for each named slice, decode.
func writeDecoders(w *writer, p *pkg) {
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kStruct }) {
		if !t.HasDecode {
			w.line("func (v *%s) decode(s *jsonlite.Scanner) error { return v.decodeObject(s) }", t.Name)
			w.line("")
		}
		writeDecodeObject(w, p, t)
		writeDecodeField(w, p, t)
	}
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kSlice }) {
		w.line("func (l *%s) decode(s *jsonlite.Scanner) error {", t.Name)
		w.line("\t*l = (*l)[:0]")
		w.line("\treturn arr(s, func(int) error {")
		w.line("\t\tvar v %s", t.Elem)
		w.line("\t\terr := v.decode(s)")
		w.line("\t\t*l = append(*l, v)")
		w.line("\t\treturn err")
		w.line("\t})")
		w.line("}")
		w.line("")
	}
}

func writeDecodeObject(w *writer, p *pkg, t *typeDef) {
	var required []*field
	for _, f := range t.wireFields() {
		if f.Required {
			required = append(required, f)
		}
	}
	w.line("func (v *%s) decodeObject(s *jsonlite.Scanner) error {", t.Name)
	for i := range required {
		w.line("\tvar has%d bool", i)
	}
	w.line("\terr := obj(s, func(key string) error {")
	if len(required) > 0 {
		w.line("\t\tswitch key {")
		for i, f := range required {
			w.line("\t\tcase %s:", quoteKeys(f))
			w.line("\t\t\thas%d = true", i)
		}
		w.line("\t\t}")
	}
	w.line("\t\tif ok, err := v.decodeField(s, key); ok {")
	w.line("\t\t\treturn err")
	w.line("\t\t}")
	if x := t.extra(); x != nil {
		w.line("\t\treturn v.%s.keep(s, key)", x.GoName)
	} else {
		w.line("\t\treturn nil")
	}
	w.line("\t})")
	for i, f := range required {
		w.line("\tif err == nil && !has%d {", i)
		w.line("\t\terr = missing(%q)", f.Wire)
		w.line("\t}")
	}
	for _, call := range afterCalls(p, t, "v.") {
		w.line("\t%s", call)
	}
	w.line("\treturn err")
	w.line("}")
	w.line("")
}

// afterCalls lists the afterDecode hooks to run for t, embedded structs
// first.
func afterCalls(p *pkg, t *typeDef, recv string) []string {
	var out []string
	for _, f := range t.Fields {
		if f.Embedded {
			out = append(out, afterCalls(p, p.Types[f.T.name], recv+f.GoName+".")...)
		}
	}
	if t.HasAfter {
		out = append(out, recv+"afterDecode()")
	}
	return out
}

func quoteKeys(f *field) string {
	keys := []string{strconv.Quote(f.Wire)}
	for _, a := range f.Aliases {
		keys = append(keys, strconv.Quote(a))
	}
	return strings.Join(keys, ", ")
}

func writeDecodeField(w *writer, p *pkg, t *typeDef) {
	w.line("func (v *%s) decodeField(s *jsonlite.Scanner, key string) (bool, error) {", t.Name)
	if pf := t.prefixField(); pf != nil {
		var qs []string
		for _, x := range pf.Prefixes {
			qs = append(qs, strconv.Quote(x))
		}
		w.line("\tname, ok := cutPrefix(key, %s)", strings.Join(qs, ", "))
		w.line("\tif !ok {")
		w.line("\t\treturn false, nil")
		w.line("\t}")
		w.line("\tif v.%s == \"\" {", pf.GoName)
		w.line("\t\tv.%s = key[:len(key)-len(name)]", pf.GoName)
		w.line("\t}")
		w.line("\tkey = name")
	}
	var embedded []*field
	w.line("\tswitch key {")
	for _, f := range t.wireFields() {
		if f.Embedded {
			embedded = append(embedded, f)
			continue
		}
		w.line("\tcase %s:", quoteKeys(f))
		if f.EmitOnly {
			w.line("\t\treturn true, nil // derived: written, never read")
			continue
		}
		writeRead(w, f, "v."+f.GoName, f.T, "\t\t")
	}
	w.line("\t}")
	for _, f := range embedded {
		w.line("\tif ok, err := v.%s.decodeField(s, key); ok {", f.GoName)
		w.line("\t\treturn true, err")
		w.line("\t}")
	}
	w.line("\treturn false, nil")
	w.line("}")
	w.line("")
}

// writeRead writes the statements that read one value into dst and
// return (true, err).
func writeRead(w *writer, f *field, dst string, t goType, ind string) {
	if f.As != "" && t.kind != kPtr {
		w.line("%sreturn true, read%s(s, &%s)", ind, exported(f.As), dst)
		return
	}
	switch t.kind {
	case kString:
		w.line("%sreturn true, readString(s, &%s)", ind, dst)
	case kBool:
		w.line("%sreturn true, readBool(s, &%s)", ind, dst)
	case kInt, kInt64, kFloat64:
		fn := map[kind]string{kInt: "readInt", kInt64: "readInt64", kFloat64: "readFloat64"}[t.kind]
		if f.Seen != "" {
			w.line("%sok, err := %s(s, &%s)", ind, fn, dst)
			w.line("%sv.%s = ok", ind, f.Seen)
			w.line("%sreturn true, err", ind)
		} else {
			w.line("%s_, err := %s(s, &%s)", ind, fn, dst)
			w.line("%sreturn true, err", ind)
		}
	case kStruct, kHook:
		if f.Prefix != "" {
			w.line("%s%s.Prefix = %q", ind, dst, f.Prefix)
		}
		w.line("%sreturn true, %s.decode(s)", ind, dst)
	case kPtr:
		w.line("%sif empty(s) {", ind)
		w.line("%s\t%s = nil", ind, dst)
		w.line("%s\treturn true, nil", ind)
		w.line("%s}", ind)
		w.line("%s%s = new(%s)", ind, dst, goName(*t.elem))
		if t.elem.kind == kStruct || t.elem.kind == kHook {
			w.line("%sreturn true, %s.decode(s)", ind, dst)
			return
		}
		inner := *f
		inner.Seen = ""
		writeRead(w, &inner, "(*"+dst+")", *t.elem, ind)
	case kSlice:
		w.line("%s%s = nil", ind, dst)
		w.line("%sreturn true, arr(s, func(int) error {", ind)
		w.line("%s\tvar x %s", ind, goName(*t.elem))
		w.line("%s\terr := x.decode(s)", ind)
		w.line("%s\t%s = append(%s, x)", ind, dst, dst)
		w.line("%s\treturn err", ind)
		w.line("%s})", ind)
	default:
		panic("unreadable field " + f.GoName)
	}
}

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
