// Package offers signs and verifies parcelgate's offers and drop points:
// what the edge showed a shopper, in a string the page cannot change.
//
// Every service of a get-shipments-rates answer through the edge carries
// an offer: carrier and service, the price and currency as shown, the
// route (country and normalized postal code at both ends), the parcels as
// the edge normalized them, whether it delivers to a drop point, and an
// expiry. Every drop point of a get-drop-points answer carries a point:
// its carrier and key and the country and postal code it was listed near.
// A booking bound to an offer (worker/tokens' Grant.Offer, or the master
// token's booking carrying one) is forwarded only when it books what the
// offer says; the shop's server verifies an offer offline with Verify and
// charges its Price.
//
// An offer is "pgo1.<kid>.<payload>.<mac>" and a point
// "pgp1.<kid>.<payload>.<mac>", as a scoped token is "pgt1.<kid>.…": kid
// is the id of the TOKEN_SIGNING_KEY that signed it (internal/keyset: the
// same id its tokens carry); payload is the base64url (no padding) of a
// canonical query,
//
//	e=<unix seconds>&c=<carrier>&s=<service>&p=<price>&cu=<currency>&dp=<0|1>&sr=<l|r|f>&fc=<country>&fz=<postal>&tc=<country>&tz=<postal>&pc=<parcels>[&ov=<order value>]
//	e=<unix seconds>&c=<carrier>&key=<drop point key>&cc=<country>&z=<postal>
//
// with its fields in that order and values query-escaped; sr is where the
// answer's price came from (live, recent or fallback: worker/core/RATES.md)
// and ov the cart's value the page sent with the rates request, a
// canonical decimal, left out when it sent none (issue 31); parcels are
// "weight*width*height*length*volume" joined by "," (canonical decimals:
// no leading or trailing zeros, so "1.50" and "1.5" are one parcel). mac
// is the base64url of the first 16 bytes of HMAC-SHA256 of everything
// before it ("pgo1.<kid>.<payload>") keyed with
// HMAC-SHA256(TOKEN_SIGNING_KEY, "parcelgate offer v1"): a key of its
// own, so an offer never verifies as a scoped token or a token as an
// offer, and the prefix keeps offers and points apart. 16 bytes of MAC
// (RFC 2104's truncation, as RFC 4868 uses for IPsec) keep the 128-bit
// forgery bound and save 21 characters per service of every rates answer.
//
// Keys rotate as tokens' do: Verify takes the same key set (Keys, the
// current TOKEN_SIGNING_KEY first and TOKEN_SIGNING_KEY_PREVIOUS after
// it) and picks the key by the id, so an offer signed before a rotation
// still verifies until it expires, and one of another worker is told
// apart (ErrForeign) from a tampered one (ErrTampered).
//
// As worker/tokens: the MAC is checked over the exact bytes before the
// payload is parsed (only the key id is read to choose the key), and
// Verify re-encodes what it read and compares whole strings, so a fact set
// has one spelling. Plain TinyGo-compatible Go (no fmt, reflect or
// encoding/json). The edge core links the low-level part only (Signer,
// the Append functions, Open, Field): it signs from its normalized request
// and compares a booking with an offer's payload field by field, so
// Verify's parsing stays out of the module.
package offers

import (
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/errchain"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
	"github.com/parcelgate/parcelgate/internal/keyset"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/urlquery"
)

// Prefixes of an offer and of a signed drop point.
const (
	Prefix      = "pgo1."
	PointPrefix = "pgp1."
)

// Bounds.
const (
	// MinKeyBytes is the shortest accepted TOKEN_SIGNING_KEY.
	MinKeyBytes = keyset.MinKeyBytes
	// DefaultTTL is an offer's lifetime when OFFER_TTL_SECONDS is unset.
	DefaultTTL = 1800 * time.Second
	// MinTTL and MaxTTL bound OFFER_TTL_SECONDS: a minute to a day.
	MinTTL = 60 * time.Second
	MaxTTL = 86400 * time.Second
	// MaxLen bounds an offer's or point's length; longer strings are
	// refused unread.
	MaxLen = 4096
	// TagLen is the length of an offer's Tag.
	TagLen   = 22
	macBytes = 16
)

// Place is one end of a route: an ISO country code and a postal code as
// the edge normalizes it.
type Place struct {
	Country string
	Postal  string
}

// Parcel is one parcel as the edge normalized it: decimal strings in
// canonical form (Canonical), "" for a value the request left out.
type Parcel struct {
	Weight, Width, Height, Length, Volume string
}

