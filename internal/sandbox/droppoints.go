package sandbox

import (
	"strconv"
	"strings"

	"github.com/parcelgate/parcelgate/internal/geo"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/postal"
)

// Drop points are generated, not stored: the same postal code always
// gives the same points (3 to 5 per carrier), with plausible names,
// addresses near the city, coordinates and weekly opening hours. A
// drop_point_key ("<2-letter carrier prefix>-<country>-<zip>-<n>") is
// enough to regenerate its point.

// deliveryZones returns the zones a drop-point service must cover to serve
// a destination postal code.
func deliveryZones(country, zip string) []zone {
	if country == "ES" {
		r, _ := postal.Check("ES", zip)
		switch r.Zone {
		case postal.ZoneBalearic:
			return []zone{zoneBalearic}
		case postal.ZoneCanary:
			return []zone{zoneCanary}
		case postal.ZoneCeuta, postal.ZoneMelilla:
			return []zone{zoneCeutaMelilla}
		}
		return []zone{zonePeninsular, zoneUrban}
	}
	if inEU(country) {
		return []zone{zoneEU, zoneNational}
	}
	return []zone{zoneWorld}
}

// servesDropPoints reports whether carrier k has an active drop-point
// service reaching country/zip.
func servesDropPoints(k *carrier, country, zip string) bool {
	zs := deliveryZones(country, zip)
	for i := range services {
		s := &services[i]
		if s.Carrier != k.Code || !s.DropPoint || !s.usable() {
			continue
		}
		for _, z := range zs {
			if s.covers(z) {
				return true
			}
		}
	}
	return false
}

// hasDropPointService reports whether carrier k has any active drop-point
// service.
func hasDropPointService(k *carrier) bool {
	for i := range services {
		if services[i].Carrier == k.Code && services[i].DropPoint && services[i].usable() {
			return true
		}
	}
	return false
}

var (
	shopKinds = [...]string{"Papelería", "Estanco", "Quiosco", "Ferretería", "Librería", "Droguería", "Tienda", "Floristería"}
	shopNames = [...]string{"Sol", "La Esquina", "Central", "El Faro", "San Juan", "Mari", "Los Pinos", "La Plaza", "Luna", "El Puente"}
	streets   = map[string][]string{
		"ES": {"Calle Mayor", "Avenida de la Constitución", "Calle Real", "Plaza de España", "Calle Nueva", "Avenida de Andalucía", "Calle San Francisco", "Calle del Carmen"},
		"PT": {"Rua Augusta", "Avenida da República", "Rua do Comércio", "Rua da Liberdade"},
		"FR": {"Rue de la République", "Avenue Jean Jaurès", "Rue Victor Hugo", "Boulevard Pasteur"},
		"DE": {"Hauptstraße", "Bahnhofstraße", "Schulstraße", "Gartenstraße"},
		"IT": {"Via Roma", "Corso Italia", "Via Garibaldi", "Via Dante"},
		"NL": {"Kerkstraat", "Dorpsstraat", "Stationsweg", "Molenstraat"},
		"":   {"Main Street", "Market Square", "Station Road", "Church Street"},
	}
	weekdayHours = [...]string{"09:00 - 20:00", "09:30 - 14:00", "10:00 - 21:00", "08:30 - 19:30"}
)

// dropPoint generates point i (0-based) of carrier k at country/zip.
func dropPoint(k *carrier, country, zip string, at geo.Place, i int) DropPointRec {
	h := fnv64(0, "droppoint", k.Code, country, zip, strconv.Itoa(i))
	locker := i == 1
	d := DropPointRec{CarrierCode: k.Code, Key: k.DPPrefix + "-" + country + "-" + zip + "-" + strconv.Itoa(i+1), ZipCode: zip, City: at.City}
	switch {
	case locker:
		d.Name = k.Name + " Locker " + at.City
	case country == "ES":
		d.Name = shopKinds[h%uint64(len(shopKinds))] + " " + shopNames[(h>>8)%uint64(len(shopNames))]
	default:
		d.Name = k.Name + " Point " + at.City + " " + strconv.Itoa(i+1)
	}
	st := streets[country]
	if st == nil {
		st = streets[""]
	}
	d.Address = st[(h>>16)%uint64(len(st))] + " " + strconv.Itoa(int((h>>24)%120)+1)
	d.Lat = round6(at.Lat + (float64((h>>32)%600)-300)/10000)
	d.Lon = round6(at.Lon + (float64((h>>44)%600)-300)/10000)
	if locker {
		for j := range d.TimeTable {
			d.TimeTable[j] = "00:00 - 23:59"
		}
	} else {
		wd := weekdayHours[(h>>52)%uint64(len(weekdayHours))]
		for j := 0; j < 5; j++ {
			d.TimeTable[j] = wd
		}
		if h&1 == 0 {
			d.TimeTable[5] = "10:00 - 14:00"
		}
	}
	d.Phone = "9" + digits(h%1e8, 8)
	if country != "ES" {
		d.Phone = "+" + digits(h%1e10, 10)
	}
	return d
}

func round6(f float64) float64 {
	if f < 0 {
		return -float64(int64(-f*1e6+0.5)) / 1e6
	}
	return float64(int64(f*1e6+0.5)) / 1e6
}

