package edgeclient

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
)

// answer is one scripted answer of a fake edge.
type answer struct {
	status int
	header map[string]string
	body   string
}

// script is a fake edge answering in order (the last answer repeats),
// recording every request.
type script struct {
	mu      sync.Mutex
	answers []answer
	reqs    []*http.Request
	bodies  []string
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	i := len(s.reqs)
	s.reqs = append(s.reqs, r)
	s.bodies = append(s.bodies, string(b))
	a := s.answers[min(i, len(s.answers)-1)]
	s.mu.Unlock()
	for k, v := range a.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(a.status)
	_, _ = io.WriteString(w, a.body)
}

func (s *script) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// serve starts the script and a Client of it whose waits are recorded, not slept.
func serve(t *testing.T, answers ...answer) (*script, *Client, *[]time.Duration) {
	t.Helper()
	s := &script{answers: answers}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, WithToken("tok"), WithHTTPClient(srv.Client()))
	require.NoError(t, err)
	var waits []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	return s, c, &waits
}

var booking = NewShipmentParams{ShippingDate: "2026-11-23", ServiceType: "custom", CarrierCode: "rayo", ServiceCode: "rayo-48",
	ShippingClientRef: "ORDER-1", FromName: "Tienda", FromAddress: "Calle 1", FromCity: "Madrid", FromZipCode: "28014",
	FromCountryCode: "ES", ToName: "Ana & Co", ToAddress: "Carrer 1", ToCity: "Barcelona", ToZipCode: "08001", ToCountryCode: "ES",
	Parcels: []Parcel{{Weight: "2.5", Width: "20", Height: "10", Length: "30", Volume: "6000"}},
	Extra:   []Field{{Name: "insurance", Value: "1"}}}

const shipped = `{"status":"ok","data":{"shipping_dlvr_ref":"SBX1","shipping_client_ref":"ORDER-1"}}`

func edgeErr(data string) string { return `{"status":"err","data":{"source":"edge",` + data + `}}` }

// A lost booking (504, retryable), then the grace's 425s: the identical
// body is resent after each Retry-After until the edge answers, and the
// replayed booking is marked.
func TestBookingResentIdenticalWhileRetryable(t *testing.T) {
	s, c, waits := serve(t,
		answer{504, map[string]string{"Retry-After": "120"}, edgeErr(`"errorCode":1504,"errorClass":"upstream_timeout","retryable":true,"hint":"resend"`)},
		answer{425, map[string]string{"Retry-After": "7"}, edgeErr(`"errorCode":1425,"errorClass":"booking_unconfirmed","retryable":true`)},
		answer{200, map[string]string{"Idempotent-Replayed": "true", "X-Request-Id": "r3"}, shipped},
	)
	res, err := c.NewShipment(context.Background(), booking)
	require.NoError(t, err)
	assert.Equal(t, "SBX1", res.Data.ShippingDlvrRef)
	assert.True(t, res.Replayed)
	assert.Equal(t, 3, res.Attempts)
	assert.Equal(t, "r3", res.RequestID)
	assert.Equal(t, []time.Duration{120 * time.Second, 7 * time.Second}, *waits)
	require.Len(t, s.bodies, 3)
	assert.Equal(t, s.bodies[0], s.bodies[1])
	assert.Equal(t, s.bodies[0], s.bodies[2])
	for _, r := range s.reqs {
		assert.Equal(t, "POST", r.Method)
		assert.Equal(t, "/v1/new-shipment", r.URL.Path)
		assert.Equal(t, "Bearer tok", r.Header.Get("Authorization"))
		assert.Equal(t, "application/x-www-form-urlencoded", r.Header.Get("Content-Type"))
	}
	assert.True(t, strings.HasPrefix(s.bodies[0], "shipping_date=2026-11-23&service_type=custom&carrier_code=rayo&service_code=rayo-48&shipping_client_ref=ORDER-1&"), s.bodies[0])
	assert.Contains(t, s.bodies[0], "to_name=Ana+%26+Co&")
	assert.True(t, strings.HasSuffix(s.bodies[0], "&insurance=1&parcels[0][parcel_weight]=2.5&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000"), s.bodies[0])
}

// A refusal is final: 4xx, and a 5xx the edge does not call retryable
// (EXACTLY_ONCE=false), are sent once.
func TestBookingNotResent(t *testing.T) {
	for name, a := range map[string]answer{
		"400 field errors": {400, nil, edgeErr(`"errorCode":484,"errorClass":"invalid_request","errors":[{"field":"to_zip_code","code":484,"message":"bad"}]`)},
		"409 conflict":     {409, nil, edgeErr(`"errorCode":421,"errorClass":"booking_conflict"`)},
		"service refusal":  {400, nil, `{"status":"err","data":{"errorCode":108,"errorMessage":"not contracted"}}`},
		"502 not retryable": {502, map[string]string{"Retry-After": "1"},
			edgeErr(`"errorCode":1502,"errorClass":"upstream_error","retryable":false`)},
		"502 without an envelope": {502, nil, "<html>bad gateway</html>"},
	} {
		t.Run(name, func(t *testing.T) {
			s, c, waits := serve(t, a, answer{200, nil, shipped})
			_, err := c.NewShipment(context.Background(), booking)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.False(t, e.Retryable)
			assert.Equal(t, 1, s.count())
			assert.Equal(t, 1, e.Attempts)
			assert.Empty(t, *waits)
		})
	}
}

