package sandbox

import (
	"strconv"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Methods listed in get-service-info's available_methods.
const (
	methodShipment   = "new-shipment"
	methodCollection = "new-collection"
	methodDropPoints = "get-drop-points"
)

// resolveService finds a bookable service of a carrier: 108 when the
// carrier or the service is unknown, deactivated or not the carrier's.
func resolveService(carrierCode, serviceCode string) (*service, *apiError) {
	k := findCarrier(carrierCode)
	if k == nil {
		return nil, rejected(108, "carrier_code", "the service is not contracted: unknown carrier "+quoteName(carrierCode))
	}
	if !k.Active {
		return nil, rejected(108, "carrier_code", "the service is not contracted: carrier "+k.Code+" is deactivated")
	}
	s := findService(serviceCode)
	if s == nil || s.Carrier != k.Code {
		return nil, rejected(108, "service_code", "the service is not contracted: "+quoteName(serviceCode)+" is not a service of "+k.Code)
	}
	if !s.Active {
		return nil, rejected(108, "service_code", "the service is not contracted: "+s.Code+" is deactivated")
	}
	return s, nil
}

// notCovered is the error for a route a service does not serve.
func notCovered(s *service, z zone) *apiError {
	return rejected(117, "to_zip_code", "location out of range: "+s.Code+" does not serve the "+z.String()+" zone")
}

func (c *call) serviceInfo() (jsonlite.Value, *apiError) {
	z := c.route("from_country_code", "from_zip_code", "to_country_code", "to_zip_code")
	if c.sb.rules {
		return rulesInfo(z), nil
	}
	s, err := resolveService(c.get("carrier_code"), c.get("service_code"))
	if err != nil {
		return nil, err
	}
	if !s.covers(z) {
		return nil, notCovered(s, z)
	}
	k := s.carrier()
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		e.Key("available_methods")
		e.BeginObject()
		e.Key(methodShipment)
		e.Bool(true)
		e.Key(methodCollection)
		e.Bool(k.Collections)
		e.Key(methodDropPoints)
		e.Bool(s.DropPoint)
		e.EndObject()

		e.Key("schemas")
		e.BeginObject()
		e.Key(methodShipment)
		emitSchema(e, methodShipment, false, k.Extras, s.Code)
		if k.Collections {
			e.Key(methodCollection)
			emitSchema(e, methodCollection, false, nil, s.Code)
		}
		if s.DropPoint {
			e.Key(methodDropPoints)
			emitSchema(e, methodDropPoints, false, nil, s.Code)
		}
		e.EndObject()

		e.Key("additional_information")
		e.BeginObject()
		e.Key(methodShipment)
		e.BeginObject()
		e.Key("zone")
		e.String(z.String())
		e.Key("service_type")
		e.String(s.Type)
		e.Key("transit_hours")
		e.Int(int64(s.transitHours(z)))
		e.Key("max_parcel_weight_kg")
		e.Float(k.MaxWeight)
		e.Key("max_parcel_volume_cm3")
		e.Float(k.MaxVolume)
		e.Key("max_parcel_width_cm")
		e.Float(k.MaxWidth)
		e.Key("max_parcel_length_cm")
		e.Float(k.MaxLength)
		e.Key("max_parcel_height_cm")
		e.Float(k.MaxHeight)
		e.Key("volumetric_divisor")
		e.Int(volumetricDivisor)
		e.Key("hint")
		if s.DropPoint {
			e.String("Send service_type=custom. Optionally send a drop_point_key from get-drop-points to deliver to a drop point. Carrier-specific fields are listed in the schema.")
		} else {
			e.String("Send service_type=custom. Carrier-specific fields are listed in the schema.")
		}
		e.EndObject()
		if k.Collections {
			e.Key(methodCollection)
			e.BeginObject()
			e.Key("cutoff")
			e.String(cutoffFor(k, z, c.get("from_country_code"), c.get("from_zip_code")))
			e.Key("earliest_hour_start")
			e.String(k.PickupFrom)
			e.Key("latest_hour_end")
			e.String(k.PickupTo)
			e.Key("min_window_minutes")
			e.Int(int64(k.MinWindow))
			e.Key("minute_step")
			if k.HalfHours {
				e.Int(30)
			} else {
				e.Int(1)
			}
			e.Key("hint")
			e.String("Book the pickup of an existing shipment (shipping_dlvr_ref); to_phone is required.")
			e.EndObject()
		}
		if s.DropPoint {
			e.Key(methodDropPoints)
			e.BeginObject()
			e.Key("hint")
			e.String("Pass carrier_code=" + k.Code + "; send the chosen drop_point_key with new-shipment.")
			e.EndObject()
		}
		e.EndObject()
		e.EndObject()
	}), nil
}