// Offer is what a shopper was shown for one service.
type Offer struct {
	Carrier string
	Service string
	// Price is the price as shown, a canonical decimal string ("4.95",
	// "12"): compare it with the cart's as a decimal, never as a float.
	Price    string
	Currency string
	// DropPoint: the service delivers to a drop point, so a booking must
	// name one the edge listed for Carrier near To.
	DropPoint bool
	From, To  Place
	Parcels   []Parcel
	// OrderValue is the cart's value the page sent with the rates request
	// (order_value), a canonical decimal in Currency's units ("79.9");
	// "" when it sent none. The shop's free-shipping rules priced the
	// service for it: compare it with the cart's.
	OrderValue string
	// Source is where the answer's price came from: SourceLive (the
	// carrier's answer now), SourceRecent (the last good answer, at most
	// RATES_STALE_HOURS old) or SourceFallback (the shop's own backup
	// price: no carrier's service, book your own). "" signs as live.
	Source  string
	Expires time.Time
}

// Sources of an offer's price (Offer.Source), as rates answers name them
// (data.source).
const (
	SourceLive     = "live"
	SourceRecent   = "recent"
	SourceFallback = "fallback"
)

// SourceCode is a source as an offer's payload spells it: one letter
// ('l', 'r', 'f'); 0 for anything else. "" is live.
func SourceCode(source string) byte {
	switch source {
	case SourceLive, "":
		return 'l'
	case SourceRecent:
		return 'r'
	case SourceFallback:
		return 'f'
	}
	return 0
}

func sourceName(code string) string {
	switch code {
	case "l":
		return SourceLive
	case "r":
		return SourceRecent
	case "f":
		return SourceFallback
	}
	return ""
}

// Point is a drop point the edge listed: its carrier and key, and the
// place whose drop points were asked for.
type Point struct {
	Carrier string
	Key     string
	Near    Place
	Expires time.Time
}

// Keys is the key set an offer is verified with: worker/tokens' Keys,
// the TOKEN_SIGNING_KEY in use first and, during a rotation, the one
// before it (TOKEN_SIGNING_KEY_PREVIOUS), verify-only.
type Keys = keyset.Keys

// Errors of Verify and VerifyPoint: every one is an *Error whose Reason is
// one of these sentinels' (errors.Is(err, ErrExpired), or errors.As for
// the *Error; the same shape as worker/tokens' and worker/webhooks').
var (
	ErrMalformed = &Error{Reason: "malformed"}
	ErrTampered  = &Error{Reason: "tampered"}
	ErrForeign   = &Error{Reason: "foreign"}
	ErrExpired   = &Error{Reason: "expired"}
	ErrKey       = &Error{Reason: "key"}
)

// Error is why Verify or VerifyPoint refused an offer or a point, or why
// a key cannot sign: Reason is "malformed", "tampered", "foreign",
// "expired" or "key".
type Error struct {
	Reason string
}

// Error says why the offer was refused in words a shop's log can show; code
// compares with errors.Is against the package's sentinels, not this text.
func (e *Error) Error() string {
	switch e.Reason {
	case "malformed":
		return "not an offer"
	case "tampered":
		return "offer signature does not match"
	case "foreign":
		return "offer signed with another key"
	case "expired":
		return "offer expired: quote again"
	case "key":
		return "signing key shorter than 32 bytes"
	}
	return "offer refused: " + e.Reason
}

// Is makes errors.Is(err, ErrExpired) true for every error of that
// reason (a method with a type assertion, not an interface comparison:
// under TinyGo err == ErrExpired links internal/reflectlite into the edge
// core module).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Reason == e.Reason
}

// Reason names an error of Verify: "malformed", "tampered", "foreign",
// "expired" or "key" (the Reason of the first *Error in err's chain, as
// errors.As finds it); "" for nil or any other error.
func Reason(err error) string {
	if e, ok := errchain.As[*Error](err); ok {
		return e.Reason
	}
	return ""
}

// Signer signs offers and points with one TOKEN_SIGNING_KEY: its id, the
// derived key's HMAC states and a payload buffer are made once (the edge
// signs every service of every rates answer with one Signer). Not safe
// for concurrent use (the buffer); Sign and SignPoint make one each call.
type Signer struct {
	kid string
	key hmacsha256.Key
	buf []byte
}

