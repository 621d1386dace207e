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
// An offer is "pgo1.<payload>.<mac>" and a point "pgp1.<payload>.<mac>":
// payload is the base64url (no padding) of a canonical query,
//
//	k=<key id>&e=<unix seconds>&c=<carrier>&s=<service>&p=<price>&cu=<currency>&dp=<0|1>&fc=<country>&fz=<postal>&tc=<country>&tz=<postal>&pc=<parcels>
//	k=<key id>&e=<unix seconds>&c=<carrier>&key=<drop point key>&cc=<country>&z=<postal>
//
// with its fields in that order and values query-escaped; parcels are
// "weight*width*height*length*volume" joined by "," (canonical decimals:
// no leading or trailing zeros, so "1.50" and "1.5" are one parcel). mac
// is the base64url of the first 16 bytes of HMAC-SHA256("<prefix><payload>")
// keyed with HMAC-SHA256(TOKEN_SIGNING_KEY, "parcelgate offer v1"): a key
// of its own, so an offer never verifies as a scoped token or a token as
// an offer, and the prefix keeps offers and points apart. 16 bytes of MAC
// (RFC 2104's truncation, as RFC 4868 uses for IPsec) keep the 128-bit
// forgery bound and save 21 characters per service of every rates answer.
//
// The key id is the base64url of 3 bytes of HMAC-SHA256(TOKEN_SIGNING_KEY,
// "parcelgate key id v1"): Verify takes a key set (the current key and the
// previous one during a rotation) and picks the key by it, so an offer
// signed before a rotation still verifies until it expires, and one of
// another worker is told apart (ErrForeign) from a tampered one
// (ErrTampered). The id names a key without revealing it.
//
// As worker/tokens: the MAC is checked over the exact bytes before the
// payload is parsed (only the key id is read to choose the key), and
// Verify re-encodes what it read and compares whole strings, so a fact set
// has one spelling. Plain TinyGo-compatible Go (no fmt, reflect or
// encoding/json): the edge core links it.
package offers

import (
	"hash"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
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
	MinKeyBytes = 32
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
	Expires   time.Time
}

// Point is a drop point the edge listed: its carrier and key, and the
// place whose drop points were asked for.
type Point struct {
	Carrier string
	Key     string
	Near    Place
	Expires time.Time
}

// Keys is the key set an offer is verified with: the TOKEN_SIGNING_KEY
// in use and, during a rotation, the one before it
// (TOKEN_SIGNING_KEY_PREVIOUS), verify-only.
type Keys struct {
	Current  []byte
	Previous []byte
}

// Errors of Verify and VerifyPoint. Compare with errors.Is (or ==), or
// name one with Reason.
var (
	ErrMalformed error = &verifyError{"malformed", "not an offer"}
	ErrTampered  error = &verifyError{"tampered", "offer signature does not match"}
	ErrForeign   error = &verifyError{"foreign", "offer signed with another key"}
	ErrExpired   error = &verifyError{"expired", "offer expired: quote again"}
	ErrKey       error = &verifyError{"key", "signing key shorter than 32 bytes"}
)

// verifyError is the type of the errors, so that Reason tells them apart
// with a type assertion (interface comparison links reflectlite under
// TinyGo).
type verifyError struct{ reason, msg string }

func (e *verifyError) Error() string { return e.msg }

// Reason names an error of Verify: "malformed", "tampered", "foreign",
// "expired" or "key"; "" for nil or any other error.
func Reason(err error) string {
	if e, ok := err.(*verifyError); ok {
		return e.reason
	}
	return ""
}

// Signer signs offers and points with one TOKEN_SIGNING_KEY: the derived
// key and its running MAC are made once (the edge signs every service of
// every rates answer).
type Signer struct {
	id  string
	mac hash.Hash
	buf []byte
}

// NewSigner returns a Signer for the signing key (TOKEN_SIGNING_KEY).
func NewSigner(signingKey []byte) (*Signer, error) {
	if len(signingKey) < MinKeyBytes {
		return nil, ErrKey
	}
	k := derive(signingKey)
	return &Signer{id: KeyID(signingKey), mac: hmacsha256.NewMAC(k[:])}, nil
}

func derive(signingKey []byte) [hmacsha256.Size]byte {
	return hmacsha256.MAC(signingKey, []byte("parcelgate offer v1"))
}

