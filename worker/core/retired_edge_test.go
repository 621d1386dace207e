package core_test

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/validate"
	"github.com/parcelgate/parcelgate/worker/core"
)

// The request-handling tests of worker/edge (edge_test.go,
// hardening_test.go, deep_test.go), retired with it (issue 21), against
// the core that decides the same things for the JavaScript edge. What
// the JavaScript owns (routing of paths, CORS headers, request ids,
// retries, reading bounded bodies, log lines) is tested in worker/src
// and under workerd in worker/e2e.

const shipmentForm = "shipping_date=2026-11-23&service_type=custom&carrier_code=rapido&service_code=rapido-48h&shipping_client_ref=ORD-77" +
	"&from_name=Tienda&from_address=Calle+1&from_city=Madrid&from_zip_code=28014&from_country_code=ES" +
	"&to_name=Ana&to_address=Rua+2&to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT" +
	"&parcels%5B0%5D%5Bparcel_weight%5D=1.5&parcels%5B0%5D%5Bparcel_width%5D=20&parcels%5B0%5D%5Bparcel_height%5D=10&parcels%5B0%5D%5Bparcel_length%5D=30&parcels%5B0%5D%5Bparcel_volume%5D=6000"

var day = time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)

// answer is the client's answer to one request, as the JavaScript edge
// would send it after at most one upstream call.
type answer struct {
	Status int
	Header map[string]string
	Raw    string
	Env    struct {
		Status string         `json:"status"`
		Data   map[string]any `json:"data"`
	}
	Sent []string // bodies sent upstream
}

func (a *answer) code() int {
	v, _ := a.Env.Data["errorCode"].(float64)
	return int(v)
}

func (a *answer) message() string {
	s, _ := a.Env.Data["errorMessage"].(string)
	return s
}

func toAnswer(t *testing.T, r *core.Response, sent []string) *answer {
	t.Helper()
	a := &answer{Status: r.Status, Raw: string(r.Body), Header: map[string]string{}, Sent: sent}
	for _, h := range r.Headers {
		a.Header[h.Name] = h.Value
	}
	require.NoError(t, json.Unmarshal(r.Body, &a.Env), "%s", r.Body)
	return a
}

// edgeOf configures a core from env() with changes ("" deletes).
func edgeOf(changes ...string) *core.Edge {
	e := env(changes...)
	for k, v := range e {
		if v == "" && k != core.EnvPublicOperations {
			delete(e, k)
		}
	}
	return core.Configure(func(k string) (string, bool) { v, ok := e[k]; return v, ok }, core.Bindings{})
}

// drive runs a request through the core as worker/src does: prepare and,
// when it forwards, one upstream call answered by reply (nil: nothing
// may be sent).
func drive(t *testing.T, e *core.Edge, op string, r *core.Request, reply *core.Upstream) *answer {
	t.Helper()
	if r.RequestID == "" {
		r.RequestID = "rid"
	}
	if r.Now.IsZero() {
		r.Now = day
	}
	if r.Method == "POST" && r.ContentType == "" {
		r.ContentType = "application/x-www-form-urlencoded"
	}
	p := e.Prepare(op, r, nil)
	if p.Kind == core.KindRespond {
		return toAnswer(t, p.Response, nil)
	}
	require.Equal(t, core.KindForward, p.Kind)
	require.NotNil(t, reply, "%s was forwarded: %s", op, p.Forward.UpstreamBody)
	got := e.Answer(p.Forward.Context, reply, r.RequestID, r.AcceptLanguage, r.Now, time.Time{})
	return toAnswer(t, got.Response, []string{string(p.Forward.UpstreamBody)})
}

func okUp(body string) *core.Upstream { return &core.Upstream{Status: 200, Body: []byte(body)} }

const bearerMaster = "Bearer " + master

