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
// the body: receivers must verify before parsing, never re-serialise.
//
// The package is plain server-side Go: the worker signs with Sign, and a
// Go receiver verifies with Verify (worker/README.md, "Webhooks").
// testdata/webhooks.json pins the exact header strings for the JavaScript
// verifyWebhook too.
package webhooks

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/hmacsha256"
)

// Header is the name of the signature header.
const Header = "Parcelgate-Signature"

// TypeTrackingUpdated is the type of the event sent for a change of
// tracking_code.
const TypeTrackingUpdated = "shipment.tracking_updated"

const (
	// MinSecretBytes is the shortest accepted WEBHOOK_SECRET: a shorter
	// HMAC key is within reach of brute force from one captured delivery.
	MinSecretBytes = 32
	// DefaultTolerance is how far a delivery's timestamp may be from the
	// receiver's clock when Verify is given no tolerance: long enough for
	// clock skew and a slow retry in flight, short enough that a captured
	// delivery is soon useless.
	DefaultTolerance = 5 * time.Minute
	// MaxHeaderLen bounds the header Verify reads: a real one is about 80
	// bytes (a few more per rotated secret), so anything this long is
	// refused before any MAC is computed.
	MaxHeaderLen = 1024
	// maxSignatures bounds the v1 entries tried (one per live secret
	// during a rotation); more is not a rotation but an attempt to make
	// the receiver compare many guesses.
	maxSignatures = 8
	// macHexLen is the length of a hex SHA-256 MAC.
	macHexLen = 2 * hmacsha256.Size
)

// Why Verify refused a delivery. Errors returned by Verify wrap exactly
// one of these (test with errors.Is) and say more in their text, so a
// receiver can log the reason and answer 400 or 401 accordingly.
var (
	// ErrMalformed: the header is missing, too long, or not
	// "t=<digits>,v1=<64 hex>[,v1=...]".
	ErrMalformed = errors.New("webhooks: malformed signature header")
	// ErrSignature: no v1 entry is the MAC of this body and timestamp
	// under this secret (tampered body, wrong secret, forged header).
	ErrSignature = errors.New("webhooks: signature does not match")
	// ErrStale: the signature is genuine but its timestamp is further
	// from now than the tolerance (a replay, or a clock off by more).
	ErrStale = errors.New("webhooks: timestamp outside the tolerance")
	// ErrSecret: the secret is shorter than MinSecretBytes.
	// (errors.New, not fmt.Errorf: a package-level fmt call would link
	// fmt into the edge core's WebAssembly module, which signs with this
	// package.)
	ErrSecret = errors.New("webhooks: the secret must be at least " + strconv.Itoa(MinSecretBytes) + " bytes (WEBHOOK_SECRET)")
)

// CheckSecret reports whether secret may sign or verify webhooks; the
// worker calls it when it reads WEBHOOK_SECRET so a weak secret is a
// configuration error at startup, not a panic in Sign.
func CheckSecret(secret []byte) error {
	if len(secret) < MinSecretBytes {
		return ErrSecret
	}
	return nil
}

// mac is the hex HMAC-SHA256 of "<t>.<body>".
func mac(secret []byte, ts int64, body []byte) []byte {
	msg := append(strconv.AppendInt(nil, ts, 10), '.')
	sum := hmacsha256.MAC(secret, append(msg, body...))
	return sum[:]
}

