package geo

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/postal"
	"github.com/parcelgate/parcelgate/internal/testvectors"
)

type point struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

type vectors struct {
	Locate []struct {
		Country   string  `json:"country"`
		Zip       string  `json:"zip"`
		City      string  `json:"city"`
		Precision string  `json:"precision"`
		Lat       float64 `json:"lat"`
		Lon       float64 `json:"lon"`
	} `json:"locate"`
	Distance []struct {
		A    point   `json:"a"`
		B    point   `json:"b"`
		Km   float64 `json:"km"`
		Note string  `json:"note"`
	} `json:"distance"`
}

func loadVectors(t testing.TB) vectors {
	t.Helper()
	var v vectors
	testvectors.Load(t, "geo.json", &v)
	require.GreaterOrEqual(t, len(v.Locate), 30)
	require.GreaterOrEqual(t, len(v.Distance), 5)
	return v
}

// TestSharedVectors runs testdata/geo.json, shared with the JavaScript tests.
func TestSharedVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.Locate {
		name := strconv.Quote(c.Country) + " " + strconv.Quote(c.Zip)
		p, prec := Locate(c.Country, c.Zip)
		if c.City == "" {
			assert.Equal(t, PrecisionUnknown, prec, name)
			assert.Equal(t, Place{}, p, name)
			continue
		}
		assert.Equal(t, c.Precision, prec.String(), name)
		assert.Equal(t, Place{c.City, c.Lat, c.Lon}, p, name)
	}
	for _, c := range v.Distance {
		assert.InDelta(t, c.Km, DistanceKm(c.A.Lat, c.A.Lon, c.B.Lat, c.B.Lon), 0.001, c.Note)
	}
}

func TestPrecisionString(t *testing.T) {
	cases := map[Precision]string{PrecisionUnknown: "", PrecisionProvince: "province", PrecisionCountry: "country", 99: ""}
	for p, want := range cases {
		assert.Equal(t, want, p.String(), "%d", p)
	}
}

// Every valid Spanish postal code is located at its province capital.
func TestLocateEveryProvince(t *testing.T) {
	for n := 1; n <= 52; n++ {
		zip := strconv.Itoa(n*1000 + 1)
		if n < 10 {
			zip = "0" + zip
		}
		r, msg := postal.Check("ES", zip)
		require.Empty(t, msg, zip)
		require.Equal(t, n, r.Province, zip)
		want, ok := Province(n)
		require.True(t, ok, n)
		p, prec := Locate("ES", zip)
		assert.Equal(t, PrecisionProvince, prec, zip)
		assert.Equal(t, want, p, zip)
		assert.NotEmpty(t, p.City, zip)
		// Inside Spain's bounding box (Canaries to Menorca, Melilla to Estaca de Bares).
		assert.True(t, p.Lat > 27.6 && p.Lat < 43.8 && p.Lon > -18.2 && p.Lon < 4.4, "%s: %+v", zip, p)
	}
}

func TestProvince(t *testing.T) {
	cases := []struct {
		n    int
		city string
		ok   bool
	}{
		{0, "", false}, {-1, "", false}, {53, "", false}, {1 << 40, "", false},
		{1, "Vitoria-Gasteiz", true}, {8, "Barcelona", true}, {28, "Madrid", true},
		{35, "Las Palmas de Gran Canaria", true}, {51, "Ceuta", true}, {52, "Melilla", true},
	}
	for _, c := range cases {
		p, ok := Province(c.n)
		assert.Equal(t, c.ok, ok, c.n)
		assert.Equal(t, c.city, p.City, c.n)
	}
}

func TestCapital(t *testing.T) {
	cases := []struct {
		country, city string
		ok            bool
	}{
		{"ES", "Madrid", true}, {"FR", "Paris", true}, {"DE", "Berlin", true}, {"AD", "Andorra la Vella", true},
		{"LU", "Luxembourg", true}, {"MT", "Valletta", true}, {"GI", "Gibraltar", true}, {"VA", "Città del Vaticano", true},
		{"fr", "", false}, {" FR", "", false}, {"GB", "", false}, {"US", "", false}, {"", "", false}, {"FRA", "", false},
	}
	for _, c := range cases {
		p, ok := Capital(c.country)
		assert.Equal(t, c.ok, ok, c.country)
		assert.Equal(t, c.city, p.City, c.country)
	}
	// Every EU member state has one.
	for _, c := range []string{"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK"} {
		_, ok := Capital(c)
		assert.True(t, ok, c)
	}
}