func TestEdgeMethodsOfOperations(t *testing.T) {
	e := edgeOf()
	carriers := `{"status":"ok","data":{}}`
	for _, c := range []struct {
		method, op string
		status     int
		allow      string
	}{
		{"GET", "new-shipment", 405, "POST, OPTIONS"},
		{"PUT", "get-client-carriers", 405, "GET, POST, OPTIONS"},
		{"HEAD", "get-client-carriers", 405, "GET, POST, OPTIONS"},
		{"GET", "get-client-carriers", 200, ""},
		{"POST", "get-client-carriers", 200, ""},
		{"POST", "cancel-shipment", 404, ""},
	} {
		a := drive(t, e, c.op, &core.Request{Method: c.method}, okUp(carriers))
		assert.Equal(t, c.status, a.Status, "%s %s: %s", c.method, c.op, a.Raw)
		assert.Equal(t, c.allow, a.Header["Allow"], "%s %s", c.method, c.op)
		if c.status != 200 {
			assert.Equal(t, "edge", a.Env.Data["source"])
			assert.Equal(t, "rid", a.Env.Data["requestId"])
			assert.Equal(t, map[int]int{404: core.CodeNotFound, 405: core.CodeMethodNotAllowed}[c.status], a.code())
		}
	}
}

func TestEdgeConfigErrors(t *testing.T) {
	for _, c := range []struct {
		change []string
		op     string
		want   string
	}{
		{[]string{core.EnvAPIKey, ""}, "get-client-carriers", "API_KEY: secret is not set"},
		{[]string{core.EnvAPIUser, ""}, "get-client-carriers", "API_USER: secret is not set"},
		{[]string{core.EnvUpstreamBaseURL, "http://api.example.com/v1"}, "get-client-carriers", "UPSTREAM_BASE_URL: must use https"},
		{[]string{core.EnvUpstreamBaseURL, "https://api.example.com/v2"}, "get-client-carriers", "UPSTREAM_BASE_URL: must end with /v1"},
		{[]string{core.EnvUpstreamBaseURL, "https://u:p@api.example.com/v1"}, "get-client-carriers", "must not carry credentials"},
		{[]string{core.EnvUpstreamTimeoutMS, "soon"}, "get-client-carriers", "UPSTREAM_TIMEOUT_MS"},
		{[]string{core.EnvMaxBodyBytes, "-1"}, "get-client-carriers", "MAX_BODY_BYTES"},
		{[]string{core.EnvPublicOperations, "get-client-carriers,get-everything"}, "get-client-carriers", `unknown operation "get-everything"`},
		{[]string{core.EnvRulesFeature, "maybe"}, "get-client-carriers", "RULES_FEATURE"},
	} {
		a := drive(t, edgeOf(c.change...), c.op, &core.Request{Method: "GET", Authorization: bearerMaster}, nil)
		assert.Equal(t, 500, a.Status, c.want)
		assert.Equal(t, core.CodeMisconfigured, a.code(), c.want)
		assert.Contains(t, a.message(), c.want)
	}
	// Without PROXY_TOKEN nobody holds the master token: generic.
	a := drive(t, edgeOf(core.EnvProxyToken, ""), "get-shipment", &core.Request{Method: "GET", Query: "dlvr_ref=D1", HasQuery: true,
		Authorization: bearerMaster}, nil)
	assert.Equal(t, 500, a.Status)
	assert.Contains(t, a.message(), "a required secret or setting is missing")
}

