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

// MAC returns the HMAC-SHA256 of msg keyed with key (crypto/sha256 in a
// native build, in the RFC 2104 construction: see macStd).
func MAC(key, msg []byte) [Size]byte { return macStd(key, msg, "") }

// MACString is MAC of a string message, without converting it to a
// []byte first (a conversion that allocates for anything over 32 bytes).
func MACString(key []byte, msg string) [Size]byte { return macStd(key, nil, msg) }

// macStd is HMAC-SHA256 of b followed by s: SHA-256((key^opad) ||
// SHA-256((key^ipad) || msg)), with crypto/sha256's Sum256 over buffers
// on the stack. crypto/hmac.New allocates its two running hashes and pads
// on every call (five allocations, six with Sum); a verifier holds keys
// as plain bytes, so there is no long-lived MAC to reuse. The tests check
// it against crypto/hmac on every key length to past two blocks and on
// messages around stackMsg.
func macStd(key, b []byte, s string) [Size]byte {
	var pad [blockSize]byte
	if len(key) > blockSize {
		k := sha256.Sum256(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	var buf [blockSize + stackMsg]byte
	in := buf[:0]
	if n := blockSize + len(b) + len(s); n > len(buf) {
		in = make([]byte, 0, n)
	}
	for _, c := range pad {
		in = append(in, c^0x36)
	}
	in = append(append(in, b...), s...)
	inner := sha256.Sum256(in)
	var outer [blockSize + Size]byte
	for i, c := range pad {
		outer[i] = c ^ 0x5c
	}
	copy(outer[blockSize:], inner[:])
	return sha256.Sum256(outer[:])
}

// NewMAC returns a running HMAC-SHA256 keyed with key (crypto/hmac in a
// native build).
func NewMAC(key []byte) hash.Hash { return hmac.New(sha256.New, key) }
