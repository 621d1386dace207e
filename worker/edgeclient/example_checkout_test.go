package edgeclient_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
)

// checkoutEdge stands in for the edge in the checkout example, with the
// shop's rule "drop points free from 60 €" (PRICING_RULES): it prices the
// rates with the request's order_value and gives each service an offer
// and each drop point a point (the real edge signs them, worker/offers);
// it books only the offered service, and a drop-point service only at the
// point it listed, refusing anything else with the edge's 403 codes. It
// never forwards order_value, offer or point: neither does the edge.
func checkoutEdge() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		q := r.URL.Query()
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			q, _ = url.ParseQuery(string(b))
		}
		switch strings.TrimPrefix(r.URL.Path, "/v1/") {
		case "get-shipments-rates":
			pickup := "3.90"
			if v, err := strconv.ParseFloat(q.Get("order_value"), 64); err == nil && v >= 60 {
				pickup = "0.00"
			}
			svc := func(code, name, dp, price string) string {
				return `{"service_code":"` + code + `","service_name":"` + name + `","carrier_code":"swiftpost","carrier_name":"SwiftPost",` +
					`"is_drop_point":"` + dp + `","price":"` + price + `","currency":"EUR","offer":"offer:` + code + `:` + price + `"}`
			}
			io.WriteString(w, `{"status":"ok","data":{"best_price_service":`+svc("swiftpost-shop", "Pick-up point", "1", pickup)+
				`,"services":[`+svc("swiftpost-shop", "Pick-up point", "1", pickup)+`,`+svc("swiftpost-home", "Home delivery", "0", "5.90")+`]}}`)
		case "get-drop-points":
			io.WriteString(w, `{"status":"ok","data":{"drop_points":[{"carrier_code":"swiftpost","drop_point_key":"SP-0815",`+
				`"name":"Kiosko Pau Claris","address":"Carrer de Pau Claris 10","zip_code":"08001","city":"Barcelona","point":"point:SP-0815"}]}}`)
		case "new-shipment":
			code, _, _ := strings.Cut(strings.TrimPrefix(q.Get("offer"), "offer:"), ":")
			switch {
			case code != q.Get("service_code"):
				w.WriteHeader(403)
				io.WriteString(w, `{"status":"err","data":{"errorCode":1403,"errorMessage":"The booking differs from the offer.","source":"edge","errorClass":"offer_service",`+
					`"errors":[{"field":"service_code","code":1403,"message":"The booking differs from the offer."}]}}`)
			case code == "swiftpost-shop" && q.Get("point") != "point:"+q.Get("drop_point_key"):
				w.WriteHeader(403)
				io.WriteString(w, `{"status":"err","data":{"errorCode":1403,"errorMessage":"The booking differs from the offer.","source":"edge","errorClass":"offer_drop_point",`+
					`"errors":[{"field":"drop_point_key","code":1403,"message":"The booking differs from the offer."}]}}`)
			default:
				io.WriteString(w, `{"status":"ok","data":{"shipping_dlvr_ref":"SBX0000000077","shipping_client_ref":"`+q.Get("shipping_client_ref")+`"}}`)
			}
		}
	}))
}

// A shop's server quotes the checkout with the cart's value (the shop's
// pricing rules make the pick-up point free from 60 €), keeps the offer of
// the service the shopper chose and the point of the drop point, and books
// with both: the edge books only what was quoted, at the point it listed.
// (A real offer is checked on the shop's server first, offline, with
// worker/offers: its price against the cart.)
func ExampleClient_GetShipmentsRates() {
	edge := checkoutEdge()
	defer edge.Close()
	c, err := edgeclient.New(edge.URL, edgeclient.WithToken("the-PROXY_TOKEN"), edgeclient.WithHTTPClient(edge.Client()))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	parcels := []edgeclient.Parcel{{Weight: "2.5", Width: "20", Height: "10", Length: "30"}}
	quote, err := c.GetShipmentsRates(ctx, edgeclient.GetShipmentsRatesParams{
		FromCountryCode: "ES", FromZipCode: "28014", ToCountryCode: "ES", ToZipCode: "08001", Parcels: parcels,
		OrderValue: "79.00", // the cart's value, in the currency of the shop's rules
	})
	if err != nil {
		panic(err)
	}
	for _, s := range quote.Data.Services {
		fmt.Printf("%s: %.2f %s (drop point: %v)\n", s.ServiceName, s.Price, s.Currency, s.IsDropPoint)
	}
	chosen := *quote.Data.BestPriceService // the shopper's choice
	points, err := c.GetDropPoints(ctx, edgeclient.GetDropPointsParams{CountryCode: "ES", ZipCode: "08001", CarrierCode: chosen.CarrierCode})
	if err != nil {
		panic(err)
	}
	at := points.Data.DropPoints[0] // the shopper's point
	fmt.Println("at", at.Name)

	order := edgeclient.NewShipmentParams{
		ShippingDate: "2026-11-30", ServiceType: "custom", CarrierCode: chosen.CarrierCode, ServiceCode: chosen.ServiceCode,
		ShippingClientRef: "ORDER-1003", DropPointKey: at.DropPointKey,
		Offer: chosen.Offer, Point: at.Point, // what the shopper was shown and chose
		FromName: "Tienda Demo", FromAddress: "Calle de Alcalá 1", FromCity: "Madrid", FromZipCode: "28014", FromCountryCode: "ES",
		ToName: "Ana García", ToAddress: "Carrer de Pau Claris 1", ToCity: "Barcelona", ToZipCode: "08001", ToCountryCode: "ES",
		Parcels: parcels,
	}
	res, err := c.NewShipment(ctx, order)
	if err != nil {
		panic(err)
	}
	fmt.Println("booked", res.Data.ShippingDlvrRef)

	// Another service than the offer's is refused, naming the field.
	order.ShippingClientRef, order.ServiceCode = "ORDER-1004", "swiftpost-home"
	_, err = c.NewShipment(ctx, order)
	var e *edgeclient.Error
	if errors.As(err, &e) {
		fmt.Println(e.HTTPStatus, e.Class, e.FieldErrors[0].Field)
	}
	// Output:
	// Pick-up point: 0.00 EUR (drop point: true)
	// Home delivery: 5.90 EUR (drop point: false)
	// at Kiosko Pau Claris
	// booked SBX0000000077
	// 403 offer_service service_code
}
