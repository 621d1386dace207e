// Package tokens mints and verifies parcelgate's scoped tokens: what a
// shop's server hands to a page instead of the master PROXY_TOKEN. A token
// names the private operations it allows and, optionally, the references
// it is bound to, and expires; the edge worker accepts it as
// "Authorization: Bearer <token>".
//
// A token is "pgt1.<kid>.<payload>.<mac>": kid is the KeyID of the key
// that signed it; payload is the base64url (no padding) of
// "exp=<unix seconds>&ops=<op,op>[&dlvr_ref=..][&shipping_client_ref=..][&collection_client_ref=..]"
// with its fields in that order, operations in catalog order and values
// query-escaped; mac is the base64url HMAC-SHA256 of "pgt1.<kid>.<payload>"
// keyed by the TOKEN_SIGNING_KEY secret, the raw bytes of the setting
// (no hex or base64 decoding). Tokens minted before key ids,
// "pgt1.<payload>.<mac>", still verify until they expire (at most 30
// days): Verify tries each key on them.
//
// Tokens are stateless (nothing to store or revoke) and canonical: Verify
// re-encodes the claims it read and compares them with the payload, so one
// grant under one key has exactly one spelling (Go's base64 decoders skip
// CR and LF, and query unescaping has several spellings per value; neither
// can make a second token for the same grant).
//
// Keys rotate without logging anyone out: Verify takes a key set (Keys),
// the new key first and the previous one after it (the edge's
// TOKEN_SIGNING_KEY and TOKEN_SIGNING_KEY_PREVIOUS); Mint signs with one
// key, the new one. Removing the previous key once the longest-lived
// token it signed has expired revokes what it signed.
//
// A grant that books is bound and short-lived: new-shipment needs the
// shipping_client_ref it books, new-collection the collection_client_ref
// it books and the dlvr_ref of the shipment it collects, and neither
// lives longer than MaxBookingTTL. Verify applies the same rules, so a
// signed token that breaks them (minted by an older version, or by hand)
// is refused with ErrGrant.
//
// The package is plain server-side Go: a Go backend imports it to mint
// tokens without calling POST /tokens.
package tokens

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/base64lite"
	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/errchain"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/keyset"
	"github.com/parcelgate/parcelgate/internal/substr"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/internal/urlquery"
	"github.com/parcelgate/parcelgate/worker/offers"
)

// Prefix starts every scoped token.
const Prefix = "pgt1."

// Bounds of a grant.
const (
	// MinKeyBytes is the shortest accepted TOKEN_SIGNING_KEY (the same
	// name and length as worker/webhooks').
	MinKeyBytes = keyset.MinKeyBytes
	// KeyIDLen is the length of a KeyID.
	KeyIDLen = keyset.IDLen
	// MaxKeys bounds a key set: the current key and the previous ones.
	MaxKeys = keyset.MaxKeys
	// DefaultTTL is a token's lifetime when the grant names none.
	DefaultTTL = 900 * time.Second
	// MaxTTL is the longest lifetime a grant may ask for (30 days): a
	// page that shows a shipment's tracking for weeks.
	MaxTTL = 2592000 * time.Second
	// MaxBookingTTL is the longest lifetime of a grant that books
	// (new-shipment, new-collection): 2 hours. A checkout books within
	// minutes of the page asking for its token, and a payment redirect
	// with a bank's 3-D Secure step fits well inside; a page left open
	// longer gets a new token through the Client's refresh (it asks again
	// on 401). Anyone who copies the token from the page can use it only
	// as long as this, and only for its reference.
	MaxBookingTTL = 7200 * time.Second
	// MaxLen bounds a token's length; longer strings are refused unread.
	MaxLen = 1024
	// MaxRefRunes bounds a bound dlvr_ref, in characters (runes): the
	// catalog's limit.
	MaxRefRunes = catalog.MaxRefRunes
	// MaxClientRefRunes bounds a shop's own references
	// (shipping_client_ref, collection_client_ref), in characters.
	MaxClientRefRunes = 15
	maxRefRunes       = MaxRefRunes
)

