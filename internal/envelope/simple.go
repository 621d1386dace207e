package envelope

import (
	"encoding/base64"
	"strings"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// NewShipment is the result of new-shipment.
type NewShipment struct {
	ShippingDlvrRef     string // shipping_dlvr_ref
	ShippingClientRef   string // shipping_client_ref
	ShippingCarrierRef  string // shipping_carrier_ref
	ShippingCarrierGUID string // shipping_carrier_guid
	ServiceType         string // service_type
	CarrierCode         string // carrier_code
	ServiceCode         string // service_code
	CarrierPhone        string // carrier_phone
	AdvanceTrackingURL  string // advance_tracking_url
}

func (v *NewShipment) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "shipping_dlvr_ref":
			return str(s, &v.ShippingDlvrRef)
		case "shipping_client_ref":
			return str(s, &v.ShippingClientRef)
		case "shipping_carrier_ref":
			return str(s, &v.ShippingCarrierRef)
		case "shipping_carrier_guid":
			return str(s, &v.ShippingCarrierGUID)
		case "service_type":
			return str(s, &v.ServiceType)
		case "carrier_code":
			return str(s, &v.CarrierCode)
		case "service_code":
			return str(s, &v.ServiceCode)
		case "carrier_phone":
			return str(s, &v.CarrierPhone)
		case "advance_tracking_url":
			return str(s, &v.AdvanceTrackingURL)
		}
		return nil
	})
}

// EmitTo writes the result with the wire's keys.
func (v NewShipment) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "shipping_dlvr_ref", v.ShippingDlvrRef)
	kStr(e, "shipping_client_ref", v.ShippingClientRef)
	kStr(e, "shipping_carrier_ref", v.ShippingCarrierRef)
	kStr(e, "shipping_carrier_guid", v.ShippingCarrierGUID)
	kStr(e, "service_type", v.ServiceType)
	kStr(e, "carrier_code", v.CarrierCode)
	kStr(e, "service_code", v.ServiceCode)
	kStr(e, "carrier_phone", v.CarrierPhone)
	kStr(e, "advance_tracking_url", v.AdvanceTrackingURL)
	e.EndObject()
}

// DecodeNewShipment decodes a new-shipment response.
func DecodeNewShipment(httpStatus int, body []byte) (NewShipment, error) {
	var v NewShipment
	err := decodeEnvelope(OpNewShipment, httpStatus, body, v.decode)
	return v, err
}

// Cutoff is the result of get-collection-cutoff-hour.
type Cutoff struct {
	CountryCode string // country_code, sender country
	ZipCode     string // zip_code, sender postal code
	Cutoff      string // cutoff, HH:MM
}

func (v *Cutoff) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "country_code":
			return str(s, &v.CountryCode)
		case "zip_code":
			return str(s, &v.ZipCode)
		case "cutoff":
			return str(s, &v.Cutoff)
		}
		return nil
	})
}

// EmitTo writes {country_code, zip_code, cutoff}.
func (v Cutoff) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "country_code", v.CountryCode)
	kStr(e, "zip_code", v.ZipCode)
	kStr(e, "cutoff", v.Cutoff)
	e.EndObject()
}

// DecodeCutoff decodes a get-collection-cutoff-hour response.
func DecodeCutoff(httpStatus int, body []byte) (Cutoff, error) {
	var v Cutoff
	err := decodeEnvelope(OpCollectionCutoff, httpStatus, body, v.decode)
	return v, err
}

// Collection is the result of new-collection.
type Collection struct {
	CollectionDlvrRef    string // collection_dlvr_ref
	CollectionClientRef  string // collection_client_ref
	CollectionCarrierRef string // collection_carrier_ref
	CarrierCode          string // carrier_code
	ServiceCode          string // service_code
	CarrierPhone         string // carrier_phone
}

func (v *Collection) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "collection_dlvr_ref":
			return str(s, &v.CollectionDlvrRef)
		case "collection_client_ref":
			return str(s, &v.CollectionClientRef)
		case "collection_carrier_ref":
			return str(s, &v.CollectionCarrierRef)
		case "carrier_code":
			return str(s, &v.CarrierCode)
		case "service_code":
			return str(s, &v.ServiceCode)
		case "carrier_phone":
			return str(s, &v.CarrierPhone)
		}
		return nil
	})
}

