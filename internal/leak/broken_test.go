package leak

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/allocated"
)

// mime wraps s at 76 characters a line with eol between the lines, as
// Python's base64.encodebytes ("\n") and PHP's chunk_split ("\r\n") do.
func mime(s, eol string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + eol)
		s = s[76:]
	}
	b.WriteString(s + eol)
	return b.String()
}

// jsonText is s as a JSON string's content: CR and LF as escapes.
func jsonText(s string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`, `"`, `\"`, `\`, `\\`).Replace(s)
}

// dump is a request as an upstream may log it: the Authorization
// header's base64 crosses the second line break of its MIME base64
// (bytes 57..114 are the second line; the header's value is bytes
// 87..123).
func dump(basic string) string {
	return "POST /api/v1/shipments HTTP/1.1\r\nHost: upstream.example.com:8443\r\nAuthorization: Basic " + basic +
		"\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nshipping_date=2026-12-01&carrier_code=rapido\r\n"
}

// Each spelling here was relayed before the scan joined runs and
// decoded %XX.
func TestLeaksInBrokenSpellings(t *testing.T) {
	pair := user + ":" + key
	basic := base64.StdEncoding.EncodeToString([]byte(pair))
	dumpB64 := base64.StdEncoding.EncodeToString([]byte(dump(basic)))
	hexPair := hex.EncodeToString([]byte(pair))
	hexKey := hex.EncodeToString([]byte(key))
	spaced := func(h string) string { // a hex dump: "6b 33 79 ..."
		var b strings.Builder
		for i := 0; i < len(h); i += 2 {
			b.WriteString(h[i:i+2] + " ")
		}
		return b.String()
	}
	f := New(user, key)
	for name, body := range map[string]string{
		"dump, encodebytes, in JSON":  `{"status":"err","data":{"dump":"` + jsonText(mime(dumpB64, "\n")) + `"}}`,
		"dump, chunk_split, in JSON":  `{"status":"err","data":{"dump":"` + jsonText(mime(dumpB64, "\r\n")) + `"}}`,
		"dump, chunk_split, as text":  "request:\r\n" + mime(dumpB64, "\r\n"),
		"dump, URL alphabet, in JSON": `{"dump":"` + jsonText(mime(base64.URLEncoding.EncodeToString([]byte(dump(basic))), "\n")) + `"}`,
		"dump, JSON in a JSON string": `{"error":"{\"dump\":\"` + strings.ReplaceAll(jsonText(mime(dumpB64, "\r\n")), `\`, `\\`) + `\"}"}`,
		"Basic split by \\n":          `{"h":"Basic ` + basic[:20] + `\n` + basic[20:] + `"}`,
		"Basic split by \\r\\n + tab": `{"h":"Basic ` + basic[:21] + `\r\n\t` + basic[21:] + `"}`,
		"key percent-encoded":         `{"url":"https://upstream.example/debug?api_key=` + url.QueryEscape(key) + `&x=1"}`,
		"key, every byte %XX":         `{"d":"` + strings.ToLower(strings.ReplaceAll(" "+spaced(hexKey), " ", "%")) + `"}`,
		"Basic percent-encoded":       `{"d":"Authorization=Basic%20` + url.QueryEscape(basic) + `"}`,
		"key as hex":                  `{"d":"` + hexKey + `"}`,
		"key as HEX":                  `{"d":"0x` + strings.ToUpper(hexKey) + `"}`,
		"pair as hex":                 `{"d":"` + hexPair + `"}`,
		"Basic as hex (a hex dump)":   `{"d":"` + hex.EncodeToString([]byte(dump(basic))) + `"}`,
		"hex dump, spaced":            "<pre>" + spaced(hexKey) + "</pre>",
		"hex split by \\n":            `{"d":"` + hexPair[:20] + `\n` + strings.ToUpper(hexPair[20:]) + `"}`,
	} {
		if !f.Leaks([]byte(body)) {
			t.Errorf("%s: missed in %s", name, body)
		}
	}
	clean := map[string]string{
		"a MIME-wrapped label": `{"label_raw":"` + jsonText(mime(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("%PDF-1.4 shop-42 parcel k3y ", 90))), "\r\n")) + `"}`,
		"prose":                `{"errorMessage":"The user shop-42 sent a key that k3y secret 0123 does not match."}`,
		"a hash":               `{"sha256":"` + strings.Repeat("9f86d081884c7d659a2feaa0c55ad015", 2) + `"}`,
		"a URL":                `{"url":"https://upstream.example/track?ref=SBX%20000%2F1&user=shop-42%3A"}`,
		"broken %":             `{"d":"%","e":"%4","f":"%zz%%41"}`,
		"the key's hex, short": `{"d":"` + hexKey[:len(hexKey)-2] + `"}`,
		"breaks alone":         " \r\n\\n\\r\\t \\",
	}
	for name, body := range clean {
		if f.Leaks([]byte(body)) {
			t.Errorf("%s: false alarm in %s", name, body)
		}
	}
}

// Wherever the Authorization header falls against the dump's line
// breaks, and whichever line end, in JSON or as text, it is found.
func TestWrappedDumpAtEveryPosition(t *testing.T) {
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + key))
	f := New(user, key)
	for pad := 0; pad <= 2*57; pad++ {
		d := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", pad) + "Authorization: Basic " + basic + "\r\n"))
		for _, eol := range []string{"\n", "\r\n"} {
			for _, body := range []string{`{"dump":"` + jsonText(mime(d, eol)) + `"}`, mime(d, eol)} {
				if !f.Leaks([]byte(body)) {
					t.Fatalf("pad %d: missed in %q", pad, body)
				}
			}
		}
	}
}

// The scan never panics and is linear in the body's size: it searches at
// most three whole texts (the body, its unescaped and percent-decoded
// copies) and the joined runs (with a NUL after each) in windows of
// Window bytes, which repeat at most the longest needle of the window
// before: together at most six times the body and that overlap, each with
// the filter's fixed needles. A body holding the key is always withheld.
func FuzzScanIsLinear(f *testing.F) {
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + key))
	for _, s := range []string{
		"", `\`, "%", "%4", " \\n", key, mime(base64.StdEncoding.EncodeToString([]byte(dump(basic))), "\r\n"),
		`{"d":"` + jsonText(mime(base64.StdEncoding.EncodeToString([]byte(dump(basic))), "\n")) + `"}`,
		strings.Repeat("a \\n", 50), strings.Repeat("%41", 40), hex.EncodeToString([]byte(key)),
		strings.Repeat("A", 3*Window), mime(strings.Repeat("QUJD", Window), "\n") + hex.EncodeToString([]byte(key)),
	} {
		f.Add([]byte(s))
	}
	flt := New(user, key)
	f.Fuzz(func(t *testing.T, body []byte) {
		texts, size := 0, 0
		found := flt.scan(body, func(b []byte, ns [][]byte) bool {
			texts++
			size += len(b)
			for _, n := range ns {
				if strings.Contains(string(b), string(n)) {
					return true
				}
			}
			return false
		})
		// Each stream's joined text is at most twice the body (a NUL after
		// each run); a window adds Window bytes of it, after the first.
		windows := 2 * (2*len(body)/Window + 1)
		if texts > 3+windows || size > 6*len(body)+windows*max(flt.s.maxRun, flt.s.maxHex) {
			t.Fatalf("%d texts of %d bytes for a body of %d", texts, size, len(body))
		}
		if found != flt.Leaks(body) {
			t.Fatal("scan and Leaks disagree")
		}
		if strings.Contains(string(body), key) && !found {
			t.Fatalf("the key itself missed in %q", body)
		}
	})
}

// A long run is searched a window at a time, never joined whole: an
// upstream answer of megabytes (a label: base64, which holds long runs
// of hex digits, or MIME-wrapped base64) costs the scan a window, not
// copies of the answer (it joined a 4 MiB run of "A" into 8 MiB of
// buffers, then more as they grew). Still found: the key's hex in a long
// hex run and its MIME base64 in a long wrapped run, at every offset
// around a window's end.
func TestLongRunsAreSearchedInWindows(t *testing.T) {
	f := New(user, key)
	const mib = 1 << 20
	for _, body := range []string{
		`{"status":"ok","data":{"label":"` + strings.Repeat("A", 4*mib) + `"}}`,
		`{"status":"ok","data":{"label":"` + jsonText(mime(strings.Repeat("QUJD", mib), "\n")) + `"}}`,
		mime(strings.Repeat("QUJD", mib), "\r\n"),
	} {
		b := []byte(body)
		var leaks bool
		n := allocated.Bytes(func() { leaks = f.Leaks(b) })
		if leaks {
			t.Fatalf("a leak found in %.40q...", body)
		}
		// The one text the scan may copy whole is the unescaped body.
		if limit := uint64(len(body)) + 4*Window; n > limit {
			t.Errorf("the scan of %.40q... (%d bytes) allocated %d bytes (at most %d)", body, len(body), n, limit)
		}
	}
	hexKey := strings.ToUpper(hex.EncodeToString([]byte(key)))
	b64 := base64.StdEncoding.EncodeToString([]byte(dump(base64.StdEncoding.EncodeToString([]byte(user + ":" + key)))))
	for pad := Window - 2*len(hexKey); pad < Window+2*len(hexKey); pad++ {
		if body := strings.Repeat("A", pad) + hexKey + strings.Repeat("B", 100); !f.Leaks([]byte(body)) {
			t.Fatalf("the key's hex missed after %d hex digits", pad)
		}
	}
	for pad := Window - 2*len(b64); pad < Window+len(b64); pad += 4 {
		if body := mime(strings.Repeat("Q", pad)+b64, "\n"); !f.Leaks([]byte(body)) {
			t.Fatalf("the dump's MIME base64 missed after %d characters", pad)
		}
	}
}
