package sandbox

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClientCarriersAndServices(t *testing.T) {
	e := newEnv(t)
	cs := e.ok(http.MethodGet, "get-client-carriers", nil)
	assert.Len(t, cs, 7)
	active := 0
	for _, c := range cs {
		if c.(map[string]any)["status"] == float64(1) {
			active++
		}
	}
	assert.Equal(t, 5, active)
	assert.Equal(t, float64(0), cs["viejaPostal"].(map[string]any)["status"])

	// POST works for reads too.
	all := e.call(http.MethodPost, "get-client-services", nil)
	require.Equal(t, 200, all.Status)
	list := all.JSON["data"].([]any)
	assert.GreaterOrEqual(t, len(list), 15)
	types := map[string]bool{}
	for _, s := range list {
		types[s.(map[string]any)["service_type"].(string)] = true
	}
	for _, want := range []string{"24", "48", "72", "96", "120", "144", "264", "24-48", "48-72", "48/72"} {
		assert.True(t, types[want], "a service of type %s", want)
	}
	for _, tc := range []struct {
		p    params
		want int
	}{
		{params{{"carrier_code", "rayo"}}, 5},
		{params{{"service_code", "tortuga-point"}}, 1},
		{params{{"status", "0"}}, 3}, // mundo-96, and the services of the two deactivated carriers
		{params{{"carrier_code", "acme"}}, 0},
	} {
		r := e.call(http.MethodGet, "get-client-services", tc.p)
		require.Equal(t, 200, r.Status)
		got, _ := r.JSON["data"].([]any)
		assert.Len(t, got, tc.want, "%v", tc.p)
	}
}

func TestRatesAndArrivalByZone(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name            string
		fc, fz, tc, tz  string
		wantIn, wantOut string
	}{
		{"urban", "ES", "28013", "ES", "28001", "rayo-urgent-14", "alisio-96"},
		{"balearic", "ES", "28013", "ES", "07001", "alisio-24-48", "rayo-urgent-14"},
		{"canary", "ES", "28013", "ES", "38001", "alisio-islas-48", "rayo-24"},
		{"ceuta", "ES", "28013", "ES", "51001", "alisio-96", "tortuga-48-72"},
		{"national PT", "PT", "1000-001", "PT", "4000-001", "eurolink-72", "mundo-144"},
		{"eu", "ES", "28013", "FR", "75001", "mundo-144", "rayo-24"},
		{"world", "ES", "28013", "AD", "AD500", "mundo-264", "eurolink-72"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := params{{"from_country_code", tc.fc}, {"from_zip_code", tc.fz}, {"to_country_code", tc.tc}, {"to_zip_code", tc.tz}}
			rates := e.ok(http.MethodGet, "get-shipments-rates", append(r, parcels1...))
			codes := map[string]bool{}
			for _, s := range rates["services"].([]any) {
				codes[s.(map[string]any)["service_code"].(string)] = true
			}
			assert.True(t, codes[tc.wantIn], "%s offered", tc.wantIn)
			assert.False(t, codes[tc.wantOut], "%s not offered", tc.wantOut)
			assert.False(t, codes["nube-24"] || codes["mundo-96"], "deactivated services never offered")
			arr := e.ok(http.MethodGet, "get-shipment-time-arrival-estimation", r.with("shipping_date", "2026-05-12"))
			assert.Len(t, arr["services"], len(rates["services"].([]any)))
		})
	}
	// Heavier parcels cost more; volumetric weight counts; a parcel beyond
	// a carrier's bounds drops its services from the rates.
	light := e.ok(http.MethodGet, "get-shipments-rates", append(route, parcel(0, "1", "10", "10", "10", "1000")...))
	bulky := e.ok(http.MethodGet, "get-shipments-rates", append(route, parcel(0, "1", "50", "50", "50", "125000")...))
	heavy := e.ok(http.MethodGet, "get-shipments-rates", append(route, parcel(0, "35", "10", "10", "10", "1000")...))
	two := e.ok(http.MethodGet, "get-shipments-rates", append(append(route, parcel(0, "1", "10", "10", "10", "1000")...), parcel(1, "1", "10", "10", "10", "1000")...))
	price := func(d map[string]any, code string) float64 {
		for _, s := range d["services"].([]any) {
			if s.(map[string]any)["service_code"] == code {
				f, _ := strconv.ParseFloat(s.(map[string]any)["price"].(string), 64)
				return f
			}
		}
		return -1
	}
	assert.Equal(t, 4.90, price(light, "rayo-48"))
	assert.Equal(t, 4.90+0.45*24, price(bulky, "rayo-48")) // 125000/5000 = 25 kg
	assert.Equal(t, 9.07, price(two, "rayo-48"))           // 4.90 + 4.90 x 0.85, rounded
	assert.Equal(t, -1.0, price(heavy, "tortuga-72"), "tortuga takes 30 kg at most")
	assert.Greater(t, price(heavy, "rayo-48"), 0.0)

	// Working days: Friday 2026-04-03 is Good Friday; shipping on Thursday
	// 2026-04-02 with a 48 h service arrives on Tuesday 2026-04-07 (Monday
	// the 6th is a regional holiday only).
	arr := e.ok(http.MethodGet, "get-shipment-time-arrival-estimation", route.with("shipping_date", "2026-04-02"))
	for _, s := range arr["services"].([]any) {
		m := s.(map[string]any)
		if m["service_code"] == "rayo-48" {
			assert.Equal(t, "2026-04-07", m["estimated_delivery_date"])
			assert.Equal(t, float64(2), m["working_days"])
		}
	}
}

