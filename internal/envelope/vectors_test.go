package envelope

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/testvectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type vector struct {
	Name        string          `json:"name"`
	Operation   string          `json:"operation"`
	HTTPStatus  int             `json:"http_status"`
	Body        string          `json:"body"`
	Expect      json.RawMessage `json:"expect"`
	ExpectError *struct {
		Type           string  `json:"type"`
		Code           *int    `json:"code"`
		Class          string  `json:"class"`
		Message        *string `json:"message"`
		CarrierCode    *string `json:"carrier_code"`
		CarrierMessage *string `json:"carrier_message"`
		HTTPStatus     *int    `json:"http_status"`
		ErrorContains  string  `json:"error_contains"`
		ReasonContains string  `json:"reason_contains"`
		SnippetPrefix  string  `json:"snippet_prefix"`
		Path           string  `json:"path"`
	} `json:"expect_error"`
}

func loadVectors(t testing.TB) []vector {
	var all []vector
	for _, n := range testvectors.List[vector](t, "responses/*.json") {
		n.V.Name = n.File + ": " + n.V.Name
		all = append(all, n.V)
	}
	return all
}

func TestVectors(t *testing.T) {
	vectors := loadVectors(t)
	seen := map[string]bool{}
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			seen[v.Operation] = true
			got, err := Decode(v.Operation, v.HTTPStatus, []byte(v.Body))
			if v.ExpectError == nil {
				require.NoError(t, err)
				out := jsonlite.Marshal(got)
				require.True(t, json.Valid(out), "%s", out)
				assert.JSONEq(t, string(v.Expect), string(out))
				return
			}
			require.Error(t, err)
			want := v.ExpectError
			switch want.Type {
			case "api":
				var e *APIError
				require.True(t, errors.As(err, &e), "want *APIError, got %T: %v", err, err)
				if want.Code != nil {
					assert.Equal(t, *want.Code, e.Code)
				}
				assert.Equal(t, want.Class, e.Class())
				if want.Message != nil {
					assert.Equal(t, *want.Message, e.Message)
				}
				if want.CarrierCode != nil {
					assert.Equal(t, *want.CarrierCode, e.CarrierCode)
				}
				if want.CarrierMessage != nil {
					assert.Equal(t, *want.CarrierMessage, e.CarrierMessage)
				}
				if want.HTTPStatus != nil {
					assert.Equal(t, *want.HTTPStatus, e.HTTPStatus)
				}
			case "unexpected":
				var e *UnexpectedResponse
				require.True(t, errors.As(err, &e), "want *UnexpectedResponse, got %T: %v", err, err)
				if want.HTTPStatus != nil {
					assert.Equal(t, *want.HTTPStatus, e.HTTPStatus)
				}
				if want.Class != "" {
					assert.Equal(t, want.Class, e.Class())
				}
				assert.Contains(t, e.Reason, want.ReasonContains)
				assert.True(t, strings.HasPrefix(e.Snippet, want.SnippetPrefix), e.Snippet)
				assert.LessOrEqual(t, len(e.Snippet), 200)
			case "shape":
				var e *ShapeError
				require.True(t, errors.As(err, &e), "want *ShapeError, got %T: %v", err, err)
				assert.Equal(t, want.Path, e.Path, e.Error())
				assert.Contains(t, e.Reason, want.ReasonContains)
				assert.Equal(t, v.Operation, e.Operation)
			default:
				t.Fatalf("unknown expect_error type %q", want.Type)
			}
			assert.Contains(t, err.Error(), want.ErrorContains)
			// Errors describe themselves as valid JSON too.
			if ev, ok := err.(jsonlite.Value); ok {
				assert.True(t, json.Valid(jsonlite.Marshal(ev)))
			}
		})
	}
	for i := range catalog.Operations {
		assert.True(t, seen[catalog.Operations[i].Name], "no vector for %s", catalog.Operations[i].Name)
	}
}