// Grant is what a token allows.
type Grant struct {
	// Operations are the private operations allowed (get-shipments is
	// never grantable: it lists every customer's shipment).
	Operations []string
	// ShippingClientRef is the only shipping_client_ref new-shipment may
	// book with (required when new-shipment is granted), and the only
	// client_ref tracking may use.
	ShippingClientRef string
	// DlvrRef, when set, is the only shipment get-shipment,
	// get-shipment-label, get-shipment-tracking (dlvr_ref) and
	// new-collection (shipping_dlvr_ref, required) may name.
	DlvrRef string
	// CollectionClientRef is the only collection_client_ref new-collection
	// may book with: with the booking records' one answer per reference,
	// one token books at most one pickup. Required with new-collection,
	// refused without it.
	CollectionClientRef string
	// Offer is the offer (worker/offers) the grant's new-shipment must
	// book: Mint verifies it with the key's offer key, refuses a fallback
	// one (ErrFallbackOffer) and binds the grant to its Tag. The token carries the tag, not the offer; the booking
	// carries the offer itself (its `offer` field, which the edge checks
	// and strips).
	Offer string
	// OfferTag is the bound offer's offers.Tag: what Verify returns, and
	// what Mint binds when Offer is empty (a caller that verified the
	// offer itself, its source included, as the edge's /demo/token does
	// with the worker's key).
	OfferTag string
}

// Claims are a verified token's grant and expiry.
type Claims struct {
	Grant
	Expires time.Time
}

// Allows reports whether the token grants op.
func (c *Claims) Allows(op string) bool {
	for _, o := range c.Operations {
		if o == op {
			return true
		}
	}
	return false
}

// FieldError is a grant that cannot be minted: the field (as POST /tokens
// names it) and the problem.
type FieldError struct {
	Field   string
	Problem string
}

// Error is the field's name, then the problem, as POST /tokens answers it.
func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }

// ErrFallbackOffer is Mint's refusal of a grant bound to a fallback offer
// (offers.SourceFallback: the shop's backup price while the carrier API
// was down, no carrier's service). The edge refuses such a booking (403
// offer_fallback), so the grant could never book: the shop's server
// books its own service for the order instead, or the page quotes again.
// A FieldError of "offer", told apart with errors.Is (POST /tokens
// answers it 403 offer_fallback, as the booking would).
var ErrFallbackOffer = &FieldError{"offer", "a fallback offer (the shop's backup price, no carrier's service) never books: quote again, or book from the shop's server"}

// Keys is a key set: the keys Verify accepts, the current one first and
// the previous ones (a rotation) after it; at most MaxKeys, each at least
// MinKeyBytes. Mint signs with one key, the current one. The same type
// as worker/offers' Keys (internal/keyset).
type Keys = keyset.Keys

// Error is why Verify refused a token, or why a key cannot be used: its
// Reason is one of the sentinels' ("malformed", "signature", "expired",
// "key", "grant"; the same words as worker/webhooks' for the same
// mistakes). errors.Is(err, ErrExpired) holds for every error of that
// reason; errors.As gives the *Error.
type Error struct {
	Reason string
	// Detail says more, for a log line; "" on the sentinels.
	Detail string
}

// Error is "tokens: <what the reason means>[: <detail>]".
func (e *Error) Error() string {
	s := "tokens: "
	switch e.Reason {
	case "malformed":
		s += "not a scoped token"
	case "signature":
		s += "token signature does not match"
	case "expired":
		s += "token expired"
	case "key":
		s += "signing key shorter than 32 bytes, or no key"
	case "grant":
		s += "token grant is not accepted (a booking needs its references bound and at most 2 hours of life)"
	default:
		s += e.Reason
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is makes errors.Is(err, ErrExpired) true for every error of reason
// "expired". (A method with a type assertion, not an interface
// comparison: under TinyGo err == ErrExpired links internal/reflectlite
// into the edge core module.)
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Detail == "" && t.Reason == e.Reason
}

// The sentinels: every error of Verify is one of these, and Mint's are
// these or a *FieldError. Each of Verify's means "not a valid token of
// these keys".
var (
	ErrMalformed = &Error{Reason: "malformed"}
	ErrSignature = &Error{Reason: "signature"}
	ErrExpired   = &Error{Reason: "expired"}
	// ErrKey: no key, too many, or one shorter than MinKeyBytes (the
	// caller's configuration, not the token).
	ErrKey = &Error{Reason: "key"}
	// ErrGrant is a signed token whose grant breaks today's rules: a
	// booking without its reference bound, or living longer than
	// MaxBookingTTL (a token minted before the rules existed).
	ErrGrant = &Error{Reason: "grant"}
)

// Reason names an error of Verify: "malformed", "signature", "expired",
// "key" or "grant" (the Reason of the first *Error in err's chain, found
// through Unwrap as errors.As finds it, without linking reflection into
// the edge core); "" for nil or any other error.
func Reason(err error) string {
	if e, ok := errchain.As[*Error](err); ok {
		return e.Reason
	}
	return ""
}

// KeyID names a key in the tokens it signs: internal/keyset's ID, the
// same id offers signed with the key carry (the first KeyIDLen characters
// of the base64url SHA-256 of "pgt-key-id:" and the key). It tells Verify
// which key of a set to try, and an operator which key minted a token.
func KeyID(key []byte) string { return keyset.ID(key) }

func checkKeys(keys Keys) error {
	if !keys.Valid() {
		return ErrKey
	}
	return nil
}

// Books reports whether the grant allows a booking (catalog.Policies'
// BindBooking rows).
func (g *Grant) Books() bool {
	for _, o := range g.Operations {
		if p := catalog.PolicyOf(o); p != nil && p.Binding == catalog.BindBooking {
			return true
		}
	}
	return false
}

// Grantable reports whether op may appear in a token (catalog.Policies'
// Grantable: every operation but get-shipments).
func Grantable(op string) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.Grantable
}

