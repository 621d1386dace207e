package envelope

import (
	"strings"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/unitab"
)

// APIError is a response with status "err": the service refused the
// request. Code is data.errorCode (0 when absent or not a number).
type APIError struct {
	Code           int    // data.errorCode
	Message        string // data.errorMessage, else data.message, else data[0]
	CarrierCode    string // data.carrierErrorCode (number or string on the wire)
	CarrierMessage string // data.carrierErrorMessage
	HTTPStatus     int    // HTTP status of the response
}

// Class returns the class of Code (see ClassOf).
func (e *APIError) Class() string { return ClassOf(e.Code) }

// Meaning returns the meaning of Code from the spec's table, "" when the
// code is not in it.
func (e *APIError) Meaning() string {
	m, _ := Lookup(e.Code)
	return m
}

// Error describes the failure; for a code absent from the spec's table it
// asks to report the code to support, as the spec says. A missing code
// (0) has class ClassUnknown but nothing to report.
func (e *APIError) Error() string {
	var b strings.Builder
	if e.Code == 0 {
		b.WriteString("upstream error without an error code")
	} else {
		b.WriteString("upstream error ")
		b.WriteString(decimal.Itoa(e.Code))
		b.WriteString(" (")
		b.WriteString(e.Class())
		b.WriteString(")")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	} else if m := e.Meaning(); m != "" {
		b.WriteString(": ")
		b.WriteString(m)
	}
	if e.CarrierCode != "" || e.CarrierMessage != "" {
		b.WriteString(" [carrier")
		if e.CarrierCode != "" {
			b.WriteString(" ")
			b.WriteString(e.CarrierCode)
		}
		if e.CarrierMessage != "" {
			b.WriteString(": ")
			b.WriteString(e.CarrierMessage)
		}
		b.WriteString("]")
	}
	if e.Code != 0 && e.Class() == ClassUnknown {
		b.WriteString("; this error code is not documented: report it to support with code ")
		b.WriteString(decimal.Itoa(e.Code))
	}
	return b.String()
}

// EmitTo writes {"type":"api","code","class","meaning","message",
// "carrier_code","carrier_message","http_status"}.
func (e *APIError) EmitTo(em jsonlite.Emitter) {
	em.BeginObject()
	kStr(em, "type", "api")
	kInt(em, "code", int64(e.Code))
	kStr(em, "class", e.Class())
	kStr(em, "meaning", e.Meaning())
	kStr(em, "message", e.Message)
	kStr(em, "carrier_code", e.CarrierCode)
	kStr(em, "carrier_message", e.CarrierMessage)
	kInt(em, "http_status", int64(e.HTTPStatus))
	em.EndObject()
}

// Classes of UnexpectedResponse.
const (
	// ClassUnauthorized: HTTP 401 or 403 without a usable envelope
	// (the spec does not show how wrong credentials are reported).
	ClassUnauthorized = "unauthorized"
	// ClassUpstreamUnavailable: HTTP 502, 503 or 504 without a usable
	// envelope.
	ClassUpstreamUnavailable = "upstream_unavailable"
	// ClassUnexpectedResponse: any other body that is not a valid envelope.
	ClassUnexpectedResponse = "unexpected_response"
)

// UnexpectedResponse is a body that is not a valid {status, data}
// envelope: empty, not JSON, an HTML page, JSON that is not an object, or
// an object without a valid status.
type UnexpectedResponse struct {
	HTTPStatus int    // HTTP status of the response
	Reason     string // what was wrong
	Snippet    string // the start of the body (at most 200 bytes, valid UTF-8)
}

// Class returns ClassUnauthorized, ClassUpstreamUnavailable or
// ClassUnexpectedResponse from the HTTP status.
func (e *UnexpectedResponse) Class() string {
	switch e.HTTPStatus {
	case 401, 403:
		return ClassUnauthorized
	case 502, 503, 504:
		return ClassUpstreamUnavailable
	}
	return ClassUnexpectedResponse
}

// Error implements error.
func (e *UnexpectedResponse) Error() string {
	s := "unexpected response (HTTP " + decimal.Itoa(e.HTTPStatus) + "): " + e.Reason
	if e.Snippet != "" {
		s += "; body starts with " + quote(e.Snippet)
	}
	return s
}

// EmitTo writes {"type":"unexpected","class","reason","snippet","http_status"}.
func (e *UnexpectedResponse) EmitTo(em jsonlite.Emitter) {
	em.BeginObject()
	kStr(em, "type", "unexpected")
	kStr(em, "class", e.Class())
	kStr(em, "reason", e.Reason)
	kStr(em, "snippet", e.Snippet)
	kInt(em, "http_status", int64(e.HTTPStatus))
	em.EndObject()
}

