package jsonlite

import (
	"encoding/json"
	"testing"
)

// FuzzScanner checks that the scanner never panics, agrees with
// encoding/json on validity, and that transcoding through Writer gives
// JSON that re-scans to the same text.
func FuzzScanner(f *testing.F) {
	for _, seed := range []string{
		`{"status":"ok","data":{"a":[1,2.5,"x\u00e9\ud83d\ude9a",true,null,{}]}}`,
		`[1,[2,[3,[4]]]]`, `"\ud800"`, "\"\xff\"", `-0.5e-3`, `{"a":}`, `[`, ``, `nul`,
		`{"k":"\u2028"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s := NewScanner(in)
		err := s.Skip()
		if err == nil {
			err = s.End()
		}
		if (err == nil) != json.Valid(in) {
			t.Fatalf("validity mismatch: ours=%v std=%v for %q", err, json.Valid(in), in)
		}
		s.Reset(in)
		w := NewWriter()
		if err := s.Transcode(w); err != nil {
			return
		}
		out := append([]byte(nil), w.Bytes()...)
		if !json.Valid(out) {
			t.Fatalf("writer output invalid: %q from %q", out, in)
		}
		s2 := NewScanner(out)
		w2 := NewWriter()
		if err := s2.Transcode(w2); err != nil {
			t.Fatalf("re-scan failed: %v on %q", err, out)
		}
		if string(w2.Bytes()) != string(out) {
			t.Fatalf("transcode not idempotent: %q vs %q", w2.Bytes(), out)
		}
	})
}

// FuzzWriterString checks that any Go string written by Writer re-scans
// to the same string (after U+FFFD replacement of invalid UTF-8).
func FuzzWriterString(f *testing.F) {
	for _, seed := range []string{"", "a\"b", "\x00\u2028", "\xff\xfe", "🚚"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := AppendString(nil, in)
		got, err := NewScanner(out).String()
		if err != nil {
			t.Fatalf("re-scan: %v on %q", err, out)
		}
		var std string
		if err := json.Unmarshal(out, &std); err != nil {
			t.Fatalf("encoding/json rejects %q: %v", out, err)
		}
		if got != std {
			t.Fatalf("got %q, std %q", got, std)
		}
		if string(AppendString(nil, got)) != string(out) {
			t.Fatalf("not stable: %q", out)
		}
	})
}