func TestDropPoints(t *testing.T) {
	e := newEnv(t)
	a := e.ok(http.MethodGet, "get-drop-points", params{{"country_code", "ES"}, {"zip_code", "08001"}})
	b := e.ok(http.MethodGet, "get-drop-points", params{{"country_code", "ES"}, {"zip_code", "08001"}})
	assert.Equal(t, a, b, "deterministic")
	pts := a["drop_points"].([]any)
	carriersSeen := map[string]int{}
	for _, p := range pts {
		m := p.(map[string]any)
		carriersSeen[m["carrier_code"].(string)]++
		assert.Equal(t, "Barcelona", m["city"])
		lat, _ := strconv.ParseFloat(m["latitude"].(string), 64)
		assert.InDelta(t, 41.39, lat, 0.05)
		tt := m["time_table"].(map[string]any)
		assert.Len(t, tt, 7)
		assert.Regexp(t, `^\d{2}:\d{2} - \d{2}:\d{2}$`, tt["mon"])
		found, ok := findDropPoint(m["drop_point_key"].(string))
		require.True(t, ok)
		assert.Equal(t, m["name"], found.Name)
	}
	assert.Equal(t, []string{"rayo", "tortuga"}, keys(map[string]any{"rayo": carriersSeen["rayo"], "tortuga": carriersSeen["tortuga"]}))
	assert.Len(t, carriersSeen, 2, "only carriers with drop-point services")
	for _, n := range carriersSeen {
		assert.GreaterOrEqual(t, n, 3)
		assert.LessOrEqual(t, n, 5)
	}
	// Palma: only Rayo Shop reaches the Balearic Islands; Paris: EuroLink;
	// Andorra: nobody.
	palma := e.ok(http.MethodGet, "get-drop-points", params{{"country_code", "ES"}, {"zip_code", "07001"}})["drop_points"].([]any)
	require.NotEmpty(t, palma)
	for _, p := range palma {
		assert.Equal(t, "rayo", p.(map[string]any)["carrier_code"])
	}
	paris := e.ok(http.MethodGet, "get-drop-points", params{{"country_code", "FR"}, {"zip_code", "75001"}})["drop_points"].([]any)
	require.NotEmpty(t, paris)
	assert.Equal(t, "eurolink", paris[0].(map[string]any)["carrier_code"])
	ad := e.ok(http.MethodGet, "get-drop-points", params{{"country_code", "AD"}, {"zip_code", "AD500"}})
	assert.Empty(t, ad["drop_points"])
}

