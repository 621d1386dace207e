package edge

import (
	"net/http"
	"strconv"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Error codes of the envelopes the edge writes itself. They are outside
// the spec's table (101-999) so that a client never confuses an edge
// failure with a carrier's or the service's code; each is 1000 plus the
// HTTP status it comes with. Validation failures use the spec's codes of
// the first invalid field instead.
const (
	CodeBadRequest       = 1400 // body or query that cannot be decoded
	CodeUnauthorized     = 1401 // missing or wrong proxy token
	CodeOriginForbidden  = 1403 // Origin not in ALLOWED_ORIGINS
	CodeNotFound         = 1404 // unknown path or operation
	CodeMethodNotAllowed = 1405 // method the operation does not accept
	CodeTooLarge         = 1413 // body or query above MAX_BODY_BYTES
	CodeUnsupportedType  = 1415 // POST body that is not a form
	CodeMisconfigured    = 1500 // missing secret or invalid setting
	CodeInternal         = 1500 // a failure inside the worker (a recovered panic)
	CodeBadGateway       = 1502 // upstream unreachable, 5xx, not an envelope, refused credentials
	CodeUnavailable      = 1503 // booking ledger unreachable, or a booking with the reference in progress
	CodeRateLimited      = 1429 // a rate limit was reached (Retry-After says when to come back)
	// CodeBookingUnconfirmed: a resend within the grace after a lost
	// answer (425 Too Early, Retry-After): the booking may exist, nothing
	// was sent.
	CodeBookingUnconfirmed = 1425
	CodeGatewayTimeout     = 1504 // upstream did not answer in time
)

// ContentType is the Content-Type of every response.
const ContentType = "application/json; charset=utf-8"

// edgeError is a failure answered by the edge with its own envelope.
type edgeError struct {
	status  int
	code    int
	message string
	// Optional details.
	fieldErrors    []validate.FieldError
	upstreamStatus int    // 0: none
	upstreamData   []byte // raw JSON of the upstream's data, when it sent an envelope
	retryable      int    // 0 unset, 1 true, 2 false
	hint           string
	class          string // short machine-readable kind for logs and clients
}

// body renders the edge's error envelope: envelope.ErrorData, the shape
// of every error body a client reads.
func (e *edgeError) body(requestID string) []byte {
	d := envelope.ErrorData{Code: e.code, Message: e.message, Source: "edge", Class: e.class,
		UpstreamStatus: e.upstreamStatus, Upstream: e.upstreamData, Hint: e.hint, RequestID: requestID}
	for _, fe := range e.fieldErrors {
		d.Errors = append(d.Errors, envelope.FieldError{Field: fe.Field, Code: fe.Code, Message: fe.Message})
	}
	if e.retryable != 0 {
		r := e.retryable == 1
		d.Retryable = &r
	}
	return envelope.MarshalErr(&d)
}

// data is an envelope's data written by a function, so that the edge's own
// ok answers go through envelope.MarshalOK like every other body.
type data func(w jsonlite.Emitter)

// EmitTo implements jsonlite.Value.
func (d data) EmitTo(w jsonlite.Emitter) { d(w) }

// okObject renders {"status":"ok","data":{...}} with the members fields writes.
func okObject(fields func(w jsonlite.Emitter)) []byte {
	return envelope.MarshalOK(data(func(w jsonlite.Emitter) {
		w.BeginObject()
		fields(w)
		w.EndObject()
	}))
}

// okBody renders {"status":"ok","data":{...}} from key/value string pairs.
func okBody(kv ...string) []byte {
	return okObject(func(w jsonlite.Emitter) {
		for i := 0; i+1 < len(kv); i += 2 {
			w.Key(kv[i])
			w.String(kv[i+1])
		}
	})
}

// write sends a JSON body with the given status; the common headers are
// already set.
func write(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ContentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
