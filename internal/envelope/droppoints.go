package envelope

import (
	"unsafe"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// TimeTable holds the opening hours of a drop point per weekday, each
// "HH:MM - HH:MM" or "" (closed or unknown), as sent.
type TimeTable struct {
	Mon   string     `wire:"mon"`
	Tue   string     `wire:"tue"`
	Wed   string     `wire:"wed"`
	Thu   string     `wire:"thu"`
	Fri   string     `wire:"fri"`
	Sat   string     `wire:"sat"`
	Sun   string     `wire:"sun"`
	Extra RawMembers `wire:",extra"`
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

// DropPoint is a parcel pick-up point. Latitude and longitude are emitted
// as numbers when both were given, else both as null.
type DropPoint struct {
	CarrierCode  string     `wire:"carrier_code"`
	DropPointKey string     `wire:"drop_point_key"` // passed to new-shipment
	Name         string     `wire:"name"`
	Address      string     `wire:"address"`
	ZipCode      string     `wire:"zip_code"`
	City         string     `wire:"city"`
	Latitude     float64    `wire:"latitude,seen=hasLat,nullunless=HasLocation"`  // decimal degrees (a string on the wire)
	Longitude    float64    `wire:"longitude,seen=hasLon,nullunless=HasLocation"` // decimal degrees
	TimeTable    TimeTable  `wire:"time_table"`
	Phone        string     `wire:"phone"`
	Point        string     `wire:"point,omitempty"` // the edge's signed point (issue 30), absent upstream
	Extra        RawMembers `wire:",extra"`
	// HasLocation reports that both latitude and longitude were given.
	HasLocation    bool `wire:"-"`
	hasLat, hasLon bool
}

// afterDecode is a hook: a location needs both coordinates.
func (d *DropPoint) afterDecode() {
	d.HasLocation = d.hasLat && d.hasLon
}

// DropPoints is the result of get-drop-points.
//
//envelope:result get-drop-points
type DropPoints struct {
	DropPoints []DropPoint `wire:"drop_points"`
	Extra      RawMembers  `wire:",extra"`
}

// A get-drop-points answer can list thousands: decodeSlice makes room
// for them at once (table.go).
func init() {
	wireDropPoint.reserve = func(p unsafe.Pointer, n int) { *(*[]DropPoint)(p) = make([]DropPoint, 0, n) }
}

// decode is a hook: the list itself as data is tolerated.
func (l *DropPoints) decode(s *jsonlite.Scanner) error {
	if s.Peek() == jsonlite.Array {
		// Through the member table: a DropPoint appended by value is a
		// copy of every field in WebAssembly.
		return decodeSlice(s, unsafe.Pointer(&l.DropPoints), &wireDropPoint)
	}
	return l.decodeObject(s)
}