// A configuration error names its variable to the master token's holder
// only (the log line's detail names it always), on every endpoint.
func TestEdgeConfigErrorsNamedToTheOperatorOnly(t *testing.T) {
	generic := "worker misconfigured: a required secret or setting is missing, weak or invalid; the worker's log names it, and /healthz with the master token"
	for _, c := range []struct {
		change      []string
		op, query   string
		body, named string
	}{
		{[]string{core.EnvProxyToken, ""}, "/tokens", "", "operations=get-shipment&dlvr_ref=D1", "PROXY_TOKEN"},
		{[]string{core.EnvProxyToken, ""}, "new-shipment", "", shipmentForm, "PROXY_TOKEN"},
		{[]string{core.EnvAPIKey, ""}, "get-client-carriers", "", "", "API_KEY"},
		{[]string{core.EnvUpstreamTimeoutMS, "soon"}, "get-client-carriers", "", "", "UPSTREAM_TIMEOUT_MS"},
		{[]string{core.EnvTokenSigningKey, ""}, "get-shipment", "dlvr_ref=D1", "", "TOKEN_SIGNING_KEY"},
	} {
		e := edgeOf(c.change...)
		req := func(auth string) *core.Request {
			r := &core.Request{Method: "GET", Query: c.query, HasQuery: c.query != "", Authorization: auth, RequestID: "rid", Now: day}
			if c.body != "" {
				r.Method, r.Body, r.ContentType = "POST", []byte(c.body), "application/x-www-form-urlencoded"
			}
			return r
		}
		anon := ""
		if c.named == "TOKEN_SIGNING_KEY" {
			anon = "Bearer pgt1.AAAA.BBBB"
		}
		var res *core.Response
		if c.op == "/tokens" {
			res = e.Tokens(req(anon)).Response
		} else {
			p := e.Prepare(c.op, req(anon), nil)
			require.Equal(t, core.KindRespond, p.Kind, c.op)
			res = p.Response
		}
		a := toAnswer(t, res, nil)
		assert.Equal(t, 500, a.Status, c.op)
		assert.Equal(t, core.CodeMisconfigured, a.code())
		assert.Equal(t, generic, a.message(), c.op)
		assert.NotContains(t, a.Raw, c.named, c.op)
		assert.Contains(t, res.Detail, c.named, "the log line names it")
		if c.change[0] != core.EnvProxyToken && c.named != "TOKEN_SIGNING_KEY" {
			m := drive(t, e, c.op, req(bearerMaster), nil)
			assert.Contains(t, m.message(), c.named, c.op)
		}
	}
}

func TestEdgeToken(t *testing.T) {
	e := edgeOf()
	list := okUp(`{"status":"ok","data":{"page":1,"n_shipments":0,"shipments":[]}}`)
	for _, c := range []struct {
		name, auth string
		status     int
	}{
		{"none", "", 401},
		{"wrong", "Bearer nope", 401},
		{"prefix of the token", "Bearer " + master[:5], 401},
		{"basic instead", "Basic " + base64.StdEncoding.EncodeToString([]byte("a:"+master)), 401},
		{"right", "Bearer " + master, 200},
		{"right, lowercase scheme", "bearer " + master, 200},
	} {
		a := drive(t, e, "get-shipments", &core.Request{Method: "GET", Query: "page=1", HasQuery: true, Authorization: c.auth}, list)
		assert.Equal(t, c.status, a.Status, "%s: %s", c.name, a.Raw)
		if c.status == 401 {
			assert.Equal(t, core.CodeUnauthorized, a.code(), c.name)
			assert.Contains(t, a.Header["WWW-Authenticate"], "Bearer", c.name)
			assert.Empty(t, a.Sent, c.name)
		}
	}
	// Public operations need no token; PUBLIC_OPERATIONS narrows the list.
	a := drive(t, e, "get-client-carriers", &core.Request{Method: "GET"}, okUp(`{"status":"ok","data":{}}`))
	assert.Equal(t, 200, a.Status)
	a = drive(t, edgeOf(core.EnvPublicOperations, "get-drop-points"), "get-client-carriers", &core.Request{Method: "GET"}, nil)
	assert.Equal(t, 401, a.Status)
}

