//go:build !(js && wasm)

package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/parcelgate/parcelgate/worker/tokens"
	"github.com/parcelgate/parcelgate/worker/webhooks"
)

// Cart is what the README's shop server knows of an order: its route,
// its parcels as the edge normalizes them, its reference, and a payment.
type Cart struct {
	From, To offers.Place
	Parcels  []offers.Parcel
	// Value is the cart's value as a canonical decimal ("79.9"), what the
	// page sends as order_value.
	Value    string
	OrderRef string
	charged  []string
}

// Charge takes the payment (here: records it).
func (c *Cart) Charge(price, currency string) error {
	c.charged = append(c.charged, price+" "+currency)
	return nil
}

var errQuoteAgain = errors.New("the offer is not this cart's: quote again")

// README snippet begins
// checkout is POST /checkout: the page sends the offer the shopper chose
// (and, for a drop-point service, the chosen point and its key).
func checkout(keys offers.Keys, cart *Cart, offer, point, dropPointKey string, now time.Time) (string, error) {
	o, err := offers.Verify(keys, offer, now) // offers.Reason(err): "expired", "tampered", ...
	if err != nil {
		return "", errQuoteAgain
	}
	if o.From != cart.From || o.To != cart.To || !slices.Equal(o.Parcels, cart.Parcels) {
		return "", errQuoteAgain // quoted for another route or other parcels
	}
	if o.OrderValue != "" && o.OrderValue != cart.Value { // canonical decimals, as the edge signs them
		return "", errQuoteAgain // priced for another cart (free shipping over an amount)
	}
	if o.DropPoint {
		p, err := offers.VerifyPoint(keys, point, now)
		if err != nil || p.Carrier != o.Carrier || p.Key != dropPointKey || p.Near != o.To {
			return "", errQuoteAgain
		}
	}
	if err := cart.Charge(o.Price, o.Currency); err != nil { // the signed price, a decimal string
		return "", err
	}
	if o.Source == offers.SourceFallback {
		return "", nil // the carrier API was down: the back-office books it, the label follows
	}
	token, _, err := tokens.MintWithKeys(keys, tokens.Grant{ // the page books this offer only
		Operations:        []string{"new-shipment", "get-shipment-label", "get-shipment-tracking"},
		ShippingClientRef: cart.OrderRef, Offer: offer,
	}, 30*time.Minute, now)
	return token, err
}

// tracked is POST /webhooks: the raw body verified, each event stored once.
func tracked(w http.ResponseWriter, r *http.Request, secret []byte, seen map[string]webhooks.Event) {
	ev, err := webhooks.VerifyRequest(webhooks.Keys{secret}, r, time.Now(), 0, 0)
	if err != nil {
		http.Error(w, webhooks.Reason(err), http.StatusBadRequest) // the edge retries
		return
	}
	if _, dup := seen[ev.ID]; !dup {
		seen[ev.ID] = ev // your database: ev.Data.ShippingClientRef, ev.Data.TrackingCode
	}
	w.WriteHeader(http.StatusNoContent)
}

// README snippet ends

