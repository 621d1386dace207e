package envelope

import (
	"testing"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// DecodeValue (what the WebAssembly modules call) emits what Decode's typed
// result emits and fails as Decode does, for every response vector and for
// an empty and an error envelope of every operation.
func TestDecodeValueIsDecode(t *testing.T) {
	type tc struct {
		op   string
		body string
	}
	var cases []tc
	for _, v := range loadVectors(t) {
		cases = append(cases, tc{v.Operation, v.Body})
	}
	for i := range catalog.Operations {
		op := catalog.Operations[i].Name
		cases = append(cases, tc{op, `{"status":"ok","data":{}}`}, tc{op, `{"status":"ok","data":[]}`},
			tc{op, `{"status":"err","data":{"errorCode":108,"errorMessage":"x"}}`}, tc{op, `<html>`})
	}
	cases = append(cases, tc{"get-everything", `{"status":"ok","data":{}}`})
	for _, c := range cases {
		want, werr := Decode(c.op, 200, []byte(c.body))
		got, gerr := DecodeValue(c.op, 200, []byte(c.body))
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("%s %q: error %v, Decode's %v", c.op, c.body, gerr, werr)
		}
		if werr != nil {
			if got != nil {
				t.Fatalf("%s %q: a value with an error", c.op, c.body)
			}
			continue
		}
		if g, w := jsonlite.Marshal(got), jsonlite.Marshal(want); string(g) != string(w) {
			t.Fatalf("%s %q: emits %s, Decode's %s", c.op, c.body, g, w)
		}
	}
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
}
