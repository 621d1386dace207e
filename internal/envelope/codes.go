package envelope

import "sort"

// ErrorCode is one row of the spec's table of error codes.
type ErrorCode struct {
	Code    int
	Meaning string
}

// Error classes returned by ClassOf and APIError.Class.
const (
	// ClassCarrierRejected: codes 101-488 of the table, the carrier
	// rejected a value of the request.
	ClassCarrierRejected = "carrier_rejected"
	// ClassCarrierCommunication: codes 994-998, the service could not work
	// with the carrier.
	ClassCarrierCommunication = "carrier_communication"
	// ClassUnexpected: code 999, an unexpected error of the service.
	ClassUnexpected = "unexpected"
	// ClassUnknown: a code absent from the table; the spec asks to report
	// it to support with the returned code.
	ClassUnknown = "unknown"
)

// Codes is the spec's table of error codes (Errors section), every row,
// sorted by code. It is a static table: do not modify it.
var Codes = [...]ErrorCode{
	{101, "date not accepted by the carrier; must be later"},
	{102, "date not accepted by the carrier; must be a working day"},
	{103, "parcel_weight exceeds the allowed weight"},
	{104, "parcel_volume exceeds the allowed volume"},
	{105, "parcel_width exceeds the allowed width"},
	{106, "parcel_length exceeds the allowed length"},
	{107, "parcel_height exceeds the allowed height"},
	{108, "the service is not contracted"},
	{109, "minimum hour in hour_start_1 or hour_start_2 not accepted"},
	{110, "maximum hour in hour_end_1 or hour_end_2 not accepted"},
	{111, "one of the hour fields is invalid for this carrier"},
	{114, "route invalid for the selected vehicle type"},
	{115, "selected vehicle type unavailable"},
	{116, "payment method not accepted by the carrier"},
	{117, "location out of range"},
	{118, "latitude/longitude not accepted by the carrier"},
	{119, "date not accepted by the carrier"},
	{400, "some values have an incorrect format; the incorrect field is detailed with the code"},
	{402, "shipping_date or collection_date not accepted"},
	{403, "hour_start_1 not accepted"},
	{404, "hour_end_1 not accepted"},
	{405, "hour_start_2 not accepted"},
	{406, "hour_end_2 not accepted"},
	{421, "shipping_client_ref or collection_client_ref not accepted"},
	{422, "parcel_number not accepted"},
	{423, "parcel_weight not accepted"},
	{424, "parcel_volume not accepted"},
	{425, "parcel_width not accepted"},
	{426, "parcel_length not accepted"},
	{427, "parcel_height not accepted"},
	{432, "hour ranges (hour_start_1, hour_end_1, hour_start_2, hour_end_2) not accepted"},
	{460, "from_name not accepted"},
	{461, "from_nif not accepted"},
	{462, "an address field of the pickup point (street type, street name, number, floor) not accepted; edit in the customer area"},
	{463, "city of the pickup point not accepted; edit in the customer area"},
	{464, "postal code of the pickup point not accepted; edit in the customer area"},
	{465, "country of the pickup point not accepted; edit in the customer area"},
	{466, "alias/name of the pickup point not accepted; edit in the customer area"},
	{467, "phone in the client's personal data not accepted; edit in the customer area"},
	{468, "e-mail in the client's personal data not accepted; edit in the customer area"},
	{469, "at least one service with drop-point delivery must be activated in the customer area"},
	{480, "to_name not accepted"},
	{481, "to_nif not accepted"},
	{482, "to_street_name / to_street_type not accepted"},
	{483, "to_city not accepted"},
	{484, "to_zip_code not accepted"},
	{485, "to_country_code not accepted"},
	{486, "to_attn not accepted"},
	{487, "to_phone not accepted"},
	{488, "to_email not accepted"},
	{994, "error not documented by the carrier"},
	{995, "the carrier could not process the data sent"},
	{996, "authentication with the carrier failed"},
	{997, "missing permissions at the carrier"},
	{998, "no communication with the carrier's servers possible"},
	{999, "unexpected error"},
}

// Lookup returns the meaning of an error code from Codes.
func Lookup(code int) (meaning string, ok bool) {
	i := sort.Search(len(Codes), func(i int) bool { return Codes[i].Code >= code })
	if i < len(Codes) && Codes[i].Code == code {
		return Codes[i].Meaning, true
	}
	return "", false
}

// ClassOf returns the class of an error code: ClassCarrierRejected for
// the table's codes 101-488, ClassCarrierCommunication for 994-998,
// ClassUnexpected for 999 and ClassUnknown for any code not in the table.
func ClassOf(code int) string {
	if _, ok := Lookup(code); !ok {
		return ClassUnknown
	}
	switch {
	case code >= 101 && code <= 488:
		return ClassCarrierRejected
	case code >= 994 && code <= 998:
		return ClassCarrierCommunication
	case code == 999:
		return ClassUnexpected
	}
	return ClassUnknown
}
