package booking

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
)

const (
	ttl   = int64(30 * 24 * 3600 * 1000)
	grace = int64(120 * 1000)
)

func TestFingerprint(t *testing.T) {
	a := Fingerprint([]byte("shipping_client_ref=A&to_name=Ana"))
	assert.Len(t, a, 64)
	assert.Equal(t, a, Fingerprint([]byte("shipping_client_ref=A&to_name=Ana")))
	assert.NotEqual(t, a, Fingerprint([]byte("shipping_client_ref=A&to_name=Bea")))
}

// Issue 29: any live holder of the key means wait, whatever the record
// says (none yet, lost, or a pending record of another turn); the old
// Decide waited only when the record's own holder was live, and took a
// key with no record whatever the live holder (a second holder).
func TestAnyLiveHolderMeansWait(t *testing.T) {
	now := int64(1_000_000)
	held := Live{Holder: "h1", Until: now + 1000}
	for name, rec := range map[string]*Record{
		"no record yet":          nil,
		"lost":                   {State: Lost, FP: "fp", Since: now - 10*grace, Expires: now + ttl},
		"another turn's pending": {State: Pending, FP: "fp", Holder: "h0", Since: now - 10*grace, Expires: now + ttl},
		"expired":                {State: Done, FP: "fp", Expires: now},
	} {
		a := Begin(&Request{Record: rec, Live: held, Now: now, FP: "fp", Holder: "h2", Grace: grace, TTL: ttl, WaitUntil: now + 1})
		assert.Equal(t, Wait, a.Verdict, name)
		assert.Nil(t, a.Record, "%s: nothing taken", name)
		a = Begin(&Request{Record: rec, Live: held, Now: now, FP: "fp", Holder: "h2", Grace: grace, TTL: ttl, WaitUntil: now})
		assert.Equal(t, Busy, a.Verdict, "%s: past the wait", name)
	}
	// Only a stored answer or other data is answered at once.
	assert.Equal(t, Replay, Begin(&Request{Record: &Record{State: Done, FP: "fp"}, Live: held, Now: now, FP: "fp"}).Verdict)
	assert.Equal(t, Conflict, Begin(&Request{Record: &Record{State: Lost, FP: "x"}, Live: held, Now: now, FP: "fp"}).Verdict)
	// Past its hold the holder is gone: its turn is ended and the key decided afresh.
	a := Begin(&Request{Live: Live{Holder: "h1", Until: now - 1}, Now: now, FP: "fp", Holder: "h2", Hold: 30, TTL: ttl})
	assert.Equal(t, Action{Verdict: Take, EndLive: true, LiveUntil: now + 30,
		Record: &Record{State: Pending, FP: "fp", Holder: "h2", Since: now, Expires: now + ttl}}, a)
}

func TestFinishOutcomes(t *testing.T) {
	rec := &Record{State: Pending, FP: "fp", Holder: "h", Since: 10, Prev: 5, Expires: 99}
	q := func(outcome string) *Request {
		return &Request{Record: rec, Live: Live{Holder: "h", Until: 1000}, Now: 20, Holder: "h", Outcome: outcome, TTL: ttl}
	}
	assert.Equal(t, Action{Verdict: Write, KeepBody: true, EndLive: true, Record: &Record{State: Done, FP: "fp", Expires: 20 + ttl}}, Finish(q(OutcomeOK)))
	assert.Equal(t, &Record{State: Lost, FP: "fp", Since: 10, Expires: 20 + ttl}, Finish(q(OutcomeLost)).Record, "the grace counts from the send")
	assert.Equal(t, &Record{State: Lost, FP: "fp", Since: 5, Expires: 20 + ttl}, Finish(q(OutcomeUnsent)).Record, "back to the lost record it looked up")
	assert.Equal(t, Delete, Finish(q(OutcomeRelease)).Verdict)
	rec.Prev = 0
	assert.Equal(t, Delete, Finish(q(OutcomeUnsent)).Verdict, "a new turn that sent nothing is forgotten")
	other := q(OutcomeOK)
	other.Holder = "h2"
	assert.Equal(t, Action{Verdict: Refuse}, Finish(other), "not its turn: nothing written")
	other.Record = &Record{State: Pending, FP: "fp", Holder: "h2", Expires: 20}
	assert.Equal(t, Action{Verdict: Refuse, Forget: true}, Finish(other), "expired: no turn, and the record is forgotten")
}

func TestTakeOver(t *testing.T) {
	old := &Record{State: Done, FP: "fp", Expires: 500}
	v, _ := TakeOver(nil, nil, false, false, 100)
	assert.Equal(t, Read, v)
	v, _ = TakeOver(nil, nil, true, false, 100)
	assert.Equal(t, None, v, "marked: taken over once already")
	v, at := TakeOver(nil, old, false, true, 100)
	assert.Equal(t, [2]any{Adopt, int64(500)}, [2]any{v, at})
	v, _ = TakeOver(&Record{State: Pending, FP: "fp", Expires: 900}, old, false, true, 100)
	assert.Equal(t, None, v, "a record here meanwhile wins")
	v, _ = TakeOver(nil, old, false, true, 500)
	assert.Equal(t, None, v, "expired")
	v, _ = TakeOver(nil, nil, false, true, 100)
	assert.Equal(t, None, v)
}

