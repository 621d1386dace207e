package tokens

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/internal/base64lite"
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

// BenchmarkParse is the parse alone, what Verify adds to the MAC: the
// signed payload of the same token decoded into its grant (base64, the
// fields, the operations in catalog order). The budget for
// Verify is BenchmarkHMACBaseline's allocations plus these.
func BenchmarkParse(b *testing.B) {
	tok, _, err := Mint(key, Grant{Operations: []string{"new-shipment", "get-shipment-tracking"}, ShippingClientRef: "ORDER-1001"}, time.Hour, now)
	if err != nil {
		b.Fatal(err)
	}
	parts := strings.Split(tok, ".")
	body := parts[2] // pgt1.<kid>.<payload>.<mac>
	b.ReportAllocs()
	for b.Loop() {
		raw, err := base64lite.Decode(body, base64lite.URL|base64lite.Raw|base64lite.Strict)
		if err != nil {
			b.Fatal(err)
		}
		if _, g, ok := parsePayload(string(raw)); !ok || g.ShippingClientRef != "ORDER-1001" {
			b.Fatal("parse")
		}
	}
}

// Verify allocates at most what crypto/hmac's check alone allocates plus
// the parse (the budget; the benchmarks above show the figures).
// Allocation counts, not times: they do not depend on the machine.
func TestVerifyAllocationBudget(t *testing.T) {
	tok, _, err := Mint(key, Grant{Operations: []string{"new-shipment", "get-shipment-tracking"}, ShippingClientRef: "ORDER-1001"}, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	keys := Keys{key}
	signed, sig := tok[:len(tok)-44], tok[len(tok)-43:]
	body := strings.Split(tok, ".")[2]
	verify := testing.AllocsPerRun(100, func() { _, _ = Verify(keys, tok, now) })
	baseline := testing.AllocsPerRun(100, func() {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(signed))
		_ = hmac.Equal([]byte(base64.RawURLEncoding.EncodeToString(m.Sum(nil))), []byte(sig))
	})
	parse := testing.AllocsPerRun(100, func() {
		raw, _ := base64lite.Decode(body, base64lite.URL|base64lite.Raw|base64lite.Strict)
		_, _, _ = parsePayload(string(raw))
	})
	if verify > baseline+parse {
		t.Errorf("Verify allocates %v per call, more than crypto/hmac's %v plus the parse's %v", verify, baseline, parse)
	}
}
