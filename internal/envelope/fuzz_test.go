package envelope

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// FuzzDecode feeds any body to every operation: Decode must not panic,
// must return a value or one of the documented error types, and what it
// emits must be valid JSON (valid UTF-8 included) that our scanner reads.
func FuzzDecode(f *testing.F) {
	for _, v := range loadVectors(f) {
		for i := range catalog.Operations {
			if catalog.Operations[i].Name == v.Operation {
				f.Add(uint8(i), []byte(v.Body))
			}
		}
	}
	f.Add(uint8(0), []byte(`{"status":"err","data":["x"]}`))
	f.Add(uint8(10), []byte(`{"status":"ok","data":{"tracking_events":{"tracking_history":{"a":{"tracking_code":7}}}}}`))
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := catalog.Operations[int(opIndex)%len(catalog.Operations)].Name
		v, err := Decode(op, 200, body)
		var out []byte
		switch e := err.(type) {
		case nil:
			if v == nil {
				t.Fatal("nil value without error")
			}
			out = jsonlite.Marshal(v)
		case *APIError:
			out = jsonlite.Marshal(e)
		case *UnexpectedResponse:
			if !utf8.ValidString(e.Snippet) || len(e.Snippet) > 200 {
				t.Fatalf("bad snippet %q", e.Snippet)
			}
			out = jsonlite.Marshal(e)
		case *ShapeError:
			if len(e.Path) < 4 || e.Path[:4] != "data" {
				t.Fatalf("bad path %q", e.Path)
			}
			out = jsonlite.Marshal(e)
		default:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		if !json.Valid(out) || !utf8.Valid(out) {
			t.Fatalf("emitted invalid JSON %q for %q", out, body)
		}
		s := jsonlite.NewScanner(out)
		if err := s.Skip(); err != nil {
			t.Fatalf("re-scan: %v on %q", err, out)
		}
		if err == nil {
			// Deterministic: decoding again emits the same bytes.
			v2, err2 := Decode(op, 200, body)
			if err2 != nil || string(jsonlite.Marshal(v2)) != string(out) {
				t.Fatalf("not deterministic for %q", body)
			}
		}
	})
}
