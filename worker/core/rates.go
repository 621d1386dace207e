package core

import (
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/country"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Rates with a deadline (issue 31): a checkout must not wait on the
// carrier API. When get-shipments-rates has no answer by RATES_DEADLINE_MS,
// or the upstream fails (5xx, dropped connection, timeout), the edge
// answers from the last good answer for the same route and parcels (at
// most RATES_STALE_HOURS old), else from the operator's fallback table
// (RATES_FALLBACK), else as before. These are the decisions; the timer,
// the Cache API and waitUntil are worker/src/platform/rates.mjs's.

// Settings of rates with a deadline.
const (
	EnvRatesDeadlineMS = "RATES_DEADLINE_MS"
	EnvRatesStaleHours = "RATES_STALE_HOURS"
	// EnvRatesFallback is the fallback table: per destination country (or
	// * for any other) a flat price per service kind, home or drop:
	// "ES:home=4.95,drop=3.50;PT:home=7.90;*:home=12".
	EnvRatesFallback = "RATES_FALLBACK"
	// EnvRatesFallbackCurrency is the fallback prices' currency (EUR).
	EnvRatesFallbackCurrency = "RATES_FALLBACK_CURRENCY"
)

// Defaults of rates with a deadline.
const (
	DefaultRatesDeadline = 2500 * time.Millisecond
	DefaultRatesStale    = 24 * time.Hour
)

// Where a rates answer came from: data.source and the Rates-Source header.
const (
	SourceLive     = "live"
	SourceRecent   = "recent"
	SourceFallback = "fallback"
	// HeaderRatesSource names the source on every rates answer.
	HeaderRatesSource = "Rates-Source"
	// Late is the class a rescue is asked with when the deadline passed
	// before the upstream answered.
	Late = "late"
)

// fallbackRate is one row of RATES_FALLBACK: price is the validated
// decimal text, written as a JSON number.
type fallbackRate struct {
	country string // ISO code or "*"
	drop    bool
	price   string
}

// RatesPlan is what the JavaScript needs to give a rates request its
// deadline: the store's key (the cache key of the normalized request),
// and the destination the fallback table is read for.
type RatesPlan struct {
	Key      string
	Country  string
	Deadline time.Duration
	Stale    time.Duration
	// AcceptLanguage is the request's header (the rates call's): the
	// fallback services are named in the shopper's language.
	AcceptLanguage string
}

// ratesPlan is the plan of a forwarded operation, nil for all but the
// quote: the operation whose services the edge signs as offers
// (catalog.Policy.Signs), whose stored and fallback answers are offers of
// their own source. Only a quote has a deadline: bookings never come from
// stored data, and nothing else can be answered without the carrier.
func (e *Edge) ratesPlan(op string, body []byte, to string) *RatesPlan {
	if signs(op) != FieldOffer {
		return nil
	}
	return &RatesPlan{Key: e.CacheKey(op, body), Country: to, Deadline: e.cfg.RatesDeadline, Stale: e.cfg.RatesStale}
}

// rescuable says whether an answer of this class (or Late) may be
// replaced by a stored or fallback one: the upstream did not answer, or
// failed on its side. A refusal of the request (4xx, an err envelope)
// or a withheld answer is the customer's business, never hidden.
func rescuable(class string) bool {
	switch class {
	case Late, "upstream_timeout", "upstream_unreachable", "upstream_error":
		return true
	}
	return false
}

// Rescue decides the answer to a rates request whose upstream call
// failed with class (or was Late): the stored answer when it is an ok
// envelope at most RATES_STALE_HOURS old (storedAt in the past), else the
// fallback table's services for the plan's country, else nil (the caller
// answers as before: waits for the call, or relays its failure).
func (e *Edge) Rescue(class string, plan *RatesPlan, stored []byte, storedAt, now time.Time) *Response {
	if plan == nil || !rescuable(class) {
		return nil
	}
	if age := since(storedAt, now); e.cfg.RatesStale > 0 && len(stored) > 0 && !storedAt.IsZero() && age >= -time.Minute && age <= e.cfg.RatesStale {
		if b := withSource(stored, SourceRecent); b != nil {
			return ratesResponse(b, SourceRecent)
		}
	}
	if b := e.fallbackAnswer(plan.Country, i18n.FromAcceptLanguage(plan.AcceptLanguage)); b != nil {
		return ratesResponse(b, SourceFallback)
	}
	return nil
}

// Live marks a live ok rates answer with its source (nil when the body is
// not an ok envelope with an object of data).
func Live(body []byte) *Response {
	if b := withSource(body, SourceLive); b != nil {
		return ratesResponse(b, SourceLive)
	}
	return nil
}

func ratesResponse(body []byte, source string) *Response {
	return ok(body, "rates_"+source, Header{HeaderRatesSource, source})
}

// withSource is an ok envelope's body with "source" first in its data
// object; nil when it is not one.
func withSource(body []byte, source string) []byte {
	status, data, reason := sniffEnvelope(body)
	if reason != "" || status != "ok" {
		return nil
	}
	d := unitab.TrimSpace(view(data)) // copied into out below
	if len(d) < 2 || d[0] != '{' {
		return nil
	}
	rest := unitab.TrimSpace(d[1:])
	out := make([]byte, 0, len(d)+48)
	out = append(out, `{"status":"ok","data":{"source":"`...)
	out = append(out, source...)
	out = append(out, '"')
	if rest != "}" {
		out = append(out, ',')
	}
	out = append(out, rest...)
	return append(out, '}')
}

// dataSource is a rates answer's data.source as its offers sign it
// (offers.SourceCode): 'r' or 'f' when it is recent or fallback, else
// 'l' (live, or none). Read from the bytes, not parsed (a scan of the
// answer cost the edge module 330 B gzip): withSource writes
// the member first in data, so a marked raw answer starts with it, and
// the normalized answer keeps it as data's extra member after
// best_price_service and services, so it ends with it (a service of the
// upstream's may carry a member of that name: neither place is its). A
// stored answer whose data has members the spec does not list (none is
// known) ends with those when normalized: its offers then sign live, with
// their longer expiry; the fallback table's answer, written by the core,
// has none.
func dataSource(body []byte) byte {
	const head, tail = `{"status":"ok","data":{"source":"`, `"}}`
	b := view(body)
	switch {
	case strings.HasPrefix(b, head+SourceRecent+`"`), strings.HasSuffix(b, `,"source":"`+SourceRecent+tail):
		return 'r'
	case strings.HasPrefix(b, head+SourceFallback+`"`), strings.HasSuffix(b, `,"source":"`+SourceFallback+tail):
		return 'f'
	}
	return 'l'
}

// fallbackAnswer builds the rates answer of the fallback table for a
// destination (its own rows, else the * rows): the upstream's shape,
// with best_price_service the cheapest. nil when no row applies.
func (e *Edge) fallbackAnswer(to string, l i18n.Locale) []byte {
	var rows []fallbackRate
	for _, want := range [...]string{to, "*"} {
		for i := range e.cfg.RatesFallback {
			if e.cfg.RatesFallback[i].country == want {
				rows = append(rows, e.cfg.RatesFallback[i])
			}
		}
		if len(rows) > 0 {
			break
		}
	}
	if len(rows) == 0 {
		return nil
	}
	best := 0
	for i := range rows {
		if cents(rows[i].price) < cents(rows[best].price) {
			best = i
		}
	}
	w := jsonlite.NewWriter()
	w.BeginObject()
	w.Key("status")
	w.String("ok")
	w.Key("data")
	w.BeginObject()
	w.Key("source")
	w.String(SourceFallback)
	w.Key("best_price_service")
	e.fallbackService(w, &rows[best], l)
	w.Key("services")
	w.BeginArray()
	for i := range rows {
		e.fallbackService(w, &rows[i], l)
	}
	w.EndArray()
	w.EndObject()
	w.EndObject()
	return w.Bytes()
}

// fallbackService writes one fallback service in a rate entry's shape.
// Its codes say it is no carrier's: the shop books its own default
// service for it (worker/core/RATES.md). Its
// names are the shopper's to read: in the request's language (codes
// never change).
func (e *Edge) fallbackService(w *jsonlite.Writer, r *fallbackRate, l i18n.Locale) {
	code, name := "fallback-home", text(msgFallbackHome, l)
	if r.drop {
		code, name = "fallback-drop", text(msgFallbackDrop, l)
	}
	w.BeginObject()
	w.Key("id_service")
	w.Int(0)
	w.Key("service_name")
	w.String(name)
	w.Key("service_code")
	w.String(code)
	w.Key("service_type")
	w.String("fallback")
	w.Key("carrier_code")
	w.String("fallback")
	w.Key("carrier_name")
	w.String(text(msgFallbackCarrier, l))
	w.Key("is_drop_point")
	if r.drop {
		w.Int(1)
	} else {
		w.Int(0)
	}
	w.Key("price")
	w.Raw([]byte(r.price))
	w.Key("currency")
	w.String(e.cfg.RatesCurrency)
	w.EndObject()
}

// cents is a validated price in hundredths.
func cents(p string) int64 {
	whole, frac, _ := substr.Cut(p, ".")
	var n int64
	for _, c := range whole + (frac + "00")[:2] {
		n = n*10 + int64(c-'0')
	}
	return n
}

// parseFallback reads RATES_FALLBACK: rows separated by ";", each a
// country (ISO 3166-1 alpha-2, or * for any other), ":" and
// kind=price pairs separated by ",". The problem names the row.
func parseFallback(v string) ([]fallbackRate, string) {
	var out []fallbackRate
	for _, row := range substr.Split(v, ";") {
		row = unitab.TrimSpace(row)
		if row == "" {
			continue
		}
		cc, pairs, found := substr.Cut(row, ":")
		cc = unitab.Upper(unitab.TrimSpace(cc))
		if !found || unitab.TrimSpace(pairs) == "" {
			return nil, "row " + quote(row) + " must be a country, ':' and kind=price pairs, e.g. ES:home=4.95,drop=3.50"
		}
		if cc != "*" && !country.Valid(cc) {
			return nil, "row " + quote(row) + ": " + quote(cc) + " is not an ISO 3166-1 country code (or * for any other)"
		}
		for _, pair := range substr.Split(pairs, ",") {
			kind, price, _ := substr.Cut(pair, "=")
			kind, price = unitab.Lower(unitab.TrimSpace(kind)), unitab.TrimSpace(price)
			r := fallbackRate{country: cc, price: price}
			switch kind {
			case "home":
			case "drop":
				r.drop = true
			default:
				return nil, "row " + quote(row) + ": kind " + quote(kind) + " must be home or drop"
			}
			if !validPrice(price) {
				return nil, "row " + quote(row) + ": the " + kind + " price " + quote(price) + " must be an amount from 0 to 99999.99 with at most two decimals, e.g. 4.95"
			}
			for _, o := range out {
				if o.country == cc && o.drop == r.drop {
					return nil, "row " + quote(row) + ": " + cc + " " + kind + " is set twice"
				}
			}
			out = append(out, r)
		}
	}
	return out, ""
}

// validPrice: 1 to 5 digits, then optionally "." and 1 or 2 digits.
func validPrice(p string) bool {
	whole, frac, dot := substr.Cut(p, ".")
	if len(whole) < 1 || len(whole) > 5 || dot && (len(frac) < 1 || len(frac) > 2) {
		return false
	}
	for _, c := range whole + frac {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func upperLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// loadRates reads the RATES_* settings into c.
func loadRates(getenv func(string) string, whole func(string, int, int, int, string) int, bad func(string, string), c *Config) {
	c.RatesDeadline = time.Duration(whole(EnvRatesDeadlineMS, int(DefaultRatesDeadline/time.Millisecond), 0, 300000, " of milliseconds (0: no deadline, only failures are answered from stored or fallback rates)")) * time.Millisecond
	c.RatesStale = time.Duration(whole(EnvRatesStaleHours, int(DefaultRatesStale/time.Hour), 0, 720, " of hours (0: stored answers are never used)")) * time.Hour
	c.RatesCurrency = "EUR"
	if v := unitab.TrimSpace(getenv(EnvRatesFallbackCurrency)); v != "" {
		if len(v) != 3 || !upperLetters(v) {
			bad(EnvRatesFallbackCurrency, "must be an ISO 4217 currency code in capitals, e.g. EUR")
		} else {
			c.RatesCurrency = v
		}
	}
	if v := unitab.TrimSpace(getenv(EnvRatesFallback)); v != "" {
		rows, p := parseFallback(v)
		if p != "" {
			bad(EnvRatesFallback, p)
		}
		c.RatesFallback = rows
	}
}
