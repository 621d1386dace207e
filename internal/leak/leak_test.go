package leak

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

const (
	user = "shop-42"
	// A key whose base64 has '/' and '+' (JSON may escape '/' as "\/").
	key = "k3y?>~>secret-0123"
)

// uEscape spells every character of s as \uXXXX (surrogate pairs above
// the BMP), the way a JSON encoder that escapes everything writes it.
func uEscape(s string) string {
	var b strings.Builder
	const hex = "0123456789abcdef"
	put := func(r rune) {
		b.WriteString(`\u`)
		for sh := 12; sh >= 0; sh -= 4 {
			b.WriteByte(hex[r>>sh&15])
		}
	}
	for _, r := range s {
		if r > 0xffff {
			r -= 0x10000
			put(0xd800 + r>>10)
			put(0xdc00 + r&0x3ff)
			continue
		}
		put(r)
	}
	return b.String()
}

func TestLeaks(t *testing.T) {
	pair := user + ":" + key
	b64 := base64.StdEncoding.EncodeToString([]byte(pair))
	if !strings.ContainsAny(b64, "/+") {
		t.Fatalf("the test key's base64 %q must hold / or +", b64)
	}
	keyB64 := base64.StdEncoding.EncodeToString([]byte(key))
	f := New(user, key)
	leaks := map[string]string{
		"key":                   `{"status":"ok","data":{"debug":"` + key + `"}}`,
		"pair":                  `{"status":"err","data":{"errorMessage":"` + pair + `"}}`,
		"key with \\/ ":         `{"d":"` + strings.ReplaceAll(key, "?", `\u003f`) + `"}`,
		"every char \\u":        `{"d":"` + uEscape(key) + `"}`,
		"upper-case hex":        `{"d":"` + strings.ReplaceAll(strings.ToUpper(uEscape(pair)), `\U`, `\u`) + `"}`,
		"base64 with \\/":       `{"h":"Basic ` + strings.ReplaceAll(b64, "/", `\/`) + `"}`,
		"key base64 with \\/":   `{"h":"` + strings.ReplaceAll(keyB64, "/", `\/`) + `"}`,
		"url base64":            `{"h":"` + base64.RawURLEncoding.EncodeToString([]byte(pair)) + `"}`,
		"in a member name":      `{"` + uEscape(key) + `":1}`,
		"html page, escaped":    `<pre>{"auth":"` + uEscape(pair) + `"}</pre>`,
		"not JSON at all":       `Authorization: Basic ` + strings.ReplaceAll(b64, "/", `\/`) + "\n",
		"after an escaped \\\\": `{"d":"C:\\\\` + uEscape(key) + `"}`,
	}
	for name, body := range leaks {
		if !f.Leaks([]byte(body)) {
			t.Errorf("%s: missed in %s", name, body)
		}
	}
	clean := map[string]string{
		"ordinary":          `{"status":"ok","data":{"dlvr_ref":"SBX1","label_raw":"JVBERi0xLjQK\/+abc"}}`,
		"key's prefix":      `{"d":"` + key[:len(key)-1] + `"}`,
		"escaped backslash": `{"d":"\\` + `u006b3y"}`, // the text \u006b3y, not "k3y"
		"user alone":        `{"d":"` + user + `"}`,
		"broken escapes":    `{"d":"\u12","e":"\","f":"\x"}`,
		"lone surrogates":   `{"d":"\ud800\udc00x\udc00\ud800"}`,
		"empty":             ``,
	}
	for name, body := range clean {
		if f.Leaks([]byte(body)) {
			t.Errorf("%s: false alarm in %s", name, body)
		}
	}
	// A short key is looked for only as "user:key".
	short := New(user, "abc")
	if short.Leaks([]byte(`{"d":"abc"}`)) || !short.Leaks([]byte(`{"d":"shop-42\u003aabc"}`)) {
		t.Error("short key")
	}
	if (Filter{}).Leaks([]byte(key)) || New(user, "").Leaks([]byte(pair)) {
		t.Error("no key, no leak")
	}
}

// For valid JSON, Unescape's text holds each string exactly as a JSON
// decoder reads it (jsonlite, which the edge decodes with): what the scan
// sees is what a client would see.
func FuzzUnescapeMatchesJSON(f *testing.F) {
	for _, s := range []string{"a/b", key, "é😀\u2028", "\x00\x1f\"\\"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, all bool) {
		if !utf8.ValidString(s) {
			return
		}
		var lit string
		if all {
			lit = `"` + uEscape(s) + `"`
		} else {
			b, _ := json.Marshal(s)
			lit = strings.ReplaceAll(string(b), "/", `\/`)
		}
		got := string(Unescape([]byte(lit)))
		want, err := jsonlite.NewScannerString(lit).String()
		if err != nil {
			t.Fatal(err)
		}
		if got != `"`+want+`"` || want != s {
			t.Fatalf("%q: Unescape %q, jsonlite %q", s, got, want)
		}
	})
}

// The credentials inside a longer text that is base64-encoded start at
// any of three alignments; a request dump that is base64-encoded holds
// the base64 of the Authorization header's value.
func TestLeaksInBase64AtAnyAlignment(t *testing.T) {
	pair := user + ":" + key
	f := New(user, key)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
		for _, prefix := range []string{"", "a", "ab", "abc", "key=", "Authorization: Basic "} {
			for _, secret := range []string{pair, key, base64.StdEncoding.EncodeToString([]byte(pair))} {
				body := `{"status":"err","data":{"dump":"` + enc.EncodeToString([]byte(prefix+secret+"\r\nHost: x")) + `"}}`
				if !f.Leaks([]byte(body)) {
					t.Errorf("not found: base64 of %q + %q", prefix, secret)
				}
			}
		}
	}
	// Ordinary base64 data (a label) is not taken for it.
	if f.Leaks([]byte(`{"label_raw":"` + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("%PDF-1.4 shop-42 parcel ", 40))) + `"}`)) {
		t.Error("a label without the credentials was withheld")
	}
}
