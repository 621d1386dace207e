// Package envelope decodes the {status, data} response bodies of the 13
// operations of the shipping API into typed results, without reflection.
//
// Every result type implements jsonlite.Value: EmitTo writes the
// normalized data of the response with the wire's snake_case keys, in a
// fixed order (numbers as numbers, flags as booleans, empty dates as
// null). Go field names are the wire keys in CamelCase.
//
// Decoding is tolerant where the service is known to vary: numbers sent
// as JSON strings, "" and null for absent values, PHP's [] for an empty
// object, an object with keys "0","1",... for an array, is_returned or
// is_return, outdated or oudated, drop_point_data "" or an object, tracking
// history in any order (exposed newest first), and unknown fields (ignored).
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
// Failures are typed: *APIError for status "err", *UnexpectedResponse for
// a body that is not a valid envelope, *ShapeError (with the path of the
// bad value) for status "ok" with data of the wrong shape.
//
// The HTTP status does not decide the outcome (the known PHP client never
// checks it): a valid envelope is decoded whatever the status, and the
// status is recorded in the errors.
package envelope

import (
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Operation names.
const (
	OpClientCarriers    = "get-client-carriers"
	OpClientServices    = "get-client-services"
	OpShipmentsRates    = "get-shipments-rates"
	OpArrivalEstimation = "get-shipment-time-arrival-estimation"
	OpServiceInfo       = "get-service-info"
	OpDropPoints        = "get-drop-points"
	OpNewShipment       = "new-shipment"
	OpCollectionCutoff  = "get-collection-cutoff-hour"
	OpNewCollection     = "new-collection"
	OpShipmentLabel     = "get-shipment-label"
	OpShipment          = "get-shipment"
	OpShipments         = "get-shipments"
	OpShipmentTracking  = "get-shipment-tracking"
)

// Operations lists the 13 operation names in the spec's order.
var Operations = [...]string{
	OpClientCarriers, OpClientServices, OpShipmentsRates, OpArrivalEstimation,
	OpServiceInfo, OpDropPoints, OpNewShipment, OpCollectionCutoff,
	OpNewCollection, OpShipmentLabel, OpShipment, OpShipments, OpShipmentTracking,
}

// Decode decodes the response body of operation op and returns its typed
// result (Carriers, Services, Rates, ArrivalEstimates, ServiceInfo,
// DropPoints, NewShipment, Cutoff, Collection, Label, Shipment, Shipments
// or ShipmentTracking). Errors are *APIError, *UnexpectedResponse,
// *ShapeError or *UnknownOperationError.
func Decode(op string, httpStatus int, body []byte) (jsonlite.Value, error) {
	var v jsonlite.Value
	var err error
	switch op {
	case OpClientCarriers:
		v, err = DecodeCarriers(httpStatus, body)
	case OpClientServices:
		v, err = DecodeServices(httpStatus, body)
	case OpShipmentsRates:
		v, err = DecodeRates(httpStatus, body)
	case OpArrivalEstimation:
		v, err = DecodeArrivalEstimates(httpStatus, body)
	case OpServiceInfo:
		v, err = DecodeServiceInfo(httpStatus, body)
	case OpDropPoints:
		v, err = DecodeDropPoints(httpStatus, body)
	case OpNewShipment:
		v, err = DecodeNewShipment(httpStatus, body)
	case OpCollectionCutoff:
		v, err = DecodeCutoff(httpStatus, body)
	case OpNewCollection:
		v, err = DecodeCollection(httpStatus, body)
	case OpShipmentLabel:
		v, err = DecodeLabel(httpStatus, body)
	case OpShipment:
		v, err = DecodeShipment(httpStatus, body)
	case OpShipments:
		v, err = DecodeShipments(httpStatus, body)
	case OpShipmentTracking:
		v, err = DecodeTracking(httpStatus, body)
	default:
		return nil, &UnknownOperationError{Operation: op}
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// decodeEnvelope reads the envelope and calls data with the Scanner on
// the data value of an "ok" response.
func decodeEnvelope(op string, httpStatus int, body []byte, data func(s *jsonlite.Scanner) error) error {
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
		return unexpected("empty body")
	}
	switch body[i] {
	case '{':
	case '<':
		return unexpected("an HTML page instead of JSON")
	default:
		s := jsonlite.NewScanner(body[i:])
		if s.Skip() == nil && s.End() == nil {
			return unexpected("JSON that is not an object")
		}
		return unexpected("not JSON")
	}

	s := jsonlite.NewScanner(body[i:])
	status := ""
	hasStatus, hasData, done := false, false, false
	dataAt := 0
	var dataErr error // *APIError or a data decoding error, from inline decoding
	err := s.Object(func(key string) error {
		switch key {
		case "status":
			if s.Peek() != jsonlite.String {
				return reasonError("status is a " + s.Peek().String())
			}
			v, err := s.String()
			status, hasStatus = v, true
			return err
		case "data":
			if done {
				return nil // a repeated data member is ignored
			}
			hasData = true
			dataAt = s.Offset()
			if !hasStatus {
				return nil // skipped; decoded after the whole body is read
			}
			done = true
			switch status {
			case "ok":
				dataErr = data(s)
			case "err":
				dataErr = decodeAPIError(s, httpStatus)
			default:
				return nil
			}
			if _, syntax := dataErr.(*jsonlite.SyntaxError); syntax {
				return dataErr
			}
			if dataErr != nil {
				// Abandon the body: keep the first failure.
				return errStop
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
		return unexpected("malformed JSON: " + e.Error())
	case reasonError:
		return unexpected(string(e))
	default:
		return unexpected(err.Error())
	}
	if !hasStatus {
		return unexpected("JSON object without a status")
	}
	if status != "ok" && status != "err" {
		return unexpected("status is " + quote(status) + ", not \"ok\" or \"err\"")
	}
	if !hasData {
		if status == "err" {
			return &APIError{HTTPStatus: httpStatus}
		}
		return &ShapeError{Operation: op, Path: "data", Reason: "missing", HTTPStatus: httpStatus}
	}
	if !done {
		s.Seek(dataAt)
		if status == "ok" {
			dataErr = data(s)
		} else {
			dataErr = decodeAPIError(s, httpStatus)
		}
	}
	switch e := dataErr.(type) {
	case nil:
		return nil
	case *APIError:
		return e
	case *jsonlite.SyntaxError:
		return unexpected("malformed JSON: " + e.Error())
	case *pathError:
		return &ShapeError{Operation: op, Path: e.path("data"), Reason: e.reason(), HTTPStatus: httpStatus}
	default:
		return &ShapeError{Operation: op, Path: "data", Reason: (&pathError{err: dataErr}).reason(), HTTPStatus: httpStatus}
	}
}

// stopError ends the envelope scan after the data failed to decode.
type stopError struct{}

func (stopError) Error() string { return "stop" }

var errStop error = stopError{}

func quote(s string) string {
	return string(jsonlite.AppendString(nil, s))
}

// decodeAPIError reads the data of an "err" response the way the known
// PHP client does: data.errorCode and data.errorMessage (plus
// carrierErrorCode and carrierErrorMessage); failing a message, data.message;
// failing that, data[0] when data is an array whose first element is a
// string. A data that is itself a string is taken as the message.
// It returns *APIError, or a *jsonlite.SyntaxError for a malformed body.
func decodeAPIError(s *jsonlite.Scanner, httpStatus int) error {
	e := &APIError{HTTPStatus: httpStatus}
	var message, altMessage string
	switch s.Peek() {
	case jsonlite.Object:
		err := s.Object(func(key string) error {
			switch key {
			case "errorCode":
				t, err := anyText(s)
				if err == nil {
					if n, ok := parseInt(t); ok {
						e.Code = n
					}
				}
				return err
			case "errorMessage":
				v, err := anyText(s)
				message = v
				return err
			case "message":
				v, err := anyText(s)
				altMessage = v
				return err
			case "carrierErrorCode":
				v, err := anyText(s)
				e.CarrierCode = v
				return err
			case "carrierErrorMessage":
				v, err := anyText(s)
				e.CarrierMessage = v
				return err
			}
			return nil
		})
		if err != nil {
			return err
		}
		if message == "" {
			message = altMessage
		}
	case jsonlite.Array:
		err := s.Array(func(i int) error {
			if i == 0 && s.Peek() == jsonlite.String {
				v, err := s.String()
				message = v
				return err
			}
			return nil
		})
		if err != nil {
			return err
		}
	case jsonlite.String:
		v, err := s.String()
		if err != nil {
			return err
		}
		message = v
	default:
		if err := s.Skip(); err != nil {
			return err
		}
	}
	e.Message = message
	return e
}

// anyText reads any value as text: strings as is, numbers and booleans
// as their literal, null as "", objects and arrays as compact JSON.
func anyText(s *jsonlite.Scanner) (string, error) {
	switch s.Peek() {
	case jsonlite.Object, jsonlite.Array:
		w := jsonlite.NewWriter()
		if err := s.Transcode(w); err != nil {
			return "", err
		}
		return string(w.Bytes()), nil
	}
	return s.LooseString()
}

// parseInt parses a decimal integer that fits an int (surrounding spaces
// allowed).
func parseInt(t string) (int, bool) {
	for len(t) > 0 && t[0] == ' ' {
		t = t[1:]
	}
	for len(t) > 0 && t[len(t)-1] == ' ' {
		t = t[:len(t)-1]
	}
	s := jsonlite.NewScannerString(t)
	n, ok, err := s.LooseInt()
	if err != nil || !ok || s.End() != nil || n < -1<<31 || n > 1<<31-1 {
		return 0, false
	}
	return int(n), true
}
