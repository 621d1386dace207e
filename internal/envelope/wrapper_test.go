package envelope

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenAgreesWithDecode: for every response vector, Open reads the
// wrapper exactly as Decode does: the same *UnexpectedResponse for a body
// that is not an envelope, else the status and data.
func TestOpenAgreesWithDecode(t *testing.T) {
	for _, v := range loadVectors(t) {
		env, err := Open(v.HTTPStatus, []byte(v.Body))
		_, derr := Decode(v.Operation, v.HTTPStatus, []byte(v.Body))
		var du *UnexpectedResponse
		if errors.As(derr, &du) {
			var u *UnexpectedResponse
			require.True(t, errors.As(err, &u), "%s: %v", v.Name, err)
			assert.Equal(t, du, u, v.Name)
			continue
		}
		require.NoError(t, err, v.Name)
		var ae *APIError
		if errors.As(derr, &ae) {
			assert.Equal(t, StatusErr, env.Status, v.Name)
			if env.Data != nil {
				d, err := ParseErrorData(env.Data)
				require.NoError(t, err, v.Name)
				assert.Equal(t, ae, d.apiError(v.HTTPStatus), v.Name)
			}
			continue
		}
		assert.Equal(t, StatusOK, env.Status, v.Name)
		if env.Data != nil {
			assert.True(t, json.Valid(env.Data), v.Name)
		}
	}
}

func TestMarshalBodies(t *testing.T) {
	ok := MarshalOK(&Cutoff{CountryCode: "ES", ZipCode: "28014", Cutoff: "18:00"})
	assert.Equal(t, `{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"18:00"}}`, string(ok))
	c, err := DecodeCutoff(200, ok)
	require.NoError(t, err)
	assert.Equal(t, "18:00", c.Cutoff)

	// The sandbox's refusal: the members it sets, nothing else.
	body := MarshalErr(&ErrorData{Code: 484, Message: "to_zip_code: format", Field: "to_zip_code"})
	assert.Equal(t, `{"status":"err","data":{"errorCode":484,"errorMessage":"to_zip_code: format","field":"to_zip_code"}}`, string(body))
	_, err = DecodeShipment(400, body)
	var ae *APIError
	require.True(t, errors.As(err, &ae))
	assert.Equal(t, &APIError{Code: 484, Message: "to_zip_code: format", HTTPStatus: 400}, ae)

	// The edge's refusal, every member, in the order clients have seen.
	yes := false
	body = MarshalErr(&ErrorData{Code: 1502, Message: "m", Source: "edge", Class: "upstream_error",
		Errors:         []FieldError{{Field: "to_zip_code", Code: 484, Message: "bad"}},
		UpstreamStatus: 500, Upstream: []byte(`{"errorCode":999}`), Retryable: &yes, Hint: "h", RequestID: "rid"})
	assert.Equal(t, `{"status":"err","data":{"errorCode":1502,"errorMessage":"m","source":"edge","errorClass":"upstream_error",`+
		`"errors":[{"field":"to_zip_code","code":484,"message":"bad"}],"upstreamStatus":500,"upstream":{"errorCode":999},`+
		`"retryable":false,"hint":"h","requestId":"rid"}}`, string(body))
	env, err := Open(502, body)
	require.NoError(t, err)
	d, err := ParseErrorData(env.Data)
	require.NoError(t, err)
	assert.Equal(t, 1502, d.Code)
	// The edge-only members are read back as unknown members: unchanged.
	again := jsonlite.Marshal(&d)
	assert.JSONEq(t, string(env.Data), string(again))
}
