package envelope

import (
	"sort"
	"strings"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Shipment status values (ShippingData.Status).
const (
	ShipmentOK        = 1  // everything went well
	ShipmentNotMade   = -1 // the shipment was not made
	ShipmentCancelled = -2 // the shipment was cancelled
)

// ShippingData is the shipping_data block of a shipment.
type ShippingData struct {
	ShippingDlvrRef     string // shipping_dlvr_ref
	ShippingClientRef   string // shipping_client_ref
	ShippingCarrierRef  string // shipping_carrier_ref
	ShippingCarrierGUID string // shipping_carrier_guid
	ServiceType         string // service_type
	CarrierCode         string // carrier_code
	ServiceCode         string // service_code
	OriginalServiceCode string // original_service_code
	CreationDate        string // creation_date, "" when absent
	ShippingDate        string // shipping_date, "" when absent
	DeliveryDate        string // delivery_date; "" while undelivered (null or "" on the wire)
	DocsNumber          int64  // docs_number
	CarrierPhone        string // carrier_phone
	CarrierWebsite      string // carrier_website
	CarrierCountryCode  string // carrier_country_code
	IsReturned          bool   // is_returned (or is_return): the shipment is a return
	ReturnDlvrRef       string // return_dlvr_ref
	CashOnDelivery      string // cash_on_delivery amount, as sent
	Status              int64  // status: ShipmentOK, ShipmentNotMade or ShipmentCancelled
}

func (v *ShippingData) decode(s *jsonlite.Scanner) error {
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
		case "original_service_code":
			return str(s, &v.OriginalServiceCode)
		case "creation_date":
			return date(s, &v.CreationDate)
		case "shipping_date":
			return date(s, &v.ShippingDate)
		case "delivery_date":
			return date(s, &v.DeliveryDate)
		case "docs_number":
			return i64(s, &v.DocsNumber)
		case "carrier_phone":
			return str(s, &v.CarrierPhone)
		case "carrier_website":
			return str(s, &v.CarrierWebsite)
		case "carrier_country_code":
			return str(s, &v.CarrierCountryCode)
		case "is_returned", "is_return":
			return flag(s, &v.IsReturned)
		case "return_dlvr_ref":
			return str(s, &v.ReturnDlvrRef)
		case "cash_on_delivery":
			return str(s, &v.CashOnDelivery)
		case "status":
			return i64(s, &v.Status)
		}
		return nil
	})
}

// EmitTo writes the block with the wire's keys (is_returned for the flag,
// empty dates as null).
func (v ShippingData) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "shipping_dlvr_ref", v.ShippingDlvrRef)
	kStr(e, "shipping_client_ref", v.ShippingClientRef)
	kStr(e, "shipping_carrier_ref", v.ShippingCarrierRef)
	kStr(e, "shipping_carrier_guid", v.ShippingCarrierGUID)
	kStr(e, "service_type", v.ServiceType)
	kStr(e, "carrier_code", v.CarrierCode)
	kStr(e, "service_code", v.ServiceCode)
	kStr(e, "original_service_code", v.OriginalServiceCode)
	kDate(e, "creation_date", v.CreationDate)
	kDate(e, "shipping_date", v.ShippingDate)
	kDate(e, "delivery_date", v.DeliveryDate)
	kInt(e, "docs_number", v.DocsNumber)
	kStr(e, "carrier_phone", v.CarrierPhone)
	kStr(e, "carrier_website", v.CarrierWebsite)
	kStr(e, "carrier_country_code", v.CarrierCountryCode)
	kBool(e, "is_returned", v.IsReturned)
	kStr(e, "return_dlvr_ref", v.ReturnDlvrRef)
	kStr(e, "cash_on_delivery", v.CashOnDelivery)
	kInt(e, "status", v.Status)
	e.EndObject()
}

// Parcel is one parcel: weight in kg, dimensions in cm.
type Parcel struct {
	ParcelWeight float64 // parcel_weight
	ParcelWidth  float64 // parcel_width
	ParcelHeight float64 // parcel_height
	ParcelLength float64 // parcel_length
	ParcelVolume float64 // parcel_volume
}

