package envelope

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wireValue is what the generated decoders give every wire type.
type wireValue interface {
	jsonlite.Value
	decode(s *jsonlite.Scanner) error
}

// decodeBytes decodes b into a fresh value and checks the whole input was
// read.
func decodeBytes(t *testing.T, fresh func() wireValue, b []byte) wireValue {
	t.Helper()
	v := fresh()
	s := jsonlite.NewScanner(b)
	require.NoError(t, v.decode(s), "%s", b)
	require.NoError(t, s.End())
	return v
}

// testRoundTrip is the body of the generated TestWire* tests
// (wire_gen_test.go): sample has every member of the type and an unknown
// one; keys are the keys its emission must have.
func testRoundTrip(t *testing.T, fresh func() wireValue, sample string, keys []string, zero bool) {
	v := decodeBytes(t, fresh, []byte(sample))
	out := jsonlite.Marshal(v)
	require.True(t, json.Valid(out), "%s", out)

	var got any
	require.NoError(t, json.Unmarshal(out, &got))
	if obj, ok := got.(map[string]any); ok {
		var have []string
		for k := range obj {
			if k != "zz_unknown" {
				have = append(have, k)
			}
		}
		sort.Strings(have)
		assert.Equal(t, keys, have, "emitted keys")
		assert.JSONEq(t, `{"kept":[1,"two",null,{"x":true}]}`, string(mustMarshal(t, obj["zz_unknown"])), "unknown member passed through")
	}

	// The emission is a fixed point: decoding it and emitting again gives
	// the same bytes.
	again := jsonlite.Marshal(decodeBytes(t, fresh, out))
	assert.Equal(t, string(out), string(again))

	if zero {
		first := jsonlite.Marshal(decodeBytes(t, fresh, jsonlite.Marshal(fresh())))
		second := jsonlite.Marshal(decodeBytes(t, fresh, first))
		assert.Equal(t, string(first), string(second), "zero value")
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
