package jsonlite

import (
	"math"
	"unicode/utf8"

	integers "github.com/parcelgate/parcelgate/internal/decimal"
)

// Kind is the kind of the next JSON value seen by a Scanner.
type Kind uint8

// Kinds of JSON values. Invalid means the next byte cannot start a value
// (or the input ended).
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Object
	Array
)

// String returns the lowercase JSON name of the kind ("object", "number", ...).
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Object:
		return "object"
	case Array:
		return "array"
	}
	return "invalid value"
}

// MaxRawDepth is a nesting limit for values read as a whole (Skip,
// RawText, Transcode): they keep their own stack, one byte a level, so a
// deep but valid value (a JSON Schema) costs memory, not call stack.
const MaxRawDepth = 10000

// DefaultMaxDepth is the nesting limit of a Scanner unless SetMaxDepth
// changes it.
const DefaultMaxDepth = 64

// SyntaxError reports malformed JSON at a byte offset of the input.
type SyntaxError struct {
	Offset int    // byte offset of the offending byte in the scanned input
	Msg    string // what was wrong
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return "json: " + e.Msg + " at offset " + integers.Itoa(e.Offset)
}

// TypeError reports well-formed JSON whose value has the wrong kind or an
// unusable content for what the caller asked (for example a string where a
// number was expected, or a number too large for an int64).
type TypeError struct {
	Offset int    // byte offset where the value starts
	Want   string // what the caller asked for ("number", "string", "object", ...)
	Got    string // what was there (a Kind name or a short description)
}

// Error implements error.
func (e *TypeError) Error() string {
	return "expected " + e.Want + ", got " + e.Got + " at offset " + integers.Itoa(e.Offset)
}

// Scanner is a pull decoder over one JSON text. It never allocates for
// structure, object keys or strings without escapes: the input is held as
// one immutable string and string results are substrings of it.
//
// Methods read the next value. Syntax errors, and any error returned from
// inside an Object or Array callback, are sticky: every later call returns
// them. A TypeError from a scalar read at the current position is not:
// the value is still unread and may be skipped. A Scanner never panics,
// whatever the input.
type Scanner struct {
	src      string
	pos      int
	depth    int
	maxDepth int
	err      error
}

// NewScanner returns a Scanner over a copy of b (one allocation; later
// changes to b do not affect the Scanner or the strings it returned).
func NewScanner(b []byte) *Scanner {
	s := &Scanner{}
	s.Reset(b)
	return s
}

// NewScannerString returns a Scanner over s without copying.
func NewScannerString(src string) *Scanner {
	s := &Scanner{}
	s.ResetString(src)
	return s
}

// Reset makes the Scanner read a copy of b from the start.
func (s *Scanner) Reset(b []byte) { s.ResetString(string(b)) }

// ResetString makes the Scanner read src from the start, without copying.
func (s *Scanner) ResetString(src string) {
	md := s.maxDepth
	*s = Scanner{src: src, maxDepth: md}
}

// SetMaxDepth sets the nesting limit for objects and arrays (values < 1
// restore DefaultMaxDepth).
func (s *Scanner) SetMaxDepth(n int) { s.maxDepth = n }

// Source returns the whole input as a string.
func (s *Scanner) Source() string { return s.src }

// Offset returns the byte offset of the next unread byte.
func (s *Scanner) Offset() int { return s.pos }

// Err returns the sticky error, if any.
func (s *Scanner) Err() error { return s.err }

// Seek moves the Scanner to byte offset off and clears the sticky error;
// the nesting depth is kept. It is meant for re-reading a value whose
// offset was recorded earlier (see Offset after Peek), at the same depth.
func (s *Scanner) Seek(off int) {
	if off < 0 {
		off = 0
	}
	if off > len(s.src) {
		off = len(s.src)
	}
	s.pos, s.err = off, nil
}

func (s *Scanner) limit() int {
	if s.maxDepth < 1 {
		return DefaultMaxDepth
	}
	return s.maxDepth
}

func (s *Scanner) fail(off int, msg string) error {
	if s.err == nil {
		s.err = &SyntaxError{Offset: off, Msg: msg}
	}
	return s.err
}

