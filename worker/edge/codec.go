package edge

import (
	"errors"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// decodeForm decodes a form body or query string with the core's decoder
// under the worker's limits; a decoding failure is reported like a field
// error (code 400, the offending key as the field).
func decodeForm(raw []byte, cfg *Config) (*form.Request, *validate.FieldError) {
	lim := form.DefaultLimits
	lim.MaxBytes = cfg.MaxBodyBytes
	lim.MaxParcels = catalog.MaxParcels
	r, err := form.Decode(raw, lim)
	if err != nil {
		fe := &validate.FieldError{Code: validate.CodeFormat, Message: err.Error()}
		var ferr *form.Error
		if errors.As(err, &ferr) {
			fe.Field, fe.Message = ferr.Field, ferr.Message
		}
		return nil, fe
	}
	return r, nil
}
