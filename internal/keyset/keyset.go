// Package keyset is the signing key set and key id that worker/tokens and
// worker/offers share: both sign with TOKEN_SIGNING_KEY and verify with
// it and, during a rotation, TOKEN_SIGNING_KEY_PREVIOUS.
//
// A key's id is the first IDLen characters of the base64url SHA-256 of
// "pgt-key-id:" and the key. Tokens ("pgt1.<kid>.…") and offers and
// drop points ("pgo1.<kid>.…", "pgp1.<kid>.…") carry the id of the
// TOKEN_SIGNING_KEY that signed them (offers are MACed with a key derived
// from it, but named by it): one id per key in every string the edge
// signs, so a verifier picks the key of a set without trying each, and
// an operator sees which key signed what. 48 bits of a hash say nothing
// useful about a 32-byte random key.
package keyset

import (
	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
)

// Bounds of a key set.
const (
	// MinKeyBytes is the shortest accepted key.
	MinKeyBytes = 32
	// MaxKeys bounds a set: the current key and the previous ones.
	MaxKeys = 4
	// IDLen is the length of an ID.
	IDLen = 8
)

// Keys is a key set: the current key first, the previous ones (a
// rotation, verify-only) after it; at most MaxKeys, each at least
// MinKeyBytes. Signing uses one key, the current one.
type Keys [][]byte

// Valid reports whether keys is a usable set.
func (keys Keys) Valid() bool {
	if len(keys) == 0 || len(keys) > MaxKeys {
		return false
	}
	for _, k := range keys {
		if len(k) < MinKeyBytes {
			return false
		}
	}
	return true
}

// ID is key's id.
func ID(key []byte) string {
	var buf [64]byte
	return string(AppendID(&buf, key))
}

const label = "pgt-key-id:"

// AppendID writes key's id into buf and returns it (no allocation for
// keys up to 53 bytes).
func AppendID(buf *[64]byte, key []byte) []byte {
	msg := append(buf[:0], label...)
	sum := hmacsha256.Sum(append(msg, key...))
	return base64lite.AppendEncode(buf[:0], sum[:6], base64lite.URL|base64lite.Raw)
}

// Find returns the key of keys whose id is id, or nil.
func (keys Keys) Find(id string) []byte {
	var buf [64]byte
	for _, k := range keys {
		if string(AppendID(&buf, k)) == id {
			return k
		}
	}
	return nil
}