// NewSigner returns a Signer for the signing key (TOKEN_SIGNING_KEY).
func NewSigner(signingKey []byte) (*Signer, error) {
	if len(signingKey) < MinKeyBytes {
		return nil, ErrKey
	}
	return &Signer{kid: keyset.ID(signingKey), key: derive(signingKey)}, nil
}

// derive is the offer key's HMAC states: HMAC-SHA256(signingKey,
// "parcelgate offer v1") is the key.
func derive(signingKey []byte) hmacsha256.Key {
	k := hmacsha256.MAC(signingKey, []byte("parcelgate offer v1"))
	return hmacsha256.NewKey(k[:])
}

// KeyID is the key id offers signed with signingKey carry: the id its
// tokens carry (worker/tokens.KeyID, internal/keyset).
func KeyID(signingKey []byte) string { return keyset.ID(signingKey) }

// Sign returns o's offer (o.Expires is its expiry, to the second).
func (s *Signer) Sign(o *Offer) string {
	s.buf = AppendOffer(s.buf[:0], o)
	return s.Seal(Prefix, s.buf)
}

// SignPoint returns p's signed point.
func (s *Signer) SignPoint(p *Point) string {
	s.buf = AppendPointHead(s.buf[:0], p.Expires.Unix(), p.Carrier, p.Key)
	s.buf = AppendPlace(s.buf, "cc=", "&z=", p.Near)
	return s.Seal(PointPrefix, s.buf)
}

// Seal signs a payload the Append functions wrote: prefix (Prefix or
// PointPrefix), the key id, the payload's base64url and the MAC.
func (s *Signer) Seal(prefix string, payload []byte) string {
	return string(s.AppendSeal(make([]byte, 0, len(prefix)+len(s.kid)+2+(len(payload)*4+2)/3+TagLen), prefix, payload))
}

// AppendSeal appends Seal(prefix, payload) to dst (the edge writes every
// offer of an answer into one buffer: no allocation per offer).
func (s *Signer) AppendSeal(dst []byte, prefix string, payload []byte) []byte {
	start := len(dst)
	dst = append(dst, prefix...)
	dst = append(dst, s.kid...)
	dst = append(dst, '.')
	dst = base64lite.AppendEncode(dst, payload, base64lite.URL|base64lite.Raw)
	sum := s.key.MAC(dst[start:])
	dst = append(dst, '.')
	return base64lite.AppendEncode(dst, sum[:macBytes], base64lite.URL|base64lite.Raw)
}

// Sign returns o's offer signed with signingKey.
func Sign(signingKey []byte, o *Offer) (string, error) {
	s, err := NewSigner(signingKey)
	if err != nil {
		return "", err
	}
	return s.Sign(o), nil
}

// SignPoint returns p signed with signingKey.
func SignPoint(signingKey []byte, p *Point) (string, error) {
	s, err := NewSigner(signingKey)
	if err != nil {
		return "", err
	}
	return s.SignPoint(p), nil
}

// Tag is what binds a grant to an offer: the offer's MAC, which names it
// (worker/tokens carries it, not the whole offer). "" for a string that
// is not an offer.
func Tag(offer string) string {
	if !strings.HasPrefix(offer, Prefix) {
		return ""
	}
	i := strings.LastIndexByte(offer, '.')
	if i < len(Prefix) || len(offer)-i-1 != TagLen {
		return ""
	}
	return offer[i+1:]
}

// AppendOffer appends o's payload.
func AppendOffer(b []byte, o *Offer) []byte {
	b = AppendOfferHead(b, o.Expires.Unix(), o.Carrier, o.Service, o.Price, o.Currency, o.DropPoint, SourceCode(o.Source))
	b = AppendPlace(b, "fc=", "&fz=", o.From)
	b = AppendPlace(b, "&tc=", "&tz=", o.To)
	b = append(b, "&pc="...)
	b = AppendParcels(b, o.Parcels)
	return AppendOrderValue(b, o.OrderValue)
}

// AppendOfferHead appends the fields of an offer's payload that come
// from the answer, up to and with the "&" before its route: the edge
// appends the route, parcels and order value of the request (AppendPlace,
// AppendParcels, AppendOrderValue), the same for every service of an
// answer. source is SourceCode's letter.
func AppendOfferHead(b []byte, exp int64, carrier, service, price, currency string, dropPoint bool, source byte) []byte {
	b = append(b, "e="...)
	b = decimal.AppendInt(b, exp)
	b = appendField(b, "&c=", carrier)
	b = appendField(b, "&s=", service)
	b = appendField(b, "&p=", price)
	b = appendField(b, "&cu=", currency)
	if dropPoint {
		b = append(b, "&dp=1&sr="...)
	} else {
		b = append(b, "&dp=0&sr="...)
	}
	return append(b, source, '&')
}

