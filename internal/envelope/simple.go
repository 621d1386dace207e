package envelope

// NewShipment is the result of new-shipment.
//
//envelope:result new-shipment
type NewShipment struct {
	ShippingDlvrRef     string     `wire:"shipping_dlvr_ref"`
	ShippingClientRef   string     `wire:"shipping_client_ref"`
	ShippingCarrierRef  string     `wire:"shipping_carrier_ref"`
	ShippingCarrierGUID string     `wire:"shipping_carrier_guid"`
	ServiceType         string     `wire:"service_type"`
	CarrierCode         string     `wire:"carrier_code"`
	ServiceCode         string     `wire:"service_code"`
	CarrierPhone        string     `wire:"carrier_phone"`
	AdvanceTrackingURL  string     `wire:"advance_tracking_url"`
	Extra               RawMembers `wire:",extra"`
}

// Cutoff is the result of get-collection-cutoff-hour.
//
//envelope:result get-collection-cutoff-hour
type Cutoff struct {
	CountryCode string     `wire:"country_code"` // sender country
	ZipCode     string     `wire:"zip_code"`     // sender postal code
	Cutoff      string     `wire:"cutoff"`       // HH:MM
	Extra       RawMembers `wire:",extra"`
}

// Collection is the result of new-collection.
//
//envelope:result new-collection
type Collection struct {
	CollectionDlvrRef    string     `wire:"collection_dlvr_ref"`
	CollectionClientRef  string     `wire:"collection_client_ref"`
	CollectionCarrierRef string     `wire:"collection_carrier_ref"`
	CarrierCode          string     `wire:"carrier_code"`
	ServiceCode          string     `wire:"service_code"`
	CarrierPhone         string     `wire:"carrier_phone"`
	Extra                RawMembers `wire:",extra"`
}

// Label is the result of get-shipment-label. label_raw must be base64 of
// a PDF, else the error names data.label_raw.
//
//envelope:result get-shipment-label
//envelope:tsname ShipmentLabel
type Label struct {
	ShippingDlvrRef     string     `wire:"shipping_dlvr_ref"`
	ShippingClientRef   string     `wire:"shipping_client_ref"`
	ShippingCarrierRef  string     `wire:"shipping_carrier_ref"`
	ShippingCarrierGUID string     `wire:"shipping_carrier_guid"`
	PDF                 []byte     `wire:"label_raw,as=pdf,required"` // base64-decoded; starts with "%PDF-"
	Extra               RawMembers `wire:",extra"`
}
