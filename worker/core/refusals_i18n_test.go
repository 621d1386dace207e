package core_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
)

// The edge's refusals of a request's shape or credentials and its
// answers to a failed upstream speak the client's Accept-Language; the
// English stays what it was (clients and parity.json read it).
func TestRefusalsInTheClientsLanguage(t *testing.T) {
	e := edgeOf()
	// Unbound booking grants (issue 30 refuses them by default): these
	// cases are about the token, not the offer (offers_test.go).
	ledger := ledgerEdge(core.EnvAllowUnbound, "true")
	noLedger := edgeOf(core.EnvAllowUnbound, "true")
	const dropPoints = "country_code=ES&zip_code=28001"
	upstreamAnswer := func(up *core.Upstream) func(string) *answer {
		return func(lang string) *answer {
			return drive(t, e, "get-drop-points", &core.Request{Method: "GET", Query: dropPoints, HasQuery: true, AcceptLanguage: lang}, up)
		}
	}
	minted := func(ed *core.Edge, body string) string {
		r := mintAt(ed, body, bearerMaster, day)
		require.Equal(t, 200, r.Status, r.Raw)
		return "Bearer " + r.Env.Data["token"].(string)
	}
	scopedTo := func(ed *core.Edge, ops string) string {
		return minted(ed, "operations="+ops+"&shipping_client_ref=ORD-77&ttl=60")
	}
	labelOnly := scopedTo(ledger, "get-shipment-label")
	reader := minted(ledger, "operations=get-shipment,get-shipment-tracking&dlvr_ref=D1&ttl=60")
	read := func(op, query string) func(string) *answer {
		return func(l string) *answer {
			return drive(t, ledger, op, &core.Request{Method: "GET", Query: query, HasQuery: true, Authorization: reader, AcceptLanguage: l}, nil)
		}
	}
	booker := scopedTo(ledger, "new-shipment")
	tokens := func(r *core.Request) func(string) *answer {
		return func(lang string) *answer {
			q := *r
			q.AcceptLanguage, q.RequestID, q.Now = lang, "rid", day
			return toAnswer(t, ledger.Tokens(&q).Response, nil)
		}
	}
	type lang struct{ header, has string }
	for _, c := range []struct {
		name   string
		run    func(lang string) *answer
		status int
		en     string
		es, de lang
	}{
		{"upstream timeout", upstreamAnswer(&core.Upstream{Failure: core.FailTimeout}), 504,
			"the upstream did not answer within 10000 ms (UPSTREAM_TIMEOUT_MS)",
			lang{"es-ES,es;q=0.9", "no respondió en 10000 ms (UPSTREAM_TIMEOUT_MS)"}, lang{"de", "nicht innerhalb von 10000 ms geantwortet"}},
		{"upstream unreachable", upstreamAnswer(&core.Upstream{Failure: core.FailUnreachable}), 502,
			"the upstream could not be reached",
			lang{"es", "no se pudo contactar con el servicio de envíos"}, lang{"de-AT", "Versanddienst war nicht erreichbar"}},
		{"upstream unreadable", upstreamAnswer(&core.Upstream{Status: 200, Failure: core.FailUnreadable}), 502,
			"the upstream's response (HTTP 200) could not be read",
			lang{"es", "no se pudo leer la respuesta del servicio de envíos (HTTP 200)"}, lang{"de", "konnte nicht gelesen werden"}},
		{"credentials leaked", upstreamAnswer(okUp(`{"status":"ok","data":{"debug":"` + key + `"}}`)), 502,
			"the upstream's answer (HTTP 200) contained the worker's credentials and was withheld",
			lang{"es", "contenía las credenciales del worker"}, lang{"de", "enthielt die Zugangsdaten des Workers"}},
		{"ok envelope on an error status", upstreamAnswer(&core.Upstream{Status: 503, Body: []byte(`{"status":"ok","data":{}}`)}), 502,
			"the upstream answered HTTP 503 with an ok envelope; it may or may not have been applied",
			lang{"es", "respondió HTTP 503 con un sobre ok"}, lang{"de", "mit HTTP 503 und einem ok-Umschlag"}},
		{"not an envelope", upstreamAnswer(&core.Upstream{Status: 200, Body: []byte(`[1]`)}), 502,
			"", lang{"es", "en lugar de un sobre {status, data}"}, lang{"de", "statt eines {status, data}-Umschlags"}},
		{"credentials refused", upstreamAnswer(&core.Upstream{Status: 401, Body: []byte(`{"status":"err","data":{"errorCode":1}}`)}), 502,
			"the upstream refused the worker's credentials (HTTP 401): check the API_USER and API_KEY secrets",
			lang{"es", "revisa los secretos API_USER y API_KEY"}, lang{"de", "prüfen Sie die Secrets API_USER und API_KEY"}},
		{"upstream failed", upstreamAnswer(&core.Upstream{Status: 500, Body: []byte(`{"status":"err","data":{"errorCode":7,"errorMessage":"down"}}`)}), 502,
			"the upstream failed (HTTP 500): 7 down",
			lang{"es", "el servicio de envíos falló (HTTP 500): 7 down"}, lang{"de", "der Versanddienst ist fehlgeschlagen (HTTP 500): 7 down"}},
		{"query on a POST", func(l string) *answer {
			return drive(t, e, "get-shipments-rates", &core.Request{Method: "POST", Query: "a=1", HasQuery: true, AcceptLanguage: l}, nil)
		}, 400, "query string: a POST takes its parameters in the form body, not in the URL (?a=1)",
			lang{"es", "en el cuerpo del formulario, no en la URL (?a=1)"}, lang{"de", "im Formular-Body, nicht in der URL (?a=1)"}},
		{"too large", func(l string) *answer {
			return drive(t, e, "get-shipments-rates", &core.Request{Method: "POST", BodyTooLarge: true, AcceptLanguage: l}, nil)
		}, 413, "request larger than MAX_BODY_BYTES (65536 bytes)",
			lang{"es", "la solicitud supera MAX_BODY_BYTES (65536 bytes)"}, lang{"de", "größer als MAX_BODY_BYTES (65536 Bytes)"}},
		{"media type", func(l string) *answer {
			return drive(t, e, "get-shipments-rates", &core.Request{Method: "POST", Body: []byte("{}"), ContentType: "application/json", AcceptLanguage: l}, nil)
		}, 415, `send the parameters as application/x-www-form-urlencoded (got "application/json")`,
			lang{"es", `envía los parámetros como application/x-www-form-urlencoded (se recibió "application/json")`},
			lang{"de", `senden Sie die Parameter als application/x-www-form-urlencoded (erhalten: "application/json")`}},
		{"no credentials", func(l string) *answer {
			return drive(t, ledger, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), AcceptLanguage: l}, nil)
		}, 401, "new-shipment requires Authorization: Bearer <PROXY_TOKEN or a scoped token>",
			lang{"es", "new-shipment requiere Authorization: Bearer <PROXY_TOKEN o un token limitado>"}, lang{"de", "oder ein eingeschränktes Token"}},
		{"token not granting", func(l string) *answer {
			return drive(t, ledger, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), Authorization: labelOnly, AcceptLanguage: l}, nil)
		}, 403, "the scoped token does not grant new-shipment (it grants get-shipment-label)",
			lang{"es", "el token limitado no permite new-shipment (permite get-shipment-label)"}, lang{"de", "erlaubt new-shipment nicht (es erlaubt get-shipment-label)"}},
		{"token expired", func(l string) *answer {
			return drive(t, ledger, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), Authorization: booker, AcceptLanguage: l, Now: day.Add(time.Hour)}, nil)
		}, 401, "the scoped token has expired; get a new one from the shop's server",
			lang{"es", "obtén uno nuevo del servidor de la tienda"}, lang{"de", "holen Sie ein neues vom Server des Shops"}},
		{"token tampered", func(l string) *answer {
			return drive(t, ledger, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), Authorization: booker + "x", AcceptLanguage: l}, nil)
		}, 401, "the scoped token is not valid (tampered, or minted with another TOKEN_SIGNING_KEY)",
			lang{"es", "el token limitado no es válido"}, lang{"de", "das eingeschränkte Token ist ungültig"}},
		{"scoped booking without the ledger", func(l string) *answer {
			tok := scopedTo(noLedger, "new-shipment")
			return drive(t, noLedger, "new-shipment", &core.Request{Method: "POST", Body: []byte(shipmentForm), Authorization: tok, AcceptLanguage: l}, nil)
		}, 403, "a scoped token books only with booking records (EXACTLY_ONCE=true and the BOOKINGS binding), which make a resend answer the first booking; book from the shop's server with PROXY_TOKEN",
			lang{"es", "(EXACTLY_ONCE=true y el binding BOOKINGS)"}, lang{"de", "(EXACTLY_ONCE=true und das Binding BOOKINGS)"}},
		{"token bound to another reference", read("get-shipment", "dlvr_ref=D2"), 403,
			"dlvr_ref: the scoped token is bound to another reference",
			lang{"es", "dlvr_ref: el token limitado está ligado a otra referencia"}, lang{"de", "dlvr_ref: das eingeschränkte Token ist an eine andere Referenz gebunden"}},
		{"carrier_ref with a scoped token", read("get-shipment-tracking", "carrier_ref=C1&carrier_code=rapido"), 403,
			"carrier_ref: not allowed with a scoped token; use dlvr_ref",
			lang{"es", "carrier_ref: no se permite con un token limitado; usa dlvr_ref"}, lang{"de", "verwenden Sie dlvr_ref"}},
		{"token not bound to a shipping_client_ref", read("get-shipment-tracking", "client_ref=ORD-77"), 403,
			"client_ref: the scoped token is not bound to a shipping_client_ref",
			lang{"es", "no está ligado a un shipping_client_ref"}, lang{"de", "ist an kein shipping_client_ref gebunden"}},
		{"misconfigured, to a caller without the master token", func(l string) *answer {
			return drive(t, edgeOf(core.EnvProxyToken, ""), "get-shipment", &core.Request{Method: "GET", Query: "dlvr_ref=D1", HasQuery: true, AcceptLanguage: l}, nil)
		}, 500, "worker misconfigured: a required secret or setting is missing, weak or invalid; the worker's log names it, and /healthz with the master token",
			lang{"es", "worker mal configurado"}, lang{"de", "Worker falsch konfiguriert"}},
		{"booking taken over by another attempt", func(l string) *answer {
			return toAnswer(t, ledger.Failure(core.FailureInput{Kind: "booking_taken_over", Operation: "new-shipment", RequestID: "rid", AcceptLanguage: l}), nil)
		}, 503, "another attempt with this shipping_client_ref took over its booking; nothing was sent: retry shortly to get its answer",
			lang{"es", "otro intento con este shipping_client_ref ha tomado el relevo de su reserva"}, lang{"de", "hat ihre Buchung übernommen"}},
		{"POST /tokens without the master token", tokens(&core.Request{Method: "POST", Body: []byte("operations=get-shipment"), ContentType: "application/x-www-form-urlencoded"}), 401,
			"POST /tokens requires Authorization: Bearer <PROXY_TOKEN> (call it from the shop's server)",
			lang{"es", "llámalo desde el servidor de la tienda"}, lang{"de", "rufen Sie es vom Server des Shops auf"}},
		{"POST /tokens with a query", tokens(&core.Request{Method: "POST", Query: "ttl=60", HasQuery: true, Authorization: bearerMaster, ContentType: "application/x-www-form-urlencoded"}), 400,
			"query string: a POST takes its parameters in the form body, not in the URL (?ttl=60)",
			lang{"es", "no en la URL (?ttl=60)"}, lang{"de", "nicht in der URL (?ttl=60)"}},
		{"POST /tokens with a bad body", tokens(&core.Request{Method: "POST", Body: []byte("a=%zz"), Authorization: bearerMaster, ContentType: "application/x-www-form-urlencoded"}), 400,
			"the body is not a valid form",
			lang{"es", "el cuerpo no es un formulario válido"}, lang{"de", "der Body ist kein gültiges Formular"}},
		{"POST /tokens too large", tokens(&core.Request{Method: "POST", BodyTooLarge: true, Authorization: bearerMaster, ContentType: "application/x-www-form-urlencoded"}), 413,
			"request larger than MAX_BODY_BYTES (65536 bytes)",
			lang{"es", "la solicitud supera MAX_BODY_BYTES"}, lang{"de", "die Anfrage ist größer als MAX_BODY_BYTES"}},
	} {
		en := c.run("")
		require.Equal(t, c.status, en.Status, "%s: %s", c.name, en.Raw)
		if c.en != "" {
			assert.Equal(t, c.en, en.message(), c.name)
		}
		assert.Equal(t, en.message(), c.run("en-US,fr;q=0.5").message(), "%s: English first", c.name)
		for _, l := range []lang{c.es, c.de} {
			got := c.run(l.header)
			assert.Equal(t, c.status, got.Status, "%s (%s)", c.name, l.header)
			assert.Equal(t, en.Env.Data["errorClass"], got.Env.Data["errorClass"], "%s (%s): the class is never translated", c.name, l.header)
			assert.Equal(t, en.code(), got.code(), "%s (%s)", c.name, l.header)
			assert.Contains(t, got.message(), l.has, "%s (%s)", c.name, l.header)
			assert.NotEqual(t, en.message(), got.message(), "%s (%s)", c.name, l.header)
		}
	}
}

