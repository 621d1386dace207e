package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/wasm/internal/seam"
	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

// decode runs pg_decode's dispatch on the message the loader writes, and
// returns the answer's JSON (or a usage error's message) and the length
// the export returns.
func decode(op string, status int, body string) (string, int32) {
	msg := seam.AppendDecodeInput(nil, &seam.DecodeInput{Operation: op, Status: int64(status), Body: body})
	n := runDecode(msg)
	if n < 0 {
		return string(wire.Out()), n
	}
	r := wire.NewReader(wire.Out())
	var got seam.Decoded
	seam.ReadDecoded(&r, &got)
	return got.JSON, n
}

// Every response vector decodes to valid JSON with the shape the loader
// expects (the JavaScript tests compare the values in Chromium).
func TestResponseVectorsGiveJSON(t *testing.T) {
	files, err := filepath.Glob("../../testdata/responses/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var vs []struct {
			Name       string          `json:"name"`
			Operation  string          `json:"operation"`
			HTTPStatus int             `json:"http_status"`
			Body       string          `json:"body"`
			Expect     json.RawMessage `json:"expect"`
			ExpectErr  json.RawMessage `json:"expect_error"`
		}
		require.NoError(t, json.Unmarshal(b, &vs))
		for _, v := range vs {
			out, n := decode(v.Operation, v.HTTPStatus, v.Body)
			require.Positive(t, n, v.Name)
			var got struct {
				OK    bool            `json:"ok"`
				Data  json.RawMessage `json:"data"`
				Error map[string]any  `json:"error"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &got), "%s: %s", v.Name, out)
			if v.ExpectErr == nil {
				assert.True(t, got.OK, v.Name)
				assert.JSONEq(t, string(v.Expect), string(got.Data), v.Name)
			} else {
				assert.False(t, got.OK, v.Name)
				assert.IsType(t, "", got.Error["description"], v.Name)
				assert.IsType(t, "", got.Error["class"], v.Name)
			}
		}
	}
}

func TestUnknownOperationIsAUsageError(t *testing.T) {
	out, n := decode("no-such-op", 200, `{"status":"ok","data":{}}`)
	assert.Equal(t, -int32(len(out)), n)
	assert.Contains(t, out, "no-such-op")
}

// The body crosses as a token (its separator bytes escaped, wasm/internal/wire):
// a body holding them reaches the decoder byte for byte.
func TestBodyWithSeparatorBytes(t *testing.T) {
	body := "<html>\x1c\x1d\x1e\x1f é</html>"
	out, n := decode("get-client-carriers", 502, body)
	require.Positive(t, n)
	var got struct {
		OK    bool `json:"ok"`
		Error struct {
			Snippet string `json:"snippet"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	assert.False(t, got.OK)
	assert.Equal(t, body, got.Error.Snippet)
}
