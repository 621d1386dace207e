package edgeclient_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
)

// fakeEdge stands in for the edge worker in the examples: it books a
// new-shipment once per shipping_client_ref, replays the same body with
// Idempotent-Replayed, refuses other data under a booked reference (409)
// and a missing to_zip_code (400), as the edge does.
func fakeEdge() *httptest.Server {
	var mu sync.Mutex
	booked := map[string]string{} // reference -> body
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Request-Id", "req-1")
		if r.Header.Get("Authorization") != "Bearer the-PROXY_TOKEN" {
			w.WriteHeader(401)
			io.WriteString(w, `{"status":"err","data":{"errorCode":1401,"errorMessage":"a valid token is required","source":"edge","errorClass":"unauthorized"}}`)
			return
		}
		b, _ := io.ReadAll(r.Body)
		q, _ := url.ParseQuery(string(b))
		if q.Get("to_zip_code") == "" {
			w.WriteHeader(400)
			io.WriteString(w, `{"status":"err","data":{"errorCode":484,"errorMessage":"to_zip_code: required","source":"edge","errorClass":"invalid_request",`+
				`"errors":[{"field":"to_zip_code","code":484,"message":"required"}],"requestId":"req-1"}}`)
			return
		}
		ref := q.Get("shipping_client_ref")
		mu.Lock()
		prev, seen := booked[ref]
		if !seen {
			booked[ref] = string(b)
		}
		mu.Unlock()
		switch {
		case seen && prev != string(b):
			w.WriteHeader(409)
			io.WriteString(w, `{"status":"err","data":{"errorCode":421,"errorMessage":"shipping_client_ref `+ref+` was booked with other data","source":"edge","errorClass":"booking_conflict"}}`)
			return
		case seen:
			w.Header().Set("Idempotent-Replayed", "true")
		}
		io.WriteString(w, `{"status":"ok","data":{"shipping_dlvr_ref":"SBX0000000042","shipping_client_ref":"`+ref+`","carrier_code":"rayo","service_code":"rayo-48"}}`)
	}))
}

// A shop's server books the shipment of an order through the edge with the
// master token. Sending the same order again (a retry after a crash, a
// second click) is answered with the first booking, marked Replayed; other
// data under the same reference is refused, never booked twice.
func ExampleClient_NewShipment() {
	edge := fakeEdge()
	defer edge.Close()
	c, err := edgeclient.New(edge.URL, edgeclient.WithToken("the-PROXY_TOKEN"), edgeclient.WithHTTPClient(edge.Client()))
	if err != nil {
		panic(err)
	}
	order := edgeclient.NewShipmentParams{
		ShippingDate: "2026-11-23", ServiceType: "custom", CarrierCode: "rayo", ServiceCode: "rayo-48",
		ShippingClientRef: "ORDER-1001",
		FromName:          "Tienda Demo", FromAddress: "Calle de Alcalá 1", FromCity: "Madrid", FromZipCode: "28014", FromCountryCode: "ES",
		ToName: "Ana García", ToAddress: "Carrer de Pau Claris 1", ToCity: "Barcelona", ToZipCode: "08001", ToCountryCode: "ES",
		ToPhone: "600000000",
		Parcels: []edgeclient.Parcel{{Weight: "2.5", Width: "20", Height: "10", Length: "30", Volume: "6000"}},
	}
	ctx := context.Background()
	res, err := c.NewShipment(ctx, order)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Data.ShippingDlvrRef, res.Replayed)

	res, err = c.NewShipment(ctx, order) // the same order again
	fmt.Println(res.Data.ShippingDlvrRef, res.Replayed, err)

	order.ToName = "Someone Else"
	_, err = c.NewShipment(ctx, order)
	var e *edgeclient.Error
	if errors.As(err, &e) {
		fmt.Println(e.HTTPStatus, e.Code, e.Class, e.Retryable)
	}
	// Output:
	// SBX0000000042 false
	// SBX0000000042 true <nil>
	// 409 421 booking_conflict false
}

// Invalid input is refused by the edge before anything is booked; every
// invalid field is in FieldErrors, in the language of Accept-Language.
func ExampleError() {
	edge := fakeEdge()
	defer edge.Close()
	c, _ := edgeclient.New(edge.URL, edgeclient.WithToken("the-PROXY_TOKEN"), edgeclient.WithHeader("Accept-Language", "es"))
	_, err := c.NewShipment(context.Background(), edgeclient.NewShipmentParams{ShippingClientRef: "ORDER-1002"})
	var e *edgeclient.Error
	if errors.As(err, &e) {
		f, _ := e.Field("to_zip_code")
		fmt.Println(e.HTTPStatus, e.Class, f.Code, f.Message, e.RequestID)
	}
	// Output: 400 invalid_request 484 required req-1
}
