package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
)

// The ledger's refusals of a booking speak the client's language like
// every other failure of the edge (Accept-Language); the English text is
// what worker/edge answered, byte for byte, and field names, references
// and error codes are never translated.
func TestBookingRefusalsInTheClientsLanguage(t *testing.T) {
	e := bookingEdge()
	f := bookingTicket(t, e, shipmentForm)
	h := bookingTicket(t, e, strings.Replace(shipmentForm, "to_name=Ana", "to_name=Bea", 1))
	col := "collection_date=2026-11-24&hour_start_1=09:00&hour_end_1=13:00&carrier_code=rapido&service_code=rapido-48h" +
		"&shipping_dlvr_ref=DLV1&collection_client_ref=COL-1&from_name=T&from_address=Calle+1&from_zip_code=28014&from_country_code=ES" +
		"&to_name=A&to_address=Rua+2&to_city=Lisboa&to_zip_code=1100-053&to_country_code=PT&to_phone=912345678"
	p := e.Prepare("new-collection", &core.Request{Method: "POST", Body: []byte(col), ContentType: "application/x-www-form-urlencoded",
		Authorization: bearerMaster, RequestID: "rid", Now: day}, nil)
	require.Equal(t, core.KindForward, p.Kind)
	c := p.Forward
	cancelled := func(name, zip string) string {
		return strings.Replace(found(name, zip, "PT"), `"status":"1"`, `"status":"-2"`, 1)
	}
	items := make([]string, 50)
	for i := range items {
		items[i] = `{"shipping_data":{"shipping_dlvr_ref":"X","shipping_client_ref":"ORD-770","status":"1"}}`
	}
	lookedUp := func(up *core.Upstream) func(string) *core.Step {
		return func(lang string) *core.Step {
			return e.LookedUp(core.LookedUpInput{Context: f.Context, Ticket: f.Booking, UpstreamBody: f.UpstreamBody, Upstream: up, RequestID: "rid", AcceptLanguage: lang})
		}
	}
	cases := []struct {
		name, class string
		status      int
		step        func(lang string) *core.Step
		field       string // the field its errors name ("" none)
		en, es, de  string // the whole English message; a part of the Spanish and German ones
	}{
		{"conflict", "booking_conflict", 409,
			func(lang string) *core.Step {
				return e.Booking(core.BookingInput{Context: h.Context, Ticket: h.Booking, State: core.BookConflict, RequestID: "rid", AcceptLanguage: lang})
			},
			"shipping_client_ref",
			`shipping_client_ref: shipping_client_ref "ORD-77" was already used for a booking with other data; use a new reference for a new booking`,
			`shipping_client_ref: shipping_client_ref "ORD-77" ya se usó para una reserva con otros datos; usa una referencia nueva`,
			`shipping_client_ref: shipping_client_ref "ORD-77" wurde bereits für eine Buchung mit anderen Daten verwendet`},
		{"unconfirmed", "booking_unconfirmed", 425,
			func(lang string) *core.Step {
				return e.Booking(core.BookingInput{Context: f.Context, Ticket: f.Booking, State: core.BookUnknown, RetryAfter: 28 * time.Second, RequestID: "rid", AcceptLanguage: lang})
			},
			"",
			"an earlier attempt with this shipping_client_ref may have booked the shipment, and the upstream may still be committing it; " +
				"nothing was sent. Resend the same request in 28 s (Retry-After): the edge then looks the booking up and answers with it, " +
				"or books it if it is not there",
			"Reenvía la misma solicitud dentro de 28 s (Retry-After)",
			"Senden Sie dieselbe Anfrage in 28 s erneut (Retry-After)"},
		{"collection unknown", "booking_unknown", 409,
			func(lang string) *core.Step {
				return e.Booking(core.BookingInput{Context: c.Context, Ticket: c.Booking, State: core.BookUnknown, RetryAfter: time.Second, RequestID: "rid", AcceptLanguage: lang})
			},
			"collection_client_ref",
			"collection_client_ref: the answer to an earlier attempt with this collection_client_ref was lost, and the service offers no way " +
				"to look a collection up: check the customer area, then book with a new reference",
			"collection_client_ref: se perdió la respuesta a un intento anterior con este collection_client_ref",
			"collection_client_ref: die Antwort auf einen früheren Versuch mit dieser collection_client_ref ging verloren"},
		{"collection lost", "booking_unknown", 409,
			func(lang string) *core.Step {
				return e.Booking(core.BookingInput{Context: c.Context, Ticket: c.Booking, State: core.BookLost, RequestID: "rid", AcceptLanguage: lang})
			},
			"collection_client_ref",
			"collection_client_ref: the answer to an earlier attempt with this collection_client_ref was lost, and the service offers no way " +
				"to look a collection up: check the customer area, then book with a new reference",
			"revisa el área de cliente y luego reserva con una referencia nueva",
			"prüfen Sie den Kundenbereich und buchen Sie dann mit einer neuen Referenz"},
		{"full page", "booking_unknown", 409,
			lookedUp(okUp(`{"status":"ok","data":{"page":1,"n_shipments":50,"shipments":[` + strings.Join(items, ",") + `]}}`)),
			"shipping_client_ref",
			"shipping_client_ref: the answer to an earlier attempt with this shipping_client_ref was lost, and the upstream lists more shipments " +
				"for it than one page, so the edge cannot tell whether it booked; nothing was sent: check the customer area, then book with a new reference",
			"así que el worker perimetral no puede saber si se reservó",
			"daher kann der Edge-Worker nicht feststellen, ob gebucht wurde"},
		{"other data", "booking_mismatch", 409,
			lookedUp(okUp(string(shipmentsOf(found("Mallory", "4000-001", "PT"))))),
			"shipping_client_ref",
			`shipping_client_ref: the upstream holds a shipment booked with shipping_client_ref "ORD-77" whose to_name, to_zip_code differ ` +
				"from this request's; it is not this booking: check it in the customer area, and book with a new reference",
			`el servicio de envíos tiene un envío reservado con shipping_client_ref "ORD-77" cuyos to_name, to_zip_code no coinciden`,
			`der Versanddienst hat eine mit shipping_client_ref "ORD-77" gebuchte Sendung, deren to_name, to_zip_code von dieser Anfrage abweichen`},
		{"cancelled", "booking_mismatch", 409,
			lookedUp(okUp(string(shipmentsOf(cancelled("Ana", "1100-053"))))),
			"shipping_client_ref",
			`shipping_client_ref: the upstream holds a shipment booked with shipping_client_ref "ORD-77" that the service did not make or ` +
				"cancelled (its status); it is not this booking: check it in the customer area, and book with a new reference",
			`"ORD-77" que el servicio no hizo o canceló (su estado); no es esta reserva`,
			`"ORD-77" gebuchte Sendung, die der Dienst nicht ausgeführt oder storniert hat (ihr Status); es ist nicht diese Buchung`},
		{"cancelled, other data", "booking_mismatch", 409,
			lookedUp(okUp(string(shipmentsOf(cancelled("Mallory", "1100-053"))))),
			"shipping_client_ref",
			`shipping_client_ref: the upstream holds a shipment booked with shipping_client_ref "ORD-77" that the service did not make or ` +
				"cancelled (its status), and whose to_name differ from this request's; it is not this booking: check it in the customer area, " +
				"and book with a new reference",
			"(su estado), y cuyos to_name no coinciden con los de esta solicitud",
			"(ihr Status) und deren to_name von dieser Anfrage abweichen"},
		{"lookup failed", "upstream_unreachable", 502,
			lookedUp(&core.Upstream{Failure: core.FailTimeout}),
			"",
			"an earlier attempt's answer was lost and the upstream could not be asked whether it booked; nothing was sent. " +
				"Resend the same request shortly: the edge asks again and never books twice",
			"Reenvía la misma solicitud en breve",
			"Senden Sie dieselbe Anfrage gleich erneut"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var en *answer
			for _, lang := range []string{"", "en-GB", "es-ES,es;q=0.9,en;q=0.5", "de-DE,de;q=0.9"} {
				s := tc.step(lang)
				require.Equal(t, core.KindRespond, s.Kind, lang)
				r := toAnswer(t, s.Response, nil)
				assert.Equal(t, tc.status, r.Status, r.Raw)
				assert.Equal(t, tc.class, r.Env.Data["errorClass"], lang)
				msg := r.message()
				switch lang[:min(2, len(lang))] {
				case "", "en":
					assert.Equal(t, tc.en, msg, lang)
					en = r
				case "es":
					assert.Contains(t, msg, tc.es)
				case "de":
					assert.Contains(t, msg, tc.de)
				}
				errs, _ := r.Env.Data["errors"].([]any)
				if tc.field == "" {
					assert.Empty(t, errs, lang)
					continue
				}
				require.Len(t, errs, 1, r.Raw)
				fe := errs[0].(map[string]any)
				assert.Equal(t, tc.field, fe["field"], "field names are never translated")
				assert.Equal(t, float64(421), fe["code"], lang)
				assert.Equal(t, tc.field+": "+fe["message"].(string), msg, "the field's message is the answer's, after the field")
				if en != nil && lang != "" && lang[0] != 'e' {
					assert.NotEqual(t, en.Env.Data["errors"], errs, "%s: the field's message is translated", lang)
				}
			}
		})
	}
}