// AppendOrderValue appends an offer's order value field (nothing for "":
// the page sent none).
func AppendOrderValue(b []byte, orderValue string) []byte {
	if orderValue == "" {
		return b
	}
	return appendField(b, "&ov=", orderValue)
}

// AppendPointHead appends a point's payload up to and with the "&" before
// its place (AppendPlace with "cc=", "&z=").
func AppendPointHead(b []byte, exp int64, carrier, key string) []byte {
	b = append(b, "e="...)
	b = decimal.AppendInt(b, exp)
	b = appendField(b, "&c=", carrier)
	b = appendField(b, "&key=", key)
	return append(b, '&')
}

// AppendPlace appends a place's two fields under their names.
func AppendPlace(b []byte, country, postal string, p Place) []byte {
	b = appendField(b, country, p.Country)
	return appendField(b, postal, p.Postal)
}

// AppendParcels appends the parcels as an offer's payload spells them.
func AppendParcels(b []byte, ps []Parcel) []byte {
	for i := range ps {
		p := &ps[i]
		for j, v := range [...]string{p.Weight, p.Width, p.Height, p.Length, p.Volume} {
			switch {
			case j > 0:
				b = append(b, '*')
			case i > 0:
				b = append(b, ',')
			}
			b = append(b, v...)
		}
	}
	return b
}

func appendField(b []byte, name, v string) []byte {
	b = append(b, name...)
	return urlquery.AppendEscape(b, v)
}

// Open checks s's shape, key id and MAC (with the key of keys its id
// names) and expiry, and returns its payload: what the edge compares a
// booking with (Field). prefix is Prefix or PointPrefix. Its errors are
// Verify's; a payload that is not canonical passes (only the key's
// holder can sign one; Verify refuses it).
func Open(keys Keys, prefix, s string, now time.Time) (string, error) {
	if !keys.Valid() {
		return "", ErrKey
	}
	if len(s) > MaxLen || !strings.HasPrefix(s, prefix) {
		return "", ErrMalformed
	}
	// prefix, kid, '.', payload, '.', tag
	signed := len(s) - TagLen - 1
	kidEnd := len(prefix) + keyset.IDLen
	if signed <= kidEnd+1 || s[kidEnd] != '.' || s[signed] != '.' {
		return "", ErrMalformed
	}
	key := keys.Find(s[len(prefix):kidEnd])
	if key == nil {
		return "", ErrForeign
	}
	k := derive(key)
	sum := k.MAC([]byte(s[:signed]))
	var want [TagLen]byte
	base64lite.AppendEncode(want[:0], sum[:macBytes], base64lite.URL|base64lite.Raw)
	if !hmacsha256.Equal([]byte(s[signed+1:]), want[:]) {
		return "", ErrTampered
	}
	raw, err := base64lite.Decode(s[kidEnd+1:signed], base64lite.URL|base64lite.Raw|base64lite.Strict)
	if err != nil {
		return "", ErrMalformed
	}
	payload := string(raw)
	exp, ok := decimal.ParseInt(Field(payload, "e"))
	if !ok || exp <= 0 || !strings.HasPrefix(payload, "e=") {
		return "", ErrMalformed
	}
	if now.Unix() >= exp {
		return "", ErrExpired
	}
	return payload, nil
}

// Fallback reports whether an opened offer's payload (Open) signs the
// source fallback: the shop's backup price, no carrier's service, which
// the edge never books (403 offer_fallback) and tokens.Mint never binds.
func Fallback(payload string) bool { return Field(payload, "sr") == "f" }

// Field returns the value of the field name in a payload, as written
// (query-escaped; parcels as AppendParcels writes them); "" when absent.
func Field(payload, name string) string {
	for payload != "" {
		var part string
		part, payload, _ = substr.Cut(payload, "&")
		if len(part) > len(name) && part[len(name)] == '=' && part[:len(name)] == name {
			return part[len(name)+1:]
		}
	}
	return ""
}

