// Package envelope decodes the {status, data} response bodies of the 13
// operations of the shipping API into typed results, without reflection.
//
// A pointer to every result type implements jsonlite.Value (Decode
// returns pointers; a struct passed by value costs the WebAssembly modules
// a copy of every field at each call): EmitTo writes the normalized data
// of the response with the wire's snake_case keys, in a fixed order (numbers as numbers, flags as booleans, empty dates as
// null). Go field names are the wire keys in CamelCase.
//
// Decoding is tolerant where the service is known to vary: numbers sent
// as JSON strings, "" and null for absent values, PHP's [] for an empty
// object, an object with keys "0","1",... for an array, is_returned or
// is_return, outdated or oudated, drop_point_data "" or an object, tracking
// history in any order (exposed newest first), and available_methods as a
// list of names (read as {name: true}).
//
// Normalizations (decisions where the spec is silent):
//   - 0/1 flags (is_drop_point, is_returned, outdated) are Go bools and
//     are emitted as true/false; statuses and counts stay integers.
//   - Dates and date-times that are empty, null or MySQL zero dates are ""
//     in Go and null when emitted; other strings are emitted as sent.
//   - Tracking codes are two digits ("7" becomes "07"); every event carries
//     the display category of its code ("unknown" outside 01-30). When the
//     current tracking_code is missing, the newest history event is used.
//   - best_price_service / bestArrivalTime given as null, "" or [] are nil
//     and emitted as null; a rate without currency gets "EUR".
//   - custom_carrier_parameters and tracking_data are kept as compact JSON
//     ([] becomes {}); get-service-info blocks are kept per method as
//     compact JSON.
//   - label_raw must be base64 of a PDF (line breaks, missing padding and
//     the URL alphabet are tolerated); it is emitted as standard base64.
//
// The wire names of every result type are written once, in its struct
// tags (`wire:"name,options"`, see internal/envelope/gen); a member table
// per type (read by the one decoder and emitter of table.go), the
// round-trip tests and the TypeScript result types of the JavaScript
// package are generated from them (`make generate`). What
// the service does oddly is a hook in hooks.go or a method of the type
// (decode, afterDecode), never a copy of the generated code. Members the
// decoder does not know are kept (Extra) and emitted unchanged after the
// known ones, so that a field the spec does not list still reaches
// JavaScript.
//
// The package also owns the {status, data} wrapper for every part of
// parcelgate: Open reads it without decoding data (the edge), MarshalOK
// and MarshalErr write it (the sandbox and the edge), and ErrorData is
// the data of an "err" response in both directions.
//
// Failures are typed: *APIError for status "err", *UnexpectedResponse for
// a body that is not a valid envelope, *ShapeError (with the path of the
// bad value) for status "ok" with data of the wrong shape.
//
// The HTTP status does not decide the outcome (the known PHP client never
// checks it): a valid envelope is decoded whatever the status, and the
// status is recorded in the errors.
package envelope

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Response statuses.
const (
	StatusOK  = "ok"
	StatusErr = "err"
)

// Envelope is the wrapper of every response: {"status": "ok" or "err",
// "data": ...}, with data kept as compact JSON.
type Envelope struct {
	Status string // StatusOK or StatusErr
	Data   []byte // the raw JSON of data; nil when the member is absent
}

// Open reads the wrapper of a response body without decoding its data,
// with the tolerance of Decode (a byte order mark and white space before
// the object, data before status, a repeated data member ignored). A body
// that is not a valid envelope is an *UnexpectedResponse, whose Reason
// names what came instead ("an HTML page", "an empty body", "JSON object
// without a status"...). An "ok"
// envelope without data is returned with a nil Data: Decode reports it as
// a *ShapeError, a relay decides for itself.
func Open(httpStatus int, body []byte) (Envelope, error) {
	return open(httpStatus, body, false)
}

// OpenInPlace is Open without copying body: the envelope's Status and
// Data are body's own bytes, valid while body is neither changed nor
// reused. For a caller that reads the envelope and lets it go (the edge
// core, which relays answers of up to a few megabytes: Open holds two more
// copies of them for a moment).
func OpenInPlace(httpStatus int, body []byte) (Envelope, error) {
	return open(httpStatus, body, true)
}

