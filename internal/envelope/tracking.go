package envelope

// Display categories of tracking codes (TrackingCode.Category).
const (
	CategoryPreTransit     = "pre_transit"
	CategoryInTransit      = "in_transit"
	CategoryOutForDelivery = "out_for_delivery"
	CategoryDelivered      = "delivered"
	CategoryException      = "exception"
	CategoryReturned       = "returned"
	// CategoryUnknown is given to events whose code is not 01-30.
	CategoryUnknown = "unknown"
)

// TrackingCode describes one tracking code of the spec's Events table.
type TrackingCode struct {
	Code     string // two digits, "01".."30"
	Meaning  string // the spec's meaning
	Label    string // short English label for display
	Category string // one of the Category* constants
	Final    bool   // no further event is expected
}

// TrackingCodes is the static table of tracking codes 01 to 30, in order.
//
// Decisions (the spec shows no transitions):
//   - Final states are 11 delivered, 17 returned and 28 expired.
//     25 (damaged/lost/partial) is not final: 26 "solution being
//     processed" or a late delivery may follow, and "partial" means part of
//     the shipment is still moving.
//   - 24 (pending collection by the recipient) and 30 (deposited at a drop
//     point) are out_for_delivery: the parcel waits at the last step before
//     the recipient has it.
//   - 20, 21 (date/address changed by the recipient) and 23 (pickup point
//     reassigned) are in_transit: requested changes, not failures.
//   - 14 (parcel refused) is an exception, not returned: the return is
//     reported separately as 17.
var TrackingCodes = [...]TrackingCode{
	{"01", "order in preparation", "Order in preparation", CategoryPreTransit, false},
	{"02", "pickup assigned", "Pickup assigned", CategoryPreTransit, false},
	{"03", "pending to be carried out", "Pending", CategoryPreTransit, false},
	{"04", "documentation errors", "Documentation error", CategoryException, false},
	{"05", "pickup done", "Picked up", CategoryInTransit, false},
	{"06", "parcel leaving <origin>", "Left origin", CategoryInTransit, false},
	{"07", "administrative/customs inspection", "Customs inspection", CategoryInTransit, false},
	{"08", "parcel on its way to <destination>", "In transit", CategoryInTransit, false},
	{"09", "administrative documentation received", "Documentation received", CategoryInTransit, false},
	{"10", "out for delivery <today>", "Out for delivery", CategoryOutForDelivery, false},
	{"11", "delivered", "Delivered", CategoryDelivered, true},
	{"12", "recipient absent", "Recipient absent", CategoryException, false},
	{"13", "address error", "Address error", CategoryException, false},
	{"14", "parcel refused", "Refused", CategoryException, false},
	{"15", "awaiting action by the sender", "Awaiting sender", CategoryException, false},
	{"16", "closed/holiday/vacation", "Closed", CategoryException, false},
	{"17", "parcel returned", "Returned", CategoryReturned, true},
	{"18", "awaiting action by the recipient", "Awaiting recipient", CategoryException, false},
	{"19", "parcel held", "Held", CategoryException, false},
	{"20", "date change by the recipient", "Delivery date changed", CategoryInTransit, false},
	{"21", "address change by the recipient", "Address changed", CategoryInTransit, false},
	{"22", "mis-routed", "Mis-routed", CategoryException, false},
	{"23", "pickup point reassigned", "Pickup point reassigned", CategoryInTransit, false},
	{"24", "pending collection by the recipient", "Ready for pickup", CategoryOutForDelivery, false},
	{"25", "parcel damaged/lost/partial", "Damaged or lost", CategoryException, false},
	{"26", "solution being processed", "Resolving issue", CategoryException, false},
	{"27", "no traceability", "No tracking information", CategoryException, false},
	{"28", "expired", "Expired", CategoryException, true},
	{"29", "pickup failed", "Pickup failed", CategoryException, false},
	{"30", "deposited at <drop_point_name>", "At drop point", CategoryOutForDelivery, false},
}

// DescribeTracking returns the table entry of a tracking code. The code
// may be given as "7" or "07" (surrounding spaces ignored).
func DescribeTracking(code string) (TrackingCode, bool) {
	n, ok := trackingNumber(code)
	if !ok {
		return TrackingCode{}, false
	}
	return TrackingCodes[n-1], true
}

// trackingNumber parses a 1- or 2-digit code in 1..30.
func trackingNumber(code string) (int, bool) {
	for len(code) > 0 && code[0] == ' ' {
		code = code[1:]
	}
	for len(code) > 0 && code[len(code)-1] == ' ' {
		code = code[:len(code)-1]
	}
	n := 0
	if len(code) == 0 || len(code) > 2 {
		return 0, false
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > len(TrackingCodes) {
		return 0, false
	}
	return n, true
}

// normTrackingCode returns the two-digit form of a known code, or the
// code unchanged.
func normTrackingCode(code string) string {
	if n, ok := trackingNumber(code); ok {
		return TrackingCodes[n-1].Code
	}
	return code
}

// trackingCategory returns the category of a code, CategoryUnknown when
// the code is not in the table.
func trackingCategory(code string) string {
	if t, ok := DescribeTracking(code); ok {
		return t.Category
	}
	return CategoryUnknown
}
