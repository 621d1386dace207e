package core

import (
	"github.com/parcelgate/parcelgate/worker/core/seam"

	"encoding/json"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/testvectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// responseVector is an entry of testdata/responses (expect: the data as
// internal/envelope's decoder normalizes it; absent where the data has the
// wrong shape).
type responseVector struct {
	Name       string          `json:"name"`
	Operation  string          `json:"operation"`
	HTTPStatus int             `json:"http_status"`
	Body       string          `json:"body"`
	Expect     json.RawMessage `json:"expect"`
}

// Every ok response vector of every operation, through the module's call:
// normalized as the vectors (and the browser's decoder) expect, or, for
// data of the wrong shape, the body as received and unmarked.
func TestNormalizeFollowsTheResponseVectors(t *testing.T) {
	var c Calls
	n := 0
	for _, v := range testvectors.List[responseVector](t, "responses/*.json") {
		vec := v.V
		if vec.HTTPStatus != 200 || vec.Operation == "" || !strings.Contains(vec.Body, `"ok"`) {
			continue
		}
		name := vec.Operation + ": " + vec.Name
		head, raw := call(&c, seam.MethodNormalize, []byte(`{"operation":"`+vec.Operation+`"}`), []byte(vec.Body))
		var got struct{ Normalized bool }
		require.NoError(t, json.Unmarshal(head, &got), name)
		if vec.Expect == nil {
			assert.False(t, got.Normalized, name)
			assert.Equal(t, vec.Body, string(raw), name)
			continue
		}
		n++
		require.True(t, got.Normalized, name)
		var env struct {
			Status string          `json:"status"`
			Data   json.RawMessage `json:"data"`
		}
		require.NoError(t, json.Unmarshal(raw, &env), name)
		assert.Equal(t, "ok", env.Status)
		assert.JSONEq(t, string(vec.Expect), string(env.Data), name)
	}
	assert.Greater(t, n, 13, "ok vectors normalized")
	// An unknown operation is never decoded.
	head, raw := call(&c, seam.MethodNormalize, []byte(`{"operation":"no-such-op"}`), []byte(`{"status":"ok","data":{}}`))
	assert.JSONEq(t, `{"normalized":false,"$raw":[["body",25]]}`, string(head))
	assert.Equal(t, `{"status":"ok","data":{}}`, string(raw))
}
