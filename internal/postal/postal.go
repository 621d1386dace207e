// Package postal checks and normalizes postal codes (the zip_code fields of the
// shipping API) per country, with static rules only: no regexp, no fmt, no allocation
// when the input is already in normalized form.
//
// The spec's seven countries (ES, PT, DE, IT, FR, NL, AD) have hand-written rules;
// every other country gets its real format from Google's address metadata, compiled
// by `go generate` into table_gen.go (see README.md in this folder for the source, its
// version and the full list of decisions). In short:
//
//   - Input may have surrounding white space and lowercase letters. For the seven,
//     between the parts of a code a space, a hyphen, both (" - ") or nothing is
//     accepted ("1234ab", "1234 ab", "1234-AB" all give "1234-AB").
//   - ES: 5 digits; the first two are the province, 01 to 52. PT: 4 digits, hyphen, 3
//     digits, first digit 1-9 (the old 4-digit form is refused with its own message).
//     DE: 5 digits, not 00..., "D-" dropped. IT: 5 digits, V- / I- kept. FR: 5 digits
//     or "NN NNN", not 00..., F- kept. NL: 4 digits (first 1-9) and 2 letters other
//     than SA, SD, SS, as "1012-AB". AD: AD100..AD799, "AD" optional.
//   - Countries with a format in the dataset: runs of white space count as one space,
//     letters are uppercased, and the result must match the format exactly; a country
//     prefix written before the code ("CH-8001", "SE-114 55") is dropped.
//   - Countries without postal codes: an empty code is valid (Check returns no
//     message); a code that is given gets the generic rule.
//   - Any other country (not in the dataset, no pattern for it, or not a valid code):
//     the generic rule, 2 to 10 characters of ASCII letters, digits, spaces and
//     hyphens, with at least one digit, no leading or trailing hyphen and no two
//     separators in a row.
//
// Length: the spec bounds zip_code to 5-8 characters "by country"; its seven
// countries' normalized forms all fit. Real formats elsewhere are shorter (IS 3
// digits, CH 4) or longer (US ZIP+4 10, IR 11); they are taken as the dataset gives them.
package postal

//go:generate go run ./gen