// field reads a parcel field; handled is false for other keys.
func (p *Parcel) field(s *jsonlite.Scanner, key string) (handled bool, err error) {
	switch key {
	case "parcel_weight":
		return true, f64(s, &p.ParcelWeight)
	case "parcel_width":
		return true, f64(s, &p.ParcelWidth)
	case "parcel_height":
		return true, f64(s, &p.ParcelHeight)
	case "parcel_length":
		return true, f64(s, &p.ParcelLength)
	case "parcel_volume":
		return true, f64(s, &p.ParcelVolume)
	}
	return false, nil
}

func (p *Parcel) emitFields(e jsonlite.Emitter) {
	kFloat(e, "parcel_weight", p.ParcelWeight)
	kFloat(e, "parcel_width", p.ParcelWidth)
	kFloat(e, "parcel_height", p.ParcelHeight)
	kFloat(e, "parcel_length", p.ParcelLength)
	kFloat(e, "parcel_volume", p.ParcelVolume)
}

// EmitTo writes the parcel fields as numbers.
func (p Parcel) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	p.emitFields(e)
	e.EndObject()
}

// ParcelData is the parcel_data block: a parcel number and parcel fields.
type ParcelData struct {
	ParcelNumber string // parcel_number, as sent
	Parcel
}

// EmitTo writes {parcel_number, parcel_weight, ...}.
func (p ParcelData) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "parcel_number", p.ParcelNumber)
	p.emitFields(e)
	e.EndObject()
}

// Party is a sender (from_data) or a recipient (to_data).
type Party struct {
	Prefix       string // "from_" or "to_": the prefix of the keys on the wire
	Nif          string // *_nif
	Name         string // *_name
	Attn         string // *_attn
	Address      string // *_address
	City         string // *_city
	ZipCode      string // *_zip_code
	CountryCode  string // *_country_code
	Phone        string // *_phone
	Mobile       string // *_mobile
	Email        string // *_email
	Observations string // *_observations
	StreetType   string // *_street_type
	StreetNumber string // *_street_number
	StreetName   string // *_street_name
	Floor        string // *_floor
}

// partyKeys are the emitted keys, in order, for each prefix.
var (
	partyKeysFrom = [15]string{"from_nif", "from_name", "from_attn", "from_address", "from_city", "from_zip_code", "from_country_code", "from_phone", "from_mobile", "from_email", "from_observations", "from_street_type", "from_street_number", "from_street_name", "from_floor"}
	partyKeysTo   = [15]string{"to_nif", "to_name", "to_attn", "to_address", "to_city", "to_zip_code", "to_country_code", "to_phone", "to_mobile", "to_email", "to_observations", "to_street_type", "to_street_number", "to_street_name", "to_floor"}
)

// ref returns the i-th field in the order of partyKeysFrom.
func (p *Party) ref(i int) *string {
	switch i {
	case 0:
		return &p.Nif
	case 1:
		return &p.Name
	case 2:
		return &p.Attn
	case 3:
		return &p.Address
	case 4:
		return &p.City
	case 5:
		return &p.ZipCode
	case 6:
		return &p.CountryCode
	case 7:
		return &p.Phone
	case 8:
		return &p.Mobile
	case 9:
		return &p.Email
	case 10:
		return &p.Observations
	case 11:
		return &p.StreetType
	case 12:
		return &p.StreetNumber
	case 13:
		return &p.StreetName
	case 14:
		return &p.Floor
	}
	return nil
}

// decode reads a party block; keys with either prefix are accepted.
func (p *Party) decode(s *jsonlite.Scanner, prefix string) error {
	p.Prefix = prefix
	return obj(s, func(key string) error {
		var suffix string
		switch {
		case strings.HasPrefix(key, "from_"):
			suffix = key[len("from_"):]
		case strings.HasPrefix(key, "to_"):
			suffix = key[len("to_"):]
		default:
			return nil
		}
		for i, k := range partyKeysFrom {
			if k[len("from_"):] == suffix {
				return str(s, p.ref(i))
			}
		}
		return nil
	})
}