// stick records err as the sticky error (an object or array left half
// read cannot be resumed) and returns it.
func (s *Scanner) stick(err error) error {
	if s.err == nil {
		s.err = err
	}
	return err
}

func (s *Scanner) typeErr(want string, got Kind) error {
	// A type error is not sticky: the value is well formed and the caller
	// may Skip it and go on.
	return &TypeError{Offset: s.pos, Want: want, Got: got.String()}
}

func (s *Scanner) ws() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// Peek skips white space and returns the kind of the next value without
// consuming it. After Peek, Offset is the offset where the value starts.
// It returns Invalid at the end of input, on a byte that cannot start a
// value, or when an error is pending.
func (s *Scanner) Peek() Kind {
	if s.err != nil {
		return Invalid
	}
	s.ws()
	if s.pos >= len(s.src) {
		return Invalid
	}
	switch c := s.src[s.pos]; c {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return Number
		}
	}
	return Invalid
}

// peekOrFail is Peek that turns Invalid into a sticky syntax error.
func (s *Scanner) peekOrFail() (Kind, error) {
	if s.err != nil {
		return Invalid, s.err
	}
	k := s.Peek()
	if k == Invalid {
		if s.pos >= len(s.src) {
			return k, s.fail(s.pos, "unexpected end of input")
		}
		return k, s.fail(s.pos, "invalid character "+quoteByte(s.src[s.pos])+" looking for a value")
	}
	return k, nil
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f && c != '\'' {
		return "'" + string(rune(c)) + "'"
	}
	const hex = "0123456789abcdef"
	return "0x" + string(hex[c>>4]) + string(hex[c&15])
}

// End checks that only white space remains after the value just read.
func (s *Scanner) End() error {
	if s.err != nil {
		return s.err
	}
	s.ws()
	if s.pos < len(s.src) {
		return s.fail(s.pos, "invalid character "+quoteByte(s.src[s.pos])+" after top-level value")
	}
	return nil
}

// Object reads an object, calling fn for each member with its key. The
// Scanner is positioned at the member's value when fn runs: fn reads the
// value with any method, or returns nil without reading it and the value
// is skipped. The key is a substring of the input when it has no escapes
// (no allocation). An error from fn stops the iteration and is returned.
func (s *Scanner) Object(fn func(key string) error) error { return s.container(Object, fn, nil) }

// Array reads an array, calling fn with the index of each element. As in
// Object, fn either reads the element or returns nil and it is skipped.
func (s *Scanner) Array(fn func(i int) error) error { return s.container(Array, nil, fn) }

// container is Object (want Object, member called with each key) and
// Array (want Array, element called with each index): one loop for both.
func (s *Scanner) container(want Kind, member func(key string) error, element func(i int) error) error {
	k, err := s.peekOrFail()
	if err != nil {
		return err
	}
	if k != want {
		return s.typeErr(want.String(), k)
	}
	if s.depth >= s.limit() {
		return s.fail(s.pos, "nesting too deep")
	}
	end, after := byte('}'), "object member"
	if want == Array {
		end, after = ']', "array element"
	}
	s.depth++
	s.pos++ // '{' or '['
	s.ws()
	if s.pos < len(s.src) && s.src[s.pos] == end {
		s.pos++
		s.depth--
		return nil
	}
	for i := 0; ; i++ {
		key := ""
		if member != nil {
			if key, err = s.objectKey(); err != nil {
				return err
			}
		}
		if _, err := s.peekOrFail(); err != nil {
			return err
		}
		start := s.pos
		if member != nil {
			err = member(key)
		} else {
			err = element(i)
		}
		if err != nil {
			return s.stick(err)
		}
		if s.err != nil {
			return s.err
		}
		if s.pos == start {
			if err := s.Skip(); err != nil {
				return err
			}
		}
		s.ws()
		if s.pos >= len(s.src) {
			return s.fail(s.pos, "unexpected end of input in "+want.String())
		}
		switch s.src[s.pos] {
		case ',':
			s.pos++
		case end:
			s.pos++
			s.depth--
			return nil
		default:
			return s.fail(s.pos, "invalid character "+quoteByte(s.src[s.pos])+" after "+after)
		}
	}
}

