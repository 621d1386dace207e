package validate

import (
	"strings"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Messages shown to shoppers. They are static so the valid path and most
// error paths do not allocate.
const (
	msgRequired        = "This field is required."
	msgUTF8            = "Contains bytes that are not valid UTF-8 text."
	msgControl         = "Remove line breaks and control characters."
	msgFormatChar      = "Remove invisible formatting characters, such as zero-width spaces or text direction marks."
	msgCode            = "Use only letters, digits, hyphens and underscores."
	msgCountry         = "Enter a two-letter ISO country code such as ES."
	msgEmail           = "Enter a valid e-mail address such as name@example.com."
	msgPhoneChars      = "Use only digits, spaces and + - . / ( ) in a phone number."
	msgPhoneDigits     = "A phone number has between 6 and 15 digits."
	msgPhoneLong       = "A phone number has at most 15 characters, + included, without spaces or separators."
	msgDate            = "Enter a date as YYYY-MM-DD."
	msgDateCalendar    = "This date does not exist in the calendar."
	msgDateEarly       = "Enter a date from 1900-01-01 on."
	msgDatePast        = "The date must not be in the past."
	msgHour            = "Enter a time as HH:MM between 00:00 and 23:59."
	msgDecimal         = "Enter a positive number such as 1.5."
	msgDecimalComma    = "Use a point as the decimal separator, e.g. 1.5."
	msgDecimalZero     = "Must be greater than zero."
	msgDecimalHuge     = "This number is too large."
	msgWhole           = "Enter a whole number."
	msgPositive        = "Must be 1 or more."
	msgServiceCustom   = "Must be custom (the rules feature is not enabled)."
	msgServiceRules    = "Must be 24, 48 or 72 with the rules feature."
	msgFlag            = "Must be 0 or 1."
	msgUnknown         = "This operation does not take this field."
	msgNoParcels       = "This operation does not take parcels."
	msgParcelsRequired = "Add at least one parcel."
	msgExtraCase       = "Differs from a field of this operation only in upper and lower case; use the field's exact name."
)

// Templates of messages with a variable part (see i18n.Format).
const (
	msgTooLong        = "Use at most {0} characters."
	msgAtMost         = "Must be at most {0}."
	msgTooManyParcels = "At most {0} parcels per request."
	msgGive           = "Give {0}."
	msgTogether       = "Required together with {0}."
	msgUnless         = "Required unless {0} is given."
	msgLater          = "Must be later than {0}."
	msgNotEarlier     = "Must not be earlier than {0}."
	msgExtraMany      = "At most {0} carrier-specific extra fields per request."
	msgExtraName      = "The name of an extra field has at most {0} characters: letters, digits, hyphens and underscores."
)

func tooLong(l i18n.Locale, n int) string {
	return i18n.Format(l, msgTooLong, decimal.Itoa(n))
}

// hasControl reports C0 controls, DEL and C1 controls (U+0080-U+009F,
// often a sign of text decoded with the wrong charset; line breaks included):
// none of the service's fields is multi-line.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || (c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f) {
			return true
		}
	}
	return false
}

