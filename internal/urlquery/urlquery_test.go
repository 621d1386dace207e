package urlquery

import (
	"math/rand"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// checkParse holds Parse to url.ParseQuery on one body: the same verdict
// and, either way, the same values.
func checkParse(t *testing.T, raw string) {
	t.Helper()
	want, err := url.ParseQuery(raw)
	got, ok := Parse(raw)
	if ok != (err == nil) {
		t.Fatalf("Parse(%q) ok = %v, url.ParseQuery error %v", raw, ok, err)
	}
	if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(map[string][]string(got), map[string][]string(want))) {
		t.Fatalf("Parse(%q) = %q, url.ParseQuery %q", raw, got, want)
	}
}

func checkEscapes(t *testing.T, s string) {
	t.Helper()
	if got, want := Escape(s), url.QueryEscape(s); got != want {
		t.Fatalf("Escape(%q) = %q, url.QueryEscape %q", s, got, want)
	}
	want, err := url.QueryUnescape(s)
	got, ok := Unescape(s)
	if ok != (err == nil) || (ok && got != want) {
		t.Fatalf("Unescape(%q) = %q, %v; url.QueryUnescape %q, %v", s, got, ok, want, err)
	}
	// Round trip: what Escape writes, Unescape reads back.
	if back, ok := Unescape(Escape(s)); !ok || back != s {
		t.Fatalf("Unescape(Escape(%q)) = %q, %v", s, back, ok)
	}
}

func TestCases(t *testing.T) {
	for _, raw := range []string{
		"", "&", "&&", "=", "a", "a=", "=b", "a=b", "a=b&a=c", "a=b&c=d", "a==b", "a=b=c",
		"operations=get-rates%2Cnew-shipment&ttl=60", "a+b=c+d", "a%20b=%7e%7E",
		"a=%", "a=%4", "a=%4g", "a=%zz", "%=b", "a=b;c=d", ";", "a;=b&c=d", "a=1&b=%&c=3",
		"a=%e2%82%ac", "a=%ff%fe", "\x00=\xff", "a=b&", "&a=b", "a=b&&c", "k=%41%42&k",
		strings.Repeat("&", MaxParams-1), strings.Repeat("&", MaxParams), strings.Repeat("a=1&", MaxParams),
	} {
		checkParse(t, raw)
		checkEscapes(t, raw)
	}
}

// Random bodies over an alphabet rich in the characters that matter.
func TestRandomAgainstNetURL(t *testing.T) {
	const alphabet = "ab=&;%+ 09AFafgz~-_.*/?#\x00\x7f\xc3\xa9\xff"
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 50000; i++ {
		b := make([]byte, r.Intn(24))
		for j := range b {
			b[j] = alphabet[r.Intn(len(alphabet))]
		}
		checkParse(t, string(b))
		checkEscapes(t, string(b))
	}
	for c := 0; c < 256; c++ {
		checkEscapes(t, string(rune(c)))
		checkEscapes(t, string([]byte{byte(c)}))
	}
}

func TestValuesGet(t *testing.T) {
	v, ok := Parse("a=1&a=2&b=")
	if !ok || v.Get("a") != "1" || v.Get("b") != "" || v.Get("c") != "" || len(v["b"]) != 1 {
		t.Fatalf("Parse = %q, %v", v, ok)
	}
}

func FuzzAgainstNetURL(f *testing.F) {
	for _, s := range []string{"a=b&c=%41", "a;b", "%", "x=+%2B+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkParse(t, s)
		checkEscapes(t, s)
	})
}
