package pricing

import (
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/country"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// The setting (PRICING_RULES) is JSON: either a list of rules (amounts in
// euros) or {"currency": "EUR", "rules": [...]}. A rule:
//
//	{"country": "ES" | ["ES", "PT"], "carrier": "acme-express" | [...],
//	 "service": "acme-24" | [...], "kind": "home" | "drop_point",
//	 "markup_percent": 10, "markup_fixed": "0.50",
//	 "round_step": "0.50" | "round_end": ".95" | ".99",
//	 "min": "2.95", "max": "20", "free_from": "60", "hide": true,
//	 "name": {"en": "Express", "es": "Urgente", ...}}
//
// Amounts are decimals (a JSON number or string) in the currency, with at
// most its decimals. Every field is optional; a rule without match
// fields matches every service.

// Limits of the setting.
const (
	MaxRules      = 100
	MaxMatch      = 50 // codes in one country, carrier or service list
	MaxNameRunes  = 60 // a shop's name of a service
	MaxPercent    = 1000
	MinPercent    = -100
	maxCodeLength = 64
)

// currencies are the currencies a table may be in, with their decimals
// (ISO 4217 minor units).
var currencies = [...]struct {
	code string
	prec int
}{
	{"EUR", 2}, {"USD", 2}, {"GBP", 2}, {"CHF", 2}, {"PLN", 2}, {"CZK", 2}, {"HUF", 2}, {"RON", 2},
	{"BGN", 2}, {"SEK", 2}, {"DKK", 2}, {"NOK", 2}, {"JPY", 0},
}

// Precision returns the decimals of a currency the tables know.
func Precision(code string) (int, bool) {
	for i := range currencies { // by index: ranging over the array copies it under TinyGo
		if currencies[i].code == code {
			return currencies[i].prec, true
		}
	}
	return 0, false
}

func currencyList() string {
	var b []byte
	for i := range currencies {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, currencies[i].code...)
	}
	return string(b)
}

// Error is a problem of the setting, in the operator's words: "rule 2:
// round_step: must be more than 0" (rules count from 1, as a shop reads
// its list).
type Error struct {
	Rule    int    // 1-based; 0 for the setting as a whole
	Field   string // "" for the rule or setting as a whole
	Problem string
}

// Error names the rule (by its number, when it has one) and the field before
// the problem, the order a shop reads PRICING_RULES in.
func (e *Error) Error() string {
	var b []byte
	if e.Rule > 0 {
		b = append(b, "rule "...)
		b = appendInt(b, int64(e.Rule))
		b = append(b, ": "...)
	}
	if e.Field != "" {
		b = append(b, e.Field...)
		b = append(b, ": "...)
	}
	return string(append(b, e.Problem...))
}

func appendInt(b []byte, n int64) []byte { return AppendFormat(b, n, 0) }

// Parse reads the setting. An empty setting is no table (nil, nil).
func Parse(setting string) (*Table, error) {
	if unitab.TrimSpace(setting) == "" {
		return nil, nil
	}
	p := &parser{s: jsonlite.NewScannerString(setting), t: &Table{Currency: "EUR", Precision: 2}}
	var err error
	switch p.s.Peek() {
	case jsonlite.Array:
		err = p.rules()
	case jsonlite.Object:
		err = p.top()
	default:
		return nil, &Error{Problem: `must be JSON: a list of rules, or {"currency": "EUR", "rules": [...]}`}
	}
	if err == nil && p.bad == nil {
		if e := p.s.End(); e != nil {
			err = e
		}
	}
	if p.bad != nil {
		return nil, p.bad
	}
	if err != nil {
		return nil, &Error{Rule: p.rule, Problem: "is not valid JSON (" + err.Error() + ")"}
	}
	return p.t, nil
}

type parser struct {
	s    *jsonlite.Scanner
	t    *Table
	rule int // 1-based index of the rule being read
	bad  *Error
}

// errStop stops the scanner once p.bad is set.
type stop struct{}

func (stop) Error() string { return "stop" }

func (p *parser) fail(field, problem string) error {
	if p.bad == nil {
		p.bad = &Error{Rule: p.rule, Field: field, Problem: problem}
	}
	return stop{}
}

func (p *parser) top() error {
	// The currency decides how amounts read: find it first.
	start := p.s.Offset()
	cur := ""
	err := p.s.Object(func(k string) error {
		if k == "currency" {
			v, err := p.s.String()
			if err != nil {
				return p.fail("currency", "must be a currency code such as \"EUR\"")
			}
			cur = v
		}
		return nil
	})
	if err != nil {
		return err
	}
	if cur != "" {
		// country.Normalize: trimmed, ASCII upper case (strings.ToUpper links
		// the unicode tables into the core).
		prec, ok := Precision(country.Normalize(cur))
		if !ok {
			return p.fail("currency", "must be one of "+currencyList())
		}
		p.t.Currency, p.t.Precision = country.Normalize(cur), prec
	}
	p.s.Seek(start)
	seen := false
	err = p.s.Object(func(k string) error {
		switch k {
		case "currency":
			return nil
		case "rules":
			seen = true
			if p.s.Peek() != jsonlite.Array {
				return p.fail("rules", "must be a list of rules")
			}
			return p.rules()
		}
		return p.fail(clip(k), "unknown field (currency, rules)")
	})
	if err == nil && !seen {
		return p.fail("rules", "missing: the list of rules")
	}
	return err
}