// Reads are never resent by the client (the edge retries them upstream),
// even when the edge says a retry is fine.
func TestReadNotResent(t *testing.T) {
	s, c, _ := serve(t, answer{429, map[string]string{"Retry-After": "60"}, edgeErr(`"errorCode":1429,"errorClass":"rate_limited","retryable":true`)},
		answer{200, nil, `{"status":"ok","data":{}}`})
	_, err := c.GetClientCarriers(context.Background())
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "rate_limited", e.Class)
	assert.True(t, e.Retryable)
	assert.Equal(t, time.Minute, e.RetryAfter)
	assert.Equal(t, 1, s.count())
	assert.Equal(t, "GET", s.reqs[0].Method)
}

// Resends stop at MaxResends, and a Retry-After beyond MaxWait is left to
// the caller.
func TestResendBounds(t *testing.T) {
	retry := answer{425, map[string]string{"Retry-After": "5"}, edgeErr(`"errorCode":1425,"errorClass":"booking_unconfirmed","retryable":true`)}
	s, c, waits := serve(t, retry)
	c = c.With(WithMaxResends(2))
	_, err := c.NewShipment(context.Background(), booking)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 3, s.count())
	assert.Equal(t, 3, e.Attempts)
	assert.Len(t, *waits, 2)

	s, c, waits = serve(t, retry)
	c = c.With(WithMaxWait(time.Second))
	_, err = c.NewShipment(context.Background(), booking)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 1, s.count())
	assert.Equal(t, 5*time.Second, e.RetryAfter)
	assert.Empty(t, *waits)
}

// Canceling the context ends a call in flight, and a resend's wait.
func TestContextCancel(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c, err := New(srv.URL)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := c.GetClientCarriers(ctx)
		done <- err
	}()
	cancel()
	err = <-done
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ClassCanceled, e.Class)
	assert.ErrorIs(t, err, context.Canceled)

	// Canceled while waiting to resend a booking: no second send.
	s, c2, _ := serve(t, answer{425, map[string]string{"Retry-After": "30"}, edgeErr(`"errorCode":1425,"errorClass":"booking_unconfirmed","retryable":true`)})
	ctx, cancel = context.WithCancel(context.Background())
	c2.sleep = func(ctx context.Context, d time.Duration) error {
		cancel()
		return sleep(ctx, d)
	}
	_, err = c2.NewShipment(ctx, booking)
	require.ErrorAs(t, err, &e)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, s.count())
}

// Every kind of failure becomes an *Error with its class.
func TestErrorClasses(t *testing.T) {
	cases := []struct {
		name   string
		a      answer
		class  string
		code   int
		source string
		inner  any
	}{
		{"edge 401", answer{401, map[string]string{"WWW-Authenticate": "Bearer"}, edgeErr(`"errorCode":1401,"errorMessage":"no","errorClass":"unauthorized"`)}, "unauthorized", 1401, SourceEdge, &envelope.APIError{}},
		{"403 without an envelope", answer{403, nil, "forbidden"}, ClassUnauthorized, 0, "", &envelope.UnexpectedResponse{}},
		{"503 html", answer{503, nil, "<html>down</html>"}, ClassUpstreamUnavailable, 0, "", &envelope.UnexpectedResponse{}},
		{"200 not json", answer{200, nil, "hello"}, ClassUnexpectedResponse, 0, "", &envelope.UnexpectedResponse{}},
		{"wrong shape", answer{200, nil, `{"status":"ok","data":{"cutoff":["x"]}}`}, ClassUnexpectedResponse, 0, "", &envelope.ShapeError{}},
		{"carrier rejected", answer{400, nil, `{"status":"err","data":{"errorCode":108,"errorMessage":"not contracted","carrierErrorCode":"E7"}}`}, envelope.ClassCarrierRejected, 108, "", &envelope.APIError{}},
		{"service unexpected", answer{500, nil, `{"status":"err","data":{"errorCode":999}}`}, envelope.ClassUnexpected, 999, "", &envelope.APIError{}},
		{"edge 502", answer{502, nil, edgeErr(`"errorCode":1502,"errorClass":"upstream_auth","upstreamStatus":401`)}, "upstream_auth", 1502, SourceEdge, &envelope.APIError{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, c, _ := serve(t, tc.a)
			_, err := c.GetCollectionCutoffHour(context.Background(), GetCollectionCutoffHourParams{CountryCode: "ES"})
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.class, e.Class, err.Error())
			assert.Equal(t, tc.code, e.Code)
			assert.Equal(t, tc.source, e.Source)
			assert.Equal(t, tc.a.status, e.HTTPStatus)
			assert.Equal(t, OpGetCollectionCutoffHour, e.Operation)
			assert.IsType(t, tc.inner, e.Err)
			assert.Contains(t, err.Error(), "get-collection-cutoff-hour: ")
		})
	}

	// The edge unreachable.
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	c, _ := New(srv.URL)
	_, err := c.GetClientCarriers(context.Background())
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ClassNetwork, e.Class)
	assert.True(t, e.Retryable, "a read that did not get an answer may be sent again")
	_, err = c.NewShipment(context.Background(), booking)
	require.ErrorAs(t, err, &e)
	assert.False(t, e.Retryable, "a booking may have reached the edge: only the edge says a resend is safe")
}