func TestEdgeLimits(t *testing.T) {
	e := edgeOf(core.EnvMaxBodyBytes, "1024")
	big := "carrier_code=" + strings.Repeat("a", 2000)
	// The JavaScript stops reading past the bound and says so.
	a := drive(t, e, "get-client-services", &core.Request{Method: "POST", BodyTooLarge: true}, nil)
	assert.Equal(t, 413, a.Status)
	assert.Equal(t, core.CodeTooLarge, a.code())
	a = drive(t, e, "get-client-services", &core.Request{Method: "GET", Query: big, HasQuery: true}, nil)
	assert.Equal(t, 413, a.Status)
	a = drive(t, e, "get-client-services", &core.Request{Method: "POST", Body: []byte(`{"carrier_code":"x"}`), ContentType: "application/json"}, nil)
	assert.Equal(t, 415, a.Status)
	assert.Equal(t, core.CodeUnsupportedType, a.code())

	var b strings.Builder
	b.WriteString("from_country_code=ES&from_zip_code=28001&to_country_code=ES&to_zip_code=08001")
	for i := 0; i < 51; i++ {
		for _, f := range []string{"parcel_weight", "parcel_width", "parcel_height", "parcel_length", "parcel_volume"} {
			b.WriteString("&parcels%5B" + strconv.Itoa(i) + "%5D%5B" + f + "%5D=1")
		}
	}
	a = drive(t, edgeOf(), "get-shipments-rates", &core.Request{Method: "POST", Body: []byte(b.String())}, nil)
	assert.Equal(t, 400, a.Status)
	assert.Contains(t, a.Env.Data["errors"].([]any)[0].(map[string]any)["field"], "parcels")
	assert.Contains(t, a.message(), "too many parcels")
}

func TestEdgeUpstreamFailures(t *testing.T) {
	html := "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>"
	e := edgeOf(core.EnvUpstreamTimeoutMS, "50")
	for _, c := range []struct {
		name, op string
		up       core.Upstream
		status   int
		code     int
		contains []string
		retry    bool
		relayed  bool
	}{
		{"timeout", "get-client-carriers", core.Upstream{Failure: core.FailTimeout}, 504, core.CodeGatewayTimeout, []string{"did not answer within 50 ms"}, false, false},
		{"unreachable", "get-client-carriers", core.Upstream{Failure: core.FailUnreachable}, 502, core.CodeBadGateway, []string{"the upstream could not be reached"}, true, false},
		{"html 503", "get-client-carriers", core.Upstream{Status: 503, Body: []byte(html)}, 502, core.CodeBadGateway, []string{"HTTP 503", "HTML page"}, true, false},
		{"booking never retried", "new-shipment", core.Upstream{Status: 503, Body: []byte(html)}, 502, core.CodeBadGateway, []string{"HTTP 503"}, false, false},
		{"empty 200", "get-client-carriers", core.Upstream{Status: 200}, 502, core.CodeBadGateway, []string{"HTTP 200", "empty body"}, false, false},
		{"plain text 500", "get-client-carriers", core.Upstream{Status: 500, Body: []byte("Internal Server Error")}, 502, core.CodeBadGateway, []string{"HTTP 500", "not a JSON object"}, true, false},
		{"json without status", "get-client-carriers", *okUp(`{"data":{}}`), 502, core.CodeBadGateway, []string{"without a status"}, false, false},
		{"err envelope with 500", "get-client-carriers", core.Upstream{Status: 500, Body: []byte(`{"status":"err","data":{"errorCode":999,"errorMessage":"Unexpected error"}}`)}, 502, core.CodeBadGateway, []string{"HTTP 500", "999 Unexpected error"}, true, false},
		{"credentials refused", "get-client-carriers", core.Upstream{Status: 401, Body: []byte(`{"status":"err","data":{"message":"Invalid credentials"}}`)}, 502, core.CodeBadGateway, []string{"HTTP 401", "API_USER and API_KEY"}, false, false},
		{"refusal relayed with its status", "get-client-carriers", core.Upstream{Status: 400, Body: []byte(`{"status":"err","data":{"errorCode":108,"errorMessage":"The service is not contracted"}}`)}, 400, 108, nil, false, true},
		{"refusal with 200 relayed", "get-client-carriers", *okUp(`{"status":"err","data":{"errorCode":108,"errorMessage":"x"}}`), 200, 108, nil, false, true},
	} {
		r := &core.Request{Method: "GET", Authorization: bearerMaster, RequestID: "rid", Now: day}
		if c.op == "new-shipment" {
			r.Method, r.Body, r.ContentType = "POST", []byte(shipmentForm), "application/x-www-form-urlencoded"
		}
		p := e.Prepare(c.op, r, nil)
		require.Equal(t, core.KindForward, p.Kind, c.name)
		assert.Equal(t, c.op != "new-shipment", p.Forward.Retryable, "%s: reads are retried, bookings never", c.name)
		up := c.up
		got := e.Answer(p.Forward.Context, &up, "rid", "", day, time.Time{})
		a := toAnswer(t, got.Response, nil)
		assert.Equal(t, c.status, a.Status, "%s: %s", c.name, a.Raw)
		assert.Equal(t, c.code, a.code(), c.name)
		assert.Equal(t, c.retry, got.Retry, "%s: the JavaScript retries it", c.name)
		for _, s := range c.contains {
			assert.Contains(t, a.message(), s, c.name)
		}
		if c.relayed {
			assert.Equal(t, string(up.Body), a.Raw, "%s: relayed as sent", c.name)
		}
		if a.Status >= 500 {
			if c.op == "new-shipment" {
				assert.Equal(t, false, a.Env.Data["retryable"], c.name)
				assert.Contains(t, a.Env.Data["hint"], "filter_shipping_client_ref=ORD-77", c.name)
			} else if c.name != "credentials refused" {
				assert.Equal(t, true, a.Env.Data["retryable"], c.name)
			}
		}
	}
}

