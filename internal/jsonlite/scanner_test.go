package jsonlite

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPeek(t *testing.T) {
	cases := []struct {
		in   string
		want Kind
	}{
		{`  {}`, Object}, {`[1]`, Array}, {`"x"`, String}, {`-1`, Number}, {`0`, Number},
		{`true`, Bool}, {`false`, Bool}, {`null`, Null}, {``, Invalid}, {`   `, Invalid},
		{`}`, Invalid}, {`+1`, Invalid}, {`x`, Invalid},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			s := NewScannerString(c.in)
			assert.Equal(t, c.want, s.Peek())
		})
	}
}

func TestStringDecoding(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain", `"hello"`, "hello"},
		{"empty", `""`, ""},
		{"utf8", `"Cádiz €"`, "Cádiz €"},
		{"simple escapes", `"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{"unicode escape", `"\u00e9\u20AC"`, "é€"},
		{"surrogate pair", `"\ud83d\ude9a truck"`, "🚚 truck"},
		{"lone high surrogate", `"\ud83dx"`, "\uFFFDx"},
		{"high then non-low", `"\ud83d\u0041"`, "\uFFFDA"},
		{"lone low surrogate", `"\ude9a"`, "\uFFFD"},
		{"high at end", `"\ud83d"`, "\uFFFD"},
		{"invalid utf8", "\"a\xffb\"", "a\uFFFDb"},
		{"truncated utf8", "\"a\xe2\x82\"", "a\uFFFD\uFFFD"},
		{"escape and utf8", `"\n é"`, "\n é"},
		{"u2028 literal", "\"a\u2028b\"", "a\u2028b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewScannerString(c.in)
			got, err := s.String()
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
			require.NoError(t, s.End())
		})
	}
}

func TestStringNoAllocWithoutEscapes(t *testing.T) {
	src := `{"key":"value with ünïcode","n":12}`
	s := NewScannerString(src)
	allocs := testing.AllocsPerRun(100, func() {
		s.ResetString(src)
		_ = s.Object(func(k string) error {
			if k == "key" {
				_, err := s.String()
				return err
			}
			return nil
		})
	})
	assert.Zero(t, allocs)
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		name, in string
		off      int
		msg      string
	}{
		{"empty", ``, 0, "unexpected end of input"},
		{"bad start", `@`, 0, "invalid character '@'"},
		{"unterminated string", `"abc`, 4, "unexpected end of input in string"},
		{"control char", "\"a\nb\"", 2, "control character"},
		{"bad escape", `"\x"`, 2, "invalid escape"},
		{"bad unicode escape", `"\u12g4"`, 5, `in \u escape`},
		{"short unicode escape", `"\u12`, 5, "unexpected end of input"},
		{"object missing colon", `{"a" 1}`, 5, "after object key"},
		{"object trailing comma", `{"a":1,}`, 7, "looking for an object key"},
		{"object unquoted key", `{a:1}`, 1, "looking for an object key"},
		{"object missing comma", `{"a":1 "b":2}`, 7, "after object member"},
		{"array trailing comma", `[1,]`, 3, "looking for a value"},
		{"array missing comma", `[1 2]`, 3, "after array element"},
		{"unclosed array", `[1,2`, 4, "unexpected end of input in array"},
		{"leading zero", `01`, 1, "after top-level value"},
		{"lone minus", `-`, 1, "unexpected end of input in number"},
		{"bare dot", `1.`, 2, "unexpected end of input in number"},
		{"dot then letter", `1.e5`, 2, "after decimal point"},
		{"bad exponent", `1e+`, 3, "unexpected end of input in number"},
		{"bad literal", `nul`, 0, "invalid literal"},
		{"trailing garbage", `{} x`, 3, "after top-level value"},
		{"tru", `[tru]`, 1, "invalid literal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewScannerString(c.in)
			err := s.Skip()
			if err == nil {
				err = s.End()
			}
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "want SyntaxError, got %v", err)
			assert.Equal(t, c.off, se.Offset, se.Error())
			assert.Contains(t, se.Error(), c.msg)
			// sticky
			assert.Equal(t, err, s.Skip())
		})
	}
}

func TestDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	require.NoError(t, NewScannerString(deep).Skip())
	tooDeep := strings.Repeat("[", 65) + strings.Repeat("]", 65)
	err := NewScannerString(tooDeep).Skip()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nesting too deep")

	s := NewScannerString(`{"a":{"b":{}}}`)
	s.SetMaxDepth(2)
	assert.ErrorContains(t, s.Skip(), "nesting too deep")

	// A huge nesting must not blow the stack.
	huge := strings.Repeat(`{"a":[`, 100000)
	assert.Error(t, NewScannerString(huge).Skip())
}

