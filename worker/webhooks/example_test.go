package webhooks_test

import (
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/worker/webhooks"
)

var exampleBody = []byte(`{"id":"evt_SBX0000000042_05","type":"shipment.tracking_updated","created":"2026-11-22T12:00:00Z",` +
	`"data":{"shipping_dlvr_ref":"SBX0000000042","shipping_client_ref":"ORDER-1001","tracking_code":"05","tracking_name":"In delivery",` +
	`"category":"transit","final":false,"tracking_date":"2026-11-22 11:59:58","previous_code":"01"}}`)

// Verify checks a delivery's signature and returns its event; a body that
// was changed, or a delivery replayed later, is refused.
func ExampleVerify() {
	secret := []byte("whsec-the-shop-WEBHOOK_SECRET-0123456789")
	at := time.Date(2026, 11, 22, 12, 0, 5, 0, time.UTC)
	header := webhooks.Sign(secret, exampleBody, at) // what the edge sends

	ev, err := webhooks.Verify(webhooks.Keys{secret}, exampleBody, header, at.Add(time.Second), 0)
	fmt.Println(ev.ID, ev.Data.ShippingClientRef, ev.Data.PreviousCode, "->", ev.Data.TrackingCode, err)

	_, err = webhooks.Verify(webhooks.Keys{secret}, exampleBody, header, at.Add(time.Hour), 0)
	fmt.Println(errors.Is(err, webhooks.ErrStale), webhooks.Reason(err))
	// Output:
	// evt_SBX0000000042_05 ORDER-1001 01 -> 05 <nil>
	// true stale
}

// An http.Handler receiving webhooks: VerifyRequest reads at most 64 KiB
// of the body, checks the signature and returns the event.
func ExampleVerifyRequest() {
	secret := []byte("whsec-the-shop-WEBHOOK_SECRET-0123456789")
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, err := webhooks.VerifyRequest(webhooks.Keys{secret}, r, 64<<10, time.Now(), 0)
		switch {
		case errors.Is(err, webhooks.ErrTooLarge):
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
		case err != nil:
			log.Printf("webhook refused: %v", err)
			http.Error(w, "bad signature", http.StatusBadRequest)
		default:
			// Store ev (dedupe on ev.ID: delivery is at least once).
			fmt.Println("got", ev.ID, ev.Data.TrackingCode)
			w.WriteHeader(http.StatusNoContent)
		}
	})
	srv := httptest.NewServer(handler)
	defer srv.Close()

	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(string(exampleBody)))
	req.Header.Set(webhooks.Header, webhooks.Sign(secret, exampleBody, time.Now()))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	res.Body.Close()
	fmt.Println(res.StatusCode)
	// Output:
	// got evt_SBX0000000042_05 05
	// 204
}