func TestServiceInfoSchemasAgreeWithValidation(t *testing.T) {
	e := newEnv(t)
	info := e.ok(http.MethodGet, "get-service-info", route.with("carrier_code", "rayo", "service_code", "rayo-24"))
	methods := info["available_methods"].(map[string]any)
	assert.Equal(t, false, methods["get-drop-points"])
	schema := info["schemas"].(map[string]any)["new-shipment"].(map[string]any)
	assert.Equal(t, "http://json-schema.org/draft-04/schema#", schema["$schema"])
	assert.Equal(t, false, schema["additionalProperties"])
	props := schema["properties"].(map[string]any)
	assert.Contains(t, props["service_type"].(map[string]any)["pattern"], "(?:custom)")
	assert.Contains(t, props, "saturday_delivery")
	assert.Contains(t, props, "cash_on_delivery")
	assert.NotContains(t, props, "insurance_value")

	// Every schema property is accepted; a property outside it is refused.
	req := shipmentReq("SCH-1", "rayo", "rayo-24").with("saturday_delivery", "1", "cash_on_delivery", "12.50")
	for _, kv := range req {
		name := kv[0]
		if len(name) > 8 && name[:8] == "parcels[" {
			continue
		}
		assert.Contains(t, props, name)
	}
	ok := e.ok(http.MethodPost, "new-shipment", req)
	sh := e.ok(http.MethodGet, "get-shipment", params{{"dlvr_ref", ok["shipping_dlvr_ref"].(string)}})
	assert.Equal(t, "12.50", sh["shipping_data"].(map[string]any)["cash_on_delivery"])
	assert.Equal(t, map[string]any{"saturday_delivery": "1", "cash_on_delivery": "12.50"}, sh["custom_carrier_parameters"])
	e.failCode(e.call(http.MethodPost, "new-shipment", shipmentReq("SCH-2", "rayo", "rayo-24").with("insurance_value", "10")), 400, 400, "insurance_value")

	// Every required property is required.
	for _, f := range schema["required"].([]any) {
		name := f.(string)
		if name == "parcels" {
			continue
		}
		r := e.call(http.MethodPost, "new-shipment", shipmentReq("SCH-3", "rayo", "rayo-24").without(name))
		assert.Equal(t, name, r.data()["field"], "%s", r.Body)
	}

	// A carrier without collections does not offer new-collection.
	mundo := e.ok(http.MethodGet, "get-service-info", route.with("carrier_code", "mundo-cargo", "service_code", "mundo-144", "to_country_code", "FR", "to_zip_code", "75001"))
	assert.Equal(t, false, mundo["available_methods"].(map[string]any)["new-collection"])
	assert.NotContains(t, mundo["schemas"], "new-collection")
}

func TestRulesAccount(t *testing.T) {
	e := newEnv(t, WithRules(true))
	info := e.ok(http.MethodGet, "get-service-info", route)
	props := info["schemas"].(map[string]any)["new-shipment"].(map[string]any)["properties"].(map[string]any)
	assert.Contains(t, props["service_type"].(map[string]any)["pattern"], "(?:24|48|72)")
	req := shipmentReq("RULES-1", "", "").without("carrier_code", "service_code", "parcels[0][parcel_weight]").with("service_type", "48", "insurance_value", "20")
	b := e.ok(http.MethodPost, "new-shipment", req)
	assert.Equal(t, "rayo-shop", b["service_code"], "the cheapest service within 48 h (tortuga-point, cheaper, takes 72 h)")
	sh := e.ok(http.MethodGet, "get-shipment", params{{"dlvr_ref", b["shipping_dlvr_ref"].(string)}})
	sd := sh["shipping_data"].(map[string]any)
	assert.Equal(t, "", sd["original_service_code"])
	assert.Equal(t, "48", sd["service_type"])
	assert.Equal(t, []any{}, sh["custom_carrier_parameters"], "extras of other carriers are dropped")
	e.failCode(e.call(http.MethodPost, "new-shipment", req.with("shipping_client_ref", "RULES-2", "service_type", "custom")), 400, 400, "service_type")
	e.failCode(e.call(http.MethodPost, "new-shipment", req.with("shipping_client_ref", "RULES-3", "service_type", "24", "to_zip_code", "35001")), 400, 108, "service_type")
}