func TestObjectAndArrayIteration(t *testing.T) {
	src := `{"a": 1, "skipped": {"x": [1, {"y": "z"}]}, "arr": [true, null, "s"], "esc\u0061ped": 2}`
	s := NewScannerString(src)
	var keys []string
	var arr []Kind
	var a, esc int64
	err := s.Object(func(k string) error {
		keys = append(keys, k)
		switch k {
		case "a":
			v, err := s.Int()
			a = v
			return err
		case "arr":
			return s.Array(func(i int) error {
				arr = append(arr, s.Peek())
				return nil // skipped automatically
			})
		case "escaped":
			v, err := s.Int()
			esc = v
			return err
		}
		return nil
	})
	require.NoError(t, err)
	require.NoError(t, s.End())
	assert.Equal(t, []string{"a", "skipped", "arr", "escaped"}, keys)
	assert.Equal(t, []Kind{Bool, Null, String}, arr)
	assert.EqualValues(t, 1, a)
	assert.EqualValues(t, 2, esc)
}

func TestCallbackErrorStops(t *testing.T) {
	stop := errors.New("stop")
	s := NewScannerString(`[1,2,3]`)
	n := 0
	err := s.Array(func(i int) error {
		n++
		if i == 1 {
			return stop
		}
		return nil
	})
	assert.Equal(t, stop, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, stop, s.Skip(), "error is sticky")
}

func TestTypeErrors(t *testing.T) {
	s := NewScannerString(`"12"`)
	_, err := s.Int()
	var te *TypeError
	require.True(t, errors.As(err, &te))
	assert.Equal(t, "number", te.Want)
	assert.Equal(t, "string", te.Got)
	// not sticky: the value can still be read
	v, err := s.String()
	require.NoError(t, err)
	assert.Equal(t, "12", v)

	s = NewScannerString(`1.5`)
	_, err = s.Int()
	require.True(t, errors.As(err, &te))
	f, err := s.Float()
	require.NoError(t, err)
	assert.Equal(t, 1.5, f)

	s = NewScannerString(`1e400`)
	_, err = s.Float()
	assert.ErrorContains(t, err, "float64 range")

	for _, c := range []struct {
		in   string
		call func(*Scanner) error
		want string
	}{
		{`{}`, func(s *Scanner) error { _, e := s.String(); return e }, "expected string, got object at offset 0"},
		{` []`, func(s *Scanner) error { return s.Object(nil) }, "expected object, got array at offset 1"},
		{`1`, func(s *Scanner) error { return s.Array(nil) }, "expected array, got number at offset 0"},
		{`1`, func(s *Scanner) error { _, e := s.Bool(); return e }, "expected boolean, got number at offset 0"},
		{`1`, func(s *Scanner) error { return s.Null() }, "expected null, got number at offset 0"},
	} {
		assert.EqualError(t, c.call(NewScannerString(c.in)), c.want)
	}
}

func TestNumbers(t *testing.T) {
	cases := []struct {
		in    string
		f     float64
		n     int64
		intOK bool
	}{
		{"0", 0, 0, true}, {"-0", 0, 0, true}, {"42", 42, 42, true}, {"-7", -7, -7, true},
		{"2.0", 2, 2, true}, {"1e3", 1000, 1000, true}, {"1.25", 1.25, 0, false},
		{"9223372036854775807", 9223372036854775807, 9223372036854775807, true},
		{"1E-2", 0.01, 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			f, err := NewScannerString(c.in).Float()
			require.NoError(t, err)
			assert.Equal(t, c.f, f)
			n, err := NewScannerString(c.in).Int()
			if c.intOK {
				require.NoError(t, err)
				assert.Equal(t, c.n, n)
			} else {
				assert.Error(t, err)
			}
			txt, err := NewScannerString(c.in).NumberText()
			require.NoError(t, err)
			assert.Equal(t, c.in, txt)
		})
	}
}