// Field errors, the request id and the hint reach the caller.
func TestFieldErrors(t *testing.T) {
	_, c, _ := serve(t, answer{400, map[string]string{"X-Request-Id": "rid-9"}, edgeErr(`"errorCode":484,"errorMessage":"to_zip_code: no es válido","errorClass":"invalid_request",` +
		`"errors":[{"field":"to_zip_code","code":484,"message":"no es válido"},{"field":"to_name","code":480,"message":"obligatorio"}],"requestId":"rid-9"`)})
	_, err := c.NewShipment(context.Background(), booking)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 484, e.Code)
	assert.Equal(t, "invalid_request", e.Class)
	assert.Equal(t, "rid-9", e.RequestID)
	require.Len(t, e.FieldErrors, 2)
	f, ok := e.Field("to_name")
	assert.True(t, ok)
	assert.Equal(t, 480, f.Code)
	assert.Equal(t, "obligatorio", f.Message)
	_, ok = e.Field("from_name")
	assert.False(t, ok)
}

// Reads go as GET with the query in catalog order, empty fields left out,
// with the client's headers; the typed result is decoded.
func TestReadRequestAndTypedResult(t *testing.T) {
	s, c, _ := serve(t, answer{200, map[string]string{"X-Request-Id": "r1"},
		`{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}}`})
	c = c.With(WithHeader("Accept-Language", "de"), WithToken(""))
	res, err := c.GetCollectionCutoffHour(context.Background(), GetCollectionCutoffHourParams{
		CarrierCode: "rayo", ToZipCode: "08001", ZipCode: "28014", CountryCode: "ES", ToCountryCode: "ES"})
	require.NoError(t, err)
	assert.Equal(t, "13:00", res.Data.Cutoff)
	assert.False(t, res.Replayed)
	assert.Equal(t, 1, res.Attempts)
	r := s.reqs[0]
	assert.Equal(t, "GET", r.Method)
	assert.Equal(t, "/v1/get-collection-cutoff-hour", r.URL.Path)
	assert.Equal(t, "country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo", r.URL.RawQuery)
	assert.Equal(t, "de", r.Header.Get("Accept-Language"))
	assert.Empty(t, r.Header.Get("Authorization"))

	// Call: the same request, the data undecoded.
	raw, err := c.Call(context.Background(), GetCollectionCutoffHourParams{CountryCode: "ES"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}`, string(raw.Data))
	assert.Equal(t, "country_code=ES", s.reqs[1].URL.RawQuery)
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	assert.Equal(t, 7*time.Second, parseRetryAfter(" 7 ", now))
	assert.Equal(t, 30*time.Second, parseRetryAfter(now.Add(30*time.Second).Format(http.TimeFormat), now))
	assert.Zero(t, parseRetryAfter(now.Add(-time.Minute).Format(http.TimeFormat), now))
	assert.Zero(t, parseRetryAfter("soon", now))
	assert.Zero(t, parseRetryAfter("-3", now))
}

func TestNewBaseURL(t *testing.T) {
	for in, want := range map[string]string{"https://ship.example": "https://ship.example/v1",
		"https://ship.example/v1/": "https://ship.example/v1", "http://127.0.0.1:8787/edge": "http://127.0.0.1:8787/edge/v1"} {
		c, err := New(in)
		require.NoError(t, err)
		assert.Equal(t, want, c.base)
	}
	for _, bad := range []string{"", "ship.example", "ftp://ship.example", "https://"} {
		_, err := New(bad)
		assert.Error(t, err, bad)
	}
}

// Every operation of the catalog has its constant, its Params and its
// method, and what books is resent while what reads is sent with GET.
func TestEveryOperation(t *testing.T) {
	require.Len(t, Operations, len(catalog.Operations))
	ct := reflect.TypeOf(&Client{})
	for i, op := range Operations {
		cop := &catalog.Operations[i]
		assert.Equal(t, cop.Name, string(op))
		assert.Equal(t, cop.Books, op.books(), op)
		assert.Equal(t, cop.Read, op.read(), op)
		m, ok := ct.MethodByName(camelName(cop.Name))
		require.True(t, ok, "no method for %s", op)
		data, ok := m.Type.Out(0).Elem().FieldByName("Data")
		require.True(t, ok, op)
		assert.Equal(t, "github.com/parcelgate/parcelgate/internal/envelope", data.Type.PkgPath(), "%s answers an envelope result", op)
	}
}

func camelName(op string) string {
	var b strings.Builder
	for _, p := range strings.Split(op, "-") {
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}
