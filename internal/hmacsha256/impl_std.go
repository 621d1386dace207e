//go:build !tinygo

package hmacsha256

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// Sum returns the SHA-256 of data (crypto/sha256 in a native build).
func Sum(data []byte) [Size]byte { return sha256.Sum256(data) }

// New returns a running SHA-256 (crypto/sha256 in a native build).
func New() hash.Hash { return sha256.New() }

// MAC returns the HMAC-SHA256 of msg keyed with key (crypto/hmac in a
// native build).
func MAC(key, msg []byte) [Size]byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	var out [Size]byte
	m.Sum(out[:0])
	return out
}

// NewMAC returns a running HMAC-SHA256 keyed with key (crypto/hmac in a
// native build).
func NewMAC(key []byte) hash.Hash { return hmac.New(sha256.New, key) }
