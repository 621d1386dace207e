package envelope

import (
	"sort"
	"strconv"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Carrier is one entry of get-client-carriers.
type Carrier struct {
	IDCarrier   int64  // id_carrier
	CarrierName string // carrier_name
	CarrierCode string // carrier_code (the entry's key when absent)
	Status      int64  // status: 1 = services activated, 0 = deactivated
}

// Active reports Status == 1.
func (c Carrier) Active() bool { return c.Status == 1 }

func (c *Carrier) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "id_carrier":
			return i64(s, &c.IDCarrier)
		case "carrier_name":
			return str(s, &c.CarrierName)
		case "carrier_code":
			return str(s, &c.CarrierCode)
		case "status":
			return i64(s, &c.Status)
		}
		return nil
	})
}

// EmitTo writes {id_carrier, carrier_name, carrier_code, status}.
func (c Carrier) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kInt(e, "id_carrier", c.IDCarrier)
	kStr(e, "carrier_name", c.CarrierName)
	kStr(e, "carrier_code", c.CarrierCode)
	kInt(e, "status", c.Status)
	e.EndObject()
}

// Carriers is the result of get-client-carriers: carriers keyed by code.
type Carriers struct {
	ByCode map[string]Carrier // keyed by the data object's keys
	Codes  []string           // the keys, sorted
}

// Get returns the carrier with the given code.
func (c Carriers) Get(code string) (Carrier, bool) {
	v, ok := c.ByCode[code]
	return v, ok
}

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
	sort.Strings(c.Codes)
	return err
}

// EmitTo writes an object keyed by carrier code, keys sorted.
func (c Carriers) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	for _, k := range c.Codes {
		e.Key(k)
		c.ByCode[k].EmitTo(e)
	}
	e.EndObject()
}

// DecodeCarriers decodes a get-client-carriers response.
func DecodeCarriers(httpStatus int, body []byte) (Carriers, error) {
	var v Carriers
	err := decodeEnvelope(OpClientCarriers, httpStatus, body, v.decode)
	return v, err
}

// CarrierRef is the carrier sub-object of a Service.
type CarrierRef struct {
	IDCarrier   int64  // id_carrier
	CarrierName string // carrier_name
	CarrierCode string // carrier_code
}

func (c *CarrierRef) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "id_carrier":
			return i64(s, &c.IDCarrier)
		case "carrier_name":
			return str(s, &c.CarrierName)
		case "carrier_code":
			return str(s, &c.CarrierCode)
		}
		return nil
	})
}

// EmitTo writes {id_carrier, carrier_name, carrier_code}.
func (c CarrierRef) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kInt(e, "id_carrier", c.IDCarrier)
	kStr(e, "carrier_name", c.CarrierName)
	kStr(e, "carrier_code", c.CarrierCode)
	e.EndObject()
}

// Service is one entry of get-client-services.
type Service struct {
	IDService   int64      // id_service
	ServiceName string     // service_name
	ServiceType string     // service_type, e.g. "24"
	ServiceCode string     // service_code
	IsDropPoint bool       // is_drop_point (0/1 on the wire)
	Carrier     CarrierRef // carrier
	Status      int64      // status: 1 = activated, 0 = deactivated
}

func (v *Service) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "id_service":
			return i64(s, &v.IDService)
		case "service_name":
			return str(s, &v.ServiceName)
		case "service_type":
			return str(s, &v.ServiceType)
		case "service_code":
			return str(s, &v.ServiceCode)
		case "is_drop_point":
			return flag(s, &v.IsDropPoint)
		case "carrier":
			return v.Carrier.decode(s)
		case "status":
			return i64(s, &v.Status)
		}
		return nil
	})
}

// EmitTo writes the service with the wire's keys.
func (v Service) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kInt(e, "id_service", v.IDService)
	kStr(e, "service_name", v.ServiceName)
	kStr(e, "service_type", v.ServiceType)
	kStr(e, "service_code", v.ServiceCode)
	kBool(e, "is_drop_point", v.IsDropPoint)
	e.Key("carrier")
	v.Carrier.EmitTo(e)
	kInt(e, "status", v.Status)
	e.EndObject()
}

// Services is the result of get-client-services.
type Services []Service

func (l *Services) decode(s *jsonlite.Scanner) error {
	*l = (*l)[:0]
	return arr(s, func(int) error {
		var v Service
		err := v.decode(s)
		*l = append(*l, v)
		return err
	})
}

// EmitTo writes an array of services.
func (l Services) EmitTo(e jsonlite.Emitter) {
	e.BeginArray()
	for i := range l {
		l[i].EmitTo(e)
	}
	e.EndArray()
}

// DecodeServices decodes a get-client-services response.
func DecodeServices(httpStatus int, body []byte) (Services, error) {
	var v Services
	err := decodeEnvelope(OpClientServices, httpStatus, body, v.decode)
	return v, err
}

