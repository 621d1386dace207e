package edge

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Demo tokens let the demo shop (served by the worker itself) book against
// the embedded sandbox without ever seeing PROXY_TOKEN. They exist only
// while the upstream is the embedded sandbox: /demo/token is then
// answered, and the token check accepts them; with UPSTREAM_BASE_URL set,
// /demo/token is an unknown path and every demo token is refused.
//
// A token is "pgdemo.<expiry, unix seconds>.<base64url HMAC-SHA256>" over
// "pgdemo.<expiry>", keyed by SHA-256 of a label, PROXY_TOKEN and API_KEY.
// It is stateless (each request runs in a fresh instance), verifiable in
// constant time, and changes when either secret changes.

// DemoTokenPath is the demo token endpoint (GET or POST).
const DemoTokenPath = "/demo/token"

// DemoTokenTTL is how long a demo token is accepted.
const DemoTokenTTL = time.Hour

const (
	demoPrefix   = "pgdemo."
	demoMaxLen   = 96
	demoKeyLabel = "parcelgate demo token v1\x00"
)

// demoMode reports whether demo tokens exist: the upstream is the embedded
// sandbox (UPSTREAM_BASE_URL empty, even if other settings are invalid)
// and the platform provides one.
func (h *Handler) demoMode() bool {
	c, _ := h.config()
	return c.Sandbox && h.d.Store != nil
}

func demoKey(cfg *Config) []byte {
	k := sha256.New()
	k.Write([]byte(demoKeyLabel))
	k.Write([]byte(cfg.ProxyToken))
	k.Write([]byte{0})
	k.Write([]byte(cfg.APIKey))
	return k.Sum(nil)
}

func demoMAC(cfg *Config, payload string) []byte {
	m := hmac.New(sha256.New, demoKey(cfg))
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// mintDemoToken returns a token valid until now + DemoTokenTTL.
func mintDemoToken(cfg *Config, now time.Time) (string, time.Time) {
	exp := now.Add(DemoTokenTTL).Truncate(time.Second)
	payload := demoPrefix + strconv.FormatInt(exp.Unix(), 10)
	return payload + "." + base64.RawURLEncoding.EncodeToString(demoMAC(cfg, payload)), exp
}

// demoTokenOK reports whether token is a demo token minted with cfg's
// secrets that has not expired. Malformed input is simply refused.
func demoTokenOK(cfg *Config, token string, now time.Time) bool {
	if len(token) > demoMaxLen || !strings.HasPrefix(token, demoPrefix) {
		return false
	}
	rest := token[len(demoPrefix):]
	dot := strings.IndexByte(rest, '.')
	if dot <= 0 || dot > 12 {
		return false
	}
	exp, err := strconv.ParseInt(rest[:dot], 10, 64)
	if err != nil || exp <= 0 {
		return false
	}
	// Canonical spelling only: the decimal expiry as FormatInt writes it
	// and the MAC exactly as minted. Go's base64 decoders skip \r and \n
	// (even Strict), so comparing the decoded bytes would accept many
	// spellings of one token; the whole string is compared instead.
	payload := token[:len(demoPrefix)+dot]
	if rest[:dot] != strconv.FormatInt(exp, 10) {
		return false
	}
	want := payload + "." + base64.RawURLEncoding.EncodeToString(demoMAC(cfg, payload))
	if !hmac.Equal([]byte(token), []byte(want)) {
		return false
	}
	// Unexpired, and not further ahead than a fresh token would be (a
	// token is never valid for more than DemoTokenTTL).
	n := now.Unix()
	return n < exp && exp <= n+int64(DemoTokenTTL/time.Second)+60
}

// bearerToken extracts the token of an "Authorization: Bearer" header.
func bearerToken(header string) (string, bool) {
	const prefix = "bearer "
	if len(header) < len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return "", false
	}
	return strings.TrimSpace(header[len(prefix):]), true
}

// demoToken answers /demo/token (only reached in demo mode).
func (x *exchange) demoToken(cfg *Config, cfgErrs []ConfigError) {
	if len(cfgErrs) > 0 {
		x.misconfigured(cfgErrs)
		return
	}
	if x.limitedByIP() {
		return
	}
	if cfg.ProxyToken == "" || cfg.APIKey == "" {
		x.misconfigured([]ConfigError{{EnvProxyToken, "secret is not set (demo tokens are derived from PROXY_TOKEN and API_KEY)"}})
		return
	}
	now := x.h.d.Now()
	token, exp := mintDemoToken(cfg, now)
	body := okObject(func(w jsonlite.Emitter) {
		writeToken(w, token, exp, now)
		w.Key("upstream")
		w.String("sandbox")
	})
	x.respond(http.StatusOK, body)
}