// needsBinding: the reads of one shipment are only grantable together with
// a reference that names the shipment: its dlvr_ref, or the
// shipping_client_ref it was booked with (the edge resolves that from its
// booking record) (catalog.Policies' BindShipment rows). Bookings name
// what they book (bindingError).
func needsBinding(op string, g *Grant) bool {
	p := catalog.PolicyOf(op)
	return p != nil && p.Binding == catalog.BindShipment && g.DlvrRef == "" && g.ShippingClientRef == ""
}

// bindingError is the missing binding of a booking operation, named by
// the field that binds it (catalog.Policies' Binds): a booking token must
// name the one booking it may make, or a page holding it could book any
// order.
func bindingError(op string, g *Grant) *FieldError {
	p := catalog.PolicyOf(op)
	if p == nil {
		return nil
	}
	for i := range p.Binds { // by index: a range value copied the array
		b := &p.Binds[i]
		if b.Grant != "" && g.Ref(b.Grant) == "" {
			return &FieldError{b.Grant, "required with " + op + " (" + b.Why + ")"}
		}
	}
	return nil
}

// Ref returns the grant's reference of a field name (dlvr_ref,
// shipping_client_ref, collection_client_ref; "" for another name).
func (g *Grant) Ref(field string) string {
	if r := g.ref(field); r != nil {
		return *r
	}
	return ""
}

func (g *Grant) ref(field string) *string {
	switch field {
	case "dlvr_ref":
		return &g.DlvrRef
	case "shipping_client_ref":
		return &g.ShippingClientRef
	case "collection_client_ref":
		return &g.CollectionClientRef
	case "offer":
		return &g.OfferTag
	}
	return nil
}

// Check validates a grant and returns it with its operations in catalog
// order (duplicates removed), or the first problem.
func Check(g Grant) (Grant, error) {
	if err := check(&g); err != nil {
		return g, err
	}
	return canonical(g), nil // every operation is known here
}

// check is Check without building the canonical grant: Verify's grant is
// canonical already.
func check(g *Grant) error {
	if len(g.Operations) == 0 {
		return &FieldError{"operations", "name at least one operation"}
	}
	collects := false
	for _, op := range g.Operations {
		switch {
		case catalog.Lookup(op) == nil:
			return &FieldError{"operations", "unknown operation " + string(jsonlite.AppendString(nil, unitab.Clip(op, 64)))}
		case !Grantable(op):
			return &FieldError{"operations", op + " is never grantable (it lists every customer's shipments)"}
		}
		collects = collects || catalog.PolicyOf(op).BindsGrant("collection_client_ref")
	}
	// Every name first, then what the known ones need.
	for _, op := range g.Operations {
		if fe := bindingError(op, g); fe != nil {
			return fe
		}
		if needsBinding(op, g) {
			return &FieldError{"operations", op + " needs dlvr_ref or shipping_client_ref (the shipment it may read)"}
		}
	}
	if p := refProblem(g.ShippingClientRef, MaxClientRefRunes); p != "" {
		return &FieldError{"shipping_client_ref", p}
	}
	if p := refProblem(g.DlvrRef, maxRefRunes); p != "" {
		return &FieldError{"dlvr_ref", p}
	}
	if g.CollectionClientRef != "" && !collects {
		op := bindingOf("collection_client_ref")
		return &FieldError{"collection_client_ref", "binds " + op + " only: grant " + op + " or leave it out"}
	}
	if p := refProblem(g.CollectionClientRef, MaxClientRefRunes); p != "" {
		return &FieldError{"collection_client_ref", p}
	}
	if g.OfferTag != "" && !validTag(g.OfferTag) {
		return &FieldError{"offer", "not an offer's tag"}
	}
	if g.Offer != "" || g.OfferTag != "" {
		// An offer binds the booking that books a shipment (the operation
		// whose reference is shipping_client_ref).
		if op := bindingOf("shipping_client_ref"); !grants(g, op) {
			return &FieldError{"offer", "binds " + op + " only: grant " + op + " or leave it out"}
		}
	}
	return nil
}

