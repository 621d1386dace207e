package validate

// FieldError is one invalid field of a request: the wire name of the field
// (parcels as parcels[<i>][<field>]), the spec's error code for that field
// (400 where the spec has none) and a message a shop can show to a shopper.
type FieldError struct {
	Field   string
	Code    int
	Message string
}

// Error implements error as "<field>: <message>".
func (e FieldError) Error() string { return e.Field + ": " + e.Message }