// Verify returns the facts of an offer signed with a key of keys that
// has not expired at now. Any other string, including another spelling
// of a valid offer, is refused: ErrForeign when no key of the set signed
// it, ErrTampered when its MAC does not match, ErrMalformed when it is
// not an offer, ErrExpired when it is past its expiry (quote again).
func Verify(keys Keys, offer string, now time.Time) (Offer, error) {
	payload, err := Open(keys, Prefix, offer, now)
	if err != nil {
		return Offer{}, err
	}
	// The order value is the one optional field, the last: the parcels
	// before it hold no "&".
	head, ov, _ := substr.Cut(payload, "&ov=")
	vals, ok := fields(head, offerNames[:])
	if !ok || (vals[5] != "0" && vals[5] != "1") || sourceName(vals[6]) == "" {
		return Offer{}, ErrMalformed
	}
	if ov, ok = urlquery.Unescape(ov); !ok || (ov != "" && Canonical(ov) != ov) {
		return Offer{}, ErrMalformed
	}
	exp, _ := decimal.ParseInt(vals[0])
	o := Offer{Carrier: vals[1], Service: vals[2], Price: vals[3], Currency: vals[4], DropPoint: vals[5] == "1", Source: sourceName(vals[6]),
		From: Place{vals[7], vals[8]}, To: Place{vals[9], vals[10]}, OrderValue: ov, Expires: time.Unix(exp, 0).UTC()}
	if o.Parcels, ok = ParseParcels(vals[11]); !ok || string(AppendOffer(nil, &o)) != payload {
		return Offer{}, ErrMalformed
	}
	return o, nil
}

// VerifyPoint returns the facts of a signed drop point (as Verify).
func VerifyPoint(keys Keys, point string, now time.Time) (Point, error) {
	payload, err := Open(keys, PointPrefix, point, now)
	if err != nil {
		return Point{}, err
	}
	vals, ok := fields(payload, pointNames[:])
	if !ok {
		return Point{}, ErrMalformed
	}
	exp, _ := decimal.ParseInt(vals[0])
	p := Point{Carrier: vals[1], Key: vals[2], Near: Place{vals[3], vals[4]}, Expires: time.Unix(exp, 0).UTC()}
	b := AppendPointHead(nil, exp, p.Carrier, p.Key)
	if string(AppendPlace(b, "cc=", "&z=", p.Near)) != payload {
		return Point{}, ErrMalformed
	}
	return p, nil
}

var (
	offerNames = [...]string{"e", "c", "s", "p", "cu", "dp", "sr", "fc", "fz", "tc", "tz", "pc"}
	pointNames = [...]string{"e", "c", "key", "cc", "z"}
)

// fields splits a payload into the values of names, in that order, each
// present once and unescaped.
func fields(p string, names []string) ([]string, bool) {
	vals := make([]string, len(names))
	for i, name := range names {
		var part string
		var more bool
		part, p, more = substr.Cut(p, "&")
		if more == (i == len(names)-1) {
			return nil, false
		}
		k, v, ok := substr.Cut(part, "=")
		if !ok || k != name {
			return nil, false
		}
		if vals[i], ok = urlquery.Unescape(v); !ok {
			return nil, false
		}
	}
	return vals, true
}

// ParseParcels reads parcels as AppendParcels writes them.
func ParseParcels(s string) ([]Parcel, bool) {
	if s == "" {
		return nil, false
	}
	var out []Parcel
	for s != "" || out == nil {
		var one string
		one, s, _ = substr.Cut(s, ",")
		var v [5]string
		for j := 0; j < 5; j++ {
			var more bool
			v[j], one, more = substr.Cut(one, "*")
			if more == (j == 4) {
				return nil, false
			}
			if v[j] != "" && Canonical(v[j]) != v[j] {
				return nil, false
			}
		}
		out = append(out, Parcel{v[0], v[1], v[2], v[3], v[4]})
	}
	return out, true
}

// Canonical returns a non-negative decimal ("007.50") in canonical form
// ("7.5"): no leading zeros, no trailing fractional zeros, no bare point.
// It returns "" for anything else (a sign, an exponent, a comma).
func Canonical(s string) string {
	i, j := 0, len(s)
	point := strings.IndexByte(s, '.')
	if point == 0 || point == len(s)-1 || s == "" {
		return ""
	}
	for k := 0; k < len(s); k++ {
		if (s[k] < '0' || s[k] > '9') && k != point {
			return ""
		}
	}
	end := len(s)
	if point > 0 {
		end = point
		for j > point+1 && s[j-1] == '0' {
			j--
		}
		if j == point+1 {
			j = point // all zeros: no fraction
		}
	}
	for i < end-1 && s[i] == '0' {
		i++
	}
	return s[i:j]
}