func TestSweep(t *testing.T) {
	expired, next := Sweep([]int64{5, 0, 50, 500, 10}, 10, 100)
	assert.Equal(t, []int{0, 1, 4}, expired)
	assert.Equal(t, int64(110), next, "no sooner than every")
	_, next = Sweep([]int64{500}, 10, 100)
	assert.Equal(t, int64(500), next)
	expired, next = Sweep([]int64{1}, 10, 100)
	assert.Equal(t, []int{0}, expired)
	assert.Zero(t, next, "nothing left: no alarm")
}

func TestRetryAfterSeconds(t *testing.T) {
	for ms, want := range map[int64]int64{0: 1, 1: 1, 999: 1, 1000: 1, 1001: 2, 119_500: 120} {
		assert.Equal(t, want, RetryAfterSeconds(ms), "%d ms", ms)
	}
	assert.Equal(t, int64(0), Remaining(0, 200, 100))
	assert.Equal(t, int64(50), Remaining(100, 150, 100))
}

const shipmentsBody = `{"status":"ok","data":{"page":1,"n_shipments":2,"shipments":[
 {"shipping_data":{"shipping_dlvr_ref":"D0","shipping_client_ref":"ORD-9","carrier_code":"rayo","service_code":"rayo-48","shipping_date":"2026-11-23"}},
 {"shipping_data":{"shipping_dlvr_ref":"D1","shipping_client_ref":"ORD-1","shipping_carrier_ref":"C1","shipping_carrier_guid":"G1",
   "service_type":"custom","carrier_code":"rayo","service_code":"rayo-24","original_service_code":"rayo-48","carrier_phone":"900",
   "shipping_date":"2026-11-23 00:00:00","status":"1"},
  "parcels":[{"parcel_weight":"2.50","parcel_width":"20"}],
  "to_data":{"to_name":"ÑANDÚ  & Co.","to_zip_code":"08001","to_country_code":"es","to_city":"BARCELONA"},
  "from_data":{"from_name":"Account default sender","from_zip_code":"99999"},
  "drop_point_data":""}]}}`

func request(kv ...string) *form.Request {
	r := &form.Request{Parcels: []form.Parcel{{Weight: "2.5"}}}
	base := []string{"shipping_client_ref", "ORD-1", "shipping_date", "2026-11-23", "service_type", "custom",
		"carrier_code", "rayo", "service_code", "rayo-48", "to_name", "Ñandú & Co", "to_zip_code", "08001",
		"to_country_code", "ES", "from_name", "Tienda", "from_zip_code", "28014", "to_city", "Barcelona"}
	for i := 0; i+1 < len(base); i += 2 {
		r.Set(base[i], base[i+1])
	}
	for i := 0; i+1 < len(kv); i += 2 {
		r.Set(kv[i], kv[i+1])
	}
	return r
}

func TestFindAndTheConflictRule(t *testing.T) {
	list, err := envelope.DecodeShipments(200, []byte(shipmentsBody))
	require.NoError(t, err)

	s, mis := Find(&list, "ORD-1", request())
	require.NotNil(t, s, "%v", mis)
	assert.Equal(t, "D1", s.ShippingData.ShippingDlvrRef)
	assert.Equal(t, `{"status":"ok","data":{"shipping_dlvr_ref":"D1","shipping_client_ref":"ORD-1","shipping_carrier_ref":"C1",`+
		`"shipping_carrier_guid":"G1","service_type":"custom","carrier_code":"rayo","service_code":"rayo-24","carrier_phone":"900"}}`,
		string(Answer(s)), "new-shipment's answer, nothing personal")

	s, mis = Find(&list, "ORD-2", request("shipping_client_ref", "ORD-2"))
	assert.Nil(t, s)
	assert.Nil(t, mis, "no shipment with the reference")

	cases := []struct {
		kv   []string
		want []string
	}{
		{[]string{"to_name", "Bea"}, []string{"to_name"}},
		{[]string{"to_zip_code", "08002"}, []string{"to_zip_code"}},
		{[]string{"to_country_code", "PT", "to_zip_code", "1100-053"}, []string{"to_zip_code", "to_country_code"}},
		{[]string{"shipping_date", "2026-11-24"}, []string{"shipping_date"}},
		{[]string{"carrier_code", "rapido"}, []string{"carrier_code"}},
		{[]string{"service_code", "rayo-72"}, []string{"service_code"}},
		{[]string{"service_type", "48"}, []string{"service_type"}},
		// Not compared: sender and addresses (the service may rewrite them).
		{[]string{"from_name", "Other shop", "from_zip_code", "28001", "to_city", "Badalona"}, nil},
		// Only when given: the rules feature leaves carrier and service out.
		{[]string{"carrier_code", "", "service_code", ""}, nil},
		// The service used a substitute: the original name still matches.
		{[]string{"service_code", "RAYO-24"}, nil},
	}
	for _, c := range cases {
		_, mis := Find(&list, "ORD-1", request(c.kv...))
		assert.Equal(t, c.want, mis, "%v", c.kv)
	}
	r := request()
	r.Parcels = append(r.Parcels, form.Parcel{Weight: "1"})
	assert.Equal(t, []string{"parcels"}, Mismatches(r, &list.Shipments[1]))
	// A drop point on one side only is not compared (an empty
	// drop_point_data); on both sides it is.
	assert.Empty(t, Mismatches(request("drop_point_key", "DP1"), &list.Shipments[1]))
	s2 := list.Shipments[1]
	s2.DropPointData = &envelope.DropPoint{DropPointKey: "DP2"}
	assert.Equal(t, []string{"drop_point_key"}, Mismatches(request("drop_point_key", "DP1"), &s2))
	// Fields the shipment leaves empty are no evidence.
	assert.Empty(t, Mismatches(request(), &envelope.Shipment{}))
}

