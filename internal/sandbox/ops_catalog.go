package sandbox

import (
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/sandbox/holidays"
	"github.com/parcelgate/parcelgate/internal/validate"
)

func (c *call) clientCarriers() (jsonlite.Value, *apiError) {
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		for i := range carriers {
			k := &carriers[i]
			e.Key(k.Code)
			e.BeginObject()
			e.Key("id_carrier")
			e.Int(k.ID)
			e.Key("carrier_name")
			e.String(k.Name)
			e.Key("carrier_code")
			e.String(k.Code)
			e.Key("status")
			e.Int(b2i(k.Active))
			e.EndObject()
		}
		e.EndObject()
	}), nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (c *call) clientServices() (jsonlite.Value, *apiError) {
	carrierCode, serviceCode, status := c.get("carrier_code"), c.get("service_code"), c.get("status")
	var list []*service
	for i := range services {
		s := &services[i]
		if carrierCode != "" && s.Carrier != carrierCode {
			continue
		}
		if serviceCode != "" && s.Code != serviceCode {
			continue
		}
		if status != "" && strconv.FormatInt(b2i(s.usable()), 10) != status {
			continue
		}
		list = append(list, s)
	}
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginArray()
		for _, s := range list {
			k := s.carrier()
			e.BeginObject()
			jsonlite.IntMember(e, "id_service", s.ID)
			jsonlite.StringMember(e, "service_name", s.Name)
			jsonlite.StringMember(e, "service_type", s.Type)
			jsonlite.StringMember(e, "service_code", s.Code)
			jsonlite.IntMember(e, "is_drop_point", b2i(s.DropPoint))
			e.Key("carrier")
			e.BeginObject()
			jsonlite.IntMember(e, "id_carrier", k.ID)
			jsonlite.StringMember(e, "carrier_name", k.Name)
			jsonlite.StringMember(e, "carrier_code", k.Code)
			e.EndObject()
			jsonlite.IntMember(e, "status", b2i(s.usable()))
			e.EndObject()
		}
		e.EndArray()
	}), nil
}

// route returns the zone of the request's route, read from the named
// parameters.
func (c *call) route(fromCountry, fromZip, toCountry, toZip string) zone {
	return routeZone(c.get(fromCountry), c.get(fromZip), c.get(toCountry), c.get(toZip))
}

// parcels returns the request's parcels as numbers (validated before).
func (c *call) parcels() []ParcelRecord {
	out := make([]ParcelRecord, len(c.req.Parcels))
	for i, p := range c.req.Parcels {
		out[i] = ParcelRecord{Weight: num(p.Weight), Width: num(p.Width), Height: num(p.Height), Length: num(p.Length), Volume: num(p.Volume)}
	}
	return out
}

