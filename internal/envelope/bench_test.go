package envelope

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullShipmentBody returns the body of the full get-shipment vector.
func fullShipmentBody(t testing.TB) []byte {
	for _, v := range loadVectors(t) {
		if v.Operation == "get-shipment" && strings.HasPrefix(v.Name, "get-shipment.json: full shipment") {
			return []byte(v.Body)
		}
	}
	t.Fatal("full shipment vector not found")
	return nil
}

// Baseline: a straightforward encoding/json decoder into plain structs,
// with the same tolerance (numbers as strings via any, "" drop point,
// is_return/oudated spellings, history sorted newest first).

type stdEnvelope struct {
	Status string          `json:"status"`
	Data   json.RawMessage `json:"data"`
}

type stdEvent struct {
	TrackingCode    any    `json:"tracking_code"`
	TrackingName    string `json:"tracking_name"`
	TrackingDetails string `json:"tracking_details"`
	TrackingDate    string `json:"tracking_date"`
}

type stdParcel struct {
	ParcelNumber any `json:"parcel_number"`
	ParcelWeight any `json:"parcel_weight"`
	ParcelWidth  any `json:"parcel_width"`
	ParcelHeight any `json:"parcel_height"`
	ParcelLength any `json:"parcel_length"`
	ParcelVolume any `json:"parcel_volume"`
}

type stdDropPoint struct {
	CarrierCode  string            `json:"carrier_code"`
	DropPointKey any               `json:"drop_point_key"`
	Name         string            `json:"name"`
	Address      string            `json:"address"`
	ZipCode      any               `json:"zip_code"`
	City         string            `json:"city"`
	Latitude     any               `json:"latitude"`
	Longitude    any               `json:"longitude"`
	TimeTable    json.RawMessage   `json:"time_table"`
	Phone        any               `json:"phone"`
	timeTable    map[string]string `json:"-"`
}

type stdShipment struct {
	ShippingData struct {
		ShippingDlvrRef     string  `json:"shipping_dlvr_ref"`
		ShippingClientRef   string  `json:"shipping_client_ref"`
		ShippingCarrierRef  any     `json:"shipping_carrier_ref"`
		ShippingCarrierGUID string  `json:"shipping_carrier_guid"`
		ServiceType         any     `json:"service_type"`
		CarrierCode         string  `json:"carrier_code"`
		ServiceCode         string  `json:"service_code"`
		OriginalServiceCode string  `json:"original_service_code"`
		CreationDate        string  `json:"creation_date"`
		ShippingDate        string  `json:"shipping_date"`
		DeliveryDate        *string `json:"delivery_date"`
		DocsNumber          any     `json:"docs_number"`
		CarrierPhone        any     `json:"carrier_phone"`
		CarrierWebsite      string  `json:"carrier_website"`
		CarrierCountryCode  string  `json:"carrier_country_code"`
		IsReturned          any     `json:"is_returned"`
		IsReturn            any     `json:"is_return"`
		ReturnDlvrRef       string  `json:"return_dlvr_ref"`
		CashOnDelivery      any     `json:"cash_on_delivery"`
		Status              any     `json:"status"`
	} `json:"shipping_data"`
	Parcels       []stdParcel     `json:"parcels"`
	ParcelData    stdParcel       `json:"parcel_data"`
	ToData        map[string]any  `json:"to_data"`
	FromData      map[string]any  `json:"from_data"`
	DropPointRaw  json.RawMessage `json:"drop_point_data"`
	DropPointData *stdDropPoint   `json:"-"`
	SLAData       struct {
		TrackingStartDate     string `json:"tracking_start_date"`
		TrackingDeliveredDate string `json:"tracking_delivered_date"`
		TrackingCurrentCode   any    `json:"tracking_current_code"`
		HoursElapsed          any    `json:"hours_elapsed"`
		ServiceSLAHours       any    `json:"service_sla_hours"`
		DeliveryHourLimit     any    `json:"delivery_hour_limit"`
	} `json:"sla_data"`
	CustomCarrierParameters json.RawMessage `json:"custom_carrier_parameters"`
	TrackingEvents          struct {
		stdEvent
		TrackingHistory []stdEvent `json:"tracking_history"`
	} `json:"tracking_events"`
	TrackingData json.RawMessage `json:"tracking_data"`
	Outdated     any             `json:"outdated"`
	Oudated      any             `json:"oudated"`
}

func stdNumber(v any) (float64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case float64:
		return x, nil
	case string:
		if x == "" {
			return 0, nil
		}
		return strconv.ParseFloat(x, 64)
	}
	return 0, errors.New("not a number")
}

func stdDecodeShipment(body []byte) (*stdShipment, error) {
	var env stdEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, err
	}
	if env.Status != "ok" {
		return nil, errors.New("not ok")
	}
	var s stdShipment
	if err := json.Unmarshal(env.Data, &s); err != nil {
		return nil, err
	}
	if len(env.Data) > 0 && string(s.DropPointRaw) != `""` && string(s.DropPointRaw) != "null" {
		s.DropPointData = new(stdDropPoint)
		if err := json.Unmarshal(s.DropPointRaw, s.DropPointData); err != nil {
			return nil, err
		}
	}
	for _, p := range s.Parcels {
		for _, f := range []any{p.ParcelWeight, p.ParcelWidth, p.ParcelHeight, p.ParcelLength, p.ParcelVolume} {
			if _, err := stdNumber(f); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range []any{s.ShippingData.DocsNumber, s.ShippingData.Status, s.SLAData.HoursElapsed, s.SLAData.ServiceSLAHours} {
		if _, err := stdNumber(f); err != nil {
			return nil, err
		}
	}
	h := s.TrackingEvents.TrackingHistory
	sort.SliceStable(h, func(i, j int) bool { return h[i].TrackingDate > h[j].TrackingDate })
	return &s, nil
}

func TestBaselineAgrees(t *testing.T) {
	body := fullShipmentBody(t)
	std, err := stdDecodeShipment(body)
	require.NoError(t, err)
	ours, err := DecodeShipment(200, body)
	require.NoError(t, err)
	require.Len(t, ours.TrackingEvents.TrackingHistory, len(std.TrackingEvents.TrackingHistory))
	for i, ev := range std.TrackingEvents.TrackingHistory {
		assert.Equal(t, ev.TrackingDate, ours.TrackingEvents.TrackingHistory[i].TrackingDate)
	}
	assert.Equal(t, std.ToData["to_name"], ours.ToData.Name)
}

func BenchmarkDecodeShipment(b *testing.B) {
	body := fullShipmentBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeShipment(200, body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeShipmentEncodingJSON(b *testing.B) {
	body := fullShipmentBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := stdDecodeShipment(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmitShipment(b *testing.B) {
	s, err := DecodeShipment(200, fullShipmentBody(b))
	require.NoError(b, err)
	w := jsonlite.NewWriter()
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		s.EmitTo(w)
	}
}
