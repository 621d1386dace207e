package form

import (
	"testing"
	"unicode/utf8"
)

// FuzzDecode feeds any input to Decode: it must not panic, must fail with
// an *Error only, and a request it accepts must survive encode + decode.
func FuzzDecode(f *testing.F) {
	for _, file := range []string{"encode.json", "decode.json", "errors.json"} {
		for _, v := range loadVectors(f, file) {
			f.Add([]byte(v.Body))
		}
	}
	f.Add([]byte("parcels[0][parcel_weight]=1&parcels[1][parcel_weight]=2&a=%C3%B1"))
	lim := Limits{MaxBytes: 4096, MaxFields: 20, MaxParcels: 12, MaxValueRunes: 64}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := Decode(body, lim)
		if err != nil {
			fe, ok := err.(*Error)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if fe.Message == "" || !utf8.ValidString(fe.Field) {
				t.Fatalf("bad error %#v", fe)
			}
			if r != nil {
				t.Fatal("request with an error")
			}
			return
		}
		if len(r.Fields) > lim.MaxFields || len(r.Parcels) > lim.MaxParcels {
			t.Fatalf("limits exceeded: %d fields, %d parcels", len(r.Fields), len(r.Parcels))
		}
		for _, fl := range r.Fields {
			if nameEnd([]byte(fl.Name)) != len(fl.Name) || fl.Name == "" || fl.Name == "parcels" || !utf8.ValidString(fl.Value) {
				t.Fatalf("accepted bad field %q=%q", fl.Name, fl.Value)
			}
		}
		enc := Encode(r)
		if len(enc) != EncodedLen(r) {
			t.Fatalf("EncodedLen %d, Encode wrote %d", EncodedLen(r), len(enc))
		}
		// Re-encoding may grow the body (escapes), so decode it unbounded in size.
		lim2 := lim
		lim2.MaxBytes = 1 << 20
		r2, err := Decode(enc, lim2)
		if err != nil {
			t.Fatalf("re-decode of %q (from %q): %v", enc, body, err)
		}
		if !r.Equal(r2) {
			t.Fatalf("round trip changed the request:\n%+v\n%+v", r, r2)
		}
		if string(Encode(r2)) != string(enc) {
			t.Fatalf("encoding not stable for %q", body)
		}
	})
}

// FuzzRoundTrip builds a request from fuzzer-chosen values (any bytes;
// invalid UTF-8 must be rejected on decode, valid values come back intact).
func FuzzRoundTrip(f *testing.F) {
	f.Add("Tienda Ñandú S.L.", "a&b=c+d%e[f]", "1.5", "", "📦 東京", uint8(2))
	f.Add("", "", "", "", "", uint8(0))
	f.Add("\xff", " ", "%", "+", "=", uint8(1))
	f.Fuzz(func(t *testing.T, v1, v2, w, h, other string, nParcels uint8) {
		r := &Request{Fields: []Field{{"to_name", v1}, {"to_address", v2}, {"x-extra_1", other}}}
		for i := 0; i < int(nParcels%5); i++ {
			r.Parcels = append(r.Parcels, Parcel{Weight: w, Height: h, Volume: other})
		}
		body := Encode(r)
		lim := Limits{MaxBytes: 1 << 20, MaxValueRunes: 1 << 20}
		got, err := Decode(body, lim)
		// w and h reach the body only inside parcels.
		valid := utf8.ValidString(v1) && utf8.ValidString(v2) && utf8.ValidString(other) &&
			(len(r.Parcels) == 0 || utf8.ValidString(w) && utf8.ValidString(h))
		if !valid {
			fe, ok := err.(*Error)
			if !ok || fe.Message != "invalid UTF-8" {
				t.Fatalf("invalid UTF-8 not reported: %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("decode %q: %v", body, err)
		}
		if !r.Equal(got) {
			t.Fatalf("round trip:\n%+v\n%+v", r, got)
		}
		// Only the value alphabet, escapes and the pair syntax reach the wire.
		for i := range body {
			if c := body[i]; !keep(c) && c != '%' && c != '+' && c != '=' && c != '&' && c != '[' && c != ']' {
				t.Fatalf("unescaped byte %q in %q", c, body)
			}
		}
	})
}
