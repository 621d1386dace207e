package geo

// Static tables (composite literals: nothing is built at start).

// provinces are Spain's province capitals by province number, the first
// two digits of the province's postal codes (index 0 unused).
var provinces = [53]row{
	{},
	{"Vitoria-Gasteiz", 428467, -26716}, {"Albacete", 389943, -18585}, {"Alicante", 383452, -4810},
	{"Almería", 368340, -24637}, {"Ávila", 406565, -46818}, {"Badajoz", 388794, -69707},
	{"Palma", 395696, 26502}, {"Barcelona", 413874, 21686}, {"Burgos", 423439, -36969},
	{"Cáceres", 394753, -63724}, {"Cádiz", 365271, -62886}, {"Castellón de la Plana", 399864, -513},
	{"Ciudad Real", 389848, -39274}, {"Córdoba", 378882, -47794}, {"A Coruña", 433623, -84115},
	{"Cuenca", 400704, -21374}, {"Girona", 419794, 28214}, {"Granada", 371773, -35986},
	{"Guadalajara", 406337, -31674}, {"Donostia-San Sebastián", 433183, -19812}, {"Huelva", 372614, -69447},
	{"Huesca", 421401, -4089}, {"Jaén", 377796, -37849}, {"León", 425987, -55671},
	{"Lleida", 416176, 6200}, {"Logroño", 424627, -24450}, {"Lugo", 430097, -75568},
	{"Madrid", 404168, -37038}, {"Málaga", 367213, -44214}, {"Murcia", 379922, -11307},
	{"Pamplona", 428125, -16458}, {"Ourense", 423358, -78639}, {"Oviedo", 433619, -58494},
	{"Palencia", 420095, -45288}, {"Las Palmas de Gran Canaria", 281235, -154363}, {"Pontevedra", 424310, -86444},
	{"Salamanca", 409701, -56635}, {"Santa Cruz de Tenerife", 284636, -162518}, {"Santander", 434623, -38100},
	{"Segovia", 409429, -41088}, {"Sevilla", 373891, -59845}, {"Soria", 417636, -24649},
	{"Tarragona", 411189, 12445}, {"Teruel", 403457, -11065}, {"Toledo", 398628, -40273},
	{"Valencia", 394699, -3763}, {"Valladolid", 416523, -47245}, {"Bilbao", 432630, -29350},
	{"Zamora", 415034, -57467}, {"Zaragoza", 416488, -8891}, {"Ceuta", 358894, -53213},
	{"Melilla", 352923, -29381},
}

// row is a city with its coordinates in units of 1e-4 degrees (the
// tables' precision): half the size of float64s in the WebAssembly
// module, and exact (float64(v)/1e4 is the float64 closest to the
// decimal value, as a float64 literal would be).
type row struct {
	city     string
	lat, lon int32
}

// place returns r as a Place.
func (r *row) place() Place {
	return Place{r.city, float64(r.lat) / 1e4, float64(r.lon) / 1e4}
}

// capital is a country's capital.
type capital struct {
	country string // ISO 3166-1 alpha-2 code, uppercase
	row
}

// capitals are the capitals of the European Union member states not in
// smallCountries, by country code. Only Capital uses them, so they are
// left out of builds that only use Locate (the WebAssembly module).
var capitals = [...]capital{
	{"AT", row{"Wien", 482082, 163738}}, {"BE", row{"Bruxelles", 508503, 43517}},
	{"BG", row{"Sofia", 426977, 233219}}, {"CY", row{"Nicosia", 351856, 333823}},
	{"CZ", row{"Praha", 500755, 144378}}, {"DE", row{"Berlin", 525200, 134050}},
	{"DK", row{"København", 556761, 125683}}, {"EE", row{"Tallinn", 594370, 247536}},
	{"ES", row{"Madrid", 404168, -37038}}, {"FI", row{"Helsinki", 601699, 249384}},
	{"FR", row{"Paris", 488566, 23522}}, {"GR", row{"Athína", 379838, 237275}},
	{"HR", row{"Zagreb", 458150, 159819}}, {"HU", row{"Budapest", 474979, 190402}},
	{"IE", row{"Dublin", 533498, -62603}}, {"IT", row{"Roma", 419028, 124964}},
	{"LT", row{"Vilnius", 546872, 252797}}, {"LV", row{"Rīga", 569496, 241052}},
	{"NL", row{"Amsterdam", 523676, 49041}}, {"PL", row{"Warszawa", 522297, 210122}},
	{"PT", row{"Lisboa", 387223, -91393}}, {"RO", row{"București", 444268, 261025}},
	{"SE", row{"Stockholm", 593293, 180686}}, {"SI", row{"Ljubljana", 460569, 145058}},
	{"SK", row{"Bratislava", 481486, 171077}},
}

// smallCountries are the countries where the capital stands for every
// postal code (Locate gives PrecisionCountry), by country code: every
// place is within about 65 km of it, the spread of a large Spanish
// province. Measured with DistanceKm from the capital to the country's
// farthest places: VA < 1 km, MC ~2 km, GI ~4 km (Europa Point), SM ~8 km,
// LI ~11 km, AD ~18 km (Pas de la Casa; ~27 km to the empty north-east
// corner), MT ~34 km (western Gozo), LU ~57 km (Troisvierges; ~64 km to the
// northern tip: only that corner of Luxembourg is more than 50 km away).
// The next smallest, CY (Nicosia to Paphos ~98 km, to Cape Andreas
// ~123 km), and every larger country are left unknown: a capital hundreds
// of kilometres away would make a misleading distance. Only European
// countries are listed.
var smallCountries = [...]capital{
	{"AD", row{"Andorra la Vella", 425063, 15218}}, {"GI", row{"Gibraltar", 361408, -53536}},
	{"LI", row{"Vaduz", 471410, 95209}}, {"LU", row{"Luxembourg", 496116, 61319}},
	{"MC", row{"Monaco", 437384, 74246}}, {"MT", row{"Valletta", 358989, 145146}},
	{"SM", row{"San Marino", 439356, 124473}}, {"VA", row{"Città del Vaticano", 419029, 124534}},
}
