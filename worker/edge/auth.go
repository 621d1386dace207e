package edge

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
)

// bearerOK reports whether an Authorization header carries the proxy
// token. Both sides are hashed first so that the comparison takes the same
// time whatever the lengths, then compared in constant time.
func bearerOK(header, token string) bool {
	t, ok := bearerToken(header)
	if !ok {
		return false
	}
	got := sha256.Sum256([]byte(t))
	want := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

// basicAuth is the upstream's Authorization header value.
func basicAuth(user, key string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+key))
}

// bearerToken extracts the token of an "Authorization: Bearer" header.
func bearerToken(header string) (string, bool) {
	const prefix = "bearer "
	if len(header) < len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return "", false
	}
	return strings.TrimSpace(header[len(prefix):]), true
}