func TestShipmentsFiltersAndPagination(t *testing.T) {
	e := newEnv(t)
	var refs []string
	for i := 0; i < 23; i++ {
		carrier, service := "rayo", "rayo-24"
		if i%3 == 0 {
			carrier, service = "tortuga", "tortuga-72"
		}
		b := e.ok(http.MethodPost, "new-shipment", shipmentReq("P-"+strconv.Itoa(i), carrier, service).with("shipping_date", "2026-05-15"))
		refs = append(refs, b["shipping_dlvr_ref"].(string))
		e.clock.advance(3 * time.Hour) // spans three days
	}
	page := func(p params) (int, []string) {
		d := e.ok(http.MethodGet, "get-shipments", p)
		var out []string
		for _, s := range d["shipments"].([]any) {
			out = append(out, s.(map[string]any)["shipping_data"].(map[string]any)["shipping_client_ref"].(string))
		}
		assert.Equal(t, float64(len(out)), d["n_shipments"])
		return int(d["page"].(float64)), out
	}
	p, first := page(nil)
	assert.Equal(t, 1, p)
	assert.Len(t, first, 10)
	assert.Equal(t, "P-22", first[0], "newest first")
	_, third := page(params{{"page", "3"}})
	assert.Equal(t, []string{"P-2", "P-1", "P-0"}, third)
	_, empty := page(params{{"page", "4"}})
	assert.Empty(t, empty)
	_, all := page(params{{"n_items", "50"}})
	assert.Len(t, all, 23)
	_, tort := page(params{{"filter_carrier_code", "tortuga"}, {"n_items", "3"}, {"page", "2"}})
	assert.Equal(t, []string{"P-12", "P-9", "P-6"}, tort)
	_, svc := page(params{{"filter_service_code", "rayo-24"}, {"n_items", "50"}})
	assert.Len(t, svc, 15)
	_, one := page(params{{"filter_shipping_client_ref", "P-5"}})
	assert.Equal(t, []string{"P-5"}, one)
	_, byDlvr := page(params{{"filter_shipping_dlvr_ref", refs[7]}})
	assert.Equal(t, []string{"P-7"}, byDlvr)
	rec, err := e.sb.loadShipment(context.Background(), refs[4])
	require.NoError(t, err)
	_, byCarrier := page(params{{"filter_shipping_carrier_ref", rec.CarrierRef}})
	assert.Equal(t, []string{"P-4"}, byCarrier)
	_, byGUID := page(params{{"filter_shipping_carrier_guid", rec.GUID}})
	assert.Equal(t, []string{"P-4"}, byGUID)
	// Created from Monday 10:00 every 3 h: Monday has 5 (10..22 h), Tuesday 8.
	_, mon := page(params{{"filter_date_end", "2026-05-11"}, {"n_items", "50"}})
	assert.Len(t, mon, 5)
	_, tue := page(params{{"filter_date_ini", "2026-05-12"}, {"filter_date_end", "2026-05-12"}, {"n_items", "50"}})
	assert.Len(t, tue, 8)
}