// KeyID is the key id offers signed with signingKey carry.
func KeyID(signingKey []byte) string {
	s := hmacsha256.MAC(signingKey, []byte("parcelgate key id v1"))
	return base64lite.Encode(s[:3], base64lite.URL|base64lite.Raw)
}

// Sign returns o's offer (o.Expires is its expiry, to the second).
func (s *Signer) Sign(o *Offer) string {
	return s.seal(Prefix, appendOffer(s.buf[:0], s.id, o))
}

// SignPoint returns p's signed point.
func (s *Signer) SignPoint(p *Point) string {
	return s.seal(PointPrefix, appendPoint(s.buf[:0], s.id, p))
}

func (s *Signer) seal(prefix string, payload []byte) string {
	s.buf = payload
	signed := prefix + base64lite.Encode(payload, base64lite.URL|base64lite.Raw)
	s.mac.Reset()
	s.mac.Write([]byte(signed))
	var sum [hmacsha256.Size]byte
	s.mac.Sum(sum[:0])
	return signed + "." + base64lite.Encode(sum[:macBytes], base64lite.URL|base64lite.Raw)
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

func appendOffer(b []byte, id string, o *Offer) []byte {
	b = append(b, "k="...)
	b = append(b, id...)
	b = append(b, "&e="...)
	b = strconv.AppendInt(b, o.Expires.Unix(), 10)
	b = appendField(b, "&c=", o.Carrier)
	b = appendField(b, "&s=", o.Service)
	b = appendField(b, "&p=", o.Price)
	b = appendField(b, "&cu=", o.Currency)
	if o.DropPoint {
		b = append(b, "&dp=1"...)
	} else {
		b = append(b, "&dp=0"...)
	}
	b = appendField(b, "&fc=", o.From.Country)
	b = appendField(b, "&fz=", o.From.Postal)
	b = appendField(b, "&tc=", o.To.Country)
	b = appendField(b, "&tz=", o.To.Postal)
	b = append(b, "&pc="...)
	return AppendParcels(b, o.Parcels)
}

// AppendParcels appends the parcels as an offer's payload spells them
// (the edge precomputes it once per rates answer).
func AppendParcels(b []byte, ps []Parcel) []byte {
	for i := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		p := &ps[i]
		b = append(b, p.Weight...)
		b = append(b, '*')
		b = append(b, p.Width...)
		b = append(b, '*')
		b = append(b, p.Height...)
		b = append(b, '*')
		b = append(b, p.Length...)
		b = append(b, '*')
		b = append(b, p.Volume...)
	}
	return b
}

func appendPoint(b []byte, id string, p *Point) []byte {
	b = append(b, "k="...)
	b = append(b, id...)
	b = append(b, "&e="...)
	b = strconv.AppendInt(b, p.Expires.Unix(), 10)
	b = appendField(b, "&c=", p.Carrier)
	b = appendField(b, "&key=", p.Key)
	b = appendField(b, "&cc=", p.Near.Country)
	return appendField(b, "&z=", p.Near.Postal)
}

func appendField(b []byte, name, v string) []byte {
	b = append(b, name...)
	return append(b, urlquery.Escape(v)...)
}

// Verify returns the facts of an offer signed with a key of keys that
// has not expired at now. Any other string, including another spelling
// of a valid offer, is refused: ErrForeign when no key of the set signed
// it, ErrTampered when its MAC does not match, ErrMalformed when it is
// not an offer, ErrExpired when it is past its expiry (quote again).
func Verify(keys Keys, offer string, now time.Time) (Offer, error) {
	var o Offer
	payload, signer, err := open(keys, Prefix, offer)
	if err != nil {
		return o, err
	}
	vals, ok := fields(payload, offerNames[:])
	if !ok {
		return o, ErrMalformed
	}
	exp, ok := decimal.ParseInt(vals[1])
	if !ok || exp <= 0 || (vals[6] != "0" && vals[6] != "1") {
		return o, ErrMalformed
	}
	o = Offer{Carrier: vals[2], Service: vals[3], Price: vals[4], Currency: vals[5], DropPoint: vals[6] == "1",
		From: Place{vals[7], vals[8]}, To: Place{vals[9], vals[10]}, Expires: time.Unix(exp, 0).UTC()}
	if o.Parcels, ok = ParseParcels(vals[11]); !ok {
		return Offer{}, ErrMalformed
	}
	if signer.Sign(&o) != offer {
		return Offer{}, ErrMalformed
	}
	if now.Unix() >= exp {
		return Offer{}, ErrExpired
	}
	return o, nil
}

