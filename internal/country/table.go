// Static ISO 3166-1 alpha-2 data: the 249 officially assigned codes, taken from Debian
// iso-codes 4.15.0 and cross-checked against tzdata 2025b iso3166.tab (same 249 codes).
// User-assigned or reserved codes (XK, EU, UK, ...) are not included. The same list is in
// testdata/countries.json for the JavaScript tests; country_test.go checks that the
// bitmap, the offsets, the names and that file agree.

package country

// count is the number of officially assigned ISO 3166-1 alpha-2 codes.
const count = 249

// assigned has one word per first letter (A..Z); bit j is set when the code
// with second letter 'A'+j is assigned.
var assigned = [26]uint32{
	0x2df5978, // A: AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ
	0x36f7bfb, // B: BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
	0x3f27ded, // C: CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ
	0x2005610, // D: DE DJ DK DM DO DZ
	0x00e00d4, // E: EC EE EG EH ER ES ET
	0x0025700, // F: FI FJ FK FM FO FR
	0x15fb9fb, // G: GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY
	0x01a3400, // H: HK HM HN HR HT HU
	0x00f7818, // I: ID IE IL IM IN IO IQ IR IS IT
	0x000d010, // J: JE JM JO JP
	0x342b1d0, // K: KE KG KH KI KM KN KP KR KW KY KZ
	0x13e0507, // L: LA LB LC LI LK LR LS LT LU LV LY
	0x3fffcfd, // M: MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
	0x212c975, // N: NA NC NE NF NG NI NL NO NP NR NU NZ
	0x0001000, // O: OM
	0x14e3cf1, // P: PA PE PF PG PH PK PL PM PN PR PS PT PW PY
	0x0000001, // Q: QA
	0x0544010, // R: RE RO RS RU RW
	0x3ae7fdf, // S: SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ
	0x26a7eec, // T: TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ
	0x3041041, // U: UA UG UM US UY UZ
	0x0102155, // V: VA VC VE VG VI VN VU
	0x0040020, // W: WF WS
	0x0000000, // X:
	0x0080010, // Y: YE YT
	0x0401001, // Z: ZA ZM ZW
}

// offsets[i] is the index in names of the first code starting with 'A'+i.
var offsets = [26]uint8{0, 16, 37, 56, 62, 69, 75, 94, 100, 110, 114, 125, 136, 159, 171, 172, 186, 187, 192, 213, 229, 235, 242, 244, 244, 246}