// RateService is one priced service of get-shipments-rates.
type RateService struct {
	IDService   int64   // id_service
	ServiceName string  // service_name
	ServiceCode string  // service_code
	ServiceType string  // service_type
	CarrierCode string  // carrier_code
	CarrierName string  // carrier_name
	IsDropPoint bool    // is_drop_point (0/1 on the wire)
	Price       float64 // price, may arrive as a string
	Currency    string  // currency; "EUR" when absent
}

func (v *RateService) decode(s *jsonlite.Scanner) error {
	err := obj(s, func(key string) error {
		switch key {
		case "id_service":
			return i64(s, &v.IDService)
		case "service_name":
			return str(s, &v.ServiceName)
		case "service_code":
			return str(s, &v.ServiceCode)
		case "service_type":
			return str(s, &v.ServiceType)
		case "carrier_code":
			return str(s, &v.CarrierCode)
		case "carrier_name":
			return str(s, &v.CarrierName)
		case "is_drop_point":
			return flag(s, &v.IsDropPoint)
		case "price":
			return f64(s, &v.Price)
		case "currency":
			return str(s, &v.Currency)
		}
		return nil
	})
	if v.Currency == "" {
		v.Currency = "EUR"
	}
	return err
}

// EmitTo writes the rate entry with the wire's keys.
func (v RateService) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kInt(e, "id_service", v.IDService)
	kStr(e, "service_name", v.ServiceName)
	kStr(e, "service_code", v.ServiceCode)
	kStr(e, "service_type", v.ServiceType)
	kStr(e, "carrier_code", v.CarrierCode)
	kStr(e, "carrier_name", v.CarrierName)
	kBool(e, "is_drop_point", v.IsDropPoint)
	kFloat(e, "price", v.Price)
	kStr(e, "currency", v.Currency)
	e.EndObject()
}

// Rates is the result of get-shipments-rates.
type Rates struct {
	BestPriceService *RateService // best_price_service; nil when absent or empty
	Services         []RateService
}

func (r *Rates) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "best_price_service":
			if empty(s) {
				return nil
			}
			r.BestPriceService = new(RateService)
			return r.BestPriceService.decode(s)
		case "services":
			return arr(s, func(int) error {
				var v RateService
				err := v.decode(s)
				r.Services = append(r.Services, v)
				return err
			})
		}
		return nil
	})
}

// EmitTo writes {best_price_service, services}.
func (r Rates) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	e.Key("best_price_service")
	if r.BestPriceService == nil {
		e.Null()
	} else {
		r.BestPriceService.EmitTo(e)
	}
	e.Key("services")
	e.BeginArray()
	for i := range r.Services {
		r.Services[i].EmitTo(e)
	}
	e.EndArray()
	e.EndObject()
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

// DecodeRates decodes a get-shipments-rates response.
func DecodeRates(httpStatus int, body []byte) (Rates, error) {
	var v Rates
	err := decodeEnvelope(OpShipmentsRates, httpStatus, body, v.decode)
	return v, err
}

// empty consumes and reports a value that stands for "nothing": null, ""
// or an empty array or object. Other values are left unread.
func empty(s *jsonlite.Scanner) bool {
	at := s.Offset()
	switch s.Peek() {
	case jsonlite.Null:
		return s.Null() == nil
	case jsonlite.String:
		if v, err := s.String(); err == nil && v == "" {
			return true
		}
	case jsonlite.Array, jsonlite.Object:
		t, err := s.RawText()
		if err == nil && len(t) >= 2 && isBlank(t[1:len(t)-1]) {
			return true
		}
	default:
		return false
	}
	s.Seek(at)
	return false
}

func isBlank(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// ArrivalService is one service of get-shipment-time-arrival-estimation.
type ArrivalService struct {
	IDService             int64  // id_service
	ServiceName           string // service_name
	ServiceCode           string // service_code
	ServiceType           string // service_type
	CarrierCode           string // carrier_code
	CarrierName           string // carrier_name
	TransitHours          int64  // transit_hours
	WorkingDays           int64  // working_days
	EstimatedDeliveryDate string // estimated_delivery_date, YYYY-MM-DD
}

func (v *ArrivalService) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "id_service":
			return i64(s, &v.IDService)
		case "service_name":
			return str(s, &v.ServiceName)
		case "service_code":
			return str(s, &v.ServiceCode)
		case "service_type":
			return str(s, &v.ServiceType)
		case "carrier_code":
			return str(s, &v.CarrierCode)
		case "carrier_name":
			return str(s, &v.CarrierName)
		case "transit_hours":
			return i64(s, &v.TransitHours)
		case "working_days":
			return i64(s, &v.WorkingDays)
		case "estimated_delivery_date":
			return date(s, &v.EstimatedDeliveryDate)
		}
		return nil
	})
}