// EmitTo writes every party field with the party's prefix.
func (p Party) EmitTo(e jsonlite.Emitter) {
	keys := &partyKeysFrom
	if p.Prefix == "to_" {
		keys = &partyKeysTo
	}
	e.BeginObject()
	for i, k := range keys {
		kStr(e, k, *p.ref(i))
	}
	e.EndObject()
}

// SLAData is the sla_data block: the period within which the carrier must
// deliver.
type SLAData struct {
	TrackingStartDate     string  // tracking_start_date
	TrackingDeliveredDate string  // tracking_delivered_date, "" while undelivered
	TrackingCurrentCode   string  // tracking_current_code, two digits when known
	HoursElapsed          float64 // hours_elapsed
	ServiceSLAHours       float64 // service_sla_hours
	DeliveryHourLimit     string  // delivery_hour_limit, as sent
}

func (v *SLAData) decode(s *jsonlite.Scanner) error {
	err := obj(s, func(key string) error {
		switch key {
		case "tracking_start_date":
			return date(s, &v.TrackingStartDate)
		case "tracking_delivered_date":
			return date(s, &v.TrackingDeliveredDate)
		case "tracking_current_code":
			return str(s, &v.TrackingCurrentCode)
		case "hours_elapsed":
			return f64(s, &v.HoursElapsed)
		case "service_sla_hours":
			return f64(s, &v.ServiceSLAHours)
		case "delivery_hour_limit":
			return str(s, &v.DeliveryHourLimit)
		}
		return nil
	})
	v.TrackingCurrentCode = normTrackingCode(v.TrackingCurrentCode)
	return err
}

// EmitTo writes the block with the wire's keys.
func (v SLAData) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kDate(e, "tracking_start_date", v.TrackingStartDate)
	kDate(e, "tracking_delivered_date", v.TrackingDeliveredDate)
	kStr(e, "tracking_current_code", v.TrackingCurrentCode)
	kFloat(e, "hours_elapsed", v.HoursElapsed)
	kFloat(e, "service_sla_hours", v.ServiceSLAHours)
	kStr(e, "delivery_hour_limit", v.DeliveryHourLimit)
	e.EndObject()
}

// TrackingEvent is one tracking event.
type TrackingEvent struct {
	TrackingCode    string // tracking_code, two digits ("01".."30") when known
	TrackingName    string // tracking_name
	TrackingDetails string // tracking_details
	TrackingDate    string // tracking_date, YYYY-MM-DD HH:MM:SS
	Category        string // display category of the code (Category* constants)
}

// Describe returns the table entry of the event's code.
func (t TrackingEvent) Describe() (TrackingCode, bool) { return DescribeTracking(t.TrackingCode) }

// field reads an event field; handled is false for other keys.
func (t *TrackingEvent) field(s *jsonlite.Scanner, key string) (handled bool, err error) {
	switch key {
	case "tracking_code":
		return true, str(s, &t.TrackingCode)
	case "tracking_name":
		return true, str(s, &t.TrackingName)
	case "tracking_details":
		return true, str(s, &t.TrackingDetails)
	case "tracking_date":
		return true, date(s, &t.TrackingDate)
	}
	return false, nil
}

func (t *TrackingEvent) finish() {
	t.TrackingCode = normTrackingCode(t.TrackingCode)
	t.Category = trackingCategory(t.TrackingCode)
}

func (t *TrackingEvent) emitFields(e jsonlite.Emitter) {
	kStr(e, "tracking_code", t.TrackingCode)
	kStr(e, "tracking_name", t.TrackingName)
	kStr(e, "tracking_details", t.TrackingDetails)
	kDate(e, "tracking_date", t.TrackingDate)
	kStr(e, "tracking_category", t.Category)
}

// EmitTo writes {tracking_code, tracking_name, tracking_details,
// tracking_date, tracking_category}.
func (t TrackingEvent) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	t.emitFields(e)
	e.EndObject()
}

// Tracking is the current state of a shipment and its history.
type Tracking struct {
	TrackingEvent                   // the current state
	TrackingHistory []TrackingEvent // tracking_history, newest first
}

