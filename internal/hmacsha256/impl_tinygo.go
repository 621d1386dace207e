//go:build tinygo

package hmacsha256

import "hash"

// Sum returns the SHA-256 of data.
func Sum(data []byte) [Size]byte { return sum256(data) }

// New returns a running SHA-256.
func New() hash.Hash { return newDigest() }

// MAC returns the HMAC-SHA256 of msg keyed with key. Callers that have
// the whole message use it rather than NewMAC: with no call through
// hash.Hash, the module links no dispatch over its implementations.
func MAC(key, msg []byte) [Size]byte { return mac256(key, msg) }

// MACString is MAC of a string message (the native build hashes it
// without a copy; here the conversion costs one).
func MACString(key []byte, msg string) [Size]byte { return mac256(key, []byte(msg)) }

// NewMAC returns a running HMAC-SHA256 keyed with key.
func NewMAC(key []byte) hash.Hash { return newMAC(key) }
