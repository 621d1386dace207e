package envelope

import (
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Carrier is one entry of get-client-carriers.
type Carrier struct {
	IDCarrier   int64      `wire:"id_carrier"`
	CarrierName string     `wire:"carrier_name"`
	CarrierCode string     `wire:"carrier_code"` // the entry's key when absent
	Status      int64      `wire:"status"`       // 1 = services activated, 0 = deactivated
	Extra       RawMembers `wire:",extra"`
}

// Active reports Status == 1.
func (c Carrier) Active() bool { return c.Status == 1 }

// Carriers is the result of get-client-carriers: carriers keyed by code.
//
//envelope:result get-client-carriers
//envelope:ts Record<string, Carrier>
type Carriers struct {
	ByCode map[string]Carrier // keyed by the data object's keys
	Codes  []string           // the keys, sorted
}

// Get returns the carrier with the given code.
func (c Carriers) Get(code string) (Carrier, bool) {
	v, ok := c.ByCode[code]
	return v, ok
}

// decode is a hook: the data object is keyed by carrier code, and the key
// stands in for a missing carrier_code.
func (c *Carriers) decode(s *jsonlite.Scanner) error {
	c.ByCode = map[string]Carrier{}
	c.Codes = c.Codes[:0]
	err := obj(s, func(key string) error {
		var v Carrier
		if err := v.decode(s); err != nil {
			return err
		}
		if v.CarrierCode == "" {
			v.CarrierCode = key
		}
		if _, dup := c.ByCode[key]; !dup {
			c.Codes = append(c.Codes, key)
		}
		c.ByCode[key] = v
		return nil
	})
	if codes := c.Codes; len(codes) > 1 {
		c.Codes = make([]string, len(codes))
		for k, i := range stableOrder(len(codes), func(i, j int) bool { return codes[i] < codes[j] }) {
			c.Codes[k] = codes[i]
		}
	}
	return err
}

// EmitTo writes an object keyed by carrier code, keys sorted.
func (c Carriers) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	for _, k := range c.Codes {
		e.Key(k)
		v := c.ByCode[k]
		v.EmitTo(e)
	}
	e.EndObject()
}

// CarrierRef is the carrier sub-object of a Service.
type CarrierRef struct {
	IDCarrier   int64      `wire:"id_carrier"`
	CarrierName string     `wire:"carrier_name"`
	CarrierCode string     `wire:"carrier_code"`
	Extra       RawMembers `wire:",extra"`
}

// Service is one entry of get-client-services.
type Service struct {
	IDService   int64      `wire:"id_service"`
	ServiceName string     `wire:"service_name"`
	ServiceType string     `wire:"service_type"` // e.g. "24"
	ServiceCode string     `wire:"service_code"`
	IsDropPoint bool       `wire:"is_drop_point"` // 0/1 on the wire
	Carrier     CarrierRef `wire:"carrier"`
	Status      int64      `wire:"status"` // 1 = activated, 0 = deactivated
	Extra       RawMembers `wire:",extra"`
}

// Services is the result of get-client-services.
//
//envelope:result get-client-services
type Services []Service

// RateService is one priced service of get-shipments-rates. The spec does
// not list its fields: the ones below are those the service is known to
// send; any other is kept in Extra.
type RateService struct {
	IDService   int64      `wire:"id_service"`
	ServiceName string     `wire:"service_name"`
	ServiceCode string     `wire:"service_code"`
	ServiceType string     `wire:"service_type"`
	CarrierCode string     `wire:"carrier_code"`
	CarrierName string     `wire:"carrier_name"`
	IsDropPoint bool       `wire:"is_drop_point"`   // 0/1 on the wire
	Price       float64    `wire:"price"`           // may arrive as a string
	Currency    string     `wire:"currency"`        // "EUR" when absent
	Offer       string     `wire:"offer,omitempty"` // the edge's signed offer (issue 30), absent upstream
	Extra       RawMembers `wire:",extra"`
}

// afterDecode is a hook: a rate without currency is in euros.
func (v *RateService) afterDecode() {
	if v.Currency == "" {
		v.Currency = "EUR"
	}
}

// Rates is the result of get-shipments-rates.
//
//envelope:result get-shipments-rates
type Rates struct {
	BestPriceService *RateService  `wire:"best_price_service"` // nil when absent or empty
	Services         []RateService `wire:"services"`
	Extra            RawMembers    `wire:",extra"`
}

// Cheapest returns the service with the lowest price (the first one on a
// tie), or false when there is none.
func (r Rates) Cheapest() (RateService, bool) {
	best := -1
	for i := range r.Services {
		if best < 0 || r.Services[i].Price < r.Services[best].Price {
			best = i
		}
	}
	if best < 0 {
		if r.BestPriceService != nil {
			return *r.BestPriceService, true
		}
		return RateService{}, false
	}
	return r.Services[best], true
}

