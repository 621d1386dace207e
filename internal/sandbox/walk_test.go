package sandbox

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var route = params{
	{"from_country_code", "ES"}, {"from_zip_code", "28013"},
	{"to_country_code", "ES"}, {"to_zip_code", "41001"},
}

var parcels1 = parcel(0, "2", "20", "10", "30", "6000")

// shipmentReq is a valid new-shipment request for Tuesday 2026-05-12.
func shipmentReq(ref, carrierCode, serviceCode string) params {
	p := params{
		{"shipping_date", "2026-05-12"}, {"service_type", "custom"},
		{"carrier_code", carrierCode}, {"service_code", serviceCode},
		{"shipping_client_ref", ref},
		{"from_name", "Tienda Ejemplo SL"}, {"from_address", "Polígono Norte 14"}, {"from_city", "Madrid"},
		{"from_zip_code", "28013"}, {"from_country_code", "ES"}, {"from_phone", "910000000"},
		{"to_name", "Lucía Pérez"}, {"to_address", "Calle Río 3, 2ºB"}, {"to_city", "Sevilla"},
		{"to_zip_code", "41001"}, {"to_country_code", "es"}, {"to_phone", "600000001"},
		{"to_email", "lucia@example.com"}, {"to_observations", "sandbox:deliver"},
	}
	return append(p, parcels1...)
}

func collectionReq(ref, dlvr string) params {
	return params{
		{"collection_date", "2026-05-12"}, {"hour_start_1", "09:00"}, {"hour_end_1", "13:00"},
		{"carrier_code", "rayo"}, {"service_code", "rayo-shop"}, {"shipping_dlvr_ref", dlvr},
		{"collection_client_ref", ref},
		{"from_name", "Tienda Ejemplo SL"}, {"from_address", "Polígono Norte 14"}, {"from_city", "Madrid"},
		{"from_zip_code", "28013"}, {"from_country_code", "ES"},
		{"to_name", "Lucía Pérez"}, {"to_address", "Calle Río 3"}, {"to_city", "Sevilla"},
		{"to_zip_code", "41001"}, {"to_country_code", "ES"}, {"to_phone", "600000001"},
	}
}

