package sandbox

// The sandbox's fictional catalog: carriers, services, zone coverage,
// parcel bounds, pickup windows and cut-off hours. Static tables only.

// zone is a route class, as in the spec's three availability matrices.
type zone uint8

// Route zones. Spain national: urban (same province), peninsular,
// Balearic, Canary (Ceuta and Melilla are their own column, covered like
// the Canary Islands by the island carriers); national in another
// country; international EU and rest of the world.
const (
	zoneUrban zone = iota
	zonePeninsular
	zoneBalearic
	zoneCanary
	zoneCeutaMelilla
	zoneNational
	zoneEU
	zoneWorld
	nZones
)

var zoneNames = [nZones]string{"urban", "peninsular", "balearic", "canary", "ceuta_melilla", "national", "eu", "world"}

func (z zone) String() string { return zoneNames[z] }

// Prices per zone: the first kilogram of a parcel, and each further
// billable kilogram (EUR, before the service's factor).
var (
	zoneBase  = [nZones]float64{3.90, 4.90, 8.50, 12.90, 13.50, 6.50, 14.00, 29.00}
	zonePerKg = [nZones]float64{0.35, 0.45, 0.90, 1.40, 1.40, 0.60, 1.80, 4.50}
)

// volumetricDivisor turns cm³ into volumetric kg (the common 5000).
const volumetricDivisor = 5000.0

type carrier struct {
	ID          int64
	Code        string
	Name        string
	Active      bool
	Phone       string
	Website     string
	Country     string
	RefPrefix   string // 4 digits leading the carrier references
	DPPrefix    string // 2 letters leading drop point keys
	Cutoff      string // latest hour to book a same-day pickup, HH:MM
	PickupFrom  string // earliest accepted hour_start (109 before it)
	PickupTo    string // latest accepted hour_end (110 after it)
	MinWindow   int    // minimum pickup window in minutes (432 below it)
	HalfHours   bool   // hours must fall on :00 or :30 (111 otherwise)
	Collections bool   // books pickups (new-collection)
	// Parcel bounds (errors 103-107): kg, cm³, cm.
	MaxWeight, MaxVolume, MaxWidth, MaxLength, MaxHeight float64
	Extras                                               []extraField
}

// extraField is a carrier-specific new-shipment parameter, published in
// get-service-info's schema and stored in custom_carrier_parameters.
type extraField struct {
	Name   string
	Kind   string // "flag", "decimal" or "text"
	MaxLen int    // text only
	Doc    string
}

