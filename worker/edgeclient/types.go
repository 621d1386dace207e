package edgeclient

import (
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
)

// Operation is the name of an operation of the edge (and of the service):
// one of the Op constants.
type Operation string

// Params are the parameters of one operation: one of the generated
// <Operation>Params structs, which know their operation (see Client.Call).
type Params interface {
	operation() Operation
	// request is the form to send, or the Client's refusal of
	// contradictory parameters (nothing sent).
	request() (*form.Request, *Error)
}

// Request parameters. They are the types of the form codec the edge
// itself decodes with, so what a shop sends is what the edge reads.
type (
	// Parcel is one entry of the parcels list; values are the strings
	// sent on the wire (a point as the decimal separator).
	Parcel = form.Parcel
	// Field is a carrier-specific extra field of a booking, by wire name.
	Field = form.Field
)

// Results: the typed results of the operations, decoded by
// internal/envelope's generated decoders (numbers sent as strings, PHP's
// [] for {}, the service's spelling variants already read; see that
// package's documentation, mirrored on each type).
type (
	Carriers         = envelope.Carriers
	Carrier          = envelope.Carrier
	CarrierRef       = envelope.CarrierRef
	Services         = envelope.Services
	Service          = envelope.Service
	Rates            = envelope.Rates
	RateService      = envelope.RateService
	ArrivalEstimates = envelope.ArrivalEstimates
	ArrivalService   = envelope.ArrivalService
	ServiceInfo      = envelope.ServiceInfo
	MethodList       = envelope.MethodList
	RawMember        = envelope.RawMember
	RawMembers       = envelope.RawMembers
	DropPoints       = envelope.DropPoints
	DropPoint        = envelope.DropPoint
	TimeTable        = envelope.TimeTable
	NewShipment      = envelope.NewShipment
	Cutoff           = envelope.Cutoff
	Collection       = envelope.Collection
	Label            = envelope.Label
	Shipment         = envelope.Shipment
	Shipments        = envelope.Shipments
	ShipmentTracking = envelope.ShipmentTracking
	ShippingData     = envelope.ShippingData
	Party            = envelope.Party
	SLAData          = envelope.SLAData
	Tracking         = envelope.Tracking
	TrackingEvent    = envelope.TrackingEvent
	TrackingCode     = envelope.TrackingCode
	ParcelData       = envelope.ParcelData
	// ShipmentParcel is a parcel of a booked shipment (envelope.Parcel);
	// Parcel is the one of a request.
	ShipmentParcel = envelope.Parcel
	// FieldError is one invalid field of a 400 (Error.FieldErrors).
	FieldError = envelope.FieldError
)
