package tokens

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/offers"
)

var (
	key = []byte("0123456789abcdef0123456789abcdef")
	now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
)

func TestMintVerify(t *testing.T) {
	g := Grant{Operations: []string{"get-shipment-label", "new-shipment", "get-shipment", "new-shipment"}, DlvrRef: "DL 1&2", ShippingClientRef: "ORD-7"}
	tok, exp, err := Mint(key, g, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	if !exp.Equal(now.Add(DefaultTTL)) || !strings.HasPrefix(tok, Prefix) {
		t.Fatalf("%s %v", tok, exp)
	}
	c, err := Verify(Keys{key}, tok, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Operations, ","); got != "new-shipment,get-shipment-label,get-shipment" && got != "new-shipment,get-shipment,get-shipment-label" {
		t.Fatalf("ops %q", got)
	}
	if c.DlvrRef != "DL 1&2" || c.ShippingClientRef != "ORD-7" || !c.Allows("new-shipment") || c.Allows("new-collection") {
		t.Fatalf("%+v", c)
	}
	if _, err := Verify(Keys{key}, tok, exp); !errors.Is(err, ErrExpired) {
		t.Fatalf("at expiry: %v", err)
	}
	other := []byte("another key, also thirty-two bytes long")
	if _, err := Verify(Keys{other}, tok, now); !errors.Is(err, ErrSignature) {
		t.Fatalf("foreign: %v", err)
	}
	// Every one-byte change, insertion of CR/LF or deletion is refused.
	for i := 0; i <= len(tok); i++ {
		for _, ins := range []string{"\n", "\r", "=", "A"} {
			if _, err := Verify(Keys{key}, tok[:i]+ins+tok[i:], now); err == nil {
				t.Fatalf("accepted insertion of %q at %d", ins, i)
			}
		}
		if i < len(tok) {
			if _, err := Verify(Keys{key}, tok[:i]+tok[i+1:], now); err == nil {
				t.Fatalf("accepted deletion at %d", i)
			}
			b := []byte(tok)
			b[i] ^= 1
			if _, err := Verify(Keys{key}, string(b), now); err == nil {
				t.Fatalf("accepted flip at %d", i)
			}
		}
	}
}

// The expiry is now.Truncate(time.Second).Add(ttl), location included,
// for instants with a fraction of a second, before 1970, and in a zone.
func TestMintExpiry(t *testing.T) {
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	for _, at := range []time.Time{now, now.Add(999 * time.Millisecond), time.Unix(-1, 500), time.Date(2026, 3, 29, 1, 59, 59, 7e8, zone), time.Now()} {
		_, exp, err := Mint(key, Grant{Operations: []string{"get-shipment"}, DlvrRef: "D1"}, 90*time.Second, at)
		if err != nil {
			t.Fatal(err)
		}
		if want := at.Truncate(time.Second).Add(90 * time.Second); exp != want {
			t.Fatalf("Mint at %v: expiry %v, want %v", at, exp, want)
		}
	}
}

func TestMintRefuses(t *testing.T) {
	cases := []struct {
		g     Grant
		ttl   time.Duration
		field string
	}{
		{Grant{}, 0, "operations"},
		{Grant{Operations: []string{"get-shipments"}}, 0, "operations"},
		{Grant{Operations: []string{"nope"}}, 0, "operations"},
		{Grant{Operations: []string{"get-shipment-label"}}, 0, "operations"},
		{Grant{Operations: []string{"new-collection"}, ShippingClientRef: "A", CollectionClientRef: "C"}, 0, "dlvr_ref"},
		{Grant{Operations: []string{"new-collection"}, DlvrRef: "D"}, 0, "collection_client_ref"},
		{Grant{Operations: []string{"new-shipment"}}, 0, "shipping_client_ref"},
		{Grant{Operations: []string{"new-shipment"}, DlvrRef: "D"}, 0, "shipping_client_ref"},
		{Grant{Operations: []string{"get-shipment"}, DlvrRef: "D"}, MaxTTL + time.Second, "ttl"},
		{Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "A"}, MaxBookingTTL + time.Second, "ttl"},
		{Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "A"}, 1500 * time.Millisecond, "ttl"},
		{Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "0123456789abcdef"}, 0, "shipping_client_ref"},
		{Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "A", DlvrRef: "a\nb"}, 0, "dlvr_ref"},
		{Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "AB\u200b12"}, 0, "shipping_client_ref"},
	}
	for _, tc := range cases {
		_, _, err := Mint(key, tc.g, tc.ttl, now)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v ttl %v: %v, want field %s", tc.g, tc.ttl, err, tc.field)
		}
	}
	if _, _, err := Mint(key[:31], Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "A"}, 0, now); !errors.Is(err, ErrKey) {
		t.Fatalf("short key: %v", err)
	}
	// Tracking by client reference only is fine.
	if _, _, err := Mint(key, Grant{Operations: []string{"get-shipment-tracking"}, ShippingClientRef: "A"}, MaxTTL, now); err != nil {
		t.Fatal(err)
	}
}