func (p *parser) rules() error {
	return p.s.Array(func(i int) error {
		p.rule = i + 1
		if i >= MaxRules {
			return p.fail("", "too many rules (at most 100)")
		}
		if p.s.Peek() != jsonlite.Object {
			return p.fail("", "must be an object such as {\"carrier\": \"acme-express\", \"markup_percent\": 10}")
		}
		// Read in place (no copy of the Rule): on an error Parse drops the
		// table.
		p.t.Rules = append(p.t.Rules, Rule{})
		r := &p.t.Rules[len(p.t.Rules)-1]
		if err := p.ruleFields(r); err != nil {
			return err
		}
		if err := p.check(r); err != nil {
			return err
		}
		p.rule = 0
		return nil
	})
}

func (p *parser) ruleFields(r *Rule) error {
	prec := p.t.Precision
	seen := 0
	return p.s.Object(func(k string) error {
		bit := fieldBit(k)
		if bit == 0 {
			return p.fail(clip(k), "unknown field (country, carrier, service, kind, hide, markup_percent, markup_fixed, round_step, round_end, min, max, free_from, name)")
		}
		if seen&bit != 0 {
			return p.fail(k, "given twice")
		}
		seen |= bit
		switch bit { // the bit, not the name: integer cases, no string compares
		case fCountry:
			list, err := p.codes(k)
			if err != nil {
				return err
			}
			for i, c := range list {
				c = country.Normalize(c)
				if !country.Valid(c) {
					return p.fail(k, "\""+clip(c)+"\" is not an ISO 3166-1 country code such as \"ES\"")
				}
				list[i] = c
			}
			r.Countries = list
		case fCarrier:
			list, err := p.codes(k)
			r.Carriers = list
			return err
		case fService:
			list, err := p.codes(k)
			r.Services = list
			return err
		case fKind:
			v, err := p.s.String()
			switch {
			case err != nil:
			case v == "home":
				r.Kind = Home
				return nil
			case v == "drop_point":
				r.Kind = DropPoint
				return nil
			}
			return p.fail(k, "must be \"home\" or \"drop_point\"")
		case fHide:
			v, err := p.s.Bool()
			if err != nil {
				return p.fail(k, "must be true or false")
			}
			r.Hide = v
		case fMarkupPercent:
			v, ok := p.amount(2, true)
			if !ok || v < MinPercent*100 || v > MaxPercent*100 {
				return p.fail(k, "must be a percentage from -100 to 1000 with at most 2 decimals, such as 10 or 12.5")
			}
			r.Percent = v
		case fMarkupFixed:
			v, ok := p.amount(prec, true)
			if !ok {
				return p.fail(k, p.amountWords(true))
			}
			r.Fixed = v
		case fRoundStep:
			if r.Round != NoRounding {
				return p.fail(k, "give round_step or round_end, not both")
			}
			v, ok := p.amount(prec, false)
			switch {
			case !ok:
				return p.fail(k, p.amountWords(false))
			case v == 0:
				return p.fail(k, "must be more than 0 (a step such as 0.50 rounds up to the next 0.50)")
			}
			r.Round, r.Step = Step, v
		case fRoundEnd:
			if r.Round != NoRounding {
				return p.fail(k, "give round_step or round_end, not both")
			}
			v, err := p.s.LooseString()
			if err != nil {
				return p.fail(k, "must be \".95\" or \".99\"")
			}
			switch unitab.TrimSpace(v) {
			case ".95", "0.95":
				r.Round = End95
			case ".99", "0.99":
				r.Round = End99
			default:
				return p.fail(k, "must be \".95\" or \".99\"")
			}
			if prec < 2 {
				return p.fail(k, "needs a currency with cents; "+p.t.Currency+" has none (use round_step)")
			}
		case fMin:
			v, ok := p.amount(prec, false)
			if !ok {
				return p.fail(k, p.amountWords(false))
			}
			r.Min, r.HasMin = v, true
		case fMax:
			v, ok := p.amount(prec, false)
			if !ok {
				return p.fail(k, p.amountWords(false))
			}
			r.Max, r.HasMax = v, true
		case fFreeFrom:
			v, ok := p.amount(prec, false)
			if !ok {
				return p.fail(k, p.amountWords(false))
			}
			r.FreeFrom, r.HasFree = v, true
		case fName:
			return p.names(r)
		}
		return nil
	})
}