// snippet returns the first bytes of a body as valid UTF-8 (invalid
// bytes replaced by U+FFFD), at most 200 bytes, without cutting a rune.
func snippet(body []byte) string {
	const max = 200
	if len(body) > 2*max {
		body = body[:2*max]
	}
	s := strings.ToValidUTF8(string(body), "\uFFFD")
	if len(s) > max {
		n := max
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	return unitab.TrimSpace(s)
}

// ShapeError is a response with status "ok" whose data does not have the
// shape of the operation's result. Path names the offending value, as
// "data.services[2].price".
type ShapeError struct {
	Operation  string // operation name
	Path       string // "data" followed by .key and [index] segments
	Reason     string // what was wrong
	HTTPStatus int    // HTTP status of the response
}

// Error implements error.
func (e *ShapeError) Error() string {
	return "unexpected data in " + e.Operation + " response: " + e.Path + ": " + e.Reason
}

// EmitTo writes {"type":"shape","operation","path","reason","http_status"}.
func (e *ShapeError) EmitTo(em jsonlite.Emitter) {
	em.BeginObject()
	kStr(em, "type", "shape")
	kStr(em, "operation", e.Operation)
	kStr(em, "path", e.Path)
	kStr(em, "reason", e.Reason)
	kInt(em, "http_status", int64(e.HTTPStatus))
	em.EndObject()
}

// UnknownOperationError is returned by Decode for an operation name that
// is not one of Operations.
type UnknownOperationError struct{ Operation string }

// Error implements error.
func (e *UnknownOperationError) Error() string {
	return "unknown operation " + quote(e.Operation)
}

// pathError carries a decoding error up through the values that contain
// it; segments are collected innermost first and only on failure.
type pathError struct {
	segs []string
	err  error
}

func (p *pathError) Error() string { return p.path("data") + ": " + p.err.Error() }

func (p *pathError) path(root string) string {
	var b strings.Builder
	b.WriteString(root)
	for i := len(p.segs) - 1; i >= 0; i-- {
		b.WriteString(p.segs[i])
	}
	return b.String()
}

// reason returns the message of the wrapped error without the scanner's
// offset suffix.
func (p *pathError) reason() string {
	if te, ok := p.err.(*jsonlite.TypeError); ok {
		return "expected " + te.Want + ", got " + te.Got
	}
	return p.err.Error()
}

// inKey adds an object member to the path of err (nil stays nil; syntax
// errors are left alone, they are about the body, not the data).
func inKey(err error, key string) error {
	if err == nil {
		return nil
	}
	return addSeg(err, "."+key)
}

// inIndex adds an array index to the path of err.
func inIndex(err error, i int) error {
	if err == nil {
		return nil
	}
	return addSeg(err, "["+decimal.Itoa(i)+"]")
}

func addSeg(err error, seg string) error {
	switch e := err.(type) {
	case nil:
		return nil
	case *jsonlite.SyntaxError:
		return err
	case *pathError:
		e.segs = append(e.segs, seg)
		return e
	}
	return &pathError{segs: []string{seg}, err: err}
}

// reasonError is a decoding failure described by a plain message.
type reasonError string

func (r reasonError) Error() string { return string(r) }

// ErrorData is the data of an "err" response, in both directions: the
// service's refusals are read into it (APIError), and parcelgate's own
// refusals (the sandbox's and the edge's) are written from it, so that
// every error body has the one shape a client reads. The members only the
// edge writes are writeonly: nothing in Go reads them (the JavaScript
// Client does), so the browser module does not carry their decoding.
//
// Reading follows the known PHP client: errorCode and errorMessage (plus
// carrierErrorCode and carrierErrorMessage), failing a message, message;
// data as a list takes its first string as the message, data as a string
// is the message.
type ErrorData struct {
	Code           int          `wire:"errorCode,as=code"`                  // 0 when absent or not a number
	Message        string       `wire:"errorMessage,as=text"`               //
	AltMessage     string       `wire:"message,as=text,omitempty"`          // the message some bodies send instead
	CarrierCode    string       `wire:"carrierErrorCode,as=text,omitempty"` // number or string on the wire
	CarrierMessage string       `wire:"carrierErrorMessage,as=text,omitempty"`
	Field          string       `wire:"field,omitempty,writeonly"`           // the invalid field (the sandbox)
	Source         string       `wire:"source,omitempty,writeonly"`          // "edge" for the edge's own refusals
	Class          string       `wire:"errorClass,omitempty,writeonly"`      // short machine-readable kind
	Errors         []FieldError `wire:"errors,omitempty,writeonly"`          // every invalid field
	UpstreamStatus int          `wire:"upstreamStatus,omitempty,writeonly"`  // HTTP status of a failed upstream answer
	Upstream       []byte       `wire:"upstream,as=raw,omitempty,writeonly"` // the upstream's data, as sent
	Retryable      *bool        `wire:"retryable,omitempty,writeonly"`       // whether sending again is safe; nil: not said
	Hint           string       `wire:"hint,omitempty,writeonly"`            // what to do next
	RequestID      string       `wire:"requestId,omitempty,writeonly"`       // the edge's request id
	Extra          RawMembers   `wire:",extra"`
}

// FieldError is one invalid field of an error body.
type FieldError struct {
	Field   string     `wire:"field"`
	Code    int        `wire:"code"`
	Message string     `wire:"message"`
	Extra   RawMembers `wire:",extra"`
}

// decode is a hook: besides an object, data may be a list of messages or
// a message.
func (d *ErrorData) decode(s *jsonlite.Scanner) error {
	switch s.Peek() {
	case jsonlite.Object:
		return d.decodeObject(s)
	case jsonlite.Array:
		return s.Array(func(i int) error {
			if i == 0 && s.Peek() == jsonlite.String {
				v, err := s.String()
				d.Message = v
				return err
			}
			return s.Skip()
		})
	case jsonlite.String:
		v, err := s.String()
		d.Message = v
		return err
	}
	return s.Skip()
}

// apiError is the failure an error body describes.
func (d *ErrorData) apiError(httpStatus int) *APIError {
	msg := d.Message
	if msg == "" {
		msg = d.AltMessage
	}
	return &APIError{Code: d.Code, Message: msg, CarrierCode: d.CarrierCode, CarrierMessage: d.CarrierMessage, HTTPStatus: httpStatus}
}
