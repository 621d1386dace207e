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

// BenchmarkParse is the parse alone, what Verify adds to the signature
// check: the same body read into an Event. The budget for Verify
// is BenchmarkHMACBaseline's allocations plus these.
func BenchmarkParse(b *testing.B) {
	_, body, _ := benchDelivery(b)
	b.ReportAllocs()
	for b.Loop() {
		var ev Event
		if err := ev.UnmarshalJSON(body); err != nil {
			b.Fatal(err)
		}
	}
}

// verifyOnly is the signature check alone.
func verifyOnly(keys [][]byte, body []byte, h string) error {
	return wire.Verify(keys, body, h, time.Unix(baseT, 0), 0)
}

// Verify allocates at most what crypto/hmac's check alone allocates plus
// the event's parse (the budget; the benchmarks above show the
// figures). Allocation counts, not times: they do not depend on the
// machine.
func TestVerifyAllocationBudget(t *testing.T) {
	secret := []byte(vectorSecret)
	ev := event("evt_SBX0000000042_05", "05", "01", false)
	body, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	h := Sign(secret, body, time.Unix(baseT, 0))
	keys := Keys{secret}
	verify := testing.AllocsPerRun(100, func() { _, _ = Verify(keys, body, h, time.Unix(baseT, 0), 0) })
	baseline := testing.AllocsPerRun(100, func() {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(strconv.FormatInt(baseT, 10) + "."))
		m.Write(body)
		got, _ := hex.DecodeString(h[len(h)-64:])
		_ = hmac.Equal(m.Sum(nil), got)
	})
	parse := testing.AllocsPerRun(100, func() {
		var e Event
		_ = e.UnmarshalJSON(body)
	})
	if verify > baseline+parse {
		t.Errorf("Verify allocates %v per call, more than crypto/hmac's %v plus the parse's %v", verify, baseline, parse)
	}
}
