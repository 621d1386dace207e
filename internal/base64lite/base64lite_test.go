package base64lite

import (
	"encoding/base64"
	"math/rand"
	"strings"
	"testing"
)

// modes are every Mode with the encoding/base64 Encoding it stands for.
var modes = []struct {
	m   Mode
	enc *base64.Encoding
}{
	{0, base64.StdEncoding},
	{URL, base64.URLEncoding},
	{Raw, base64.RawStdEncoding},
	{URL | Raw, base64.RawURLEncoding},
	{Strict, base64.StdEncoding.Strict()},
	{URL | Strict, base64.URLEncoding.Strict()},
	{Raw | Strict, base64.RawStdEncoding.Strict()},
	{URL | Raw | Strict, base64.RawURLEncoding.Strict()},
}

// check holds Encode and Decode to encoding/base64 for src and for the
// text s (CR and LF removed: this package does not skip them).
func check(t *testing.T, src []byte, s string) {
	t.Helper()
	s = strings.NewReplacer("\r", "", "\n", "").Replace(s)
	for _, c := range modes {
		if got, want := Encode(src, c.m), c.enc.EncodeToString(src); got != want {
			t.Fatalf("Encode(%q, %d) = %q; encoding/base64: %q", src, c.m, got, want)
		}
		got, err := Decode(s, c.m)
		want, werr := c.enc.DecodeString(s)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() || err == nil && string(got) != string(want) {
			t.Fatalf("Decode(%q, %d) = %q, %v; encoding/base64: %q, %v", s, c.m, got, err, want, werr)
		}
	}
}

func TestTable(t *testing.T) {
	for _, s := range []string{
		"", "=", "==", "===", "====", "A", "AA", "AAA", "AAAA", "AA=", "AA==", "AA===", "AAA=", "AAA==",
		"AB==", "AB=", "ABC=", "ABD=", "AAAAA", "AAAAAA==", "AAAAAAA=", "AAAA====", "A===", "=AAA",
		"AA=A", "AA==AAAA", "AAA=AAAA", "+/-_", "+/+/", "-_-_", "Zm9vYmFy", "Zm9vYmE=", "Zm9vYg==",
		"Zm9vYmE", "Zm9vYg", "Zm9vYh==", "Zm9vYmF=", "Zm9vYmF", "Zm9vYh", "Zm9v YmFy", "Zm9v\x00", "Zm9v\xff",
		"AAAA!", "!", "AAA\x80", "AA=\x00", "AA==\x00", "AAA=.",
	} {
		check(t, []byte(s), s)
	}
}

func TestRandom(t *testing.T) {
	r := rand.New(rand.NewSource(64))
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=!\r\n"
	for i := 0; i < 50000; i++ {
		src := make([]byte, r.Intn(20))
		r.Read(src)
		// Valid text (of a random mode), then mangled at a few places.
		s := []byte(modes[r.Intn(len(modes))].enc.EncodeToString(src))
		for k := r.Intn(3); k > 0 && len(s) > 0; k-- {
			s[r.Intn(len(s))] = chars[r.Intn(len(chars))]
		}
		if r.Intn(4) == 0 && len(s) > 0 {
			s = s[:r.Intn(len(s))]
		}
		check(t, src, string(s))
	}
}

func FuzzBase64(f *testing.F) {
	f.Add([]byte("foobar"), "Zm9vYmE=")
	f.Add([]byte{0xff}, "_w")
	f.Fuzz(func(t *testing.T, src []byte, s string) { check(t, src, s) })
}

// TestAppendEncode holds AppendEncode to encoding/base64 for sources of
// every length up to 300 bytes (the groups of three and every remainder),
// appended after a prefix it must keep, into a buffer with room and one
// without.
func TestAppendEncode(t *testing.T) {
	r := rand.New(rand.NewSource(30))
	for n := 0; n <= 300; n++ {
		src := make([]byte, n)
		r.Read(src)
		for _, c := range modes {
			want := "pfx." + c.enc.EncodeToString(src)
			if got := string(AppendEncode([]byte("pfx."), src, c.m)); got != want {
				t.Fatalf("AppendEncode(%d bytes, %d) = %q; want %q", n, c.m, got, want)
			}
			roomy := append(make([]byte, 0, 1024), "pfx."...)
			if got := string(AppendEncode(roomy, src, c.m)); got != want {
				t.Fatalf("AppendEncode(%d bytes, %d) into a roomy buffer = %q; want %q", n, c.m, got, want)
			}
		}
	}
}
