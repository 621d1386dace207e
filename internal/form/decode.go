package form

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits bounds what Decode accepts. A zero or negative field stands for
// the DefaultLimits value of that field, so Limits{} means DefaultLimits.
type Limits struct {
	// MaxBytes bounds the raw input, in bytes (a leading '?' included).
	MaxBytes int
	// MaxFields bounds the number of top-level fields. Parcel fields are
	// not counted: they are bounded by MaxParcels (five per parcel).
	MaxFields int
	// MaxParcels bounds the number of parcels: indices run from 0 to
	// MaxParcels-1.
	MaxParcels int
	// MaxValueRunes bounds every decoded value, top-level or parcel, in
	// characters (runes), not bytes.
	MaxValueRunes int
}

// DefaultLimits are the limits the edge applies: 64 KiB of input, 200
// top-level fields, 50 parcels and 1000 characters per value. They are far
// above what any operation of the spec needs (the longest documented value
// is 80 characters, new-shipment has about 30 fields) and small enough that
// decoding costs little.
var DefaultLimits = Limits{MaxBytes: 64 << 10, MaxFields: 200, MaxParcels: 50, MaxValueRunes: 1000}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxFields <= 0 {
		l.MaxFields = DefaultLimits.MaxFields
	}
	if l.MaxParcels <= 0 {
		l.MaxParcels = DefaultLimits.MaxParcels
	}
	if l.MaxValueRunes <= 0 {
		l.MaxValueRunes = DefaultLimits.MaxValueRunes
	}
	return l
}

// Error is a decoding error. Field is the offending key as decoded (for
// example parcels[3][parcel_weight]), the missing parcel (parcels[1]) for
// an index gap, or "" for an error of the body as a whole or of a key that
// cannot be decoded. Message says what is wrong in words a developer can
// act on. Decode returns no other error type.
type Error struct {
	Field   string
	Message string
}

// Error returns "form: <field>: <message>", or "form: <message>" when
// Field is empty.
func (e *Error) Error() string {
	if e.Field == "" {
		return "form: " + e.Message
	}
	return "form: " + e.Field + ": " + e.Message
}

// Messages of Error. Those with a number are completed at run time.
const (
	msgTooLarge      = "body too large, at most %d bytes"
	msgKeyEscape     = "invalid percent escape in a field name"
	msgKeyUTF8       = "invalid UTF-8 in a field name"
	msgEmptyName     = "empty field name"
	msgBadName       = "invalid field name: use letters, digits, _ and -"
	msgBrackets      = "brackets are only allowed in parcels[<i>][<field>]"
	msgParcelsShape  = "parcels must be sent as parcels[<i>][<field>]"
	msgUnclosed      = "missing ]"
	msgNoIndex       = "missing parcel index"
	msgBadIndex      = "invalid parcel index: use 0, 1, 2, ..."
	msgLeadingZero   = "invalid parcel index: leading zeros"
	msgTooManyParc   = "too many parcels, at most %d"
	msgNoField       = "missing parcel field: parcels[<i>][<field>]"
	msgTooDeep       = "nested too deep: at most parcels[<i>][<field>]"
	msgJunk          = "unexpected characters after ]"
	msgUnknownParcel = "unknown parcel field: use parcel_weight, parcel_width, parcel_height, parcel_length or parcel_volume"
	msgRepeated      = "repeated field"
	msgTooManyFields = "too many fields, at most %d"
	msgEscape        = "invalid percent escape"
	msgUTF8          = "invalid UTF-8"
	msgTooLong       = "too long, at most %d characters"
	msgMissing       = "parcels[%d] is missing"
)

// withNumber replaces the %d of msg with n.
func withNumber(msg string, n int) string {
	i := strings.Index(msg, "%d")
	return msg[:i] + strconv.Itoa(n) + msg[i+2:]
}

// linearFields is the number of top-level fields up to which repeats are
// found by a linear scan (no allocation); past it Decode uses a set.
const linearFields = 64

// parcelEntry records one decoded parcel value until the parcel count is
// known: the value is s[start:end] of the decoder's string.
type parcelEntry struct {
	idx        int
	field      int
	start, end int
}

// Decode parses an application/x-www-form-urlencoded body, or a query
// string (an optional leading '?' is skipped), into a new Request. See
// DecodeInto for the grammar and the errors.
func Decode(body []byte, lim Limits) (*Request, error) {
	r := new(Request)
	if err := DecodeInto(r, body, lim); err != nil {
		return nil, err
	}
	return r, nil
}

