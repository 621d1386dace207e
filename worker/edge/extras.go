package edge

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Bounds of the carrier-specific extra fields a booking may carry (fields
// the catalog does not list, relayed as they are).
const (
	MaxExtraFields     = 20
	MaxExtraNameRunes  = 64
	MaxExtraValueRunes = 256
)

// extraErrors checks a booking's extra fields: bounded in number and
// length, names of letters, digits, '_' and '-', and never a catalog or
// parcel field spelled in another case (SHIPPING_DATE, To_Zip_Code),
// which an upstream that folds case could read as the real field,
// unvalidated.
func extraErrors(op *catalog.Operation, req *form.Request) []validate.FieldError {
	if !op.Extra {
		return nil
	}
	var errs []validate.FieldError
	bad := func(field, msg string) {
		errs = append(errs, validate.FieldError{Field: clip(field, MaxExtraNameRunes), Code: validate.CodeFormat, Message: msg})
	}
	n := 0
	for i := range req.Fields {
		f := &req.Fields[i]
		if op.Param(f.Name) != nil {
			continue
		}
		n++
		switch {
		case n > MaxExtraFields:
			bad(f.Name, "at most "+strconv.Itoa(MaxExtraFields)+" carrier-specific extra fields")
		case utf8.RuneCountInString(f.Name) > MaxExtraNameRunes || !plainName(f.Name):
			bad(f.Name, "an extra field's name is at most "+strconv.Itoa(MaxExtraNameRunes)+" letters, digits, '_' or '-'")
		case shadowsCatalog(op, f.Name):
			bad(f.Name, "differs from a field of "+op.Name+" only in case; use the field's exact name")
		case utf8.RuneCountInString(f.Value) > MaxExtraValueRunes:
			bad(f.Name, "an extra field's value is at most "+strconv.Itoa(MaxExtraValueRunes)+" characters")
		}
	}
	return errs
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func shadowsCatalog(op *catalog.Operation, name string) bool {
	if strings.HasPrefix(strings.ToLower(name), "parcels") {
		return true
	}
	for i := range op.Params {
		if strings.EqualFold(op.Params[i].Name, name) {
			return true
		}
	}
	for i := range op.ParcelParams {
		if strings.EqualFold(op.ParcelParams[i].Name, name) {
			return true
		}
	}
	return false
}