// VerifyPoint returns the facts of a signed drop point (as Verify).
func VerifyPoint(keys Keys, point string, now time.Time) (Point, error) {
	var p Point
	payload, signer, err := open(keys, PointPrefix, point)
	if err != nil {
		return p, err
	}
	vals, ok := fields(payload, pointNames[:])
	if !ok {
		return p, ErrMalformed
	}
	exp, ok := decimal.ParseInt(vals[1])
	if !ok || exp <= 0 {
		return p, ErrMalformed
	}
	p = Point{Carrier: vals[2], Key: vals[3], Near: Place{vals[4], vals[5]}, Expires: time.Unix(exp, 0).UTC()}
	if signer.SignPoint(&p) != point {
		return Point{}, ErrMalformed
	}
	if now.Unix() >= exp {
		return Point{}, ErrExpired
	}
	return p, nil
}

var (
	offerNames = [...]string{"k", "e", "c", "s", "p", "cu", "dp", "fc", "fz", "tc", "tz", "pc"}
	pointNames = [...]string{"k", "e", "c", "key", "cc", "z"}
)

// open checks s's shape and MAC with the key its key id names and returns
// its payload and that key's Signer.
func open(keys Keys, prefix, s string) (string, *Signer, error) {
	if len(keys.Current) < MinKeyBytes || (keys.Previous != nil && len(keys.Previous) < MinKeyBytes) {
		return "", nil, ErrKey
	}
	if len(s) > MaxLen || !strings.HasPrefix(s, prefix) {
		return "", nil, ErrMalformed
	}
	rest := s[len(prefix):]
	dot := strings.IndexByte(rest, '.')
	if dot <= 0 || len(rest)-dot-1 != TagLen {
		return "", nil, ErrMalformed
	}
	raw, err := base64lite.Decode(rest[:dot], base64lite.URL|base64lite.Raw|base64lite.Strict)
	if err != nil {
		return "", nil, ErrMalformed
	}
	payload := string(raw)
	// The key id only, to choose the key; nothing else is read before
	// the MAC matches.
	if !strings.HasPrefix(payload, "k=") {
		return "", nil, ErrMalformed
	}
	id, _, _ := strings.Cut(payload[2:], "&")
	var key []byte
	switch {
	case id == KeyID(keys.Current):
		key = keys.Current
	case keys.Previous != nil && id == KeyID(keys.Previous):
		key = keys.Previous
	default:
		return "", nil, ErrForeign
	}
	signer, _ := NewSigner(key)
	signed := s[:len(prefix)+dot]
	signer.mac.Reset()
	signer.mac.Write([]byte(signed))
	var sum [hmacsha256.Size]byte
	signer.mac.Sum(sum[:0])
	want := base64lite.Encode(sum[:macBytes], base64lite.URL|base64lite.Raw)
	if !hmacsha256.Equal([]byte(rest[dot+1:]), []byte(want)) {
		return "", nil, ErrTampered
	}
	return payload, signer, nil
}

// fields splits a payload into the values of names, in that order, each
// present once and unescaped.
func fields(p string, names []string) ([]string, bool) {
	vals := make([]string, len(names))
	for i, name := range names {
		var part string
		var more bool
		part, p, more = strings.Cut(p, "&")
		if more == (i == len(names)-1) {
			return nil, false
		}
		k, v, ok := strings.Cut(part, "=")
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
		one, s, _ = strings.Cut(s, ",")
		var v [5]string
		for j := 0; j < 5; j++ {
			var more bool
			v[j], one, more = strings.Cut(one, "*")
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
	intPart, frac, point := strings.Cut(s, ".")
	if intPart == "" || (point && frac == "") || !digits(intPart) || !digits(frac) {
		return ""
	}
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	frac = strings.TrimRight(frac, "0")
	if frac == "" {
		return intPart
	}
	return intPart + "." + frac
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
