// Package webhooks signs and verifies parcelgate's tracking webhooks: the
// events the edge POSTs to a shop's WEBHOOK_URL when a shipment it booked
// changes tracking_code.
//
// Every delivery carries the header
//
//	Parcelgate-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
//
// The timestamp is inside the MAC so a captured delivery cannot be replayed
// later with a fresh t, and the receiver refuses deliveries whose t is
// further than a tolerance from its own clock (default 5 minutes) so an
// old capture cannot be replayed either. The MAC covers the raw bytes of
// the body: Verify checks it before parsing anything.
//
// A Go receiver calls VerifyRequest (or Verify with a body and header it
// read itself) and gets the Event; worker/README.md ("Webhooks") and the
// package's examples show a handler. The edge signs with Sign/SignAll of
// worker/webhooks/wire, the JSON-free core of this package (the names here
// alias it). testdata/webhooks.json pins the exact header strings for the
// JavaScript verifyWebhook too.
//
// Verify, like worker/tokens.Verify, takes the keys first, then the
// signed thing, then the time: Verify(keys, body, header, now, tolerance).
package webhooks

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/parcelgate/parcelgate/worker/webhooks/wire"
)

// Header is the name of the signature header.
const Header = wire.Header

// TypeTrackingUpdated is the type of the event sent for a change of
// tracking_code.
const TypeTrackingUpdated = wire.TypeTrackingUpdated

const (
	// MinKeyBytes is the shortest accepted WEBHOOK_SECRET: a shorter HMAC
	// key is within reach of brute force from one captured delivery.
	MinKeyBytes = wire.MinKeyBytes
	// MinSecretBytes is MinKeyBytes.
	//
	// Deprecated: use MinKeyBytes (the same name as worker/tokens').
	MinSecretBytes = MinKeyBytes
	// DefaultTolerance is how far a delivery's timestamp may be from the
	// receiver's clock when Verify is given no tolerance.
	DefaultTolerance = wire.DefaultTolerance
	// MaxHeaderLen bounds the header Verify reads; longer is refused
	// before any MAC is computed.
	MaxHeaderLen = wire.MaxHeaderLen
	// DefaultMaxBody bounds the body VerifyRequest reads when given no
	// limit: an event is under 1 KB.
	DefaultMaxBody = 64 << 10
)

// Keys are the secrets a receiver accepts: a delivery verifies when any
// one of them signed it. One key normally; during a rotation of
// WEBHOOK_SECRET a receiver may hold the old and the new one.
type Keys [][]byte

// Error is why Verify refused a delivery (or why a key cannot be used):
// its Reason is one of the sentinels' and its Detail says more for a log
// line. Use errors.Is with a sentinel, or errors.As for the detail.
type Error = wire.Error

// The sentinels: every error of Verify, VerifyRequest and CheckKey is an
// *Error with one of these reasons, so errors.Is(err, ErrStale) holds for
// every stale delivery whatever its detail. A receiver answers 400 to
// all of them (401 is no better: the sender retries either way).
var (
	// ErrMalformed: the header is missing, too long or not
	// "t=<digits>,v1=<64 hex>[,v1=...]", or the signed body is not an
	// event.
	ErrMalformed = wire.ErrMalformed
	// ErrSignature: no v1 entry is the MAC of this body and timestamp
	// under any of the keys (tampered body, wrong secret, forged header).
	ErrSignature = wire.ErrSignature
	// ErrStale: the signature is genuine but its timestamp is further
	// from now than the tolerance (a replay, or a clock off by more).
	ErrStale = wire.ErrStale
	// ErrKey: no key, or one shorter than MinKeyBytes: the receiver's
	// configuration (the same name as worker/tokens' for the same
	// mistake).
	ErrKey = wire.ErrKey
	// ErrSecret is ErrKey.
	//
	// Deprecated: use ErrKey.
	ErrSecret = ErrKey
	// ErrTolerance: a negative tolerance.
	ErrTolerance = wire.ErrTolerance
	// ErrTooLarge: VerifyRequest's body is longer than its limit (answer
	// 413).
	ErrTooLarge = &Error{Reason: "too_large"}
)

// Reason returns the Reason of the *Error in err's chain ("malformed",
// "signature", "stale", "key", "tolerance", "too_large"), "" for nil or
// another error.
func Reason(err error) string { return wire.Reason(err) }

// CheckKey reports whether key may sign or verify webhooks (ErrKey when
// it is shorter than MinKeyBytes).
func CheckKey(key []byte) error { return wire.CheckKey(key) }

// CheckSecret is CheckKey.
//
// Deprecated: use CheckKey.
func CheckSecret(secret []byte) error { return wire.CheckKey(secret) }

