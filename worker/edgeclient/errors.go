package edgeclient

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
)

// Classes of an Error besides the edge's own errorClass values
// (invalid_request, unauthorized, rate_limited, booking_unconfirmed,
// booking_conflict, upstream_timeout, ...; worker/README.md's table) and
// the service's (carrier_rejected, carrier_communication, unexpected,
// unknown).
const (
	// ClassNetwork: the edge could not be reached, or its answer was cut off.
	ClassNetwork = "network"
	// ClassCanceled: the call's context was canceled or passed its deadline.
	ClassCanceled = "canceled"
	// ClassUnauthorized: a 401 or 403 without an envelope.
	ClassUnauthorized = envelope.ClassUnauthorized
	// ClassUpstreamUnavailable: a 502, 503 or 504 without an envelope.
	ClassUpstreamUnavailable = envelope.ClassUpstreamUnavailable
	// ClassUnexpectedResponse: an answer that is not an envelope, or data
	// of the wrong shape for the operation.
	ClassUnexpectedResponse = envelope.ClassUnexpectedResponse
)

// SourceEdge is Error.Source for a refusal the edge made itself (nothing
// or nothing more was sent to the service).
const SourceEdge = "edge"

// Error is every failure of a call. Use errors.As(err, &e) with
// e *edgeclient.Error.
type Error struct {
	Operation Operation
	// HTTPStatus is the answer's status; 0 when none came.
	HTTPStatus int
	// Code is data.errorCode: the spec's code (101-999) for the service's
	// refusals and a field's code for invalid input, 1000 + HTTP status
	// for the edge's own refusals; 0 when there was no envelope.
	Code int
	// Class is the edge's errorClass for its refusals, else the class of
	// the service's code (carrier_rejected, ...), else one of the Class
	// constants.
	Class string
	// Message is data.errorMessage (in the Accept-Language the Client sends).
	Message string
	// Source is SourceEdge for the edge's own refusals, "" for the service's.
	Source string
	// Retryable is the edge's word that the identical request may be sent
	// again (data.retryable); for a read that did not reach the edge, true.
	Retryable bool
	// RetryAfter is the answer's Retry-After; 0 when absent.
	RetryAfter time.Duration
	// FieldErrors are every invalid field of a 400 (data.errors).
	FieldErrors []FieldError
	// RequestID is the edge's X-Request-Id (or data.requestId).
	RequestID string
	// Hint says what to do next (a lost booking's answer).
	Hint string
	// CarrierCode and CarrierMessage are the carrier's own, when the
	// service passed them on.
	CarrierCode, CarrierMessage string
	// UpstreamStatus is the service's HTTP status behind a 502.
	UpstreamStatus int
	// Attempts is how many times the request was sent.
	Attempts int
	// Header is the answer's header and Body the answer as received (at
	// most 16 MiB); nil when none came.
	Header http.Header
	Body   []byte
	// Err is the underlying failure: a transport or context error,
	// or internal/envelope's *APIError, *UnexpectedResponse or *ShapeError.
	Err error
}

// Error implements error: "<operation>: <message> (HTTP <status>, code <code>, <class>)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Operation))
	b.WriteString(": ")
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	b.WriteString(msg)
	b.WriteString(" (")
	if e.HTTPStatus != 0 {
		b.WriteString("HTTP " + strconv.Itoa(e.HTTPStatus) + ", ")
	}
	if e.Code != 0 {
		b.WriteString("code " + strconv.Itoa(e.Code) + ", ")
	}
	b.WriteString(e.Class)
	b.WriteString(")")
	if e.RequestID != "" {
		b.WriteString(" [request " + e.RequestID + "]")
	}
	return b.String()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Field returns the error of the named field, if the edge reported one.
func (e *Error) Field(name string) (FieldError, bool) {
	for _, f := range e.FieldErrors {
		if f.Field == name {
			return f, true
		}
	}
	return FieldError{}, false
}

// errorOf reads the data of an "err" envelope: the service's members
// through internal/envelope, the edge's own (written, never read, by the
// core) here.
func errorOf(status int, h http.Header, body, data []byte, rid string, retryAfter time.Duration) *Error {
	e := &Error{HTTPStatus: status, RequestID: rid, RetryAfter: retryAfter, Header: h, Body: body}
	d, _ := envelope.ParseErrorData(data) // tolerant: what it could read
	e.Code, e.Message = d.Code, d.Message
	if e.Message == "" {
		e.Message = d.AltMessage
	}
	e.CarrierCode, e.CarrierMessage = d.CarrierCode, d.CarrierMessage
	e.Err = &envelope.APIError{Code: d.Code, Message: e.Message, CarrierCode: d.CarrierCode, CarrierMessage: d.CarrierMessage, HTTPStatus: status}
	var edge struct {
		Source         string       `json:"source"`
		Class          string       `json:"errorClass"`
		Errors         []FieldError `json:"errors"`
		Retryable      *bool        `json:"retryable"`
		Hint           string       `json:"hint"`
		RequestID      string       `json:"requestId"`
		UpstreamStatus int          `json:"upstreamStatus"`
	}
	_ = json.Unmarshal(data, &edge) // data may be a list or a string: nothing of the edge's then
	e.Source, e.Hint, e.FieldErrors, e.UpstreamStatus = edge.Source, edge.Hint, edge.Errors, edge.UpstreamStatus
	if edge.Retryable != nil {
		e.Retryable = *edge.Retryable
	}
	if e.RequestID == "" {
		e.RequestID = edge.RequestID
	}
	switch {
	case edge.Class != "":
		e.Class = edge.Class
	case len(e.FieldErrors) > 0:
		e.Class = "invalid_request"
	case e.Code == 0 && (status == 401 || status == 403):
		e.Class = ClassUnauthorized
	default:
		e.Class = envelope.ClassOf(e.Code)
	}
	return e
}
