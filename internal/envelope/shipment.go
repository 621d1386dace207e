package envelope

// Shipment status values (ShippingData.Status).
const (
	ShipmentOK        = 1  // everything went well
	ShipmentNotMade   = -1 // the shipment was not made
	ShipmentCancelled = -2 // the shipment was cancelled
)

// ShippingData is the shipping_data block of a shipment.
type ShippingData struct {
	ShippingDlvrRef     string     `wire:"shipping_dlvr_ref"`
	ShippingClientRef   string     `wire:"shipping_client_ref"`
	ShippingCarrierRef  string     `wire:"shipping_carrier_ref"`
	ShippingCarrierGUID string     `wire:"shipping_carrier_guid"`
	ServiceType         string     `wire:"service_type"`
	CarrierCode         string     `wire:"carrier_code"`
	ServiceCode         string     `wire:"service_code"`
	OriginalServiceCode string     `wire:"original_service_code"`
	CreationDate        string     `wire:"creation_date,as=date"`
	ShippingDate        string     `wire:"shipping_date,as=date"`
	DeliveryDate        string     `wire:"delivery_date,as=date"` // "" while undelivered
	DocsNumber          int64      `wire:"docs_number"`
	CarrierPhone        string     `wire:"carrier_phone"`
	CarrierWebsite      string     `wire:"carrier_website"`
	CarrierCountryCode  string     `wire:"carrier_country_code"`
	IsReturned          bool       `wire:"is_returned,alias=is_return"` // the shipment is a return
	ReturnDlvrRef       string     `wire:"return_dlvr_ref"`
	CashOnDelivery      string     `wire:"cash_on_delivery"` // amount, as sent
	Status              int64      `wire:"status"`           // ShipmentOK, ShipmentNotMade or ShipmentCancelled
	Extra               RawMembers `wire:",extra"`
}

// Parcel is one parcel: weight in kg, dimensions in cm.
//
//envelope:tsname ShipmentParcel
type Parcel struct {
	ParcelWeight float64    `wire:"parcel_weight"`
	ParcelWidth  float64    `wire:"parcel_width"`
	ParcelHeight float64    `wire:"parcel_height"`
	ParcelLength float64    `wire:"parcel_length"`
	ParcelVolume float64    `wire:"parcel_volume"`
	Extra        RawMembers `wire:",extra"`
}

// ParcelData is the parcel_data block: a parcel number and parcel fields.
type ParcelData struct {
	ParcelNumber string `wire:"parcel_number"` // as sent
	Parcel
	Extra RawMembers `wire:",extra"`
}

// Party is a sender (from_data) or a recipient (to_data). Its keys on the
// wire carry the prefix ("from_nif", "to_nif"); either prefix is read.
type Party struct {
	Prefix       string     `wire:",prefix=from_|to_"` // "from_" or "to_"
	Nif          string     `wire:"nif"`
	Name         string     `wire:"name"`
	Attn         string     `wire:"attn"`
	Address      string     `wire:"address"`
	City         string     `wire:"city"`
	ZipCode      string     `wire:"zip_code"`
	CountryCode  string     `wire:"country_code"`
	Phone        string     `wire:"phone"`
	Mobile       string     `wire:"mobile"`
	Email        string     `wire:"email"`
	Observations string     `wire:"observations"`
	StreetType   string     `wire:"street_type"`
	StreetNumber string     `wire:"street_number"`
	StreetName   string     `wire:"street_name"`
	Floor        string     `wire:"floor"`
	Extra        RawMembers `wire:",extra"`
}

// SLAData is the sla_data block: the period within which the carrier must
// deliver.
type SLAData struct {
	TrackingStartDate     string     `wire:"tracking_start_date,as=date"`
	TrackingDeliveredDate string     `wire:"tracking_delivered_date,as=date"` // "" while undelivered
	TrackingCurrentCode   string     `wire:"tracking_current_code"`           // two digits when known
	HoursElapsed          float64    `wire:"hours_elapsed"`
	ServiceSLAHours       float64    `wire:"service_sla_hours"`
	DeliveryHourLimit     string     `wire:"delivery_hour_limit"` // as sent
	Extra                 RawMembers `wire:",extra"`
}

// afterDecode is a hook: tracking codes are two digits.
func (v *SLAData) afterDecode() {
	v.TrackingCurrentCode = normTrackingCode(v.TrackingCurrentCode)
}