// names holds the English short names, in the order of codes.
var names = [count]string{
	"Andorra",                          // AD
	"United Arab Emirates",             // AE
	"Afghanistan",                      // AF
	"Antigua and Barbuda",              // AG
	"Anguilla",                         // AI
	"Albania",                          // AL
	"Armenia",                          // AM
	"Angola",                           // AO
	"Antarctica",                       // AQ
	"Argentina",                        // AR
	"American Samoa",                   // AS
	"Austria",                          // AT
	"Australia",                        // AU
	"Aruba",                            // AW
	"Åland Islands",                    // AX
	"Azerbaijan",                       // AZ
	"Bosnia and Herzegovina",           // BA
	"Barbados",                         // BB
	"Bangladesh",                       // BD
	"Belgium",                          // BE
	"Burkina Faso",                     // BF
	"Bulgaria",                         // BG
	"Bahrain",                          // BH
	"Burundi",                          // BI
	"Benin",                            // BJ
	"Saint Barthélemy",                 // BL
	"Bermuda",                          // BM
	"Brunei",                           // BN
	"Bolivia",                          // BO
	"Bonaire, Sint Eustatius and Saba", // BQ
	"Brazil",                           // BR
	"Bahamas",                          // BS
	"Bhutan",                           // BT
	"Bouvet Island",                    // BV
	"Botswana",                         // BW
	"Belarus",                          // BY
	"Belize",                           // BZ
	"Canada",                           // CA
	"Cocos (Keeling) Islands",          // CC
	"Democratic Republic of the Congo", // CD
	"Central African Republic",         // CF
	"Congo",                            // CG
	"Switzerland",                      // CH
	"Côte d'Ivoire",                    // CI
	"Cook Islands",                     // CK
	"Chile",                            // CL
	"Cameroon",                         // CM
	"China",                            // CN
	"Colombia",                         // CO
	"Costa Rica",                       // CR
	"Cuba",                             // CU
	"Cabo Verde",                       // CV
	"Curaçao",                          // CW
	"Christmas Island",                 // CX
	"Cyprus",                           // CY
	"Czechia",                          // CZ
	"Germany",                          // DE
	"Djibouti",                         // DJ
	"Denmark",                          // DK
	"Dominica",                         // DM
	"Dominican Republic",               // DO
	"Algeria",                          // DZ
	"Ecuador",                          // EC
	"Estonia",                          // EE
	"Egypt",                            // EG
	"Western Sahara",                   // EH
	"Eritrea",                          // ER
	"Spain",                            // ES
	"Ethiopia",                         // ET
	"Finland",                          // FI
	"Fiji",                             // FJ
	"Falkland Islands",                 // FK
	"Micronesia",                       // FM
	"Faroe Islands",                    // FO
	"France",                           // FR
	"Gabon",                            // GA
	"United Kingdom",                   // GB
	"Grenada",                          // GD
	"Georgia",                          // GE
	"French Guiana",                    // GF
	"Guernsey",                         // GG
	"Ghana",                            // GH
	"Gibraltar",                        // GI
	"Greenland",                        // GL
	"Gambia",                           // GM
	"Guinea",                           // GN
	"Guadeloupe",                       // GP
	"Equatorial Guinea",                // GQ
	"Greece",                           // GR
	"South Georgia and the South Sandwich Islands", // GS
	"Guatemala",                         // GT
	"Guam",                              // GU
	"Guinea-Bissau",                     // GW
	"Guyana",                            // GY
	"Hong Kong",                         // HK
	"Heard Island and McDonald Islands", // HM
	"Honduras",                          // HN
	"Croatia",                           // HR
	"Haiti",                             // HT
	"Hungary",                           // HU
	"Indonesia",                         // ID
	"Ireland",                           // IE
	"Israel",                            // IL
	"Isle of Man",                       // IM
	"India",                             // IN
	"British Indian Ocean Territory",    // IO
	"Iraq",                              // IQ
	"Iran",                              // IR
	"Iceland",                           // IS
	"Italy",                             // IT
	"Jersey",                            // JE
	"Jamaica",                           // JM
	"Jordan",                            // JO
	"Japan",                             // JP
	"Kenya",                             // KE
	"Kyrgyzstan",                        // KG
	"Cambodia",                          // KH
	"Kiribati",                          // KI
	"Comoros",                           // KM
	"Saint Kitts and Nevis",             // KN
	"North Korea",                       // KP
	"South Korea",                       // KR
	"Kuwait",                            // KW
	"Cayman Islands",                    // KY
	"Kazakhstan",                        // KZ
	"Laos",                              // LA
	"Lebanon",                           // LB
	"Saint Lucia",                       // LC
	"Liechtenstein",                     // LI
	"Sri Lanka",                         // LK
	"Liberia",                           // LR
	"Lesotho",                           // LS
	"Lithuania",                         // LT
	"Luxembourg",                        // LU
	"Latvia",                            // LV
	"Libya",                             // LY
	"Morocco",                           // MA
	"Monaco",                            // MC
	"Moldova",                           // MD
	"Montenegro",                        // ME
	"Saint Martin (French part)",        // MF
	"Madagascar",                        // MG
	"Marshall Islands",                  // MH
	"North Macedonia",                   // MK
	"Mali",                              // ML
	"Myanmar",                           // MM
	"Mongolia",                          // MN
	"Macao",                             // MO
	"Northern Mariana Islands",          // MP
	"Martinique",                        // MQ
	"Mauritania",                        // MR
	"Montserrat",                        // MS
	"Malta",                             // MT
	"Mauritius",                         // MU
	"Maldives",                          // MV
	"Malawi",                            // MW
	"Mexico",                            // MX
	"Malaysia",                          // MY
	"Mozambique",                        // MZ
	"Namibia",                           // NA
	"New Caledonia",                     // NC
	"Niger",                             // NE
	"Norfolk Island",                    // NF
	"Nigeria",                           // NG
	"Nicaragua",                         // NI
	"Netherlands",                       // NL
	"Norway",                            // NO
	"Nepal",                             // NP
	"Nauru",                             // NR
	"Niue",                              // NU
	"New Zealand",                       // NZ
	"Oman",                              // OM
	"Panama",                            // PA
	"Peru",                              // PE
	"French Polynesia",                  // PF
	"Papua New Guinea",                  // PG
	"Philippines",                       // PH
	"Pakistan",                          // PK
	"Poland",                            // PL
	"Saint Pierre and Miquelon",         // PM
	"Pitcairn",                          // PN
	"Puerto Rico",                       // PR
	"Palestine",                         // PS
	"Portugal",                          // PT
	"Palau",                             // PW
	"Paraguay",                          // PY
	"Qatar",                             // QA
	"Réunion",                           // RE
	"Romania",                           // RO
	"Serbia",                            // RS
	"Russia",                            // RU
	"Rwanda",                            // RW
	"Saudi Arabia",                      // SA
	"Solomon Islands",                   // SB
	"Seychelles",                        // SC
	"Sudan",                             // SD
	"Sweden",                            // SE
	"Singapore",                         // SG
	"Saint Helena, Ascension and Tristan da Cunha", // SH
	"Slovenia",                             // SI
	"Svalbard and Jan Mayen",               // SJ
	"Slovakia",                             // SK
	"Sierra Leone",                         // SL
	"San Marino",                           // SM
	"Senegal",                              // SN
	"Somalia",                              // SO
	"Suriname",                             // SR
	"South Sudan",                          // SS
	"Sao Tome and Principe",                // ST
	"El Salvador",                          // SV
	"Sint Maarten (Dutch part)",            // SX
	"Syria",                                // SY
	"Eswatini",                             // SZ
	"Turks and Caicos Islands",             // TC
	"Chad",                                 // TD
	"French Southern Territories",          // TF
	"Togo",                                 // TG
	"Thailand",                             // TH
	"Tajikistan",                           // TJ
	"Tokelau",                              // TK
	"Timor-Leste",                          // TL
	"Turkmenistan",                         // TM
	"Tunisia",                              // TN
	"Tonga",                                // TO
	"Türkiye",                              // TR
	"Trinidad and Tobago",                  // TT
	"Tuvalu",                               // TV
	"Taiwan",                               // TW
	"Tanzania",                             // TZ
	"Ukraine",                              // UA
	"Uganda",                               // UG
	"United States Minor Outlying Islands", // UM
	"United States",                        // US
	"Uruguay",                              // UY
	"Uzbekistan",                           // UZ
	"Vatican City",                         // VA
	"Saint Vincent and the Grenadines",     // VC
	"Venezuela",                            // VE
	"British Virgin Islands",               // VG
	"U.S. Virgin Islands",                  // VI
	"Vietnam",                              // VN
	"Vanuatu",                              // VU
	"Wallis and Futuna",                    // WF
	"Samoa",                                // WS
	"Yemen",                                // YE
	"Mayotte",                              // YT
	"South Africa",                         // ZA
	"Zambia",                               // ZM
	"Zimbabwe",                             // ZW
}