// Sign returns the Parcelgate-Signature header value for body sent at t
// (whole seconds; the fraction is dropped). It panics when secret is
// shorter than MinSecretBytes: signing with a weak secret must never
// happen silently, and the caller has already refused such a secret with
// CheckSecret when it read its configuration.
func Sign(secret []byte, body []byte, t time.Time) string {
	if err := CheckSecret(secret); err != nil {
		panic(err)
	}
	ts := t.Unix()
	return "t=" + strconv.FormatInt(ts, 10) + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

// parsed is a header's timestamp and MACs.
type parsed struct {
	ts   int64
	macs [][]byte
}

func malformed(why string) error { return fmt.Errorf("%w: %s", ErrMalformed, why) }

// parse reads "t=<digits>,v1=<hex>[,v1=<hex>...]". Entries are separated
// by commas, with optional spaces around them (proxies re-fold headers);
// keys other than t and v1 are ignored, so a future scheme (v2) can be
// sent beside v1 without breaking today's receivers.
func parse(header string) (parsed, error) {
	var p parsed
	if header == "" {
		return p, malformed("no header")
	}
	if len(header) > MaxHeaderLen {
		return p, malformed(fmt.Sprintf("longer than %d bytes", MaxHeaderLen))
	}
	haveT := false
	for _, item := range strings.Split(header, ",") {
		item = strings.Trim(item, " \t")
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return p, malformed(fmt.Sprintf("entry %q is not key=value", item))
		}
		switch k {
		case "t":
			if haveT {
				// Two timestamps: which one did the MAC cover? Refuse
				// rather than guess.
				return p, malformed("more than one t")
			}
			haveT = true
			// Digits only, no sign, no leading zero: one spelling per
			// timestamp, so the MAC's "<t>." is the header's t.
			if v == "" || len(v) > 18 || strings.Trim(v, "0123456789") != "" || (v[0] == '0' && v != "0") {
				return p, malformed("t is not a number of seconds")
			}
			p.ts, _ = strconv.ParseInt(v, 10, 64) // at most 18 digits: fits
		case "v1":
			if len(v) != macHexLen {
				return p, malformed(fmt.Sprintf("v1 is not %d hex digits", macHexLen))
			}
			m, err := hex.DecodeString(v)
			if err != nil {
				return p, malformed(fmt.Sprintf("v1 is not %d hex digits", macHexLen))
			}
			if len(p.macs) == maxSignatures {
				return p, malformed(fmt.Sprintf("more than %d v1 entries", maxSignatures))
			}
			p.macs = append(p.macs, m)
		}
	}
	if !haveT {
		return p, malformed("no t")
	}
	if len(p.macs) == 0 {
		return p, malformed("no v1")
	}
	return p, nil
}

// Verify checks a delivery: header is the Parcelgate-Signature value and
// body the raw request body, byte for byte as received. It returns nil
// when one v1 entry is the MAC of t and body under secret and t is within
// tolerance of now (either side: a timestamp from the future is refused
// too, since accepting it would stretch the replay window). tolerance 0
// means DefaultTolerance.
//
// Several v1 entries are allowed and any one matching is enough: while
// WEBHOOK_SECRET is being rotated the sender signs with the old and the
// new secret, and each receiver passes the one it holds. Every entry is
// compared in constant time (hmac.Equal), and all of them are compared
// whatever the outcome, so timing does not tell which one matched.
//
// The signature is checked before the timestamp: ErrStale therefore means
// a genuine delivery that arrived late (or a clock that is off), never a
// forgery.
func Verify(body []byte, header string, secret []byte, now time.Time, tolerance time.Duration) error {
	if err := CheckSecret(secret); err != nil {
		return err
	}
	if tolerance < 0 {
		return fmt.Errorf("webhooks: negative tolerance %v", tolerance)
	}
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	p, err := parse(header)
	if err != nil {
		return err
	}
	want := mac(secret, p.ts, body)
	ok := 0
	for _, m := range p.macs {
		if hmacsha256.Equal(m, want) {
			ok = 1
		}
	}
	if ok == 0 {
		return ErrSignature
	}
	age := now.Unix() - p.ts
	if age < 0 {
		age = -age
	}
	if age > int64(tolerance/time.Second) {
		return fmt.Errorf("%w: t=%d is %ds from now (tolerance %ds)", ErrStale, p.ts, now.Unix()-p.ts, int64(tolerance/time.Second))
	}
	return nil
}

// Event is the JSON body of a webhook delivery.
type Event struct {
	// ID identifies the event; it is the same on every retry of one
	// delivery, so receivers dedupe on it (delivery is at least once).
	ID string
	// Type is TypeTrackingUpdated.
	Type string
	// Created is when the edge saw the change (sent as RFC 3339, UTC,
	// whole seconds).
	Created time.Time
	Data    Tracking
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

// wire fixes the JSON field order and the spelling of created.
type wire struct {
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
	err := enc.Encode(wire{ID: e.ID, Type: e.Type, Created: e.Created.UTC().Format(time.RFC3339), Data: e.Data})
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// SignAll is Sign with one v1 entry per secret, in order: while
// WEBHOOK_SECRET is being rotated the worker signs every delivery with the
// new and the previous secret, so receivers holding either accept it
// (Verify takes any matching entry). Every secret must pass CheckSecret.
func SignAll(secrets [][]byte, body []byte, t time.Time) string {
	if len(secrets) == 0 {
		panic(ErrSecret)
	}
	h := Sign(secrets[0], body, t)
	ts := t.Unix()
	for _, s := range secrets[1:] {
		if err := CheckSecret(s); err != nil {
			panic(err)
		}
		h += ",v1=" + hex.EncodeToString(mac(s, ts, body))
	}
	return h
}
