package edge

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/validate"
)

func TestConfigHardening(t *testing.T) {
	load := func(kv ...string) (Config, []ConfigError) {
		e := baseEnv("https://api.example.com/v1")
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i]] = kv[i+1]
		}
		return LoadConfig(func(k string) string { return e[k] })
	}
	names := func(errs []ConfigError) string {
		var s []string
		for _, e := range errs {
			s = append(s, e.Error())
		}
		return strings.Join(s, "; ")
	}
	_, errs := load(EnvProxyToken, strings.Repeat("x", 31))
	assert.Contains(t, names(errs), "PROXY_TOKEN: must be at least 32 characters")
	_, errs = load(EnvProxyToken, strings.Repeat("é", 32))
	assert.Empty(t, errs, "characters, not bytes")

	for _, op := range []string{"new-shipment", "new-collection", "get-shipments"} {
		_, errs = load(EnvPublicOperations, "get-drop-points,"+op)
		assert.Contains(t, names(errs), "PUBLIC_OPERATIONS: "+op+" can never be public")
	}
	c, errs := load(EnvPublicOperations, "none")
	assert.Empty(t, errs)
	assert.False(t, c.Public("get-drop-points"))
	// Set but empty, where the platform can tell: none.
	e := baseEnv("https://api.example.com/v1")
	e[EnvPublicOperations] = ""
	c, errs = loadConfig(func(k string) string { return e[k] }, func(k string) (string, bool) { v, ok := e[k]; return v, ok })
	assert.Empty(t, errs)
	assert.Empty(t, c.PublicOps)
	c, _ = load()
	assert.True(t, c.Public("get-drop-points"), "unset: the defaults")

	c, errs = load(EnvAllowedOrigins, "HTTPS://Shop.Example/, http://localhost:8787, https://a.example:443, *")
	assert.Empty(t, errs)
	assert.Equal(t, []string{"https://shop.example", "http://localhost:8787", "https://a.example", "*"}, c.AllowedOrigins)
	for _, bad := range []string{"https://shop.example/path", "https://user@shop.example", "https://shop.example?x", "ftp://shop.example", "shop.example", "https://shop.example:"} {
		_, errs = load(EnvAllowedOrigins, bad)
		assert.Contains(t, names(errs), "ALLOWED_ORIGINS", bad)
	}

	_, errs = load(EnvTokenSigningKey, "short")
	assert.Contains(t, names(errs), "TOKEN_SIGNING_KEY: must be at least 32 bytes")
	_, errs = load(EnvTokenSigningKey, testToken)
	assert.Contains(t, names(errs), "TOKEN_SIGNING_KEY: must differ")
}

func TestPostWithQuery(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{}}`))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	r := hs.do(t, "POST", "/v1/get-drop-points?carrier_code=x", "country_code=ES&zip_code=28001")
	assert.Equal(t, 400, r.Code)
	assert.True(t, strings.HasPrefix(r.message(), "query string: "), r.message())
	assert.Empty(t, up.requests())
}

func TestTransportFailureMessageIsFixed(t *testing.T) {
	up := DoerFunc(func(r *http.Request) (*http.Response, error) {
		return nil, errors.New("dial tcp 10.1.2.3:443: connect: connection refused (https://internal.example/v1)")
	})
	hs := newHarness(baseEnv("https://internal.example/v1"), up)
	r := hs.do(t, "GET", "/v1/get-drop-points?country_code=ES&zip_code=28001", "")
	assert.Equal(t, 502, r.Code)
	assert.Equal(t, "the upstream could not be reached", r.message())
	assert.NotContains(t, r.Raw, "10.1.2.3")
	assert.NotContains(t, r.Raw, "internal.example")
	assert.Contains(t, hs.log.String(), "10.1.2.3", "the details are in the log line")
}

func TestUpstreamLeakWithheld(t *testing.T) {
	pair := testUser + ":" + testKey
	for name, body := range map[string]string{
		"key":          `{"status":"ok","data":{"debug":"` + testKey + `"}}`,
		"pair":         `{"status":"err","data":{"errorMessage":"bad ` + pair + `"}}`,
		"basic header": `{"status":"ok","data":{"h":"Basic ` + base64.StdEncoding.EncodeToString([]byte(pair)) + `"}}`,
		"url base64":   `{"status":"ok","data":{"h":"` + base64.RawURLEncoding.EncodeToString([]byte(pair)) + `"}}`,
		"key base64":   `{"status":"ok","data":{"h":"` + base64.StdEncoding.EncodeToString([]byte(testKey)) + `"}}`,
		// JSON escapes spell the same string: a client decodes it whole.
		"key, \\u escapes": `{"status":"ok","data":{"debug":"sk_live_SECRET_\u006eever_shown"}}`,
		"pair, \\/ in base64": `{"status":"err","data":{"errorMessage":"Basic ` +
			strings.ReplaceAll(base64.StdEncoding.EncodeToString([]byte(pair+"??>")), "/", `\/`) + `"}}`,
		"key as a member name": `{"status":"ok","data":{"\u0073k_live_SECRET_never_shown":1}}`,
	} {
		up := newFakeUpstream(t, okReply(body))
		hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
		r := hs.do(t, "GET", "/v1/get-drop-points?country_code=ES&zip_code=28001", "")
		assert.Equal(t, 502, r.Code, name)
		assert.Equal(t, "upstream_leak", r.Env.Data["errorClass"], name)
		assert.NotContains(t, r.Raw, "data\":{\"h", name)
	}
}

