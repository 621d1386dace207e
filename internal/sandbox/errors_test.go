package sandbox

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewShipmentErrors(t *testing.T) {
	base := shipmentReq("E1", "rayo", "rayo-24")
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, tc := range []struct {
		name  string
		req   params
		code  int
		field string
	}{
		{"date in the past", base.with("shipping_date", "2026-05-08"), 101, "shipping_date"},
		{"saturday", base.with("shipping_date", "2026-05-16"), 102, "shipping_date"},
		{"too far ahead", base.with("shipping_date", "2026-07-01"), 119, "shipping_date"},
		{"bad date", base.with("shipping_date", "2026-13-01"), 402, "shipping_date"},
		{"weight", base.with("parcels[0][parcel_weight]", "50"), 103, "parcels[0][parcel_weight]"},
		{"volume", base.with("parcels[0][parcel_volume]", "300000"), 104, "parcels[0][parcel_volume]"},
		{"width", base.with("parcels[0][parcel_width]", "130"), 105, "parcels[0][parcel_width]"},
		{"length", base.with("parcels[0][parcel_length]", "130"), 106, "parcels[0][parcel_length]"},
		{"height", base.with("parcels[0][parcel_height]", "110"), 107, "parcels[0][parcel_height]"},
		{"second parcel", append(base, parcel(1, "1", "10", "10", "10", "1000").with("parcels[1][parcel_height]", "101")...), 107, "parcels[1][parcel_height]"},
		{"unknown carrier", base.with("carrier_code", "acme"), 108, "carrier_code"},
		{"deactivated carrier", base.with("carrier_code", "nube", "service_code", "nube-24"), 108, "carrier_code"},
		{"deactivated service", base.with("carrier_code", "mundo-cargo", "service_code", "mundo-96"), 108, "service_code"},
		{"service of another carrier", base.with("service_code", "tortuga-72"), 108, "service_code"},
		{"zone not covered", base.with("to_zip_code", "35001", "to_city", "Las Palmas"), 117, "to_zip_code"},
		{"drop point with a home service", base.with("drop_point_key", "RY-ES-41001-1"), 400, "drop_point_key"},
		{"unknown drop point", base.with("service_code", "rayo-shop", "drop_point_key", "RY-ES-41001-9"), 400, "drop_point_key"},
		{"drop point of another carrier", base.with("service_code", "rayo-shop", "drop_point_key", "TT-ES-41001-1"), 400, "drop_point_key"},
		{"unknown extra field", base.with("gift_wrap", "1"), 400, "gift_wrap"},
		{"bad extra flag", base.with("saturday_delivery", "2"), 400, "saturday_delivery"},
		{"bad extra decimal", base.with("cash_on_delivery", "12,50"), 400, "cash_on_delivery"},
		{"service type without rules", base.with("service_type", "24"), 400, "service_type"},
		{"missing from_address", base.without("from_address"), 400, "from_address"},
		{"client ref too long", base.with("shipping_client_ref", long(16)), 421, "shipping_client_ref"},
		{"bad weight", base.with("parcels[0][parcel_weight]", "abc"), 423, "parcels[0][parcel_weight]"},
		{"bad volume", base.with("parcels[0][parcel_volume]", "-1"), 424, "parcels[0][parcel_volume]"},
		{"missing width", base.without("parcels[0][parcel_width]"), 425, "parcels[0][parcel_width]"},
		{"bad length", base.with("parcels[0][parcel_length]", "1e3x"), 426, "parcels[0][parcel_length]"},
		{"bad height", base.with("parcels[0][parcel_height]", "0"), 427, "parcels[0][parcel_height]"},
		{"missing from_name", base.without("from_name"), 460, "from_name"},
		{"long from_nif", base.with("from_nif", long(21)), 461, "from_nif"},
		{"missing to_name", base.without("to_name"), 480, "to_name"},
		{"long to_nif", base.with("to_nif", long(21)), 481, "to_nif"},
		{"missing to_city", base.without("to_city"), 483, "to_city"},
		{"bad to_zip_code", base.with("to_zip_code", "999"), 484, "to_zip_code"},
		{"bad to_country_code", base.with("to_country_code", "XX"), 485, "to_country_code"},
		{"long to_attn", base.with("to_attn", long(21)), 486, "to_attn"},
		{"bad to_phone", base.with("to_phone", "call me"), 487, "to_phone"},
		{"bad to_email", base.with("to_email", "nope"), 488, "to_email"},
		{"no parcels", base.without("parcels[0][parcel_weight]", "parcels[0][parcel_width]", "parcels[0][parcel_height]", "parcels[0][parcel_length]", "parcels[0][parcel_volume]"), 400, "parcels"},
		{"unknown parcel field", base.with("parcels[0][parcel_colour]", "red"), 400, "parcels[0][parcel_colour]"},
		{"bad parcel index", base.with("parcels[x][parcel_weight]", "1"), 400, "parcels[x][parcel_weight]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			r := e.call(http.MethodPost, "new-shipment", tc.req)
			e.failCode(r, http.StatusBadRequest, tc.code, tc.field)
			assert.Equal(t, 0, e.store.Len(), "nothing stored")
		})
	}
}

