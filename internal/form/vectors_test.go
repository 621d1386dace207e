package form

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/testvectors"
)

// jsonRequest is a Request as the vectors write it.
type jsonRequest struct {
	Fields  [][2]string         `json:"fields"`
	Parcels []map[string]string `json:"parcels"`
}

func (j *jsonRequest) request(t testing.TB) *Request {
	r := &Request{}
	for _, f := range j.Fields {
		r.Fields = append(r.Fields, Field{Name: f[0], Value: f[1]})
	}
	for _, m := range j.Parcels {
		var p Parcel
		for k, v := range m {
			require.True(t, p.Set(k, v), "unknown parcel field %q in vector", k)
		}
		r.Parcels = append(r.Parcels, p)
	}
	return r
}

type jsonLimits struct {
	MaxBytes      int `json:"max_bytes"`
	MaxFields     int `json:"max_fields"`
	MaxParcels    int `json:"max_parcels"`
	MaxValueRunes int `json:"max_value_runes"`
}

type vector struct {
	Name    string       `json:"name"`
	Request *jsonRequest `json:"request"`
	Body    string       `json:"body"`
	Limits  *jsonLimits  `json:"limits"`
	Error   *struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"error"`
}

func (v *vector) limits() Limits {
	if v.Limits == nil {
		return Limits{}
	}
	return Limits{MaxBytes: v.Limits.MaxBytes, MaxFields: v.Limits.MaxFields,
		MaxParcels: v.Limits.MaxParcels, MaxValueRunes: v.Limits.MaxValueRunes}
}

func loadVectors(t testing.TB, file string) []vector {
	var list []vector
	testvectors.Load(t, "forms/"+file, &list)
	require.NotEmpty(t, list, file)
	return list
}

func TestVectorsEncode(t *testing.T) {
	for _, v := range loadVectors(t, "encode.json") {
		t.Run(v.Name, func(t *testing.T) {
			require.NotNil(t, v.Request)
			require.Nil(t, v.Error)
			r := v.Request.request(t)
			assert.Equal(t, v.Body, string(Encode(r)))
			assert.Equal(t, len(v.Body), EncodedLen(r))
			got, err := Decode([]byte(v.Body), v.limits())
			require.NoError(t, err)
			assert.True(t, r.Equal(got), "decoded %+v, want %+v", got, r)
		})
	}
}

func TestVectorsDecode(t *testing.T) {
	for _, v := range loadVectors(t, "decode.json") {
		t.Run(v.Name, func(t *testing.T) {
			require.NotNil(t, v.Request)
			want := v.Request.request(t)
			got, err := Decode([]byte(v.Body), v.limits())
			require.NoError(t, err)
			assert.True(t, want.Equal(got), "decoded %+v, want %+v", got, want)
		})
	}
}

func TestVectorsErrors(t *testing.T) {
	for _, v := range loadVectors(t, "errors.json") {
		t.Run(v.Name, func(t *testing.T) {
			require.NotNil(t, v.Error)
			r, err := Decode([]byte(v.Body), v.limits())
			assert.Nil(t, r)
			var fe *Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, v.Error.Field, fe.Field)
			assert.Equal(t, v.Error.Message, fe.Message)
		})
	}
}
