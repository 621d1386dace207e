package edge

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/parcelgate/parcelgate/internal/testvectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// responseVector is an entry of testdata/responses (expect: the data as
// internal/envelope's decoder normalizes it; absent for error vectors).
type responseVector struct {
	Name       string          `json:"name"`
	Operation  string          `json:"operation"`
	HTTPStatus int             `json:"http_status"`
	Body       string          `json:"body"`
	Expect     json.RawMessage `json:"expect"`
}

// A valid request of each operation tested here.
var normalizeQueries = map[string]string{
	"get-client-carriers": "",
	"get-drop-points":     "country_code=ES&zip_code=08001",
	"get-shipments-rates": "from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001&" + url.Values{
		"parcels[0][parcel_weight]": {"2"}, "parcels[0][parcel_width]": {"20"}, "parcels[0][parcel_height]": {"10"},
		"parcels[0][parcel_length]": {"30"}, "parcels[0][parcel_volume]": {"6000"},
	}.Encode(),
}

// With Accept's parcelgate=normalized, an ok answer's data is what the
// response vectors expect (the browser's decoder gives the same), marked
// Parcelgate-Data: normalized; without it, the body is relayed unchanged;
// data of the wrong shape is relayed unchanged and unmarked either way.
func TestNormalizedData(t *testing.T) {
	n := 0
	for op, query := range normalizeQueries {
		for _, v := range testvectors.List[responseVector](t, "responses/"+op+".json") {
			vec := v.V
			if vec.HTTPStatus != 200 {
				continue
			}
			t.Run(op+": "+vec.Name, func(t *testing.T) {
				up := newFakeUpstream(t, okReply(vec.Body))
				hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
				target := "/v1/" + op
				if query != "" {
					target += "?" + query
				}
				var raw struct{ Data json.RawMessage }
				require.NoError(t, json.Unmarshal([]byte(vec.Body), &raw))
				if raw.Data[0] == '{' { // the harness reads data as an object
					plain := hs.do(t, "GET", target, "")
					require.Equal(t, 200, plain.Code, plain.Raw)
					assert.Equal(t, vec.Body, plain.Raw, "relayed unchanged when not asked")
					assert.Empty(t, plain.Header.Get(NormalizedHeader))
					assert.Contains(t, plain.Header.Values("Vary"), "Accept")
				}

				r := hs.do(t, "GET", target, "", "Accept", "application/json; parcelgate=normalized", "Origin", "https://shop.example")
				require.Equal(t, 200, r.Code, r.Raw)
				assert.Contains(t, r.Header.Get("Access-Control-Expose-Headers"), NormalizedHeader)
				if vec.Expect == nil {
					assert.Equal(t, vec.Body, r.Raw, "data of the wrong shape goes out as received")
					assert.Empty(t, r.Header.Get(NormalizedHeader))
					return
				}
				n++
				assert.Equal(t, "normalized", r.Header.Get(NormalizedHeader))
				var env struct {
					Status string          `json:"status"`
					Data   json.RawMessage `json:"data"`
				}
				require.NoError(t, json.Unmarshal([]byte(r.Raw), &env))
				assert.Equal(t, "ok", env.Status)
				assert.JSONEq(t, string(vec.Expect), string(env.Data))
			})
		}
	}
	assert.GreaterOrEqual(t, n, 8)
}

// A cached answer is normalized per request too (the cache keeps the
// upstream's body).
func TestNormalizedDataFromTheCache(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"swiftpost":{"id_carrier":"12","carrier_name":"SwiftPost","carrier_code":"swiftpost","status":"1"}}}`))
	hs := newHarness(cachingEnv(up.srv.URL+"/v1"), up.srv.Client())
	miss := hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, "MISS", miss.Header.Get("X-Cache"))
	hit := hs.do(t, "GET", "/v1/get-client-carriers", "", "Accept", "application/json;parcelgate=normalized")
	assert.Equal(t, "HIT", hit.Header.Get("X-Cache"))
	assert.Equal(t, "normalized", hit.Header.Get(NormalizedHeader))
	assert.JSONEq(t, `{"status":"ok","data":{"swiftpost":{"id_carrier":12,"carrier_name":"SwiftPost","carrier_code":"swiftpost","status":1}}}`, hit.Raw)
	again := hs.do(t, "GET", "/v1/get-client-carriers", "")
	assert.Equal(t, "HIT", again.Header.Get("X-Cache"))
	assert.Empty(t, again.Header.Get(NormalizedHeader))
	assert.Contains(t, again.Raw, `"id_carrier":"12"`)
	assert.Len(t, up.requests(), 1)
}
