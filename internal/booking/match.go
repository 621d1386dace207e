package booking

import (
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// The conflict rule: a shipment found upstream with the request's
// shipping_client_ref is adopted as the request's booking only when its
// data agrees with the request's normalized fields. get-shipments returns
// each shipment's shipping_data, parcels, to_data, from_data and
// drop_point_data (spec: "the same data as get-shipment but without
// tracking data"); of those, Compared lists what is compared. A field is
// compared when both the request and the shipment carry a value: the
// spec says get-shipments returns them, and a value the upstream leaves
// out is no evidence either way.
//
// Left out, on purpose: the sender (from_*), which the service may
// replace by the account's own sender details; addresses, cities,
// phones, e-mails and observations, which the service may reformat (it
// splits addresses into street type, number and name); parcel weights and
// dimensions, which come back as numbers the service may round or
// recompute (the volume). What is compared identifies an order: who
// receives it where, when, how and how many parcels.

// Compared are the request fields the conflict rule compares.
var Compared = [...]string{
	"shipping_date", "service_type", "carrier_code", "service_code",
	"to_name", "to_zip_code", "to_country_code", "drop_point_key", "parcels",
}

// Find returns the shipments of a get-shipments result booked with the
// client reference ref: the first whose data agrees with req (match), or
// else the fields in which the first one found disagrees (mismatch). Both
// are empty when no shipment has ref.
func Find(list *envelope.Shipments, ref string, req *form.Request) (match *envelope.Shipment, mismatch []string) {
	for i := range list.Shipments {
		s := &list.Shipments[i]
		// Case folded: a service that compares references without case
		// (as its filter may) holds "ord-1" as the booking of "ORD-1", and
		// a shipment skipped here would be booked again.
		if !unitab.EqualFold(s.ShippingData.ShippingClientRef, ref) {
			continue
		}
		m := Mismatches(req, s)
		if len(m) == 0 {
			return s, nil
		}
		if mismatch == nil {
			mismatch = m
		}
	}
	return nil, mismatch
}

// Mismatches returns the Compared fields of req that the shipment s
// contradicts (none: s may be req's booking).
func Mismatches(req *form.Request, s *envelope.Shipment) []string {
	var out []string
	sd := &s.ShippingData
	check := func(field string, same func(a, b string) bool, got ...string) {
		want := req.Get(field)
		if want == "" {
			return
		}
		seen := false
		for _, g := range got {
			if g == "" {
				continue
			}
			seen = true
			if same(want, g) {
				return
			}
		}
		if seen {
			out = append(out, field)
		}
	}
	check("shipping_date", sameDate, sd.ShippingDate)
	check("service_type", unitab.EqualFold, sd.ServiceType)
	check("carrier_code", unitab.EqualFold, sd.CarrierCode)
	// The service may substitute a service: either name is the request's.
	check("service_code", unitab.EqualFold, sd.OriginalServiceCode, sd.ServiceCode)
	check("to_name", sameName, s.ToData.Name)
	check("to_zip_code", sameZip, s.ToData.ZipCode)
	check("to_country_code", unitab.EqualFold, s.ToData.CountryCode)
	if s.DropPointData != nil {
		check("drop_point_key", unitab.EqualFold, s.DropPointData.DropPointKey)
	}
	if len(s.Parcels) > 0 && len(req.Parcels) > 0 && len(s.Parcels) != len(req.Parcels) {
		out = append(out, "parcels")
	}
	// A shipment the service did not make or cancelled is not a booking
	// to answer with (the shopper would believe it booked), and booking
	// again under its reference could make a second one if "not made"
	// was not final: never adopted, whatever its data.
	if sd.Status == envelope.ShipmentNotMade || sd.Status == envelope.ShipmentCancelled {
		out = append(out, "status")
	}
	return out
}

// LookupPageSize is how many shipments a lookup asks for per page (the
// service's maximum n_items).
const LookupPageSize = 50

// Incomplete reports whether a get-shipments page is full, so that the
// shipment booked with the reference may be on a later page: a lookup
// that found no match must not conclude "never booked" from it (the
// filter may match other references too, "ORD-1" in "ORD-10").
func Incomplete(list *envelope.Shipments) bool {
	return len(list.Shipments) >= LookupPageSize || list.NShipments >= LookupPageSize
}

// sameDate compares the date part of a Date or DateTime.
func sameDate(a, b string) bool {
	if len(a) > 10 {
		a = a[:10]
	}
	if len(b) > 10 {
		b = b[:10]
	}
	return a == b
}

// sameZip compares postal codes by their letters and digits, uppercased;
// a country prefix of one or two letters on one side only ("F-75001",
// "I-00100") does not count.
func sameZip(a, b string) bool {
	a, b = alnumUpper(a), alnumUpper(b)
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	p := a[:len(a)-len(b)]
	return a[len(p):] == b && len(p) <= 2 && len(b) > 0 && isLetters(p) && b[0] >= '0' && b[0] <= '9'
}

func alnumUpper(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			b = append(b, c-'a'+'A')
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			b = append(b, c)
		}
	}
	return string(b)
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// sameName compares names by their letters and digits, case and the
// common Latin diacritics folded ("Ana & Co." is "ana co", "Ñandú" is
// "nandu"): the service may store names transliterated or reformatted.
func sameName(a, b string) bool { return foldName(a) == foldName(b) }

