package main

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/testvectors"
	"github.com/parcelgate/parcelgate/wasm/internal/seam"
	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

// vector is one case of testdata/requests (internal/testvectors).
type vector = testvectors.Request

// request is a vector's request as the loader sends it.
func request(v *vector) form.Request {
	var r form.Request
	for _, f := range v.Request.Fields {
		r.Fields = append(r.Fields, form.Field{Name: f[0], Value: f[1]})
	}
	for _, p := range v.Request.Parcels {
		var parcel form.Parcel
		keys := make([]string, 0, len(p))
		for k := range p {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			parcel.Set(k, p[k])
		}
		r.Parcels = append(r.Parcels, parcel)
	}
	return r
}

// read reads the last call's answer (n bytes) with read, as the loader does.
func read[T any](t *testing.T, n int32, read func(*wire.Reader, *T)) T {
	t.Helper()
	require.GreaterOrEqual(t, n, int32(0), "usage error %q", wire.Out())
	out := wire.Out()
	require.Equal(t, int(n), len(out))
	r := wire.NewReader(out)
	var v T
	read(&r, &v)
	require.False(t, r.More(), "tokens left in %q", out)
	return v
}

// The request vectors give their errors and bodies through the exports'
// dispatch (the JavaScript tests run the same through the module).
func TestRequestVectors(t *testing.T) {
	for _, v := range testvectors.Requests(t) {
		in := seam.ValidateInput{Operation: v.Operation, Rules: v.Options.Rules, Today: v.Options.Today, Request: request(&v)}
		got := read(t, runValidate(seam.AppendValidateInput(nil, &in)), seam.ReadValidated)
		var want []seam.FieldError
		for _, e := range v.Errors {
			want = append(want, seam.FieldError{Field: e.Field, Code: int64(e.Code), Message: e.Message})
		}
		assert.Equal(t, want, got.Errors, v.Name)
		if v.Body != nil {
			enc := seam.EncodeInput{Operation: v.Operation, Request: request(&v)}
			body := read(t, runEncode(seam.AppendEncodeInput(nil, &enc)), seam.ReadEncoded)
			assert.Equal(t, *v.Body, body.Body, v.Name)
		}
	}
}

func TestEncodeFormKeepsTheRequestAsHeld(t *testing.T) {
	in := seam.EncodeFormInput{Request: form.Request{
		Fields:  []form.Field{{Name: "to_zip_code", Value: " 28001 "}, {Name: "from_zip_code", Value: "a&b"}},
		Parcels: []form.Parcel{{Weight: "2"}},
	}}
	got := read(t, runEncodeForm(seam.AppendEncodeFormInput(nil, &in)), seam.ReadEncoded)
	assert.Equal(t, string(form.AppendEncode(nil, &in.Request)), got.Body)
	assert.Contains(t, got.Body, "to_zip_code=+28001+")
}

func TestValidateOneFieldInSpanish(t *testing.T) {
	in := seam.ValidateInput{Operation: "get-shipments-rates", Locale: "es-ES", Field: "from_zip_code",
		Request: form.Request{Fields: []form.Field{{Name: "from_zip_code", Value: "99999"}, {Name: "from_country_code", Value: "ES"}}}}
	got := read(t, runValidate(seam.AppendValidateInput(nil, &in)), seam.ReadValidated)
	assert.Equal(t, []seam.FieldError{{Field: "from_zip_code", Code: 400, Message: "Los códigos postales españoles empiezan por el número de provincia, del 01 al 52."}}, got.Errors)
}

func TestUsage(t *testing.T) {
	for name, n := range map[string]int32{
		"validate": runValidate(seam.AppendValidateInput(nil, &seam.ValidateInput{Operation: "no-such-op"})),
		"encode":   runEncode(seam.AppendEncodeInput(nil, &seam.EncodeInput{Operation: "no-such-op"})),
	} {
		assert.Equal(t, `unknown operation "no-such-op"`, string(wire.Out()[:-n]), name)
		assert.Equal(t, -int32(len(`unknown operation "no-such-op"`)), n, name)
	}
}

func TestPostal(t *testing.T) {
	got := read(t, runPostal(seam.AppendPostalInput(nil, &seam.PostalInput{Country: "ES", Input: " 35001 "})), seam.ReadPostalResult)
	assert.Equal(t, seam.PostalResult{Valid: true, Normalized: "35001", Province: 35, Zone: "canary"}, got)
	got = read(t, runPostal(seam.AppendPostalInput(nil, &seam.PostalInput{Country: "NL", Input: "1234 SA", Locale: "nl"})), seam.ReadPostalResult)
	assert.Equal(t, seam.PostalResult{Message: "Nederlandse postcodes eindigen nooit op SA, SD of SS."}, got)
}

func TestLocateAndDescribe(t *testing.T) {
	loc := read(t, runLocate(seam.AppendLocateInput(nil, &seam.LocateInput{Country: "ES", Zip: "28001"})), seam.ReadLocated)
	assert.Equal(t, &seam.Location{City: "Madrid", Lat: 40.4168, Lon: -3.7038, Precision: "province"}, loc.Location)
	assert.Zero(t, runLocate(seam.AppendLocateInput(nil, &seam.LocateInput{Country: "US", Zip: "10001"})))
	d := read(t, runDescribe(seam.AppendDescribeInput(nil, &seam.DescribeInput{Code: "11"})), seam.ReadDescribed)
	require.NotNil(t, d.Tracking)
	assert.Equal(t, "11", d.Tracking.Code)
	assert.True(t, d.Tracking.Final)
	assert.Zero(t, runDescribe(seam.AppendDescribeInput(nil, &seam.DescribeInput{Code: "31"})))
}

func TestCatalogIsTheExport(t *testing.T) {
	got := read(t, runCatalog(), seam.ReadCatalogResult)
	assert.JSONEq(t, string(testvectors.Read(t, "catalog.json")), got.JSON)
}

func TestVersion(t *testing.T) {
	assert.Equal(t, Version, read(t, runVersion(), seam.ReadVersionResult).Version)
}