import (
	"strings"

	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Zone is the Spanish shipping zone of a postal code; carriers cover zones separately.
type Zone uint8

// Spanish shipping zones, derived from the province number (the first two digits).
const (
	ZoneNone       Zone = iota // not Spanish, or not valid
	ZonePeninsular             // mainland Spain (every province not listed below)
	ZoneBalearic               // province 07
	ZoneCanary                 // provinces 35 and 38
	ZoneCeuta                  // province 51
	ZoneMelilla                // province 52
)

// String returns the lowercase zone name: "", "peninsular", "balearic", "canary",
// "ceuta" or "melilla" ("" also for values outside the constants).
func (z Zone) String() string {
	switch z {
	case ZonePeninsular:
		return "peninsular"
	case ZoneBalearic:
		return "balearic"
	case ZoneCanary:
		return "canary"
	case ZoneCeuta:
		return "ceuta"
	case ZoneMelilla:
		return "melilla"
	}
	return ""
}

// ProvinceZone returns the zone of a Spanish province number (1 to 52), or ZoneNone
// for numbers outside that range.
func ProvinceZone(province int) Zone {
	switch {
	case province < 1 || province > 52:
		return ZoneNone
	case province == 7:
		return ZoneBalearic
	case province == 35 || province == 38:
		return ZoneCanary
	case province == 51:
		return ZoneCeuta
	case province == 52:
		return ZoneMelilla
	}
	return ZonePeninsular
}

// Result is the outcome of a successful Check.
type Result struct {
	// Normalized is the postal code in the form to send upstream (see package doc).
	Normalized string
	// Province is the Spanish province number, 1 to 52, for ES codes; 0 otherwise.
	Province int
	// Zone is the Spanish shipping zone for ES codes; ZoneNone otherwise.
	Zone Zone
}

// Shopper-facing messages returned by Check.
const (
	msgEmpty      = "Enter a postal code."
	msgES         = "Spanish postal codes have 5 digits (e.g. 28001)."
	msgESProvince = "Spanish postal codes start with a province number from 01 to 52."
	msgPT         = "Portuguese postal codes have 4 digits, a hyphen and 3 digits (e.g. 1000-001)."
	msgPTShort    = "Portuguese postal codes need all 7 digits: 4 digits, a hyphen and 3 digits (e.g. 1000-001)."
	msgPTZero     = "Portuguese postal codes cannot start with 0."
	msgDE         = "German postal codes have 5 digits (e.g. 10115)."
	msgDEZero     = "German postal codes cannot start with 00."
	msgIT         = "Italian postal codes have 5 digits (e.g. 00118), optionally after V- or I-."
	msgFR         = "French postal codes have 5 digits (e.g. 75001), optionally after F-."
	msgFRZero     = "French postal codes cannot start with 00."
	msgNL         = "Dutch postal codes have 4 digits and 2 letters (e.g. 1012 AB)."
	msgNLZero     = "Dutch postal codes cannot start with 0."
	msgNLPair     = "Dutch postal codes never end in SA, SD or SS."
	msgAD         = "Andorran postal codes are AD followed by 3 digits (e.g. AD500)."
	msgADParish   = "Andorran postal codes go from AD100 to AD799."
	msgChars      = "Postal codes may contain only letters, digits, spaces and hyphens."
	msgLength     = "Postal codes have 2 to 10 characters."
	msgDigit      = "Postal codes contain at least one digit."
	msgEdge       = "Postal codes cannot start or end with a hyphen."
	msgDoubleSep  = "Postal codes cannot have two separators in a row."
	// msgFormat is followed by an example of the country's format and a period.
	msgFormat = "Enter a postal code in this country's format, e.g. "
)

// Generic rule bounds, in characters of the normalized form (ASCII, so bytes).
const (
	genericMin = 2
	genericMax = 10
)

// buffer holds a normalized code while it is built; no format is longer.
type buffer [16]byte

// Check validates input as a postal code of country (an already normalized ISO 3166-1
// alpha-2 code such as "ES"; unknown or lowercase codes get the generic rule) and
// returns its normalized form. The message is "" when input is valid; otherwise it is a
// short shopper-facing explanation and the Result is the zero value. Check never panics,
// whatever the input (including invalid UTF-8), and does not allocate when input is
// already normalized.
func Check(country, input string) (Result, string) {
	s := unitab.TrimSpace(input)
	f := formatOf(country)
	if s == "" {
		if f == fmtNone {
			return Result{}, ""
		}
		return Result{}, msgEmpty
	}
	var b buffer
	var n int
	var msg string
	switch country {
	case "ES":
		n, msg = checkES(s, &b)
	case "PT":
		n, msg = checkPT(s, &b)
	case "DE":
		n, msg = checkDE(s, &b)
	case "IT":
		n, msg = checkPrefixed(s, &b, 'V', 'I', msgIT, "")
	case "FR":
		n, msg = checkPrefixed(s, &b, 'F', 'F', msgFR, msgFRZero)
	case "NL":
		n, msg = checkNL(s, &b)
	case "AD":
		n, msg = checkAD(s, &b)
	default:
		if f >= fmtTable {
			n, msg = checkTable(country, format(f-fmtTable), s, &b)
		} else {
			n, msg = checkGeneric(s, &b)
		}
	}
	if msg != "" {
		return Result{}, msg
	}
	r := Result{Normalized: reuse(input, s, b[:n])}
	if country == "ES" {
		r.Province = int(b[0]-'0')*10 + int(b[1]-'0')
		r.Zone = ProvinceZone(r.Province)
	}
	return r, ""
}

// reuse returns input or its trimmed form s when either equals the normalized bytes,
// so that already normalized input costs no allocation; otherwise it copies norm.
func reuse(input, s string, norm []byte) string {
	switch string(norm) { // comparisons of a converted slice do not allocate
	case input:
		return input
	case s:
		return s
	}
	return string(norm)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// upper returns c uppercased when it is an ASCII letter, and 0 otherwise.
func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	if c >= 'A' && c <= 'Z' {
		return c
	}
	return 0
}

// digitsAt reports whether s[i:i+n] exists and holds only ASCII digits.
func digitsAt(s string, i, n int) bool {
	if i < 0 || n < 0 || len(s)-i < n {
		return false
	}
	for j := i; j < i+n; j++ {
		if !isDigit(s[j]) {
			return false
		}
	}
	return true
}

// skipSep skips an optional separator starting at s[i]: white space, at most one
// hyphen, white space. It returns the index after it.
func skipSep(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// skipSpaces skips white space starting at s[i] and returns the index after it.
func skipSpaces(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func checkES(s string, b *buffer) (int, string) {
	if len(s) != 5 || !digitsAt(s, 0, 5) {
		return 0, msgES
	}
	if p := int(s[0]-'0')*10 + int(s[1]-'0'); p < 1 || p > 52 {
		return 0, msgESProvince
	}
	return copy(b[:], s), ""
}

func checkPT(s string, b *buffer) (int, string) {
	if !digitsAt(s, 0, 4) {
		return 0, msgPT
	}
	i := skipSep(s, 4)
	if i == len(s) { // "1000", "1000-": the old 4-digit form
		return 0, msgPTShort
	}
	if len(s)-i != 3 || !digitsAt(s, i, 3) {
		return 0, msgPT
	}
	if s[0] == '0' {
		return 0, msgPTZero
	}
	copy(b[:4], s)
	b[4] = '-'
	copy(b[5:8], s[i:])
	return 8, ""
}

func checkDE(s string, b *buffer) (int, string) {
	if upper(s[0]) == 'D' {
		s = s[skipSep(s, 1):]
	}
	if len(s) != 5 || !digitsAt(s, 0, 5) {
		return 0, msgDE
	}
	if s[0] == '0' && s[1] == '0' {
		return 0, msgDEZero
	}
	return copy(b[:], s), ""
}

// checkPrefixed handles IT and FR: 5 digits, optionally after a one-letter prefix p1 or
// p2 (kept, uppercased, followed by a hyphen). FR also accepts "NN NNN". When zeroMsg
// is not empty, codes starting with 00 are rejected with it.
func checkPrefixed(s string, b *buffer, p1, p2 byte, msg, zeroMsg string) (int, string) {
	n := 0
	if p := upper(s[0]); p != 0 && (p == p1 || p == p2) {
		b[0], b[1] = p, '-'
		n = 2
		s = s[skipSep(s, 1):]
	}
	switch {
	case len(s) == 5 && digitsAt(s, 0, 5):
		n += copy(b[n:], s)
	case p1 == 'F' && len(s) > 2 && digitsAt(s, 0, 2) && isSpace(s[2]): // French "75 001"
		i := skipSpaces(s, 2)
		if len(s)-i != 3 || !digitsAt(s, i, 3) {
			return 0, msg
		}
		n += copy(b[n:], s[:2])
		n += copy(b[n:], s[i:])
	default:
		return 0, msg
	}
	if zeroMsg != "" && b[n-5] == '0' && b[n-4] == '0' {
		return 0, zeroMsg
	}
	return n, ""
}

func checkNL(s string, b *buffer) (int, string) {
	if !digitsAt(s, 0, 4) {
		return 0, msgNL
	}
	i := skipSep(s, 4)
	if len(s)-i != 2 {
		return 0, msgNL
	}
	l1, l2 := upper(s[i]), upper(s[i+1])
	if l1 == 0 || l2 == 0 {
		return 0, msgNL
	}
	if s[0] == '0' {
		return 0, msgNLZero
	}
	if l1 == 'S' && (l2 == 'A' || l2 == 'D' || l2 == 'S') {
		return 0, msgNLPair
	}
	copy(b[:4], s)
	b[4], b[5], b[6] = '-', l1, l2
	return 7, ""
}

func checkAD(s string, b *buffer) (int, string) {
	if len(s) >= 2 && upper(s[0]) == 'A' && upper(s[1]) == 'D' {
		s = s[skipSep(s, 2):]
	}
	if len(s) != 3 || !digitsAt(s, 0, 3) {
		return 0, msgAD
	}
	if s[0] < '1' || s[0] > '7' {
		return 0, msgADParish
	}
	b[0], b[1] = 'A', 'D'
	return 2 + copy(b[2:], s), ""
}

// checkGeneric applies the rule for countries without a specific format. s is trimmed
// and not empty.
func checkGeneric(s string, b *buffer) (int, string) {
	n, digits := 0, 0
	badChar, double, edge := false, false, false
	prevSep := true // at the start, a separator would be a leading one
	for i := 0; i < len(s); i++ {
		c := s[i]
		var out byte
		switch {
		case isDigit(c):
			out = c
			digits++
		case upper(c) != 0:
			out = upper(c)
		case isSpace(c):
			if i > 0 && isSpace(s[i-1]) {
				continue // a run of white space is one space
			}
			out = ' '
		case c == '-':
			out = '-'
			if i == 0 || i == len(s)-1 {
				edge = true
			}
		default:
			badChar = true
			continue
		}
		sep := out == ' ' || out == '-'
		if sep && prevSep && i > 0 {
			double = true
		}
		prevSep = sep
		if n < len(b) {
			b[n] = out
		}
		n++
	}
	switch {
	case badChar:
		return 0, msgChars
	case edge:
		return 0, msgEdge
	case double:
		return 0, msgDoubleSep
	case n < genericMin || n > genericMax:
		return 0, msgLength
	case digits == 0:
		return 0, msgDigit
	}
	return n, ""
}

// Values of formatOf below the index of the first table format.
const (
	fmtGeneric = 0 // generic rule
	fmtNone    = 1 // no postal codes
	fmtTable   = 2 // formats[f-fmtTable]
)

// format is one postal-code format of the dataset: its index in formatStarts.
type format int

// start returns the offset of the format's automaton in programs.
func (f format) start() int { return int(formatStarts[2*f])<<8 | int(formatStarts[2*f+1]) }

// example returns the format's example, for messages.
func (f format) example() string {
	s := examples
	for i := format(0); i < f; i++ {
		s = s[strings.IndexByte(s, ',')+1:]
	}
	return s[:strings.IndexByte(s, ',')]
}

// prefixOf returns the prefix people write before country's codes ("CH" for
// "CH-8001"), or "".
func prefixOf(country string) string {
	for s := prefixes; len(s) > 2; {
		sp := strings.IndexByte(s, ' ')
		if s[:2] == country {
			return s[2:sp]
		}
		s = s[sp+1:]
	}
	return ""
}

// formatOf returns the format of country: fmtGeneric for anything that is not two
// uppercase ASCII letters.
func formatOf(country string) int {
	if len(country) != 2 {
		return fmtGeneric
	}
	a, b := country[0]-'A', country[1]-'A'
	if a >= 26 || b >= 26 {
		return fmtGeneric
	}
	return int(formatIndex[int(a)*26+int(b)])
}

// HasCodes reports whether country (an uppercase ISO code) uses postal codes. It is
// false only for the countries the dataset lists without them (such as AE, HK, IE's
// neighbours excluded: IE has Eircodes); unknown codes are assumed to have them.
func HasCodes(country string) bool { return formatOf(country) != fmtNone }

// Example returns an example postal code of country, or "" when the country has no
// format of its own (generic rule, or no postal codes).
func Example(country string) string {
	switch country {
	case "ES":
		return "28001"
	case "PT":
		return "1000-001"
	case "DE":
		return "10115"
	case "IT":
		return "00118"
	case "FR":
		return "75001"
	case "NL":
		return "1012-AB"
	case "AD":
		return "AD500"
	}
	if f := formatOf(country); f >= fmtTable {
		return format(f - fmtTable).example()
	}
	return ""
}

// symbol returns the index of c in the automata's alphabet "0-9A-Z -", or -1.
func symbol(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	case c == ' ':
		return 36
	case c == '-':
		return 37
	}
	return -1
}

// match runs the automaton starting at programs[start] over s. Each state is one
// byte (0x80 when accepting, plus its number of edges) followed by its edges, each
// a class index and the target state's number.
func match(start int, s []byte) bool {
	state := 0
	for _, c := range s {
		sym := symbol(c)
		if sym < 0 {
			return false
		}
		p := stateAt(start, state)
		next := -1
		for e, n := 0, int(programs[p]&0x7f); e < n; e++ {
			if k := 5*int(programs[p+1+2*e]) + sym/8; classes[k]&(1<<uint(sym%8)) != 0 {
				next = int(programs[p+2+2*e])
				break
			}
		}
		if next < 0 {
			return false
		}
		state = next
	}
	return programs[stateAt(start, state)]&0x80 != 0
}

// stateAt returns the offset in programs of state number state of the automaton
// starting at start.
func stateAt(start, state int) int {
	p := start
	for ; state > 0; state-- {
		p += 1 + 2*int(programs[p]&0x7f)
	}
	return p
}

// checkTable normalizes s (trimmed, not empty) as the table formats expect: runs of
// white space as one space, letters uppercased; then matches it against f, first
// as it is, then without the country's prefix.
func checkTable(country string, f format, s string, b *buffer) (int, string) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) {
			if isSpace(s[i-1]) { // s is trimmed: i > 0 here
				continue
			}
			c = ' '
		} else if u := upper(c); u != 0 {
			c = u
		}
		if n == len(b) {
			return 0, msgFormat + f.example() + "."
		}
		b[n] = c
		n++
	}
	if match(f.start(), b[:n]) {
		return n, ""
	}
	if p := prefixOf(country); p != "" {
		k := len(p)
		if n > k && string(b[:k]) == p {
			if b[k] == '-' || b[k] == ' ' {
				k++
			}
			if match(f.start(), b[k:n]) {
				return copy(b[:], b[k:n]), ""
			}
		}
	}
	return 0, msgFormat + f.example() + "."
}
