package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/webhooks/wire"
)

func benchDelivery(b *testing.B) ([]byte, []byte, string) {
	secret := []byte(vectorSecret)
	ev := event("evt_SBX0000000042_05", "05", "01", false)
	body, err := ev.Marshal()
	if err != nil {
		b.Fatal(err)
	}
	return secret, body, Sign(secret, body, time.Unix(baseT, 0))
}

// BenchmarkVerify is a receiver's check and parse of one delivery.
func BenchmarkVerify(b *testing.B) {
	secret, body, h := benchDelivery(b)
	keys := Keys{secret}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(keys, body, h, time.Unix(baseT, 0), 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifySignatureOnly is Verify without the event's JSON parse
// (worker/webhooks/wire.Verify).
func BenchmarkVerifySignatureOnly(b *testing.B) {
	secret, body, h := benchDelivery(b)
	keys := [][]byte{secret}
	b.ReportAllocs()
	for b.Loop() {
		if err := verifyOnly(keys, body, h); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHMACBaseline is the floor with crypto/hmac: the MAC of
// "<t>.<body>" compared with the header's hex, nothing else parsed.
func BenchmarkHMACBaseline(b *testing.B) {
	secret, body, h := benchDelivery(b)
	want := h[len(h)-64:]
	b.ReportAllocs()
	for b.Loop() {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(strconv.FormatInt(baseT, 10) + "."))
		m.Write(body)
		got, _ := hex.DecodeString(want)
		if !hmac.Equal(m.Sum(nil), got) {
			b.Fatal("mismatch")
		}
	}
}

// verifyOnly is the signature check alone.
func verifyOnly(keys [][]byte, body []byte, h string) error {
	return wire.Verify(keys, body, h, time.Unix(baseT, 0), 0)
}
