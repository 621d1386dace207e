package core

import (
	"strings"

	"github.com/parcelgate/parcelgate/internal/ratekey"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/internal/urlquery"
)

// serviceURL is the part of a parsed URL the configuration checks read.
// parseURL stands in for net/url.Parse, whose *url.Error links fmt and
// reflectlite into the TinyGo module (about 50 KB); urlcheck_test.go holds
// it to url.Parse's verdicts and fields on the configuration cases.
type serviceURL struct {
	Scheme     string // lowercased
	Opaque     string
	User       bool // an "@" in the authority, even with empty userinfo
	Host       string
	Path       string // unescaped
	RawQuery   string
	ForceQuery bool
	Fragment   string // unescaped
}

// Hostname is Host without a port and without IPv6 brackets.
func (u *serviceURL) Hostname() string {
	h := u.Host
	if strings.HasPrefix(h, "[") {
		if i := strings.LastIndex(h, "]"); i >= 0 {
			return h[1:i]
		}
	}
	if i := strings.LastIndex(h, ":"); i >= 0 {
		return h[:i]
	}
	return h
}

// parseURL follows url.Parse for absolute and relative references; ok is
// false where url.Parse returns an error.
func parseURL(raw string) (u serviceURL, ok bool) {
	for i := 0; i < len(raw); i++ {
		if raw[i] < 0x20 || raw[i] == 0x7f {
			return u, false
		}
	}
	rest, frag, hasFrag := substr.Cut(raw, "#")
	if hasFrag {
		if u.Fragment, ok = unescapeURL(frag, false); !ok {
			return u, false
		}
	}
	if rest == "*" {
		u.Path = "*"
		return u, true
	}
	// Scheme: a letter, then letters, digits, + - or ., up to a colon.
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if isAlpha(c) {
			continue
		}
		if i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.') {
			continue
		}
		if c == ':' {
			if i == 0 {
				return u, false // missing protocol scheme
			}
			u.Scheme, rest = unitab.Lower(rest[:i]), rest[i+1:]
		}
		break
	}
	if strings.HasSuffix(rest, "?") && strings.Count(rest, "?") == 1 {
		u.ForceQuery, rest = true, rest[:len(rest)-1]
	} else if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest, u.RawQuery = rest[:i], rest[i+1:]
	}
	if !strings.HasPrefix(rest, "/") {
		if u.Scheme != "" {
			u.Opaque = rest
			return u, true
		}
		seg, _, _ := substr.Cut(rest, "/")
		if substr.Contains(seg, ":") {
			return u, false // first path segment in URL cannot contain colon
		}
	}
	if strings.HasPrefix(rest, "//") && (u.Scheme != "" || !strings.HasPrefix(rest, "///")) {
		auth := rest[2:]
		rest = ""
		if i := strings.IndexByte(auth, '/'); i >= 0 {
			auth, rest = auth[:i], auth[i:]
		}
		if i := strings.LastIndexByte(auth, '@'); i >= 0 {
			if !validUserinfo(auth[:i]) {
				return u, false
			}
			u.User = true
			auth = auth[i+1:]
		}
		if u.Host, ok = parseURLHost(auth); !ok {
			return u, false
		}
	}
	if u.Path, ok = unescapeURL(rest, false); !ok {
		return u, false
	}
	return u, true
}

func parseURLHost(host string) (string, bool) {
	if open := strings.LastIndexByte(host, '['); open > 0 {
		return "", false
	} else if open == 0 {
		closing := strings.LastIndexByte(host, ']')
		if closing < 0 || !validOptionalPort(host[closing+1:]) {
			return "", false
		}
		name := host[1:closing]
		if substr.Contains(name, "%") {
			return "", false // zones: never a service this worker calls
		}
		if !ratekey.IsIPv6(name) {
			return "", false // as url.Parse: netip.ParseAddr must read an IPv6 address
		}
		return host, true
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		if !validOptionalPort(host[i:]) {
			return "", false
		}
	}
	return unescapeURL(host, true)
}

func validOptionalPort(port string) bool {
	if port == "" {
		return true
	}
	if port[0] != ':' {
		return false
	}
	for i := 1; i < len(port); i++ {
		if !isDigit(port[i]) {
			return false
		}
	}
	return true
}

func validUserinfo(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || isAlpha(c) || isDigit(c) || strings.IndexByte("-._:~!$&'()*+,;=%@", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// unescapeURL decodes %XX escapes; in a host, only non-ASCII bytes (and
// %25) may be escaped and only host characters may appear.
func unescapeURL(s string, host bool) (string, bool) {
	if !substr.Contains(s, "%") && !host {
		return s, true
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 >= len(s) {
				return "", false
			}
			hi, ok1 := urlquery.Unhex(s[i+1])
			lo, ok2 := urlquery.Unhex(s[i+2])
			if !ok1 || !ok2 || host && hi < 8 && s[i:i+3] != "%25" {
				return "", false
			}
			b = append(b, hi<<4|lo)
			i += 2
			continue
		}
		if host && c < 0x80 && !(isAlpha(c) || isDigit(c) || strings.IndexByte("-_.~!$&'()*+,;=:[]<>\"", c) >= 0) {
			return "", false
		}
		b = append(b, c)
	}
	return string(b), true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