// EmitTo writes the result with the wire's keys.
func (v Collection) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "collection_dlvr_ref", v.CollectionDlvrRef)
	kStr(e, "collection_client_ref", v.CollectionClientRef)
	kStr(e, "collection_carrier_ref", v.CollectionCarrierRef)
	kStr(e, "carrier_code", v.CarrierCode)
	kStr(e, "service_code", v.ServiceCode)
	kStr(e, "carrier_phone", v.CarrierPhone)
	e.EndObject()
}

// DecodeCollection decodes a new-collection response.
func DecodeCollection(httpStatus int, body []byte) (Collection, error) {
	var v Collection
	err := decodeEnvelope(OpNewCollection, httpStatus, body, v.decode)
	return v, err
}

// Label is the result of get-shipment-label.
type Label struct {
	ShippingDlvrRef     string // shipping_dlvr_ref
	ShippingClientRef   string // shipping_client_ref
	ShippingCarrierRef  string // shipping_carrier_ref
	ShippingCarrierGUID string // shipping_carrier_guid
	PDF                 []byte // label_raw, base64-decoded; starts with "%PDF-"
}

func (v *Label) decode(s *jsonlite.Scanner) error {
	seen := false
	err := obj(s, func(key string) error {
		switch key {
		case "shipping_dlvr_ref":
			return str(s, &v.ShippingDlvrRef)
		case "shipping_client_ref":
			return str(s, &v.ShippingClientRef)
		case "shipping_carrier_ref":
			return str(s, &v.ShippingCarrierRef)
		case "shipping_carrier_guid":
			return str(s, &v.ShippingCarrierGUID)
		case "label_raw":
			seen = true
			if s.Peek() != jsonlite.String {
				_, err := s.String()
				return err
			}
			b64, err := s.String()
			if err != nil {
				return err
			}
			pdf, err := decodePDF(b64)
			v.PDF = pdf
			return err
		}
		return nil
	})
	if err == nil && !seen {
		err = inKey(reasonError("missing"), "label_raw")
	}
	return err
}

// decodePDF decodes a base64 label (standard or URL alphabet, padded or
// not, line breaks and spaces ignored, an optional data: URL prefix) and
// checks that it is a PDF.
func decodePDF(b64 string) ([]byte, error) {
	if strings.HasPrefix(b64, "data:") {
		if i := strings.Index(b64, ","); i >= 0 {
			b64 = b64[i+1:]
		}
	}
	if strings.ContainsAny(b64, " \t\r\n") {
		b64 = strings.Map(func(r rune) rune {
			switch r {
			case ' ', '\t', '\r', '\n':
				return -1
			}
			return r
		}, b64)
	}
	if b64 == "" {
		return nil, reasonError("empty label")
	}
	enc := base64.StdEncoding
	if strings.ContainsAny(b64, "-_") {
		enc = base64.URLEncoding
	}
	if len(b64)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
		b64 = strings.TrimRight(b64, "=")
	}
	pdf, err := enc.DecodeString(b64)
	if err != nil {
		return nil, reasonError("label is not valid base64: " + err.Error())
	}
	if !strings.HasPrefix(string(pdf[:min(len(pdf), 5)]), "%PDF-") {
		return nil, reasonError("label is not a PDF (it does not start with %PDF-)")
	}
	return pdf, nil
}

// EmitTo writes the references and label_raw as standard base64.
func (v Label) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "shipping_dlvr_ref", v.ShippingDlvrRef)
	kStr(e, "shipping_client_ref", v.ShippingClientRef)
	kStr(e, "shipping_carrier_ref", v.ShippingCarrierRef)
	kStr(e, "shipping_carrier_guid", v.ShippingCarrierGUID)
	kStr(e, "label_raw", base64.StdEncoding.EncodeToString(v.PDF))
	e.EndObject()
}

// DecodeLabel decodes a get-shipment-label response. The label must be
// base64 of a PDF, else the error names data.label_raw.
func DecodeLabel(httpStatus int, body []byte) (Label, error) {
	var v Label
	err := decodeEnvelope(OpShipmentLabel, httpStatus, body, v.decode)
	return v, err
}