// TestWalk goes from rates to delivered: rates, arrival, service info,
// drop points, new-shipment, label, cut-off, collection, tracking over an
// advancing clock, get-shipment, get-shipments.
func TestWalk(t *testing.T) {
	e := newEnv(t)

	rates := e.ok(http.MethodGet, "get-shipments-rates", append(route, parcels1...))
	best := rates["best_price_service"].(map[string]any)
	assert.Equal(t, "tortuga-point", best["service_code"])
	assert.Equal(t, "4.01", best["price"]) // (4.90 + 0.45 x 1 kg) x 0.75
	svcs := rates["services"].([]any)
	require.NotEmpty(t, svcs)
	prev := 0.0
	for _, s := range svcs {
		p, _ := strconv.ParseFloat(s.(map[string]any)["price"].(string), 64)
		assert.GreaterOrEqual(t, p, prev)
		prev = p
	}

	arr := e.ok(http.MethodGet, "get-shipment-time-arrival-estimation", route.with("shipping_date", "2026-05-12"))
	fast := arr["bestArrivalTime"].(map[string]any)
	assert.Equal(t, float64(24), fast["transit_hours"])
	assert.Equal(t, "2026-05-13", fast["estimated_delivery_date"])

	info := e.ok(http.MethodGet, "get-service-info", route.with("carrier_code", "rayo", "service_code", "rayo-shop"))
	methods := info["available_methods"].(map[string]any)
	assert.Equal(t, true, methods["new-shipment"])
	assert.Equal(t, true, methods["new-collection"])
	assert.Equal(t, true, methods["get-drop-points"])

	dps := e.ok(http.MethodGet, "get-drop-points", params{{"country_code", "ES"}, {"zip_code", "41001"}, {"carrier_code", "rayo"}})
	points := dps["drop_points"].([]any)
	require.GreaterOrEqual(t, len(points), 3)
	dp := points[0].(map[string]any)
	assert.Equal(t, "Sevilla", dp["city"])

	booked := e.ok(http.MethodPost, "new-shipment", shipmentReq("ORDER-1001", "rayo", "rayo-shop").with("drop_point_key", dp["drop_point_key"].(string)))
	dlvr := booked["shipping_dlvr_ref"].(string)
	carrierRef := booked["shipping_carrier_ref"].(string)
	assert.Regexp(t, `^SBX\d{10}$`, dlvr)
	assert.Regexp(t, `^0082\d{11}$`, carrierRef)
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, booked["shipping_carrier_guid"])
	assert.Equal(t, "900100101", booked["carrier_phone"])
	assert.Equal(t, "https://track.sandbox.parcelgate.example/"+dlvr, booked["advance_tracking_url"])

	for _, p := range []params{{{"dlvr_ref", dlvr}}, {{"shipping_carrier_ref", carrierRef}}} {
		lbl := e.ok(http.MethodGet, "get-shipment-label", p)
		pdf, err := base64.StdEncoding.DecodeString(lbl["label_raw"].(string))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(pdf, []byte("%PDF-1.4")))
		assert.Contains(t, string(pdf), "("+carrierRef+") Tj")
		assert.Contains(t, string(pdf), "(Client: ORDER-1001) Tj")
	}

	cut := e.ok(http.MethodGet, "get-collection-cutoff-hour", params{{"country_code", "ES"}, {"zip_code", "28013"}, {"to_country_code", "ES"}, {"to_zip_code", "41001"}, {"carrier_code", "rayo"}})
	assert.Equal(t, "18:00", cut["cutoff"])

	col := e.ok(http.MethodPost, "new-collection", collectionReq("PICK-1", dlvr))
	assert.Regexp(t, `^SBC\d{10}$`, col["collection_dlvr_ref"])
	assert.Equal(t, "PICK-1", col["collection_client_ref"])

	// Tracking over time: the current code, hour by hour, goes through
	// every state in order.
	var seen []string
	for e.clock.t.Before(time.Date(2026, 5, 16, 9, 0, 0, 0, cest)) {
		code := e.ok(http.MethodGet, "get-shipment-tracking", params{{"dlvr_ref", dlvr}})["tracking_code"].(string)
		if len(seen) == 0 || seen[len(seen)-1] != code {
			seen = append(seen, code)
		}
		e.clock.advance(30 * time.Minute)
	}
	assert.Equal(t, []string{"02", "03", "05", "06", "08", "10", "30", "11"}, seen)
	// Out for delivery on Thursday (48 h service picked up on Tuesday).
	e.clock.set(time.Date(2026, 5, 14, 9, 30, 0, 0, cest))
	assert.Equal(t, "10", e.ok(http.MethodGet, "get-shipment-tracking", params{{"dlvr_ref", dlvr}})["tracking_code"])
	e.clock.set(time.Date(2026, 5, 16, 9, 0, 0, 0, cest))
	tr := e.ok(http.MethodGet, "get-shipment-tracking", params{{"carrier_ref", carrierRef}, {"carrier_code", "rayo"}})
	assert.Equal(t, "11", tr["tracking_code"])
	hist := tr["tracking_history"].([]any)
	var seq []string
	for _, h := range hist {
		seq = append(seq, h.(map[string]any)["tracking_code"].(string))
	}
	assert.Equal(t, []string{"11", "30", "10", "08", "06", "05", "03", "02", "01"}, seq)
	// Same answer by client reference.
	tr2 := e.ok(http.MethodGet, "get-shipment-tracking", params{{"client_ref", "ORDER-1001"}})
	assert.Equal(t, tr, tr2)

	sh := e.ok(http.MethodGet, "get-shipment", params{{"dlvr_ref", dlvr}})
	for _, block := range []string{"shipping_data", "parcels", "parcel_data", "to_data", "from_data", "drop_point_data", "sla_data", "custom_carrier_parameters", "tracking_events", "tracking_data", "outdated"} {
		assert.Contains(t, sh, block)
	}
	sd := sh["shipping_data"].(map[string]any)
	assert.Equal(t, "rayo-shop", sd["service_code"])
	assert.Equal(t, "rayo-shop", sd["original_service_code"])
	assert.Equal(t, "2026-05-11 10:00:00", sd["creation_date"])
	assert.Equal(t, "2026-05-15 ", sd["delivery_date"].(string)[:11])
	assert.Equal(t, "ES", sh["to_data"].(map[string]any)["to_country_code"])
	assert.Equal(t, dp["drop_point_key"], sh["drop_point_data"].(map[string]any)["drop_point_key"])
	sla := sh["sla_data"].(map[string]any)
	assert.Equal(t, "11", sla["tracking_current_code"])
	assert.Equal(t, float64(48), sla["service_sla_hours"])
	assert.Equal(t, "2026-05-14 20:00:00", sla["delivery_hour_limit"])

	list := e.ok(http.MethodGet, "get-shipments", params{{"filter_carrier_code", "rayo"}})
	assert.Equal(t, float64(1), list["n_shipments"])
	entry := list["shipments"].([]any)[0].(map[string]any)
	assert.NotContains(t, entry, "tracking_events")
	assert.NotContains(t, entry, "tracking_data")
}

