// Package pricing holds a shop's shipping prices: ordered rules the edge
// applies to the carrier's rates before the page sees them (issue 31).
//
// A rule matches a service on its destination country, carrier, service
// and kind (home delivery or drop point), and then says what the shop
// charges for it: a markup in percent and a fixed amount, a rounding (up
// to a step, or up to end in .95 or .99), a minimum and a maximum, free
// at or above an order value; or it hides the service. It may also give
// the service the shop's own name per language.
//
// Decisions (documented in README.md in this folder):
//
//   - The first matching rule wins, per service; rules do not compose. A
//     shop reads its list top to bottom as peers' plugins do (Sendcloud's
//     and MyParcel's shipping rules): a hide rule above a markup rule
//     hides, a markup rule above it charges. A service no rule matches
//     keeps the carrier's price.
//   - The steps, in this order: markup percent (rounded half up to the
//     currency's minor unit), then the fixed amount, then a price below
//     zero becomes 0, then the rounding (0 stays 0: free is not rounded
//     up to 0.95), then the minimum and maximum (the shop's bounds hold
//     for the price shown, so they come after the rounding), then free at
//     or above the order value (last: a "free over 60" promise is never
//     turned back into a price by a minimum).
//   - Amounts are exact: integers of the currency's minor unit (EUR 2
//     decimals, JPY 0), never floating point. The carrier's price is
//     read exactly and rounded half up to the minor unit.
//
// Pure and TinyGo-compatible: no fmt, reflection, regexp or
// encoding/json; the setting is read with internal/jsonlite.
package pricing

// Kind is the kind of service a rule matches.
type Kind uint8

// Kinds of service.
const (
	AnyKind   Kind = iota // every service
	Home                  // delivered to the address
	DropPoint             // collected at a drop point
)

// Rounding is how a rule rounds the price.
type Rounding uint8

// Roundings.
const (
	NoRounding Rounding = iota
	Step                // up to the next multiple of Rule.Step
	End95               // up to the next price ending in .95
	End99               // up to the next price ending in .99
)

// Languages is the number of languages of a shop's service names, in
// internal/i18n's order: en es pt fr de it nl.
const Languages = 7

// LanguageTags are the languages' tags, by index.
var LanguageTags = [Languages]string{"en", "es", "pt", "fr", "de", "it", "nl"}

// Rule is one rule of the shop's table. Amounts are in minor units of
// the table's currency.
type Rule struct {
	Countries []string // upper-case ISO 3166-1 alpha-2; none: every country
	Carriers  []string // carrier codes; none: every carrier
	Services  []string // service codes; none: every service
	Kind      Kind
	Hide      bool
	// Percent is the markup in hundredths of a percent (1250 = 12.5 %).
	Percent  int64
	Fixed    int64
	Round    Rounding
	Step     int64 // Round == Step only
	Min      int64
	HasMin   bool
	Max      int64
	HasMax   bool
	FreeFrom int64 // free when the order value is at least this
	HasFree  bool
	// Names are the shop's names of the service by language ("" for
	// none): a language without one gets the English one, else the
	// carrier's name stays.
	Names [Languages]string
}

// Table is a shop's rules in one currency.
type Table struct {
	Currency  string // ISO 4217, upper case
	Precision int    // decimals of the currency's minor unit
	Rules     []Rule
}

// Service is what a rule matches and prices.
type Service struct {
	Country   string // destination, upper case
	Carrier   string
	Service   string
	DropPoint bool
	// KindUnknown: the answer does not say the service's kind
	// (get-shipment-time-arrival-estimation's entries carry no
	// is_drop_point), so a rule with a kind is not taken to match it.
	KindUnknown bool
	// Backup: the price is the shop's own backup price (RATES_FALLBACK,
	// answered while the carrier API is slow or down): the matching
	// rule's hide, name and free-from-order-value apply; its markup,
	// rounding and bounds do not. The backup table is already what the
	// shop charges, not the carrier's cost: a margin on top of it would
	// charge the margin twice, and a "free over 60" promise must hold
	// whatever answered. Result.Priced is then set only when the price
	// is 0 by the free threshold; otherwise the shop's price stays as
	// written.
	Backup   bool
	Currency string
	// Price is the carrier's price as a decimal text ("3.90", "4.95", "12").
	Price string
}

// Result is the shop's price of one service.
type Result struct {
	// Matched: a rule matched (Rule is its index). A service no rule
	// matches keeps the carrier's price and name.
	Matched bool
	Rule    int
	Hidden  bool
	// Priced: Price holds the shop's price (false when the service is in
	// another currency than the table's, or its price is not a decimal:
	// its price is left as the carrier sent it).
	Priced bool
	Price  int64 // minor units
	Free   bool  // priced 0 by the free threshold
	// Name is the shop's name in the asked language ("" for none).
	Name string
}

// Order is the cart's value, when the page gave one.
type Order struct {
	Value int64 // minor units of the table's currency
	Given bool
}

// Match returns the index of the first rule matching s, or -1.
func (t *Table) Match(s *Service) int {
	for i := range t.Rules {
		if t.Rules[i].matches(s) {
			return i
		}
	}
	return -1
}

func (r *Rule) matches(s *Service) bool {
	if r.Kind != AnyKind && s.KindUnknown {
		return false
	}
	switch r.Kind {
	case Home:
		if s.DropPoint {
			return false
		}
	case DropPoint:
		if !s.DropPoint {
			return false
		}
	}
	return in(r.Countries, s.Country) && in(r.Carriers, s.Carrier) && in(r.Services, s.Service)
}