// EmitTo writes the entry with the wire's keys.
func (v ArrivalService) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kInt(e, "id_service", v.IDService)
	kStr(e, "service_name", v.ServiceName)
	kStr(e, "service_code", v.ServiceCode)
	kStr(e, "service_type", v.ServiceType)
	kStr(e, "carrier_code", v.CarrierCode)
	kStr(e, "carrier_name", v.CarrierName)
	kInt(e, "transit_hours", v.TransitHours)
	kInt(e, "working_days", v.WorkingDays)
	kDate(e, "estimated_delivery_date", v.EstimatedDeliveryDate)
	e.EndObject()
}

// ArrivalEstimates is the result of get-shipment-time-arrival-estimation.
type ArrivalEstimates struct {
	BestArrivalTime *ArrivalService // bestArrivalTime; nil when absent or empty
	Services        []ArrivalService
}

func (r *ArrivalEstimates) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "bestArrivalTime":
			if empty(s) {
				return nil
			}
			r.BestArrivalTime = new(ArrivalService)
			return r.BestArrivalTime.decode(s)
		case "services":
			return arr(s, func(int) error {
				var v ArrivalService
				err := v.decode(s)
				r.Services = append(r.Services, v)
				return err
			})
		}
		return nil
	})
}

// EmitTo writes {bestArrivalTime, services} (the wire's camelCase key).
func (r ArrivalEstimates) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	e.Key("bestArrivalTime")
	if r.BestArrivalTime == nil {
		e.Null()
	} else {
		r.BestArrivalTime.EmitTo(e)
	}
	e.Key("services")
	e.BeginArray()
	for i := range r.Services {
		r.Services[i].EmitTo(e)
	}
	e.EndArray()
	e.EndObject()
}

// DecodeArrivalEstimates decodes a get-shipment-time-arrival-estimation
// response.
func DecodeArrivalEstimates(httpStatus int, body []byte) (ArrivalEstimates, error) {
	var v ArrivalEstimates
	err := decodeEnvelope(OpArrivalEstimation, httpStatus, body, v.decode)
	return v, err
}

// RawMember is one member of an object kept as JSON: a method name and
// its compact JSON value.
type RawMember struct {
	Name string
	JSON []byte
}

// RawMembers is an object whose values are kept as JSON, in wire order.
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

func (l *RawMembers) decode(s *jsonlite.Scanner) error {
	*l = (*l)[:0]
	if s.Peek() == jsonlite.Array {
		// A list instead of an object: members are named by index, as PHP
		// shows them.
		return arr(s, func(i int) error {
			var b []byte
			err := raw(s, &b, false)
			*l = append(*l, RawMember{Name: strconv.Itoa(i), JSON: b})
			return err
		})
	}
	return obj(s, func(key string) error {
		var b []byte
		err := raw(s, &b, false)
		*l = append(*l, RawMember{Name: key, JSON: b})
		return err
	})
}

// EmitTo writes an object of the members, in order.
func (l RawMembers) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	for i := range l {
		kRaw(e, l[i].Name, l[i].JSON)
	}
	e.EndObject()
}

// ServiceInfo is the result of get-service-info. Each block is kept per
// method as raw JSON (JSON Schema draft 4 for Schemas).
type ServiceInfo struct {
	AvailableMethods      RawMembers // available_methods
	Schemas               RawMembers // schemas
	AdditionalInformation RawMembers // additional_information
}

// HasMethod reports whether available_methods lists method: as a member
// whose value is not false, 0, "", "0" or null, or as a member whose value
// is the string method (a list of names).
func (si ServiceInfo) HasMethod(method string) bool {
	for _, m := range si.AvailableMethods {
		v := string(m.JSON)
		if m.Name == method {
			switch v {
			case "", "false", "0", `""`, `"0"`, "null":
				return false
			}
			return true
		}
		if v == string(jsonlite.AppendString(nil, method)) {
			return true
		}
	}
	return false
}

func (si *ServiceInfo) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "available_methods":
			return si.AvailableMethods.decode(s)
		case "schemas":
			return si.Schemas.decode(s)
		case "additional_information":
			return si.AdditionalInformation.decode(s)
		}
		return nil
	})
}

// EmitTo writes {available_methods, schemas, additional_information}.
func (si ServiceInfo) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	e.Key("available_methods")
	si.AvailableMethods.EmitTo(e)
	e.Key("schemas")
	si.Schemas.EmitTo(e)
	e.Key("additional_information")
	si.AdditionalInformation.EmitTo(e)
	e.EndObject()
}

// DecodeServiceInfo decodes a get-service-info response.
func DecodeServiceInfo(httpStatus int, body []byte) (ServiceInfo, error) {
	var v ServiceInfo
	err := decodeEnvelope(OpServiceInfo, httpStatus, body, v.decode)
	return v, err
}