var ruleFieldNames = [...]string{"country", "carrier", "service", "kind", "hide", "markup_percent", "markup_fixed",
	"round_step", "round_end", "min", "max", "free_from", "name"}

// The bits fieldBit gives, in ruleFieldNames' order.
const (
	fCountry = 1 << iota
	fCarrier
	fService
	fKind
	fHide
	fMarkupPercent
	fMarkupFixed
	fRoundStep
	fRoundEnd
	fMin
	fMax
	fFreeFrom
	fName
)

func fieldBit(k string) int {
	for i := range ruleFieldNames { // by index: ranging over the array copies it under TinyGo
		if ruleFieldNames[i] == k {
			return 1 << i
		}
	}
	return 0
}

// check holds a rule's fields to each other.
func (p *parser) check(r *Rule) error {
	if r.HasMin && r.HasMax && r.Min > r.Max {
		return p.fail("min", "is above max ("+Format(r.Min, p.t.Precision)+" > "+Format(r.Max, p.t.Precision)+")")
	}
	if r.Hide && (r.Percent != 0 || r.Fixed != 0 || r.Round != NoRounding || r.HasMin || r.HasMax || r.HasFree) {
		return p.fail("hide", "a hidden service has no price: remove the price fields of this rule, or hide: false")
	}
	return nil
}

// codes reads a code or a list of codes.
func (p *parser) codes(field string) ([]string, error) {
	words := "must be a code or a list of codes, such as \"acme-express\" or [\"acme-express\", \"swiftpost\"]"
	if field == "country" {
		words = "must be a country code or a list of them, such as \"ES\" or [\"ES\", \"PT\"]"
	}
	one := func() (string, error) {
		v, err := p.s.String()
		v = unitab.TrimSpace(v)
		if err != nil || v == "" || len(v) > maxCodeLength || hasControl(v) {
			return "", p.fail(field, words)
		}
		return v, nil
	}
	switch p.s.Peek() {
	case jsonlite.String:
		v, err := one()
		if err != nil {
			return nil, err
		}
		return []string{v}, nil
	case jsonlite.Array:
		var out []string
		err := p.s.Array(func(i int) error {
			if i >= MaxMatch {
				return p.fail(field, "too many codes (at most 50)")
			}
			v, err := one()
			out = append(out, v)
			return err
		})
		if err == nil && len(out) == 0 {
			return nil, p.fail(field, "is an empty list: leave the field out to match every one")
		}
		return out, err
	}
	return nil, p.fail(field, words)
}

// amount reads a decimal (a JSON number or string) with at most prec
// decimals; negative only when signed.
func (p *parser) amount(prec int, signed bool) (int64, bool) {
	t, err := p.s.LooseString()
	t = unitab.TrimSpace(t)
	if err != nil || t == "" {
		return 0, false
	}
	neg := false
	if signed && t[0] == '-' {
		neg, t = true, t[1:]
	}
	v, ok := ParseExact(t, prec)
	if neg {
		v = -v
	}
	return v, ok
}

func (p *parser) amountWords(signed bool) string {
	eg := "2.50"
	if p.t.Precision == 0 {
		eg = "250"
	}
	w := "must be an amount in " + p.t.Currency + " such as " + eg + " (at most " + string(appendInt(nil, int64(p.t.Precision))) + " decimals)"
	if signed {
		w += ", negative for a discount"
	}
	return w
}

func (p *parser) names(r *Rule) error {
	if p.s.Peek() != jsonlite.Object {
		return p.fail("name", "must be the shop's names by language, such as {\"en\": \"Express\", \"es\": \"Urgente\"}")
	}
	return p.s.Object(func(lang string) error {
		i := -1
		for j := range LanguageTags { // by index: ranging over the array copies it under TinyGo
			if LanguageTags[j] == lang {
				i = j
			}
		}
		if i < 0 {
			return p.fail("name", "unknown language \""+clip(lang)+"\" (en, es, pt, fr, de, it, nl)")
		}
		v, err := p.s.String()
		v = unitab.TrimSpace(v)
		switch {
		case err != nil || v == "":
			return p.fail("name."+lang, "must be a name such as \"Express\"")
		case utf8.RuneCountInString(v) > MaxNameRunes:
			return p.fail("name."+lang, "is longer than 60 characters")
		case hasControl(v):
			return p.fail("name."+lang, "must not contain control characters")
		}
		r.Names[i] = v
		return nil
	})
}

func hasControl(s string) bool {
	for _, c := range s {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			return true
		}
	}
	return false
}

// clip is what a message quotes of a setting's text: 40 characters, never
// half of one (unitab.Clip, the core's one clip).
func clip(s string) string { return unitab.Clip(s, 40) }
