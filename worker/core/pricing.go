package core

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/pricing"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/worker/offers"
)

// The shop's shipping prices (issue 31): PRICING_RULES (internal/pricing)
// applied to get-shipments-rates answers at the edge.
//
// The page sends the cart's value as order_value with the rates request:
// an edge-only field, read and removed before validation, so the
// upstream never sees it and the cache key (made from the forwarded
// body) does not depend on it. Prepare gives the forward a pricing basis
// (the destination, the order value, the shopper's language); the
// normalize call applies the rules to the client's body, relayed or
// cached, raw or normalized, so the caches keep the carrier's answer and
// every request gets the prices of its own cart.
//
// Order in the normalize call: normalize, then price, then (issue 30's
// offers) sign, so an offer signs the shop's price. The offer signs the
// order value too (offerBasis, issue 31).

// Settings and the edge-only field.
const (
	EnvPricingRules     = "PRICING_RULES"
	EnvShowCarrierPrice = "PRICING_SHOW_CARRIER_PRICE"
	FieldOrderValue     = "order_value"
)

// loadPricing reads PRICING_RULES and PRICING_SHOW_CARRIER_PRICE.
func loadPricing(getenv func(string) string, boolean func(string, bool) bool, bad func(v, p string)) (*pricing.Table, bool) {
	t, err := pricing.Parse(getenv(EnvPricingRules))
	if err != nil {
		bad(EnvPricingRules, err.Error()+" (see worker/README.md, Shipping prices)")
		t = nil
	}
	return t, boolean(EnvShowCarrierPrice, false)
}

// orderPrecision is the decimals an order value may have: the table's
// currency's (2 without a table).
func (e *Edge) orderPrecision() int {
	if t := e.cfg.Pricing; t != nil {
		return t.Precision
	}
	return 2
}

// takeOrderValue removes a rates request's order_value and checks it: a
// non-negative decimal with at most the currency's decimals. It returns
// the value in minor units as text, and as the decimal an offer signs
// (offers.Canonical of the currency's spelling: "79.9"); "" when not
// given.
func (e *Edge) takeOrderValue(req *form.Request, r *Request) (string, string, *Refusal) {
	v := unitab.TrimSpace(req.Get(FieldOrderValue))
	req.Del(FieldOrderValue)
	if v == "" {
		return "", "", nil
	}
	prec := e.orderPrecision()
	n, ok := pricing.ParseExact(v, prec)
	if !ok {
		eg := "59.90"
		if prec == 0 {
			eg = "5990"
		}
		return "", "", fieldRefusal(400, 400, "invalid_request", FieldOrderValue,
			pricingSay(r.locale(), string(pricing.AppendFormat(nil, int64(prec), 0)), eg))
	}
	return pricing.Format(n, 0), offers.Canonical(v), nil // v is digits[.digits]: ParseExact took it
}

// pricingBasis is what the rates answer's prices depend on besides the
// answer: "tc=<country>&ov=<minor units or empty>&l=<language index>".
// "" when there is no table (nothing to apply).
func (e *Edge) pricingBasis(op, country, orderValue string, l i18n.Locale) string {
	if e.cfg.Pricing == nil || !renamed(op) {
		return ""
	}
	return "tc=" + country + "&ov=" + orderValue + "&l=" + string(byte('0'+l))
}

// pricingValue reads one field of a basis ("k=v&k=v", values unescaped:
// country codes and digits only).
func pricingValue(basis, name string) string {
	for basis != "" {
		var part string
		part, basis, _ = substr.Cut(basis, "&")
		if k, v, _ := substr.Cut(part, "="); k == name {
			return v
		}
	}
	return ""
}

// rateEntry is one service of a rates answer as the rules read it.
type rateEntry struct {
	start, end int // the object's bytes
	empty      bool
	priceAt    [2]int // the price value's bytes ({0,0}: none)
	priceText  string // the price as the carrier sent it (decoded)
	nameAt     [2]int
	svc        pricing.Service
	res        pricing.Result
	outAt      [2]int // the entry as the shop shows it, in the list's new text
	rank       int64  // the shop's price for best_price_service; -1: unranked
}

