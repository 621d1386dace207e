package catalog

// The edge's own parameters: fields a request may carry that the edge
// reads and removes before validation, so the upstream never sees them
// and they are no Param of the catalog (the spec's). Which operations
// take them is the policy table's: a RulesPrice row's order_value, an
// Offered row's offer and point. worker/core reads them by these names
// (FieldOrderValue, FieldOffer, FieldPoint; worker/edgeclient's tests
// hold them equal) and the Go client's generator (worker/edgeclient/gen)
// gives each a typed field of the operation's parameters.
const (
	// ParamOrderValue is the cart's value that the shop's pricing rules
	// read (internal/pricing).
	ParamOrderValue = "order_value"
	// ParamOffer is the signed offer a booking is held to (worker/offers).
	ParamOffer = "offer"
	// ParamPoint is the signed drop point a booking delivers to
	// (worker/offers).
	ParamPoint = "point"
)

// EdgeParam is one of the edge's own parameters of an operation.
type EdgeParam struct {
	// Name is the wire name (ParamOrderValue, ParamOffer, ParamPoint).
	Name string
	// Doc says what it is and what the edge requires of it, in English.
	Doc string
}

// EdgeParams returns the edge's own parameters of p's operation, as its
// columns make the edge read them (nil for none). For the generators:
// the edge core decides by the columns themselves, and the table is made
// here, at the call, so that nothing of it is static data of the core.
func (p *Policy) EdgeParams() []EdgeParam {
	var out []EdgeParam
	if p.Rules == RulesPrice {
		out = append(out, EdgeParam{ParamOrderValue, doc("The cart's value: a decimal with a point in the currency of the shop's " +
			`PRICING_RULES (EUR without them), 0 or more, with at most the currency's decimals ("59.90"; no sign, ` +
			"no exponent, no thousands separator); the rules' free_from reads it and the offer signs it, so the shop's server checks it against its cart (internal/pricing/README.md, worker/offers). " +
			"Absent: no order value, and no free_from applies. The edge refuses another value (400 naming it).")})
	}
	if p.Offered {
		out = append(out,
			EdgeParam{ParamOffer, doc("The signed offer the shopper chose: a service's offer in a get-shipments-rates " +
				"answer through the edge (worker/offers verifies it on the shop's server). The booking is held to it: " +
				"carrier, service, route and parcels must be the offer's (else a 403 naming the field); a token bound " +
				"to an offer books only with it; an expired one is 403 offer_expired (quote again). A booking with " +
				"the master token and no offer is held to none.")},
			EdgeParam{ParamPoint, doc("The signed drop point the shopper chose: the point of a drop point in a " +
				"get-drop-points answer through the edge (worker/offers). Required with an offer of a drop-point " +
				"service, with drop_point_key its key, of the offer's carrier near the offer's destination; " +
				"refused without an offer.")},
		)
	}
	return out
}
