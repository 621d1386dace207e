package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
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
// forward's `sign` basis: the tail of every payload of the answer, as
// offers.AppendPlace and AppendParcels write it from the normalized
// request. A booking is held to its offer by comparing the offer's
// payload with the same encoding of the booking, field by field: the
// edge never parses an offer into facts (offers.Verify is the shop
// server's).

// Settings of offers (Config.OfferTTL, Config.AllowUnbound).
const (
	EnvOfferTTL     = "OFFER_TTL_SECONDS"
	EnvAllowUnbound = "ALLOW_UNBOUND_BOOKING_GRANTS"
)

// Fields of a new-shipment request the edge reads and strips: the offer
// it books and the signed drop point it delivers to. The upstream never
// sees them.
const (
	FieldOffer = "offer"
	FieldPoint = "point"
)

// offerBasis is what a rates or drop-points answer's signatures take from
// the (normalized) request: "fc=..&fz=..&tc=..&tz=..&pc=..[&ov=..]" or
// "cc=..&z=..". "" for other operations, or without a signing key.
// orderValue is takeOrderValue's decimal ("" for none): the offer signs
// it, so the shop's server checks the cart its free-shipping price was
// given for (issue 31).
func (e *Edge) offerBasis(op string, req *form.Request, orderValue string) string {
	if e.signer == nil {
		return ""
	}
	switch signs(op) {
	case FieldOffer:
		return string(offers.AppendOrderValue(routeOf(req), orderValue))
	case FieldPoint:
		return string(offers.AppendPlace(nil, "cc=", "&z=", offers.Place{Country: req.Get("country_code"), Postal: req.Get("zip_code")}))
	}
	return ""
}

