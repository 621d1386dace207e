package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// samples are wire values for the as= codecs, valid for their readers.
var samples = map[string]string{
	"date":      `"2026-01-02"`,
	"pdf":       `"JVBERi0xLjQK"`,
	"text":      `"a message"`,
	"code":      `108`,
	"raw":       `{"raw":[1,"two",null]}`,
	"rawObject": `{"raw":{"one":1}}`,
}

// hookSamples are wire values for the hook types.
var hookSamples = map[string]string{
	"RawMembers": `{"block":{"type":"object"},"other":[1]}`,
	"MethodList": `{"new-shipment":true,"new-collection":false}`,
}

// unknownMember is added to every sample object: it must come out
// unchanged.
const unknownMember = `"zz_unknown":{"kept":[1,"two",null,{"x":true}]}`

// writeTests writes one round-trip test per wire struct and named slice:
// a sample with every key (and an unknown member) decodes, its emission
// has every key and the unknown member unchanged, and emission is a fixed
// point of decoding; the zero value's emission decodes too. The helpers
// are in wire_test.go.
func writeTests(w *writer, p *pkg) error {
	for _, t := range p.ordered(func(t *typeDef) bool { return t.Kind == kStruct || t.Kind == kSlice }) {
		sample, keys, err := sampleOf(p, t, "")
		if err != nil {
			return err
		}
		zero := "true"
		if hasRequired(p, t) {
			zero = "false" // the zero value lacks a required member
		}
		w.line("func TestWire%s(t *testing.T) {", t.Name)
		w.line("\ttestRoundTrip(t, func() wireValue { return new(%s) }, %s, %s, %s)", t.Name, strconv.Quote(sample), goStrings(keys), zero)
		w.line("}")
		w.line("")
	}
	return nil
}

func hasRequired(p *pkg, t *typeDef) bool {
	if t.Kind == kSlice {
		return false
	}
	for _, f := range t.wireFields() {
		if f.Required || f.Embedded && hasRequired(p, p.Types[f.T.name]) {
			return true
		}
	}
	return false
}

func goStrings(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// sampleOf returns a JSON sample of t and the top-level keys its emission
// must have.
func sampleOf(p *pkg, t *typeDef, prefix string) (string, []string, error) {
	if t.Kind == kSlice {
		el, _, err := sampleOf(p, p.Types[t.Elem], "")
		return "[" + el + "]", nil, err
	}
	if pf := t.prefixField(); pf != nil && prefix == "" {
		prefix = pf.Prefixes[0]
	}
	var members []string
	var keys []string
	n := 0
	var add func(t *typeDef) error
	add = func(t *typeDef) error {
		for _, f := range t.wireFields() {
			if f.Embedded {
				if err := add(p.Types[f.T.name]); err != nil {
					return err
				}
				continue
			}
			keys = append(keys, prefix+f.Wire)
			if f.EmitOnly {
				continue
			}
			n++
			v, err := sampleValue(p, f, f.T, n)
			if err != nil {
				return fmt.Errorf("%s.%s: %v", t.Name, f.GoName, err)
			}
			members = append(members, strconv.Quote(prefix+f.Wire)+":"+v)
		}
		return nil
	}
	if err := add(t); err != nil {
		return "", nil, err
	}
	if t.extra() != nil {
		members = append(members, unknownMember)
	}
	sort.Strings(keys)
	return "{" + strings.Join(members, ",") + "}", keys, nil
}

func sampleValue(p *pkg, f *field, t goType, n int) (string, error) {
	if f.As != "" && t.kind != kPtr {
		s, ok := samples[f.As]
		if !ok {
			return "", fmt.Errorf("no test sample for as=%s: add one to samples in gen/tests.go", f.As)
		}
		return s, nil
	}
	switch t.kind {
	case kString:
		return strconv.Quote("s" + strconv.Itoa(n)), nil
	case kInt, kInt64:
		return strconv.Itoa(n), nil
	case kFloat64:
		return strconv.Itoa(n) + ".5", nil
	case kBool:
		return "true", nil
	case kPtr:
		return sampleValue(p, f, *t.elem, n)
	case kSlice:
		v, err := sampleValue(p, &field{}, *t.elem, n)
		return "[" + v + "]", err
	case kStruct, kHook:
		if s, ok := hookSamples[t.name]; ok {
			return s, nil
		}
		d := p.Types[t.name]
		if d == nil || d.Kind == kHook && d.TS == "" {
			return "", fmt.Errorf("no test sample for hook type %s: add one to hookSamples in gen/tests.go", t.name)
		}
		if d.Kind == kHook {
			return "", fmt.Errorf("no test sample for hook type %s: add one to hookSamples in gen/tests.go", t.name)
		}
		s, _, err := sampleOf(p, d, f.Prefix)
		return s, err
	}
	return "", fmt.Errorf("no sample for %s", goName(t))
}
