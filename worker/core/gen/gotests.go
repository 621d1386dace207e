package main

import (
	"fmt"
	"strings"
)

// goTests writes seam/wire_gen_test.go: every type survives its encoder
// and decoder (each union in each of its variants), and every call's
// answer puts its raw parts where the wrapper looks for them.
func goTests(m *model) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("%s\npackage seam\n\nimport (\n\t\"reflect\"\n\t\"testing\"\n\t\"unsafe\"\n\n\t\"github.com/parcelgate/parcelgate/internal/jsonlite\"\n)\n", header)
	for _, st := range m.Structs {
		variants := []string{""}
		if st.Union != nil {
			variants = nil
			for _, v := range st.Union.Variants {
				variants = append(variants, v.Value)
			}
		}
		for _, v := range variants {
			p("\nfunc TestRoundTrip%s%s(t *testing.T) {\n", st.Name, strings.ReplaceAll(v, "-", "_"))
			p("\twant := %s\n", m.sample(st.Name, v, false))
			p("\tvar w Writer\n\tencode(&w, unsafe.Pointer(&want), &type%s, \"\")\n", st.Name)
			p("\tvar got %s\n\tif err := decode(jsonlite.NewScanner(w.Bytes()), unsafe.Pointer(&got), &type%s); err != nil {\n\t\tt.Fatalf(\"decode %%s: %%v\", w.Bytes(), err)\n\t}\n", st.Name, st.Name)
			p("\tif !reflect.DeepEqual(got, want) {\n\t\tt.Fatalf(\"%s: %%s\\ndecoded as %%+v\\nwant %%+v\", w.Bytes(), got, want)\n\t}\n}\n", st.Name)
		}
	}
	for _, c := range m.Calls {
		st := m.st(c.Out)
		v := ""
		if st.Union != nil {
			// The variant with a raw part, if any.
			for _, va := range st.Union.Variants {
				for _, f := range va.Fields {
					for _, fd := range st.Fields {
						if fd.JSON == f && (fd.Kind == kRaw || m.hasRaw(fd.Type)) && v == "" {
							v = va.Value
						}
					}
				}
			}
			if v == "" {
				v = st.Union.Variants[0].Value
			}
		}
		paths := m.outRawPaths(c.Out, v, "")
		p("\nfunc TestRawParts%s(t *testing.T) {\n\tv := %s\n\tvar w Writer\n\tEncode%s(&w, &v)\n", c.GoName, m.sample(c.Out, v, true), c.GoName)
		p("\tif want := %#v; !reflect.DeepEqual(w.PartAt, want) && !(len(want) == 0 && len(w.PartAt) == 0) {\n\t\tt.Fatalf(\"raw parts at %%q, want %%q\", w.PartAt, want)\n\t}\n", paths)
		p("\tfor i, at := range w.PartAt {\n\t\tif string(w.Parts[i]) != \"raw:\"+at {\n\t\t\tt.Fatalf(\"raw part at %%s is %%q\", at, w.Parts[i])\n\t\t}\n\t}\n")
		p("\tif err := jsonlite.NewScanner(w.Bytes()).Skip(); err != nil {\n\t\tt.Fatalf(\"%%s: %%v\", w.Bytes(), err)\n\t}\n}\n")
	}
	return b.String()
}

// outRawPaths are the raw parts' paths of a sample of name (variant v).
func (m *model) outRawPaths(name, v, at string) []string {
	st := m.st(name)
	var out []string
	in := m.variantFields(st, v)
	for _, f := range m.members(st) {
		if !in(f.JSON) {
			continue
		}
		switch f.Kind {
		case kRaw:
			out = append(out, at+f.JSON)
		case kStruct, kStructPtr:
			if m.hasRaw(f.Type) {
				out = append(out, m.outRawPaths(f.Type, m.firstVariant(f.Type), at+f.JSON+".")...)
			}
		}
	}
	return out
}

func (m *model) firstVariant(name string) string {
	if st := m.st(name); st != nil && st.Union != nil {
		return st.Union.Variants[0].Value
	}
	return ""
}

// variantFields tells the members a value of variant v writes.
func (m *model) variantFields(st *structType, v string) func(string) bool {
	if st.Union == nil {
		return func(string) bool { return true }
	}
	all, mine := map[string]bool{}, map[string]bool{}
	for _, va := range st.Union.Variants {
		for _, f := range va.Fields {
			all[f] = true
			if va.Value == v {
				mine[f] = true
			}
		}
	}
	return func(j string) bool { return !all[j] || mine[j] }
}

// sample is a Go literal of name with every member it writes set (raw
// parts "raw:<path>" when raw, else left out: they travel apart).
func (m *model) sample(name, v string, raw bool) string {
	return m.sampleAt(name, v, raw, "")
}

func (m *model) sampleAt(name, v string, raw bool, at string) string {
	st := m.st(name)
	in := m.variantFields(st, v)
	var parts []string
	for _, f := range st.Fields {
		if f.Embedded {
			parts = append(parts, f.GoName+": "+m.sampleAt(f.Type, "", raw, at))
			continue
		}
		if !in(f.JSON) {
			continue
		}
		var val string
		switch f.Kind {
		case kString:
			val = fmt.Sprintf("%q", f.JSON+"-1")
			if st.Union != nil && f.JSON == st.Union.Field {
				val = fmt.Sprintf("%q", v)
			}
		case kEnum:
			val = fmt.Sprintf("%s(%q)", f.Type, m.Enums[f.Type][0].Value)
		case kRawText:
			val = f.Type + "(`{\"a\":1}`)"
			if f.Type == "Number" {
				val = "Number(`7`)"
			}
		case kStringPtr:
			val = fmt.Sprintf("func() *string { s := %q; return &s }()", f.JSON)
		case kBool:
			val = "true"
		case kInt:
			val = "7"
		case kIntPtr:
			val = "func() *int64 { n := int64(9); return &n }()"
		case kFloat:
			val = "0" // floats are answers only: the codec does not read them
		case kStruct:
			val = m.sampleAt(f.Type, m.firstVariant(f.Type), raw, at+f.JSON+".")
		case kStructPtr:
			val = "&" + m.sampleAt(f.Type, m.firstVariant(f.Type), raw, at+f.JSON+".")
		case kStrings:
			val = `[]string{"a", "b"}`
		case kInts:
			val = "[]int64{1, 2}"
		case kStructs:
			val = fmt.Sprintf("[]%s{%s}", f.Type, m.sampleAt(f.Type, m.firstVariant(f.Type), raw, ""))
		case kPairs:
			val = `Pairs{{Name: "a", Value: "b"}}`
		case kRaw:
			if !raw {
				continue
			}
			val = fmt.Sprintf("[]byte(%q)", "raw:"+at+f.JSON)
		}
		parts = append(parts, f.GoName+": "+val)
	}
	return name + "{" + strings.Join(parts, ", ") + "}"
}