func TestTrackingOutcomes(t *testing.T) {
	for _, tc := range []struct {
		marker string
		want   []string
	}{
		{"sandbox:deliver", []string{"11", "10", "08", "06", "05", "03", "01"}},
		{"sandbox:absent", []string{"11", "10", "12", "10", "08", "06", "05", "03", "01"}},
		{"sandbox:address-error", []string{"17", "15", "13", "10", "08", "06", "05", "03", "01"}},
		{"sandbox:refused", []string{"17", "14", "10", "08", "06", "05", "03", "01"}},
	} {
		t.Run(tc.marker, func(t *testing.T) {
			e := newEnv(t)
			b := e.ok(http.MethodPost, "new-shipment", shipmentReq("R1", "rayo", "rayo-24").with("to_observations", tc.marker))
			e.clock.set(time.Date(2026, 5, 25, 12, 0, 0, 0, cest))
			tr := e.ok(http.MethodGet, "get-shipment-tracking", params{{"dlvr_ref", b["shipping_dlvr_ref"].(string)}})
			var seq []string
			prev := "9999"
			for _, h := range tr["tracking_history"].([]any) {
				ev := h.(map[string]any)
				seq = append(seq, ev["tracking_code"].(string))
				assert.Less(t, ev["tracking_date"].(string), prev, "newest first")
				prev = ev["tracking_date"].(string)
			}
			assert.Equal(t, tc.want, seq)
			sh := e.ok(http.MethodGet, "get-shipment", params{{"dlvr_ref", b["shipping_dlvr_ref"].(string)}})
			if tc.want[0] == "11" {
				assert.NotNil(t, sh["shipping_data"].(map[string]any)["delivery_date"])
			} else {
				assert.Nil(t, sh["shipping_data"].(map[string]any)["delivery_date"])
			}
		})
	}
}

// TestTimeScale: with a factor of 3600 an hour of tracking passes in a
// second.
func TestTimeScale(t *testing.T) {
	e := newEnv(t, WithTimeScale(3600))
	b := e.ok(http.MethodPost, "new-shipment", shipmentReq("R1", "rayo", "rayo-24"))
	ref := params{{"dlvr_ref", b["shipping_dlvr_ref"].(string)}}
	assert.Equal(t, "01", e.ok(http.MethodGet, "get-shipment-tracking", ref)["tracking_code"])
	e.clock.advance(2 * time.Minute) // two virtual days
	assert.Equal(t, "11", e.ok(http.MethodGet, "get-shipment-tracking", ref)["tracking_code"])
}

// TestClockHeader: X-Sandbox-Now sets the clock when enabled, and is
// ignored otherwise.
func TestClockHeader(t *testing.T) {
	e := newEnv(t, WithClockHeader(true))
	b := e.ok(http.MethodPost, "new-shipment", shipmentReq("R1", "rayo", "rayo-24"))
	ref := params{{"dlvr_ref", b["shipping_dlvr_ref"].(string)}}
	r := e.call(http.MethodGet, "get-shipment-tracking", ref, HeaderNow, "2026-05-20T12:00:00+02:00")
	assert.Equal(t, "11", r.data()["tracking_code"])
	r = e.call(http.MethodGet, "get-shipment-tracking", ref, HeaderNow, "yesterday")
	e.failCode(r, 400, 400, "")

	off := newEnv(t)
	b = off.ok(http.MethodPost, "new-shipment", shipmentReq("R1", "rayo", "rayo-24"))
	r = off.call(http.MethodGet, "get-shipment-tracking", params{{"dlvr_ref", b["shipping_dlvr_ref"].(string)}}, HeaderNow, "2026-05-20T12:00:00+02:00")
	assert.Equal(t, "01", r.data()["tracking_code"])
}