var carriers = [...]carrier{
	{ID: 1, Code: "rayo", Name: "Rayo Express", Active: true, Phone: "900100101", Website: "https://rayo.example.com", Country: "ES",
		RefPrefix: "0082", DPPrefix: "RY", Cutoff: "18:00", PickupFrom: "08:00", PickupTo: "20:00", MinWindow: 120, HalfHours: true, Collections: true,
		MaxWeight: 40, MaxVolume: 240000, MaxWidth: 120, MaxLength: 120, MaxHeight: 100,
		Extras: []extraField{
			{Name: "saturday_delivery", Kind: "flag", Doc: "deliver on Saturday (1) or not (0)"},
			{Name: "cash_on_delivery", Kind: "decimal", Doc: "amount to collect from the recipient, EUR"},
		}},
	{ID: 2, Code: "tortuga", Name: "Tortuga Paquetería", Active: true, Phone: "900200202", Website: "https://tortuga.example.com", Country: "ES",
		RefPrefix: "0154", DPPrefix: "TT", Cutoff: "17:00", PickupFrom: "09:00", PickupTo: "19:00", MinWindow: 180, HalfHours: false, Collections: true,
		MaxWeight: 30, MaxVolume: 150000, MaxWidth: 100, MaxLength: 150, MaxHeight: 80,
		Extras: []extraField{
			{Name: "cash_on_delivery", Kind: "decimal", Doc: "amount to collect from the recipient, EUR"},
		}},
	{ID: 3, Code: "alisio", Name: "Alisio Islas", Active: true, Phone: "900300303", Website: "https://alisio.example.com", Country: "ES",
		RefPrefix: "0371", DPPrefix: "AL", Cutoff: "14:00", PickupFrom: "08:00", PickupTo: "18:00", MinWindow: 120, HalfHours: true, Collections: true,
		MaxWeight: 70, MaxVolume: 400000, MaxWidth: 150, MaxLength: 200, MaxHeight: 150,
		Extras: []extraField{
			{Name: "dua_number", Kind: "text", MaxLen: 30, Doc: "customs document (DUA) for the Canary Islands, Ceuta and Melilla"},
		}},
	{ID: 4, Code: "eurolink", Name: "EuroLink Parcel", Active: true, Phone: "+3220000404", Website: "https://eurolink.example.com", Country: "BE",
		RefPrefix: "0440", DPPrefix: "EL", Cutoff: "16:00", PickupFrom: "08:30", PickupTo: "18:30", MinWindow: 120, HalfHours: true, Collections: true,
		MaxWeight: 31.5, MaxVolume: 180000, MaxWidth: 100, MaxLength: 175, MaxHeight: 100,
		Extras: []extraField{
			{Name: "insurance_value", Kind: "decimal", Doc: "declared value to insure, EUR"},
		}},
	{ID: 5, Code: "mundo-cargo", Name: "Mundo Cargo", Active: true, Phone: "+34910500505", Website: "https://mundo-cargo.example.com", Country: "ES",
		RefPrefix: "0599", DPPrefix: "MC", Cutoff: "13:00", PickupFrom: "09:00", PickupTo: "17:00", MinWindow: 240, HalfHours: true, Collections: false,
		MaxWeight: 100, MaxVolume: 1000000, MaxWidth: 200, MaxLength: 300, MaxHeight: 200,
		Extras: []extraField{
			{Name: "customs_description", Kind: "text", MaxLen: 100, Doc: "description of the goods for customs"},
			{Name: "customs_value", Kind: "decimal", Doc: "value of the goods for customs, EUR"},
		}},
	{ID: 6, Code: "viejaPostal", Name: "Vieja Postal", Active: false, Phone: "900600606", Website: "https://viejapostal.example.com", Country: "ES",
		RefPrefix: "0606", DPPrefix: "VP", Cutoff: "12:00", PickupFrom: "09:00", PickupTo: "14:00", MinWindow: 120, HalfHours: true, Collections: true,
		MaxWeight: 20, MaxVolume: 100000, MaxWidth: 80, MaxLength: 80, MaxHeight: 80},
	{ID: 7, Code: "nube", Name: "Nube Courier", Active: false, Phone: "900700707", Website: "https://nube.example.com", Country: "ES",
		RefPrefix: "0707", DPPrefix: "NB", Cutoff: "19:00", PickupFrom: "08:00", PickupTo: "21:00", MinWindow: 60, HalfHours: true, Collections: true,
		MaxWeight: 25, MaxVolume: 120000, MaxWidth: 90, MaxLength: 90, MaxHeight: 90},
}

// x marks a zone a service does not cover; other values are extra transit
// hours on top of the service's own.
const x = -1

type service struct {
	ID        int64
	Code      string
	Name      string
	Carrier   string
	Type      string // transit-time label without the h: 24, 48, ..., 24-48, 48-72, 48/72
	Hours     int    // transit hours of the label (the upper bound of a range)
	Active    bool
	DropPoint bool // delivers to drop points
	Factor    float64
	Cover     [nZones]int // extra hours per zone, x = not covered
}

