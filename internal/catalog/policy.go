package catalog

// The policy table: what the edge does with each operation beyond its wire
// format. It is the one place these facts live; the token rules
// (worker/tokens), the edge (its configuration defaults, scoped-token
// checks, cache, bookings, watcher) and the JavaScript package (generated
// into js/src/operations.js) read it. A test fails when an operation has
// no row, or a row no operation; another (worker/policy_test.go) when a
// file that decides by it names an operation in a string literal.

// Binding is what a scoped token must be bound to before it may grant an
// operation.
type Binding uint8

// Bindings.
const (
	// BindNone: grantable without a reference.
	BindNone Binding = iota
	// BindShipment: with a dlvr_ref, or the shipping_client_ref the
	// shipment was booked with (the edge resolves it from its booking
	// record).
	BindShipment
	// BindBooking: with the references of the one booking it may make
	// (new-shipment: shipping_client_ref; new-collection: dlvr_ref and
	// collection_client_ref), or a page holding it could book any order.
	BindBooking
)

var bindingNames = [...]string{"none", "shipment", "booking"}

// String returns the binding's name as exported to JavaScript.
func (b Binding) String() string { return bindingNames[b] }

// Bind is one reference a booking token must carry: the one booking it
// may make.
type Bind struct {
	// Grant is the grant's field (a scoped token's claim).
	Grant string
	// Request is the request field that must equal it.
	Request string
	// Why says what it names, in English (the token rules' field error).
	Why string
}

// Policy is one operation's row.
type Policy struct {
	Name string
	// Public: callable without a token unless PUBLIC_OPERATIONS says
	// otherwise (the default list).
	Public bool
	// Publishable: PUBLIC_OPERATIONS may name it. Bookings and the
	// listing of every shipment are never public.
	Publishable bool
	// Grantable: a scoped token may grant it (get-shipments lists every
	// customer's shipment and never is).
	Grantable bool
	// Binding is what a token must be bound to for a grant of it.
	Binding Binding
	// TokenRef is the request field a bound token's reference is checked
	// against ("" when none): the shipment the call names.
	TokenRef string
	// ClientRef is the client reference that makes a booking exactly-once
	// ("" for the operations that book nothing).
	ClientRef string
	// Binds are the references a token granting this booking must carry
	// (BindBooking rows), in the order they are checked; the unused end
	// has an empty Grant. An array, not a slice: the table stays static
	// data in the edge core (slices made TinyGo build it at start-up,
	// 2.3 KB of code).
	Binds [2]Bind
	// NotWith is a request field a bound token may not name the shipment
	// by (a carrier's reference): it reads by TokenRef.
	NotWith string
	// ByClientRef is a request field that names the shipment by the
	// shipping_client_ref it was booked with, an alternative to TokenRef
	// for a token bound to that reference ("" when none).
	ByClientRef string
	// Lookup is the operation that finds a booking whose answer was lost,
	// filtered by LookupBy = the booking's client reference ("": a lost
	// booking cannot be looked up; the client is told to check).
	Lookup, LookupBy string
	// CacheTTLSeconds is how long an ok answer is reused by default (0:
	// never cached): answers that change only when the merchant edits the
	// account or a carrier its network. CACHE_TTL overrides it.
	CacheTTLSeconds int
	// Demo: a demo token (the sandbox's /demo/token) grants it: book the
	// order, then read what was booked.
	Demo bool
	// Watched: an ok answer puts the booked shipment on the tracking
	// watchlist (WEBHOOK_URL).
	Watched bool
	// Rules: what the shop's PRICING_RULES (internal/pricing) do to its
	// ok answer (issue 31): RulesPrice (its services priced, hidden and
	// named; its order_value is the edge's own parameter, taken off the
	// request before validation and never forwarded), RulesName (its
	// services hidden and named, never priced: arrival estimates list the
	// rates' services, so a service the shop hides is listed nowhere), or
	// none. (One byte column, not two bools: each column of the table is
	// code in the edge module's start.)
	Rules Rules
	// Signs: what the edge signs in each entry of its ok answer (issue 30,
	// worker/offers): "offer" on every service, "point" on every drop
	// point; "" for nothing.
	Signs string
	// Offered: the booking is held to a signed offer (its `offer` field,
	// and a grant that books it binds one).
	Offered bool
}