// TestOrderFlowREADME: worker/README.md shows checkout and tracked
// character for character; checkout binds the token to the cart's offer
// and refuses one of another route, other parcels, a wrong drop point, a
// changed or expired offer, charging nothing; tracked stores a signed
// event once and refuses a tampered one.
func TestOrderFlowREADME(t *testing.T) {
	src, err := os.ReadFile("orderflow_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), "// README snippet begins\n")
	snippet, _, _ := strings.Cut(rest, "\n// README snippet ends")
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+snippet+"```\n") {
		t.Fatalf("worker/README.md does not show these functions:\n%s", snippet)
	}

	key := []byte("the-worker-TOKEN_SIGNING_KEY-0123456789")
	keys := offers.Keys{key}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	parcels := []offers.Parcel{{Weight: "2.35", Width: "30", Height: "20", Length: "40", Volume: "24000"}}
	madrid, barcelona := offers.Place{Country: "ES", Postal: "28014"}, offers.Place{Country: "ES", Postal: "08001"}
	sign := func(o offers.Offer) string {
		o.Expires = now.Add(30 * time.Minute)
		s, err := offers.Sign(key, &o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	home := offers.Offer{Carrier: "acme-express", Service: "acme-24", Price: "4.95", Currency: "EUR", From: madrid, To: barcelona, Parcels: parcels}
	cart := &Cart{From: madrid, To: barcelona, Parcels: parcels, OrderRef: "ORDER-1001"}

	offer := sign(home)
	tok, err := checkout(keys, cart, offer, "", "", now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	c, err := tokens.Verify(tokens.Keys{key}, tok, now.Add(2*time.Minute))
	if err != nil || c.OfferTag != offers.Tag(offer) || c.ShippingClientRef != "ORDER-1001" {
		t.Fatalf("the token is not bound to the offer: %+v %v", c, err)
	}
	if !slices.Equal(cart.charged, []string{"4.95 EUR"}) {
		t.Fatalf("charged %v", cart.charged)
	}

	other := home
	other.To = offers.Place{Country: "ES", Postal: "28001"}
	heavier := home
	heavier.Parcels = []offers.Parcel{{Weight: "20", Width: "30", Height: "20", Length: "40", Volume: "24000"}}
	changed := offer[:len(offer)-3] + map[bool]string{true: "B", false: "A"}[offer[len(offer)-3] == 'A'] + offer[len(offer)-2:]
	for name, o := range map[string]string{"another destination": sign(other), "other parcels": sign(heavier), "changed": changed} {
		if _, err := checkout(keys, cart, o, "", "", now.Add(time.Minute)); err != errQuoteAgain {
			t.Errorf("%s: %v, want errQuoteAgain", name, err)
		}
	}
	if _, err := checkout(keys, cart, offer, "", "", now.Add(time.Hour)); err != errQuoteAgain {
		t.Errorf("expired: %v", err)
	}
	// Free shipping over 60: an offer priced for a 79.90 cart is this cart's
	// only if the cart is worth that.
	free := home
	free.Price, free.OrderValue = "0", "79.9"
	if _, err := checkout(keys, cart, sign(free), "", "", now.Add(time.Minute)); err != errQuoteAgain {
		t.Errorf("priced for another cart's value: %v", err)
	}
	worth := *cart
	worth.Value, worth.charged = "79.9", nil
	if tok, err := checkout(keys, &worth, sign(free), "", "", now.Add(time.Minute)); err != nil || tok == "" || !slices.Equal(worth.charged, []string{"0 EUR"}) {
		t.Errorf("free for this cart: %q, %v, charged %v", tok, err, worth.charged)
	}
	// The carrier API was down: charged at the shop's backup price, no
	// booking token (the edge books no fallback offer).
	backup := home
	backup.Carrier, backup.Service, backup.Source = "fallback", "fallback-home", offers.SourceFallback
	worth.charged = nil
	if tok, err := checkout(keys, &worth, sign(backup), "", "", now.Add(time.Minute)); err != nil || tok != "" || !slices.Equal(worth.charged, []string{"4.95 EUR"}) {
		t.Errorf("a fallback offer: %q, %v, charged %v", tok, err, worth.charged)
	}
	dp := home
	dp.Carrier, dp.DropPoint = "swiftpost", true
	dpOffer := sign(dp)
	point, err := offers.SignPoint(key, &offers.Point{Carrier: "swiftpost", Key: "SP-08001-004", Near: barcelona, Expires: now.Add(30 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkout(keys, cart, dpOffer, point, "SP-OTHER", now.Add(time.Minute)); err != errQuoteAgain {
		t.Errorf("another drop point's key: %v", err)
	}
	if _, err := checkout(keys, cart, dpOffer, "", "", now.Add(time.Minute)); err != errQuoteAgain {
		t.Errorf("no drop point: %v", err)
	}
	if len(cart.charged) != 1 {
		t.Fatalf("a refused offer was charged: %v", cart.charged)
	}
	if _, err := checkout(keys, cart, dpOffer, point, "SP-08001-004", now.Add(time.Minute)); err != nil {
		t.Errorf("the listed drop point: %v", err)
	}

	secret := []byte("dev-webhook-secret-change-me-0123456789")
	ev := webhooks.Event{ID: "evt_1", Type: "shipment.tracking_updated", Created: time.Now().UTC().Truncate(time.Second)}
	ev.Data.ShippingClientRef, ev.Data.TrackingCode = "ORDER-1001", "01"
	body, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]webhooks.Event{}
	deliver := func(b []byte, sig string) int {
		r := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(string(b)))
		r.Header.Set(webhooks.Header, sig)
		w := httptest.NewRecorder()
		tracked(w, r, secret, seen)
		return w.Code
	}
	sig := webhooks.Sign(secret, body, time.Now())
	if code := deliver(body, sig); code != http.StatusNoContent {
		t.Fatalf("a signed event: %d", code)
	}
	if code := deliver(body, sig); code != http.StatusNoContent || len(seen) != 1 {
		t.Fatalf("the same event again: %d, %d stored", code, len(seen))
	}
	if code := deliver([]byte(strings.Replace(string(body), `"01"`, `"08"`, 1)), sig); code != http.StatusBadRequest {
		t.Fatalf("a changed body: %d", code)
	}
	if seen["evt_1"].Data.TrackingCode != "01" {
		t.Fatalf("stored %+v", seen["evt_1"])
	}
}