func TestEdgeTransportFailureMessageIsFixed(t *testing.T) {
	e := edgeOf(core.EnvUpstreamBaseURL, "https://internal.example/v1")
	p := e.Prepare("get-drop-points", &core.Request{Method: "GET", Query: "country_code=ES&zip_code=28001", HasQuery: true, RequestID: "rid", Now: day}, nil)
	require.Equal(t, core.KindForward, p.Kind)
	got := e.Answer(p.Forward.Context, &core.Upstream{Failure: core.FailUnreachable}, "rid", "", day, time.Time{})
	a := toAnswer(t, got.Response, nil)
	assert.Equal(t, 502, a.Status)
	assert.Equal(t, "the upstream could not be reached", a.message())
	assert.NotContains(t, a.Raw, "internal.example")
	assert.Equal(t, "upstream unreachable", got.Note, "the log line says what happened")
}

func TestEdgeUpstream5xxWithOkEnvelope(t *testing.T) {
	a := drive(t, edgeOf(), "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), Authorization: bearerMaster},
		&core.Upstream{Status: 503, Body: []byte(`{"status":"ok","data":{"dlvr_ref":"D1"}}`)})
	require.Equal(t, 502, a.Status, a.Raw)
	assert.Equal(t, "err", a.Env.Status)
	assert.Equal(t, float64(503), a.Env.Data["upstreamStatus"])
}

func TestEdgeBookingExtraFields(t *testing.T) {
	e := edgeOf()
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
		a := drive(t, e, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm + extra), Authorization: bearerMaster}, nil)
		require.Equal(t, 400, a.Status, extra)
		got := a.Env.Data["errors"].([]any)
		last := got[len(got)-1].(map[string]any)["field"].(string)
		assert.True(t, strings.HasPrefix(last, field), "%s: %s", extra, a.Raw)
	}
	a := drive(t, e, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm + "&x_delivery_window=am&insurance_value=120"),
		Authorization: bearerMaster}, okUp(`{"status":"ok","data":{"dlvr_ref":"D1"}}`))
	assert.Equal(t, 200, a.Status, a.Raw)
	require.Len(t, a.Sent, 1)
	assert.Contains(t, a.Sent[0], "x_delivery_window=am")
}

