package form

import (
	"bytes"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/urlquery"
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
	i := substr.Index(msg, "%d")
	return msg[:i] + decimal.Itoa(n) + msg[i+2:]
}

// linearFields is the number of top-level fields up to which repeats are
// found by a linear scan (no allocation); past it Decode uses a set.
const linearFields = 64

// span is buf[start:end] of the decoder's buffer.
type span struct{ start, end int }

// fieldEntry and parcelEntry record decoded pairs until the final string
// exists and the parcel count is known.
type fieldEntry struct{ key, val span }

type parcelEntry struct {
	idx, field int
	val        span
}

// scratch is DecodeInto's working memory, kept between calls. Arrays on
// the stack would do natively, but TinyGo puts an array on the heap once a
// slice of it is appended to or passed on: 2.4 KB allocated per decode,
// which made decoding a read's five fields about a sixth of the edge
// core's time for the read (the allocation and the collections it brings
// on; worker/bench/EDGE_COST.md).
type scratch struct {
	buf    [1024]byte
	fields [48]fieldEntry
	ents   [32]parcelEntry
	mask   [64]uint8
}

// spare is the scratch between calls: one decode takes it at a time (a
// concurrent one makes its own).
var spare atomic.Pointer[scratch]

// ForgetScratch drops the scratch kept between calls. For a program whose
// allocator takes back everything a call allocated when the call is over
// (the edge core module's arena, worker/core/wasm): the scratch the call
// made is then free memory, and a later decode must not write to it.
func ForgetScratch() { spare.Store(nil) }

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
// Fields and Parcels. On error r is left empty.
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
// is bounded by the input length: all decoded names and values share one
// string of at most len(body) bytes (the only allocation when r's slices
// are large enough and the body is at most 1 KiB; a larger body also needs
// a scratch buffer), and the parcel list is allocated once its length is
// known, never in proportion to an index value.
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

	sc := spare.Swap(nil)
	if sc == nil {
		sc = new(scratch)
	}
	err := sc.decode(r, body, lim)
	spare.Store(sc)
	return err
}

// decode is DecodeInto's work, in sc.
func (sc *scratch) decode(r *Request, body []byte, lim Limits) error {
	// Decoded keys and values go to buf; decoding never lengthens, so
	// len(body) bytes always suffice.
	buf := sc.buf[:0]
	if len(body) > len(sc.buf) {
		buf = make([]byte, 0, len(body))
	}
	fields := sc.fields[:0]
	ents := sc.ents[:0]
	maskArr := &sc.mask
	var mask []uint8             // bit j of mask[i]: parcels[i][ParcelFieldNames[j]] seen
	var seen map[string]struct{} // top-level names, past linearFields of them
	pairs := bytes.Count(body, []byte{'&'}) + 1
	maxIdx := -1
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
		ks := len(buf)
		var ok bool
		if buf, ok = urlquery.AppendUnescape(buf, rawKey); !ok {
			return &Error{Message: msgKeyEscape}
		}
		key := buf[ks:]
		if len(key) == 0 {
			return &Error{Message: msgEmptyName}
		}
		br := nameEnd(key)
		if br <= 0 {
			return keyError(key, msgBadName)
		}
		name := key[:br]

		if br == len(key) {
			// A top-level field.
			if string(key) == "parcels" {
				return keyError(key, msgParcelsShape)
			}
			if seen != nil {
				if _, dup := seen[string(key)]; dup {
					return keyError(key, msgRepeated)
				}
			} else {
				for _, f := range fields {
					if string(buf[f.key.start:f.key.end]) == string(key) {
						return keyError(key, msgRepeated)
					}
				}
			}
			if len(fields) >= lim.MaxFields {
				return &Error{Message: withNumber(msgTooManyFields, lim.MaxFields)}
			}
			vs := len(buf)
			var msg string
			if buf, msg = appendValue(buf, rawVal, lim.MaxValueRunes); msg != "" {
				return keyError(key, msg)
			}
			fields = append(fields, fieldEntry{key: span{ks, ks + len(key)}, val: span{vs, len(buf)}})
			if seen != nil {
				seen[string(key)] = struct{}{}
			} else if len(fields) == linearFields {
				seen = make(map[string]struct{}, 2*linearFields)
				for _, f := range fields {
					seen[string(buf[f.key.start:f.key.end])] = struct{}{}
				}
			}
			continue
		}

		// parcels[<i>][<field>]
		if string(name) != "parcels" {
			return keyError(key, msgBrackets)
		}
		idx, field, msg := parseParcelKey(key[br:], indexDigits, lim.MaxParcels)
		if msg != "" {
			if msg == msgTooManyParc {
				msg = withNumber(msg, lim.MaxParcels)
			}
			return keyError(key, msg)
		}
		if mask == nil {
			if n := min(lim.MaxParcels, pairs); n <= len(maskArr) {
				mask = maskArr[:n]
				clear(mask)
			} else {
				mask = make([]uint8, n)
			}
		}
		bit := uint8(1) << field
		if idx < len(mask) {
			if mask[idx]&bit != 0 {
				return keyError(key, msgRepeated)
			}
			mask[idx] |= bit
		} else {
			// Only possible when the index is at least the number of
			// pairs, which leaves a gap anyway; still report repeats in
			// body order.
			for _, e := range ents {
				if e.idx == idx && e.field == field {
					return keyError(key, msgRepeated)
				}
			}
		}
		vs := len(buf)
		if buf, msg = appendValue(buf, rawVal, lim.MaxValueRunes); msg != "" {
			return keyError(key, msg)
		}
		ents = append(ents, parcelEntry{idx: idx, field: field, val: span{vs, len(buf)}})
		maxIdx = max(maxIdx, idx)
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

	s := string(buf)
	if cap(r.Fields) < len(fields) {
		r.Fields = make([]Field, 0, len(fields))
	}
	for _, f := range fields {
		r.Fields = append(r.Fields, Field{Name: s[f.key.start:f.key.end], Value: s[f.val.start:f.val.end]})
	}
	if n > 0 {
		if cap(r.Parcels) >= n {
			r.Parcels = r.Parcels[:n]
			clear(r.Parcels)
		} else {
			r.Parcels = make([]Parcel, n)
		}
		for _, e := range ents {
			r.Parcels[e.idx].setAt(e.field, s[e.val.start:e.val.end])
		}
	}
	return nil
}

