package tokens

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"testing"
	"time"
)

// BenchmarkVerify is the edge's check of a scoped token (one key).
func BenchmarkVerify(b *testing.B) {
	tok, _, err := Mint(key, Grant{Operations: []string{"new-shipment", "get-shipment-tracking"}, ShippingClientRef: "ORDER-1001"}, time.Hour, now)
	if err != nil {
		b.Fatal(err)
	}
	keys := Keys{key}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(keys, tok, now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHMACBaseline is the floor: crypto/hmac over the signed part
// and a base64 comparison of the MAC, nothing parsed.
func BenchmarkHMACBaseline(b *testing.B) {
	tok, _, _ := Mint(key, Grant{Operations: []string{"new-shipment", "get-shipment-tracking"}, ShippingClientRef: "ORDER-1001"}, time.Hour, now)
	signed, sig := tok[:len(tok)-44], tok[len(tok)-43:]
	b.ReportAllocs()
	for b.Loop() {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(signed))
		if !hmac.Equal([]byte(base64.RawURLEncoding.EncodeToString(m.Sum(nil))), []byte(sig)) {
			b.Fatal("mismatch")
		}
	}
}
