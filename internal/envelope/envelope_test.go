package envelope

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodesTable(t *testing.T) {
	assert.Len(t, Codes, 56, "every row of the spec's table")
	for i := 1; i < len(Codes); i++ {
		assert.Less(t, Codes[i-1].Code, Codes[i].Code, "sorted, no duplicates")
	}
	cases := []struct {
		code    int
		class   string
		meaning string
	}{
		{101, ClassCarrierRejected, "date not accepted by the carrier; must be later"},
		{108, ClassCarrierRejected, "the service is not contracted"},
		{400, ClassCarrierRejected, "some values have an incorrect format; the incorrect field is detailed with the code"},
		{469, ClassCarrierRejected, "at least one service with drop-point delivery must be activated in the customer area"},
		{488, ClassCarrierRejected, "to_email not accepted"},
		{994, ClassCarrierCommunication, "error not documented by the carrier"},
		{998, ClassCarrierCommunication, "no communication with the carrier's servers possible"},
		{999, ClassUnexpected, "unexpected error"},
		{112, ClassUnknown, ""}, // gap in the table
		{401, ClassUnknown, ""},
		{0, ClassUnknown, ""},
		{1000, ClassUnknown, ""},
		{-1, ClassUnknown, ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.class, ClassOf(c.code), "class of %d", c.code)
		m, ok := Lookup(c.code)
		assert.Equal(t, c.meaning != "", ok, "lookup %d", c.code)
		assert.Equal(t, c.meaning, m)
	}
}

func TestTrackingTable(t *testing.T) {
	require.Len(t, TrackingCodes, 30)
	valid := map[string]bool{CategoryPreTransit: true, CategoryInTransit: true, CategoryOutForDelivery: true,
		CategoryDelivered: true, CategoryException: true, CategoryReturned: true}
	var finals []string
	for i, tc := range TrackingCodes {
		assert.Equal(t, string([]byte{byte('0' + (i+1)/10), byte('0' + (i+1)%10)}), tc.Code)
		assert.True(t, valid[tc.Category], tc.Code)
		assert.NotEmpty(t, tc.Meaning)
		assert.NotEmpty(t, tc.Label)
		if tc.Final {
			finals = append(finals, tc.Code)
		}
	}
	assert.Equal(t, []string{"11", "17", "28"}, finals)

	cases := []struct {
		in       string
		ok       bool
		code     string
		category string
	}{
		{"11", true, "11", CategoryDelivered},
		{"7", true, "07", CategoryInTransit},
		{" 10 ", true, "10", CategoryOutForDelivery},
		{"17", true, "17", CategoryReturned},
		{"01", true, "01", CategoryPreTransit},
		{"12", true, "12", CategoryException},
		{"00", false, "", ""}, {"31", false, "", ""}, {"", false, "", ""}, {"1a", false, "", ""}, {"011", false, "", ""},
	}
	for _, c := range cases {
		tc, ok := DescribeTracking(c.in)
		assert.Equal(t, c.ok, ok, c.in)
		assert.Equal(t, c.code, tc.Code, c.in)
		assert.Equal(t, c.category, tc.Category, c.in)
	}
	assert.Equal(t, "parcel returned", TrackingCodes[16].Meaning)
}

func TestAPIErrorText(t *testing.T) {
	cases := []struct {
		e    APIError
		want string
	}{
		{APIError{Code: 108, Message: "not contracted"}, "upstream error 108 (carrier_rejected): not contracted"},
		{APIError{Code: 996}, "upstream error 996 (carrier_communication): authentication with the carrier failed"},
		{APIError{Code: 995, Message: "m", CarrierCode: "E1", CarrierMessage: "bad zip"}, "upstream error 995 (carrier_communication): m [carrier E1: bad zip]"},
		{APIError{Code: 777, Message: "x"}, "upstream error 777 (unknown): x; this error code is not documented: report it to support with code 777"},
		{APIError{Message: "Invalid credentials"}, "upstream error without an error code: Invalid credentials"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.e.Error())
	}
	e := &APIError{Code: 108, Message: "m", HTTPStatus: 200}
	assert.JSONEq(t, `{"type":"api","code":108,"class":"carrier_rejected","meaning":"the service is not contracted","message":"m","carrier_code":"","carrier_message":"","http_status":200}`,
		string(jsonlite.Marshal(e)))
}

