package core

import "github.com/parcelgate/parcelgate/internal/envelope"

// NormalizedAccept is the Accept parameter with which a client asks for an
// operation's data already normalized (`Accept: application/json;
// parcelgate=normalized`, what @parcelgate/js's Client sends). The
// JavaScript looks for it; an Accept value stays a CORS-safelisted
// header, so a cross-origin read costs no preflight.
const NormalizedAccept = "parcelgate=normalized"

// Normalize returns an operation's ok envelope with its data as
// internal/envelope's decoder normalizes it (numbers sent as strings,
// PHP's [] for {}, flags, spellings): the decoder the browser's decoder
// module is compiled from, so a browser talking to its own edge gets what
// core.decode would give without fetching that module (js/bench/README.md,
// "Sizes"). It is called for relayed and cached answers alike, so the
// caches keep the upstream's bytes. Data the decoder refuses (the wrong
// shape) goes out as received and unmarked: the client then decodes it
// itself and reports the shape error with its path.
func Normalize(op string, body []byte) ([]byte, bool) { return normalize(op, body, 0) }

// normalize is Normalize with room for extra bytes after the envelope
// (the signatures signAnswer then writes into it).
func normalize(op string, body []byte, extra int) ([]byte, bool) {
	if lookup(op) == nil {
		return body, false
	}
	// Decoded in place (the value's strings are the body's bytes) and
	// written at once into a buffer of about the body's size: an answer
	// of megabytes is copied once, not three or four times.
	v, err := envelope.DecodeValueInPlace(op, 200, body)
	if err != nil {
		return body, false
	}
	return envelope.MarshalOKSize(v, len(body)+len(body)/4+64+extra), true
}
