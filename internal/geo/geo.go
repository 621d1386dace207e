// Package geo gives the approximate location of a postal code, for showing
// distances (for instance from a shopper's postal code to drop points): the
// province capital for a Spanish postal code, the capital for a country
// small enough that its capital is a fair location for all of it, and
// nothing elsewhere. The tables are static; nothing is computed at start.
// It is TinyGo-safe: it uses math and internal/postal only.
package geo

import (
	"math"

	"github.com/parcelgate/parcelgate/internal/postal"
)

// Place is a city with its coordinates in decimal degrees (WGS 84).
type Place struct {
	// City is the city's local name, e.g. "A Coruña" or "Wien".
	City string
	// Lat and Lon are the latitude (north positive) and longitude (east
	// positive) of the city centre, to 4 decimals (about 10 m).
	Lat, Lon float64
}

// Precision says how far from a postal code's real location the Place
// Locate returns may be.
type Precision uint8

// Precisions, from unknown (no location) to the coarsest known one.
const (
	// PrecisionUnknown: the location of the postal code is not known.
	PrecisionUnknown Precision = iota
	// PrecisionProvince: the capital of the Spanish province the postal
	// code belongs to: usually within 100 km, up to ~170 km in the largest
	// provinces (Badajoz) and ~230 km in the island provinces (Las Palmas
	// to La Graciosa, Santa Cruz de Tenerife to El Hierro, Palma to Maó).
	PrecisionProvince
	// PrecisionCountry: the capital of a small country (every place within
	// about 65 km of it; see Locate).
	PrecisionCountry
)

// String returns "" (unknown), "province" or "country".
func (p Precision) String() string {
	switch p {
	case PrecisionProvince:
		return "province"
	case PrecisionCountry:
		return "country"
	}
	return ""
}

// Locate returns the approximate location of a postal code and its
// precision, or PrecisionUnknown (and the zero Place) when it is not known.
// country is an ISO 3166-1 alpha-2 code; surrounding spaces and lowercase
// letters are accepted. zip must be a valid postal code of that country
// (postal.Check), otherwise the location is unknown.
//
//   - ES: the capital of the province given by the code's first two
//     digits (PrecisionProvince).
//   - AD, GI, LI, LU, MC, MT, SM, VA: the capital (PrecisionCountry); see
//     smallCountries for why exactly these.
//   - Anywhere else: unknown.
//
// Locate does not allocate when zip is already in its normalized form.
func Locate(country, zip string) (Place, Precision) {
	a, b, ok := code(country)
	if !ok {
		return Place{}, PrecisionUnknown
	}
	if a == 'E' && b == 'S' {
		r, msg := postal.Check("ES", zip)
		if msg != "" {
			return Place{}, PrecisionUnknown
		}
		if p, ok := Province(r.Province); ok {
			return p, PrecisionProvince
		}
		return Place{}, PrecisionUnknown
	}
	for i := range smallCountries {
		c := &smallCountries[i]
		if c.country[0] != a || c.country[1] != b {
			continue
		}
		if _, msg := postal.Check(c.country, zip); msg != "" {
			break
		}
		return c.place(), PrecisionCountry
	}
	return Place{}, PrecisionUnknown
}

// code returns the two letters of an ISO country code, upper-cased, with
// surrounding ASCII spaces ignored.
func code(s string) (byte, byte, bool) {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if len(s) != 2 {
		return 0, 0, false
	}
	a, b := upper(s[0]), upper(s[1])
	if a < 'A' || a > 'Z' || b < 'A' || b > 'Z' {
		return 0, 0, false
	}
	return a, b, true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// Province returns the capital of Spanish province n (1 to 52, the first
// two digits of its postal codes: 28 is Madrid, 51 Ceuta, 52 Melilla).
func Province(n int) (Place, bool) {
	if n < 1 || n >= len(provinces) {
		return Place{}, false
	}
	return provinces[n].place(), true
}

// Capital returns the capital of a European Union member state, Andorra,
// Gibraltar, Liechtenstein, Monaco, San Marino or Vatican City. country is
// an uppercase ISO 3166-1 alpha-2 code, matched exactly.
func Capital(country string) (Place, bool) {
	for i := range capitals {
		if capitals[i].country == country {
			return capitals[i].place(), true
		}
	}
	for i := range smallCountries {
		if smallCountries[i].country == country {
			return smallCountries[i].place(), true
		}
	}
	return Place{}, false
}

// EarthRadiusKm is the mean radius of the Earth used by DistanceKm.
const EarthRadiusKm = 6371.0

// DistanceKm returns the great-circle distance in kilometres between two
// points given in decimal degrees (haversine formula on a sphere of radius
// EarthRadiusKm: within 0.5% of the distance on the ellipsoid). NaN in
// gives NaN out.
func DistanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	sLat := math.Sin((lat2 - lat1) * rad / 2)
	sLon := math.Sin((lon2 - lon1) * rad / 2)
	h := sLat*sLat + math.Cos(lat1*rad)*math.Cos(lat2*rad)*sLon*sLon
	if h > 1 {
		h = 1
	}
	return 2 * EarthRadiusKm * math.Asin(math.Sqrt(h))
}