// PriceAnswer returns a rates answer's body with the shop's prices: the
// rules applied to every service, hidden ones removed, best_price_service
// the shop's cheapest. normalized says the body is the core's normalized
// one (an empty best_price_service is then null, else [] as the
// upstream sends it). The body is returned as is when no rule applies.
//
// The same for get-shipment-time-arrival-estimation (issue 31): its
// services are hidden and named as the rates' are (so the page never
// lists a service the shop does not offer), matched without a kind (its
// entries carry no is_drop_point: a rule with a kind does not match
// them), and bestArrivalTime is the fastest service left.
//
// A rates answer from the fallback table (data.source fallback: the
// shop's own backup prices, worker/core/RATES.md) gets the rules' hide,
// names and free-from-order-value, not their markup, rounding or bounds
// again (pricing.Service.Backup).
func (e *Edge) PriceAnswer(op string, body []byte, basis string, normalized bool) []byte {
	out, _ := e.priceAnswer(op, body, basis, normalized, "", time.Time{})
	return out
}

// PriceAndSign is the normalize call's last work on an answer: the
// shop's prices (PriceAnswer), then offers or points (SignAnswer; into
// body itself when normalized, the call's own buffer: see signAnswer).
// The same bytes as the two in turn, with one scan of a rates answer the
// rules change: the pricing pass signs each service as it writes it
// (issue 31's CPU with rules and offers was two scans of the answer, the
// second of the priced copy).
func (e *Edge) PriceAndSign(op string, body []byte, pricingBasis, signBasis string, now time.Time, normalized bool) []byte {
	body, signed := e.priceAnswer(op, body, pricingBasis, normalized, signBasis, now)
	if signed {
		return body
	}
	return e.signAnswer(op, body, signBasis, now, normalized)
}

