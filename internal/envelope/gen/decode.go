package main

import (
	"strconv"
	"strings"
)

// writeDecoders writes, for each wire struct T:
//
//	decode(s) error              reads the object, keeps unknown members, runs afterDecode
//	                             (named decodeObject when a hand-written decode hooks it)
//	decodeField(s, key) (bool, error)  one known member, for the structs that inline T
//
// and for each named slice, decode.
func writeDecoders(w *writer, p *pkg) {
	emb := embeddedTypes(p)
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kStruct }) {
		writeDecodeObject(w, p, t, emb[t.Name])
		if emb[t.Name] {
			writeDecodeField(w, p, t)
		}
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

func writeDecodeObject(w *writer, p *pkg, t *typeDef, hasField bool) {
	var required []*field
	for _, f := range t.wireFields() {
		if f.Required {
			required = append(required, f)
		}
	}
	name := "decode"
	if t.HasDecode {
		name = "decodeObject" // called by the hand-written decode
	}
	w.line("func (v *%s) %s(s *jsonlite.Scanner) error {", t.Name, name)
	for i := range required {
		w.line("\tvar has%d bool", i)
	}
	w.line("\terr := obj(s, func(key string) error {")
	has := map[*field]string{}
	for i, f := range required {
		has[f] = "has" + strconv.Itoa(i)
	}
	if hasField && len(required) == 0 {
		// The switch is in decodeField, once.
		w.line("\t\tif ok, err := v.decodeField(s, key); ok {")
		w.line("\t\t\treturn err")
		w.line("\t\t}")
	} else {
		writeSwitch(w, p, t, "\t\t", func(x string) string { return "return " + x }, has)
	}
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

// embedded reports the structs that other structs inline: they get a
// decodeField for their host to call.
func embeddedTypes(p *pkg) map[string]bool {
	out := map[string]bool{}
	for _, t := range p.Types {
		for _, f := range t.Fields {
			if f.Embedded {
				out[f.T.name] = true
			}
		}
	}
	return out
}

// writeDecodeField writes decodeField for an embedded struct: it reads one
// known member and reports whether the key was one.
func writeDecodeField(w *writer, p *pkg, t *typeDef) {
	w.line("func (v *%s) decodeField(s *jsonlite.Scanner, key string) (bool, error) {", t.Name)
	writeSwitch(w, p, t, "\t", func(x string) string { return "return true, " + x }, nil)
	w.line("\treturn false, nil")
	w.line("}")
	w.line("")
}

// writeSwitch writes the reading of t's known members by key; ret turns
// an error expression into the return statement of the context. has
// names the flags of required members.
func writeSwitch(w *writer, p *pkg, t *typeDef, ind string, ret func(string) string, has map[*field]string) {
	if pf := t.prefixField(); pf != nil {
		var qs []string
		for _, x := range pf.Prefixes {
			qs = append(qs, strconv.Quote(x))
		}
		w.line("%sprefix, name := cutPrefix(key, %s)", ind, strings.Join(qs, ", "))
		w.line("%sif v.%s == \"\" {", ind, pf.GoName)
		w.line("%s\tv.%s = prefix", ind, pf.GoName)
		w.line("%s}", ind)
		w.line("%sswitch name {", ind)
	} else {
		w.line("%sswitch key {", ind)
	}
	var embedded []*field
	for _, f := range t.wireFields() {
		if f.Embedded {
			embedded = append(embedded, f)
			continue
		}
		if f.WriteOnly {
			continue
		}
		w.line("%scase %s:", ind, quoteKeys(f))
		if h := has[f]; h != "" {
			w.line("%s\t%s = true", ind, h)
		}
		if f.EmitOnly {
			w.line("%s\t%s // derived: written, never read", ind, ret("nil"))
			continue
		}
		writeRead(w, f, "v."+f.GoName, f.T, ind+"\t", ret)
	}
	w.line("%s}", ind)
	for _, f := range embedded {
		w.line("%sif ok, err := v.%s.decodeField(s, key); ok {", ind, f.GoName)
		w.line("%s\t%s", ind, ret("err"))
		w.line("%s}", ind)
	}
}

// writeRead writes the statements that read one value into dst and
// return its error through ret.
func writeRead(w *writer, f *field, dst string, t goType, ind string, ret func(string) string) {
	if f.As != "" && t.kind != kPtr {
		w.line("%s%s", ind, ret("read"+exported(f.As)+"(s, &"+dst+")"))
		return
	}
	switch t.kind {
	case kString, kBool, kInt, kInt64, kFloat64:
		fn := map[kind]string{kString: "readString", kBool: "readBool", kInt: "readInt", kInt64: "readInt64", kFloat64: "readFloat64"}[t.kind]
		if f.Seen != "" {
			w.line("%s%s", ind, ret(fn+"Seen(s, &"+dst+", &v."+f.Seen+")"))
		} else {
			w.line("%s%s", ind, ret(fn+"(s, &"+dst+")"))
		}
	case kStruct, kHook:
		if f.Prefix != "" {
			w.line("%s%s.Prefix = %q", ind, dst, f.Prefix)
		}
		w.line("%s%s", ind, ret(dst+".decode(s)"))
	case kPtr:
		w.line("%sif empty(s) {", ind)
		w.line("%s\t%s = nil", ind, dst)
		w.line("%s\t%s", ind, ret("nil"))
		w.line("%s}", ind)
		w.line("%s%s = new(%s)", ind, dst, goName(*t.elem))
		if t.elem.kind == kStruct || t.elem.kind == kHook {
			w.line("%s%s", ind, ret(dst+".decode(s)"))
			return
		}
		inner := *f
		inner.Seen = ""
		writeRead(w, &inner, "(*"+dst+")", *t.elem, ind, ret)
	case kSlice:
		w.line("%s%s = nil", ind, dst)
		w.line("%s%s", ind, ret("arr(s, func(int) error {"))
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