var services = [...]service{
	{1, "rayo-24", "Rayo 24", "rayo", "24", 24, true, false, 1.30, [nZones]int{0, 0, 24, x, x, x, x, x}},
	{2, "rayo-urgent-14", "Rayo Urgente 14h", "rayo", "24", 24, true, false, 1.65, [nZones]int{0, 0, x, x, x, x, x, x}},
	{3, "rayo-48", "Rayo 48", "rayo", "48", 48, true, false, 1.00, [nZones]int{0, 0, 24, 48, 48, x, x, x}},
	{4, "rayo-shop", "Rayo Shop", "rayo", "48", 48, true, true, 0.85, [nZones]int{0, 0, 24, x, x, x, x, x}},
	{5, "rayo-24-48", "Rayo Nacional", "rayo", "24-48", 48, true, false, 1.10, [nZones]int{0, 0, x, x, x, x, x, x}},
	{6, "tortuga-72", "Tortuga Económico", "tortuga", "72", 72, true, false, 0.80, [nZones]int{0, 0, 24, 48, 48, x, x, x}},
	{7, "tortuga-48-72", "Tortuga Flexible", "tortuga", "48-72", 72, true, false, 0.90, [nZones]int{0, 0, 0, x, x, x, x, x}},
	{8, "tortuga-point", "Tortuga Punto", "tortuga", "48/72", 72, true, true, 0.75, [nZones]int{0, 0, x, x, x, x, x, x}},
	{9, "alisio-islas-48", "Alisio Islas 48", "alisio", "48", 48, true, false, 1.10, [nZones]int{x, x, 0, 0, 0, x, x, x}},
	{10, "alisio-24-48", "Alisio Balear Express", "alisio", "24-48", 48, true, false, 1.20, [nZones]int{x, x, 0, x, x, x, x, x}},
	{11, "alisio-96", "Alisio Marítimo", "alisio", "96", 96, true, false, 0.70, [nZones]int{x, x, 0, 0, 0, x, x, x}},
	{12, "eurolink-72", "EuroLink Road", "eurolink", "72", 72, true, false, 1.00, [nZones]int{x, x, x, x, x, 0, 0, x}},
	{13, "eurolink-120", "EuroLink Economy", "eurolink", "120", 120, true, false, 0.80, [nZones]int{x, x, x, x, x, x, 0, x}},
	{14, "eurolink-point", "EuroLink Parcel Point", "eurolink", "96", 96, true, true, 0.85, [nZones]int{x, x, x, x, x, 0, 0, x}},
	{15, "mundo-144", "Mundo Express", "mundo-cargo", "144", 144, true, false, 1.00, [nZones]int{x, x, x, x, x, x, 0, 0}},
	{16, "mundo-264", "Mundo Economy", "mundo-cargo", "264", 264, true, false, 0.70, [nZones]int{x, x, x, x, x, x, x, 0}},
	{17, "mundo-96", "Mundo Priority", "mundo-cargo", "96", 96, false, false, 1.40, [nZones]int{x, x, x, x, x, x, 0, 0}},
	{18, "viejapostal-48", "Vieja Postal 48", "viejaPostal", "48", 48, true, false, 0.95, [nZones]int{0, 0, 24, 48, 48, x, x, x}},
	{19, "nube-24", "Nube 24", "nube", "24", 24, true, false, 1.20, [nZones]int{0, 0, x, x, x, x, x, x}},
}

func findCarrier(code string) *carrier {
	for i := range carriers {
		if carriers[i].Code == code {
			return &carriers[i]
		}
	}
	return nil
}

func findService(code string) *service {
	for i := range services {
		if services[i].Code == code {
			return &services[i]
		}
	}
	return nil
}

// usable reports whether the service can be booked: it and its carrier
// are active.
func (s *service) usable() bool {
	c := findCarrier(s.Carrier)
	return s.Active && c != nil && c.Active
}

func (s *service) carrier() *carrier { return findCarrier(s.Carrier) }

// covers reports whether the service serves zone z.
func (s *service) covers(z zone) bool { return s.Cover[z] != x }

// transitHours is the service's transit time on zone z.
func (s *service) transitHours(z zone) int { return s.Hours + s.Cover[z] }

// euCountries are the member states of the European Union.
var euCountries = [...]string{"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK"}

func inEU(c string) bool {
	for _, e := range euCountries {
		if e == c {
			return true
		}
	}
	return false
}
