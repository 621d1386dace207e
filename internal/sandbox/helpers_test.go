package sandbox

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// t0 is Monday 2026-05-11 10:00 in Madrid (CEST).
var t0 = time.Date(2026, 5, 11, 10, 0, 0, 0, cest)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func (c *clock) set(t time.Time)         { c.t = t }

type env struct {
	t     *testing.T
	sb    *Sandbox
	clock *clock
	store *MemoryStore
}

func newEnv(t *testing.T, opts ...Option) *env {
	c := &clock{t: t0}
	st := NewMemoryStore()
	opts = append([]Option{WithClock(c.now), WithStore(st)}, opts...)
	return &env{t: t, sb: New(opts...), clock: c, store: st}
}

// resp is a decoded response.
type resp struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

func (r resp) data() map[string]any {
	d, _ := r.JSON["data"].(map[string]any)
	return d
}

func (r resp) errCode() int {
	f, _ := r.data()["errorCode"].(float64)
	return int(f)
}

// params is an ordered list of form parameters.
type params [][2]string

func (p params) encode() string {
	var b strings.Builder
	for i, kv := range p {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(kv[0]))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(kv[1]))
	}
	return b.String()
}

func (p params) with(kvs ...string) params {
	out := append(params(nil), p...)
	for i := 0; i < len(kvs); i += 2 {
		found := false
		for j := range out {
			if out[j][0] == kvs[i] {
				out[j][1] = kvs[i+1]
				found = true
			}
		}
		if !found {
			out = append(out, [2]string{kvs[i], kvs[i+1]})
		}
	}
	return out
}

func (p params) without(names ...string) params {
	var out params
next:
	for _, kv := range p {
		for _, n := range names {
			if kv[0] == n {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

func parcel(i int, w, wi, h, l, v string) params {
	pre := "parcels[" + strconv.Itoa(i) + "]"
	p := params{}
	for _, kv := range [][2]string{{"parcel_weight", w}, {"parcel_width", wi}, {"parcel_height", h}, {"parcel_length", l}, {"parcel_volume", v}} {
		if kv[1] != "" {
			p = append(p, [2]string{pre + "[" + kv[0] + "]", kv[1]})
		}
	}
	return p
}

// call sends one request with the default credentials; method GET puts
// the parameters in the query string.
func (e *env) call(method, op string, p params, hdr ...string) resp {
	e.t.Helper()
	var r *http.Request
	if method == http.MethodGet {
		r = httptest.NewRequest(method, "/v1/"+op+"?"+p.encode(), nil)
	} else {
		r = httptest.NewRequest(method, "/v1/"+op, strings.NewReader(p.encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r.SetBasicAuth(DefaultUser, DefaultKey)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	return e.do(r, op)
}

func (e *env) do(r *http.Request, op string) resp {
	e.t.Helper()
	w := httptest.NewRecorder()
	e.sb.ServeHTTP(w, r)
	res := w.Result()
	body, _ := io.ReadAll(res.Body)
	out := resp{Status: res.StatusCode, Header: res.Header, Body: body}
	require.Equal(e.t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
	require.NoError(e.t, json.Unmarshal(body, &out.JSON), "%s", body)
	if op != "" {
		checkContract(e.t, op, out)
	}
	return out
}

func (e *env) ok(method, op string, p params) map[string]any {
	e.t.Helper()
	r := e.call(method, op, p)
	require.Equal(e.t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(e.t, "ok", r.JSON["status"], "%s", r.Body)
	return r.data()
}

// failCode asserts an error response with the given HTTP status, code and
// field.
func (e *env) failCode(r resp, status, code int, field string) {
	e.t.Helper()
	require.Equal(e.t, "err", r.JSON["status"], "%s", r.Body)
	assert.Equal(e.t, status, r.Status, "%s", r.Body)
	assert.Equal(e.t, code, r.errCode(), "%s", r.Body)
	if field != "" {
		assert.Equal(e.t, field, r.data()["field"], "%s", r.Body)
		assert.True(e.t, strings.HasPrefix(r.data()["errorMessage"].(string), field+": "), "%s", r.Body)
	}
}

// checkContract decodes a response with the core's envelope decoder and
// checks that nothing the sandbox sent is lost: every sent value is found
// in the decoded data, modulo the decoder's documented normalizations.
func checkContract(t *testing.T, op string, r resp) {
	t.Helper()
	v, err := envelope.Decode(op, r.Status, r.Body)
	if r.JSON["status"] == "err" {
		var ae *envelope.APIError
		require.ErrorAs(t, err, &ae, "%s", r.Body)
		assert.Equal(t, r.errCode(), ae.Code)
		assert.Equal(t, r.data()["errorMessage"], ae.Message)
		assert.Equal(t, r.Status, ae.HTTPStatus)
		return
	}
	require.NoError(t, err, "%s", r.Body)
	var got any
	require.NoError(t, json.Unmarshal(jsonlite.Marshal(v), &got))
	covers(t, "data", r.JSON["data"], got)
}

func covers(t *testing.T, path string, sent, got any) {
	t.Helper()
	switch s := sent.(type) {
	case map[string]any:
		if len(s) == 0 {
			if g, ok := got.(map[string]any); ok && len(g) == 0 || got == nil {
				return
			}
		}
		g, ok := got.(map[string]any)
		require.True(t, ok, "%s: sent an object, decoded %T", path, got)
		for k, sv := range s {
			gv, ok := g[k]
			if !ok && k == "is_return" {
				gv, ok = g["is_returned"]
			}
			require.True(t, ok, "%s.%s lost by the decoder", path, k)
			covers(t, path+"."+k, sv, gv)
		}
	case []any:
		if len(s) == 0 {
			switch g := got.(type) {
			case nil:
				return
			case map[string]any:
				require.Empty(t, g, path)
				return
			}
		}
		g, ok := got.([]any)
		require.True(t, ok, "%s: sent an array, decoded %T", path, got)
		require.Len(t, g, len(s), path)
		for i := range s {
			covers(t, path+"["+strconv.Itoa(i)+"]", s[i], g[i])
		}
	case string:
		switch g := got.(type) {
		case nil:
			require.Equal(t, "", s, "%s: decoded null", path)
		case string:
			require.Equal(t, s, g, path)
		case float64:
			f, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err, path)
			require.InDelta(t, f, g, 1e-9, path)
		default:
			t.Fatalf("%s: sent %q, decoded %v", path, s, got)
		}
	case float64:
		switch g := got.(type) {
		case float64:
			require.True(t, math.Abs(s-g) < 1e-9, "%s: %v vs %v", path, s, g)
		case bool:
			require.Equal(t, s == 1, g, path)
		default:
			t.Fatalf("%s: sent %v, decoded %v", path, s, got)
		}
	case bool:
		require.Equal(t, s, got, path)
	case nil:
		require.Nil(t, got, path)
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
