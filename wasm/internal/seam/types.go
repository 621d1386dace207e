package seam

import "github.com/parcelgate/parcelgate/internal/form"

// Request is a form request: fields, then parcels (the loader's
// packRequest, wire.ReadRequest).
//
//seam:custom
type Request = form.Request

// VersionResult is version's answer.
type VersionResult struct {
	// The module's version.
	Version string `json:"version"`
}

// ValidateInput is validate's input.
type ValidateInput struct {
	// The operation's name ("new-shipment").
	Operation string `json:"operation"`
	// Also check the spec's cross-field rules.
	Rules bool `json:"rules"`
	// The shopper's date (YYYY-MM-DD) for date rules; "" for none.
	Today string `json:"today"`
	// The messages' language tag ("" for English).
	Locale string `json:"locale"`
	// Only this field's errors ("" for every field).
	Field string `json:"field"`
	// The request.
	Request Request `json:"request"`
}

// Validated is validate's answer.
type Validated struct {
	// The errors, as the edge reports them.
	Errors []FieldError `json:"errors"`
}

// FieldError is one error of a field.
type FieldError struct {
	// The field's name.
	Field string `json:"field"`
	// The error code (the edge's).
	Code int64 `json:"code"`
	// The message, in the locale's language.
	Message string `json:"message"`
}

// EncodeInput is encode's input.
type EncodeInput struct {
	// The operation's name: its catalog gives the normalization and the order.
	Operation string `json:"operation"`
	// The request.
	Request Request `json:"request"`
}

// EncodeFormInput is encodeForm's input.
type EncodeFormInput struct {
	// The request.
	Request Request `json:"request"`
}

// Encoded is the answer of encode and encodeForm.
type Encoded struct {
	// The application/x-www-form-urlencoded body.
	Body string `json:"body"`
}

// PostalInput is postal's input.
type PostalInput struct {
	// Uppercase ISO country code.
	Country string `json:"country"`
	// The code as typed.
	Input string `json:"input"`
	// The message's language tag ("" for English).
	Locale string `json:"locale"`
}

// PostalResult is postal's answer.
type PostalResult struct {
	// The code is valid for the country.
	Valid bool `json:"valid"`
	// The normalized code ("" when invalid).
	Normalized string `json:"normalized"`
	// Spanish province number (0 otherwise).
	Province int64 `json:"province"`
	// Spanish shipping zone ("peninsular", "balearic", "canary", "ceuta", "melilla"; "" otherwise).
	Zone string `json:"zone"`
	// Why the code is invalid, in the locale's language ("" when valid).
	Message string `json:"message"`
}

// LocateInput is locate's input.
type LocateInput struct {
	// Uppercase ISO country code.
	Country string `json:"country"`
	// The postal code.
	Zip string `json:"zip"`
}

// Located is locate's answer.
type Located struct {
	// null when the location is unknown.
	Location *Location `json:"location"`
}

// Location is an approximate location.
type Location struct {
	// The city or area.
	City string `json:"city"`
	// Degrees.
	Lat float64 `json:"lat"`
	// Degrees.
	Lon float64 `json:"lon"`
	// How close ("postcode", "district", "province", ...).
	Precision string `json:"precision"`
}

// DescribeInput is describe's input.
type DescribeInput struct {
	// The tracking code ("11").
	Code string `json:"code"`
}

// Described is describe's answer.
type Described struct {
	// null for a code outside the Events table (01-30).
	Tracking *TrackingCode `json:"tracking"`
}

// TrackingCode is an Events-table entry.
type TrackingCode struct {
	// The code, two digits.
	Code string `json:"code"`
	// The carrier's meaning.
	Meaning string `json:"meaning"`
	// A shopper's label.
	Label string `json:"label"`
	// The category.
	Category string `json:"category"`
	// No later event follows.
	Final bool `json:"final"`
}

// CatalogResult is catalog's answer.
type CatalogResult struct {
	// The catalog's JSON.
	JSON string `json:"json"`
}

// DecodeInput is decode's input.
type DecodeInput struct {
	// The operation's name ("get-shipments-rates"): its data's shape.
	Operation string `json:"operation"`
	// The response's HTTP status.
	Status int64 `json:"status"`
	// The response's body as received.
	Body string `json:"body"`
}

// Decoded is decode's answer.
type Decoded struct {
	// {"ok":true,"data":...} or {"ok":false,"error":{...}} (core.d.ts's DecodeResult).
	JSON string `json:"json"`
}