// Rules is what a shop's pricing rules do to an operation's answer
// (Policy.Rules).
type Rules uint8

// What pricing rules do to an answer.
const (
	RulesNone  Rules = iota
	RulesName        // hide and name its services
	RulesPrice       // price, hide and name them; order_value is the edge's
)

// Policies has one row per operation, in the catalog's order. Loop over
// it by index (for i := 0; i < len(Policies); i++) outside this package:
// TinyGo's range over another package's array copies it whole first,
// code in the edge core that grows with every column.
var Policies = [...]Policy{
	{Name: "get-client-carriers", Public: true, Publishable: true, Grantable: true, CacheTTLSeconds: 3600},
	{Name: "get-client-services", Public: true, Publishable: true, Grantable: true, CacheTTLSeconds: 3600},
	{Name: "get-shipments-rates", Public: true, Publishable: true, Grantable: true, Rules: RulesPrice, Signs: "offer"},
	{Name: "get-shipment-time-arrival-estimation", Public: true, Publishable: true, Grantable: true, Rules: RulesName},
	{Name: "get-service-info", Public: true, Publishable: true, Grantable: true, CacheTTLSeconds: 3600},
	{Name: "get-drop-points", Public: true, Publishable: true, Grantable: true, CacheTTLSeconds: 900, Signs: "point"},
	{Name: "new-shipment", Grantable: true, Binding: BindBooking, TokenRef: "shipping_client_ref", ClientRef: "shipping_client_ref", Demo: true, Watched: true, Offered: true,
		Binds:  [2]Bind{{"shipping_client_ref", "shipping_client_ref", "the order's reference: the one shipment the token may book"}},
		Lookup: "get-shipments", LookupBy: "filter_shipping_client_ref"},
	{Name: "get-collection-cutoff-hour", Public: true, Publishable: true, Grantable: true},
	{Name: "new-collection", Grantable: true, Binding: BindBooking, TokenRef: "shipping_dlvr_ref", ClientRef: "collection_client_ref",
		Binds: [2]Bind{{"dlvr_ref", "shipping_dlvr_ref", "the shipment it collects"}, {"collection_client_ref", "collection_client_ref", "the one pickup the token may book"}}},
	{Name: "get-shipment-label", Publishable: true, Grantable: true, Binding: BindShipment, TokenRef: "dlvr_ref", Demo: true, NotWith: "shipping_carrier_ref"},
	{Name: "get-shipment", Publishable: true, Grantable: true, Binding: BindShipment, TokenRef: "dlvr_ref", Demo: true},
	{Name: "get-shipments"},
	{Name: "get-shipment-tracking", Publishable: true, Grantable: true, Binding: BindShipment, TokenRef: "dlvr_ref", Demo: true, NotWith: "carrier_ref", ByClientRef: "client_ref"},
}

// PolicyOf returns the row of an operation, or nil for a name the catalog
// does not know.
func PolicyOf(name string) *Policy {
	for i := range Policies {
		if Policies[i].Name == name {
			return &Policies[i]
		}
	}
	return nil
}

// BookedBy returns the row of the booking made exactly-once by the client
// reference field (its ClientRef), or nil.
//
// Not inlined: inlined with a constant argument, LLVM unrolls its loop
// over the table in each caller (1.5 KB gzip of the edge core in all).
//
//go:noinline
func BookedBy(clientRef string) *Policy {
	for i := range Policies {
		if Policies[i].ClientRef == clientRef {
			return &Policies[i]
		}
	}
	return nil
}

// BindsGrant reports whether a token granting op must carry the grant
// field.
//
// Not inlined: inlined with a constant argument, LLVM unrolls its loop
// over the table in each caller (1.5 KB gzip of the edge core in all).
//
//go:noinline
func (p *Policy) BindsGrant(field string) bool {
	for i := range p.Binds { // by index: a range value copied the array
		if p.Binds[i].Grant == field && field != "" {
			return true
		}
	}
	return false
}
