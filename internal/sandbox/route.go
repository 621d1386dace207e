package sandbox

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/geo"
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

// placeOf returns the city a postal code belongs to, approximately: the
// province capital in Spain, the capital elsewhere in the EU and in
// Andorra (the coordinates are internal/geo's; geo knows a few more
// capitals, which the sandbox does not serve).
func placeOf(country, zip string) (geo.Place, bool) {
	if country == "ES" {
		if r, msg := postal.Check("ES", zip); msg == "" {
			return geo.Province(r.Province)
		}
		return geo.Place{}, false
	}
	if !inEU(country) && country != "AD" {
		return geo.Place{}, false
	}
	return geo.Capital(country)
}