// String reads a string value. Escapes are decoded (including \uXXXX
// surrogate pairs; a lone surrogate becomes U+FFFD) and invalid UTF-8 is
// replaced by U+FFFD. Without escapes or invalid bytes the result is a
// substring of the input and nothing is allocated.
func (s *Scanner) String() (string, error) {
	k, err := s.peekOrFail()
	if err != nil {
		return "", err
	}
	if k != String {
		return "", s.typeErr("string", k)
	}
	return s.readString()
}

// readString reads a string starting at the opening quote.
func (s *Scanner) readString() (string, error) {
	start := s.pos + 1
	end, rewrite, err := s.scanString()
	if err != nil {
		return "", err
	}
	if !rewrite {
		return s.src[start:end], nil
	}
	return s.unescape(start, end), nil
}

// scanString validates the string starting at the opening quote and moves
// past it, returning the offset of its closing quote; rewrite reports an
// escape or invalid UTF-8 (the text is not the value as it stands). Skip
// and readString share it, so both accept and refuse the same strings.
func (s *Scanner) scanString() (end int, rewrite bool, err error) {
	src := s.src
	i := s.pos + 1
	for {
		if i >= len(src) {
			return 0, false, s.fail(len(src), "unexpected end of input in string")
		}
		c := src[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return i, rewrite, nil
		case c == '\\':
			rewrite = true
			if i+1 >= len(src) {
				return 0, false, s.fail(len(src), "unexpected end of input in string escape")
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(src) {
					return 0, false, s.fail(len(src), "unexpected end of input in \\u escape")
				}
				for j := i + 2; j < i+6; j++ {
					if hexVal(src[j]) < 0 {
						return 0, false, s.fail(j, "invalid character "+quoteByte(src[j])+" in \\u escape")
					}
				}
				i += 6
			default:
				return 0, false, s.fail(i+1, "invalid escape character "+quoteByte(src[i+1]))
			}
		case c < 0x20:
			return 0, false, s.fail(i, "control character "+quoteByte(c)+" in string")
		case c < 0x80:
			i++
		default:
			r, size := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && size == 1 {
				rewrite = true
			}
			i += size
		}
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// unescape decodes src[start:end], already validated by scanString.
func (s *Scanner) unescape(start, end int) string {
	src := s.src
	b := make([]byte, 0, end-start)
	for i := start; i < end; {
		c := src[i]
		if c == '\\' {
			// Validated by scanString: the escape is whole.
			var n int
			b, n = AppendEscape(b, src[:end], i)
			i += n
			continue
		}
		if c < 0x80 {
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:end])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, src[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// scanNumber validates a number at s.pos (strict JSON grammar) and returns
// its text; isInt reports no fraction and no exponent.
func (s *Scanner) scanNumber() (text string, isInt bool, err error) {
	src := s.src
	start := s.pos
	i, isInt, bad := number(src, start)
	if bad != "" {
		if i >= len(src) {
			return "", false, s.fail(i, "unexpected end of input in number")
		}
		return "", false, s.fail(i, "invalid character "+quoteByte(src[i])+" "+bad)
	}
	s.pos = i
	return src[start:i], isInt, nil
}

// number reads the number in src from offset i (strict JSON grammar) and
// returns its end and whether it is an integer (no fraction, no exponent).
// A malformed number stops at the offending offset with bad saying where
// it was ("in number", "after decimal point" or "in exponent").
// scanNumber and ValidNumber share it.
func number(src string, i int) (end int, isInt bool, bad string) {
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && src[i] >= '1' && src[i] <= '9':
		i = digits(src, i)
	default:
		return i, false, "in number"
	}
	isInt = true
	if i < len(src) && src[i] == '.' {
		isInt = false
		d := i + 1
		if i = digits(src, d); i == d {
			return i, false, "after decimal point"
		}
	}
	if i < len(src) && src[i]|0x20 == 'e' {
		isInt = false
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		d := i
		if i = digits(src, d); i == d {
			return i, false, "in exponent"
		}
	}
	return i, isInt, ""
}

// digits returns the offset of the first byte at or after i of src that
// is not a decimal digit.
func digits(src string, i int) int {
	for i < len(src) && src[i] >= '0' && src[i] <= '9' {
		i++
	}
	return i
}

// NumberText reads a number and returns its literal text (a substring of
// the input, no allocation).
func (s *Scanner) NumberText() (string, error) {
	k, err := s.peekOrFail()
	if err != nil {
		return "", err
	}
	if k != Number {
		return "", s.typeErr("number", k)
	}
	t, _, err := s.scanNumber()
	return t, err
}

// Float reads a number as a float64.
func (s *Scanner) Float() (float64, error) {
	if _, err := s.peekOrFail(); err != nil {
		return 0, err
	}
	off := s.pos
	t, err := s.NumberText()
	if err != nil {
		return 0, err
	}
	f, perr := parseFloat(t)
	if perr != nil {
		s.pos = off
		return 0, &TypeError{Offset: off, Want: "number within float64 range", Got: short(t)}
	}
	return f, nil
}

// Int reads a number as an int64. A number written with a fraction or an
// exponent is accepted when its value is a whole number in range (2.0, 1e3).
func (s *Scanner) Int() (int64, error) {
	if _, err := s.peekOrFail(); err != nil {
		return 0, err
	}
	off := s.pos
	t, err := s.NumberText()
	if err != nil {
		return 0, err
	}
	n, ok := parseIntText(t)
	if !ok {
		s.pos = off
		return 0, &TypeError{Offset: off, Want: "integer", Got: short(t)}
	}
	return n, nil
}

// parseIntText parses a JSON number text as an int64, accepting integral
// values written with a fraction or exponent. internal/decimal's ParseInt, not
// strconv's: under TinyGo strconv's parser compares its errors as
// interfaces, which links internal/reflectlite into the modules.
func parseIntText(t string) (int64, bool) {
	if n, ok := integers.ParseInt(t); ok {
		return n, true
	}
	f, err := parseFloat(t)
	if err != nil || f != math.Trunc(f) || f < -9.2e18 || f > 9.2e18 {
		return 0, false
	}
	return int64(f), true
}

// Bool reads true or false.
func (s *Scanner) Bool() (bool, error) {
	k, err := s.peekOrFail()
	if err != nil {
		return false, err
	}
	if k != Bool {
		return false, s.typeErr("boolean", k)
	}
	if s.literal("true") {
		return true, nil
	}
	if s.literal("false") {
		return false, nil
	}
	return false, s.fail(s.pos, "invalid literal")
}

// Null reads null.
func (s *Scanner) Null() error {
	k, err := s.peekOrFail()
	if err != nil {
		return err
	}
	if k != Null {
		return s.typeErr("null", k)
	}
	if s.literal("null") {
		return nil
	}
	return s.fail(s.pos, "invalid literal")
}

func (s *Scanner) literal(lit string) bool {
	if len(s.src)-s.pos >= len(lit) && s.src[s.pos:s.pos+len(lit)] == lit {
		s.pos += len(lit)
		return true
	}
	return false
}

// Skip reads and discards the next value, validating it fully.
func (s *Scanner) Skip() error { return s.walk(nil) }

// walk reads the next value, validating it, and replays it to e (nil:
// discards it). It keeps its own stack of open containers, one byte each,
// instead of recursing, so a deep value costs memory, not call stack
// (TinyGo's is 64 KB in the browser); the nesting limit still applies.
func (s *Scanner) walk(e Emitter) error {
	var open []byte // '{' or '[' of each container not yet closed
	for {
		// At the start of a value.
		k, err := s.peekOrFail()
		if err != nil {
			return err
		}
		closed := true
		if k == Object || k == Array {
			if len(open)+s.depth >= s.limit() {
				return s.fail(s.pos, "nesting too deep")
			}
			c := s.src[s.pos]
			s.pos++
			if e != nil {
				if c == '{' {
					e.BeginObject()
				} else {
					e.BeginArray()
				}
			}
			s.ws()
			if s.pos < len(s.src) && (c == '{' && s.src[s.pos] == '}' || c == '[' && s.src[s.pos] == ']') {
				s.pos++
				if e != nil {
					if c == '{' {
						e.EndObject()
					} else {
						e.EndArray()
					}
				}
			} else {
				open = append(open, c)
				closed = false
				if c == '{' {
					if err := s.memberKey(e); err != nil {
						return err
					}
				}
			}
		} else if err := s.scalar(k, e); err != nil {
			return err
		}
		// After a value: close what ends here, or go on to the next one.
		for closed {
			if len(open) == 0 {
				return nil
			}
			s.ws()
			top := open[len(open)-1]
			if s.pos >= len(s.src) {
				if top == '{' {
					return s.fail(s.pos, "unexpected end of input in object")
				}
				return s.fail(s.pos, "unexpected end of input in array")
			}
			switch c := s.src[s.pos]; {
			case c == ',':
				s.pos++
				if top == '{' {
					if err := s.memberKey(e); err != nil {
						return err
					}
				}
				closed = false
			case top == '{' && c == '}', top == '[' && c == ']':
				s.pos++
				open = open[:len(open)-1]
				if e != nil {
					if top == '{' {
						e.EndObject()
					} else {
						e.EndArray()
					}
				}
			case top == '{':
				return s.fail(s.pos, "invalid character "+quoteByte(c)+" after object member")
			default:
				return s.fail(s.pos, "invalid character "+quoteByte(c)+" after array element")
			}
		}
	}
}

// scalar reads a string, number, boolean or null of kind k and replays it
// to e (nil: discards it). Numbers go to e as Raw with their literal text,
// which keeps their precision; strings are decoded (valid UTF-8).
func (s *Scanner) scalar(k Kind, e Emitter) error {
	switch k {
	case String:
		if e == nil {
			return s.skipString()
		}
		v, err := s.readString()
		if err != nil {
			return err
		}
		e.String(v)
	case Number:
		t, _, err := s.scanNumber()
		if err != nil {
			return err
		}
		if e != nil {
			e.Raw([]byte(t))
		}
	case Bool:
		v, err := s.Bool()
		if err != nil {
			return err
		}
		if e != nil {
			e.Bool(v)
		}
	default:
		if err := s.Null(); err != nil {
			return err
		}
		if e != nil {
			e.Null()
		}
	}
	return nil
}

// memberKey reads an object member's `"key":` (replaying the key to e),
// leaving the Scanner at its value.
func (s *Scanner) memberKey(e Emitter) error {
	key, err := s.objectKey()
	if err == nil && e != nil {
		e.Key(key)
	}
	return err
}

// objectKey reads an object member's `"key":`, leaving the Scanner at its
// value. Skip decodes keys too: one path is less code, and a key rarely
// has an escape to decode.
func (s *Scanner) objectKey() (string, error) {
	s.ws()
	if s.pos >= len(s.src) {
		return "", s.fail(s.pos, "unexpected end of input in object")
	}
	if s.src[s.pos] != '"' {
		return "", s.fail(s.pos, "invalid character "+quoteByte(s.src[s.pos])+" looking for an object key")
	}
	key, err := s.readString()
	if err != nil {
		return "", err
	}
	s.ws()
	if s.pos >= len(s.src) {
		return "", s.fail(s.pos, "unexpected end of input after object key")
	}
	if s.src[s.pos] != ':' {
		return "", s.fail(s.pos, "invalid character "+quoteByte(s.src[s.pos])+" after object key")
	}
	s.pos++
	return key, nil
}

// skipString validates a string without decoding it.
func (s *Scanner) skipString() error {
	_, _, err := s.scanString()
	return err
}

// RawText reads the next value, validating it, and returns its JSON text
// exactly as in the input (a substring, no allocation).
func (s *Scanner) RawText() (string, error) {
	if _, err := s.peekOrFail(); err != nil {
		return "", err
	}
	start := s.pos
	if err := s.Skip(); err != nil {
		return "", err
	}
	return s.src[start:s.pos], nil
}

// Transcode reads the next value and replays it to e as events. Strings
// are decoded (so e sees valid UTF-8) and numbers are passed as Raw with
// their literal text, which keeps their precision.
func (s *Scanner) Transcode(e Emitter) error { return s.walk(e) }
