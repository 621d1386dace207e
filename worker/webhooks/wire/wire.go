// Package wire is what a webhook delivery is on the wire without encoding
// it: the Parcelgate-Signature header (signed, parsed and checked) and the
// event's data. It is the part of worker/webhooks the edge core module
// links, so it imports no fmt, reflect or encoding/json (they would cost
// the module tens of kilobytes under TinyGo: worker/boundary_test.go).
// Go receivers use worker/webhooks, which adds the event's JSON and
// net/http on top of this; its names alias these.
package wire

import (
	"time"

	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/errchain"
	"github.com/parcelgate/parcelgate/internal/hexlite"
	"github.com/parcelgate/parcelgate/internal/hmacsha256"
)

// Header is the name of the signature header.
const Header = "Parcelgate-Signature"

// TypeTrackingUpdated is the type of the event sent for a change of
// tracking_code.
const TypeTrackingUpdated = "shipment.tracking_updated"

const (
	// MinKeyBytes is the shortest accepted WEBHOOK_SECRET: a shorter HMAC
	// key is within reach of brute force from one captured delivery.
	MinKeyBytes = 32
	// DefaultTolerance is how far a delivery's timestamp may be from the
	// receiver's clock when Verify is given no tolerance: long enough for
	// clock skew and a slow retry in flight, short enough that a captured
	// delivery is soon useless.
	DefaultTolerance = 5 * time.Minute
	// MaxHeaderLen bounds the header Verify reads: a real one is about 80
	// bytes (a few more per rotated secret), so anything this long is
	// refused before any MAC is computed.
	MaxHeaderLen = 1024
	// MaxSignatures bounds the v1 entries tried (one per live secret
	// during a rotation); more is not a rotation but an attempt to make
	// the receiver compare many guesses.
	MaxSignatures = 8
	// macHexLen is the length of a hex SHA-256 MAC.
	macHexLen = 2 * hmacsha256.Size
)

// Error is why a delivery was refused, or why a key cannot be used.
// Reason is one of the sentinels' ("malformed", "signature", "stale",
// "key", "tolerance"); errors.Is(err, ErrStale) holds for every error of
// that reason, whatever its Detail.
type Error struct {
	// Reason names the kind of refusal: the same word for the same
	// mistake in worker/tokens ("malformed", "signature", "key").
	Reason string
	// Detail says what exactly, for a log line; "" on the sentinels.
	Detail string
}

