package tokens_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/parcelgate/parcelgate/worker/tokens"
)

// A shop's server mints a token for one checkout: it books the order's
// shipment and reads its tracking, for 30 minutes.
func ExampleMint() {
	key := []byte("the-worker-TOKEN_SIGNING_KEY-0123456789")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tok, exp, err := tokens.Mint(key, tokens.Grant{
		Operations:        []string{"new-shipment", "get-shipment-tracking"},
		ShippingClientRef: "ORDER-1001", // at most tokens.MaxClientRefRunes characters
	}, 30*time.Minute, now)
	if err != nil {
		panic(err)
	}
	fmt.Println(tok[:len(tokens.Prefix)+tokens.KeyIDLen] == tokens.Prefix+tokens.KeyID(key), exp)
	// Output: true 2026-11-22 12:30:00 +0000 UTC
}

// Verifying with a key set during a rotation: the new key first, the one
// it replaced after it. A token of the old key verifies until it expires.
func ExampleVerify() {
	oldKey := []byte("the-previous-TOKEN_SIGNING_KEY-012345678")
	newKey := []byte("the-new-TOKEN_SIGNING_KEY-0123456789abcd")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tok, _, _ := tokens.Mint(oldKey, tokens.Grant{Operations: []string{"get-shipment"}, DlvrRef: "SBX0000000042"}, time.Hour, now)

	c, err := tokens.Verify(tokens.Keys{newKey, oldKey}, tok, now.Add(time.Minute))
	fmt.Println(c.Allows("get-shipment"), c.DlvrRef, err)

	_, err = tokens.Verify(tokens.Keys{newKey}, tok, now.Add(time.Minute)) // the old key removed
	fmt.Println(errors.Is(err, tokens.ErrSignature), tokens.Reason(fmt.Errorf("checkout: %w", err)))

	_, err = tokens.Verify(tokens.Keys{newKey, oldKey}, tok, now.Add(2*time.Hour))
	var te *tokens.Error
	fmt.Println(errors.As(err, &te), te.Reason)
	// Output:
	// true SBX0000000042 <nil>
	// true signature
	// true expired
}