// hasFormat reports Unicode format characters (category Cf: zero-width
// space and joiners, U+2060, bidi embeddings, overrides and isolates,
// U+FEFF, the soft hyphen, ...). They are invisible: "AB\u200b12" looks
// like "AB12" to a person and is another reference to a machine (a
// second booking record, a lookup that finds nothing). Refused in
// references and codes, not in names and addresses, where joiners are
// part of some scripts' spelling.
func hasFormat(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			for _, r := range s[i:] {
				if r >= 0xad && unitab.IsFormat(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

func isCode(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isPhoneSep reports the separators people write in phone numbers; they are
// removed when the number is normalized.
func isPhoneSep(c byte) bool {
	return c == ' ' || c == '-' || c == '.' || c == '/' || c == '(' || c == ')'
}

// checkPhone accepts digits with the usual separators (space, hyphen, dot,
// slash, parentheses) and an optional leading + or 00, and checks the
// normalized form (see NormalizePhone): 6 to 15 digits (E.164 has at most
// 15), and at most maxLen characters (the spec's 15; 0 = no limit).
func checkPhone(s string, maxLen int) string {
	digits, plus, first := 0, false, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if first && c == '0' && nextDigit(s, i+1) == '0' {
				// A leading 00 is the international prefix: it becomes +.
				plus, first = true, false
				i = nextDigitIndex(s, i+1)
				continue
			}
			digits++
			first = false
		case c == '+' && first && !plus:
			plus, first = true, false
		case isPhoneSep(c):
		default:
			return msgPhoneChars
		}
	}
	if digits < 6 || digits > 15 {
		return msgPhoneDigits
	}
	n := digits
	if plus {
		n++
	}
	if maxLen > 0 && n > maxLen {
		return msgPhoneLong
	}
	return ""
}

// nextDigitIndex returns the index of the first digit at or after i, or len(s).
func nextDigitIndex(s string, i int) int {
	for i < len(s) && !(s[i] >= '0' && s[i] <= '9') {
		if !isPhoneSep(s[i]) {
			return len(s)
		}
		i++
	}
	return i
}

// nextDigit returns the first digit at or after i when only separators come
// before it, and 0 otherwise.
func nextDigit(s string, i int) byte {
	if j := nextDigitIndex(s, i); j < len(s) {
		return s[j]
	}
	return 0
}

// NormalizePhone returns a phone number that checkPhone accepts as it is
// forwarded: separators removed, a leading 00 or + as +
// ("0049 (30) 1234-567" -> "+49301234567", "030/1234567" -> "0301234567").
// It does not allocate when s is already normalized.
func NormalizePhone(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if isPhoneSep(s[i]) {
			clean = false
			break
		}
	}
	if clean && !(len(s) > 1 && s[0] == '0' && s[1] == '0') {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isPhoneSep(c) {
			continue
		}
		b = append(b, c)
	}
	if len(b) > 1 && b[0] == '0' && b[1] == '0' {
		b = b[1:]
		b[0] = '+'
	}
	return string(b)
}

// isEmail is a plausibility check, not RFC 5322: one @, a local part
// without spaces, quotes or brackets and without leading, trailing or
// doubled dots, and a domain of at least two dot-separated labels of
// letters, digits and hyphens (not at either end of a label, at most 63
// characters). Internationalized domains are accepted in both forms: labels
// in Unicode ("пример.рф") and in punycode ("xn--e1afmkfd.xn--p1ai"),
// anywhere, the top-level label included. The top-level label is otherwise
// two or more letters (no digits). Lengths are in characters.
func isEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at < 1 || strings.IndexByte(s[at+1:], '@') >= 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if utf8.RuneCountInString(local) > 64 {
		return false
	}
	for i := 0; i < len(local); i++ {
		if c := local[i]; c <= ' ' || c == 0x7f || c == '"' || c == '(' || c == ')' || c == ',' || c == ':' || c == ';' || c == '<' || c == '>' || c == '[' || c == ']' || c == '\\' {
			return false
		}
	}
	if local[0] == '.' || local[len(local)-1] == '.' || substr.Contains(local, "..") {
		return false
	}
	labels, start := 0, 0
	for i := 0; i <= len(domain); i++ {
		if i < len(domain) && domain[i] != '.' {
			c := domain[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c >= 0x80) {
				return false
			}
			continue
		}
		label := domain[start:i]
		if label == "" || utf8.RuneCountInString(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		labels++
		start = i + 1
	}
	if labels < 2 {
		return false
	}
	tld := domain[strings.LastIndexByte(domain, '.')+1:]
	if isPunycode(tld) {
		return true
	}
	if utf8.RuneCountInString(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if c := tld[i]; c >= '0' && c <= '9' {
			return false
		}
	}
	return true
}

// isPunycode reports an IDNA A-label: "xn--" (any case) and at least one
// more character (the label's other rules are checked by the caller).
func isPunycode(label string) bool {
	return len(label) > 4 && (label[0] == 'x' || label[0] == 'X') && (label[1] == 'n' || label[1] == 'N') && label[2] == '-' && label[3] == '-'
}

// parseDate parses YYYY-MM-DD and checks the calendar (leap years).
func parseDate(s string) (y, m, d int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := digitsN(s[0:4])
	m, ok2 := digitsN(s[5:7])
	d, ok3 := digitsN(s[8:10])
	if !ok1 || !ok2 || !ok3 {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// ParseDay parses YYYY-MM-DD that names a day of the calendar (the edge's
// BOOKINGS_LEGACY_UNTIL): what checkDate accepts before its range checks.
func ParseDay(s string) (y, m, d int, ok bool) {
	y, m, d, ok = parseDate(s)
	if !ok || m < 1 || m > 12 || d < 1 || d > DaysIn(y, m) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// DaysIn returns the number of days of month m (1-12) of year y.
func DaysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func checkDate(s string, booking bool, today string) string {
	y, m, d, ok := parseDate(s)
	if !ok {
		return msgDate
	}
	if m < 1 || m > 12 || d < 1 || d > DaysIn(y, m) {
		return msgDateCalendar
	}
	if y < 1900 {
		return msgDateEarly
	}
	// Both are YYYY-MM-DD, so string order is date order.
	if booking && today != "" && s < today {
		return msgDatePast
	}
	return ""
}

// parseHour parses HH:MM (or H:MM) and returns minutes since midnight.
func parseHour(s string) (int, bool) {
	c := strings.IndexByte(s, ':')
	if c < 1 || c > 2 || len(s)-c != 3 {
		return 0, false
	}
	h, ok1 := digitsN(s[:c])
	mi, ok2 := digitsN(s[c+1:])
	if !ok1 || !ok2 || h > 23 || mi > 59 {
		return 0, false
	}
	return h*60 + mi, true
}

func digitsN(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(s) > 0
}

// checkDecimal accepts a positive decimal with a point: digits, optionally
// a point and digits (".5" and "5." are refused), at most 7 integer digits.
func checkDecimal(s string) string {
	intDigits, fracDigits, point, nonZero := 0, 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if c != '0' {
				nonZero = true
			}
			if point {
				fracDigits++
			} else {
				intDigits++
			}
		case c == '.' && !point:
			point = true
		case c == ',':
			return msgDecimalComma
		default:
			return msgDecimal
		}
	}
	if intDigits == 0 || (point && fracDigits == 0) {
		return msgDecimal
	}
	if !nonZero {
		return msgDecimalZero
	}
	if intDigits > 7 {
		return msgDecimalHuge
	}
	return ""
}

// checkWhole checks a Count (>= 0) or Positive (>= 1) value against the
// parameter's maximum.
func checkWhole(s string, p *catalog.Param) string {
	if len(s) > 9 {
		if _, ok := digitsN(s); ok && p.Max > 0 {
			return msgAtMost
		}
		return msgWhole
	}
	n, ok := digitsN(s)
	if !ok {
		return msgWhole
	}
	if p.Kind == catalog.Positive && n < 1 {
		return msgPositive
	}
	if p.Max > 0 && n > p.Max {
		return msgAtMost // written with p.Max by the caller
	}
	return ""
}

// checkServiceType applies convention 7: custom without the rules feature,
// 24, 48 or 72 with it.
func checkServiceType(s string, rules bool) string {
	if rules {
		if s == "24" || s == "48" || s == "72" {
			return ""
		}
		return msgServiceRules
	}
	if s == "custom" {
		return ""
	}
	return msgServiceCustom
}
