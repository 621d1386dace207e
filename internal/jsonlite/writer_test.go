package jsonlite

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriterStructure(t *testing.T) {
	w := NewWriter()
	w.BeginObject()
	w.Key("a")
	w.Int(1)
	w.Key("b")
	w.BeginArray()
	w.String("x")
	w.Float(1.5)
	w.Bool(true)
	w.Null()
	w.BeginObject()
	w.EndObject()
	w.BeginArray()
	w.EndArray()
	w.Raw([]byte(`{"r":[1]}`))
	w.Raw(nil)
	w.EndArray()
	w.Key("c")
	w.Bool(false)
	w.EndObject()
	assert.Equal(t, `{"a":1,"b":["x",1.5,true,null,{},[],{"r":[1]},null],"c":false}`, string(w.Bytes()))
	w.Reset()
	w.Int(-3)
	assert.Equal(t, `-3`, string(w.Bytes()))
}

func TestAppendString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"", `""`},
		{`q"b\s/`, `"q\"b\\s/"`},
		{"\n\r\t\b\f", `"\n\r\t\b\f"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"é€🚚", `"é€🚚"`},
		{"bad\xffutf8\xe2\x82", "\"bad\uFFFDutf8\uFFFD\uFFFD\""},
		{"<tag>&", `"<tag>&"`},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got := AppendString(nil, c.in)
			assert.Equal(t, c.want, string(got))
			assert.True(t, json.Valid(got))
			// re-scan gives the input back (with invalid UTF-8 replaced)
			back, err := NewScanner(got).String()
			require.NoError(t, err)
			var std string
			require.NoError(t, json.Unmarshal(got, &std))
			assert.Equal(t, std, back)
		})
	}
}

// AppendStringAsGo is encoding/json's spelling without HTML escaping,
// invalid UTF-8 included (each bad byte the escape \ufffd).
func TestAppendStringAsGo(t *testing.T) {
	for _, in := range []string{"plain", "", `q"b\s/`, "\n\r\t\b\f", "\x00\x01\x1f\x7f", "a\u2028b\u2029c",
		"é€🚚", "bad\xffutf8\xe2\x82", "\xed\xa0\x80", "<tag>&", "\uFFFD\xff"} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(in))
		assert.Equal(t, strings.TrimSuffix(want.String(), "\n"), string(AppendStringAsGo([]byte{}, in)), "%q", in)
	}
}

func TestAppendFloat(t *testing.T) {
	a, b := 0.1, 0.2
	cases := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-2.5, "-2.5"}, {4.95, "4.95"},
		{a + b, "0.30000000000000004"}, {1e20, "100000000000000000000"},
		{1e21, "1e+21"}, {1e-6, "0.000001"}, {1e-7, "1e-07"}, {123456789.125, "123456789.125"},
		{40.4165, "40.4165"}, {-3.70256, "-3.70256"},
		{math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"},
	}
	for _, c := range cases {
		got := AppendFloat(nil, c.in)
		assert.Equal(t, c.want, string(got), "%v", c.in)
		assert.True(t, json.Valid(got))
	}
}

type sample struct{}

func (sample) EmitTo(e Emitter) {
	e.BeginObject()
	e.Key("k")
	e.String("v")
	e.EndObject()
}

func TestMarshal(t *testing.T) {
	assert.Equal(t, `{"k":"v"}`, string(Marshal(sample{})))
	assert.Equal(t, `null`, string(Marshal(nil)))
}