// field reads a tracking field; handled is false for other keys.
func (t *Tracking) field(s *jsonlite.Scanner, key string) (handled bool, err error) {
	if key == "tracking_history" {
		return true, arr(s, func(int) error {
			var ev TrackingEvent
			err := obj(s, func(key string) error {
				_, err := ev.field(s, key)
				return err
			})
			ev.finish()
			t.TrackingHistory = append(t.TrackingHistory, ev)
			return err
		})
	}
	return t.TrackingEvent.field(s, key)
}

// finish normalizes codes, sorts the history newest first (stable, by
// tracking_date) and, when the current code is missing, takes the newest
// event as the current state (the spec: the latest event is the current
// state).
func (t *Tracking) finish() {
	t.TrackingEvent.finish()
	sort.Stable(newestFirst(t.TrackingHistory))
	if t.TrackingCode == "" && len(t.TrackingHistory) > 0 {
		t.TrackingEvent = t.TrackingHistory[0]
	}
}

func (t *Tracking) emitFields(e jsonlite.Emitter) {
	t.TrackingEvent.emitFields(e)
	e.Key("tracking_history")
	e.BeginArray()
	for i := range t.TrackingHistory {
		t.TrackingHistory[i].EmitTo(e)
	}
	e.EndArray()
}

// EmitTo writes the current event's fields and tracking_history.
func (t Tracking) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	t.emitFields(e)
	e.EndObject()
}

// newestFirst sorts events by tracking_date, descending. Dates are
// "YYYY-MM-DD HH:MM:SS", so byte order is time order; events without a
// date go last.
type newestFirst []TrackingEvent

func (l newestFirst) Len() int           { return len(l) }
func (l newestFirst) Less(i, j int) bool { return l[i].TrackingDate > l[j].TrackingDate }
func (l newestFirst) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }

// Shipment is the result of get-shipment (and an entry of get-shipments).
type Shipment struct {
	ShippingData            ShippingData // shipping_data
	Parcels                 []Parcel     // parcels
	ParcelData              ParcelData   // parcel_data
	ToData                  Party        // to_data
	FromData                Party        // from_data
	DropPointData           *DropPoint   // drop_point_data; nil when no drop point ("" on the wire)
	SLAData                 SLAData      // sla_data
	CustomCarrierParameters []byte       // custom_carrier_parameters, compact JSON; nil when absent
	TrackingEvents          *Tracking    // tracking_events; nil when absent (get-shipments)
	TrackingData            []byte       // tracking_data, compact JSON; nil when absent
	Outdated                bool         // outdated (documented as oudated)
}

func (v *Shipment) decode(s *jsonlite.Scanner) error {
	v.ToData.Prefix, v.FromData.Prefix = "to_", "from_"
	return obj(s, func(key string) error {
		switch key {
		case "shipping_data":
			return v.ShippingData.decode(s)
		case "parcels":
			return arr(s, func(int) error {
				var p Parcel
				err := obj(s, func(key string) error {
					_, err := p.field(s, key)
					return err
				})
				v.Parcels = append(v.Parcels, p)
				return err
			})
		case "parcel_data":
			return obj(s, func(key string) error {
				if key == "parcel_number" {
					return str(s, &v.ParcelData.ParcelNumber)
				}
				_, err := v.ParcelData.field(s, key)
				return err
			})
		case "to_data":
			return v.ToData.decode(s, "to_")
		case "from_data":
			return v.FromData.decode(s, "from_")
		case "drop_point_data":
			if empty(s) {
				v.DropPointData = nil
				return nil
			}
			v.DropPointData = new(DropPoint)
			return v.DropPointData.decode(s)
		case "sla_data":
			return v.SLAData.decode(s)
		case "custom_carrier_parameters":
			return raw(s, &v.CustomCarrierParameters, true)
		case "tracking_events":
			t := new(Tracking)
			err := obj(s, func(key string) error {
				_, err := t.field(s, key)
				return err
			})
			t.finish()
			v.TrackingEvents = t
			return err
		case "tracking_data":
			return raw(s, &v.TrackingData, true)
		case "outdated", "oudated":
			return flag(s, &v.Outdated)
		}
		return nil
	})
}