func TestLooseReaders(t *testing.T) {
	floats := []struct {
		in     string
		f      float64
		ok     bool
		errSub string
	}{
		{`4.5`, 4.5, true, ""},
		{`"4.50"`, 4.5, true, ""},
		{`" 12 "`, 12, true, ""},
		{`""`, 0, false, ""},
		{`null`, 0, false, ""},
		{`"abc"`, 0, false, `expected number, got string "abc"`},
		{`"4,5"`, 0, false, "expected number"},
		{`"NaN"`, 0, false, "expected number"},
		{`"0x10"`, 0, false, "expected number"},
		{`true`, 0, false, "expected number, got boolean"},
		{`{}`, 0, false, "expected number, got object"},
	}
	for _, c := range floats {
		t.Run("float "+c.in, func(t *testing.T) {
			f, ok, err := NewScannerString(c.in).LooseFloat()
			if c.errSub != "" {
				assert.ErrorContains(t, err, c.errSub)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.f, f)
			assert.Equal(t, c.ok, ok)
		})
	}
	ints := []struct {
		in  string
		n   int64
		ok  bool
		err bool
	}{
		{`7`, 7, true, false}, {`"7"`, 7, true, false}, {`"-2"`, -2, true, false},
		{`""`, 0, false, false}, {`null`, 0, false, false}, {`"7.5"`, 0, false, true},
		{`7.0`, 7, true, false}, {`[]`, 0, false, true},
	}
	for _, c := range ints {
		t.Run("int "+c.in, func(t *testing.T) {
			n, ok, err := NewScannerString(c.in).LooseInt()
			if c.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.n, n)
			assert.Equal(t, c.ok, ok)
		})
	}
	strs := []struct {
		in, want string
		err      bool
	}{
		{`"x"`, "x", false}, {`12.50`, "12.50", false}, {`null`, "", false},
		{`true`, "true", false}, {`false`, "false", false}, {`{}`, "", true}, {`[]`, "", true},
	}
	for _, c := range strs {
		t.Run("string "+c.in, func(t *testing.T) {
			v, err := NewScannerString(c.in).LooseString()
			if c.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, v)
		})
	}
	bools := []struct {
		in   string
		want bool
		err  bool
	}{
		{`true`, true, false}, {`false`, false, false}, {`1`, true, false}, {`0`, false, false},
		{`"1"`, true, false}, {`"0"`, false, false}, {`""`, false, false}, {`null`, false, false},
		{`"true"`, true, false}, {`"yes"`, false, true}, {`{}`, false, true},
	}
	for _, c := range bools {
		t.Run("bool "+c.in, func(t *testing.T) {
			v, err := NewScannerString(c.in).LooseBool()
			if c.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, v)
		})
	}
}

func TestRawTextAndSeek(t *testing.T) {
	s := NewScanner([]byte(`{"a": {"b": [1, 2]} , "c": 3}`))
	var raw string
	var at int
	require.NoError(t, s.Object(func(k string) error {
		if k == "a" {
			at = s.Offset()
			var err error
			raw, err = s.RawText()
			return err
		}
		return nil
	}))
	assert.Equal(t, `{"b": [1, 2]}`, raw)
	s.Seek(at)
	raw2, err := s.RawText()
	require.NoError(t, err)
	assert.Equal(t, raw, raw2)
}

func TestNewScannerCopiesInput(t *testing.T) {
	b := []byte(`"abc"`)
	s := NewScanner(b)
	b[1] = 'X'
	v, err := s.String()
	require.NoError(t, err)
	assert.Equal(t, "abc", v)
}

func TestTranscode(t *testing.T) {
	in := ` { "a" : [ 1 , 2.50, -3e2 ] , "s" : "\u00e9\n" , "t" : true , "n" : null , "o" : { } , "e": [] } `
	w := NewWriter()
	s := NewScannerString(in)
	require.NoError(t, s.Transcode(w))
	require.NoError(t, s.End())
	assert.Equal(t, `{"a":[1,2.50,-3e2],"s":"é\n","t":true,"n":null,"o":{},"e":[]}`, string(w.Bytes()))
	assert.True(t, json.Valid(w.Bytes()))
}

// Every case of a compliance-style list must agree with encoding/json on
// validity.
func TestValidityAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`{}`, `[]`, `""`, `0`, `-0.0e-0`, `1E+9`, `[1,[2,[3]]]`, `{"a":{"b":null}}`,
		`{"a":1,}`, `[,]`, `[1,,2]`, `01`, `.5`, `1.`, `-`, `"\u"`, `"\uD800"`, `"\/"`,
		` [ true , false ] `, `nulll`, `{"a" "b"}`, `{"a":}`, `[1]]`, "\"\t\"", `"\'"`,
		`{"":""}`, `[1e]`, `[-a]`, `{"a":1}{}`, "\ufeff{}",
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			s := NewScannerString(in)
			err := s.Skip()
			if err == nil {
				err = s.End()
			}
			assert.Equal(t, json.Valid([]byte(in)), err == nil, "err=%v", err)
		})
	}
}

// Deep values read as a whole use no call stack: Skip, RawText and
// Transcode of a 5,000-level value under MaxRawDepth.
func TestDeepValuesReadAsAWhole(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 2500) + `{"type":"string"}` + strings.Repeat(`}}`, 2500)
	s := NewScannerString(deep)
	s.SetMaxDepth(MaxRawDepth)
	raw, err := s.RawText()
	require.NoError(t, err)
	assert.Equal(t, deep, raw)
	w := NewWriter()
	s = NewScannerString(deep)
	s.SetMaxDepth(MaxRawDepth)
	require.NoError(t, s.Transcode(w))
	assert.Equal(t, deep, string(w.Bytes()))
	// Errors deep inside are still found.
	bad := strings.Replace(deep, `"string"`, `"string",}`, 1)
	s = NewScannerString(bad)
	s.SetMaxDepth(MaxRawDepth)
	assert.ErrorContains(t, s.Skip(), "looking for an object key")
}