// keyError reports msg for the decoded key, or that the key is not UTF-8
// (then without naming it, as it cannot be shown).
func keyError(key []byte, msg string) error {
	if !utf8.ValidString(view(key)) {
		return &Error{Message: msgKeyUTF8}
	}
	return &Error{Field: string(key), Message: msg}
}

// nameEnd returns the length of the name that starts key: the position
// of the first '[', or len(key). It returns -1 when a byte before that is
// not one of [A-Za-z0-9_-], and 0 for an empty name.
func nameEnd(key []byte) int {
	for i := 0; i < len(key); i++ {
		c := key[i]
		if 'a' <= c && c <= 'z' || c == '_' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || c == '-' {
			continue
		}
		if c == '[' {
			return i
		}
		return -1
	}
	return len(key)
}

// parseParcelKey parses "[<i>][<field>]" (the key after "parcels") and
// returns the index, the field's position in ParcelFieldNames, or an error
// message (msgTooManyParc still holding its %d).
func parseParcelKey(s []byte, indexDigits, maxParcels int) (idx, field int, msg string) {
	// s[0] == '['
	end := bytes.IndexByte(s, ']')
	if end < 0 {
		return 0, 0, msgUnclosed
	}
	digits := s[1:end]
	s = s[end+1:]
	switch {
	case len(digits) == 0:
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

	if len(s) == 0 {
		return 0, 0, msgNoField
	}
	if s[0] != '[' {
		return 0, 0, msgJunk
	}
	end = bytes.IndexByte(s, ']')
	if end < 0 {
		return 0, 0, msgUnclosed
	}
	name := s[1:end]
	s = s[end+1:]
	if len(s) != 0 {
		if s[0] == '[' {
			return 0, 0, msgTooDeep
		}
		return 0, 0, msgJunk
	}
	if len(name) == 0 {
		return 0, 0, msgNoField
	}
	for j := range ParcelFieldNames {
		if ParcelFieldNames[j] == string(name) {
			return idx, j, ""
		}
	}
	return 0, 0, msgUnknownParcel
}

func allDigits(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// appendValue appends raw decoded to dst, or returns an error message for
// a bad escape, invalid UTF-8, or more than maxRunes runes.
func appendValue(dst, raw []byte, maxRunes int) ([]byte, string) {
	start := len(dst)
	dst, ok := urlquery.AppendUnescape(dst, raw)
	if !ok {
		return dst, msgEscape
	}
	v := dst[start:]
	if !utf8.ValidString(view(v)) {
		return dst, msgUTF8
	}
	// A rune takes at least one byte: count only when the bytes exceed.
	if len(v) > maxRunes && utf8.RuneCountInString(view(v)) > maxRunes {
		return dst, withNumber(msgTooLong, maxRunes)
	}
	return dst, ""
}

// setAt sets the i-th field in ParcelFieldNames order.
func (p *Parcel) setAt(i int, v string) {
	if f := p.field(i); f != nil {
		*f = v
	}
}

// view is b as a string without a copy, for utf8's string checks (the
// core's other callers check strings: one validator and one counter in
// the modules, not their []byte twins); b is neither kept nor written
// while they read it.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