func open(httpStatus int, body []byte, inPlace bool) (Envelope, error) {
	var env Envelope
	status, _, err := walk(httpStatus, body, inPlace, func(s *jsonlite.Scanner, status string) error {
		// data's bytes where the Scanner reads them: body's own in place,
		// else the Scanner's private copy of it (no second copy).
		t, err := s.RawText()
		env.Data = unsafe.Slice(unsafe.StringData(t), len(t))
		return err
	})
	env.Status = status
	if err != nil {
		return Envelope{}, err
	}
	return env, nil
}

// MarshalOK returns the body {"status":"ok","data":<data>}.
func MarshalOK(data jsonlite.Value) []byte { return MarshalOKSize(data, 0) }

// MarshalOKSize is MarshalOK into a buffer of size bytes to start with
// (its expected length): a large body is written without growing its
// buffer step by step, each step a copy.
func MarshalOKSize(data jsonlite.Value, size int) []byte {
	w := jsonlite.NewWriterSize(size)
	w.BeginObject()
	w.Key("status")
	w.String(StatusOK)
	w.Key("data")
	data.EmitTo(w)
	w.EndObject()
	return w.Bytes()
}

// MarshalErr returns the body {"status":"err","data":<data>}.
func MarshalErr(data *ErrorData) []byte {
	w := jsonlite.NewWriter()
	w.BeginObject()
	w.Key("status")
	w.String(StatusErr)
	w.Key("data")
	data.EmitTo(w)
	w.EndObject()
	return w.Bytes()
}

// ParseErrorData reads the data of an "err" response (as Open returns
// it) with the tolerance of Decode: see ErrorData.
func ParseErrorData(data []byte) (ErrorData, error) {
	var d ErrorData
	s := jsonlite.NewScanner(data)
	err := d.decode(s)
	if err == nil {
		err = s.End()
	}
	return d, err
}

// decodeEnvelope reads the envelope and calls data with the Scanner on
// the data value of an "ok" response; the data of an "err" response
// becomes an *APIError.
func decodeEnvelope(op string, httpStatus int, body []byte, data func(s *jsonlite.Scanner) error) error {
	return decodeEnvelopeIn(op, httpStatus, body, false, data)
}

// decodeEnvelopeIn is decodeEnvelope reading body in place or from a
// copy: in place, the result's strings are body's bytes (see walk).
func decodeEnvelopeIn(op string, httpStatus int, body []byte, inPlace bool, data func(s *jsonlite.Scanner) error) error {
	var apiErr *APIError
	status, hasData, err := walk(httpStatus, body, inPlace, func(s *jsonlite.Scanner, status string) error {
		if status == StatusOK {
			return data(s)
		}
		// An error body is read for what it holds: a member of the wrong
		// shape is passed over, only malformed JSON fails.
		at := s.Offset()
		var d ErrorData
		if err := d.decode(s); err != nil {
			if _, syntax := err.(*jsonlite.SyntaxError); syntax {
				return err
			}
			s.Seek(at)
			if err := s.Skip(); err != nil {
				return err
			}
		}
		apiErr = d.apiError(httpStatus)
		return nil
	})
	switch e := err.(type) {
	case nil:
	case *UnexpectedResponse:
		return e
	case *pathError:
		return &ShapeError{Operation: op, Path: e.path("data"), Reason: e.reason(), HTTPStatus: httpStatus}
	default:
		return &ShapeError{Operation: op, Path: "data", Reason: (&pathError{err: err}).reason(), HTTPStatus: httpStatus}
	}
	switch {
	case apiErr != nil:
		return apiErr
	case status == StatusErr:
		return &APIError{HTTPStatus: httpStatus} // no data
	case status == StatusOK && !hasData:
		return &ShapeError{Operation: op, Path: "data", Reason: "missing", HTTPStatus: httpStatus}
	}
	return nil
}