func num(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// billable is the weight charged for a parcel: the real weight or the
// volumetric weight (length x width x height / 5000), whichever is more.
func billable(p ParcelRecord) float64 {
	return math.Max(p.Weight, p.Length*p.Width*p.Height/volumetricDivisor)
}

// price is the deterministic price of parcels with service s on zone z:
// per parcel the zone's base price (15% off from the second parcel) plus
// the zone's price per billable kilogram beyond the first, times the
// service's factor, rounded to cents.
func price(s *service, z zone, ps []ParcelRecord) float64 {
	sum := 0.0
	for i, p := range ps {
		base := zoneBase[z]
		if i > 0 {
			base *= 0.85
		}
		sum += base + zonePerKg[z]*math.Max(0, billable(p)-1)
	}
	return math.Round(sum*s.Factor*100) / 100
}

func money(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// checkBounds returns the 103-107 error for the first parcel beyond the
// carrier's bounds.
func checkBounds(k *carrier, ps []ParcelRecord) *apiError {
	for i, p := range ps {
		for _, b := range [...]struct {
			v, max float64
			code   int
			field  string
			unit   string
		}{
			{p.Weight, k.MaxWeight, 103, "parcel_weight", " kg"},
			{p.Volume, k.MaxVolume, 104, "parcel_volume", " cm³"},
			{p.Width, k.MaxWidth, 105, "parcel_width", " cm"},
			{p.Length, k.MaxLength, 106, "parcel_length", " cm"},
			{p.Height, k.MaxHeight, 107, "parcel_height", " cm"},
		} {
			if b.v > b.max {
				return rejected(b.code, validate.ParcelField(i, b.field), "exceeds the maximum of "+strconv.FormatFloat(b.max, 'f', -1, 64)+b.unit+" for "+k.Name)
			}
		}
	}
	return nil
}

// rateEntry is one priced service.
type rateEntry struct {
	s     *service
	price float64
}

// emitServiceHead writes the members every priced or timed service entry
// starts with (rates and arrival estimates).
func emitServiceHead(e jsonlite.Emitter, s *service) {
	k := s.carrier()
	e.Key("id_service")
	e.Int(s.ID)
	e.Key("service_name")
	e.String(s.Name)
	e.Key("service_code")
	e.String(s.Code)
	e.Key("service_type")
	e.String(s.Type)
	e.Key("carrier_code")
	e.String(k.Code)
	e.Key("carrier_name")
	e.String(k.Name)
}

func (r rateEntry) emit(e jsonlite.Emitter) {
	e.BeginObject()
	emitServiceHead(e, r.s)
	e.Key("is_drop_point")
	e.Int(b2i(r.s.DropPoint))
	e.Key("price")
	e.String(money(r.price)) // the service sends prices as strings
	e.Key("currency")
	e.String("EUR")
	e.EndObject()
}

// quote prices every usable service covering the route whose carrier
// takes the parcels, cheapest first (then by id).
func quote(z zone, ps []ParcelRecord) []rateEntry {
	var out []rateEntry
	for i := range services {
		s := &services[i]
		if !s.usable() || !s.covers(z) || checkBounds(s.carrier(), ps) != nil {
			continue
		}
		out = append(out, rateEntry{s, price(s, z, ps)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].price < out[j].price })
	return out
}

func (c *call) rates() (jsonlite.Value, *apiError) {
	z := c.route("from_country_code", "from_zip_code", "to_country_code", "to_zip_code")
	list := quote(z, c.parcels())
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		e.Key("best_price_service")
		if len(list) == 0 {
			e.Null()
		} else {
			list[0].emit(e)
		}
		e.Key("services")
		e.BeginArray()
		for _, r := range list {
			r.emit(e)
		}
		e.EndArray()
		e.EndObject()
	}), nil
}

// transit is a service's transit estimate on a route from a pickup date.
type transit struct {
	s        *service
	hours    int
	days     int
	delivery time.Time
}

// estimate counts working days: the pickup happens on the first working
// day from shipping, and delivery ceil(hours/24) working days after it.
func estimate(s *service, z zone, shipping time.Time) transit {
	h := s.transitHours(z)
	days := (h + 23) / 24
	pickup := holidays.NextWorkingDay(shipping)
	return transit{s: s, hours: h, days: days, delivery: holidays.AddWorkingDays(pickup, days)}
}

func (t transit) emit(e jsonlite.Emitter) {
	e.BeginObject()
	emitServiceHead(e, t.s)
	e.Key("transit_hours")
	e.Int(int64(t.hours))
	e.Key("working_days")
	e.Int(int64(t.days))
	e.Key("estimated_delivery_date")
	e.String(t.delivery.Format(dateLayout))
	e.EndObject()
}

const (
	dateLayout     = "2006-01-02"
	dateTimeLayout = "2006-01-02 15:04:05"
)

func parseDate(s string) time.Time {
	t, _ := time.Parse(dateLayout, s)
	return t
}

func (c *call) arrival() (jsonlite.Value, *apiError) {
	z := c.route("from_country_code", "from_zip_code", "to_country_code", "to_zip_code")
	ship := parseDate(c.get("shipping_date"))
	var list []transit
	for i := range services {
		s := &services[i]
		if s.usable() && s.covers(z) {
			list = append(list, estimate(s, z, ship))
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].hours < list[j].hours })
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		e.Key("bestArrivalTime")
		if len(list) == 0 {
			e.Null()
		} else {
			list[0].emit(e)
		}
		e.Key("services")
		e.BeginArray()
		for _, t := range list {
			t.emit(e)
		}
		e.EndArray()
		e.EndObject()
	}), nil
}

// today is the civil date in Spain, at midnight UTC.
func (c *call) today() time.Time { return holidays.Date(madrid(c.now)) }