// A booking token is accepted only while it has at most MaxBookingTTL
// left, and only with its references bound, even when it is signed with
// the right key (tokens minted before these rules).
func TestVerifyRefusesOutgrownGrants(t *testing.T) {
	exp := now.Unix() + int64(MaxBookingTTL/time.Second)
	ok := encode(key, Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "A"}, exp)
	if _, err := Verify(Keys{key}, ok, now); err != nil {
		t.Fatalf("at the cap: %v", err)
	}
	long := encode(key, Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "A"}, exp+1)
	if _, err := Verify(Keys{key}, long, now); !errors.Is(err, ErrGrant) {
		t.Fatalf("over the cap: %v", err)
	}
	// Once it is within the cap (an hour later) it is accepted: the rule
	// is about what is left, not how it was minted.
	if _, err := Verify(Keys{key}, long, now.Add(time.Hour)); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
	unbound := encode(key, Grant{Operations: []string{"new-shipment"}}, now.Unix()+60)
	if _, err := Verify(Keys{key}, unbound, now); !errors.Is(err, ErrGrant) {
		t.Fatalf("unbound: %v", err)
	}
	collect := encode(key, Grant{Operations: []string{"new-collection"}, DlvrRef: "D"}, now.Unix()+60)
	if _, err := Verify(Keys{key}, collect, now); !errors.Is(err, ErrGrant) {
		t.Fatalf("collection without its reference: %v", err)
	}
	read := encode(key, Grant{Operations: []string{"get-shipment-tracking"}, ShippingClientRef: "A"}, now.Unix()+int64(MaxTTL/time.Second))
	if _, err := Verify(Keys{key}, read, now); err != nil {
		t.Fatalf("a month of tracking: %v", err)
	}
}

func FuzzVerify(f *testing.F) {
	good, _, _ := Mint(key, Grant{Operations: []string{"new-shipment", "get-shipment"}, ShippingClientRef: "O1", DlvrRef: "D1"}, 0, now)
	f.Add(good)
	f.Add(good[:20] + "\n" + good[20:])
	f.Add("pgt1.x.y")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Verify(Keys{key}, s, now)
		if err != nil {
			return
		}
		if s != good {
			again, _, err := Mint(key, c.Grant, c.Expires.Sub(now), now)
			if err != nil || again != s {
				t.Fatalf("accepted %q, which is not the minted spelling", s)
			}
		}
	})
}

// Reason names each error of Verify (what the edge core switches on
// without comparing interfaces), and the errors keep their texts and
// their identity for == and errors.Is.
func TestReason(t *testing.T) {
	for err, want := range map[error][2]string{
		ErrMalformed: {"malformed", "tokens: not a scoped token"},
		ErrSignature: {"signature", "tokens: token signature does not match"},
		ErrExpired:   {"expired", "tokens: token expired"},
		ErrKey:       {"key", "tokens: signing key shorter than 32 bytes, or no key"},
		ErrGrant:     {"grant", "tokens: token grant is not accepted (a booking needs its references bound and at most 2 hours of life)"},
	} {
		wrapped := fmt.Errorf("checkout: %w", err)
		var te *Error
		if Reason(err) != want[0] || err.Error() != want[1] || !errors.Is(wrapped, err) ||
			Reason(wrapped) != want[0] || Reason(errors.Join(errors.New("x"), wrapped)) != want[0] ||
			!errors.As(wrapped, &te) || te.Reason != want[0] {
			t.Errorf("%v: Reason %q (wrapped %q), want %q", err, Reason(err), Reason(wrapped), want[0])
		}
	}
	// One with a detail is still its sentinel for errors.Is.
	if !errors.Is(&Error{Reason: "expired", Detail: "at 12:00"}, ErrExpired) || errors.Is(ErrExpired, ErrSignature) {
		t.Error("errors.Is does not match by reason")
	}
	if Reason(nil) != "" || Reason(errors.New("token expired")) != "" || Reason(&FieldError{"ttl", "x"}) != "" {
		t.Error("Reason of nil or another error is not empty")
	}
	tok, _, err := Mint(key, Grant{Operations: []string{"get-shipment"}, DlvrRef: "DL1"}, time.Minute, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key   []byte
		token string
		at    time.Time
		want  string
	}{
		{key, tok, now, ""},
		{key, tok, now.Add(2 * time.Minute), "expired"},
		{key, tok + "x", now, "signature"},
		{key, "nope", now, "malformed"},
		{key[:8], tok, now, "key"},
		{nil, tok, now, "key"},
	} {
		keys := Keys{c.key}
		if c.key == nil {
			keys = nil
		}
		if _, err := Verify(keys, c.token, c.at); Reason(err) != c.want {
			t.Errorf("Verify(%q) error %v: Reason %q, want %q", c.token, err, Reason(err), c.want)
		}
	}
}

