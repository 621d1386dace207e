package core

import (
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/unitab"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Error codes of the envelopes the edge writes itself: outside the spec's
// table (101-999), each 1000 plus the HTTP status it comes with, so a
// client never confuses an edge failure with a carrier's or the service's
// code. Validation failures use the spec's codes of the first invalid
// field instead.
const (
	CodeBadRequest       = 1400 // body or query that cannot be decoded
	CodeUnauthorized     = 1401 // missing or wrong token
	CodeForbidden        = 1403 // a scoped token outside its grant; an Origin not allowed
	CodeNotFound         = 1404 // unknown path or operation
	CodeMethodNotAllowed = 1405 // method the operation does not accept
	CodeRateLimited      = 1429 // a rate limit was reached
	CodeTooLarge         = 1413 // body or query above MAX_BODY_BYTES
	CodeUnsupportedType  = 1415 // POST body that is not a form
	CodeMisconfigured    = 1500 // missing secret or invalid setting
	CodeInternal         = 1500 // a failure inside the worker (a trap)
	CodeBadGateway       = 1502 // upstream unreachable, 5xx, not an envelope, refused credentials
	CodeUnavailable      = 1503 // booking ledger unreachable, or a booking in progress
	CodeGatewayTimeout   = 1504 // upstream did not answer in time
)

// ContentType is the Content-Type of every response the core writes.
const ContentType = "application/json; charset=utf-8"

// RateLimitRetryAfter is the Retry-After of a 429, in seconds.
const RateLimitRetryAfter = 60

// Header is one response header.
type Header struct{ Name, Value string }

// Response is an answer to send: the JavaScript adds its own headers
// (request id, CORS, timing) to these.
type Response struct {
	Status  int
	Headers []Header
	Body    []byte
	// Class is a short machine-readable kind for the log line.
	Class string
	// Detail is for the log line only, never sent: what a generic
	// answer left out (a configuration error's variables).
	Detail string
}

// Refusal is a failure the edge answers with its own envelope
// (envelope.ErrorData).
type Refusal struct {
	Status  int
	Code    int
	Message string
	Class   string
	// Optional details.
	FieldErrors    []validate.FieldError
	UpstreamStatus int    // 0: none
	UpstreamData   []byte // raw JSON of the upstream's data
	Retryable      int    // 0 unset, 1 true, 2 false
	Hint           string
	Headers        []Header
}

// Body renders the refusal's envelope.
func (e *Refusal) Body(requestID string) []byte {
	d := envelope.ErrorData{Code: e.Code, Message: e.Message, Source: "edge", Class: e.Class,
		UpstreamStatus: e.UpstreamStatus, Upstream: e.UpstreamData, Hint: e.Hint, RequestID: requestID}
	for _, fe := range e.FieldErrors {
		d.Errors = append(d.Errors, envelope.FieldError{Field: fe.Field, Code: fe.Code, Message: fe.Message})
	}
	if e.Retryable != 0 {
		r := e.Retryable == 1
		d.Retryable = &r
	}
	return envelope.MarshalErr(&d)
}

// Response renders the refusal as the response to send.
func (e *Refusal) Response(requestID string) *Response {
	return &Response{Status: e.Status, Headers: withType(e.Headers), Body: e.Body(requestID), Class: e.Class}
}

// refuse is one of the edge's own refusals, whose code is 1000 plus the
// status (the Code* constants). One function rather than a literal of
// Refusal's many fields at each site: each literal was its own
// allocation and stores in the module.
//
//go:noinline
func refuse(status int, class, msg string) *Refusal {
	return &Refusal{Status: status, Code: 1000 + status, Class: class, Message: msg}
}

// with adds a header to the refusal's response.
//
//go:noinline
func (e *Refusal) with(name, value string) *Refusal {
	e.Headers = append(e.Headers, Header{name, value})
	return e
}

// retry marks the refusal retryable.
func (e *Refusal) retry() *Refusal {
	e.Retryable = 1
	return e
}

// fieldRefusal is a refusal about one field: the message names it, and
// the field's error repeats the problem.
//
//go:noinline
func fieldRefusal(status, code int, class, field, problem string) *Refusal {
	return &Refusal{Status: status, Code: code, Class: class, Message: field + ": " + problem,
		FieldErrors: []validate.FieldError{{Field: field, Code: code, Message: problem}}}
}

func withType(h []Header) []Header {
	return append([]Header{{"Content-Type", ContentType}}, h...)
}

// ok is a 200 answer with a body the core or the upstream wrote.
func ok(body []byte, class string, h ...Header) *Response {
	return &Response{Status: 200, Headers: withType(h), Body: body, Class: class}
}

// okObject renders {"status":"ok","data":{...}} with the members fields writes.
func okObject(fields func(w jsonlite.Emitter)) []byte {
	return envelope.MarshalOK(jsonlite.EmitFunc(func(w jsonlite.Emitter) {
		w.BeginObject()
		fields(w)
		w.EndObject()
	}))
}

// invalid is the 400 answer to a request that failed decoding or
// validation: the first error as errorCode/errorMessage, all in errors.
func invalid(errs []validate.FieldError) *Refusal {
	first := errs[0]
	msg := first.Message
	if first.Field != "" {
		msg = first.Field + ": " + first.Message
	}
	return &Refusal{Status: 400, Code: first.Code, Class: "invalid_request", Message: msg, FieldErrors: errs}
}

// misconfigFor answers a configuration error: the variables to the master
// token's holder (in English: they are the operator's), a generic message
// in the caller's language to anyone else (worker/edge's, issue 20: a page
// or a scanner learns from "PROXY_TOKEN: secret is not set" which secrets
// a worker lacks); the log line (Detail) names them either way.
func (e *Edge) misconfigFor(errs []ConfigError, req *Request) *Response {
	r := misconfig(errs)
	full := r.Message
	if !e.IsMaster(req.Authorization) {
		r.Message = say(req.locale(), msgMisconfigGeneric)
	}
	resp := r.Response(req.RequestID)
	resp.Detail = full
	return resp
}

// misconfigIn answers r with one configuration problem found while
// answering it (misconfigFor).
//
//go:noinline
func (e *Edge) misconfigIn(r *Request, variable, problem string) *Response {
	return e.misconfigFor([]ConfigError{{variable, problem}}, r)
}

func misconfig(errs []ConfigError) *Refusal {
	msg := "worker misconfigured: "
	for i, e := range errs {
		if i > 0 {
			msg += "; "
		}
		msg += e.Error()
	}
	return refuse(500, "misconfigured", msg)
}

func badTokenField(field, problem string) *Refusal {
	return fieldRefusal(400, CodeBadRequest, "invalid_request", field, problem)
}

// clip is unitab.Clip: n characters, never half of one.
func clip(s string, n int) string { return unitab.Clip(s, n) }

// quote shows a value a message names between double quotes, escaped as
// a JSON string is: strconv.Quote, its tables of printable runes and its
// code (about 6 KB of the module) are not linked for it. Control
// characters and invalid UTF-8 show as JSON shows them (\u0001, U+FFFD)
// rather than as Go does (\x01, \xff).
func quote(s string) string { return string(jsonlite.AppendString(nil, s)) }
