//go:build !(js && wasm)

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
)

// The tests reach the edge's operations through worker/edgeclient, as a
// shop's server does; call (e2e_test.go) stays for what the client never
// sends: other paths and methods, raw bodies, browser headers.

// edge is a client of the worker at base with the master token.
func edge(t *testing.T, base string, opts ...edgeclient.Option) *edgeclient.Client {
	t.Helper()
	c, err := edgeclient.New(base, append([]edgeclient.Option{edgeclient.WithToken(token), edgeclient.WithHTTPClient(client)}, opts...)...)
	require.NoError(t, err)
	return c
}

// checkAnswer asserts what every answer of the edge carries, and that it
// holds no secret.
func checkAnswer(t *testing.T, h http.Header, body []byte, what string) {
	t.Helper()
	assert.Equal(t, "application/json; charset=utf-8", h.Get("Content-Type"), what)
	assert.NotEmpty(t, h.Get("X-Request-Id"), what)
	assert.Contains(t, h.Get("Server-Timing"), "edge;dur=", what)
	assert.NotContains(t, string(body), key, what)
}

// ok checks a typed answer and returns it.
func ok[T any](t *testing.T, res *edgeclient.Response[T], err error) *edgeclient.Response[T] {
	t.Helper()
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode)
	checkAnswer(t, res.Header, res.Body, "")
	return res
}

// refused checks a failed call's *Error and returns it.
func refused(t *testing.T, err error) *edgeclient.Error {
	t.Helper()
	var e *edgeclient.Error
	require.True(t, errors.As(err, &e), "want an *edgeclient.Error, got %v", err)
	require.NotNil(t, e.Header, "an answer came: %v", err)
	checkAnswer(t, e.Header, e.Body, err.Error())
	return e
}

// asResult is a call through the client as the result the raw helpers'
// callers assert on: the answer's status, header, body and data.
func asResult(t *testing.T, res *edgeclient.Response[json.RawMessage], err error) *result {
	t.Helper()
	var r *result
	if err != nil {
		e := refused(t, err)
		r = &result{Code: e.HTTPStatus, Header: e.Header, Raw: string(e.Body)}
	} else {
		ok(t, res, nil)
		r = &result{Code: res.StatusCode, Header: res.Header, Raw: string(res.Body)}
	}
	var env struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Raw), &env), r.Raw)
	r.Status = env.Status
	_ = json.Unmarshal(env.Data, &r.Data)
	_ = json.Unmarshal(env.Data, &r.List)
	return r
}

// book sends a new-shipment through the client (its resend rules
// included) and answers with what came last.
func book(t *testing.T, c *edgeclient.Client, v url.Values) *result {
	t.Helper()
	res, err := c.Call(context.Background(), bookingParams(t, v))
	return asResult(t, res, err)
}

// do calls the operation of p through the client (the resend rules
// included for a booking) and answers with what came last, as call does
// for raw requests.
func do(t *testing.T, c *edgeclient.Client, p edgeclient.Params) *result {
	t.Helper()
	res, err := c.Call(context.Background(), p)
	return asResult(t, res, err)
}

// bookingParams are the typed parameters of a booking the tests hold as a
// form (the fake services read and seed the same form).
func bookingParams(t *testing.T, v url.Values) edgeclient.NewShipmentParams {
	t.Helper()
	var p edgeclient.NewShipmentParams
	fill(t, v, &p)
	return p
}

// fill sets the typed parameters p (a pointer to <Operation>Params) from a
// form: each wire name is the field of its name in CamelCase (the edge's
// own order_value, offer and point too), parcels[0] the first Parcel.
func fill(t *testing.T, v url.Values, p any) {
	t.Helper()
	pv := reflect.ValueOf(p).Elem()
	for k, vals := range v {
		if rest, ok := strings.CutPrefix(k, "parcels["); ok {
			i, name, _ := strings.Cut(rest, "][")
			require.Equal(t, "0", i, "one parcel: %s", k)
			f := pv.FieldByName("Parcels")
			require.True(t, f.IsValid(), "%T has no parcels", p)
			if f.Len() == 0 {
				f.Set(reflect.ValueOf(make([]edgeclient.Parcel, 1)))
			}
			parcels := f.Interface().([]edgeclient.Parcel)
			require.True(t, parcels[0].Set(strings.TrimSuffix(name, "]"), vals[0]), k)
			continue
		}
		var b strings.Builder
		for _, part := range strings.Split(k, "_") {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
		f := pv.FieldByName(b.String())
		require.True(t, f.IsValid(), "%T has no parameter %s", p, k)
		f.SetString(vals[0])
	}
}