func TestUnexpectedResponse(t *testing.T) {
	for status, class := range map[int]string{401: ClassUnauthorized, 403: ClassUnauthorized, 502: ClassUpstreamUnavailable,
		503: ClassUpstreamUnavailable, 504: ClassUpstreamUnavailable, 200: ClassUnexpectedResponse, 500: ClassUnexpectedResponse} {
		assert.Equal(t, class, (&UnexpectedResponse{HTTPStatus: status}).Class(), status)
	}
	// Snippet: at most 200 bytes, valid UTF-8, a rune never cut.
	body := []byte("<p>" + strings.Repeat("é", 200) + "</p>")
	_, err := DecodeCutoff(500, body)
	u, ok := err.(*UnexpectedResponse)
	require.True(t, ok)
	assert.LessOrEqual(t, len(u.Snippet), 200)
	assert.Equal(t, "<p>"+strings.Repeat("é", 98), u.Snippet)
	bad := append([]byte("oops \xff\xfe "), make([]byte, 10)...)
	_, err = DecodeCutoff(500, bad)
	u = err.(*UnexpectedResponse)
	assert.Equal(t, "oops \uFFFD \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", u.Snippet)
	assert.True(t, json.Valid(jsonlite.Marshal(u)))
}

func TestDecodeUnknownOperation(t *testing.T) {
	v, err := Decode("get-everything", 200, []byte(`{"status":"ok","data":{}}`))
	assert.Nil(t, v)
	assert.EqualError(t, err, `unknown operation "get-everything"`)
}

func TestDecodeEveryOperationMinimal(t *testing.T) {
	// Every operation accepts an ok envelope with empty data and an err one.
	for i := range catalog.Operations {
		op := catalog.Operations[i].Name
		if op == "get-shipment-label" {
			continue // label_raw is required
		}
		v, err := Decode(op, 200, []byte(`{"status":"ok","data":{}}`))
		require.NoError(t, err, op)
		assert.True(t, json.Valid(jsonlite.Marshal(v)), op)
		_, err = Decode(op, 200, []byte(`{"status":"err","data":{"errorCode":108,"errorMessage":"x"}}`))
		assert.IsType(t, &APIError{}, err, op)
	}
}

