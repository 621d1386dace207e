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

// The whole life of a record whose first answer was lost: nothing is sent
// during the grace, one caller looks it up after it.
func TestLostAnswerWaitsOutTheGraceThenLooksUp(t *testing.T) {
	now := int64(1_000_000)
	v, _ := Decide(nil, "fp", false, now, grace)
	require.Equal(t, Take, v)
	rec := Taken(nil, "fp", "h1", now, ttl)
	assert.Equal(t, Record{State: Pending, FP: "fp", Holder: "h1", Since: now, Expires: now + ttl}, rec)

	// While the holder works, duplicates wait; other data conflicts.
	v, _ = Decide(&rec, "fp", true, now+10, grace)
	assert.Equal(t, Wait, v)
	v, _ = Decide(&rec, "other", true, now+10, grace)
	assert.Equal(t, Conflict, v)

	// The answer is lost at the timeout (3 s after sending).
	next, ok := Settle(&rec, "h1", OutcomeLost, nil, now+3000, ttl)
	require.True(t, ok)
	assert.Equal(t, Lost, next.State)
	assert.Equal(t, now, next.Since, "the grace counts from the send")

	v, after := Decide(next, "fp", false, now+3001, grace)
	assert.Equal(t, Unknown, v)
	assert.Equal(t, grace-3001, after)
	v, after = Decide(next, "fp", false, now+grace-1, grace)
	assert.Equal(t, Unknown, v)
	assert.Equal(t, int64(1), after)
	v, _ = Decide(next, "other", false, now+5000, grace)
	assert.Equal(t, Conflict, v, "other data is a conflict whatever the state")

	// After the grace one caller takes it to look the booking up.
	v, _ = Decide(next, "fp", false, now+grace, grace)
	require.Equal(t, Lookup, v)
	look := Taken(next, "fp", "h2", now+grace, ttl)
	assert.Equal(t, now, look.Prev)
	v, _ = Decide(&look, "fp", true, now+grace+1, grace)
	assert.Equal(t, Wait, v, "the looking-up holder is waited for")

	// Its lookup fails: back to lost with the old since (no new grace).
	back, ok := Settle(&look, "h2", OutcomeUnsent, nil, now+grace+50, ttl)
	require.True(t, ok)
	assert.Equal(t, Lost, back.State)
	assert.Equal(t, now, back.Since)
	v, _ = Decide(back, "fp", false, now+grace+60, grace)
	assert.Equal(t, Lookup, v)

	// Next time the lookup finds nothing: the holder books, and the grace
	// of that send starts when it sends.
	look = Taken(back, "fp", "h3", now+grace+60, ttl)
	sent, ok := Sending(&look, "h3", now+grace+100)
	require.True(t, ok)
	assert.Equal(t, now+grace+100, sent.Since)
	assert.Zero(t, sent.Prev)
	_, ok = Sending(&look, "h2", now+grace+100)
	assert.False(t, ok, "only the holder sends")
	done, ok := Settle(&sent, "h3", OutcomeOK, []byte("answer"), now+grace+200, ttl)
	require.True(t, ok)
	v, _ = Decide(done, "fp", false, now+grace+300, grace)
	assert.Equal(t, Replay, v)
	assert.Equal(t, []byte("answer"), done.Body)
}

// A pending record nobody is known to hold (the ledger restarted, or its
// holder passed its hold) is a lost answer.
func TestPendingWithoutALiveHolderIsALostAnswer(t *testing.T) {
	now := int64(5_000)
	rec := Taken(nil, "fp", "h1", now, ttl)
	v, after := Decide(&rec, "fp", false, now+1000, grace)
	assert.Equal(t, Unknown, v)
	assert.Equal(t, grace-1000, after)
	v, _ = Decide(&rec, "fp", false, now+grace, grace)
	assert.Equal(t, Lookup, v)

	// The vanished holder comes back after another caller took the record:
	// its outcome is refused, the new holder's stands.
	look := Taken(&rec, "fp", "h2", now+grace, ttl)
	_, ok := Settle(&look, "h1", OutcomeOK, []byte("late"), now+grace+1, ttl)
	assert.False(t, ok)
	_, ok = Settle(nil, "h1", OutcomeOK, nil, now, ttl)
	assert.False(t, ok)
	_, ok = Settle(&Record{State: Done, FP: "fp"}, "", OutcomeOK, nil, now, ttl)
	assert.False(t, ok, "a settled record has no holder")
	// Back before anyone took it, its outcome still counts.
	next, ok := Settle(&rec, "h1", OutcomeOK, []byte("late"), now+2000, ttl)
	require.True(t, ok)
	assert.Equal(t, Done, next.State)
}

func TestSettleOutcomes(t *testing.T) {
	rec := Taken(nil, "fp", "h", 10, ttl)
	next, ok := Settle(&rec, "h", OutcomeRelease, nil, 20, ttl)
	assert.True(t, ok)
	assert.Nil(t, next, "a refusal forgets the reference")
	next, ok = Settle(&rec, "h", OutcomeUnsent, nil, 20, ttl)
	assert.True(t, ok)
	assert.Nil(t, next, "a new record whose holder sent nothing is forgotten")
	next, _ = Settle(&rec, "h", OutcomeOK, []byte("a"), 20, ttl)
	assert.Equal(t, int64(20+ttl), next.Expires)
}

func TestExpiry(t *testing.T) {
	rec := &Record{State: Done, FP: "fp", Expires: 100}
	v, _ := Decide(rec, "other", false, 99, grace)
	assert.Equal(t, Conflict, v)
	v, _ = Decide(rec, "other", false, 100, grace)
	assert.Equal(t, Take, v, "an expired record is no record")
	assert.Zero(t, Taken(rec, "other", "h", 100, ttl).Prev)
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