// A valid get-service-info whose schema nests deeper than anything decoded
// field by field is relayed, and decodes.
func TestEdgeDeepServiceInfoSchemas(t *testing.T) {
	schema := strings.Repeat(`{"type":"object","properties":{"a":`, 150) + `{"type":"string"}` + strings.Repeat(`}}`, 150)
	body := `{"status":"ok","data":{"available_methods":{"new-shipment":true},"schemas":{"new-shipment":` + schema + `},"additional_information":{}}}`
	a := drive(t, edgeOf(), "get-service-info", &core.Request{Method: "GET", HasQuery: true,
		Query: "carrier_code=rayo&service_code=rayo-48&from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001"}, okUp(body))
	assert.Equal(t, 200, a.Status, a.Raw)
	assert.Equal(t, body, a.Raw)
	_, err := envelope.Decode("get-service-info", 200, []byte(body))
	assert.NoError(t, err)
}

// Field error messages follow Accept-Language; codes and fields do not.
func TestEdgeValidationMessagesInTheShoppersLanguage(t *testing.T) {
	e := edgeOf()
	body := "from_country_code=ES&from_zip_code=00001&to_country_code=ES&to_zip_code=08001" +
		"&parcels%5B0%5D%5Bparcel_weight%5D=1&parcels%5B0%5D%5Bparcel_width%5D=1&parcels%5B0%5D%5Bparcel_height%5D=1" +
		"&parcels%5B0%5D%5Bparcel_length%5D=1&parcels%5B0%5D%5Bparcel_volume%5D=1"
	for lang, want := range map[string]string{
		"":                        "Spanish postal codes start with a province number from 01 to 52.",
		"es-ES,es;q=0.9,en;q=0.8": "Los códigos postales españoles empiezan por el número de provincia, del 01 al 52.",
		"da, nl;q=0.5":            "Spaanse postcodes beginnen met een provincienummer van 01 tot en met 52.",
		"zh-CN":                   "Spanish postal codes start with a province number from 01 to 52.",
	} {
		a := drive(t, e, "get-shipments-rates", &core.Request{Method: "POST", Body: []byte(body), AcceptLanguage: lang}, nil)
		require.Equal(t, 400, a.Status, lang)
		fe := a.Env.Data["errors"].([]any)[0].(map[string]any)
		assert.Equal(t, "from_zip_code", fe["field"], lang)
		assert.Equal(t, want, fe["message"], lang)
		assert.Equal(t, "from_zip_code: "+want, a.message(), lang)
	}
}

func TestEdgeUpstreamLeakWithheld(t *testing.T) {
	pair := user + ":" + key
	e := edgeOf()
	for name, body := range map[string]string{
		"key":          `{"status":"ok","data":{"debug":"` + key + `"}}`,
		"pair":         `{"status":"err","data":{"errorMessage":"bad ` + pair + `"}}`,
		"basic header": `{"status":"ok","data":{"h":"Basic ` + base64.StdEncoding.EncodeToString([]byte(pair)) + `"}}`,
		"url base64":   `{"status":"ok","data":{"h":"` + base64.RawURLEncoding.EncodeToString([]byte(pair)) + `"}}`,
		"key base64":   `{"status":"ok","data":{"h":"` + base64.StdEncoding.EncodeToString([]byte(key)) + `"}}`,
		// JSON escapes spell the same string: a client decodes it whole.
		"key, \\u escapes": `{"status":"ok","data":{"debug":"` + strings.Replace(key, "k", `\u006b`, 1) + `"}}`,
		"pair, \\/ in base64": `{"status":"err","data":{"errorMessage":"Basic ` +
			strings.ReplaceAll(base64.StdEncoding.EncodeToString([]byte(pair+"??>")), "/", `\/`) + `"}}`,
		"key as a member name": `{"status":"ok","data":{"` + strings.Replace(key, "a", `\u0061`, 1) + `":1}}`,
		// A request dump in MIME base64 (PHP's chunk_split: 76 characters
		// a line, CRLF), its line breaks as JSON escapes; the header's
		// value is bytes 78..118 of the dump, across the second break.
		"dump in wrapped base64": `{"status":"err","data":{"errorMessage":"bad request","dump":"` + wrapped76(base64.StdEncoding.EncodeToString([]byte(
			"POST /v1/shipments HTTP/1.1\r\nHost: api.example.com:8443\r\nAuthorization: Basic "+base64.StdEncoding.EncodeToString([]byte(pair))+
				"\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n"))) + `"}}`,
	} {
		p := e.Prepare("get-drop-points", &core.Request{Method: "GET", Query: "country_code=ES&zip_code=28001", HasQuery: true, RequestID: "rid", Now: day}, nil)
		require.Equal(t, core.KindForward, p.Kind)
		got := e.Answer(p.Forward.Context, okUp(body), "rid", "", day, time.Time{})
		a := toAnswer(t, got.Response, nil)
		assert.Equal(t, 502, a.Status, name)
		assert.True(t, got.Leak, name)
		assert.False(t, got.Cacheable, name)
		assert.Equal(t, "upstream_leak", a.Env.Data["errorClass"], name)
		assert.NotContains(t, a.Raw, "data\":{\"h", name)
		assert.NotContains(t, a.Raw, key, name)
	}
}

