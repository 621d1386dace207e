package offers_test

import (
	"fmt"
	"time"

	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// The order flow on a Go shop server (worker/offers/README.md):
// the page quoted through the edge and the shopper chose a service; the
// page posts the chosen service's `offer` with the order. The server
// verifies it with TOKEN_SIGNING_KEY (and TOKEN_SIGNING_KEY_PREVIOUS
// during a rotation), compares it with its cart, charges the signed
// price, and mints the booking token bound to it: the edge books exactly
// that service, route and parcels, or refuses (403 offer_*).
func ExampleVerify() {
	key := []byte("the-worker-TOKEN_SIGNING_KEY-0123456789")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	// What the edge put in the rates answer (here signed in place of it).
	offer, _ := offers.Sign(key, &offers.Offer{Carrier: "acme-express", Service: "acme-24", Price: "4.95", Currency: "EUR",
		From: offers.Place{Country: "ES", Postal: "28014"}, To: offers.Place{Country: "ES", Postal: "08001"},
		Parcels:    []offers.Parcel{{Weight: "1.5", Width: "20", Height: "10", Length: "30", Volume: "6000"}},
		OrderValue: "45", Source: offers.SourceLive, Expires: now.Add(30 * time.Minute)})

	// 1. Verify: the facts the shopper was shown, or why not.
	o, err := offers.Verify(offers.Keys{key}, offer, now.Add(time.Minute))
	if err != nil {
		fmt.Println("quote again:", offers.Reason(err)) // "expired": the page quotes again
		return
	}
	// 2. Compare with the cart (the cart's destination and weights, and
	// the cart's value the shop's free-shipping rules priced it for) and
	// charge the signed price, a decimal string. A fallback offer (the
	// shop's own backup price while the carrier API was down) names no
	// carrier's service: book the shop's own from here instead of binding.
	fmt.Println(o.Carrier, o.Service, o.Price, o.Currency, o.To.Postal, o.Parcels[0].Weight, o.DropPoint, o.OrderValue, o.Source)
	if o.Source == offers.SourceFallback {
		return
	}

	// 3. Bind: the page's booking token books this offer only.
	tok, _, err := tokens.Mint(key, tokens.Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "ORDER-1001", Offer: offer},
		30*time.Minute, now.Add(time.Minute))
	c, _ := tokens.Verify(tokens.Keys{key}, tok, now.Add(2*time.Minute))
	fmt.Println(err, c.OfferTag == offers.Tag(offer))

	// A changed offer is refused, and so is one the page kept too long.
	_, err = offers.Verify(offers.Keys{key}, offer[:20]+"x"+offer[21:], now)
	fmt.Println(offers.Reason(err))
	_, err = offers.Verify(offers.Keys{key}, offer, now.Add(time.Hour))
	fmt.Println(offers.Reason(err))
	// Output:
	// acme-express acme-24 4.95 EUR 08001 1.5 false 45 live
	// <nil> true
	// tampered
	// expired
}