func in(list []string, v string) bool {
	if len(list) == 0 {
		return true
	}
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Apply prices s for an order, naming it in language lang (an index of
// LanguageTags; out of range: English).
func (t *Table) Apply(s *Service, o Order, lang int) Result {
	i := t.Match(s)
	if i < 0 {
		return Result{Rule: -1}
	}
	r := &t.Rules[i]
	res := Result{Matched: true, Rule: i, Name: r.name(lang)}
	if r.Hide {
		res.Hidden = true
		return res
	}
	cur := s.Currency
	if cur == "" {
		cur = "EUR" // as the decoder reads a rate without one
	}
	if cur != t.Currency {
		return res
	}
	base, ok := ParseRounded(s.Price, t.Precision)
	if !ok {
		return res
	}
	if s.Backup { // free or as written (Price 0 either way)
		res.Free = r.free(o)
		res.Priced = res.Free
		return res
	}
	res.Priced = true
	res.Price, res.Free = r.price(base, o, t.Precision)
	return res
}

func (r *Rule) name(lang int) string {
	if lang >= 0 && lang < Languages && r.Names[lang] != "" {
		return r.Names[lang]
	}
	return r.Names[0]
}

// price is the rule's steps on a carrier price p (minor units).
func (r *Rule) price(p int64, o Order, prec int) (int64, bool) {
	if r.Percent != 0 {
		p = mulDivHalfUp(p, 10000+r.Percent, 10000)
	}
	p += r.Fixed
	if p < 0 {
		p = 0
	}
	if p > 0 {
		p = r.round(p, prec)
	}
	if r.HasMin && p < r.Min {
		p = r.Min
	}
	if r.HasMax && p > r.Max {
		p = r.Max
	}
	if r.free(o) {
		return 0, true
	}
	return p, false
}

// free: the rule makes the service free for the order.
func (r *Rule) free(o Order) bool { return r.HasFree && o.Given && o.Value >= r.FreeFrom }

// round rounds p (> 0) up as the rule says.
func (r *Rule) round(p int64, prec int) int64 {
	switch r.Round {
	case Step:
		if m := p % r.Step; m != 0 {
			p += r.Step - m
		}
	case End95, End99:
		// The ending is in hundredths of the major unit (.95): for a
		// currency of 2 decimals, 95 minor units of every 100.
		unit := pow10(prec)
		end := unit * 95 / 100
		if r.Round == End99 {
			end = unit * 99 / 100
		}
		q := p - p%unit + end
		if q < p {
			q += unit
		}
		p = q
	}
	return p
}

// mulDivHalfUp is a*m/d rounded half up (a, d >= 0; a*m stays within
// int64: prices are bounded by MaxAmount, percent by MaxPercent).
func mulDivHalfUp(a, m, d int64) int64 {
	if m < 0 {
		m = 0
	}
	return (a*m + d/2) / d
}

func pow10(n int) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// MaxAmount bounds every amount (in major units: a billion): a price or
// setting beyond it is refused, so no step overflows int64.
const MaxAmount = 1_000_000_000

// ParseExact reads a non-negative decimal ("60", "2.5", "0.95") as minor
// units of a currency with prec decimals. ok is false for anything else,
// for more decimals than prec, and beyond MaxAmount.
func ParseExact(s string, prec int) (int64, bool) {
	n, frac, ok := parseDecimal(s, prec)
	return n, ok && !frac
}

// ParseRounded reads a non-negative decimal as ParseExact, rounding
// half up what is beyond prec decimals (a carrier's "3.905" is 3.91).
func ParseRounded(s string, prec int) (int64, bool) {
	n, _, ok := parseDecimal(s, prec)
	return n, ok
}

// parseDecimal reads digits[.digits] into minor units, rounding half up
// beyond prec decimals; frac reports digits beyond prec that are not all
// zero.
func parseDecimal(s string, prec int) (n int64, frac bool, ok bool) {
	if s == "" {
		return 0, false, false
	}
	i := 0
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int64(s[i]-'0')
		digits++
		if n > MaxAmount {
			return 0, false, false
		}
	}
	if digits == 0 {
		return 0, false, false
	}
	d := 0
	roundUp := false
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			c := int64(s[i] - '0')
			switch {
			case d < prec:
				n = n*10 + c
				d++
			case d == prec && i == start+prec:
				roundUp = c >= 5
				frac = frac || c != 0
			default:
				frac = frac || c != 0
			}
		}
		if i == start {
			return 0, false, false // "3." is not a decimal
		}
	}
	if i != len(s) {
		return 0, false, false
	}
	for ; d < prec; d++ {
		n *= 10
	}
	if roundUp {
		n++
	}
	return n, frac, true
}

// Format writes minor units as a decimal with the currency's decimals
// ("5.95", "0.00", "1200").
func Format(n int64, prec int) string {
	return string(AppendFormat(nil, n, prec))
}

// AppendFormat appends Format(n, prec) to b.
func AppendFormat(b []byte, n int64, prec int) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	var buf [24]byte
	i := len(buf)
	for d := 0; d <= prec || n > 0; d++ {
		if d == prec && prec > 0 {
			i--
			buf[i] = '.'
		}
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, buf[i:]...)
}
