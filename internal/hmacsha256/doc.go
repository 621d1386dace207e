// Package hmacsha256 is SHA-256 and HMAC-SHA256 for the edge core module
// without the standard library's FIPS 140 module.
//
// Under TinyGo, crypto/sha256 and crypto/hmac link
// crypto/internal/fips140 and what it drags along (AES, SHA-3, SHA-512,
// a DRBG, godebug) for two 64-byte-block hashes: with this package in
// their place the core module was 53.8 KB smaller raw, 26.5 KB gzip
// (526,319 -> 472,523 B, 236,017 -> 209,524 B; aa32bf5, 2026-11-25,
// TinyGo 0.39).
// Under TinyGo this package is a small SHA-256 of its own (sha256.go);
// natively it is crypto/sha256 (MAC: the RFC 2104 construction over
// crypto/sha256.Sum256, allocation-free; NewMAC: crypto/hmac), so the Go
// servers that import worker/tokens and worker/webhooks keep the standard
// library's (assembly, validated) SHA-256. The tests cross-check the two on many inputs.
//
// Pure and TinyGo-compatible: no cgo, reflection, fmt or tables built at
// run time.
package hmacsha256

// stackMsg is the longest message the native MAC hashes from a buffer on the
// stack: a scoped token's signed part (under 1 KB) and a webhook event
// (about 500 bytes) fit, so their verification allocates nothing here.
const stackMsg = 1024

// Size is the length of a SHA-256 digest and of an HMAC-SHA256 in bytes.
const Size = 32

// Equal reports whether a and b are equal, in a time that depends on
// their lengths only, not on their contents: MACs compared with it leak
// nothing of where they differ (as crypto/hmac.Equal).
func Equal(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	var v byte
	for i := range a {
		v |= a[i] ^ b[i]
	}
	return v == 0
}