// bookings names the operations that book, "a or b" (catalog.Policies'
// BindBooking rows).
//
// Not inlined: inlined with a constant argument, LLVM unrolls its loop
// over the table in each caller (1.5 KB gzip of the edge core in all).
//
//go:noinline
func bookings() string {
	s := ""
	// An index loop: under TinyGo, range over another package's array
	// copies the whole table first (the edge core paid 3.5 KB for it).
	for i := 0; i < len(catalog.Policies); i++ {
		if p := &catalog.Policies[i]; p.Binding == catalog.BindBooking {
			if s != "" {
				s += " or "
			}
			s += p.Name
		}
	}
	return s
}

// bindingOf is the booking a grant field binds (catalog.Policies' Binds).
//
// Not inlined: inlined with a constant argument, LLVM unrolls its loop
// over the table in each caller (1.5 KB gzip of the edge core in all).
//
//go:noinline
func bindingOf(field string) string {
	for i := 0; i < len(catalog.Policies); i++ {
		if p := &catalog.Policies[i]; p.BindsGrant(field) {
			return p.Name
		}
	}
	return ""
}

func refProblem(v string, max int) string {
	if v == "" {
		return ""
	}
	if !utf8.ValidString(v) || utf8.RuneCountInString(v) > max {
		return "must be at most " + decimal.Itoa(max) + " characters of valid UTF-8"
	}
	if unitab.TrimSpace(v) != v {
		return "must not start or end with spaces"
	}
	// C0, DEL and C1 (U+0080-U+009F): the edge's validation refuses them
	// in every field, so a token bound to one could never be used.
	for _, r := range v {
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			return "must not contain control characters"
		}
	}
	// Invisible format characters (category Cf: zero-width, bidi
	// controls, U+FEFF, soft hyphen) are refused in every reference the
	// edge validates, so a token bound to one could never be used.
	for _, r := range v {
		if r >= 0xad && unitab.IsFormat(r) {
			return "must not contain invisible format characters (zero-width, bidi controls, U+FEFF)"
		}
	}
	return ""
}

// Mint returns a token for g signed with key (the current key of a set),
// valid for ttl from now (DefaultTTL when ttl is 0), and its expiry. An
// offer bound into g must be signed with key; during a key rotation use
// MintWithKeys.
func Mint(key []byte, g Grant, ttl time.Duration, now time.Time) (string, time.Time, error) {
	return MintWithKeys(Keys{key}, g, ttl, now)
}