// TrackingEvent is one tracking event.
type TrackingEvent struct {
	TrackingCode    string     `wire:"tracking_code"` // two digits ("01".."30") when known
	TrackingName    string     `wire:"tracking_name"`
	TrackingDetails string     `wire:"tracking_details"`
	TrackingDate    string     `wire:"tracking_date,as=date"`      // YYYY-MM-DD HH:MM:SS
	Category        string     `wire:"tracking_category,emitonly"` // display category of the code (Category* constants)
	Extra           RawMembers `wire:",extra"`
}

// Describe returns the table entry of the event's code.
func (t TrackingEvent) Describe() (TrackingCode, bool) { return DescribeTracking(t.TrackingCode) }

// afterDecode is a hook: two-digit codes and their display category.
func (t *TrackingEvent) afterDecode() {
	t.TrackingCode = normTrackingCode(t.TrackingCode)
	t.Category = trackingCategory(t.TrackingCode)
}

// Tracking is the current state of a shipment and its history.
type Tracking struct {
	TrackingEvent                   // the current state
	TrackingHistory []TrackingEvent `wire:"tracking_history"` // newest first
	Extra           RawMembers      `wire:",extra"`
}

// afterDecode is a hook: the history is sorted newest first (stable, by
// tracking_date) and, when the current code is missing, the newest event
// is the current state (the spec: the latest event is the current state).
func (t *Tracking) afterDecode() {
	if h := t.TrackingHistory; len(h) > 1 {
		sorted := make([]TrackingEvent, len(h))
		for k, i := range stableOrder(len(h), func(i, j int) bool { return h[i].TrackingDate > h[j].TrackingDate }) {
			sorted[k] = h[i]
		}
		t.TrackingHistory = sorted
	}
	if t.TrackingCode == "" && len(t.TrackingHistory) > 0 {
		t.TrackingEvent = t.TrackingHistory[0]
		t.TrackingEvent.Extra = nil // the event's own members stay in the history
	}
}

// newestFirst is a tracking history, newest first (afterDecode sorts it by
// tracking_date, descending: dates are "YYYY-MM-DD HH:MM:SS", so byte
// order is time order; events without a date go last).
type newestFirst []TrackingEvent

// Shipment is the result of get-shipment (and an entry of get-shipments).
//
//envelope:result get-shipment
type Shipment struct {
	ShippingData            ShippingData `wire:"shipping_data"`
	Parcels                 []Parcel     `wire:"parcels"`
	ParcelData              ParcelData   `wire:"parcel_data"`
	ToData                  Party        `wire:"to_data,prefix=to_"`
	FromData                Party        `wire:"from_data,prefix=from_"`
	DropPointData           *DropPoint   `wire:"drop_point_data"`                        // nil when no drop point ("" on the wire)
	SLAData                 SLAData      `wire:"sla_data"`                               //
	CustomCarrierParameters []byte       `wire:"custom_carrier_parameters,as=rawObject"` // compact JSON; nil when absent
	TrackingEvents          *Tracking    `wire:"tracking_events"`                        // nil when absent (get-shipments)
	TrackingData            []byte       `wire:"tracking_data,as=rawObject"`             // compact JSON; nil when absent
	Outdated                bool         `wire:"outdated,alias=oudated"`                 // documented as oudated
	Extra                   RawMembers   `wire:",extra"`
}

// Shipments is the result of get-shipments.
//
//envelope:result get-shipments
type Shipments struct {
	Page       int64      `wire:"page"`
	NShipments int64      `wire:"n_shipments,seen=hasN"` // len(Shipments) when absent
	Shipments  []Shipment `wire:"shipments"`             // without tracking data
	Extra      RawMembers `wire:",extra"`
	hasN       bool
}

// afterDecode is a hook: n_shipments defaults to the page's length.
func (v *Shipments) afterDecode() {
	if !v.hasN {
		v.NShipments = int64(len(v.Shipments))
	}
}

// ShipmentTracking is the result of get-shipment-tracking.
//
//envelope:result get-shipment-tracking
type ShipmentTracking struct {
	ShippingDlvrRef     string     `wire:"shipping_dlvr_ref"`
	ShippingClientRef   string     `wire:"shipping_client_ref"`
	ShippingCarrierRef  string     `wire:"shipping_carrier_ref"`
	ShippingCarrierGUID string     `wire:"shipping_carrier_guid"`
	Tracking                       // current state and history
	Extra               RawMembers `wire:",extra"`
}
