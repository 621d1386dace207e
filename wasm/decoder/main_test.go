package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

func decode(op string, status int, body string) (string, int32) {
	msg := wire.Append(nil, op)
	msg = wire.Append(msg, strconv.Itoa(status))
	msg = append(msg, body...)
	n := callDecode(msg)
	return string(wire.Out()), n
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
			require.Equal(t, int32(len(out)), n, v.Name)
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