// A grant bound to a fallback offer is refused with ErrFallbackOffer (the
// edge never books one); a recent offer, a carrier's service priced from
// the last good answer, is bound as a live one.
func TestMintRefusesFallbackOffers(t *testing.T) {
	for source, refused := range map[string]bool{offers.SourceFallback: true, offers.SourceRecent: false, offers.SourceLive: false} {
		o := offers.Offer{Carrier: "fallback", Service: "fallback-home", Price: "4.5", Currency: "EUR",
			To: offers.Place{Country: "ES", Postal: "08001"}, Parcels: []offers.Parcel{{Weight: "2"}}, Source: source, Expires: now.Add(5 * time.Minute)}
		offer, err := offers.Sign(key, &o)
		if err != nil {
			t.Fatal(err)
		}
		tok, _, err := Mint(key, Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "ORD-31", Offer: offer}, 0, now)
		var fe *FieldError
		switch {
		case refused && (!errors.Is(err, ErrFallbackOffer) || !errors.As(err, &fe) || fe.Field != "offer" || tok != ""):
			t.Fatalf("%s: Mint = %q, %v; want ErrFallbackOffer", source, tok, err)
		case !refused && err != nil:
			t.Fatalf("%s: %v", source, err)
		}
	}
}

// An offer quoted just before a key rotation stays bookable until it
// expires (the edge's booking check verifies it with TOKEN_SIGNING_KEY_PREVIOUS
// too), so minting its grant takes the key set: with the new key alone the
// shop would refuse its own shopper's offer as foreign.
func TestMintWithKeysBindsAnOfferOfThePreviousKey(t *testing.T) {
	previous := []byte("the-previous-signing-key-0123456789abcdef")
	current := []byte("the-current-signing-key-0123456789abcdef!")
	o := offers.Offer{Carrier: "seur", Service: "1", Price: "4.5", Currency: "EUR",
		To: offers.Place{Country: "ES", Postal: "08001"}, Parcels: []offers.Parcel{{Weight: "2"}}, Source: offers.SourceLive, Expires: now.Add(5 * time.Minute)}
	offer, err := offers.Sign(previous, &o)
	if err != nil {
		t.Fatal(err)
	}
	g := Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "ORD-33", Offer: offer}
	var fe *FieldError
	if _, _, err := Mint(current, g, 0, now); !errors.As(err, &fe) || fe.Field != "offer" {
		t.Fatalf("Mint with the new key alone = %v; want the offer refused", err)
	}
	tok, _, err := MintWithKeys(Keys{current, previous}, g, 0, now)
	if err != nil {
		t.Fatalf("MintWithKeys: %v", err)
	}
	// Signed with the current key: it verifies without the previous one.
	got, err := Verify(Keys{current}, tok, now)
	if err != nil || got.OfferTag != offers.Tag(offer) {
		t.Fatalf("Verify = %+v, %v; want the grant bound to the offer", got, err)
	}
	if _, err := Verify(Keys{previous}, tok, now); err == nil {
		t.Fatal("the token verified with the previous key alone: it must be signed with the current one")
	}
}

// An unknown operation is named in the error clipped to 64 characters
// (runes), never cut inside one: a byte count cut "ñ" and "😀" in half
// (U+FFFD in the message) and clipped 64 "é" that fit.
func TestUnknownOperationClippedByRunes(t *testing.T) {
	a63 := strings.Repeat("a", 63)
	for _, c := range []struct{ op, shown string }{
		{a63 + "ñx", a63 + "ñ..."},
		{a63 + "😀x", a63 + "😀..."},
		{strings.Repeat("é", 64), strings.Repeat("é", 64)},
		{strings.Repeat("😀", 65), strings.Repeat("😀", 64) + "..."},
	} {
		_, err := Check(Grant{Operations: []string{c.op}})
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Problem != `unknown operation "`+c.shown+`"` {
			t.Errorf("Check(%q) = %v; want the operation shown as %q", c.op, err, c.shown)
		}
	}
}

// MaxLen bounds a token's bytes: 400 "€" (1,200 bytes, 400 UTF-16 units)
// are malformed before any MAC is computed, in Go and in
// js/test/tokens.test.mjs's verifyToken.
func TestVerifyBoundsBytes(t *testing.T) {
	tok, _, err := Mint(key, Grant{Operations: []string{"get-shipment"}, DlvrRef: "D"}, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	dot := strings.IndexByte(tok[len(Prefix):], '.') + len(Prefix)
	long := tok[:dot+1] + strings.Repeat("€", 400) + tok[strings.LastIndexByte(tok, '.'):]
	if _, err := Verify(Keys{key}, long, now); !errors.Is(err, ErrMalformed) {
		t.Fatalf("Verify of %d bytes = %v; want ErrMalformed", len(long), err)
	}
}