// MintWithKeys is Mint during a key rotation: the token is signed with
// keys[0] (TOKEN_SIGNING_KEY), and an offer bound into g may be signed with
// any of keys (TOKEN_SIGNING_KEY_PREVIOUS too), because a shopper's offer
// quoted just before the rotation stays bookable until it expires, as the
// edge's booking check accepts it; with the current key alone the shop
// would refuse its own customer's offer as foreign.
func MintWithKeys(keys Keys, g Grant, ttl time.Duration, now time.Time) (string, time.Time, error) {
	if err := checkKeys(keys); err != nil {
		return "", time.Time{}, err
	}
	key := keys[0]
	if ttl == 0 {
		ttl = DefaultTTL
	}
	if ttl < time.Second || ttl > MaxTTL || ttl%time.Second != 0 {
		return "", time.Time{}, &FieldError{"ttl", "must be a whole number of seconds from 1 to 2592000"}
	}
	if g.Offer != "" {
		// The offer is the worker's: signed with this key's offer key and
		// still quotable. Its facts are the booking's business (the edge
		// compares them); the token only names it. But a fallback offer
		// never books, so a grant bound to one would be a token that fails
		// at the page's booking: refused here, where it is known.
		p, err := offers.Open(keys, offers.Prefix, g.Offer, now)
		if err != nil {
			return "", time.Time{}, &FieldError{"offer", OfferProblem(err)}
		}
		if offers.Fallback(p) {
			return "", time.Time{}, ErrFallbackOffer
		}
		g.OfferTag = offers.Tag(g.Offer)
	}
	g, err := Check(g)
	if err != nil {
		return "", time.Time{}, err
	}
	if g.Books() && ttl > MaxBookingTTL {
		return "", time.Time{}, &FieldError{"ttl", "at most 7200 seconds (2 hours) for a grant of " + bookings()}
	}
	// now.Truncate(time.Second).Add(ttl) (ttl is whole seconds), without
	// time.Time.Add and its monotonic-clock cases in the core module.
	exp := time.Unix(now.Unix()+int64(ttl/time.Second), 0).In(now.Location())
	return encode(key, g, exp.Unix()), exp, nil
}

// payload is the base64url of a grant's canonical payload.
func payload(g Grant, exp int64) string {
	var buf [MaxLen]byte
	return string(appendPayload(buf[:0], g, exp))
}

// appendPayload appends the base64url of a grant's canonical payload to
// dst. Verify builds it in a buffer on the stack to compare it with the
// token's: no allocation unless a reference needs escaping.
func appendPayload(dst []byte, g Grant, exp int64) []byte {
	var buf [MaxLen]byte
	p := decimal.AppendInt(append(buf[:0], "exp="...), exp)
	p = append(p, "&ops="...)
	for i, op := range g.Operations {
		if i > 0 {
			p = append(p, ',')
		}
		p = append(p, op...)
	}
	if g.DlvrRef != "" {
		p = append(append(p, "&dlvr_ref="...), urlquery.Escape(g.DlvrRef)...)
	}
	if g.ShippingClientRef != "" {
		p = append(append(p, "&shipping_client_ref="...), urlquery.Escape(g.ShippingClientRef)...)
	}
	if g.CollectionClientRef != "" {
		p = append(append(p, "&collection_client_ref="...), urlquery.Escape(g.CollectionClientRef)...)
	}
	if g.OfferTag != "" {
		p = append(append(p, "&offer="...), urlquery.Escape(g.OfferTag)...)
	}
	return base64lite.AppendEncode(dst, p, base64lite.URL|base64lite.Raw)
}

func encode(key []byte, g Grant, exp int64) string {
	signed := Prefix + KeyID(key) + "." + payload(g, exp)
	return signed + "." + base64lite.Encode(mac(key, signed), base64lite.URL|base64lite.Raw)
}

func mac(key []byte, s string) []byte {
	sum := hmacsha256.MACString(key, s)
	return sum[:]
}

