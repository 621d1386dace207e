package postal

import (
	"strings"

	"github.com/parcelgate/parcelgate/internal/substr"
)

// datasetFormat is one format of the dataset as the generator leaves it for the
// schema export and the tests.
type datasetFormat struct {
	countries string // space-separated ISO codes
	source    string // the dataset's pattern (RE2 syntax)
	ecma      string // the core's rule for it as an ECMA-262 pattern
	examples  string // the dataset's examples, comma-separated
}

// SchemaGroup is a set of countries whose postal codes one pattern describes, for
// the JSON Schema export. Pattern matches exactly the trimmed inputs Check accepts
// (letters in either case, separators as Check allows them); the export anchors it
// and adds the white space Check trims.
type SchemaGroup struct {
	Countries []string
	Pattern   string
	// Examples are valid codes from the dataset (or the spec), for tests and docs.
	Examples []string
	// None marks the countries without postal codes: the code may be left empty,
	// and a code that is given follows the generic rule (GenericPatterns).
	None bool
}

// The spec's seven countries as ECMA-262 patterns, equivalent to their Go rules.
// " *(?:- *)?" is skipSep (spaces, at most one hyphen, spaces).
var specGroups = []SchemaGroup{
	{Countries: []string{"ES"}, Pattern: `(?:0[1-9]|[1-4][0-9]|5[0-2])[0-9]{3}`, Examples: []string{"28001", "07001", "35001", "52001"}},
	{Countries: []string{"PT"}, Pattern: `[1-9][0-9]{3} *(?:- *)?[0-9]{3}`, Examples: []string{"1000-001", "4000-322"}},
	{Countries: []string{"DE"}, Pattern: `(?:[Dd] *(?:- *)?)?(?:0[1-9]|[1-9][0-9])[0-9]{3}`, Examples: []string{"10115", "01067"}},
	{Countries: []string{"IT"}, Pattern: `(?:[VvIi] *(?:- *)?)?[0-9]{5}`, Examples: []string{"00118", "V-00120", "I-20121"}},
	{Countries: []string{"FR"}, Pattern: `(?:[Ff] *(?:- *)?)?(?:0[1-9]|[1-9][0-9]) *[0-9]{3}`, Examples: []string{"75001", "F-75001", "20000"}},
	{Countries: []string{"NL"}, Pattern: `[1-9][0-9]{3} *(?:- *)?(?:[A-RT-Za-rt-z][A-Za-z]|[Ss][BCE-RT-Zbce-rt-z])`, Examples: []string{"1012-AB", "2490 AA"}},
	{Countries: []string{"AD"}, Pattern: `(?:[Aa][Dd] *(?:- *)?)?[1-7][0-9]{2}`, Examples: []string{"AD500", "AD100"}},
}

// SchemaGroups returns every country with a postal-code rule of its own, grouped by
// pattern: the spec's seven, then the dataset's formats (with the country prefixes
// Check drops), then the countries without postal codes. Countries not listed (and
// invalid codes) follow GenericPatterns. Not for hot paths: it builds the list.
func SchemaGroups() []SchemaGroup {
	out := append([]SchemaGroup(nil), specGroups...)
	for _, f := range datasetFormats {
		g := SchemaGroup{Pattern: f.ecma, Examples: substr.Split(f.examples, ",")}
		// Countries with a prefix get a group of their own.
		var plain []string
		for _, c := range strings.Fields(f.countries) {
			p := prefixOf(c)
			if p == "" {
				plain = append(plain, c)
				continue
			}
			out = append(out, SchemaGroup{
				Countries: []string{c},
				Pattern:   "(?:" + foldECMA(p) + "(?:-| +)?)?(?:" + f.ecma + ")",
				Examples:  g.Examples,
			})
		}
		if len(plain) > 0 {
			g.Countries = plain
			out = append(out, g)
		}
	}
	return append(out, SchemaGroup{Countries: strings.Fields(noCodes), None: true})
}

// GenericPatterns returns the generic rule as ECMA-262 patterns that must all
// match: the first two anchored on the trimmed input (shape, then length 2-10 with
// runs of spaces counted once), the last unanchored (a digit somewhere).
func GenericPatterns() (anchored []string, contains string) {
	return []string{
		`[A-Za-z0-9]+(?:(?: +|-)[A-Za-z0-9]+)*`,
		`[A-Za-z0-9-](?:[A-Za-z0-9-]| +){0,8}[A-Za-z0-9-]`,
	}, `[0-9]`
}

// foldECMA writes the letters of an uppercase ASCII string as [Xx] classes.
func foldECMA(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			b.WriteString("[" + string(c) + string(c+32) + "]")
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Corpus returns test inputs for country's postal codes: its examples (from the
// dataset or the spec) and variants of them people type or mistype (lowercase,
// spaces, hyphens, a prefix, a character too many or too few, a letter for a digit),
// plus a few fixed shapes. Whether each is valid is for Check to say: the tests
// compare Check with the schema patterns and the dataset's own patterns on it.
func Corpus(country string) []string {
	var exs []string
	for _, g := range SchemaGroups() {
		for _, c := range g.Countries {
			if c == country {
				exs = append(exs, g.Examples...)
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, e := range exs {
		if e == "" {
			continue
		}
		add(e)
		add(strings.ToLower(e))
		add(" " + e + "\t")
		add(strings.Replace(e, " ", "", 1))
		add(strings.Replace(e, " ", "  ", 1))
		add(strings.Replace(e, " ", "-", 1))
		add(strings.Replace(e, "-", "", 1))
		add(strings.Replace(e, "-", " ", 1))
		add(e[:len(e)-1])
		add(e + "0")
		add(e + "A")
		add(e[1:])
		add(country + "-" + e)
		add(country + " " + e)
		if i := strings.IndexAny(e, "0123456789"); i >= 0 {
			add(e[:i] + "O" + e[i+1:])
		}
		if i := strings.IndexAny(e, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"); i >= 0 {
			add(e[:i] + "0" + e[i+1:])
		}
		add(e + "-1234")
	}
	for _, s := range []string{"", "0", "12", "123", "1234", "12345", "123456", "1234567", "00000", "99999",
		"12-345", "1234 AB", "A1A 1A1", "AB12 3CD", "ABCD", "12345-6789", "1.234", "12345678901", "-123", "12 -34"} {
		add(s)
	}
	return out
}

// CountriesWithoutCodes returns the countries without postal codes, in
// order (for the JavaScript types and documentation).
func CountriesWithoutCodes() []string { return strings.Fields(noCodes) }
