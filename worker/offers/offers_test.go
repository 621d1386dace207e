package offers

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
)

var testKey = []byte("parcelgate-test-signing-key-0123456789ab")

func sample() Offer {
	return Offer{Carrier: "acme-express", Service: "acme-24", Price: "4.95", Currency: "EUR",
		From: Place{"ES", "28014"}, To: Place{"PT", "1100-053"},
		Parcels: []Parcel{{"1.5", "20", "10", "30", "6000"}}, Expires: time.Unix(1795350600, 0).UTC()}
}

func TestRoundTrip(t *testing.T) {
	o := sample()
	s, err := Sign(testKey, &o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Verify(Keys{testKey}, s, o.Expires.Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got.Carrier != o.Carrier || got.Price != o.Price || got.To != o.To || len(got.Parcels) != 1 || got.Parcels[0] != o.Parcels[0] || !got.Expires.Equal(o.Expires) {
		t.Fatalf("got %+v", got)
	}
	if Tag(s) == "" || !strings.HasSuffix(s, "."+Tag(s)) {
		t.Fatalf("tag %q of %q", Tag(s), s)
	}
}

// An offer's key is derived from the signing key: a MAC made with the
// signing key itself (what a scoped token's is) does not verify, and a
// scoped token is not an offer.
func TestDomainSeparation(t *testing.T) {
	o := sample()
	s, _ := Sign(testKey, &o)
	dot := strings.LastIndexByte(s, '.')
	sum := hmacsha256.MAC(testKey, []byte(s[:dot]))
	withTokenKey := s[:dot+1] + base64lite.Encode(sum[:macBytes], base64lite.URL|base64lite.Raw)
	if _, err := Verify(Keys{testKey}, withTokenKey, o.Expires.Add(-time.Hour)); !errors.Is(err, ErrTampered) {
		t.Fatalf("signed with the raw key: %v", err)
	}
}

func TestRefusals(t *testing.T) {
	o := sample()
	s, _ := Sign(testKey, &o)
	now := o.Expires.Add(-time.Minute)
	if _, err := Verify(Keys{[]byte("short")}, s, now); !errors.Is(err, ErrKey) {
		t.Errorf("short key: %v", err)
	}
	if _, err := Verify(Keys{testKey}, strings.Repeat("a", MaxLen+1), now); !errors.Is(err, ErrMalformed) {
		t.Errorf("too long: %v", err)
	}
	if _, err := Verify(Keys{testKey}, s, o.Expires); !errors.Is(err, ErrExpired) {
		t.Errorf("at expiry: %v", err)
	}
	if _, err := Verify(Keys{[]byte("some-other-signing-key-0123456789abcdef")}, s, now); !errors.Is(err, ErrForeign) {
		t.Errorf("other key: %v", err)
	}
	if Reason(ErrTampered) != "tampered" || Reason(errors.New("x")) != "" || Reason(nil) != "" {
		t.Error("Reason")
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{"1.5": "1.5", "1.50": "1.5", "007": "7", "0.0": "0", "10": "10", "10.0100": "10.01",
		"": "", ".5": "", "5.": "", "1,5": "", "-1": "", "1e3": "", "1.2.3": "", " 1": ""} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

// Figures for internal/BENCHMARKS.md and the issue: an offer's size and
// what verifying one costs.
func BenchmarkVerify(b *testing.B) {
	o := sample()
	s, _ := Sign(testKey, &o)
	keys := Keys{testKey}
	now := o.Expires.Add(-time.Minute)
	b.ReportMetric(float64(len(s)), "offer-bytes")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(keys, s, now); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSign(b *testing.B) {
	o := sample()
	sg, _ := NewSigner(testKey)
	b.ReportAllocs()
	for b.Loop() {
		_ = sg.Sign(&o)
	}
}