func TestUpstream5xxWithOkEnvelope(t *testing.T) {
	up := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.WriteHeader(503)
		_, _ = w.Write([]byte(`{"status":"ok","data":{"dlvr_ref":"D1"}}`))
	})
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	r := hs.do(t, "POST", "/v1/new-shipment", shipmentForm, "Authorization", "Bearer "+testToken)
	require.Equal(t, 502, r.Code, r.Raw)
	assert.Equal(t, "err", r.Env.Status)
	assert.Equal(t, float64(503), r.Env.Data["upstreamStatus"])
	assert.Len(t, up.requests(), 1, "a booking is never retried")
}

func TestBookingExtraFields(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"dlvr_ref":"D1"}}`))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	auth := []string{"Authorization", "Bearer " + testToken}
	many := ""
	for i := 0; i <= validate.MaxExtraFields; i++ {
		many += "&x_" + strings.Repeat("a", i+1) + "=1"
	}
	for extra, field := range map[string]string{
		"&SHIPPING_DATE=2030-01-01": "SHIPPING_DATE",
		"&To_Zip_Code=99999":        "To_Zip_Code",
		"&Parcel_Weight=99":         "Parcel_Weight",
		"&x_" + strings.Repeat("n", validate.MaxExtraNameRunes) + "=1":  "x_" + strings.Repeat("n", validate.MaxExtraNameRunes-2),
		"&x_note=" + strings.Repeat("v", validate.MaxExtraValueRunes+1): "x_note",
		"&x%20y=1": "x y",
		many:       "x_" + strings.Repeat("a", validate.MaxExtraFields+1),
	} {
		r := hs.do(t, "POST", "/v1/new-shipment", shipmentForm+extra, auth...)
		require.Equal(t, 400, r.Code, extra)
		got := r.Env.Data["errors"].([]any)
		last := got[len(got)-1].(map[string]any)["field"].(string)
		assert.True(t, strings.HasPrefix(last, field), "%s: %s", extra, r.Raw)
	}
	assert.Empty(t, up.requests())
	r := hs.do(t, "POST", "/v1/new-shipment", shipmentForm+"&x_delivery_window=am&insurance_value=120", auth...)
	assert.Equal(t, 200, r.Code, r.Raw)
}

// A percent-encoded path is refused before anything else: Go would decode
// /v1/new%2Dshipment to a booking while worker/entry.mjs, which reads the
// raw pathname, would take it for a read it may replay after a crash.
func TestPercentEncodedPathRefused(t *testing.T) {
	up := newFakeUpstream(t, okReply(`{"status":"ok","data":{"dlvr_ref":"D1"}}`))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	for _, target := range []string{"/v1/new%2Dshipment", "/v1/new%2dshipment", "/v1%2Fnew-shipment",
		"/v1/new-%73hipment", "/v1/get-client-carriers%20", "/healthz%00", "/tok%65ns"} {
		r := hs.do(t, "POST", target, shipmentForm, "Authorization", "Bearer "+testToken)
		assert.Equal(t, 400, r.Code, "%s: %s", target, r.Raw)
		assert.Equal(t, float64(CodeBadRequest), r.Env.Data["errorCode"], target)
		assert.Equal(t, "encoded_path", r.Env.Data["errorClass"], target)
		assert.Contains(t, r.message(), strings.SplitN(target, "?", 2)[0], target)
	}
	assert.Empty(t, up.requests(), "nothing is forwarded")
	// The plain spelling still books.
	r := hs.do(t, "POST", "/v1/new-shipment", shipmentForm, "Authorization", "Bearer "+testToken)
	assert.Equal(t, 200, r.Code, r.Raw)
}
