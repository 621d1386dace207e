// Package validate checks a request against the operation catalog the way
// the edge does before anything is forwarded: required fields (with the
// rules feature and the conditional rules), lengths in characters, country
// and postal codes, e-mail and phone plausibility, calendar dates, hours
// and hour windows, service types and parcel numbers. It returns every
// field error at once, each with the field's wire name, the spec's error
// code and a message a shop can show to a shopper.
//
// Validating a valid request does not allocate.
package validate

import (
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/country"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Options are the client facts validation depends on.
type Options struct {
	// Rules is true for a client with the carrier-selection rules feature.
	Rules bool
	// Today, as YYYY-MM-DD, makes booking dates (shipping_date,
	// collection_date) before it invalid. Empty: no such check.
	Today string
	// Locale is the language of the messages (i18n.English when zero);
	// field names and codes are the same in every language.
	Locale i18n.Locale
}

// CodeFormat is the spec's generic code for a value in an incorrect format.
const CodeFormat = 400

// Request validates r for op and appends one FieldError per invalid field
// to dst, in catalog order (top-level fields, parcels, rules, then unknown
// fields). Values are judged as Normalize would leave them (trimmed, codes
// uppercased, postal codes normalized); r is not modified.
func Request(op *catalog.Operation, r *form.Request, opt Options, dst []FieldError) []FieldError {
	for i := range op.Params {
		p := &op.Params[i]
		dst = checkParam(op, r, p, unitab.TrimSpace(r.Get(p.Name)), p.Name, opt, dst)
	}
	dst = checkParcels(op, r, opt, dst)
	dst = checkRules(op, r, opt.Locale, dst)
	return checkUnknown(op, r, opt.Locale, dst)
}

// Field validates the named field of r in the context of the others (for
// feedback while the shopper types): it returns the errors Request reports
// for that field, including those of the rules it takes part in.
func Field(op *catalog.Operation, r *form.Request, name string, opt Options) []FieldError {
	var scratch [16]FieldError
	all := Request(op, r, opt, scratch[:0])
	var out []FieldError
	for _, e := range all {
		if e.Field == name {
			out = append(out, e)
		}
	}
	return out
}

// Normalize rewrites r's values into the form that is forwarded upstream:
// surrounding spaces trimmed, country codes uppercased, postal codes in the
// country's canonical form, hours as HH:MM. Values that are invalid are
// only trimmed.
func Normalize(op *catalog.Operation, r *form.Request) {
	for i := range r.Fields {
		f := &r.Fields[i]
		f.Value = unitab.TrimSpace(f.Value)
		p := op.Param(f.Name)
		if p == nil {
			continue
		}
		switch p.Kind {
		case catalog.Country:
			f.Value = country.Normalize(f.Value)
		case catalog.Hour:
			if _, ok := parseHour(f.Value); ok && len(f.Value) == 4 {
				f.Value = "0" + f.Value // H:MM -> HH:MM
			}
		case catalog.Phone:
			if checkPhone(f.Value, p.MaxLen) == "" {
				f.Value = NormalizePhone(f.Value)
			}
		}
	}
	// Postal codes after every country code is normalized.
	for i := range r.Fields {
		f := &r.Fields[i]
		p := op.Param(f.Name)
		if p == nil || p.Kind != catalog.Zip {
			continue
		}
		if res, msg := postal.Check(country.Normalize(r.Get(p.Country)), f.Value); msg == "" {
			f.Value = res.Normalized
		}
	}
	for i := range r.Parcels {
		pc := &r.Parcels[i]
		for j := range form.ParcelFieldNames { // by index: ranging over another package's array copies it under TinyGo
			v, _ := pc.Get(form.ParcelFieldNames[j])
			pc.Set(form.ParcelFieldNames[j], unitab.TrimSpace(v))
		}
	}
}

func fieldErr(dst []FieldError, name string, code int, msg string) []FieldError {
	return append(dst, FieldError{Field: name, Code: code, Message: msg})
}

// localErr appends an error whose English message is translated into l.
func localErr(dst []FieldError, l i18n.Locale, name string, code int, msg string) []FieldError {
	return fieldErr(dst, name, code, i18n.Message(l, msg))
}

// checkParam validates one value v (already trimmed) of parameter p,
// reported under the wire name.
func checkParam(op *catalog.Operation, r *form.Request, p *catalog.Param, v, name string, opt Options, dst []FieldError) []FieldError {
	// Each check sets msg; the one localErr below writes it (one call
	// instead of one per check).
	msg := ""
	switch {
	case v == "":
		if !p.Need.IsRequired(opt.Rules) || p.Kind == catalog.Zip && !postal.HasCodes(countryOf(r, p)) {
			return dst
		}
		msg = msgRequired
	case !utf8.ValidString(v):
		msg = msgUTF8
	case hasControl(v):
		msg = msgControl
	case (p.Kind == catalog.Ref || p.Kind == catalog.Code) && hasFormat(v):
		msg = msgFormatChar
	// Postal codes and countries have rules of their own; phones are counted
	// once normalized.
	case p.MaxLen > 0 && p.Kind != catalog.Zip && p.Kind != catalog.Country && p.Kind != catalog.Phone && utf8.RuneCountInString(v) > p.MaxLen:
		return fieldErr(dst, name, p.Code, tooLong(opt.Locale, p.MaxLen))
	}
	if msg != "" {
		return localErr(dst, opt.Locale, name, p.Code, msg)
	}
	switch p.Kind {
	case catalog.Code:
		if !isCode(v) {
			msg = msgCode
		}
	case catalog.Country:
		if !country.Valid(country.Normalize(v)) {
			msg = msgCountry
		}
	case catalog.Zip:
		_, msg = postal.Check(countryOf(r, p), v)
	case catalog.Phone:
		msg = checkPhone(v, p.MaxLen)
	case catalog.Email:
		if !isEmail(v) {
			msg = msgEmail
		}
	case catalog.Date:
		msg = checkDate(v, p.Code == 402, opt.Today)
	case catalog.Hour:
		if _, ok := parseHour(v); !ok {
			msg = msgHour
		}
	case catalog.Decimal:
		msg = checkDecimal(v)
	case catalog.Count, catalog.Positive:
		if msg = checkWhole(v, p); msg == msgAtMost {
			return fieldErr(dst, name, p.Code, i18n.Format(opt.Locale, msgAtMost, decimal.Itoa(p.Max)))
		}
	case catalog.ServiceType:
		msg = checkServiceType(v, opt.Rules)
	case catalog.Flag:
		if v != "0" && v != "1" {
			msg = msgFlag
		}
	}
	if msg != "" {
		dst = localErr(dst, opt.Locale, name, p.Code, msg)
	}
	return dst
}

// countryOf returns the normalized country code a postal code is checked
// against, or "" when it is missing or invalid (then only the generic
// rule applies).
func countryOf(r *form.Request, p *catalog.Param) string {
	c := country.Normalize(r.Get(p.Country))
	if !country.Valid(c) {
		return ""
	}
	return c
}

func checkParcels(op *catalog.Operation, r *form.Request, opt Options, dst []FieldError) []FieldError {
	if !op.TakesParcels() {
		if len(r.Parcels) > 0 {
			dst = localErr(dst, opt.Locale, "parcels", CodeFormat, msgNoParcels)
		}
		return dst
	}
	if len(r.Parcels) == 0 {
		if op.Parcels == catalog.Required {
			dst = localErr(dst, opt.Locale, "parcels", CodeFormat, msgParcelsRequired)
		}
		return dst
	}
	if len(r.Parcels) > catalog.MaxParcels {
		return fieldErr(dst, "parcels", CodeFormat, i18n.Format(opt.Locale, msgTooManyParcels, decimal.Itoa(catalog.MaxParcels)))
	}
	for i := range r.Parcels {
		pc := &r.Parcels[i]
		for j := range op.ParcelParams {
			p := &op.ParcelParams[j]
			v, _ := pc.Get(p.Name)
			n := len(dst)
			dst = checkParam(op, r, p, unitab.TrimSpace(v), "", opt, dst)
			if len(dst) > n {
				// Name the field only on the error path.
				dst[n].Field = ParcelField(i, p.Name)
			}
		}
	}
	return dst
}

// ParcelField returns the wire name of a parcel field: parcels[i][name].
func ParcelField(i int, name string) string {
	return "parcels[" + decimal.Itoa(i) + "][" + name + "]"
}

func checkRules(op *catalog.Operation, r *form.Request, l i18n.Locale, dst []FieldError) []FieldError {
	for ri := range op.Rules {
		rule := &op.Rules[ri]
		f := rule.Fields
		switch rule.Kind {
		case catalog.OneOf:
			found := false
			for _, name := range f {
				if present(r, name) {
					found = true
					break
				}
			}
			if !found {
				dst = fieldErr(dst, f[0], rule.Code, i18n.Format(l, msgGive, i18n.List(l, f)))
			}
		case catalog.RequiredWith:
			if present(r, f[1]) && !present(r, f[0]) {
				dst = fieldErr(dst, f[0], rule.Code, i18n.Format(l, msgTogether, f[1]))
			}
		case catalog.RequiredUnless:
			if !present(r, f[0]) && !present(r, f[1]) {
				dst = fieldErr(dst, f[0], rule.Code, i18n.Format(l, msgUnless, f[1]))
			}
		case catalog.Together:
			n := 0
			for _, name := range f {
				if present(r, name) {
					n++
				}
			}
			if n > 0 && n < len(f) {
				for _, name := range f {
					if !present(r, name) {
						dst = fieldErr(dst, name, rule.Code, i18n.Format(l, msgTogether, i18n.List(l, others(f, name))))
					}
				}
			}
		case catalog.Before, catalog.NotAfter:
			a, b := unitab.TrimSpace(r.Get(f[0])), unitab.TrimSpace(r.Get(f[1]))
			ka, oka := orderKey(op, f[0], a)
			kb, okb := orderKey(op, f[1], b)
			if !oka || !okb {
				continue // missing or already reported as invalid
			}
			if ka > kb || (rule.Kind == catalog.Before && ka == kb) {
				msg := msgLater
				if rule.Kind == catalog.NotAfter {
					msg = msgNotEarlier
				}
				dst = fieldErr(dst, f[1], rule.Code, i18n.Format(l, msg, f[0]))
			}
		}
	}
	return dst
}

// orderKey returns a comparable key for an hour (minutes) or a date
// (yyyymmdd) value, and whether the value is valid.
func orderKey(op *catalog.Operation, name, v string) (int, bool) {
	p := op.Param(name)
	if p == nil || v == "" {
		return 0, false
	}
	switch p.Kind {
	case catalog.Hour:
		return parseHour(v)
	case catalog.Date:
		y, m, d, ok := parseDate(v)
		return y*10000 + m*100 + d, ok
	}
	return 0, false
}

func present(r *form.Request, name string) bool {
	return unitab.TrimSpace(r.Get(name)) != ""
}

func others(f []string, name string) []string {
	out := make([]string, 0, len(f)-1)
	for _, g := range f {
		if g != name {
			out = append(out, g)
		}
	}
	return out
}

// Bounds of the carrier-specific extra fields a booking may carry (fields
// the catalog does not list, relayed as they are).
const (
	MaxExtraFields     = catalog.MaxExtraFields
	MaxExtraNameRunes  = catalog.MaxExtraNameRunes
	MaxExtraValueRunes = catalog.MaxExtraValueRunes
)

// checkUnknown reports top-level fields the catalog does not list, unless
// the operation takes carrier-specific extra fields. Those are bounded in
// number and length, named with letters, digits, '_' and '-', clean text,
// and never a catalog or parcel field spelled in another case
// (SHIPPING_DATE, To_Zip_Code), which an upstream that folds case could
// read as the real field, unvalidated.
func checkUnknown(op *catalog.Operation, r *form.Request, l i18n.Locale, dst []FieldError) []FieldError {
	n := 0
	for i := range r.Fields {
		f := &r.Fields[i]
		if op.Param(f.Name) != nil {
			continue
		}
		if !op.Extra {
			dst = localErr(dst, l, f.Name, CodeFormat, msgUnknown)
			continue
		}
		n++
		name := unitab.Clip(f.Name, MaxExtraNameRunes)
		switch {
		case n > MaxExtraFields:
			dst = fieldErr(dst, name, CodeFormat, i18n.Format(l, msgExtraMany, decimal.Itoa(MaxExtraFields)))
		case utf8.RuneCountInString(f.Name) > MaxExtraNameRunes || !plainName(f.Name):
			dst = fieldErr(dst, name, CodeFormat, i18n.Format(l, msgExtraName, decimal.Itoa(MaxExtraNameRunes)))
		case shadowsCatalog(op, f.Name):
			dst = localErr(dst, l, name, CodeFormat, msgExtraCase)
		case !utf8.ValidString(f.Value):
			dst = localErr(dst, l, name, CodeFormat, msgUTF8)
		case hasControl(f.Value):
			dst = localErr(dst, l, name, CodeFormat, msgControl)
		case utf8.RuneCountInString(f.Value) > MaxExtraValueRunes:
			dst = fieldErr(dst, name, CodeFormat, tooLong(l, MaxExtraValueRunes))
		}
	}
	return dst
}

// plainName: letters, digits, '_' and '-' only (ASCII), not empty.
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

// shadowsCatalog reports an extra field's name that differs from one of
// op's fields only in case, or that starts like the parcels list.
func shadowsCatalog(op *catalog.Operation, name string) bool {
	if len(name) >= 7 && unitab.EqualFold(name[:7], "parcels") {
		return true
	}
	for i := range op.Params {
		if unitab.EqualFold(op.Params[i].Name, name) {
			return true
		}
	}
	for i := range op.ParcelParams {
		if unitab.EqualFold(op.ParcelParams[i].Name, name) {
			return true
		}
	}
	return false
}

// Canonicalize orders r's top-level fields as the catalog lists them for
// op, with fields the catalog does not list (carrier-specific extras) last
// in name order, so that an encoded request is deterministic. It does not
// allocate.
func Canonicalize(op *catalog.Operation, r *form.Request) {
	r.SortFields(func(name string) int {
		if i := op.Index(name); i < len(op.Params) {
			return i
		}
		return -1
	})
}
