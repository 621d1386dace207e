package main

import "strconv"

// writeEmitters writes, for each wire struct T, EmitTo (the object: the
// known members in field order, then the kept unknown ones) and
// emitFields (the known members, for the structs that inline T), and for
// each named slice, EmitTo.
func writeEmitters(w *writer, p *pkg) {
	emb := embeddedTypes(p)
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kStruct }) {
		w.line("// EmitTo writes the %s with the wire's keys; unknown members follow, unchanged.", t.Name)
		w.line("func (v %s) EmitTo(e jsonlite.Emitter) {", t.Name)
		w.line("\te.BeginObject()")
		if emb[t.Name] {
			w.line("\tv.emitFields(e)")
		} else {
			writeFields(w, p, t)
		}
		if x := t.extra(); x != nil {
			w.line("\tv.%s.emitMembers(e)", x.GoName)
		}
		w.line("\te.EndObject()")
		w.line("}")
		w.line("")
		if !emb[t.Name] {
			continue
		}
		w.line("func (v *%s) emitFields(e jsonlite.Emitter) {", t.Name)
		writeFields(w, p, t)
		w.line("}")
		w.line("")
	}
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kSlice }) {
		w.line("// EmitTo writes an array of %s.", t.Elem)
		w.line("func (l %s) EmitTo(e jsonlite.Emitter) {", t.Name)
		w.line("\te.BeginArray()")
		w.line("\tfor i := range l {")
		w.line("\t\tl[i].EmitTo(e)")
		w.line("\t}")
		w.line("\te.EndArray()")
		w.line("}")
		w.line("")
	}
}

// writeFields writes the known members of t, embedded structs inlined.
func writeFields(w *writer, p *pkg, t *typeDef) {
	key := func(f *field) string { return strconv.Quote(f.Wire) }
	if pf := t.prefixField(); pf != nil {
		key = func(f *field) string { return "v." + pf.GoName + " + " + strconv.Quote(f.Wire) }
	}
	for _, f := range t.wireFields() {
		if f.Embedded {
			w.line("\tv.%s.emitFields(e)", f.GoName)
			continue
		}
		writeEmitField(w, f, key(f))
	}
}

func writeEmitField(w *writer, f *field, key string) {
	src := "v." + f.GoName
	ind := "\t"
	if f.OmitEmpty {
		w.line("%sif %s {", ind, nonZero(f.T, src))
		writeMember(w, f, key, src, f.T, ind+"\t")
		w.line("%s}", ind)
		return
	}
	if f.NullUnless != "" {
		w.line("%sif !v.%s {", ind, f.NullUnless)
		w.line("%s\tkNull(e, %s)", ind, key)
		w.line("%s} else {", ind)
		writeMember(w, f, key, src, f.T, ind+"\t")
		w.line("%s}", ind)
		return
	}
	writeMember(w, f, key, src, f.T, ind)
}

func nonZero(t goType, src string) string {
	switch t.kind {
	case kString:
		return src + ` != ""`
	case kInt, kInt64, kFloat64:
		return src + " != 0"
	case kBool:
		return src
	case kPtr:
		return src + " != nil"
	}
	return "len(" + src + ") > 0"
}

// writeMember writes the statements that emit the member key: src; the
// k* helpers and the as= writers take the key, so that a member is one
// call.
func writeMember(w *writer, f *field, key, src string, t goType, ind string) {
	if f.As != "" && t.kind != kPtr {
		w.line("%swrite%s(e, %s, %s)", ind, exported(f.As), key, src)
		return
	}
	switch t.kind {
	case kString:
		w.line("%skStr(e, %s, %s)", ind, key, src)
	case kBool:
		w.line("%skBool(e, %s, %s)", ind, key, src)
	case kInt:
		w.line("%skInt(e, %s, int64(%s))", ind, key, src)
	case kInt64:
		w.line("%skInt(e, %s, %s)", ind, key, src)
	case kFloat64:
		w.line("%skFloat(e, %s, %s)", ind, key, src)
	case kStruct, kHook:
		w.line("%se.Key(%s)", ind, key)
		if f.Prefix != "" {
			w.line("%s{", ind)
			w.line("%s\tx := %s", ind, src)
			w.line("%s\tx.Prefix = %q", ind, f.Prefix)
			w.line("%s\tx.EmitTo(e)", ind)
			w.line("%s}", ind)
			return
		}
		w.line("%s%s.EmitTo(e)", ind, src)
	case kPtr:
		w.line("%sif %s == nil {", ind, src)
		w.line("%s\tkNull(e, %s)", ind, key)
		w.line("%s} else {", ind)
		if t.elem.kind == kStruct || t.elem.kind == kHook {
			w.line("%s\te.Key(%s)", ind, key)
			w.line("%s\t%s.EmitTo(e)", ind, src)
		} else {
			writeMember(w, f, key, "*"+src, *t.elem, ind+"\t")
		}
		w.line("%s}", ind)
	case kSlice:
		w.line("%se.Key(%s)", ind, key)
		w.line("%se.BeginArray()", ind)
		w.line("%sfor i := range %s {", ind, src)
		w.line("%s\t%s[i].EmitTo(e)", ind, src)
		w.line("%s}", ind)
		w.line("%se.EndArray()", ind)
	default:
		panic("unwritable field " + f.GoName)
	}
}
