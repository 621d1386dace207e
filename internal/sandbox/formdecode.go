package sandbox

import (
	"github.com/parcelgate/parcelgate/internal/form"
)

// formLimits are the core decoder's default limits with the sandbox's own
// body size.
var formLimits = form.Limits{MaxBytes: MaxBodyBytes}

// decodeForm parses an application/x-www-form-urlencoded body or query
// string with the core's form decoder (parcels[<i>][<field>] included); a
// decoding error is a 400 naming the offending key.
func decodeForm(raw string) (*form.Request, error) {
	r, err := form.Decode([]byte(raw), formLimits)
	if err != nil {
		if fe, ok := err.(*form.Error); ok {
			return nil, rejected(400, fe.Field, "malformed form data: "+fe.Message)
		}
		return nil, rejected(400, "", "malformed form data: "+err.Error())
	}
	return r, nil
}