// dropPointCount is how many points carrier k has at zip (3 to 5).
func dropPointCount(k *carrier, country, zip string) int {
	return 3 + int(fnv64(0, "droppoints", k.Code, country, zip)%3)
}

// dropPointsAt lists the drop points of carrier k at country/zip.
func dropPointsAt(k *carrier, country, zip string) []DropPointRec {
	at, ok := placeOf(country, zip)
	if !ok || !servesDropPoints(k, country, zip) {
		return nil
	}
	n := dropPointCount(k, country, zip)
	out := make([]DropPointRec, n)
	for i := range out {
		out[i] = dropPoint(k, country, zip, at, i)
	}
	return out
}

// findDropPoint regenerates the drop point of a key.
func findDropPoint(key string) (*DropPointRec, bool) {
	parts := strings.Split(key, "-")
	if len(parts) < 4 {
		return nil, false
	}
	n, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil || n < 1 {
		return nil, false
	}
	country, zip := parts[1], strings.Join(parts[2:len(parts)-1], "-")
	for i := range carriers {
		k := &carriers[i]
		if k.DPPrefix != parts[0] || !k.Active {
			continue
		}
		list := dropPointsAt(k, country, zip)
		if n > len(list) {
			return nil, false
		}
		return &list[n-1], true
	}
	return nil, false
}

func (c *call) dropPoints() (jsonlite.Value, *apiError) {
	country, zip, code := c.get("country_code"), c.get("zip_code"), c.get("carrier_code")
	var list []DropPointRec
	if code != "" {
		k := findCarrier(code)
		if k == nil || !k.Active {
			return nil, rejected(108, "carrier_code", "the service is not contracted: unknown or deactivated carrier "+quoteName(code))
		}
		if !hasDropPointService(k) {
			return nil, rejected(469, "carrier_code", "at least one service with drop-point delivery must be activated: "+k.Code+" has none")
		}
		list = dropPointsAt(k, country, zip)
	} else {
		for i := range carriers {
			if carriers[i].Active {
				list = append(list, dropPointsAt(&carriers[i], country, zip)...)
			}
		}
	}
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		e.Key("drop_points")
		e.BeginArray()
		for i := range list {
			emitDropPoint(e, &list[i])
		}
		e.EndArray()
		e.EndObject()
	}), nil
}

var dayKeys = [7]string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// emitDropPoint writes a drop point; coordinates travel as decimal
// strings, as in the service's example.
func emitDropPoint(e jsonlite.Emitter, d *DropPointRec) {
	e.BeginObject()
	kv(e, "carrier_code", d.CarrierCode)
	kv(e, "drop_point_key", d.Key)
	kv(e, "name", d.Name)
	kv(e, "address", d.Address)
	kv(e, "zip_code", d.ZipCode)
	kv(e, "city", d.City)
	kv(e, "latitude", strconv.FormatFloat(d.Lat, 'f', 6, 64))
	kv(e, "longitude", strconv.FormatFloat(d.Lon, 'f', 6, 64))
	e.Key("time_table")
	e.BeginObject()
	for i, k := range dayKeys {
		kv(e, k, d.TimeTable[i])
	}
	e.EndObject()
	kv(e, "phone", d.Phone)
	e.EndObject()
}

func kv(e jsonlite.Emitter, k, v string) {
	e.Key(k)
	e.String(v)
}

// cutoffFor is the latest hour to book a same-day pickup with carrier k
// from the sender's postal code on a route of zone z: the carrier's hour,
// one hour earlier from the islands, Ceuta and Melilla, and one hour
// earlier again outside the EU.
func cutoffFor(k *carrier, z zone, fromCountry, fromZip string) string {
	m, _ := hourMinutes(k.Cutoff)
	if fromCountry == "ES" {
		if r, _ := postal.Check("ES", fromZip); r.Zone != postal.ZonePeninsular {
			m -= 60
		}
	}
	if z == zoneWorld {
		m -= 60
	}
	return hhmm(m)
}

// hourMinutes parses HH:MM into minutes after midnight.
func hourMinutes(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[:2])
	m, err2 := strconv.Atoi(s[3:])
	if err1 != nil || err2 != nil || h > 23 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}

func hhmm(m int) string { return digits(uint64(m/60), 2) + ":" + digits(uint64(m%60), 2) }

func (c *call) cutoff() (jsonlite.Value, *apiError) {
	k := findCarrier(c.get("carrier_code"))
	if k == nil || !k.Active {
		return nil, rejected(108, "carrier_code", "the service is not contracted: unknown or deactivated carrier "+quoteName(c.get("carrier_code")))
	}
	if !k.Collections {
		return nil, rejected(108, "carrier_code", "the service is not contracted: "+k.Code+" does not book pickups")
	}
	z := c.route("country_code", "zip_code", "to_country_code", "to_zip_code")
	covered := false
	for i := range services {
		if services[i].Carrier == k.Code && services[i].usable() && services[i].covers(z) {
			covered = true
		}
	}
	if !covered {
		return nil, rejected(117, "to_zip_code", "location out of range: "+k.Code+" does not serve the "+z.String()+" zone")
	}
	cut := cutoffFor(k, z, c.get("country_code"), c.get("zip_code"))
	country, zip := c.get("country_code"), c.get("zip_code")
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		kv(e, "country_code", country)
		kv(e, "zip_code", zip)
		kv(e, "cutoff", cut)
		e.EndObject()
	}), nil
}