// wrapped76 is s in lines of 76 characters, each ended by an escaped
// CRLF (a JSON string's spelling of a chunk_split text).
func wrapped76(s string) string {
	var b strings.Builder
	for ; len(s) > 76; s = s[76:] {
		b.WriteString(s[:76] + `\r\n`)
	}
	return b.String() + s + `\r\n`
}

// FuzzPrepare sends arbitrary bodies to every operation (worker/edge's
// FuzzHandler): the core never panics, always answers a JSON envelope,
// and what it forwards is a body that decodes and validates.
func FuzzPrepare(f *testing.F) {
	f.Add(uint8(6), []byte(shipmentForm))
	f.Add(uint8(2), []byte("from_country_code=ES&from_zip_code=28001&to_country_code=ES&to_zip_code=08001&parcels[0][parcel_weight]=1&parcels[0][parcel_width]=1&parcels[0][parcel_height]=1&parcels[0][parcel_length]=1&parcels[0][parcel_volume]=1"))
	f.Add(uint8(5), []byte("country_code=es&zip_code=%2028001"))
	f.Add(uint8(1), []byte("status=1&status=0"))
	f.Add(uint8(3), []byte("parcels[99999999999][parcel_weight]=1"))
	e := edgeOf()
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := &catalog.Operations[int(opIndex)%len(catalog.Operations)]
		r := &core.Request{Method: "POST", Body: body, ContentType: "application/x-www-form-urlencoded", Authorization: bearerMaster,
			RequestID: "rid", Now: day}
		p := e.Prepare(op.Name, r, nil)
		if p.Kind == core.KindRespond {
			var env struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(p.Response.Body, &env); err != nil || env.Status != "err" || p.Response.Status < 400 {
				t.Fatalf("not an error envelope (%d): %q", p.Response.Status, p.Response.Body)
			}
			return
		}
		if p.Kind != core.KindForward {
			t.Fatalf("kind %q for a call without the Bookings binding", p.Kind)
		}
		fw := p.Forward.UpstreamBody
		req, err := form.Decode(fw, form.DefaultLimits)
		if err != nil {
			t.Fatalf("forwarded body does not decode: %v: %q", err, fw)
		}
		if errs := validate.Request(op, req, validate.Options{Today: "2026-11-20"}, nil); len(errs) > 0 {
			t.Fatalf("forwarded body does not validate: %v: %q", errs, fw)
		}
		a := e.Answer(p.Forward.Context, okUp(`{"status":"ok","data":{}}`), "rid", "", day, time.Time{})
		if a.Response.Status != 200 {
			t.Fatalf("an ok answer not relayed: %d %q", a.Response.Status, a.Response.Body)
		}
	})
}