func TestFindPrefersTheMatchingShipment(t *testing.T) {
	list := envelope.Shipments{Shipments: []envelope.Shipment{
		{ShippingData: envelope.ShippingData{ShippingDlvrRef: "X", ShippingClientRef: "R", CarrierCode: "other"}},
		{ShippingData: envelope.ShippingData{ShippingDlvrRef: "Y", ShippingClientRef: "R", CarrierCode: "rayo"}},
	}}
	s, _ := Find(&list, "R", request("shipping_client_ref", "R"))
	require.NotNil(t, s)
	assert.Equal(t, "Y", s.ShippingData.ShippingDlvrRef)
}

func TestSameZipAndName(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1234-AB", "1234 ab", true}, {"F-75001", "75001", true}, {"75001", "FR75001", true},
		{"I-00100", "00100", true}, {"AD100", "AD100", true}, {"AD100", "100", true}, {"AD100", "AD200", false},
		{"75001", "75002", false}, {"1100-053", "1100053", true}, {"12345", "012345", false},
	} {
		assert.Equal(t, c.want, sameZip(c.a, c.b), "%s %s", c.a, c.b)
	}
	assert.True(t, sameName("Ana & Co", "ANA CO."))
	assert.True(t, sameName("Ñandú Müller-Łódź", "nandu muller lodz"))
	assert.True(t, sameName("Straße", "STRASSE"))
	assert.True(t, sameName("Œuvre Æsir", "oeuvre aesir"))
	assert.False(t, sameName("Ana", "Ana Maria"))
}

// A shipment the service did not make (-1) or cancelled (-2) is never the
// answer to a lost booking, even with the request's data.
func TestFindNeverAdoptsAShipmentNotMadeOrCancelled(t *testing.T) {
	for _, st := range []int64{envelope.ShipmentNotMade, envelope.ShipmentCancelled} {
		list := envelope.Shipments{Shipments: []envelope.Shipment{
			{ShippingData: envelope.ShippingData{ShippingDlvrRef: "X", ShippingClientRef: "R", CarrierCode: "rayo", Status: st}},
		}}
		s, mis := Find(&list, "R", request("shipping_client_ref", "R"))
		assert.Nil(t, s, "status %d", st)
		assert.Equal(t, []string{"status"}, mis)
		// A made one beside it is still found.
		list.Shipments = append(list.Shipments, envelope.Shipment{ShippingData: envelope.ShippingData{ShippingDlvrRef: "Y", ShippingClientRef: "R", Status: envelope.ShipmentOK}})
		s, _ = Find(&list, "R", request("shipping_client_ref", "R"))
		require.NotNil(t, s)
		assert.Equal(t, "Y", s.ShippingData.ShippingDlvrRef)
	}
}

// The service's filter may ignore case: a shipment it returns under the
// reference in another case is a candidate, never skipped (skipped, the
// lookup would conclude "not booked" and book again).
func TestFindFoldsTheReferencesCase(t *testing.T) {
	list := envelope.Shipments{Shipments: []envelope.Shipment{
		{ShippingData: envelope.ShippingData{ShippingDlvrRef: "X", ShippingClientRef: "ord-1", CarrierCode: "other"}},
	}}
	s, mis := Find(&list, "ORD-1", request())
	assert.Nil(t, s)
	assert.Equal(t, []string{"carrier_code"}, mis)
}

func TestIncomplete(t *testing.T) {
	list := envelope.Shipments{Shipments: make([]envelope.Shipment, LookupPageSize-1)}
	assert.False(t, Incomplete(&list))
	list.Shipments = append(list.Shipments, envelope.Shipment{})
	assert.True(t, Incomplete(&list), "a full page: more may follow")
}
