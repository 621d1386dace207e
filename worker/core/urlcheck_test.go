package core

import (
	"net/url"
	"testing"
)

// urlCases are the shapes ALLOWED_ORIGINS, UPSTREAM_BASE_URL and
// WEBHOOK_URL take, good and bad.
var urlCases = []string{
	"https://shop.example", "https://shop.example/", "HTTPS://Shop.Example:443", "http://127.0.0.1:8787",
	"http://localhost:8787/", "https://shop.example:", "https://shop.example:8x", "https://shop.example:443:1",
	"https://shop.example/path", "https://shop.example?x=1", "https://shop.example/?", "https://shop.example#f",
	"https://shop.example/#", "https://user:pw@shop.example", "https://@shop.example", "https://u@p@shop.example",
	"https://us er@shop.example", "https://[::1]:8787", "https://[::1]", "https://[127.0.0.1]", "https://[::1",
	"https://x[::1]", "https://[fe80::1%25en0]", "https://[::1]x", "https://sh op.example", "https://shop%2eexample",
	"https://%c3%a9.example", "https://shop.example/%76%31", "https://shop.example/%zz", "https://shop.example/#%zz",
	"https:///v1", "https://", "https:", "https:shop.example", "shop.example", "//shop.example", "///x", ":foo",
	"*", "1http://x", "a:b/c", "ftp://x.example", "https://api.example.com/v1", "https://api.example.com/v1/",
	"http://127.0.0.1:9/v1?x", "https://api.example.com/v1#x", "https://ex\tample.com", "https://ex\x7fample.com",
	"https://shop.example\\x", "https://shop_example", "https://shop.example:99999", "https://a{b}.example",
	"https://a\"b.example", "https://a<b.example", "https://a%41.example", "https://a%25.example", "",
	"https://[::ffff:1.2.3.4]:1", "https://[1:2:3:4:5:6:7:8:9]", "https://[1::2::3]", "https://[::01.2.3.4]",
	"https://[::1.2.3.4]", "https://[g::1]", "https://[]", "https://[1:2:3:4:5:6:7:8]/v1",
	"https://shop.example/a?b?", "https://shop.example/a?", "ht-tp+s.1://x", "https://xn--bcher-kva.example/v1",
}

// stricter are the URLs parseURL refuses on purpose: IPv6 zones name no
// service the worker calls.
var stricter = map[string]bool{"https://[fe80::1%25en0]": true}

// TestParseURLMatchesNetURL holds parseURL to url.Parse: the same verdict
// and the same fields the configuration checks read.
func TestParseURLMatchesNetURL(t *testing.T) {
	for _, s := range urlCases {
		want, err := url.Parse(s)
		got, ok := parseURL(s)
		if stricter[s] {
			if ok || err != nil {
				t.Errorf("%q: parseURL ok=%v (want a refusal), url.Parse err=%v", s, ok, err)
			}
			continue
		}
		if ok != (err == nil) {
			t.Errorf("%q: parseURL ok=%v, url.Parse err=%v", s, ok, err)
			continue
		}
		if err != nil {
			continue
		}
		w := serviceURL{Scheme: want.Scheme, Opaque: want.Opaque, User: want.User != nil, Host: want.Host,
			Path: want.Path, RawQuery: want.RawQuery, ForceQuery: want.ForceQuery, Fragment: want.Fragment}
		if got != w {
			t.Errorf("%q: parseURL %+v, url.Parse %+v", s, got, w)
		}
		if got.Hostname() != want.Hostname() {
			t.Errorf("%q: Hostname %q, url.Parse %q", s, got.Hostname(), want.Hostname())
		}
	}
}