// priceAnswer is PriceAnswer (normalized: the body is the normalizer's),
// signing the services' offers (signBasis, now: SignAnswer's) as it
// writes the priced answer; signed false when it did not (nothing to
// sign, or it returned body as it came: then SignAnswer signs that). An
// answer whose data names services or best_price_service twice is
// priced only: SignAnswer signs each copy, this pass would sign one.
func (e *Edge) priceAnswer(op string, body []byte, basis string, normalized bool, signBasis string, now time.Time) ([]byte, bool) {
	t := e.cfg.Pricing
	if t == nil || basis == "" || !renamed(op) {
		return body, false
	}
	var order pricing.Order
	if ov := pricingValue(basis, "ov"); ov != "" {
		order.Value, order.Given = pricing.ParseExact(ov, 0)
	}
	lang := 0
	if l := pricingValue(basis, "l"); len(l) == 1 {
		lang = int(l[0] - '0')
	}
	country := pricingValue(basis, "tc")
	arrival := !priced(op) // arrival estimates: named, not priced
	bestKey := "best_price_service"
	if arrival {
		bestKey = "bestArrivalTime"
	}
	source := byte('l') // the answer's data.source (dataSource): offers sign it
	if !arrival {
		source = dataSource(body)
	}
	backup := source == 'f'

	src := view(body) // read only here; every result below is a copy
	s := jsonlite.NewScannerString(src)
	list := make([]rateEntry, 0, 8) // a checkout's quote: a handful of services, one allocation
	listAt, bestAt := [2]int{-1, -1}, [2]int{-1, -1}
	var best *rateEntry
	// A second services list, or bestKey twice: SignAnswer signs what
	// this pass leaves as it came (priceAnswer does not sign then).
	twice := false
	entry := func(en *rateEntry) error { // fills en in place: no copies of the entry
		*en = rateEntry{start: s.Offset(), empty: true, rank: -1}
		en.svc.Country = country
		en.svc.KindUnknown = arrival
		err := s.Object(func(k string) error {
			en.empty = false
			var err error
			switch k {
			case "carrier_code":
				en.svc.Carrier, err = s.LooseString()
			case "service_code":
				en.svc.Service, err = s.LooseString()
			case "is_drop_point":
				en.svc.DropPoint, err = s.LooseBool()
				en.svc.KindUnknown = false
			case "currency":
				en.svc.Currency, err = s.LooseString()
			case "price":
				en.priceAt[0] = s.Offset()
				en.priceText, err = s.LooseString()
				en.priceAt[1] = s.Offset()
			case "transit_hours":
				if arrival {
					var h string
					h, err = s.LooseString()
					if n, ok := pricing.ParseRounded(unitab.TrimSpace(h), 0); ok {
						en.rank = n
					}
				}
			case "service_name":
				en.nameAt[0] = s.Offset()
				err = s.Skip()
				en.nameAt[1] = s.Offset()
			}
			return err
		})
		en.end = s.Offset()
		en.svc.Price = unitab.TrimSpace(en.priceText)
		if arrival {
			en.svc.Price = "" // an estimate has no price to apply rules to
		}
		return err
	}
	ok := dataObject(s, func(k string) error {
		switch k {
		case "services":
			if s.Peek() != jsonlite.Array {
				return nil
			}
			twice = twice || listAt[0] >= 0
			listAt[0] = s.Offset()
			err := s.Array(func(int) error {
				if s.Peek() != jsonlite.Object {
					return errShape
				}
				list = append(list, rateEntry{})
				return entry(&list[len(list)-1])
			})
			listAt[1] = s.Offset()
			return err
		case bestKey:
			twice = twice || bestAt[0] >= 0
			bestAt[0] = s.Offset()
			if s.Peek() == jsonlite.Object {
				best = new(rateEntry)
				err := entry(best)
				bestAt[1] = s.Offset()
				return err
			}
			err := s.Skip()
			bestAt[1] = s.Offset()
			return err
		}
		return nil
	})
	if !ok {
		return body, false // not an ok rates envelope the rules can read: as received
	}
	matched := false
	apply := func(en *rateEntry) {
		en.svc.Backup = backup
		en.res = t.Apply(&en.svc, order, lang)
		matched = matched || en.res.Matched
		switch {
		case arrival: // ranked by transit_hours as read
		case en.res.Priced:
			en.rank = en.res.Price
		case en.svc.Currency == "" || en.svc.Currency == t.Currency:
			if n, ok := pricing.ParseRounded(en.svc.Price, t.Precision); ok {
				en.rank = n
			}
		}
	}
	for i := range list {
		apply(&list[i])
	}
	if best != nil {
		apply(best)
	}
	if !matched {
		return body, false
	}
	// Offers signed here, into each service as it is written: only rates
	// (arrival estimates carry none) and only an answer this pass reads
	// as SignAnswer would (not twice).
	var sg *signing
	if signBasis != "" && e.signer != nil && signs(op) == FieldOffer && !twice {
		sg = new(signing)
		e.startSigning(sg, signBasis, now, source)
	}
	type splice struct {
		at   [2]int
		text []byte
	}
	var two [2]splice // at most the list and best: no allocation for them
	cuts := two[:0]
	var newBest []byte
	if listAt[0] >= 0 {
		// The shown entries written once into the list's text (room for
		// their names and prices, and their offers: some 200 bytes each
		// for a parcel or two); the cheapest is reused from it, offer and
		// all.
		room := 64
		if sg != nil {
			room = 256
		}
		b := make([]byte, 0, listAt[1]-listAt[0]+room*len(list))
		b = append(b, '[')
		var cheapest *rateEntry
		for i := range list {
			en := &list[i]
			if en.res.Hidden {
				continue
			}
			if len(b) > 1 {
				b = append(b, ',')
			}
			en.outAt[0] = len(b)
			b = e.appendPriced(b, src, en, t.Precision, backup, sg)
			en.outAt[1] = len(b)
			if en.rank >= 0 && (cheapest == nil || en.rank < cheapest.rank) {
				cheapest = en
			}
		}
		b = append(b, ']')
		cuts = append(cuts, splice{listAt, b})
		if cheapest != nil {
			newBest = b[cheapest.outAt[0]:cheapest.outAt[1]:cheapest.outAt[1]]
		}
	} else if best != nil && !best.res.Hidden {
		newBest = e.appendPriced(nil, src, best, t.Precision, backup, sg)
	}
	if bestAt[0] >= 0 {
		if newBest == nil {
			newBest = []byte("[]")
			if normalized {
				newBest = []byte("null")
			}
		}
		cuts = append(cuts, splice{bestAt, newBest})
	}
	if len(cuts) == 2 && cuts[1].at[0] < cuts[0].at[0] {
		cuts[0], cuts[1] = cuts[1], cuts[0]
	}
	n := len(body)
	for _, c := range cuts {
		n += len(c.text) - (c.at[1] - c.at[0])
	}
	out := make([]byte, 0, n)
	last := 0
	for _, c := range cuts {
		out = append(out, src[last:c.at[0]]...)
		out = append(out, c.text...)
		last = c.at[1]
	}
	return append(out, src[last:]...), sg != nil
}

