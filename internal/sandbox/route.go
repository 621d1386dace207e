package sandbox

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/postal"
)

// routeZone classifies a route. Country codes are uppercase and postal
// codes valid (the request was validated). Spain national routes are
// classified by their island end first (Canary, Ceuta/Melilla, Balearic),
// then urban when both ends are in the same province, else peninsular.
func routeZone(fromCountry, fromZip, toCountry, toZip string) zone {
	switch {
	case fromCountry == "ES" && toCountry == "ES":
		f, _ := postal.Check("ES", fromZip)
		t, _ := postal.Check("ES", toZip)
		switch {
		case f.Zone == postal.ZoneCanary || t.Zone == postal.ZoneCanary:
			return zoneCanary
		case f.Zone == postal.ZoneCeuta || f.Zone == postal.ZoneMelilla || t.Zone == postal.ZoneCeuta || t.Zone == postal.ZoneMelilla:
			return zoneCeutaMelilla
		case f.Zone == postal.ZoneBalearic || t.Zone == postal.ZoneBalearic:
			return zoneBalearic
		case f.Province != 0 && f.Province == t.Province:
			return zoneUrban
		}
		return zonePeninsular
	case fromCountry == toCountry:
		return zoneNational
	case inEU(fromCountry) && inEU(toCountry):
		return zoneEU
	}
	return zoneWorld
}

// madrid returns t in Spain's peninsular civil time: CET (UTC+1), CEST
// (UTC+2) from 01:00 UTC on the last Sunday of March to 01:00 UTC on the
// last Sunday of October. Computed by hand so no time zone database is
// needed (there is none under wasm).
func madrid(t time.Time) time.Time {
	u := t.UTC()
	y := u.Year()
	start := lastSunday(y, time.March)
	end := lastSunday(y, time.October)
	if !u.Before(start) && u.Before(end) {
		return u.In(cest)
	}
	return u.In(cet)
}

var (
	cet  = time.FixedZone("CET", 3600)
	cest = time.FixedZone("CEST", 7200)
)