func foldName(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		r = unitab.ToLower(r)
		if r >= 0x80 {
			if f, ok := foldLatin(r); ok {
				b = append(b, f...)
				continue
			}
		}
		if unitab.IsLetterOrDigit(r) {
			b = unitab.AppendRune(b, r)
		}
	}
	return string(b)
}

// latinFold maps lowercase Latin letters with diacritics (Latin-1
// Supplement and the common Latin Extended-A ones of the seven languages)
// to their base letters: pairs of a letter and its folding (\x00 is "ae",
// \x01 "oe", \x02 "ss").
const latinFold = "àaáaâaãaäaåaāaăaąaæ\x00çcćcčcďdđdèeéeêeëeēeęeěeìiíiîiïiīiłlñnńnňnòoóoôoõoöoøoōoőoœ\x01řrśsšsß\x02ťtùuúuûuüuūuůuűuýyÿyźzżzžz"

// foldLatin returns the folding of a lowercase letter with a diacritic.
func foldLatin(r rune) (string, bool) {
	s := latinFold
	for len(s) > 0 {
		c, n := utf8.DecodeRuneInString(s)
		f := s[n]
		s = s[n+1:]
		if c != r {
			continue
		}
		switch f {
		case 0:
			return "ae", true
		case 1:
			return "oe", true
		case 2:
			return "ss", true
		}
		return string(rune(f)), true
	}
	return "", false
}

// Answer renders new-shipment's answer ({"status":"ok","data":{...}}) from
// a shipment found upstream: the members new-shipment returns that
// get-shipments carries too (advance_tracking_url is not among them).
//
// The members are written by a jsonlite.EmitFunc, not by a struct holding
// s: that struct's type descriptor in the edge core would describe every
// field of Shipment, and of its parts, with their names and tags.
func Answer(s *envelope.Shipment) []byte {
	sd := &s.ShippingData
	return envelope.MarshalOK(jsonlite.EmitFunc(func(w jsonlite.Emitter) {
		w.BeginObject()
		for _, kv := range [...][2]string{
			{"shipping_dlvr_ref", sd.ShippingDlvrRef}, {"shipping_client_ref", sd.ShippingClientRef},
			{"shipping_carrier_ref", sd.ShippingCarrierRef}, {"shipping_carrier_guid", sd.ShippingCarrierGUID},
			{"service_type", sd.ServiceType}, {"carrier_code", sd.CarrierCode},
			{"service_code", sd.ServiceCode}, {"carrier_phone", sd.CarrierPhone},
		} {
			w.Key(kv[0])
			w.String(kv[1])
		}
		w.EndObject()
	}))
}
