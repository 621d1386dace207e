package edge

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/sandbox"
)

// BenchmarkHandler is the edge's own cost per request (config, CORS,
// decode, validate, encode, envelope check, log line), with an upstream
// that answers at once.
func BenchmarkHandler(b *testing.B) {
	for _, tc := range []struct{ name, op, body string }{
		{"get-client-services", "get-client-services", "carrier_code=rayo&status=1"},
		{"new-shipment", "new-shipment", shipmentForm},
	} {
		b.Run(tc.name, func(b *testing.B) {
			up := DoerFunc(func(r *http.Request) (*http.Response, error) {
				_, _ = io.Copy(io.Discard, r.Body)
				return &http.Response{StatusCode: 200, Header: http.Header{},
					Body: io.NopCloser(strings.NewReader(carriersBody))}, nil
			})
			e := baseEnv("https://api.example.com/v1")
			h := New(Deps{Getenv: func(k string) string { return e[k] }, Upstream: up, Log: io.Discard,
				Sandbox: inProcessSandbox(sandbox.NewMemoryStore())})
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest("POST", "/v1/"+tc.op, bytes.NewReader([]byte(tc.body)))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Authorization", "Bearer "+testToken)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatal(w.Code, w.Body.String())
				}
			}
		})
	}
}