// errShape stops reading a services list that is not a list of objects.
var errShape = &jsonlite.TypeError{Want: "object", Got: "another value"}

// dataObject calls fn for each member of an ok envelope's data object;
// false when the body is not one.
func dataObject(s *jsonlite.Scanner, fn func(k string) error) bool {
	found := false
	err := s.Object(func(k string) error {
		if k != "data" {
			return nil
		}
		if s.Peek() != jsonlite.Object {
			return errShape
		}
		found = true
		return s.Object(fn)
	})
	return err == nil && found
}

// appendPriced appends one service as the shop shows it: its price the
// shop's (a string when the carrier's was one), its name the shop's, the
// carrier's price as carrier_price only when the operator allows it.
// Written straight into the caller's buffer: no copy of the entry of its
// own (a rates answer's cost with rules: issue 31's 1.1x).
//
// backup: the shop's own fallback price, which no carrier charged: no
// carrier_price beside it.
//
// sg (when priceAnswer signs): the service's offer last, where
// SignAnswer would insert it into the priced answer (before the closing
// brace), of the fields as the entry's text now says them: the shop's
// price where it priced one, as written here.
func (e *Edge) appendPriced(dst []byte, src string, en *rateEntry, prec int, backup bool, sg *signing) []byte {
	price := en.priceText // as the carrier sent it (and as copied)
	// At most two edits of the entry's text, in the text's order: the
	// price's value (0) and the name's (1).
	at := [2][2]int{en.priceAt, en.nameAt}
	do := [2]bool{en.res.Priced && en.priceAt[1] > en.priceAt[0], en.res.Name != "" && en.nameAt[1] > en.nameAt[0]}
	order := [2]int{0, 1}
	if do[0] && do[1] && en.nameAt[0] < en.priceAt[0] {
		order = [2]int{1, 0}
	}
	last := en.start
	for _, k := range order {
		if !do[k] {
			continue
		}
		dst = append(dst, src[last:at[k][0]]...)
		if k == 0 {
			quoted := src[en.priceAt[0]] == '"'
			if quoted {
				dst = append(dst, '"')
			}
			p := len(dst)
			dst = pricing.AppendFormat(dst, en.res.Price, prec)
			price = view(dst[p:]) // bytes written, which later appends leave as they are
			if quoted {
				dst = append(dst, '"')
			}
		} else {
			dst = jsonlite.AppendString(dst, en.res.Name)
		}
		last = at[k][1]
	}
	dst = append(dst, src[last:en.end-1]...) // up to the closing brace
	empty := en.empty
	if en.res.Name != "" && en.nameAt[1] == 0 {
		dst = appendMember(dst, empty, "service_name")
		dst = jsonlite.AppendString(dst, en.res.Name)
		empty = false
	}
	if en.res.Priced && e.cfg.ShowCarrierPrice && !backup && en.priceAt[1] > en.priceAt[0] {
		dst = appendMember(dst, empty, "carrier_price")
		dst = append(dst, src[en.priceAt[0]:en.priceAt[1]]...)
	}
	if sg != nil {
		dst = sg.appendOffer(dst, en.svc.Carrier, en.svc.Service, price, en.svc.Currency, en.svc.DropPoint)
	}
	return append(dst, '}')
}

// appendMember appends a member's name and colon to an object's text,
// after a comma unless the object is empty.
func appendMember(dst []byte, empty bool, name string) []byte {
	if !empty {
		dst = append(dst, ',')
	}
	dst = jsonlite.AppendString(dst, name)
	return append(dst, ':')
}

// pricingSay is the refusal of a bad order_value, shown to the shopper's
// page (a row of messages, so say's placeholders rather than strings.Replace).
func pricingSay(l i18n.Locale, decimals, example string) string {
	return say(l, msgOrderValue, decimals, example)
}

// renamed: the rules hide and name the services of op's answers
// (catalog.Policies' Rules): the priced ones (rates), and arrival
// estimates, named but not priced (they take no order_value).
func renamed(op string) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.Rules != catalog.RulesNone
}

// priced: the shop's rules price op's answers (catalog.Policies' Rules).
func priced(op string) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.Rules == catalog.RulesPrice
}
