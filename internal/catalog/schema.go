package catalog

import (
	"strconv"
	"strings"

	"github.com/parcelgate/parcelgate/internal/country"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// The patterns below restate validation (internal/validate, internal/postal)
// in the subset of ECMA-262 that RE2 and Python's re read the same way: no
// lookaround, no \s or \d (their meaning differs between engines), \xHH
// escapes and literal characters only. Validation does not use them.

// SchemaLimits says what the schemas cannot say (draft 4); it ends every
// operation's description. See also internal/catalog/README.md.
const SchemaLimits = "Not expressed by this schema: ordering rules between fields (stated above), " +
	"booking dates in the past, numbers sent as strings (validation accepts \"1.5\" for 1.5), " +
	"and lengths counted in UTF-16 units by validators that do not use Unicode patterns."

// ws is the white space validation trims (Go's unicode.IsSpace).
const ws = "[\\t\\n\\v\\f\\r \\x85\\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

// notBlank matches a value with something other than white space in it.
const notBlank = "[^\\t\\n\\v\\f\\r \\x85\\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

// noControl is one character that is not a C0 or C1 control or DEL.
const noControl = `[^\x00-\x1f\x7f-\x9f]`

// solid is one character that is neither white space nor a control: the
// first and last characters of a trimmed value.
const solid = "[^\\x00-\\x20\\x7f-\\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

// format lists the Unicode format characters (category Cf) of the Basic
// Multilingual Plane as the inside of a character class: zero-width space
// and joiners, bidi controls, U+2060, U+FEFF, the soft hyphen... References
// and codes refuse them (validation's hasFormat). The few outside the BMP
// (tags, musical formatting) are left out: a class with them needs the
// Unicode flag, which draft 4 validators do not all use.
const format = unitab.FormatClassBMP

// refPattern is textPattern without format characters anywhere.
func refPattern(max int, optional bool) string {
	clean := `[^\x00-\x1f\x7f-\x9f` + format + `]`
	first := "[^\\x00-\\x20\\x7f-\\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000" + format + "]"
	core := first
	if max > 1 {
		core += "(?:" + clean + "{0," + strconv.Itoa(max-2) + "}" + first + ")?"
	}
	return trimmed(core, optional)
}

// maxWhole is the largest whole number validation takes (nine digits).
const maxWhole = 999999999

// trimmed anchors a pattern of the trimmed value, allowing the white space
// validation trims around it; optional also lets a blank value through
// (validation treats it as absent).
func trimmed(core string, optional bool) string {
	q := ""
	if optional {
		q = "?"
	}
	return "^" + ws + "*(?:" + core + ")" + q + ws + "*$"
}

// textPattern: at most max characters after trimming, no control
// characters; not blank unless optional.
func textPattern(max int, optional bool) string {
	core := solid
	if max > 1 {
		core += "(?:" + noControl + "{0," + strconv.Itoa(max-2) + "}" + solid + ")?"
	}
	return trimmed(core, optional)
}

// countryPattern matches the given ISO codes (all assigned codes when nil)
// in either case, grouped by first letter.
func countryPattern(codes []string) string {
	if codes == nil {
		for a := 'A'; a <= 'Z'; a++ {
			for b := 'A'; b <= 'Z'; b++ {
				if c := string([]rune{a, b}); country.Valid(c) {
					codes = append(codes, c)
				}
			}
		}
	}
	byFirst := map[byte][]byte{}
	var firsts []byte
	for _, c := range codes {
		if _, ok := byFirst[c[0]]; !ok {
			firsts = append(firsts, c[0])
		}
		byFirst[c[0]] = append(byFirst[c[0]], c[1])
	}
	var alts []string
	for _, f := range firsts {
		alts = append(alts, fold(f)+foldClass(byFirst[f]))
	}
	return strings.Join(alts, "|")
}

func fold(c byte) string { return "[" + string(c) + string(c+32) + "]" }

func foldClass(cs []byte) string {
	if len(cs) == 1 {
		return fold(cs[0])
	}
	var up, low []byte
	for _, c := range cs {
		up = append(up, c)
		low = append(low, c+32)
	}
	return "[" + string(up) + string(low) + "]"
}

// phonePattern restates checkPhone and NormalizePhone: separators anywhere,
// a leading + or 00, 6 to 15 digits and at most max characters once
// normalized (+ counted).
func phonePattern(max int) string {
	const sep = `[ ./()-]`
	intl := 15
	if max > 0 && max-1 < intl {
		intl = max - 1
	}
	national := 15
	if max > 0 && max < national {
		national = max
	}
	d := `[0-9]` + sep + `*`
	rep := func(lo, hi int) string { return "(?:" + d + "){" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}" }
	return sep + "*(?:" +
		`\+` + sep + "*" + rep(6, intl) + "|" +
		"0" + sep + "*0" + sep + "*" + rep(6, intl) + "|" +
		"[1-9]" + sep + "*" + rep(5, national-1) + "|" +
		"0" + sep + "*[1-9]" + sep + "*" + rep(4, national-2) + ")"
}

// emailPattern restates isEmail (the length comes from textPattern).
var emailPattern = func() string {
	const (
		local = `[^\x00-\x20\x7f"(),.:;<>@\[\]\\]`
		an    = `(?:[0-9A-Za-z]|[^\x00-\x7f])`
		anh   = `(?:[0-9A-Za-z-]|[^\x00-\x7f])`
		ln    = `(?:[A-Za-z]|[^\x00-\x7f])`
		lnh   = `(?:[A-Za-z-]|[^\x00-\x7f])`
	)
	label := an + "(?:" + anh + "*" + an + ")?"
	tld := "[Xx][Nn]--" + anh + "*" + an + "|" + ln + lnh + "*" + ln
	return local + "+(?:\\." + local + "+)*@(?:" + label + "\\.)+(?:" + tld + ")"
}()

// datePattern: YYYY-MM-DD, a real calendar date from 1900 on.
const datePattern = `(?:19|[2-9][0-9])[0-9]{2}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))` +
	`|(?:(?:19|[2-9][0-9])(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)-02-29`

// hourPattern: H:MM or HH:MM, 00:00 to 23:59.
const hourPattern = `(?:[01]?[0-9]|2[0-3]):[0-5][0-9]`

// pickCountry selects a branch by the value of the country field. The
// field's own pattern already requires white space and a valid code, so
// anything but letters around the code will do here (and keeps the
// schemas small).
func pickCountry(codes []string) string {
	return "^[^A-Za-z]*(?:" + countryPattern(codes) + ")[^A-Za-z]*$"
}

// postalDef is the name of a postal group's definition.
func postalDef(g *postal.SchemaGroup) string { return "zip_" + g.Countries[0] }

// emitPostal writes the postal-code rule of p for every country: one
// branch per group of countries sharing a format, one for the countries
// without postal codes, and the generic rule for any other value of the
// country field.
func emitPostal(e jsonlite.Emitter, p *Param, rules bool) {
	required := p.Need.IsRequired(rules)
	groups := postal.SchemaGroups()
	var all []string
	e.BeginObject()
	e.Key("description")
	e.String(p.Name + ": the format of the country in " + p.Country)
	e.Key("anyOf")
	e.BeginArray()
	for i := range groups {
		g := &groups[i]
		all = append(all, g.Countries...)
		e.BeginObject()
		e.Key("required")
		e.BeginArray()
		e.String(p.Country)
		if required && !g.None {
			e.String(p.Name)
		}
		e.EndArray()
		e.Key("properties")
		e.BeginObject()
		e.Key(p.Country)
		e.BeginObject()
		e.Key("pattern")
		e.String(pickCountry(g.Countries))
		e.EndObject()
		e.Key(p.Name)
		e.BeginObject()
		e.Key("$ref")
		e.String("#/definitions/" + postalDef(g))
		e.EndObject()
		e.EndObject()
		e.EndObject()
	}
	// Any other country, a missing one or an invalid one: the generic rule.
	e.BeginObject()
	if required {
		e.Key("required")
		e.BeginArray()
		e.String(p.Name)
		e.EndArray()
	}
	e.Key("properties")
	e.BeginObject()
	e.Key(p.Country)
	e.BeginObject()
	e.Key("not")
	e.BeginObject()
	e.Key("pattern")
	e.String(pickCountry(all))
	e.EndObject()
	e.EndObject()
	e.Key(p.Name)
	e.BeginObject()
	e.Key("$ref")
	e.String("#/definitions/zip_generic")
	e.EndObject()
	e.EndObject()
	e.EndObject()
	e.EndArray()
	e.EndObject()
}

// emitPostalDefinitions writes the postal-code formats the branches of
// emitPostal refer to, when the operation has a postal code.
func emitPostalDefinitions(e jsonlite.Emitter, op *Operation) {
	has := false
	for i := range op.Params {
		has = has || op.Params[i].Kind == Zip
	}
	if !has {
		return
	}
	anchored, digit := postal.GenericPatterns()
	generic := func() {
		e.BeginObject()
		e.Key("allOf")
		e.BeginArray()
		for _, a := range anchored {
			e.BeginObject()
			e.Key("pattern")
			e.String(trimmed(a, false))
			e.EndObject()
		}
		e.BeginObject()
		e.Key("pattern")
		e.String(digit)
		e.EndObject()
		e.EndArray()
		e.EndObject()
	}
	e.Key("definitions")
	e.BeginObject()
	e.Key("zip_generic")
	generic()
	groups := postal.SchemaGroups()
	for i := range groups {
		g := &groups[i]
		e.Key(postalDef(g))
		e.BeginObject()
		e.Key("description")
		if g.None {
			e.String("no postal codes: " + strings.Join(g.Countries, " ") + " (empty, or the generic rule)")
			e.Key("anyOf")
			e.BeginArray()
			e.BeginObject()
			e.Key("pattern")
			e.String("^" + ws + "*$")
			e.EndObject()
			e.BeginObject()
			e.Key("$ref")
			e.String("#/definitions/zip_generic")
			e.EndObject()
			e.EndArray()
		} else {
			ex := g.Examples
			if len(ex) > 3 {
				ex = ex[:3]
			}
			e.String(strings.Join(g.Countries, " ") + ", e.g. " + strings.Join(ex, ", "))
			e.Key("type")
			e.String("string")
			e.Key("pattern")
			e.String(trimmed(g.Pattern, false))
		}
		e.EndObject()
	}
	e.EndObject()
}