func TestHolidayIsNotAWorkingDay(t *testing.T) {
	e := newEnv(t)
	e.clock.set(time.Date(2026, 11, 30, 10, 0, 0, 0, cet))
	r := e.call(http.MethodPost, "new-shipment", shipmentReq("H1", "rayo", "rayo-24").with("shipping_date", "2026-12-08"))
	e.failCode(r, 400, 102, "shipping_date")
	assert.Contains(t, r.data()["errorMessage"], "Inmaculada Concepción")
}

func TestIdempotentBooking(t *testing.T) {
	e := newEnv(t)
	req := shipmentReq("SAME-1", "rayo", "rayo-24")
	first := e.ok(http.MethodPost, "new-shipment", req)
	n := e.store.Len()
	// Same data, other field order, a day later (the date is now past):
	// the first booking's answer again, nothing new stored.
	e.clock.advance(30 * time.Hour)
	rev := make(params, len(req))
	for i := range req {
		rev[len(req)-1-i] = req[i]
	}
	again := e.ok(http.MethodPost, "new-shipment", rev)
	assert.Equal(t, first, again)
	assert.Equal(t, n, e.store.Len())
	// Different data: 421.
	r := e.call(http.MethodPost, "new-shipment", req.with("to_name", "Otra Persona"))
	e.failCode(r, 400, 421, "shipping_client_ref")
	list := e.ok(http.MethodGet, "get-shipments", nil)
	assert.Equal(t, float64(1), list["n_shipments"])
}

func TestNewCollectionErrors(t *testing.T) {
	e := newEnv(t)
	dlvr := e.ok(http.MethodPost, "new-shipment", shipmentReq("S1", "rayo", "rayo-shop"))["shipping_dlvr_ref"].(string)
	mundo := e.ok(http.MethodPost, "new-shipment", shipmentReq("S2", "mundo-cargo", "mundo-144").with("to_country_code", "FR", "to_zip_code", "75001", "to_city", "Paris"))["shipping_dlvr_ref"].(string)
	base := collectionReq("C1", dlvr)
	for _, tc := range []struct {
		name   string
		req    params
		status int
		code   int
		field  string
	}{
		{"too early", base.with("hour_start_1", "07:00"), 400, 109, "hour_start_1"},
		{"too late", base.with("hour_end_1", "21:00"), 400, 110, "hour_end_1"},
		{"not half hour", base.with("hour_start_1", "09:15"), 400, 111, "hour_start_1"},
		{"window too short", base.with("hour_end_1", "10:00"), 400, 432, "hour_end_1"},
		{"window reversed", base.with("hour_start_1", "13:00", "hour_end_1", "09:00"), 400, 432, "hour_end_1"},
		{"second window too late", base.with("hour_start_2", "15:00", "hour_end_2", "21:00"), 400, 110, "hour_end_2"},
		{"second window off the half hour", base.with("hour_start_2", "15:00", "hour_end_2", "18:45"), 400, 111, "hour_end_2"},
		{"second window alone", base.with("hour_start_2", "15:00"), 400, 432, "hour_end_2"},
		{"bad hour_start_1", base.with("hour_start_1", "9am"), 400, 403, "hour_start_1"},
		{"bad hour_end_1", base.with("hour_end_1", "25:00"), 400, 404, "hour_end_1"},
		{"bad hour_start_2", base.with("hour_start_2", "x", "hour_end_2", "18:00"), 400, 405, "hour_start_2"},
		{"bad hour_end_2", base.with("hour_start_2", "15:00", "hour_end_2", "y"), 400, 406, "hour_end_2"},
		{"missing to_phone", base.without("to_phone"), 400, 487, "to_phone"},
		{"saturday", base.with("collection_date", "2026-05-16"), 400, 102, "collection_date"},
		{"past", base.with("collection_date", "2026-05-08"), 400, 101, "collection_date"},
		{"no pickups", collectionReq("C2", mundo).with("carrier_code", "mundo-cargo", "service_code", "mundo-144"), 400, 108, "carrier_code"},
		{"unknown shipment", base.with("shipping_dlvr_ref", "SBX0000000000"), 404, 400, "shipping_dlvr_ref"},
		{"other carrier", base.with("carrier_code", "tortuga"), 400, 400, "carrier_code"},
		{"other service", base.with("service_code", "rayo-24"), 400, 400, "service_code"},
		{"extra field", base.with("gift_wrap", "1"), 400, 400, "gift_wrap"},
		{"client ref too long", base.with("collection_client_ref", strings.Repeat("c", 16)), 400, 421, "collection_client_ref"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.call(http.MethodPost, "new-collection", tc.req)
			e.failCode(r, tc.status, tc.code, tc.field)
		})
	}
	// After the cut-off, today's pickup is refused.
	e.clock.set(time.Date(2026, 5, 11, 18, 30, 0, 0, cest))
	e.failCode(e.call(http.MethodPost, "new-collection", base.with("collection_date", "2026-05-11")), 400, 101, "collection_date")
	e.clock.set(t0)
	// Idempotent by collection_client_ref; 421 with other data; one
	// collection per shipment.
	first := e.ok(http.MethodPost, "new-collection", base)
	assert.Equal(t, first, e.ok(http.MethodPost, "new-collection", base))
	e.failCode(e.call(http.MethodPost, "new-collection", base.with("hour_end_1", "14:00")), 400, 421, "collection_client_ref")
	e.failCode(e.call(http.MethodPost, "new-collection", collectionReq("C3", dlvr)), 400, 400, "shipping_dlvr_ref")
}