func TestStorageRoundTrip(t *testing.T) {
	e := newEnv(t)
	b := e.ok(http.MethodPost, "new-shipment", shipmentReq("RT-1", "rayo", "rayo-shop").with("drop_point_key", "RY-ES-41001-1", "cash_on_delivery", "3"))
	dlvr := b["shipping_dlvr_ref"].(string)
	e.ok(http.MethodPost, "new-collection", collectionReq("RTC-1", dlvr).with("hour_start_2", "15:00", "hour_end_2", "18:00"))
	raw, ok, err := e.store.Get(context.Background(), keyShipment+dlvr)
	require.NoError(t, err)
	require.True(t, ok)
	var rec ShipmentRecord
	rest, err := rec.UnmarshalMsg(raw)
	require.NoError(t, err)
	assert.Empty(t, rest)
	assert.Equal(t, "RT-1", rec.ClientRef)
	assert.Equal(t, "RY-ES-41001-1", rec.DropPoint.Key)
	assert.Equal(t, "15:00", rec.Collection.Start2)
	assert.Equal(t, []ExtraRecord{{"cash_on_delivery", "3"}}, rec.Extras)
	again, err := rec.MarshalMsg(nil)
	require.NoError(t, err)
	assert.Equal(t, raw, again, "stable encoding")
	assert.Less(t, len(raw), 1024, "compact")

	// A second sandbox on the same store (a fresh worker instance) sees
	// everything.
	other := New(WithClock(e.clock.now), WithStore(e.store))
	e2 := &env{t: t, sb: other, clock: e.clock, store: e.store}
	sh := e2.ok(http.MethodGet, "get-shipment", params{{"dlvr_ref", dlvr}})
	assert.Equal(t, "RT-1", sh["shipping_data"].(map[string]any)["shipping_client_ref"])
	assert.Equal(t, "02", sh["tracking_events"].(map[string]any)["tracking_code"])
}

func TestRefs(t *testing.T) {
	k := findCarrier("rayo")
	d := dlvrRef("sandbox", "ORDER-1", 0)
	assert.Equal(t, d, dlvrRef("sandbox", "ORDER-1", 0))
	assert.NotEqual(t, d, dlvrRef("sandbox", "ORDER-1", 1))
	assert.NotEqual(t, d, dlvrRef("other", "ORDER-1", 0))
	cr := carrierRef(k, d)
	back, kk, ok := dlvrFromCarrierRef(cr)
	require.True(t, ok)
	assert.Equal(t, d, back)
	assert.Equal(t, k, kk)
	bad := []byte(cr)
	bad[5] = '0' + (bad[5]-'0'+1)%10
	_, _, ok = dlvrFromCarrierRef(string(bad))
	assert.False(t, ok, "check digit")
	assert.Equal(t, guid(d), guid(d))
}

func TestMadridTime(t *testing.T) {
	for _, tc := range []struct {
		utc  time.Time
		want string
	}{
		{time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC), "2026-01-15 13:00 CET"},
		{time.Date(2026, 3, 29, 0, 59, 0, 0, time.UTC), "2026-03-29 01:59 CET"},
		{time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC), "2026-03-29 03:00 CEST"},
		{time.Date(2026, 10, 25, 0, 59, 0, 0, time.UTC), "2026-10-25 02:59 CEST"},
		{time.Date(2026, 10, 25, 1, 0, 0, 0, time.UTC), "2026-10-25 02:00 CET"},
	} {
		assert.Equal(t, tc.want, madrid(tc.utc).Format("2006-01-02 15:04 MST"))
	}
	assert.Equal(t, "2026-07-01 06:30 UTC", atMadrid(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), 8*60+30).UTC().Format("2006-01-02 15:04 MST"))
}

// countingStore counts record reads.
type countingStore struct {
	*MemoryStore
	gets int
}

func (s *countingStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	s.gets++
	return s.MemoryStore.Get(ctx, key)
}

// A filter that matches nothing reads at most MaxShipmentScan records, not
// the whole store.
func TestShipmentsScanIsBounded(t *testing.T) {
	st := &countingStore{MemoryStore: NewMemoryStore()}
	e := newEnv(t, WithStore(st))
	ctx := context.Background()
	for i := 0; i < MaxShipmentScan+200; i++ {
		key := keyIndex + "20261101" + strconv.Itoa(100000+i) + "/SBX" + strconv.Itoa(100000+i)
		require.NoError(t, st.MemoryStore.Put(ctx, key, nil))
	}
	st.gets = 0
	r := e.ok(http.MethodGet, "get-shipments", params{{"filter_shipping_client_ref", "NOBODY"}})
	assert.EqualValues(t, 0, r["n_shipments"])
	assert.LessOrEqual(t, st.gets, MaxShipmentScan+5)
	assert.Greater(t, st.gets, MaxShipmentScan/2, "the scan did read records")
}
