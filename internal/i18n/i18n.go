// Package i18n translates the core's shopper-facing messages (field errors
// of internal/validate, postal-code hints of internal/postal) into the
// languages of the countries the shipping service names: English, Spanish,
// Portuguese, French, German, Italian and Dutch. The browser module and the
// edge use the same table, so a shopper reads the same sentence in both.
//
// The key of a message is its English text, exactly as the core writes it:
// validate and postal keep returning English, and Message translates at the
// end. Why not numeric ids: postal codes were redone country by country
// (issue 13, resolved) with new English messages; keyed by text, a new
// message works at once (English until translated) and the package's tests
// fail until every language has it. Messages with a variable part (a number, field names) are
// templates with {0}, written by Format.
//
// Everything is static (no init work, no maps, no fmt): safe for TinyGo.
package i18n

import (
	"strings"

	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Locale is one of the supported languages. The zero value is English.
type Locale uint8

// The supported locales, in the order of the table's columns.
const (
	English Locale = iota
	Spanish
	Portuguese
	French
	German
	Italian
	Dutch
)

// Count is the number of supported locales.
const Count = 7

var tags = [Count]string{"en", "es", "pt", "fr", "de", "it", "nl"}

// String returns the locale's BCP 47 primary language subtag ("en", "es", ...).
func (l Locale) String() string {
	if int(l) < Count {
		return tags[l]
	}
	return "en"
}

// Parse reads a language tag ("es", "es-ES", "pt_BR", "DE-at"): only its
// primary subtag counts. It reports false for a language the table does not
// have (and for "*" or an empty tag).
func Parse(tag string) (Locale, bool) {
	tag = unitab.TrimSpace(tag)
	end := len(tag)
	for i := 0; i < len(tag); i++ {
		if tag[i] == '-' || tag[i] == '_' {
			end = i
			break
		}
	}
	if end != 2 {
		return English, false
	}
	a, b := lower(tag[0]), lower(tag[1])
	for i := range tags { // by index: ranging over the array copies it under TinyGo
		if tags[i][0] == a && tags[i][1] == b {
			return Locale(i), true
		}
	}
	return English, false
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// FromAcceptLanguage picks the locale for an HTTP Accept-Language header
// value: the supported language with the highest q-value (the first listed
// on a tie; q=0 means "not this one"), English when none is supported or
// the header is empty or malformed. "es-ES;q=0.9, en;q=0.8" gives Spanish.
func FromAcceptLanguage(header string) Locale {
	best, bestQ := English, -1
	for header != "" {
		var item string
		if i := strings.IndexByte(header, ','); i >= 0 {
			item, header = header[:i], header[i+1:]
		} else {
			item, header = header, ""
		}
		tag, q := item, 1000
		if i := strings.IndexByte(item, ';'); i >= 0 {
			tag = item[:i]
			q = qValue(item[i+1:])
		}
		if l, ok := Parse(tag); ok && q > 0 && q > bestQ {
			best, bestQ = l, q
		}
	}
	return best
}

// qValue reads the "q=0.8" parameter (as thousandths); a malformed one
// counts as 0, so the language is skipped.
func qValue(params string) int {
	for params != "" {
		var p string
		if i := strings.IndexByte(params, ';'); i >= 0 {
			p, params = params[:i], params[i+1:]
		} else {
			p, params = params, ""
		}
		p = unitab.TrimSpace(p)
		if len(p) < 2 || lower(p[0]) != 'q' || p[1] != '=' {
			continue
		}
		v := unitab.TrimSpace(p[2:])
		if v == "" || (v[0] != '0' && v[0] != '1') {
			return 0
		}
		q := int(v[0]-'0') * 1000
		if len(v) > 1 {
			if v[1] != '.' || len(v) > 5 {
				return 0
			}
			scale := 100
			for i := 2; i < len(v); i++ {
				if v[i] < '0' || v[i] > '9' {
					return 0
				}
				q += int(v[i]-'0') * scale
				scale /= 10
			}
		}
		if q > 1000 {
			return 0
		}
		return q
	}
	return 1000
}

// rowSep separates the translations of a table row.
const rowSep = '|'

// index returns the table row of an English message, or -1.
func index(english string) int {
	for i := range table {
		if table[i][0] == english {
			return i
		}
	}
	return -1
}

// text returns the text of locale l in table row i.
func text(i int, l Locale) string {
	if l == English {
		return table[i][0]
	}
	return Field(table[i][1], rowSep, int(l)-1)
}

// Field returns the n-th (from 0) of the sep-separated texts in s: how a
// row of texts in the seven languages is kept as one string (here and in
// worker/core's messages), a string header per row instead of one per
// text in the wasm modules' data. It allocates nothing.
func Field(s string, sep byte, n int) string {
	for ; n > 0; n-- {
		s = s[strings.IndexByte(s, sep)+1:]
	}
	if j := strings.IndexByte(s, sep); j >= 0 {
		s = s[:j]
	}
	return s
}

// Message returns the English message english in locale l: the table's
// translation, or english itself when l is English or the table lacks the
// message (the tests make sure it never does).
func Message(l Locale, english string) string {
	if l == English || int(l) >= Count {
		return english
	}
	if i := index(english); i >= 0 {
		return text(i, l)
	}
	// A message built at run time from a template with one value at its
	// end (postal's "…, e.g. <example>."): translate the template.
	for i := range table {
		t := table[i][0]
		pre, post, ok := substr.Cut(t, "{0}")
		if ok && !substr.Contains(post, "{") && len(english) > len(pre)+len(post) &&
			strings.HasPrefix(english, pre) && strings.HasSuffix(english, post) {
			return Format(l, t, english[len(pre):len(english)-len(post)])
		}
	}
	return english
}

// Format writes the template (its English text, with {0}, {1}... for the
// variable parts) in locale l with args in place of the placeholders.
func Format(l Locale, template string, args ...string) string {
	return Fill(Message(l, template), args...)
}

// Fill writes s with args in place of its placeholders {0}, {1}... (a
// placeholder without an arg stays as it is). The edge's own messages
// (worker/core) fill theirs with it too: one copy of the loop in the module.
func Fill(s string, args ...string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '{' && i+2 < len(s) && s[i+2] == '}' && s[i+1] >= '0' && s[i+1] <= '9' {
			if n := int(s[i+1] - '0'); n < len(args) {
				if b == nil {
					b = make([]byte, 0, len(s)+16)
					b = append(b, s[:i]...)
				}
				b = append(b, args[n]...)
				i += 2
				continue
			}
		}
		if b != nil {
			b = append(b, s[i])
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// List joins names as "a, b or c" in locale l (the conjunction of the
// OrWord row).
func List(l Locale, names []string) string {
	or := Message(l, OrWord)
	s := ""
	for i, name := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += or
		default:
			s += ", "
		}
		s += name
	}
	return s
}

// OrWord is the key of the conjunction List puts before the last name.
const OrWord = " or "

// Entries returns the number of messages in the table.
func Entries() int { return len(table) }

// Entry returns row i of the table: the message in every locale, in
// Locale order (English first).
func Entry(i int) [Count]string {
	var row [Count]string
	for l := range row {
		row[l] = text(i, Locale(l))
	}
	return row
}