func TestReadErrors(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		op     string
		req    params
		status int
		code   int
		field  string
	}{
		{"get-service-info", route.with("carrier_code", "acme", "service_code", "acme-24"), 400, 108, "carrier_code"},
		{"get-service-info", route.with("carrier_code", "rayo", "service_code", "rayo-24", "to_zip_code", "35001"), 400, 117, "to_zip_code"},
		{"get-service-info", route.with("service_code", "rayo-24"), 400, 400, "carrier_code"},
		{"get-drop-points", params{{"country_code", "ES"}, {"zip_code", "41001"}, {"carrier_code", "alisio"}}, 400, 469, "carrier_code"},
		{"get-drop-points", params{{"country_code", "ES"}, {"zip_code", "41001"}, {"carrier_code", "nube"}}, 400, 108, "carrier_code"},
		{"get-drop-points", params{{"country_code", "ES"}, {"zip_code", "4100"}}, 400, 400, "zip_code"},
		{"get-collection-cutoff-hour", params{{"country_code", "ES"}, {"zip_code", "28013"}, {"to_country_code", "FR"}, {"to_zip_code", "75001"}, {"carrier_code", "mundo-cargo"}}, 400, 108, "carrier_code"},
		{"get-collection-cutoff-hour", params{{"country_code", "ES"}, {"zip_code", "28013"}, {"to_country_code", "US"}, {"to_zip_code", "10001"}, {"carrier_code", "rayo"}}, 400, 117, "to_zip_code"},
		{"get-shipment", params{{"dlvr_ref", "SBX0000000000"}}, 404, 400, "dlvr_ref"},
		{"get-shipment", params{{"dlvr_ref", "nope"}}, 404, 400, "dlvr_ref"},
		{"get-shipment", nil, 400, 400, "dlvr_ref"},
		{"get-shipment-label", params{{"shipping_carrier_ref", "008200000000000"}}, 404, 400, "shipping_carrier_ref"},
		{"get-shipment-label", nil, 400, 400, "dlvr_ref"},
		{"get-shipment-tracking", params{{"client_ref", "NOPE"}}, 404, 400, "client_ref"},
		{"get-shipment-tracking", params{{"carrier_ref", "123"}, {"carrier_code", "rayo"}}, 404, 400, "carrier_ref"},
		{"get-shipment-tracking", params{{"carrier_ref", "123"}}, 400, 400, "carrier_code"},
		{"get-shipment-tracking", nil, 400, 400, "dlvr_ref"},
		{"get-shipments", params{{"n_items", "51"}}, 400, 400, "n_items"},
		{"get-shipments", params{{"filter_date_ini", "2026-05-12"}, {"filter_date_end", "2026-05-11"}}, 400, 400, "filter_date_end"},
		{"get-client-services", params{{"colour", "red"}}, 400, 400, "colour"},
		{"get-shipments-rates", route, 400, 400, "parcels"},
		{"get-shipment-time-arrival-estimation", route, 400, 402, "shipping_date"},
	} {
		t.Run(tc.op, func(t *testing.T) {
			e.failCode(e.call(http.MethodGet, tc.op, tc.req), tc.status, tc.code, tc.field)
		})
	}
}

