package core

import (
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/internal/urlquery"
	"github.com/parcelgate/parcelgate/worker/offers"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// Signed offers (issue 30): every service of a get-shipments-rates answer
// through the edge carries `offer`, every drop point of a get-drop-points
// answer `point` (worker/offers), and a booking bound to an offer is
// forwarded only when it books what the offer says.
//
// The answers are signed where the client's body is made (normalize: the
// relayed and the cached answers alike, raw or normalized), so the caches
// keep the upstream's bytes and every hit gets offers of its own expiry.
// What the answer alone does not say (the route and parcels of a rates
// request, the place of a drop-points one) comes from prepare as the
// forward's `sign` basis, computed from the normalized request.

// Settings of offers.
const (
	EnvOfferTTL = "OFFER_TTL_SECONDS"
	// EnvAllowUnbound lets POST /tokens mint new-shipment grants without
	// an offer, and the edge accept bookings with them: a page holding
	// such a token books any service, destination and parcels on the
	// merchant's account. For a shop that books from its server only.
	EnvAllowUnbound = "ALLOW_UNBOUND_BOOKING_GRANTS"
)

// Fields of a new-shipment request the edge reads and strips: the offer
// it books and the signed drop point it delivers to. The upstream never
// sees them.
const (
	FieldOffer = "offer"
	FieldPoint = "point"
)

// offerConfig is what the edge signs and checks offers with.
type offerConfig struct {
	ttl          time.Duration
	allowUnbound bool
	signer       *offers.Signer // nil without TOKEN_SIGNING_KEY
	keys         offers.Keys
}

// configureOffers reads the offers' settings; problems go to e.errs.
func (e *Edge) configureOffers(getenv func(string) string) {
	o := &e.offers
	o.ttl = offers.DefaultTTL
	if v := strings.TrimSpace(getenv(EnvOfferTTL)); v != "" {
		n, ok := decimal.Atoi(v)
		if !ok || time.Duration(n)*time.Second < offers.MinTTL || time.Duration(n)*time.Second > offers.MaxTTL {
			e.errs = append(e.errs, ConfigError{EnvOfferTTL, "must be a whole number of seconds from 60 to 86400"})
		} else {
			o.ttl = time.Duration(n) * time.Second
		}
	}
	switch unitab.Lower(strings.TrimSpace(getenv(EnvAllowUnbound))) {
	case "", "0", "false", "no", "off":
	case "1", "true", "yes", "on":
		o.allowUnbound = true
	default:
		e.errs = append(e.errs, ConfigError{EnvAllowUnbound, "must be true or false"})
	}
	if len(e.cfg.SigningKey) > 0 {
		o.signer, _ = offers.NewSigner(e.cfg.SigningKey)
		o.keys = offers.Keys{Current: e.cfg.SigningKey}
	}
}

// offerBasis is what a rates or drop-points answer's signatures take from
// the (normalized) request: "fc=..&fz=..&tc=..&tz=..&pc=.." or
// "cc=..&z=..". "" for other operations, or without a signing key.
func (e *Edge) offerBasis(op string, req *form.Request) string {
	if e.offers.signer == nil {
		return ""
	}
	switch op {
	case "get-shipments-rates":
		b := "fc=" + urlquery.Escape(req.Get("from_country_code")) + "&fz=" + urlquery.Escape(req.Get("from_zip_code")) +
			"&tc=" + urlquery.Escape(req.Get("to_country_code")) + "&tz=" + urlquery.Escape(req.Get("to_zip_code")) + "&pc="
		return string(offers.AppendParcels([]byte(b), parcelsOf(req)))
	case "get-drop-points":
		return "cc=" + urlquery.Escape(req.Get("country_code")) + "&z=" + urlquery.Escape(req.Get("zip_code"))
	}
	return ""
}

// parcelsOf is a request's parcels as offers compare them: canonical
// decimals (validation let only decimals through).
func parcelsOf(req *form.Request) []offers.Parcel {
	out := make([]offers.Parcel, len(req.Parcels))
	for i := range req.Parcels {
		p := &req.Parcels[i]
		out[i] = offers.Parcel{Weight: offers.Canonical(p.Weight), Width: offers.Canonical(p.Width),
			Height: offers.Canonical(p.Height), Length: offers.Canonical(p.Length), Volume: offers.Canonical(p.Volume)}
	}
	return out
}

// basisValue reads one field of a basis.
func basisValue(basis, name string) string {
	for basis != "" {
		var part string
		part, basis, _ = strings.Cut(basis, "&")
		if k, v, _ := strings.Cut(part, "="); k == name {
			if name == "pc" {
				return v
			}
			u, _ := urlquery.Unescape(v)
			return u
		}
	}
	return ""
}

// SignAnswer returns an ok answer's body with an offer in every service
// (get-shipments-rates) or a point in every drop point (get-drop-points),
// signed at now for the request basis describes; body unchanged when
// there is nothing to sign.
func (e *Edge) SignAnswer(op string, body []byte, basis string, now time.Time) []byte {
	s := e.offers.signer
	if s == nil || basis == "" {
		return body
	}
	exp := now.Add(e.offers.ttl).Truncate(time.Second)
	var ins []insertion
	switch op {
	case "get-shipments-rates":
		o := offers.Offer{From: offers.Place{Country: basisValue(basis, "fc"), Postal: basisValue(basis, "fz")},
			To: offers.Place{Country: basisValue(basis, "tc"), Postal: basisValue(basis, "tz")}, Expires: exp}
		var ok bool
		if o.Parcels, ok = offers.ParseParcels(basisValue(basis, "pc")); !ok {
			return body
		}
		ins = e.rateInsertions(body, &o)
	case "get-drop-points":
		p := offers.Point{Near: offers.Place{Country: basisValue(basis, "cc"), Postal: basisValue(basis, "z")}, Expires: exp}
		ins = e.pointInsertions(body, &p)
	}
	if len(ins) == 0 {
		return body
	}
	n := len(body)
	for _, in := range ins {
		n += len(in.text)
	}
	out := make([]byte, 0, n)
	last := 0
	for _, in := range ins {
		out = append(out, body[last:in.at]...)
		out = append(out, in.text...)
		last = in.at
	}
	return append(out, body[last:]...)
}

// insertion is a member to write before a closing brace at.
type insertion struct {
	at   int
	text string
}

// member is `,"name":"value"` (no comma in an empty object).
func member(empty bool, name, value string) string {
	b := make([]byte, 0, len(name)+len(value)+6)
	if !empty {
		b = append(b, ',')
	}
	b = jsonlite.AppendString(b, name)
	b = append(b, ':')
	return string(jsonlite.AppendString(b, value))
}

// dataOf positions s at an ok envelope's data and calls fn there.
func dataOf(body []byte, fn func(s *jsonlite.Scanner) error) bool {
	s := jsonlite.NewScanner(body)
	found := false
	err := s.Object(func(k string) error {
		if k != "data" {
			return nil
		}
		found = true
		return fn(s)
	})
	return err == nil && found
}

func (e *Edge) rateInsertions(body []byte, o *offers.Offer) []insertion {
	var ins []insertion
	service := func(s *jsonlite.Scanner) error {
		if s.Peek() != jsonlite.Object {
			return nil // [] for none: skipped
		}
		var price, cur string
		var dp bool
		empty := true
		err := s.Object(func(k string) error {
			empty = false
			var err error
			switch k {
			case "carrier_code":
				o.Carrier, err = s.LooseString()
			case "service_code":
				o.Service, err = s.LooseString()
			case "price":
				price, err = s.LooseString()
			case "currency":
				cur, err = s.LooseString()
			case "is_drop_point":
				dp, err = s.LooseBool()
			}
			return err
		})
		if err != nil {
			return err
		}
		// A price that is not a plain decimal, or a service without its
		// codes, gets no offer: it cannot be booked bound to one.
		o.Price, o.DropPoint, o.Currency = offers.Canonical(price), dp, cur
		if o.Currency == "" {
			o.Currency = "EUR" // as the normalizer reads a rate without one
		}
		if o.Price != "" && o.Carrier != "" && o.Service != "" {
			ins = append(ins, insertion{s.Offset() - 1, member(empty, "offer", e.offers.signer.Sign(o))})
		}
		o.Carrier, o.Service = "", ""
		return nil
	}
	dataOf(body, func(s *jsonlite.Scanner) error {
		return s.Object(func(k string) error {
			switch k {
			case "best_price_service":
				return service(s)
			case "services":
				if s.Peek() != jsonlite.Array {
					return nil
				}
				return s.Array(func(int) error { return service(s) })
			}
			return nil
		})
	})
	return ins
}

func (e *Edge) pointInsertions(body []byte, p *offers.Point) []insertion {
	var ins []insertion
	point := func(s *jsonlite.Scanner) error {
		if s.Peek() != jsonlite.Object {
			return nil
		}
		empty := true
		err := s.Object(func(k string) error {
			empty = false
			var err error
			switch k {
			case "carrier_code":
				p.Carrier, err = s.LooseString()
			case "drop_point_key":
				p.Key, err = s.LooseString()
			}
			return err
		})
		if err != nil {
			return err
		}
		if p.Carrier != "" && p.Key != "" {
			ins = append(ins, insertion{s.Offset() - 1, member(empty, "point", e.offers.signer.SignPoint(p))})
		}
		p.Carrier, p.Key = "", ""
		return nil
	}
	list := func(s *jsonlite.Scanner) error {
		if s.Peek() != jsonlite.Array {
			return nil
		}
		return s.Array(func(int) error { return point(s) })
	}
	dataOf(body, func(s *jsonlite.Scanner) error {
		if s.Peek() == jsonlite.Array {
			return list(s) // the list itself as data (tolerated by the decoder)
		}
		return s.Object(func(k string) error {
			if k == "drop_points" {
				return list(s)
			}
			return nil
		})
	})
	return ins
}

// takeOffer removes a new-shipment request's offer and point fields
// (never forwarded) and returns them.
func takeOffer(req *form.Request) (offer, point string) {
	offer, point = req.Get(FieldOffer), req.Get(FieldPoint)
	req.Del(FieldOffer)
	req.Del(FieldPoint)
	return strings.TrimSpace(offer), strings.TrimSpace(point)
}

// checkOffer holds a normalized new-shipment request to its offer: the
// offer its scoped token is bound to (which the request must carry), or
// the one a master-token booking carries. nil: forward it.
func (e *Edge) checkOffer(scope *tokens.Claims, req *form.Request, offer, point string, r *Request) *Refusal {
	l := r.locale()
	deny := func(class string, m int) *Refusal {
		return refuse(403, class, offerSay(l, m))
	}
	if scope != nil {
		switch {
		case scope.OfferTag == "" && !e.offers.allowUnbound:
			return deny("offer_unbound", msgOfferUnbound)
		case scope.OfferTag != "" && offer == "":
			return fieldRefusal(400, CodeBadRequest, "offer_required", FieldOffer, offerSay(l, msgOfferRequired))
		case scope.OfferTag != "" && offers.Tag(offer) != scope.OfferTag:
			return deny("offer_other", msgOfferOther)
		}
	}
	if offer == "" {
		if point != "" {
			return fieldRefusal(400, CodeBadRequest, "offer_required", FieldOffer, offerSay(l, msgOfferRequired))
		}
		return nil // a master-token booking, or an unbound grant the operator allows
	}
	if e.offers.signer == nil {
		return misconfig([]ConfigError{{EnvTokenSigningKey, "secret is not set (needed to verify offers)"}})
	}
	o, err := offers.Verify(e.offers.keys, offer, r.Now)
	switch offers.Reason(err) {
	case "":
	case "expired":
		return deny("offer_expired", msgOfferExpired)
	default:
		return deny("offer_invalid", msgOfferInvalid)
	}
	if req.Get("carrier_code") != o.Carrier || req.Get("service_code") != o.Service {
		return deny("offer_service", msgOfferService)
	}
	if req.Get("from_country_code") != o.From.Country || req.Get("from_zip_code") != o.From.Postal ||
		req.Get("to_country_code") != o.To.Country || req.Get("to_zip_code") != o.To.Postal {
		return deny("offer_route", msgOfferRoute)
	}
	got := parcelsOf(req)
	if len(got) != len(o.Parcels) {
		return deny("offer_parcels", msgOfferParcels)
	}
	for i := range got {
		if got[i] != o.Parcels[i] {
			return deny("offer_parcels", msgOfferParcels)
		}
	}
	key := req.Get("drop_point_key")
	if !o.DropPoint {
		if key != "" || point != "" {
			return deny("offer_drop_point", msgOfferNoDropPoint)
		}
		return nil
	}
	if key == "" || point == "" {
		return deny("offer_drop_point", msgOfferDropPointMissing)
	}
	p, err := offers.VerifyPoint(e.offers.keys, point, r.Now)
	if err != nil || p.Carrier != o.Carrier || p.Key != key || p.Near != o.To {
		if offers.Reason(err) == "expired" {
			return deny("offer_expired", msgOfferExpired)
		}
		return deny("offer_drop_point", msgOfferDropPoint)
	}
	return nil
}

// The offers' messages, in internal/i18n's order (messages.go's rules).
var offerMessages = [...]string{
	msgOfferUnbound: "this booking token is not bound to an offer; the shop's server must mint it with the offer the shopper chose (or set ALLOW_UNBOUND_BOOKING_GRANTS)" + next +
		"este token de reserva no está ligado a una oferta; el servidor de la tienda debe emitirlo con la oferta elegida (o activar ALLOW_UNBOUND_BOOKING_GRANTS)" + next +
		"este token de reserva não está associado a uma oferta; o servidor da loja deve emiti-lo com a oferta escolhida (ou ativar ALLOW_UNBOUND_BOOKING_GRANTS)" + next +
		"ce jeton de réservation n’est lié à aucune offre ; le serveur de la boutique doit l’émettre avec l’offre choisie (ou activer ALLOW_UNBOUND_BOOKING_GRANTS)" + next +
		"dieses Buchungstoken ist an kein Angebot gebunden; der Server des Shops muss es mit dem gewählten Angebot ausstellen (oder ALLOW_UNBOUND_BOOKING_GRANTS setzen)" + next +
		"questo token di prenotazione non è legato a un’offerta; il server del negozio deve emetterlo con l’offerta scelta (o impostare ALLOW_UNBOUND_BOOKING_GRANTS)" + next +
		"dit boekingstoken is niet aan een aanbod gebonden; de server van de winkel moet het uitgeven met het gekozen aanbod (of ALLOW_UNBOUND_BOOKING_GRANTS instellen)",
	msgOfferRequired: "send the chosen offer with the booking (the offer of the service in the rates answer)" + next +
		"envía la oferta elegida con la reserva (la oferta del servicio en la respuesta de tarifas)" + next +
		"envie a oferta escolhida com a reserva (a oferta do serviço na resposta de tarifas)" + next +
		"envoyez l’offre choisie avec la réservation (l’offre du service dans la réponse des tarifs)" + next +
		"senden Sie das gewählte Angebot mit der Buchung (das Angebot des Dienstes in der Tarifantwort)" + next +
		"invia l’offerta scelta con la prenotazione (l’offerta del servizio nella risposta delle tariffe)" + next +
		"stuur het gekozen aanbod mee met de boeking (het aanbod van de dienst in het tarievenantwoord)",
	msgOfferOther: "this is not the offer the booking token was issued for" + next +
		"esta no es la oferta para la que se emitió el token de reserva" + next +
		"esta não é a oferta para a qual o token de reserva foi emitido" + next +
		"ce n’est pas l’offre pour laquelle le jeton de réservation a été émis" + next +
		"dies ist nicht das Angebot, für das das Buchungstoken ausgestellt wurde" + next +
		"questa non è l’offerta per cui è stato emesso il token di prenotazione" + next +
		"dit is niet het aanbod waarvoor het boekingstoken is uitgegeven",
	msgOfferExpired: "the shipping offer has expired: quote again and choose a service" + next +
		"la oferta de envío ha caducado: vuelve a calcular las tarifas y elige un servicio" + next +
		"a oferta de envio expirou: calcule novamente as tarifas e escolha um serviço" + next +
		"l’offre d’expédition a expiré : recalculez les tarifs et choisissez un service" + next +
		"das Versandangebot ist abgelaufen: fragen Sie die Tarife erneut ab und wählen Sie einen Dienst" + next +
		"l’offerta di spedizione è scaduta: ricalcola le tariffe e scegli un servizio" + next +
		"het verzendaanbod is verlopen: vraag de tarieven opnieuw op en kies een dienst",
	msgOfferInvalid: "the shipping offer is not valid (changed, or not from this shop): quote again" + next +
		"la oferta de envío no es válida (modificada o de otra tienda): vuelve a calcular las tarifas" + next +
		"a oferta de envio não é válida (alterada ou de outra loja): calcule novamente as tarifas" + next +
		"l’offre d’expédition n’est pas valide (modifiée ou d’une autre boutique) : recalculez les tarifs" + next +
		"das Versandangebot ist ungültig (verändert oder nicht von diesem Shop): fragen Sie die Tarife erneut ab" + next +
		"l’offerta di spedizione non è valida (modificata o di un altro negozio): ricalcola le tariffe" + next +
		"het verzendaanbod is ongeldig (gewijzigd of niet van deze winkel): vraag de tarieven opnieuw op",
	msgOfferService: "the booking's carrier or service is not the one of the chosen offer" + next +
		"el transportista o el servicio de la reserva no son los de la oferta elegida" + next +
		"a transportadora ou o serviço da reserva não são os da oferta escolhida" + next +
		"le transporteur ou le service de la réservation ne sont pas ceux de l’offre choisie" + next +
		"Versanddienstleister oder Dienst der Buchung entsprechen nicht dem gewählten Angebot" + next +
		"il corriere o il servizio della prenotazione non sono quelli dell’offerta scelta" + next +
		"de vervoerder of dienst van de boeking is niet die van het gekozen aanbod",
	msgOfferRoute: "the booking's origin or destination is not the one the offer was quoted for: quote again" + next +
		"el origen o el destino de la reserva no son aquellos para los que se calculó la oferta: vuelve a calcular las tarifas" + next +
		"a origem ou o destino da reserva não são aqueles para os quais a oferta foi calculada: calcule novamente as tarifas" + next +
		"l’origine ou la destination de la réservation ne sont pas celles de l’offre : recalculez les tarifs" + next +
		"Herkunft oder Ziel der Buchung entsprechen nicht dem Angebot: fragen Sie die Tarife erneut ab" + next +
		"l’origine o la destinazione della prenotazione non sono quelle dell’offerta: ricalcola le tariffe" + next +
		"de herkomst of bestemming van de boeking is niet die van het aanbod: vraag de tarieven opnieuw op",
	msgOfferParcels: "the booking's parcels are not the ones the offer was quoted for: quote again" + next +
		"los bultos de la reserva no son aquellos para los que se calculó la oferta: vuelve a calcular las tarifas" + next +
		"os volumes da reserva não são aqueles para os quais a oferta foi calculada: calcule novamente as tarifas" + next +
		"les colis de la réservation ne sont pas ceux de l’offre : recalculez les tarifs" + next +
		"die Pakete der Buchung entsprechen nicht dem Angebot: fragen Sie die Tarife erneut ab" + next +
		"i colli della prenotazione non sono quelli dell’offerta: ricalcola le tariffe" + next +
		"de pakketten van de boeking zijn niet die van het aanbod: vraag de tarieven opnieuw op",
	msgOfferDropPoint: "the drop point is not one listed for this carrier near the destination: choose a drop point again" + next +
		"el punto de recogida no es uno de los listados para este transportista cerca del destino: elige de nuevo un punto" + next +
		"o ponto de recolha não é um dos listados para esta transportadora perto do destino: escolha novamente um ponto" + next +
		"le point relais n’est pas l’un de ceux listés pour ce transporteur près de la destination : choisissez à nouveau un point" + next +
		"die Abholstelle ist keine der für diesen Versanddienstleister nahe dem Ziel gelisteten: wählen Sie erneut eine Abholstelle" + next +
		"il punto di ritiro non è tra quelli elencati per questo corriere vicino alla destinazione: scegli di nuovo un punto" + next +
		"het afhaalpunt is niet een van de voor deze vervoerder bij de bestemming getoonde punten: kies opnieuw een afhaalpunt",
	msgOfferDropPointMissing: "this service delivers to a drop point: choose one" + next +
		"este servicio entrega en un punto de recogida: elige uno" + next +
		"este serviço entrega num ponto de recolha: escolha um" + next +
		"ce service livre en point relais : choisissez-en un" + next +
		"dieser Dienst liefert an eine Abholstelle: wählen Sie eine aus" + next +
		"questo servizio consegna in un punto di ritiro: scegline uno" + next +
		"deze dienst levert aan een afhaalpunt: kies er een",
	msgOfferNoDropPoint: "this service delivers to the address, not to a drop point" + next +
		"este servicio entrega en la dirección, no en un punto de recogida" + next +
		"este serviço entrega na morada, não num ponto de recolha" + next +
		"ce service livre à l’adresse, pas en point relais" + next +
		"dieser Dienst liefert an die Adresse, nicht an eine Abholstelle" + next +
		"questo servizio consegna all’indirizzo, non in un punto di ritiro" + next +
		"deze dienst levert op het adres, niet aan een afhaalpunt",
}

const (
	msgOfferUnbound = iota
	msgOfferRequired
	msgOfferOther
	msgOfferExpired
	msgOfferInvalid
	msgOfferService
	msgOfferRoute
	msgOfferParcels
	msgOfferDropPoint
	msgOfferDropPointMissing
	msgOfferNoDropPoint
	offerMessageCount
)

// offerSay is message m of offerMessages in locale l.
func offerSay(l i18n.Locale, m int) string {
	if int(l) >= i18n.Count {
		l = i18n.English
	}
	return i18n.Field(offerMessages[m], next[0], int(l))
}

// unboundGrant refuses a new-shipment grant without an offer (POST
// /tokens), unless ALLOW_UNBOUND_BOOKING_GRANTS.
func (e *Edge) unboundGrant(g tokens.Grant, r *Request) *Refusal {
	if g.Offer != "" || e.offers.allowUnbound {
		return nil
	}
	for _, op := range g.Operations {
		if strings.TrimSpace(op) == "new-shipment" {
			return badTokenField(FieldOffer, "required with new-shipment: the offer the shopper chose (a service's offer in a get-shipments-rates answer); "+
				EnvAllowUnbound+"=true lets a grant book anything, see worker/README.md")
		}
	}
	return nil
}

// demoOffer binds a demo grant to its offer, verified with the worker's
// key (the token itself is signed with the demo key).
func (e *Edge) demoOffer(g *tokens.Grant, offer string, r *Request) *Refusal {
	if offer == "" {
		if e.offers.allowUnbound {
			return nil
		}
		return badTokenField(FieldOffer, "required: the offer of the service the page books (its get-shipments-rates answer's offer)")
	}
	if _, err := offers.Verify(e.offers.keys, offer, r.Now); err != nil {
		// The same words as POST /tokens.
		_, _, merr := tokens.Mint(e.cfg.SigningKey, tokens.Grant{Operations: []string{"new-shipment"}, ShippingClientRef: "x", Offer: offer}, 0, r.Now)
		if fe, ok := merr.(*tokens.FieldError); ok {
			return badTokenField(fe.Field, fe.Problem)
		}
		return badTokenField(FieldOffer, "not a valid offer")
	}
	g.OfferTag = offers.Tag(offer)
	return nil
}