// ArrivalService is one service of get-shipment-time-arrival-estimation.
// The spec does not list its fields; unknown ones are kept in Extra.
type ArrivalService struct {
	IDService             int64      `wire:"id_service"`
	ServiceName           string     `wire:"service_name"`
	ServiceCode           string     `wire:"service_code"`
	ServiceType           string     `wire:"service_type"`
	CarrierCode           string     `wire:"carrier_code"`
	CarrierName           string     `wire:"carrier_name"`
	TransitHours          int64      `wire:"transit_hours"`
	WorkingDays           int64      `wire:"working_days"`
	EstimatedDeliveryDate string     `wire:"estimated_delivery_date,as=date"` // YYYY-MM-DD
	Extra                 RawMembers `wire:",extra"`
}

// ArrivalEstimates is the result of get-shipment-time-arrival-estimation.
//
//envelope:result get-shipment-time-arrival-estimation
type ArrivalEstimates struct {
	BestArrivalTime *ArrivalService  `wire:"bestArrivalTime"` // nil when absent or empty
	Services        []ArrivalService `wire:"services"`
	Extra           RawMembers       `wire:",extra"`
}

// RawMember is one member of an object kept as JSON: a name and its
// compact JSON value.
type RawMember struct {
	Name string
	JSON []byte
}

// RawMembers is an object whose values are kept as compact JSON, in wire
// order. It holds get-service-info's blocks and, as the Extra field of
// every result type, the members the decoder does not know, which are
// emitted unchanged after the known ones.
//
//envelope:ts Record<string, unknown>
type RawMembers []RawMember

// Get returns the JSON of the member called name.
func (l RawMembers) Get(name string) ([]byte, bool) {
	for i := range l {
		if l[i].Name == name {
			return l[i].JSON, true
		}
	}
	return nil, false
}

// decode is a hook: an object kept member by member ("" and null as
// null), or a list, whose elements are named by index as PHP shows them.
func (l *RawMembers) decode(s *jsonlite.Scanner) error {
	*l = (*l)[:0]
	if s.Peek() == jsonlite.Array {
		return arr(s, func(i int) error { return l.add(s, decimal.Itoa(i)) })
	}
	return obj(s, func(key string) error { return l.add(s, key) })
}

// add reads the value at the Scanner as a member called name (readRaw:
// "" and null as null).
func (l *RawMembers) add(s *jsonlite.Scanner, name string) error {
	var b []byte
	err := readRaw(s, &b)
	*l = append(*l, RawMember{Name: name, JSON: b})
	return err
}

// EmitTo writes an object of the members, in order.
func (l RawMembers) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	l.emitMembers(e)
	e.EndObject()
}

// emitMembers writes the members into an object already begun.
func (l RawMembers) emitMembers(e jsonlite.Emitter) {
	for i := range l {
		writeRaw(e, l[i].Name, l[i].JSON)
	}
}

// keep reads the value of an unknown member as compact JSON, unchanged
// (strings re-encoded as valid UTF-8). A repeated name is kept twice, as
// it was sent.
func (l *RawMembers) keep(s *jsonlite.Scanner, key string) error {
	w := jsonlite.NewWriter()
	err := s.Transcode(w)
	*l = append(*l, RawMember{Name: key, JSON: w.Bytes()})
	return err
}

// MethodList is get-service-info's available_methods: an object keyed by
// method name whose values say whether it is available, or, as the
// service also sends it, a list of the available names. A list is read
// as the object {name: true, ...}, so that both shapes mean the same to
// every reader.
//
//envelope:ts Record<string, unknown>
type MethodList struct{ RawMembers }

// decode is a hook: a list of names becomes {name: true}.
func (m *MethodList) decode(s *jsonlite.Scanner) error {
	m.RawMembers = m.RawMembers[:0]
	if s.Peek() != jsonlite.Array {
		return m.RawMembers.decode(s)
	}
	return arr(s, func(i int) error {
		if s.Peek() != jsonlite.String {
			return m.RawMembers.add(s, decimal.Itoa(i))
		}
		name, err := s.String()
		if err == nil {
			m.RawMembers = append(m.RawMembers, RawMember{Name: name, JSON: []byte("true")})
		}
		return err
	})
}

// ServiceInfo is the result of get-service-info. Each block is kept per
// method as raw JSON (JSON Schema draft 4 for Schemas).
//
//envelope:result get-service-info
type ServiceInfo struct {
	AvailableMethods      MethodList `wire:"available_methods"`
	Schemas               RawMembers `wire:"schemas"`
	AdditionalInformation RawMembers `wire:"additional_information"`
	Extra                 RawMembers `wire:",extra"`
}

// HasMethod reports whether available_methods lists method with a value
// other than false, 0, "", "0" or null.
func (si ServiceInfo) HasMethod(method string) bool {
	v, ok := si.AvailableMethods.Get(method)
	if !ok {
		return false
	}
	switch string(v) {
	case "", "false", "0", `""`, `"0"`, "null":
		return false
	}
	return true
}