// DecodeInto is Decode into an existing Request, reusing the memory of its
// Fields and Parcels. On error r holds a partial result.
//
// Grammar: pairs separated by '&'; empty pairs are skipped; a pair without
// '=' is a field with an empty value; '+' is a space and %XX a byte, in
// keys and values alike (so %5B and %5D are brackets). After decoding,
// keys and values must be valid UTF-8, a value at most lim.MaxValueRunes
// characters. A key is either a top-level name of [A-Za-z0-9_-] or
// parcels[<i>][<field>] with <i> a decimal index without leading zeros
// below lim.MaxParcels and <field> one of ParcelFieldNames. A key may
// appear once. Parcels may come in any order but their indices must be
// 0..n-1 without gaps.
//
// Every error is an *Error, for the first problem in body order; gaps in
// the parcel indices are reported after the whole body is read. Memory use
// is bounded by the input length: all decoded keys and values share one
// allocation of at most len(body) bytes, and the parcel list is allocated
// once its length is known, never in proportion to an index value.
func DecodeInto(r *Request, body []byte, lim Limits) error {
	lim = lim.withDefaults()
	r.Fields = r.Fields[:0]
	r.Parcels = r.Parcels[:0]
	if len(body) > lim.MaxBytes {
		return &Error{Message: withNumber(msgTooLarge, lim.MaxBytes)}
	}
	if len(body) > 0 && body[0] == '?' {
		body = body[1:]
	}
	if len(body) == 0 {
		return nil
	}
	pairs := bytes.Count(body, []byte{'&'}) + 1
	if cap(r.Fields) == 0 {
		r.Fields = make([]Field, 0, min(pairs, lim.MaxFields))
	}

	var sb strings.Builder
	sb.Grow(len(body)) // every decoded key and value fits: decoding never lengthens

	var maskBuf [64]uint8
	var mask []uint8 // bit j of mask[i]: parcels[i][ParcelFieldNames[j]] seen
	var entBuf [64]parcelEntry
	ents := entBuf[:0]
	maxIdx := -1
	var seen map[string]struct{} // top-level names, once there are linearFields
	indexDigits := decimalLen(lim.MaxParcels - 1)

	for pos := 0; pos < len(body); {
		end := bytes.IndexByte(body[pos:], '&')
		if end < 0 {
			end = len(body)
		} else {
			end += pos
		}
		pair := body[pos:end]
		pos = end + 1
		if len(pair) == 0 {
			continue
		}
		rawKey, rawVal := pair, pair[len(pair):]
		if eq := bytes.IndexByte(pair, '='); eq >= 0 {
			rawKey, rawVal = pair[:eq], pair[eq+1:]
		}

		// The key.
		start := sb.Len()
		if !unescape(&sb, rawKey) {
			return &Error{Message: msgKeyEscape}
		}
		key := sb.String()[start:]
		if key == "" {
			return &Error{Message: msgEmptyName}
		}
		br := strings.IndexByte(key, '[')
		name := key
		if br >= 0 {
			name = key[:br]
		}
		if !validName(name) {
			if !utf8.ValidString(key) {
				return &Error{Message: msgKeyUTF8}
			}
			return &Error{Field: key, Message: msgBadName}
		}

		if br < 0 {
			// A top-level field.
			if name == "parcels" {
				return &Error{Field: key, Message: msgParcelsShape}
			}
			if seen != nil {
				if _, dup := seen[key]; dup {
					return &Error{Field: key, Message: msgRepeated}
				}
			} else {
				for i := range r.Fields {
					if r.Fields[i].Name == key {
						return &Error{Field: key, Message: msgRepeated}
					}
				}
			}
			if len(r.Fields) >= lim.MaxFields {
				return &Error{Message: withNumber(msgTooManyFields, lim.MaxFields)}
			}
			v, msg := value(&sb, rawVal, lim.MaxValueRunes)
			if msg != "" {
				return &Error{Field: key, Message: msg}
			}
			r.Fields = append(r.Fields, Field{Name: key, Value: v})
			if seen != nil {
				seen[key] = struct{}{}
			} else if len(r.Fields) == linearFields {
				// Past a few dozen fields, a set keeps the repeat check linear.
				seen = make(map[string]struct{}, 2*linearFields)
				for i := range r.Fields {
					seen[r.Fields[i].Name] = struct{}{}
				}
			}
			continue
		}

		// parcels[<i>][<field>]
		if name != "parcels" {
			if !utf8.ValidString(key) {
				return &Error{Message: msgKeyUTF8}
			}
			return &Error{Field: key, Message: msgBrackets}
		}
		idx, field, msg := parseParcelKey(key[br:], indexDigits, lim.MaxParcels)
		if msg != "" {
			if !utf8.ValidString(key) {
				return &Error{Message: msgKeyUTF8}
			}
			if msg == msgTooManyParc {
				msg = withNumber(msg, lim.MaxParcels)
			}
			return &Error{Field: key, Message: msg}
		}
		if mask == nil {
			if n := min(lim.MaxParcels, pairs); n <= len(maskBuf) {
				mask = maskBuf[:n]
			} else {
				mask = make([]uint8, n)
			}
		}
		bit := uint8(1) << field
		if idx < len(mask) {
			if mask[idx]&bit != 0 {
				return &Error{Field: key, Message: msgRepeated}
			}
			mask[idx] |= bit
		} else {
			// Only possible when the index exceeds the number of pairs,
			// which leaves a gap anyway; still report repeats in order.
			for _, e := range ents {
				if e.idx == idx && e.field == field {
					return &Error{Field: key, Message: msgRepeated}
				}
			}
		}
		vstart := sb.Len()
		if _, msg := value(&sb, rawVal, lim.MaxValueRunes); msg != "" {
			return &Error{Field: key, Message: msg}
		}
		ents = append(ents, parcelEntry{idx: idx, field: field, start: vstart, end: sb.Len()})
		maxIdx = max(maxIdx, idx)
	}

	if maxIdx < 0 {
		return nil
	}
	n := maxIdx + 1
	for i := 0; i < n; i++ {
		// When n > len(mask) some index below len(mask) is missing (there
		// are fewer parcel pairs than len(mask)), so this stops in range.
		if i >= len(mask) || mask[i] == 0 {
			m := withNumber(msgMissing, i)
			return &Error{Field: m[:strings.IndexByte(m, ']')+1], Message: m}
		}
	}
	if cap(r.Parcels) >= n {
		r.Parcels = r.Parcels[:n]
		clear(r.Parcels)
	} else {
		r.Parcels = make([]Parcel, n)
	}
	s := sb.String()
	for _, e := range ents {
		r.Parcels[e.idx].setAt(e.field, s[e.start:e.end])
	}
	return nil
}

