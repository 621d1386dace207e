package offers_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// An offer never verifies as a scoped token, nor a token as an offer,
// with the same TOKEN_SIGNING_KEY.
func TestTokensAndOffersApart(t *testing.T) {
	key := []byte("parcelgate-test-signing-key-0123456789ab")
	now := time.Unix(1795348800, 0)
	tok, _, err := tokens.Mint(key, tokens.Grant{Operations: []string{"get-shipments-rates"}}, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := offers.Verify(offers.Keys{key}, tok, now); !errors.Is(err, offers.ErrMalformed) {
		t.Fatalf("token as offer: %v", err)
	}
	o := offers.Offer{Carrier: "c", Service: "s", Price: "1", Currency: "EUR", Parcels: []offers.Parcel{{"1", "1", "1", "1", "1"}}, Expires: now.Add(time.Hour)}
	s, _ := offers.Sign(key, &o)
	if _, err := tokens.Verify(tokens.Keys{key}, strings.Replace(s, offers.Prefix, tokens.Prefix, 1), now); err == nil {
		t.Fatal("an offer verified as a token")
	}
}