// Error is "webhooks: <what the reason means>[: <detail>]".
func (e *Error) Error() string {
	s := "webhooks: "
	switch e.Reason {
	case "malformed":
		s += "malformed signature header"
	case "signature":
		s += "signature does not match"
	case "stale":
		s += "timestamp outside the tolerance"
	case "key":
		s += "the secret must be at least " + decimal.Itoa(MinKeyBytes) + " bytes (WEBHOOK_SECRET)"
	case "tolerance":
		s += "the tolerance must not be negative"
	default:
		s += e.Reason
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is makes errors.Is(err, ErrStale) true for every error of reason
// "stale", the sentinel itself or one with a detail.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Detail == "" && t.Reason == e.Reason
}

// The sentinels: every error of Verify and CheckKey is an *Error whose
// Reason is one of these (errors.Is(err, ErrStale), or errors.As for the
// detail).
var (
	// ErrMalformed: the header is missing, too long, or not
	// "t=<digits>,v1=<64 hex>[,v1=...]" (or, in worker/webhooks, the
	// body is not an event).
	ErrMalformed = &Error{Reason: "malformed"}
	// ErrSignature: no v1 entry is the MAC of this body and timestamp
	// under any of the keys (tampered body, wrong secret, forged header).
	ErrSignature = &Error{Reason: "signature"}
	// ErrStale: the signature is genuine but its timestamp is further
	// from now than the tolerance (a replay, or a clock off by more).
	ErrStale = &Error{Reason: "stale"}
	// ErrKey: no key, or one shorter than MinKeyBytes (the caller's
	// configuration, not the delivery).
	ErrKey = &Error{Reason: "key"}
	// ErrTolerance: a negative tolerance (the caller's mistake).
	ErrTolerance = &Error{Reason: "tolerance"}
)

// Reason returns the Reason of the first *Error in err's chain (through
// Unwrap, as errors.As finds it, without linking reflection into the
// edge core); "" for nil or an error of another kind.
func Reason(err error) string {
	if e, ok := errchain.As[*Error](err); ok {
		return e.Reason
	}
	return ""
}

// CheckKey reports whether key may sign or verify webhooks; the worker
// calls it when it reads WEBHOOK_SECRET so a weak secret is a
// configuration error at startup, not a panic in Sign.
func CheckKey(key []byte) error {
	if len(key) < MinKeyBytes {
		return ErrKey
	}
	return nil
}

// mac is the HMAC-SHA256 of "<t>.<body>".
func mac(key []byte, ts int64, body []byte) [hmacsha256.Size]byte {
	// One MAC call over the whole message, not NewMAC: under TinyGo a
	// hash.Hash links a dispatch over its implementations. The message is
	// built on the stack when it fits (an event is about 500 bytes), so a
	// verification allocates nothing for it.
	var buf [1024]byte
	msg := append(decimal.AppendInt(buf[:0], ts), '.')
	return hmacsha256.MAC(key, append(msg, body...))
}

// Sign returns the Parcelgate-Signature header value for body sent at t
// (whole seconds; the fraction is dropped). It panics when key is shorter
// than MinKeyBytes: signing with a weak secret must never happen
// silently, and the caller has already refused such a secret with
// CheckKey when it read its configuration.
func Sign(key []byte, body []byte, t time.Time) string {
	return SignAll([][]byte{key}, body, t)
}

// SignAll is Sign with one v1 entry per key, in order: while
// WEBHOOK_SECRET is being rotated the worker signs every delivery with the
// new and the previous secret, so receivers holding either accept it
// (Verify takes any matching entry). Every key must pass CheckKey.
func SignAll(keys [][]byte, body []byte, t time.Time) string {
	ts := t.Unix()
	h := append([]byte("t="), decimal.FormatInt(ts)...)
	for _, k := range keys {
		if len(k) < MinKeyBytes {
			// A string, not ErrKey: the edge core links no *Error.
			panic("webhooks: a secret shorter than MinKeyBytes (WEBHOOK_SECRET)")
		}
		sum := mac(k, ts, body)
		h = hexlite.Append(append(h, ",v1="...), sum[:])
	}
	if len(keys) == 0 {
		panic("webhooks: no secret to sign with (WEBHOOK_SECRET)")
	}
	return string(h)
}

// Signature is a parsed header: its timestamp and MACs.
type Signature struct {
	// T is the signing time, Unix seconds.
	T    int64
	macs [MaxSignatures][hmacsha256.Size]byte
	n    int
}

func malformed(why string) error { return &Error{Reason: "malformed", Detail: why} }

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func trim(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// Parse reads "t=<digits>,v1=<hex>[,v1=<hex>...]". Entries are separated
// by commas, with optional spaces around them (proxies re-fold headers);
// keys other than t and v1 are ignored, so a future scheme (v2) can be
// sent beside v1 without breaking today's receivers. It allocates nothing
// but its errors.
func Parse(header string, p *Signature) error {
	*p = Signature{}
	if header == "" {
		return malformed("no header")
	}
	if len(header) > MaxHeaderLen {
		return malformed("longer than " + decimal.Itoa(MaxHeaderLen) + " bytes")
	}
	haveT := false
	for rest := header; ; {
		item := rest
		comma := -1
		for i := 0; i < len(rest); i++ {
			if rest[i] == ',' {
				comma = i
				break
			}
		}
		if comma >= 0 {
			item, rest = rest[:comma], rest[comma+1:]
		}
		item = trim(item)
		eq := -1
		for i := 0; i < len(item); i++ {
			if item[i] == '=' {
				eq = i
				break
			}
		}
		if eq < 0 {
			return malformed("an entry is not key=value")
		}
		k, v := item[:eq], item[eq+1:]
		switch k {
		case "t":
			if haveT {
				// Two timestamps: which one did the MAC cover? Refuse
				// rather than guess.
				return malformed("more than one t")
			}
			haveT = true
			// Digits only, no sign, no leading zero: one spelling per
			// timestamp, so the MAC's "<t>." is the header's t.
			if v == "" || len(v) > 18 || (v[0] == '0' && v != "0") {
				return malformed("t is not a number of seconds")
			}
			for i := 0; i < len(v); i++ {
				if v[i] < '0' || v[i] > '9' {
					return malformed("t is not a number of seconds")
				}
				p.T = p.T*10 + int64(v[i]-'0') // at most 18 digits: fits
			}
		case "v1":
			if len(v) != macHexLen {
				return malformed("v1 is not " + decimal.Itoa(macHexLen) + " hex digits")
			}
			if p.n == MaxSignatures {
				return malformed("more than " + decimal.Itoa(MaxSignatures) + " v1 entries")
			}
			for i := 0; i < hmacsha256.Size; i++ {
				hi, ok1 := unhex(v[2*i])
				lo, ok2 := unhex(v[2*i+1])
				if !ok1 || !ok2 {
					return malformed("v1 is not " + decimal.Itoa(macHexLen) + " hex digits")
				}
				p.macs[p.n][i] = hi<<4 | lo
			}
			p.n++
		}
		if comma < 0 {
			break
		}
	}
	if !haveT {
		return malformed("no t")
	}
	if p.n == 0 {
		return malformed("no v1")
	}
	return nil
}

// Verify checks a delivery: header is the Parcelgate-Signature value and
// body the raw request body, byte for byte as received. It returns nil
// when one v1 entry is the MAC of t and body under one of keys and t is
// within tolerance of now (either side: a timestamp from the future is
// refused too, since accepting it would stretch the replay window).
// tolerance 0 means DefaultTolerance.
//
// Several v1 entries and several keys are allowed and any pair matching
// is enough: while WEBHOOK_SECRET is being rotated the sender signs with
// the old and the new secret, and a receiver may hold either or both.
// Every pair is compared with hmacsha256.Equal (an OR of the XORed bytes:
// a time that depends on the length only, as crypto/hmac.Equal), and all
// of them are compared whatever the outcome, so timing does not tell
// which one matched.
//
// The signature is checked before the timestamp: ErrStale therefore means
// a genuine delivery that arrived late (or a clock that is off), never a
// forgery.
func Verify(keys [][]byte, body []byte, header string, now time.Time, tolerance time.Duration) error {
	if len(keys) == 0 {
		return ErrKey
	}
	for _, k := range keys {
		if err := CheckKey(k); err != nil {
			return err
		}
	}
	if tolerance < 0 {
		return ErrTolerance
	}
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	var p Signature
	if err := Parse(header, &p); err != nil {
		return err
	}
	ok := 0
	for _, k := range keys {
		want := mac(k, p.T, body)
		for i := 0; i < p.n; i++ {
			if hmacsha256.Equal(p.macs[i][:], want[:]) {
				ok = 1
			}
		}
	}
	if ok == 0 {
		return ErrSignature
	}
	age := now.Unix() - p.T
	if age < 0 {
		age = -age
	}
	if age > int64(tolerance/time.Second) {
		return &Error{Reason: "stale", Detail: "t=" + decimal.FormatInt(p.T) + " is " + decimal.FormatInt(now.Unix()-p.T) +
			"s from now (tolerance " + decimal.FormatInt(int64(tolerance/time.Second)) + "s)"}
	}
	return nil
}

// Tracking is an event's data: the references of the shipment and its new
// tracking state; never an address, a name or any other personal data.
type Tracking struct {
	ShippingDlvrRef   string `json:"shipping_dlvr_ref"`
	ShippingClientRef string `json:"shipping_client_ref"`
	// TrackingCode is the new code ("01".."30", the spec's Events).
	TrackingCode string `json:"tracking_code"`
	TrackingName string `json:"tracking_name"`
	// Category is the core's display category of the code.
	Category string `json:"category"`
	// Final is true when no further event is expected (delivered,
	// returned, expired): the last event of the shipment.
	Final bool `json:"final"`
	// TrackingDate is the service's tracking_date, as it sent it.
	TrackingDate string `json:"tracking_date"`
	// PreviousCode is the code before this change; "" for the first
	// state the edge saw.
	PreviousCode string `json:"previous_code"`
}