// validName reports whether s is a non-empty run of [A-Za-z0-9_-].
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// parseParcelKey parses "[<i>][<field>]" (the key after "parcels") and
// returns the index, the field's position in ParcelFieldNames, or an error
// message (msgTooManyParc still holding its %d).
func parseParcelKey(s string, indexDigits, maxParcels int) (idx, field int, msg string) {
	// s[0] == '['
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return 0, 0, msgUnclosed
	}
	digits := s[1:end]
	s = s[end+1:]
	switch {
	case digits == "":
		return 0, 0, msgNoIndex
	case !allDigits(digits):
		return 0, 0, msgBadIndex
	case len(digits) > 1 && digits[0] == '0':
		return 0, 0, msgLeadingZero
	case len(digits) > indexDigits:
		return 0, 0, msgTooManyParc
	}
	// At most as many digits as maxParcels-1 (at most 19): fits a uint64.
	var u uint64
	for i := 0; i < len(digits); i++ {
		u = u*10 + uint64(digits[i]-'0')
	}
	if u >= uint64(maxParcels) {
		return 0, 0, msgTooManyParc
	}
	idx = int(u)

	if s == "" {
		return 0, 0, msgNoField
	}
	if s[0] != '[' {
		return 0, 0, msgJunk
	}
	end = strings.IndexByte(s, ']')
	if end < 0 {
		return 0, 0, msgUnclosed
	}
	name := s[1:end]
	s = s[end+1:]
	if s != "" {
		if s[0] == '[' {
			return 0, 0, msgTooDeep
		}
		return 0, 0, msgJunk
	}
	if name == "" {
		return 0, 0, msgNoField
	}
	for j, n := range ParcelFieldNames {
		if n == name {
			return idx, j, ""
		}
	}
	return 0, 0, msgUnknownParcel
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// unhex returns the value of hex digit c, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// unescape writes raw to sb with '+' as a space and %XX as a byte. It
// reports false for a '%' not followed by two hex digits.
func unescape(sb *strings.Builder, raw []byte) bool {
	if bytes.IndexByte(raw, '%') < 0 && bytes.IndexByte(raw, '+') < 0 {
		sb.Write(raw) // the common case: nothing to decode
		return true
	}
	run := 0
	for i := 0; i < len(raw); {
		switch raw[i] {
		case '+':
			sb.Write(raw[run:i])
			sb.WriteByte(' ')
			i++
			run = i
		case '%':
			if i+2 >= len(raw) {
				return false
			}
			hi, lo := unhex(raw[i+1]), unhex(raw[i+2])
			if hi < 0 || lo < 0 {
				return false
			}
			sb.Write(raw[run:i])
			sb.WriteByte(byte(hi<<4 | lo))
			i += 3
			run = i
		default:
			i++
		}
	}
	sb.Write(raw[run:])
	return true
}

// value decodes raw into sb and returns it as a string, or an error
// message for a bad escape, invalid UTF-8, or more than maxRunes runes.
func value(sb *strings.Builder, raw []byte, maxRunes int) (string, string) {
	start := sb.Len()
	if !unescape(sb, raw) {
		return "", msgEscape
	}
	v := sb.String()[start:]
	if !utf8.ValidString(v) {
		return "", msgUTF8
	}
	// A rune takes at least one byte: count only when the bytes exceed.
	if len(v) > maxRunes && utf8.RuneCountInString(v) > maxRunes {
		return "", withNumber(msgTooLong, maxRunes)
	}
	return v, ""
}

// setAt sets the i-th field in ParcelFieldNames order.
func (p *Parcel) setAt(i int, v string) {
	switch i {
	case 0:
		p.Weight = v
	case 1:
		p.Width = v
	case 2:
		p.Height = v
	case 3:
		p.Length = v
	case 4:
		p.Volume = v
	}
}