// The tables are well formed: unique sorted codes, plausible European
// coordinates, and a small country is really small.
func TestTables(t *testing.T) {
	all := append(append([]capital(nil), capitals[:]...), smallCountries[:]...)
	seen := map[string]bool{}
	for i := range all {
		c := &all[i]
		assert.Len(t, c.country, 2)
		assert.False(t, seen[c.country], "duplicate %s", c.country)
		seen[c.country] = true
		p := c.place()
		assert.NotEmpty(t, p.City, c.country)
		assert.True(t, p.Lat > 34 && p.Lat < 61 && p.Lon > -10 && p.Lon < 35, "%s: %+v", c.country, p)
	}
	assert.Equal(t, row{}, provinces[0])
	// The 1e-4 degree integers convert to exactly the float64 of the
	// decimal literal (what the tables held as float64 before).
	rows := append([]row(nil), provinces[1:]...)
	for i := range all {
		rows = append(rows, all[i].row)
	}
	for _, r := range rows {
		p := r.place()
		assert.Equal(t, decimal(t, r.lat), p.Lat, r.city)
		assert.Equal(t, decimal(t, r.lon), p.Lon, r.city)
	}
	// Far corners of the small countries (see the table's comment): all
	// within 65 km of their capital.
	corners := []struct {
		country  string
		lat, lon float64
	}{
		{"AD", 42.6556, 1.7866}, {"LU", 50.1827, 6.0275}, {"MT", 36.0483, 14.1900},
		{"LI", 47.2380, 9.5250}, {"SM", 43.9920, 12.5100}, {"GI", 36.1100, -5.3450},
	}
	for _, c := range corners {
		p, _ := Capital(c.country)
		d := DistanceKm(p.Lat, p.Lon, c.lat, c.lon)
		assert.Less(t, d, 65.0, c.country)
		_, prec := Locate(c.country, postal.Example(c.country))
		if c.country != "AD" {
			assert.Equal(t, PrecisionCountry, prec, c.country)
		}
	}
}

// decimal parses v/1e4 written out in decimal ("-2.6716" for -26716).
func decimal(t *testing.T, v int32) float64 {
	sign, a := "", int64(v)
	if a < 0 {
		sign, a = "-", -a
	}
	frac := strconv.FormatInt(a%10000+10000, 10)[1:]
	f, err := strconv.ParseFloat(sign+strconv.FormatInt(a/10000, 10)+"."+frac, 64)
	require.NoError(t, err)
	return f
}

func TestLocateNeverPanics(t *testing.T) {
	for _, c := range []string{"", "ES", "es", "\xff\xfe", "E\x00", "ESES", " ", "AD", "\t lu\n"} {
		for _, z := range []string{"", "\xff", "28001", "AD500", "1", "12345678901234567890", "-", "  "} {
			p, prec := Locate(c, z)
			if prec == PrecisionUnknown {
				assert.Equal(t, Place{}, p)
			} else {
				assert.NotEmpty(t, p.City)
			}
		}
	}
}

func TestDistanceKm(t *testing.T) {
	cases := []struct {
		name                   string
		lat1, lon1, lat2, lon2 float64
		want                   float64
	}{
		{"same point", 40, -3, 40, -3, 0},
		{"one degree of latitude", 0, 0, 1, 0, EarthRadiusKm * math.Pi / 180},
		{"one degree of longitude at 60N is half of one at the equator", 60, 0, 60, 1, 55.597},
		{"pole to pole", 90, 0, -90, 0, EarthRadiusKm * math.Pi},
		{"longitude is irrelevant at a pole", 90, 10, 90, -170, 0},
		{"nearly antipodal stays finite", 0, 0, 1e-9, 180, EarthRadiusKm * math.Pi},
	}
	for _, c := range cases {
		got := DistanceKm(c.lat1, c.lon1, c.lat2, c.lon2)
		assert.InDelta(t, c.want, got, 0.001, c.name)
		assert.InDelta(t, got, DistanceKm(c.lat2, c.lon2, c.lat1, c.lon1), 1e-9, "symmetric: "+c.name)
	}
	assert.True(t, math.IsNaN(DistanceKm(math.NaN(), 0, 0, 0)))
}

func TestLocateDoesNotAllocate(t *testing.T) {
	for _, c := range [][2]string{{"ES", "28001"}, {"es", "08001"}, {"LU", "1009"}, {"FR", "75001"}, {"ES", "99999"}} {
		n := testing.AllocsPerRun(100, func() { Locate(c[0], c[1]) })
		assert.Zero(t, n, "%v", c)
	}
}

func BenchmarkLocate(b *testing.B) {
	b.ReportAllocs()
	in := [][2]string{{"ES", "28001"}, {"es", "41001"}, {"LU", "1009"}, {"FR", "75001"}, {"ES", "53001"}}
	for i := 0; b.Loop(); i++ {
		c := in[i%len(in)]
		Locate(c[0], c[1])
	}
}

func BenchmarkDistanceKm(b *testing.B) {
	b.ReportAllocs()
	var sink float64
	for b.Loop() {
		sink += DistanceKm(40.4168, -3.7038, 41.3874, 2.1686)
	}
	_ = sink
}

// FuzzLocate checks that Locate never panics and only locates valid postal codes.
func FuzzLocate(f *testing.F) {
	for _, c := range loadVectors(f).Locate {
		f.Add(c.Country, c.Zip)
	}
	f.Fuzz(func(t *testing.T, country, zip string) {
		p, prec := Locate(country, zip)
		if prec == PrecisionUnknown {
			if p != (Place{}) {
				t.Fatalf("unknown with a place: %+v", p)
			}
			return
		}
		if p.City == "" || prec.String() == "" {
			t.Fatalf("%q %q: %+v %v", country, zip, p, prec)
		}
		a, b, ok := code(country)
		if !ok {
			t.Fatalf("%q located although not a country code", country)
		}
		if _, msg := postal.Check(string([]byte{a, b}), zip); msg != "" {
			t.Fatalf("%q %q located although invalid: %s", country, zip, msg)
		}
	})
}