// A lost booking's hint (what to do now that it may have been made) is
// in the client's language too, in every mode; the English is unchanged.
func TestBookingHintInTheClientsLanguage(t *testing.T) {
	ledger, sandbox, plain := ledgerEdge(core.EnvBookingGrace, "90"), demoEdge(core.EnvExactlyOnce, "false"), edgeOf()
	lost := &core.Upstream{Failure: core.FailTimeout}
	hint := func(e *core.Edge, ctx core.AnswerContext, lang string) string {
		a := toAnswer(t, e.Answer(core.AnswerInput{Context: ctx, Upstream: lost, RequestID: "rid", AcceptLanguage: lang, Now: day, SentAt: day}).Response, nil)
		require.Equal(t, 504, a.Status, a.Raw)
		h, _ := a.Env.Data["hint"].(string)
		return h
	}
	shipment := core.AnswerContext{Operation: "new-shipment", ClientRef: "ORD-77"}
	collection := core.AnswerContext{Operation: "new-collection", ClientRef: "C-1"}
	withLedger := func(c core.AnswerContext) core.AnswerContext { c.Ledger = true; return c }
	for _, c := range []struct {
		name   string
		e      *core.Edge
		ctx    core.AnswerContext
		en     string
		es, de string
	}{
		{"shipment through the records", ledger, withLedger(shipment),
			"the shipment may have been booked, and the upstream may still be committing it. Resend the same request (same shipping_client_ref, same data) after Retry-After: for 90 s",
			"Reenvía la misma solicitud (mismo shipping_client_ref, mismos datos) después de Retry-After: durante 90 s",
			"Senden Sie dieselbe Anfrage (dieselbe shipping_client_ref, dieselben Daten) nach Retry-After erneut: 90 s lang"},
		{"collection through the records", ledger, withLedger(collection),
			"the collection may have been booked, and the service offers no way to look it up: a resend with this collection_client_ref is answered 409",
			"un reenvío con este collection_client_ref recibe un 409", "eine erneute Sendung mit dieser collection_client_ref wird mit 409 beantwortet"},
		{"sandbox", sandbox, shipment,
			"resending the same shipping_client_ref with the same data is answered with the first booking",
			"reenviar el mismo shipping_client_ref con los mismos datos", "eine erneute Sendung derselben shipping_client_ref"},
		{"shipment without records", plain, shipment,
			"do not resend blindly: the shipment may have been booked; look it up with get-shipments?filter_shipping_client_ref=ORD-77 and book again only if it is not there",
			"búscalo con get-shipments?filter_shipping_client_ref=ORD-77", "suchen Sie sie mit get-shipments?filter_shipping_client_ref=ORD-77"},
		{"collection without records", plain, collection,
			"do not resend blindly: the collection may have been booked; check the customer area before booking again",
			"revisa el área de cliente antes de volver a reservar", "prüfen Sie den Kundenbereich, bevor Sie erneut buchen"},
	} {
		en := hint(c.e, c.ctx, "")
		assert.Contains(t, en, c.en, c.name)
		assert.Equal(t, en, hint(c.e, c.ctx, "en-GB"), c.name)
		es, de := hint(c.e, c.ctx, "es-MX"), hint(c.e, c.ctx, "de")
		assert.Contains(t, es, c.es, c.name)
		assert.Contains(t, de, c.de, c.name)
		assert.NotEqual(t, en, es, c.name)
		assert.NotEqual(t, en, de, c.name)
	}
	// The request deadline the JavaScript reports for a booking carries the hint as well.
	d := toAnswer(t, ledger.Failure(core.FailureInput{Kind: "timeout", Operation: "new-shipment", RequestID: "rid", AcceptLanguage: "es"}), nil)
	assert.Contains(t, d.Env.Data["hint"], "Reenvía la misma solicitud", d.Raw)
}