func TestTypedResults(t *testing.T) {
	c, err := DecodeCarriers(200, []byte(`{"status":"ok","data":{"b":{"status":1},"a":{"status":"0"}}}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, c.Codes)
	b, ok := c.Get("b")
	assert.True(t, ok)
	assert.True(t, b.Active())
	assert.Equal(t, "b", b.CarrierCode)

	r, err := DecodeRates(200, []byte(`{"status":"ok","data":{"best_price_service":{"id_service":2,"price":"3.5"},"services":[{"id_service":1,"price":5},{"id_service":2,"price":"3.5"},{"id_service":3,"price":3.5}]}}`))
	require.NoError(t, err)
	best, ok := r.Cheapest()
	require.True(t, ok)
	assert.EqualValues(t, 2, best.IDService, "first on a tie")
	require.NotNil(t, r.BestPriceService)
	assert.Equal(t, 3.5, r.BestPriceService.Price)

	si, err := DecodeServiceInfo(200, []byte(`{"status":"ok","data":{"available_methods":{"new-shipment":1,"new-collection":0,"get-label":"0"}}}`))
	require.NoError(t, err)
	assert.True(t, si.HasMethod("new-shipment"))
	assert.False(t, si.HasMethod("new-collection"))
	assert.False(t, si.HasMethod("get-label"))
	assert.False(t, si.HasMethod("other"))
	si, err = DecodeServiceInfo(200, []byte(`{"status":"ok","data":{"available_methods":["new-collection"],"schemas":{"new-shipment":{"type" : "object"}}}}`))
	require.NoError(t, err)
	assert.True(t, si.HasMethod("new-collection"))
	schema, ok := si.Schemas.Get("new-shipment")
	require.True(t, ok)
	assert.Equal(t, `{"type":"object"}`, string(schema))

	l, err := DecodeLabel(200, []byte(`{"status":"ok","data":{"label_raw":"JVBERi0xLjQK"}}`))
	require.NoError(t, err)
	assert.Equal(t, "%PDF-1.4\n", string(l.PDF))
	l, err = DecodeLabel(200, []byte(`{"status":"ok","data":{"label_raw":"JVBERi0xLjQK","shipping_dlvr_ref":"D"}}`))
	require.NoError(t, err)
	assert.Equal(t, "D", l.ShippingDlvrRef)
	_, err = DecodeLabel(200, []byte(`{"status":"ok","data":{"label_raw":""}}`))
	assert.ErrorContains(t, err, "data.label_raw: empty label")
	_, err = DecodeLabel(200, []byte(`{"status":"ok","data":{"label_raw":42}}`))
	assert.ErrorContains(t, err, "data.label_raw: expected string, got number")

	dp, err := DecodeDropPoints(200, []byte(`{"status":"ok","data":[{"latitude":"1.5","longitude":2,"time_table":{"sun":"10:00 - 12:00"}}]}`))
	require.NoError(t, err)
	require.Len(t, dp.DropPoints, 1)
	assert.True(t, dp.DropPoints[0].HasLocation)
	assert.Equal(t, 1.5, dp.DropPoints[0].Latitude)
	assert.Equal(t, "10:00 - 12:00", dp.DropPoints[0].TimeTable.Day(6))
	assert.Equal(t, "", dp.DropPoints[0].TimeTable.Day(7))

	tr, err := DecodeShipmentTracking(200, []byte(`{"status":"ok","data":{"tracking_code":"3","tracking_history":[{"tracking_code":"2","tracking_date":"2026-01-01 10:00:00"},{"tracking_code":"3","tracking_date":"2026-01-02 09:00:00"}]}}`))
	require.NoError(t, err)
	assert.Equal(t, "03", tr.TrackingCode)
	assert.Equal(t, CategoryPreTransit, tr.Category)
	require.Len(t, tr.TrackingHistory, 2)
	assert.Equal(t, "03", tr.TrackingHistory[0].TrackingCode)
	d, ok := tr.TrackingHistory[1].Describe()
	assert.True(t, ok)
	assert.Equal(t, "pickup assigned", d.Meaning)
}

func TestShipmentQuirks(t *testing.T) {
	body := `{"status":"ok","data":{"shipping_data":{"is_returned":"1","delivery_date":"","status":"-1"},
		"drop_point_data":{"drop_point_key":"K1","latitude":"10.5","longitude":"-1.25"},
		"tracking_events":{"tracking_code":"11","tracking_history":[]},"oudated":true}}`
	s, err := DecodeShipment(200, []byte(body))
	require.NoError(t, err)
	assert.True(t, s.ShippingData.IsReturned)
	assert.Equal(t, "", s.ShippingData.DeliveryDate)
	assert.EqualValues(t, ShipmentNotMade, s.ShippingData.Status)
	require.NotNil(t, s.DropPointData)
	assert.Equal(t, "K1", s.DropPointData.DropPointKey)
	assert.Equal(t, -1.25, s.DropPointData.Longitude)
	require.NotNil(t, s.TrackingEvents)
	assert.Equal(t, CategoryDelivered, s.TrackingEvents.Category)
	assert.True(t, s.Outdated)
	assert.Nil(t, s.CustomCarrierParameters)

	s, err = DecodeShipment(200, []byte(`{"status":"ok","data":{"drop_point_data":""}}`))
	require.NoError(t, err)
	assert.Nil(t, s.DropPointData)
	assert.Nil(t, s.TrackingEvents)
}

// Deep but valid values kept as raw JSON decode (a JSON Schema may nest
// far deeper than the result types); past jsonlite.MaxRawDepth the body is
// an error, never a stack overflow.
func TestDeepNesting(t *testing.T) {
	deep := `{"status":"ok","data":{"custom_carrier_parameters":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}`
	_, err := DecodeShipment(200, []byte(deep))
	require.NoError(t, err)

	tooDeep := `{"status":"ok","data":{"custom_carrier_parameters":` + strings.Repeat("[", jsonlite.MaxRawDepth) + strings.Repeat("]", jsonlite.MaxRawDepth) + `}}`
	_, err = DecodeShipment(200, []byte(tooDeep))
	require.Error(t, err)
	assert.IsType(t, &UnexpectedResponse{}, err)
	assert.Contains(t, err.Error(), "nesting too deep")
}
