package main

import (
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/testvectors"
	"github.com/parcelgate/parcelgate/wasm/internal/wire"
)

// vector is one case of testdata/requests (internal/testvectors).
type vector = testvectors.Request

// pack writes a request as js/src/core.js does.
func pack(head []string, v *vector) []byte {
	var b []byte
	for _, h := range head {
		b = wire.Append(b, h)
	}
	for _, f := range v.Request.Fields {
		b = wire.Append(wire.Append(b, f[0]), f[1])
	}
	for _, p := range v.Request.Parcels {
		b = wire.Append(b, "\x1d")
		keys := make([]string, 0, len(p))
		for k := range p {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			b = wire.Append(wire.Append(b, k), p[k])
		}
	}
	return b
}

func answerTokens(t *testing.T, n int32) []string {
	out := wire.Out()
	require.Equal(t, int(n), len(out))
	r := wire.NewReader(out)
	var tok []string
	for r.More() {
		tok = append(tok, r.Next())
	}
	return tok
}

// The request vectors give their errors and bodies through the calls the
// exports make (the JavaScript tests run the same through the module).
func TestRequestVectors(t *testing.T) {
	{
		for _, v := range testvectors.Requests(t) {
			rules := ""
			if v.Options.Rules {
				rules = "1"
			}
			tok := answerTokens(t, callValidate(pack([]string{v.Operation, rules, v.Options.Today, "", ""}, &v)))
			var got []string
			for _, e := range v.Errors {
				got = append(got, e.Field, strconv.Itoa(e.Code), e.Message)
			}
			assert.Equal(t, got, tok, v.Name)
			if v.Body != nil {
				n := callEncode(pack([]string{v.Operation}, &v), true)
				assert.Equal(t, *v.Body, string(wire.Out()[:n]), v.Name)
			}
		}
	}
}

func TestValidateOneFieldInSpanish(t *testing.T) {
	v := vector{Operation: "get-shipments-rates"}
	v.Request.Fields = [][2]string{{"from_zip_code", "99999"}, {"from_country_code", "ES"}}
	tok := answerTokens(t, callValidate(pack([]string{v.Operation, "", "", "es-ES", "from_zip_code"}, &v)))
	assert.Equal(t, []string{"from_zip_code", "400", "Los códigos postales españoles empiezan por el número de provincia, del 01 al 52."}, tok)
}

func TestUsage(t *testing.T) {
	n := callValidate(wire.Append(nil, "no-such-op"))
	assert.Equal(t, `unknown operation "no-such-op"`, string(wire.Out()))
	assert.Equal(t, -int32(len(wire.Out())), n)
}

func TestPostalPacking(t *testing.T) {
	n := callPostal(wire.Append(wire.Append(nil, "ES"), " 35001 "))
	assert.NotZero(t, n&postalValid)
	assert.Equal(t, int32(35), n>>postalProvShift&0x7ff)
	assert.Equal(t, int32(3), n>>postalZoneShift&7) // canary
	assert.Equal(t, "35001", string(wire.Out()[:n&postalLengthMask]))
	n = callPostal(wire.Append(wire.Append(wire.Append(nil, "NL"), "1234 SA"), "nl"))
	assert.Zero(t, n&postalValid)
	assert.Equal(t, "Nederlandse postcodes eindigen nooit op SA, SD of SS.", string(wire.Out()[:n]))
}

func TestLocateAndDescribe(t *testing.T) {
	tok := answerTokens(t, callLocate(wire.Append(wire.Append(nil, "ES"), "28001")))
	assert.Equal(t, []string{"Madrid", "40.4168", "-3.7038", "province"}, tok)
	assert.Zero(t, callLocate(wire.Append(wire.Append(nil, "US"), "10001")))
	tok = answerTokens(t, callDescribe(wire.Append(nil, "11")))
	assert.Equal(t, "11", tok[0])
	assert.Equal(t, "1", tok[4])
	assert.Zero(t, callDescribe(wire.Append(nil, "31")))
}

func TestCatalogIsTheExport(t *testing.T) {
	n := callCatalog()
	want := testvectors.Read(t, "catalog.json")
	assert.JSONEq(t, string(want), string(wire.Out()[:n]))
}

func TestAppendDegrees(t *testing.T) {
	for f, want := range map[float64]string{40.4168: "40.4168", -3.7038: "-3.7038", 2.5: "2.5", -0.0513: "-0.0513", 41: "41", 0.0001: "0.0001"} {
		assert.Equal(t, want+"\x1f", string(appendDegrees(nil, f)))
	}
}
