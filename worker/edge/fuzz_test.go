package edge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/sandbox"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// FuzzHandler sends arbitrary bodies to every operation: the edge never
// panics, always answers a JSON envelope, and what reaches the upstream
// is a body that decodes and validates.
func FuzzHandler(f *testing.F) {
	f.Add(uint8(6), []byte(shipmentForm))
	f.Add(uint8(2), []byte("from_country_code=ES&from_zip_code=28001&to_country_code=ES&to_zip_code=08001&parcels[0][parcel_weight]=1&parcels[0][parcel_width]=1&parcels[0][parcel_height]=1&parcels[0][parcel_length]=1&parcels[0][parcel_volume]=1"))
	f.Add(uint8(5), []byte("country_code=es&zip_code=%2028001"))
	f.Add(uint8(1), []byte("status=1&status=0"))
	f.Add(uint8(3), []byte("parcels[99999999999][parcel_weight]=1"))
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := &catalog.Operations[int(opIndex)%len(catalog.Operations)]
		var forwarded []byte
		up := DoerFunc(func(r *http.Request) (*http.Response, error) {
			forwarded, _ = io.ReadAll(r.Body)
			return &http.Response{StatusCode: 200, Header: http.Header{},
				Body: io.NopCloser(strings.NewReader(`{"status":"ok","data":{}}`))}, nil
		})
		e := baseEnv("https://api.example.com/v1")
		h := New(Deps{Getenv: func(k string) string { return e[k] }, Upstream: up,
			Sandbox: inProcessSandbox(sandbox.NewMemoryStore()),
			Now:     func() time.Time { return time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC) }})
		req := httptest.NewRequest("POST", "/v1/"+op.Name, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+testToken)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		var env struct {
			Status string          `json:"status"`
			Data   json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || (env.Status != "ok" && env.Status != "err") {
			t.Fatalf("not an envelope (%d): %q", w.Code, w.Body.String())
		}
		if forwarded == nil {
			if w.Code == 200 {
				t.Fatalf("200 without forwarding")
			}
			return
		}
		r, err := form.Decode(forwarded, form.DefaultLimits)
		if err != nil {
			t.Fatalf("forwarded body does not decode: %v: %q", err, forwarded)
		}
		if errs := validate.Request(op, r, validate.Options{Today: "2026-11-20"}, nil); len(errs) > 0 {
			t.Fatalf("forwarded body does not validate: %v: %q", errs, forwarded)
		}
	})
}