// Verify returns the claims of a token signed with one of keys that has
// not expired at now. Its arguments read as worker/webhooks.Verify's: the
// keys, the signed thing, the time. Any other string, including another spelling of a
// valid token, is refused with one of the sentinels.
//
// The MAC is checked first, over the exact bytes, with an OR of XORed
// bytes (equalString, hmacsha256.Equal on the token's string: constant
// time for a given length, as crypto/hmac.Equal); nothing of an unsigned payload is parsed. A token
// with a key id is tried with the key of that id only; one minted before
// key ids with each key.
func Verify(keys Keys, token string, now time.Time) (Claims, error) {
	var c Claims
	if err := checkKeys(keys); err != nil {
		return c, err
	}
	if len(token) > MaxLen || !strings.HasPrefix(token, Prefix) {
		return c, ErrMalformed
	}
	last := strings.LastIndexByte(token, '.')
	if last < len(Prefix) {
		return c, ErrMalformed
	}
	signed, sig := token[:last], token[last+1:]
	body, kid := signed[len(Prefix):], ""
	if dot := strings.IndexByte(body, '.'); dot >= 0 {
		kid, body = body[:dot], body[dot+1:]
		if len(kid) != KeyIDLen || strings.IndexByte(body, '.') >= 0 {
			return c, ErrMalformed
		}
	}
	if body == "" {
		return c, ErrMalformed
	}
	var want [64]byte
	var idBuf [64]byte
	var key []byte
	for _, k := range keys {
		if kid != "" && string(keyset.AppendID(&idBuf, k)) != kid {
			continue
		}
		sum := hmacsha256.MACString(k, signed)
		if equalString(sig, base64lite.AppendEncode(want[:0], sum[:], base64lite.URL|base64lite.Raw)) && key == nil {
			key = k
		}
	}
	if key == nil {
		return c, ErrSignature
	}
	raw, err := base64lite.Decode(body, base64lite.URL|base64lite.Raw|base64lite.Strict)
	if err != nil {
		return c, ErrMalformed
	}
	exp, g, ok := parsePayload(string(raw))
	var again [MaxLen]byte
	if !ok || string(appendPayload(again[:0], g, exp)) != body {
		return c, ErrMalformed
	}
	if now.Unix() >= exp {
		return c, ErrExpired
	}
	// Today's rules, for tokens signed before them: bound bookings, and
	// no booking grant with more than MaxBookingTTL left.
	if check(&g) != nil {
		return c, ErrGrant
	}
	if g.Books() && exp-now.Unix() > int64(MaxBookingTTL/time.Second) {
		return c, ErrGrant
	}
	c.Grant, c.Expires = g, time.Unix(exp, 0).UTC()
	return c, nil
}

// equalString is hmacsha256.Equal of a string and bytes: the token's MAC
// is compared where it lies, without a copy.
func equalString(a string, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	var v byte
	for i := range len(a) {
		v |= a[i] ^ b[i]
	}
	return v == 0
}

func parsePayload(p string) (int64, Grant, bool) {
	var g Grant
	var exp int64
	parts := substr.Split(p, "&")
	if len(parts) < 2 || len(parts) > 6 {
		return 0, g, false
	}
	for i, part := range parts {
		k, v, ok := substr.Cut(part, "=")
		if !ok {
			return 0, g, false
		}
		switch {
		case i == 0 && k == "exp":
			n, valid := decimal.ParseInt(v)
			if !valid || n <= 0 {
				return 0, g, false
			}
			exp = n
		case i == 1 && k == "ops":
			g.Operations = substr.Split(v, ",")
		case i > 1:
			ref := g.ref(k)
			if ref == nil {
				return 0, g, false
			}
			if *ref, ok = urlquery.Unescape(v); !ok {
				return 0, g, false
			}
		default:
			return 0, g, false
		}
	}
	// Operations in canonical order, no duplicates: the re-encoding
	// comparison in Verify catches any other spelling. The grant rules
	// are checked after the signature and expiry (ErrGrant).
	return exp, canonical(g), true
}

// canonical returns g with its known operations in catalog order and
// unknown ones kept at the end (so Check still names them).
func canonical(g Grant) Grant {
	var seen [len(catalog.Operations)]bool // a map cost the module more
	var unknown []string
	for _, op := range g.Operations {
		p := catalog.Lookup(op)
		if p == nil {
			unknown = append(unknown, op)
		}
		for i := range seen {
			seen[i] = seen[i] || p == &catalog.Operations[i]
		}
	}
	out := g
	out.Operations = nil
	for i, s := range seen {
		if s {
			out.Operations = append(out.Operations, catalog.Operations[i].Name)
		}
	}
	out.Operations = append(out.Operations, unknown...)
	return out
}

// validTag: an offers.Tag's length (the payload escapes it, so no
// other shape reaches a token).
func validTag(t string) bool { return len(t) == offers.TagLen }

func grants(g *Grant, op string) bool {
	for _, o := range g.Operations {
		if o == op {
			return true
		}
	}
	return false
}

// OfferProblem says why Mint refused a grant's offer (err from
// offers.Open or Verify), in POST /tokens' words.
func OfferProblem(err error) string {
	switch offers.Reason(err) {
	case "expired":
		return "the offer has expired: quote again (a new rates request) and bind the new offer"
	case "foreign":
		return "not an offer of this worker (signed with another TOKEN_SIGNING_KEY)"
	case "tampered":
		return "the offer's signature does not match: it was changed after the worker signed it"
	}
	return "not an offer (the `offer` of a service in a rates answer)"
}