// walk reads the envelope in one pass and calls data once with the
// Scanner on the data value (after the whole body is read when data comes
// before status). It returns the status, whether data was there, an
// *UnexpectedResponse for a body that is not an envelope, or the error of
// data. data is not called when the member is absent. inPlace reads
// body where it is, not from a copy: every string the Scanner returns is
// then body's bytes, valid while body is neither changed nor reused.
func walk(httpStatus int, body []byte, inPlace bool, data func(s *jsonlite.Scanner, status string) error) (string, bool, error) {
	unexpected := func(reason string) error {
		return &UnexpectedResponse{HTTPStatus: httpStatus, Reason: reason, Snippet: snippet(body)}
	}
	// Leading white space and a UTF-8 byte order mark are tolerated.
	i := 0
	for i < len(body) {
		switch {
		case body[i] == ' ' || body[i] == '\t' || body[i] == '\n' || body[i] == '\r':
			i++
			continue
		case i+3 <= len(body) && body[i] == 0xEF && body[i+1] == 0xBB && body[i+2] == 0xBF:
			i += 3
			continue
		}
		break
	}
	if i == len(body) {
		return "", false, unexpected("an empty body")
	}
	switch body[i] {
	case '{':
	case '<':
		return "", false, unexpected("an HTML page")
	default:
		s := jsonlite.NewScanner(body[i:])
		if s.Skip() == nil && s.End() == nil {
			return "", false, unexpected("JSON that is not an object")
		}
		return "", false, unexpected("a body that is not a JSON object (not JSON at all)")
	}

	var s *jsonlite.Scanner
	if inPlace {
		s = jsonlite.NewScannerString(unsafe.String(unsafe.SliceData(body[i:]), len(body)-i))
	} else {
		s = jsonlite.NewScanner(body[i:])
	}
	// The decoders recurse only as deep as the result types; what nests
	// deeper (a JSON Schema in get-service-info, an unknown member) is
	// kept as raw JSON by an iterative walk, so the limit can be high.
	s.SetMaxDepth(jsonlite.MaxRawDepth)
	// What the member callback learns, in one variable: the closure then
	// captures one allocation, not one per variable.
	var st struct {
		status                   string
		hasStatus, hasData, done bool
		dataAt                   int
		dataErr                  error // from inline decoding
	}
	err := s.Object(func(key string) error {
		switch key {
		case "status":
			if s.Peek() != jsonlite.String {
				return reasonError("JSON whose status is a " + s.Peek().String())
			}
			v, err := s.String()
			st.status, st.hasStatus = v, true
			return err
		case "data":
			if st.done {
				return nil // a repeated data member is ignored
			}
			st.hasData = true
			st.dataAt = s.Offset()
			if !st.hasStatus || (st.status != StatusOK && st.status != StatusErr) {
				return nil // skipped; decoded after the whole body is read
			}
			st.done = true
			st.dataErr = data(s, st.status)
			if _, syntax := st.dataErr.(*jsonlite.SyntaxError); syntax {
				return st.dataErr
			}
			if st.dataErr != nil {
				return errStop // abandon the body: keep the first failure
			}
		}
		return nil
	})
	if err == nil {
		err = s.End()
	}
	switch e := err.(type) {
	case nil, stopError:
	case *jsonlite.SyntaxError:
		return "", false, unexpected("malformed JSON: " + e.Error())
	case reasonError:
		return "", false, unexpected(string(e))
	default:
		return "", false, unexpected(err.Error())
	}
	if !st.hasStatus {
		return "", false, unexpected("JSON object without a status")
	}
	if st.status != StatusOK && st.status != StatusErr {
		return "", false, unexpected("JSON whose status is " + quote(st.status) + ", not \"ok\" or \"err\"")
	}
	if st.hasData && !st.done {
		s.Seek(st.dataAt)
		st.dataErr = data(s, st.status)
	}
	if _, syntax := st.dataErr.(*jsonlite.SyntaxError); syntax {
		return "", false, unexpected("malformed JSON: " + st.dataErr.Error())
	}
	return st.status, st.hasData, st.dataErr
}

// stopError ends the envelope scan after the data failed to decode.
type stopError struct{}

func (stopError) Error() string { return "stop" }

var errStop error = stopError{}

// quote shows a value a message names between double quotes, escaped as
// a JSON string is: strconv.Quote and its tables of printable runes are not
// linked for it (control characters show as \u0001, not \x01).
func quote(s string) string {
	return string(jsonlite.AppendString(nil, s))
}
