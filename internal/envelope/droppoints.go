package envelope

import (
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// TimeTable holds the opening hours of a drop point per weekday, each
// "HH:MM - HH:MM" or "" (closed or unknown), as sent.
type TimeTable struct {
	Mon, Tue, Wed, Thu, Fri, Sat, Sun string
}

// Day returns the hours of day 0 (Monday) to 6 (Sunday); "" otherwise.
func (t TimeTable) Day(i int) string {
	switch i {
	case 0:
		return t.Mon
	case 1:
		return t.Tue
	case 2:
		return t.Wed
	case 3:
		return t.Thu
	case 4:
		return t.Fri
	case 5:
		return t.Sat
	case 6:
		return t.Sun
	}
	return ""
}

// timeTableKeys are the wire keys, Monday first.
var timeTableKeys = [7]string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

func (t *TimeTable) decode(s *jsonlite.Scanner) error {
	return obj(s, func(key string) error {
		switch key {
		case "mon":
			return str(s, &t.Mon)
		case "tue":
			return str(s, &t.Tue)
		case "wed":
			return str(s, &t.Wed)
		case "thu":
			return str(s, &t.Thu)
		case "fri":
			return str(s, &t.Fri)
		case "sat":
			return str(s, &t.Sat)
		case "sun":
			return str(s, &t.Sun)
		}
		return nil
	})
}

// EmitTo writes {mon, tue, wed, thu, fri, sat, sun}.
func (t TimeTable) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	for i, k := range timeTableKeys {
		kStr(e, k, t.Day(i))
	}
	e.EndObject()
}

// DropPoint is a parcel pick-up point.
type DropPoint struct {
	CarrierCode  string    // carrier_code
	DropPointKey string    // drop_point_key, passed to new-shipment
	Name         string    // name
	Address      string    // address
	ZipCode      string    // zip_code
	City         string    // city
	Latitude     float64   // latitude, decimal degrees (a string on the wire)
	Longitude    float64   // longitude, decimal degrees
	HasLocation  bool      // both latitude and longitude were given
	TimeTable    TimeTable // time_table
	Phone        string    // phone
}

func (d *DropPoint) decode(s *jsonlite.Scanner) error {
	var hasLat, hasLon bool
	err := obj(s, func(key string) error {
		var err error
		switch key {
		case "carrier_code":
			return str(s, &d.CarrierCode)
		case "drop_point_key":
			return str(s, &d.DropPointKey)
		case "name":
			return str(s, &d.Name)
		case "address":
			return str(s, &d.Address)
		case "zip_code":
			return str(s, &d.ZipCode)
		case "city":
			return str(s, &d.City)
		case "latitude":
			d.Latitude, hasLat, err = s.LooseFloat()
		case "longitude":
			d.Longitude, hasLon, err = s.LooseFloat()
		case "time_table":
			return d.TimeTable.decode(s)
		case "phone":
			return str(s, &d.Phone)
		}
		return err
	})
	d.HasLocation = hasLat && hasLon
	return err
}

// EmitTo writes the drop point with the wire's keys; latitude and
// longitude are numbers, or null without a location.
func (d DropPoint) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	kStr(e, "carrier_code", d.CarrierCode)
	kStr(e, "drop_point_key", d.DropPointKey)
	kStr(e, "name", d.Name)
	kStr(e, "address", d.Address)
	kStr(e, "zip_code", d.ZipCode)
	kStr(e, "city", d.City)
	if d.HasLocation {
		kFloat(e, "latitude", d.Latitude)
		kFloat(e, "longitude", d.Longitude)
	} else {
		e.Key("latitude")
		e.Null()
		e.Key("longitude")
		e.Null()
	}
	e.Key("time_table")
	d.TimeTable.EmitTo(e)
	kStr(e, "phone", d.Phone)
	e.EndObject()
}

// DropPoints is the result of get-drop-points (data.drop_points).
type DropPoints []DropPoint

func (l *DropPoints) decode(s *jsonlite.Scanner) error {
	*l = (*l)[:0]
	list := func(s *jsonlite.Scanner) error {
		return arr(s, func(int) error {
			var d DropPoint
			err := d.decode(s)
			*l = append(*l, d)
			return err
		})
	}
	if s.Peek() == jsonlite.Array {
		// Tolerated: the list itself as data.
		return list(s)
	}
	return obj(s, func(key string) error {
		if key == "drop_points" {
			return list(s)
		}
		return nil
	})
}

// EmitTo writes {"drop_points": [...]}, the shape of the response data.
func (l DropPoints) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	e.Key("drop_points")
	e.BeginArray()
	for i := range l {
		l[i].EmitTo(e)
	}
	e.EndArray()
	e.EndObject()
}

// DecodeDropPoints decodes a get-drop-points response.
func DecodeDropPoints(httpStatus int, body []byte) (DropPoints, error) {
	var v DropPoints
	err := decodeEnvelope(OpDropPoints, httpStatus, body, v.decode)
	return v, err
}
