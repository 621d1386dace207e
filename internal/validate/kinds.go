package validate

import (
	"strconv"
	"strings"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/i18n"
)

// Messages shown to shoppers. They are static so the valid path and most
// error paths do not allocate.
const (
	msgRequired        = "This field is required."
	msgUTF8            = "Contains bytes that are not valid UTF-8 text."
	msgControl         = "Remove line breaks and control characters."
	msgCode            = "Use only letters, digits, hyphens and underscores."
	msgCountry         = "Enter a two-letter ISO country code such as ES."
	msgEmail           = "Enter a valid e-mail address such as name@example.com."
	msgPhoneChars      = "Use only digits, spaces and + - . ( ) in a phone number."
	msgPhoneDigits     = "A phone number has between 6 and 15 digits."
	msgDate            = "Enter a date as YYYY-MM-DD."
	msgDateCalendar    = "This date does not exist in the calendar."
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
)

func tooLong(l i18n.Locale, n int) string {
	return i18n.Format(l, msgTooLong, strconv.Itoa(n))
}

// hasControl reports C0 controls and DEL (line breaks included): none of
// the service's fields is multi-line.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return true
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

// checkPhone accepts digits with the usual separators, an optional leading
// + and 6 to 15 digits (E.164 has at most 15).
func checkPhone(s string) string {
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '+' && i == 0:
		case c == ' ' || c == '-' || c == '.' || c == '(' || c == ')':
		default:
			return msgPhoneChars
		}
	}
	if digits < 6 || digits > 15 {
		return msgPhoneDigits
	}
	return ""
}

// isEmail is a plausibility check, not RFC 5322: one @, a local part of
// 1-64 characters without spaces, and a domain of dot-separated labels of
// letters, digits and hyphens (non-ASCII allowed for IDN) ending in a
// top-level label of two or more letters.
func isEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at < 1 || at > 64 || strings.IndexByte(s[at+1:], '@') >= 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	for i := 0; i < len(local); i++ {
		if c := local[i]; c <= ' ' || c == '"' || c == '(' || c == ')' || c == ',' || c == ':' || c == ';' || c == '<' || c == '>' || c == '[' || c == ']' || c == '\\' {
			return false
		}
	}
	if local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
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
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		labels++
		start = i + 1
	}
	if labels < 2 {
		return false
	}
	tld := domain[strings.LastIndexByte(domain, '.')+1:]
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if c := tld[i]; c >= '0' && c <= '9' {
			return false
		}
	}
	return true
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
	if y < 1900 || m < 1 || m > 12 || d < 1 || d > DaysIn(y, m) {
		return msgDateCalendar
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
