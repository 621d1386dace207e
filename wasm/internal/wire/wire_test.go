package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/parcelgate/parcelgate/internal/form"
)

func TestTokensRoundTrip(t *testing.T) {
	tokens := []string{"", "a", "ñandú", "x\x1fy", "\x1c\x1d\x1e\x1f", "\x1cc", "line\nbreak", "\xff"}
	var b []byte
	for _, s := range tokens {
		b = Append(b, s)
	}
	r := NewReader(b)
	for _, want := range tokens {
		assert.True(t, r.More())
		assert.Equal(t, want, r.Next())
	}
	assert.False(t, r.More())
	assert.Equal(t, "", r.Next())
}

func TestReadRequest(t *testing.T) {
	var b []byte
	for _, s := range []string{"to_zip_code", " 28001 ", "to_city", "Madrid", "to_zip_code", "28002",
		"\x1d", "parcel_weight", "1.5", "\x1d", "parcel_width", "3", "parcel_colour", "red"} {
		b = Append(b, s)
	}
	var req form.Request
	req.Fields = append(req.Fields, form.Field{Name: "stale", Value: "x"})
	r := NewReader(b)
	ReadRequest(&r, &req)
	assert.Equal(t, []form.Field{{Name: "to_zip_code", Value: "28002"}, {Name: "to_city", Value: "Madrid"}}, req.Fields)
	assert.Equal(t, []form.Parcel{{Weight: "1.5"}, {Width: "3"}}, req.Parcels)
}

func TestAppendInt(t *testing.T) {
	assert.Equal(t, "0\x1f-12\x1f1234567\x1f", string(AppendInt(AppendInt(AppendInt(nil, 0), -12), 1234567)))
}

func TestInputGrows(t *testing.T) {
	a := Input(10)
	assert.GreaterOrEqual(t, len(a), 10)
	copy(a, "hello")
	assert.Equal(t, "hello", string(Request(5)))
	assert.GreaterOrEqual(t, len(Input(1000)), 1000)
	assert.Nil(t, Request(-1))
}

func TestAppendFloat4(t *testing.T) {
	for f, want := range map[float64]string{40.4168: "40.4168", -3.7038: "-3.7038", 2.5: "2.5", -0.0513: "-0.0513", 41: "41", 0.0001: "0.0001"} {
		got := AppendFloat4(nil, f)
		assert.Equal(t, want+"\x1f", string(got))
		assert.Equal(t, f, ParseFloat(want))
	}
}

func TestIntTokens(t *testing.T) {
	for _, n := range []int{0, 7, -42, 400, 1 << 40} {
		r := NewReader(AppendInt(nil, n))
		assert.Equal(t, int64(n), ParseInt(r.Next()))
	}
	assert.Equal(t, "1\x1f", string(AppendBool(nil, true)))
	assert.Equal(t, "\x1f", string(AppendBool(nil, false)))
}