func TestAuthMethodAndRouting(t *testing.T) {
	e := newEnv(t, WithCredentials("shop", "s3cret"))
	for _, auth := range []func(r *http.Request){
		func(r *http.Request) {},
		func(r *http.Request) { r.SetBasicAuth("shop", "wrong") },
		func(r *http.Request) { r.SetBasicAuth("other", "s3cret") },
		func(r *http.Request) { r.Header.Set("Authorization", "Bearer s3cret") },
		func(r *http.Request) { r.Header.Set("Authorization", "Basic !!!") },
	} {
		r := httptest.NewRequest(http.MethodGet, "/v1/get-client-carriers", nil)
		auth(r)
		res := e.do(r, "get-client-carriers")
		e.failCode(res, 401, 401, "")
		assert.Contains(t, res.Header.Get("WWW-Authenticate"), "Basic")
	}
	// Unauthenticated requests learn nothing, not even that an operation
	// does not exist.
	e.failCode(e.do(httptest.NewRequest(http.MethodGet, "/v1/nope", nil), ""), 401, 401, "")

	req := func(method, path, body string) *http.Request {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.SetBasicAuth("shop", "s3cret")
		return r
	}
	ok := e.do(req(http.MethodGet, "/v1/get-client-carriers", ""), "get-client-carriers")
	assert.Equal(t, 200, ok.Status)
	ok = e.do(req(http.MethodPost, "/get-client-carriers/", ""), "get-client-carriers")
	assert.Equal(t, 200, ok.Status, "path without /v1, trailing slash")
	e.failCode(e.do(req(http.MethodGet, "/v1/get-everything", ""), ""), 404, 400, "")
	e.failCode(e.do(req(http.MethodGet, "/v2/get-client-carriers", ""), ""), 404, 400, "")
	r := e.do(req(http.MethodGet, "/v1/new-shipment", ""), "new-shipment")
	e.failCode(r, 405, 400, "")
	assert.Equal(t, "POST", r.Header.Get("Allow"))
	r = e.do(req(http.MethodDelete, "/v1/get-shipment", ""), "get-shipment")
	e.failCode(r, 405, 400, "")
	assert.Equal(t, "GET, POST", r.Header.Get("Allow"))
	e.failCode(e.do(req(http.MethodPost, "/v1/get-shipment", "dlvr_ref=%zz"), "get-shipment"), 400, 400, "dlvr_ref")
	e.failCode(e.do(req(http.MethodPost, "/v1/get-shipment", "dlvr_ref=a&dlvr_ref=b"), "get-shipment"), 400, 400, "dlvr_ref")
	big := "dlvr_ref=" + strings.Repeat("a", MaxBodyBytes)
	e.failCode(e.do(req(http.MethodPost, "/v1/get-shipment", big), "get-shipment"), 413, 400, "")
}

// failingStore fails every call.
type failingStore struct{}

var errDown = errors.New("kv unavailable")

func (failingStore) Get(context.Context, string) ([]byte, bool, error) { return nil, false, errDown }
func (failingStore) Put(context.Context, string, []byte) error         { return errDown }
func (failingStore) List(context.Context, string) ([]string, error)    { return nil, errDown }

func TestStoreFailure(t *testing.T) {
	e := newEnv(t, WithStore(failingStore{}))
	for _, c := range []struct {
		method, op string
		req        params
	}{
		{http.MethodPost, "new-shipment", shipmentReq("F1", "rayo", "rayo-24")},
		{http.MethodGet, "get-shipment", params{{"dlvr_ref", "SBX0000000001"}}},
		{http.MethodGet, "get-shipments", nil},
		{http.MethodGet, "get-shipment-tracking", params{{"client_ref", "F1"}}},
	} {
		r := e.call(c.method, c.op, c.req)
		e.failCode(r, 500, 999, "")
		assert.Contains(t, r.data()["errorMessage"], "kv unavailable")
	}
	// Operations that need no state still work.
	require.Equal(t, 200, e.call(http.MethodGet, "get-client-carriers", nil).Status)
}