// EmitTo writes every block in a fixed order; absent optional blocks are
// null.
func (v Shipment) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	e.Key("shipping_data")
	v.ShippingData.EmitTo(e)
	e.Key("parcels")
	e.BeginArray()
	for i := range v.Parcels {
		v.Parcels[i].EmitTo(e)
	}
	e.EndArray()
	e.Key("parcel_data")
	v.ParcelData.EmitTo(e)
	v.ToData.Prefix, v.FromData.Prefix = "to_", "from_"
	e.Key("to_data")
	v.ToData.EmitTo(e)
	e.Key("from_data")
	v.FromData.EmitTo(e)
	e.Key("drop_point_data")
	if v.DropPointData == nil {
		e.Null()
	} else {
		v.DropPointData.EmitTo(e)
	}
	e.Key("sla_data")
	v.SLAData.EmitTo(e)
	kRaw(e, "custom_carrier_parameters", v.CustomCarrierParameters)
	e.Key("tracking_events")
	if v.TrackingEvents == nil {
		e.Null()
	} else {
		v.TrackingEvents.EmitTo(e)
	}
	kRaw(e, "tracking_data", v.TrackingData)
	kBool(e, "outdated", v.Outdated)
	e.EndObject()
}

// DecodeShipment decodes a get-shipment response.
func DecodeShipment(httpStatus int, body []byte) (Shipment, error) {
	var v Shipment
	err := decodeEnvelope(OpShipment, httpStatus, body, v.decode)
	return v, err
}

// Shipments is the result of get-shipments.
type Shipments struct {
	Page       int64      // page
	NShipments int64      // n_shipments (len(Shipments) when absent)
	Shipments  []Shipment // shipments, without tracking data
}

func (v *Shipments) decode(s *jsonlite.Scanner) error {
	hasN := false
	err := obj(s, func(key string) error {
		switch key {
		case "page":
			return i64(s, &v.Page)
		case "n_shipments":
			hasN = true
			return i64(s, &v.NShipments)
		case "shipments":
			return arr(s, func(int) error {
				var sh Shipment
				err := sh.decode(s)
				v.Shipments = append(v.Shipments, sh)
				return err
			})
		}
		return nil
	})
	if !hasN {
		v.NShipments = int64(len(v.Shipments))
	}
	return err
}

// EmitTo writes {page, n_shipments, shipments}.
func (v Shipments) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kInt(e, "page", v.Page)
	kInt(e, "n_shipments", v.NShipments)
	e.Key("shipments")
	e.BeginArray()
	for i := range v.Shipments {
		v.Shipments[i].EmitTo(e)
	}
	e.EndArray()
	e.EndObject()
}

// DecodeShipments decodes a get-shipments response.
func DecodeShipments(httpStatus int, body []byte) (Shipments, error) {
	var v Shipments
	err := decodeEnvelope(OpShipments, httpStatus, body, v.decode)
	return v, err
}

// ShipmentTracking is the result of get-shipment-tracking.
type ShipmentTracking struct {
	ShippingDlvrRef     string // shipping_dlvr_ref
	ShippingClientRef   string // shipping_client_ref
	ShippingCarrierRef  string // shipping_carrier_ref
	ShippingCarrierGUID string // shipping_carrier_guid
	Tracking                   // current state and history
}

func (v *ShipmentTracking) decode(s *jsonlite.Scanner) error {
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
		}
		_, err := v.Tracking.field(s, key)
		return err
	})
	v.Tracking.finish()
	return err
}

// EmitTo writes the references, the current event and tracking_history.
func (v ShipmentTracking) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "shipping_dlvr_ref", v.ShippingDlvrRef)
	kStr(e, "shipping_client_ref", v.ShippingClientRef)
	kStr(e, "shipping_carrier_ref", v.ShippingCarrierRef)
	kStr(e, "shipping_carrier_guid", v.ShippingCarrierGUID)
	v.Tracking.emitFields(e)
	e.EndObject()
}

// DecodeTracking decodes a get-shipment-tracking response.
func DecodeTracking(httpStatus int, body []byte) (ShipmentTracking, error) {
	var v ShipmentTracking
	err := decodeEnvelope(OpShipmentTracking, httpStatus, body, v.decode)
	return v, err
}