// routeOf is a request's route and parcels as an offer's payload spells
// them.
func routeOf(req *form.Request) []byte {
	b := offers.AppendPlace(nil, "fc=", "&fz=", offers.Place{Country: req.Get("from_country_code"), Postal: req.Get("from_zip_code")})
	b = offers.AppendPlace(b, "&tc=", "&tz=", offers.Place{Country: req.Get("to_country_code"), Postal: req.Get("to_zip_code")})
	return offers.AppendParcels(append(b, "&pc="...), parcelsOf(req))
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

// SignAnswer returns an ok answer's body with an offer in every service
// (get-shipments-rates) or a point in every drop point (get-drop-points),
// signed at now for the request basis describes; body unchanged when
// there is nothing to sign.
func (e *Edge) SignAnswer(op string, body []byte, basis string, now time.Time) []byte {
	return e.signAnswer(op, body, basis, now, false)
}

// signAnswer is SignAnswer, writing the entries into body itself when
// owned (the call made body: a normalized answer) and its spare room holds
// them, rather than into a copy (a megabyte of drop points: 1.3 MB less).
func (e *Edge) signAnswer(op string, body []byte, basis string, now time.Time, owned bool) []byte {
	if e.signer == nil || basis == "" {
		return body
	}
	kind := signs(op)
	rates := kind == FieldOffer
	if !rates && kind != FieldPoint {
		return body // before the buffers below: every other answer passes here
	}
	source := byte('l')
	if rates {
		source = dataSource(body)
	}
	// The insertion points of up to eight entries in one allocation (a
	// growing pair of slices was seven allocations per answer).
	marks := make([]int, 16)
	// The entries' text is about a third of the answer (a signature of
	// some 120 bytes for each service or point of 300 to 400): room for it
	// at once, as grown an entry at a time a large answer's text went
	// through copies of twice its size.
	var sg signing
	e.startSigning(&sg, basis, now, source)
	sg.text, sg.at, sg.end = make([]byte, 0, max(2048, len(body)/3)), marks[:0:8], marks[8:8:16]
	s := jsonlite.NewScannerString(view(body)) // read only here: the offers' fields are copied into their payloads
	// The answer's data: services (and best_price_service) of rates, the
	// drop points (a list, or an object's drop_points) of drop points.
	s.Object(func(k string) error {
		if k != "data" {
			return nil
		}
		if !rates && s.Peek() == jsonlite.Array {
			return sg.list(s, rates) // the list itself as data (tolerated by the decoder)
		}
		return s.Object(func(k string) error {
			switch {
			case rates && k == "best_price_service":
				return sg.item(s, rates)
			case rates && k == "services", !rates && k == "drop_points":
				return sg.list(s, rates)
			}
			return nil
		})
	})
	if len(sg.at) == 0 {
		return body
	}
	if !owned || cap(body)-len(body) < len(sg.text) {
		body = append(make([]byte, 0, len(body)+len(sg.text)), body...)
	}
	// From the end: each stretch of body moves right by the entries before
	// it, then its entry goes in front of it (copy is a memmove).
	out := body[:len(body)+len(sg.text)]
	end, to := len(body), len(out)
	for i := len(sg.at) - 1; i >= 0; i-- {
		from := 0
		if i > 0 {
			from = sg.end[i-1]
		}
		to -= copy(out[to-(end-sg.at[i]):], body[sg.at[i]:end])
		to -= copy(out[to-(sg.end[i]-from):], sg.text[from:sg.end[i]])
		end = sg.at[i]
	}
	return out
}

// RescuedOfferTTL caps the offers of a rates answer the edge rescued
// (data.source recent or fallback, rates.go): their prices are not the
// carrier's of now, so the page quotes again soon (issue 31).
const RescuedOfferTTL = 300 * time.Second

// signing is one answer's signing: the members to insert (the text up
// to end[i], before the closing brace at at[i]), all in one buffer, and a
// reused payload buffer. The pricing pass (priceAnswer) uses only its
// seal: it writes each offer into the entry it is writing (appendPriced).
type signing struct {
	s       *offers.Signer
	basis   string
	exp     int64
	source  byte   // offers.SourceCode's letter
	buf     []byte // an offer's payload, in payload unless longer
	payload [256]byte
	at      []int
	end     []int
	text    []byte
}

// startSigning fills sg (in place: TinyGo copies a struct returned by
// value) to seal offers and points signed at now for the request basis
// describes, from an answer of source (dataSource; 'l' for points).
func (e *Edge) startSigning(sg *signing, basis string, now time.Time, source byte) {
	ttl := e.cfg.OfferTTL
	if ttl > RescuedOfferTTL && source != 'l' {
		ttl = RescuedOfferTTL
	}
	// now.Add(ttl).Unix(): the TTLs are whole seconds (loadConfig,
	// RescuedOfferTTL), and time.Time.Add stays out of the module.
	sg.s, sg.basis, sg.exp, sg.source, sg.buf = e.signer, basis, now.Unix()+int64(ttl/time.Second), source, sg.payload[:0]
}

func (sg *signing) list(s *jsonlite.Scanner, rates bool) error {
	if s.Peek() != jsonlite.Array {
		return nil
	}
	return s.Array(func(int) error { return sg.item(s, rates) })
}

// item reads one service or drop point and signs it (appendOffer,
// appendPoint), its member inserted before the entry's closing brace.
func (sg *signing) item(s *jsonlite.Scanner, rates bool) error {
	if s.Peek() != jsonlite.Object {
		return nil // [] for none: skipped
	}
	var carrier, code, price, cur string
	var dp bool
	err := s.Object(func(k string) error {
		var err error
		switch k {
		case "carrier_code":
			carrier, err = s.LooseString()
		case "service_code", "drop_point_key":
			if (k == "service_code") == rates {
				code, err = s.LooseString()
			}
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
	n := len(sg.text)
	if rates {
		sg.text = sg.appendOffer(sg.text, carrier, code, price, cur, dp)
	} else {
		sg.text = sg.appendPoint(sg.text, carrier, code)
	}
	if len(sg.text) > n {
		sg.at = append(sg.at, s.Offset()-1)
		sg.end = append(sg.end, len(sg.text))
	}
	return nil
}

// appendOffer appends a service's offer member (,"offer":"...") to its
// entry's text, written up to the closing brace; none for a service
// without its codes or a plain decimal price (it cannot be booked bound
// to one). An entry with codes has members: the comma is always due.
func (sg *signing) appendOffer(dst []byte, carrier, code, price, cur string, dp bool) []byte {
	if cur == "" {
		cur = "EUR" // as the normalizer reads a rate without one
	}
	if price = offers.Canonical(price); price == "" || carrier == "" || code == "" {
		return dst
	}
	sg.buf = offers.AppendOfferHead(sg.buf[:0], sg.exp, carrier, code, price, cur, dp, sg.source)
	return sg.appendSealed(dst, `,"`+FieldOffer+`":"`, offers.Prefix)
}

// appendPoint appends a drop point's point member (,"point":"..."), none
// for a point without carrier or key.
func (sg *signing) appendPoint(dst []byte, carrier, key string) []byte {
	if carrier == "" || key == "" {
		return dst
	}
	sg.buf = offers.AppendPointHead(sg.buf[:0], sg.exp, carrier, key)
	return sg.appendSealed(dst, `,"`+FieldPoint+`":"`, offers.PointPrefix)
}

// appendSealed appends a member (head: its comma, name and opening
// quote) whose value is the seal of sg.buf's payload head and the
// request's basis.
func (sg *signing) appendSealed(dst []byte, head, prefix string) []byte {
	sg.buf = append(sg.buf, sg.basis...)
	dst = append(dst, head...)
	dst = sg.s.AppendSeal(dst, prefix, sg.buf) // base64url and dots: nothing to escape
	return append(dst, '"')
}

// takeOffer removes a new-shipment request's offer and point fields
// (never forwarded) and returns them.
func takeOffer(req *form.Request) (offer, point string) {
	offer, point = req.Get(FieldOffer), req.Get(FieldPoint)
	req.Del(FieldOffer)
	req.Del(FieldPoint)
	return unitab.TrimSpace(offer), unitab.TrimSpace(point)
}

// checkOffer holds a normalized new-shipment request to its offer: the
// offer its scoped token is bound to (which the request must carry), or
// the one a master-token booking carries. nil: forward it.
func (e *Edge) checkOffer(scope *tokens.Claims, req *form.Request, offer, point string, r *Request) *Refusal {
	l := r.locale()
	bound := scope != nil && scope.OfferTag != ""
	switch {
	case scope != nil && !bound && !e.cfg.AllowUnbound:
		return refuse(403, "offer_unbound", say(l, msgScopeNoOffer))
	case offer == "" && (bound || point != ""):
		return fieldRefusal(400, CodeBadRequest, "offer_required", FieldOffer, i18n.Message(l, "This field is required."))
	case offer == "":
		return nil // a master-token booking, or an unbound grant the operator allows
	case bound && offers.Tag(offer) != scope.OfferTag:
		return refuse(403, "offer_other", say(l, msgScopeOtherRef))
	}
	if e.signer == nil {
		return misconfig([]ConfigError{{EnvTokenSigningKey, "secret is not set (needed to verify offers)"}})
	}
	p, err := offers.Open(e.cfg.SigningKeys, offers.Prefix, offer, r.Now)
	if x := openRefusal(l, err); x != nil {
		return x
	}
	// A fallback offer's service is the shop's backup price, no carrier's
	// (carrier_code "fallback"): the upstream cannot book it, so the page
	// is told to quote again (with the carrier API back, a live offer),
	// and the shop's server, which sees source "fallback" in the verified
	// facts, books its own service for such an order (issue 31). The
	// shopper reads offer_invalid's sentence ("not valid: choose a service
	// again": a row of its own cost the module 240 B gzip); the class is
	// the page's and the shop's to tell.
	if offers.Fallback(p) {
		return fallbackOffer(l)
	}
	// The booking encoded as the offer is: equal fields, equal bookings.
	var b []byte
	for i := range offerFields {
		f := &offerFields[i]
		if offers.Field(p, f[0]) != string(urlquery.AppendEscape(b[:0], req.Get(f[1]))) {
			return differs(l, f[2], f[1])
		}
	}
	if offers.Field(p, "pc") != string(offers.AppendParcels(b[:0], parcelsOf(req))) {
		return differs(l, "offer_parcels", "parcels")
	}
	key := req.Get("drop_point_key")
	if offers.Field(p, "dp") != "1" {
		if key != "" || point != "" {
			return differs(l, "offer_drop_point", "drop_point_key")
		}
		return nil
	}
	if key == "" || point == "" {
		return fieldRefusal(403, 1403, "offer_drop_point", "drop_point_key", i18n.Message(l, "This field is required."))
	}
	// The point the edge listed for the offer's carrier near its
	// destination, and the one the booking names.
	pp, err := offers.Open(e.cfg.SigningKeys, offers.PointPrefix, point, r.Now)
	if x := openRefusal(l, err); x != nil {
		return x
	}
	if offers.Field(pp, "c") != offers.Field(p, "c") || offers.Field(pp, "key") != string(urlquery.AppendEscape(b[:0], key)) ||
		offers.Field(pp, "cc") != offers.Field(p, "tc") || offers.Field(pp, "z") != offers.Field(p, "tz") {
		return differs(l, "offer_drop_point", "drop_point_key")
	}
	return nil
}

// offerFields are the booking's fields an offer names: its payload's
// name, the booking's field, the refusal's code. (A variable, not a
// literal in the loop: LLVM unrolled that into the module six times.)
var offerFields = [...][3]string{
	{"c", "carrier_code", "offer_service"}, {"s", "service_code", "offer_service"},
	{"fc", "from_country_code", "offer_route"}, {"fz", "from_zip_code", "offer_route"},
	{"tc", "to_country_code", "offer_route"}, {"tz", "to_zip_code", "offer_route"},
}

// openRefusal words offers.Open's refusal: expired (quote again) or not
// valid.
func openRefusal(l i18n.Locale, err error) *Refusal {
	switch offers.Reason(err) {
	case "":
		return nil
	case "expired":
		return refuse(403, "offer_expired", say(l, msgOfferExpired))
	}
	return refuse(403, "offer_invalid", say(l, msgOfferInvalid))
}

// fallbackOffer refuses a fallback offer where it would be booked or
// bound (a booking, POST /tokens, /demo/token): one code and sentence.
func fallbackOffer(l i18n.Locale) *Refusal {
	return refuse(403, "offer_fallback", say(l, msgOfferInvalid))
}

// differs is a 403 naming the booking's field that is not the offer's.
func differs(l i18n.Locale, code, field string) *Refusal {
	return fieldRefusal(403, 1403, code, field, say(l, msgOfferDiffers))
}

// unboundGrant refuses a new-shipment grant without an offer (POST
// /tokens), unless ALLOW_UNBOUND_BOOKING_GRANTS.
func (e *Edge) unboundGrant(g tokens.Grant) *Refusal {
	if g.Offer != "" || e.cfg.AllowUnbound {
		return nil
	}
	for _, op := range g.Operations {
		if offered(unitab.TrimSpace(op)) {
			return badTokenField(FieldOffer, "required with "+unitab.TrimSpace(op)+": the offer the shopper chose (a service's offer in a rates answer); "+
				EnvAllowUnbound+"=true lets a grant book anything, see worker/README.md")
		}
	}
	return nil
}

// demoOffer binds a demo grant to its offer, verified with the worker's
// keys (the token itself is signed with the demo key), in POST /tokens'
// words.
func (e *Edge) demoOffer(g *tokens.Grant, offer string, r *Request) *Refusal {
	if offer == "" {
		if e.cfg.AllowUnbound {
			return nil
		}
		// Without an offer the page books nothing: the order's reads only
		// (its label and tracking after a reload of the confirmation).
		ops := make([]string, 0, len(g.Operations))
		for _, op := range g.Operations {
			if !offered(op) {
				ops = append(ops, op)
			}
		}
		g.Operations = ops
		return nil
	}
	p, err := offers.Open(e.cfg.SigningKeys, offers.Prefix, offer, r.Now)
	if err != nil {
		return badTokenField(FieldOffer, tokens.OfferProblem(err))
	}
	if offers.Fallback(p) {
		return fallbackOffer(r.locale())
	}
	g.OfferTag = offers.Tag(offer)
	return nil
}

// signs is what op's ok answers carry signed in each entry: FieldOffer,
// FieldPoint or "" (catalog.Policy.Signs).
func signs(op string) string {
	if p := catalog.PolicyOf(op); p != nil {
		return p.Signs
	}
	return ""
}

// offered reports whether op's bookings are held to a signed offer
// (catalog.Policy.Offered).
func offered(op string) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.Offered
}