// Sign returns the Parcelgate-Signature header value for body sent at t
// (whole seconds). It panics with ErrKey when key is shorter than
// MinKeyBytes: signing with a weak secret must never happen silently.
func Sign(key []byte, body []byte, t time.Time) string { return SignAll([][]byte{key}, body, t) }

// SignAll is Sign with one v1 entry per key, in order (a rotation: the
// new secret and the previous one). It panics with ErrKey when a key
// does not pass CheckKey, or there is none.
func SignAll(keys [][]byte, body []byte, t time.Time) string {
	if len(keys) == 0 {
		panic(ErrKey)
	}
	for _, k := range keys {
		if err := CheckKey(k); err != nil {
			panic(err)
		}
	}
	return wire.SignAll(keys, body, t)
}

// Verify checks a delivery and returns its event: header is the
// Parcelgate-Signature value and body the raw request body, byte for byte
// as received. The delivery verifies when one v1 entry is the MAC of t and
// body under one of keys and t is within tolerance of now, either side
// (0 means DefaultTolerance). The MACs are compared in constant time
// (hmacsha256.Equal, an OR of XORed bytes as crypto/hmac.Equal does), all
// of them whatever the outcome. The body is parsed only once it
// verified; a signed body that is not an event is ErrMalformed.
func Verify(keys Keys, body []byte, header string, now time.Time, tolerance time.Duration) (Event, error) {
	var ev Event
	if err := wire.Verify(keys, body, header, now, tolerance); err != nil {
		return ev, err
	}
	if err := ev.UnmarshalJSON(body); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// VerifyRequest is Verify on a request: it reads at most maxBody bytes
// of r's body (DefaultMaxBody when 0; longer is ErrTooLarge, unread past
// the limit) and its Parcelgate-Signature header.
func VerifyRequest(keys Keys, r *http.Request, maxBody int64, now time.Time, tolerance time.Duration) (Event, error) {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return Event{}, &Error{Reason: "malformed", Detail: "reading the body: " + err.Error()}
	}
	if int64(len(body)) > maxBody {
		return Event{}, &Error{Reason: "too_large", Detail: "the body is longer than " + strconv.FormatInt(maxBody, 10) + " bytes"}
	}
	return Verify(keys, body, r.Header.Get(Header), now, tolerance)
}

// Event is the JSON body of a webhook delivery. Its json tags are the
// wire's names, so json.Marshal(ev) writes what the edge sends (Marshal
// fixes the one spelling the edge signs).
type Event struct {
	// ID identifies the event; it is the same on every retry of one
	// delivery, so receivers dedupe on it (delivery is at least once).
	ID string `json:"id"`
	// Type is TypeTrackingUpdated.
	Type string `json:"type"`
	// Created is when the edge saw the change (sent as RFC 3339, UTC,
	// whole seconds).
	Created time.Time `json:"created"`
	Data    Tracking  `json:"data"`
}

// Tracking is an event's data: the references of the shipment and its new
// tracking state; never an address, a name or any other personal data.
type Tracking = wire.Tracking

// wire fixes the JSON field order and the spelling of created.
type wireEvent struct {
	ID      string   `json:"id"`
	Type    string   `json:"type"`
	Created string   `json:"created"`
	Data    Tracking `json:"data"`
}

// Marshal returns the event's JSON body: fields in the documented order,
// no HTML escaping and no trailing newline, so one event always has one
// spelling and a retry carries the same bytes (and, re-signed at its own
// t, a signature over the same body).
func (e *Event) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(wireEvent{ID: e.ID, Type: e.Type, Created: e.Created.UTC().Format(time.RFC3339), Data: e.Data})
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// MarshalJSON is Marshal, so json.Marshal of an Event (or of a struct
// holding one) writes the edge's spelling.
func (e Event) MarshalJSON() ([]byte, error) { return e.Marshal() }

// UnmarshalJSON reads an event body; anything else (not JSON, no id, a
// created that is not RFC 3339) is ErrMalformed with a detail.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w wireEvent
	if err := json.Unmarshal(b, &w); err != nil {
		return &Error{Reason: "malformed", Detail: "the body is not an event: " + err.Error()}
	}
	if w.ID == "" || w.Type == "" {
		return &Error{Reason: "malformed", Detail: "the body is not an event: no id or type"}
	}
	created, err := time.Parse(time.RFC3339, w.Created)
	if err != nil {
		return &Error{Reason: "malformed", Detail: "the body is not an event: created is not RFC 3339"}
	}
	*e = Event{ID: w.ID, Type: w.Type, Created: created.UTC(), Data: w.Data}
	return nil
}
