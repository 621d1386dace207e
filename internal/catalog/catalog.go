// Package catalog is the single source of truth for the thirteen operations
// of the shipping service: their names, methods, parameters (kind, maximum
// length, requiredness, the spec's error code) and the conditional rules
// between parameters. Everything else (validation, the form codec, the JSON
// and JSON Schema exports, the JavaScript package and its TypeScript types,
// the worker's routing and the sandbox) reads this data.
//
// The tables are static composite literals: nothing is computed at start-up.
//
// Choices where the spec is silent or contradicts itself (see also the
// README's "Spec decisions"):
//   - new-shipment's text says "parcel_weight is not required without the
//     rules feature", while convention 7 and get-shipments-rates say it is
//     optional only WITH the rules feature. We follow the general convention:
//     parcel_weight is required unless the rules feature is enabled.
//   - Read operations accept GET with a query string as well as POST, as the
//     real upstream does for the public PHP client; booking operations
//     (new-shipment, new-collection) accept POST only.
//   - get-shipments-rates and get-shipment-time-arrival-estimation: the spec
//     does not say whether the route parameters are required. A rate or a
//     transit time cannot be computed without a route, so they are required.
//   - new-collection: from_city appears in the example but is not in the
//     required list; it is optional here (we never reject what the upstream
//     accepts), and a careful shop sends it.
//   - Lengths the spec does not give (references, codes, keys) are capped at
//     sane maxima (MaxRefRunes, MaxCodeRunes) so absurd input is refused at
//     the edge.
//   - A request carries at most MaxParcels parcels (the spec gives no limit).
package catalog

// Kind is the semantic kind of a parameter value; validation, the JSON
// Schema export and the TypeScript types dispatch on it.
type Kind uint8

// Parameter kinds.
const (
	Text        Kind = iota // free text of at most MaxLen characters
	Code                    // identifier: ASCII letters, digits, '-' and '_'
	Ref                     // a reference issued by the service, a carrier or the client
	Country                 // ISO 3166-1 alpha-2 country code
	Zip                     // postal code; its country is in the parameter named by Param.Country
	Phone                   // telephone number
	Email                   // e-mail address
	Date                    // calendar date YYYY-MM-DD
	Hour                    // time of day HH:MM
	Decimal                 // positive decimal number with a point as separator
	Count                   // whole number >= 0
	Positive                // whole number >= 1
	ServiceType             // custom without the rules feature; 24, 48 or 72 with it
	Flag                    // 0 or 1
)

var kindNames = [...]string{"text", "code", "ref", "country", "zip", "phone", "email", "date", "hour", "decimal", "count", "positive", "service_type", "flag"}

// String returns the kind's name as used in the JSON export.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// JSONType returns the JSON Schema type of a value of this kind.
func (k Kind) JSONType() string {
	switch k {
	case Decimal:
		return "number"
	case Count, Positive, Flag:
		return "integer"
	}
	return "string"
}

// Need says when a parameter must be present.
type Need uint8

// Requiredness of a parameter.
const (
	Optional Need = iota
	Required
	// RequiredUnlessRules: required when the rules feature is off; when it
	// is on the parameter is optional (and, for carrier_code and
	// service_code, ignored by the service).
	RequiredUnlessRules
)

var needNames = [...]string{"optional", "required", "required_unless_rules"}

// String returns the need's name as used in the JSON export.
func (n Need) String() string { return needNames[n] }

// IsRequired reports whether the parameter is required for a client with
// or without the rules feature.
func (n Need) IsRequired(rules bool) bool {
	return n == Required || (n == RequiredUnlessRules && !rules)
}

// Param describes one parameter of an operation.
type Param struct {
	Name    string
	Kind    Kind
	Need    Need
	MaxLen  int    // maximum length in characters (runes); 0 = no limit of its own
	Code    int    // the spec's error code for this field; 400 when the spec has none
	Country string // Zip only: the parameter holding the country code
	Default int    // Positive only: the value the service assumes when absent
	Max     int    // Count/Positive only: the maximum value; 0 = none
	Doc     string
}

// RuleKind is the kind of a conditional rule between parameters.
type RuleKind uint8

// Conditional rules.
const (
	// OneOf: at least one of Fields must be present.
	OneOf RuleKind = iota
	// RequiredWith: Fields[0] is required when Fields[1] is present.
	RequiredWith
	// RequiredUnless: Fields[0] is required unless Fields[1] is present.
	RequiredUnless
	// Together: all of Fields are present or none is.
	Together
	// Before: Fields[0] comes strictly before Fields[1] (hours).
	Before
	// NotAfter: Fields[0] is not after Fields[1] (dates, hours).
	NotAfter
)

var ruleNames = [...]string{"one_of", "required_with", "required_unless", "together", "before", "not_after"}

// String returns the rule kind's name as used in the JSON export.
func (k RuleKind) String() string { return ruleNames[k] }

// Rule is a conditional rule between parameters of one operation. A
// violated rule is reported on Fields[0] (OneOf: on every field listed)
// with Code.
type Rule struct {
	Kind   RuleKind
	Fields []string
	Code   int
	Doc    string
}

// Operation is one endpoint of the service.
type Operation struct {
	Name string
	// Read operations accept GET with a query string as well as POST.
	Read bool
	// Books is true for the operations that create something upstream
	// (new-shipment, new-collection): they are never retried blindly.
	Books bool
	// Extra is true when carrier-specific extra fields (described by
	// get-service-info's schemas) may accompany the listed parameters.
	Extra bool
	// Parcels says whether the parcels list is taken (Optional = not taken
	// when ParcelParams is nil).
	Parcels      Need
	Params       []Param
	ParcelParams []Param
	Rules        []Rule
	Doc          string
}

// Methods returns the HTTP methods the operation accepts.
func (op *Operation) Methods() []string {
	if op.Read {
		return methodsRead
	}
	return methodsPost
}

var (
	methodsRead = []string{"GET", "POST"}
	methodsPost = []string{"POST"}
)

// Param returns the parameter with the given name, or nil.
func (op *Operation) Param(name string) *Param {
	for i := range op.Params {
		if op.Params[i].Name == name {
			return &op.Params[i]
		}
	}
	return nil
}

// ParcelParam returns the parcel parameter with the given name, or nil.
func (op *Operation) ParcelParam(name string) *Param {
	for i := range op.ParcelParams {
		if op.ParcelParams[i].Name == name {
			return &op.ParcelParams[i]
		}
	}
	return nil
}

// Index returns the position of a top-level parameter in the catalog's
// order, or len(op.Params) for a name the catalog does not list. It is the
// canonical order of encoded requests.
func (op *Operation) Index(name string) int {
	for i := range op.Params {
		if op.Params[i].Name == name {
			return i
		}
	}
	return len(op.Params)
}

// TakesParcels reports whether the operation takes a parcels list.
func (op *Operation) TakesParcels() bool { return op.ParcelParams != nil }

// Lookup returns the operation with the given name, or nil.
func Lookup(name string) *Operation {
	for i := range Operations {
		if Operations[i].Name == name {
			return &Operations[i]
		}
	}
	return nil
}

// Limits the spec does not give; see the package comment.
const (
	MaxParcels  = 50 // parcels in one request
	MaxRefRunes = 64 // references and keys
	// Carrier-specific extra fields of a booking (Operation.Extra):
	// how many, their names' and their values' lengths.
	MaxExtraFields     = 20
	MaxExtraNameRunes  = 64
	MaxExtraValueRunes = 256
	MaxCodeRunes       = 64 // carrier and service codes
	MaxItems           = 50 // get-shipments n_items maximum (spec)
)
