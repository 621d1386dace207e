//go:build tinygo

package hmacsha256

import "hash"

// Sum returns the SHA-256 of data.
func Sum(data []byte) [Size]byte { return sum256(data) }

// New returns a running SHA-256.
func New() hash.Hash { return newDigest() }

// NewMAC returns a running HMAC-SHA256 keyed with key.
func NewMAC(key []byte) hash.Hash { return newMAC(key) }