// rulesInfo is get-service-info for an account with the rules feature:
// carrier and service are chosen by the rules, so the schema takes
// service_type 24/48/72 and every carrier's extra fields (those the chosen
// carrier does not know are ignored).
func rulesInfo(z zone) jsonlite.Value {
	var extras []extraField
	for i := range carriers {
		if carriers[i].Active {
		next:
			for _, x := range carriers[i].Extras {
				for _, y := range extras {
					if y.Name == x.Name {
						continue next
					}
				}
				extras = append(extras, x)
			}
		}
	}
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		e.Key("available_methods")
		e.BeginObject()
		e.Key(methodShipment)
		e.Bool(true)
		e.Key(methodCollection)
		e.Bool(true)
		e.Key(methodDropPoints)
		e.Bool(true)
		e.EndObject()
		e.Key("schemas")
		e.BeginObject()
		e.Key(methodShipment)
		emitSchema(e, methodShipment, true, extras, "rules")
		e.Key(methodCollection)
		emitSchema(e, methodCollection, true, nil, "rules")
		e.Key(methodDropPoints)
		emitSchema(e, methodDropPoints, true, nil, "rules")
		e.EndObject()
		e.Key("additional_information")
		e.BeginObject()
		e.Key(methodShipment)
		e.BeginObject()
		e.Key("zone")
		e.String(z.String())
		e.Key("hint")
		e.String("Rules feature: send service_type 24, 48 or 72; the cheapest active service within that transit time is chosen. parcel_weight is optional.")
		e.EndObject()
		e.EndObject()
		e.EndObject()
	})
}

// emitSchema writes the catalog's draft 4 schema of an operation, made
// strict for one service: its carrier's extra fields are added as
// properties and no other property is allowed.
func emitSchema(e jsonlite.Emitter, op string, rules bool, extras []extraField, serviceCode string) {
	f := &schemaFilter{e: e, extras: extras, id: serviceCode, rules: rules}
	catalog.Schema{Op: catalog.Lookup(op), Rules: rules, Strict: true}.EmitTo(f)
}

// schemaFilter passes a schema through, adding extra properties, setting
// additionalProperties to false and qualifying the id.
type schemaFilter struct {
	e      jsonlite.Emitter
	depth  int
	key    string // the last key of the top-level object
	extras []extraField
	id     string
	rules  bool
	prop   string // the property being written (depth 3)
	pkey   string // the last key inside that property
}

func (f *schemaFilter) BeginObject() { f.depth++; f.e.BeginObject() }
func (f *schemaFilter) BeginArray()  { f.depth++; f.e.BeginArray() }
func (f *schemaFilter) EndArray()    { f.depth--; f.e.EndArray() }
func (f *schemaFilter) Int(n int64)  { f.e.Int(n) }
func (f *schemaFilter) Float(v float64) {
	f.e.Float(v)
}
func (f *schemaFilter) Null()        { f.e.Null() }
func (f *schemaFilter) Raw(b []byte) { f.e.Raw(b) }
func (f *schemaFilter) Key(k string) {
	switch {
	case f.depth == 1:
		f.key = k
	case f.depth == 2 && f.key == "properties":
		f.prop = k
	case f.depth == 3 && f.key == "properties":
		f.pkey = k
	}
	f.e.Key(k)
}

func (f *schemaFilter) String(s string) {
	if f.depth == 1 && f.key == "id" {
		s += ":" + f.id
	}
	f.e.String(s)
}

func (f *schemaFilter) Bool(b bool) {
	if f.depth == 1 && f.key == "additionalProperties" {
		b = false
	}
	f.e.Bool(b)
}

func (f *schemaFilter) EndObject() {
	if f.depth == 2 && f.key == "properties" {
		for _, x := range f.extras {
			f.e.Key(x.Name)
			f.e.BeginObject()
			switch x.Kind {
			case "flag":
				f.e.Key("type")
				f.e.String("integer")
				f.e.Key("enum")
				f.e.BeginArray()
				f.e.Int(0)
				f.e.Int(1)
				f.e.EndArray()
			case "decimal":
				f.e.Key("type")
				f.e.String("number")
				f.e.Key("minimum")
				f.e.Int(0)
			default:
				f.e.Key("type")
				f.e.String("string")
				f.e.Key("maxLength")
				f.e.Int(int64(x.MaxLen))
			}
			f.e.Key("description")
			f.e.String(x.Doc + " (carrier-specific)")
			f.e.EndObject()
		}
	}
	f.depth--
	f.e.EndObject()
}

// checkExtras validates the fields of a new-shipment request the catalog
// does not list against the carrier's extra fields; with lenient (rules
// feature) unknown ones are dropped instead of refused.
func (c *call) checkExtras(k *carrier, lenient bool) ([]ExtraRecord, *apiError) {
	var out []ExtraRecord
	for _, f := range c.req.Fields {
		if c.op.Param(f.Name) != nil {
			continue
		}
		var x *extraField
		for i := range k.Extras {
			if k.Extras[i].Name == f.Name {
				x = &k.Extras[i]
			}
		}
		if x == nil {
			if lenient {
				continue
			}
			return nil, rejected(400, f.Name, "not a parameter of this service (see get-service-info's schema)")
		}
		if f.Value == "" {
			continue
		}
		switch x.Kind {
		case "flag":
			if f.Value != "0" && f.Value != "1" {
				return nil, rejected(400, f.Name, "must be 0 or 1")
			}
		case "decimal":
			v, err := strconv.ParseFloat(f.Value, 64)
			if err != nil || v < 0 || v > 1e7 {
				return nil, rejected(400, f.Name, "must be a number of at least 0 with a point as decimal separator")
			}
		default:
			if n := len([]rune(f.Value)); n > x.MaxLen {
				return nil, rejected(400, f.Name, "at most "+strconv.Itoa(x.MaxLen)+" characters")
			}
		}
		out = append(out, ExtraRecord{Name: f.Name, Value: f.Value})
	}
	return out, nil
}