// lastSunday returns 01:00 UTC on the last Sunday of month m of year y.
func lastSunday(y int, m time.Month) time.Time {
	d := time.Date(y, m+1, 1, 1, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	for d.Weekday() != time.Sunday {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// atMadrid returns the instant of the civil date day (any time of day
// ignored) at hh:mm Madrid time.
func atMadrid(day time.Time, minutes int) time.Time {
	y, m, d := day.Date()
	guess := time.Date(y, m, d, 0, minutes, 0, 0, cet)
	if madrid(guess).Location() == cest {
		return time.Date(y, m, d, 0, minutes, 0, 0, cest)
	}
	return guess
}

// place is a city with coordinates, used for drop points.
type place struct {
	City     string
	Lat, Lon float64
}

// provinces are Spain's province capitals by province number (index 0
// unused).
var provinces = [53]place{
	{},
	{"Vitoria-Gasteiz", 42.8467, -2.6716}, {"Albacete", 38.9943, -1.8585}, {"Alicante", 38.3452, -0.4810},
	{"Almería", 36.8340, -2.4637}, {"Ávila", 40.6565, -4.6818}, {"Badajoz", 38.8794, -6.9707},
	{"Palma", 39.5696, 2.6502}, {"Barcelona", 41.3874, 2.1686}, {"Burgos", 42.3439, -3.6969},
	{"Cáceres", 39.4753, -6.3724}, {"Cádiz", 36.5271, -6.2886}, {"Castellón de la Plana", 39.9864, -0.0513},
	{"Ciudad Real", 38.9848, -3.9274}, {"Córdoba", 37.8882, -4.7794}, {"A Coruña", 43.3623, -8.4115},
	{"Cuenca", 40.0704, -2.1374}, {"Girona", 41.9794, 2.8214}, {"Granada", 37.1773, -3.5986},
	{"Guadalajara", 40.6337, -3.1674}, {"Donostia-San Sebastián", 43.3183, -1.9812}, {"Huelva", 37.2614, -6.9447},
	{"Huesca", 42.1401, -0.4089}, {"Jaén", 37.7796, -3.7849}, {"León", 42.5987, -5.5671},
	{"Lleida", 41.6176, 0.6200}, {"Logroño", 42.4627, -2.4450}, {"Lugo", 43.0097, -7.5568},
	{"Madrid", 40.4168, -3.7038}, {"Málaga", 36.7213, -4.4214}, {"Murcia", 37.9922, -1.1307},
	{"Pamplona", 42.8125, -1.6458}, {"Ourense", 42.3358, -7.8639}, {"Oviedo", 43.3619, -5.8494},
	{"Palencia", 42.0095, -4.5288}, {"Las Palmas de Gran Canaria", 28.1235, -15.4363}, {"Pontevedra", 42.4310, -8.6444},
	{"Salamanca", 40.9701, -5.6635}, {"Santa Cruz de Tenerife", 28.4636, -16.2518}, {"Santander", 43.4623, -3.8100},
	{"Segovia", 40.9429, -4.1088}, {"Sevilla", 37.3891, -5.9845}, {"Soria", 41.7636, -2.4649},
	{"Tarragona", 41.1189, 1.2445}, {"Teruel", 40.3457, -1.1065}, {"Toledo", 39.8628, -4.0273},
	{"Valencia", 39.4699, -0.3763}, {"Valladolid", 41.6523, -4.7245}, {"Bilbao", 43.2630, -2.9350},
	{"Zamora", 41.5034, -5.7467}, {"Zaragoza", 41.6488, -0.8891}, {"Ceuta", 35.8894, -5.3213},
	{"Melilla", 35.2923, -2.9381},
}

// capitals are the other EU capitals (and Andorra's), by country code.
var capitals = [...]struct {
	Country string
	place
}{
	{"AD", place{"Andorra la Vella", 42.5063, 1.5218}}, {"AT", place{"Wien", 48.2082, 16.3738}},
	{"BE", place{"Bruxelles", 50.8503, 4.3517}}, {"BG", place{"Sofia", 42.6977, 23.3219}},
	{"CY", place{"Nicosia", 35.1856, 33.3823}}, {"CZ", place{"Praha", 50.0755, 14.4378}},
	{"DE", place{"Berlin", 52.5200, 13.4050}}, {"DK", place{"København", 55.6761, 12.5683}},
	{"EE", place{"Tallinn", 59.4370, 24.7536}}, {"FI", place{"Helsinki", 60.1699, 24.9384}},
	{"FR", place{"Paris", 48.8566, 2.3522}}, {"GR", place{"Athína", 37.9838, 23.7275}},
	{"HR", place{"Zagreb", 45.8150, 15.9819}}, {"HU", place{"Budapest", 47.4979, 19.0402}},
	{"IE", place{"Dublin", 53.3498, -6.2603}}, {"IT", place{"Roma", 41.9028, 12.4964}},
	{"LT", place{"Vilnius", 54.6872, 25.2797}}, {"LU", place{"Luxembourg", 49.6116, 6.1319}},
	{"LV", place{"Rīga", 56.9496, 24.1052}}, {"MT", place{"Valletta", 35.8989, 14.5146}},
	{"NL", place{"Amsterdam", 52.3676, 4.9041}}, {"PL", place{"Warszawa", 52.2297, 21.0122}},
	{"PT", place{"Lisboa", 38.7223, -9.1393}}, {"RO", place{"București", 44.4268, 26.1025}},
	{"SE", place{"Stockholm", 59.3293, 18.0686}}, {"SI", place{"Ljubljana", 46.0569, 14.5058}},
	{"SK", place{"Bratislava", 48.1486, 17.1077}},
}

// placeOf returns the city a postal code belongs to, approximately: the
// province capital in Spain, the capital elsewhere in the EU.
func placeOf(country, zip string) (place, bool) {
	if country == "ES" {
		if r, msg := postal.Check("ES", zip); msg == "" && r.Province > 0 && r.Province < len(provinces) {
			return provinces[r.Province], true
		}
		return place{}, false
	}
	for _, c := range capitals {
		if c.Country == country {
			return c.place, true
		}
	}
	return place{}, false
}
