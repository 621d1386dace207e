package core

import (
	"math"
	"time"
)

// The core writes instants in two fixed layouts, RFC 3339 in UTC
// ("2006-01-02T15:04:05Z") and the calendar date ("2006-01-02"). Under
// TinyGo time.Time.Format links ~12 KB (the layout interpreter, month and
// day names, the local zone's TZ parser); these write the same bytes from
// Unix seconds. clock_test.go holds them to time.Format.

// rfc3339 is time.Unix(unix, 0).UTC().Format(time.RFC3339).
func rfc3339(unix int64) string {
	y, mo, d, s := civil(unix)
	b := appendYear(make([]byte, 0, 20), y)
	b = append2(append(b, '-'), mo)
	b = append2(append(b, '-'), d)
	b = append2(append(b, 'T'), s/3600)
	b = append2(append(b, ':'), s/60%60)
	b = append2(append(b, ':'), s%60)
	return string(append(b, 'Z'))
}

// isoDate is time.Unix(unix, 0).UTC().Format("2006-01-02").
func isoDate(unix int64) string {
	y, mo, d, _ := civil(unix)
	b := appendYear(make([]byte, 0, 10), y)
	b = append2(append(b, '-'), mo)
	return string(append2(append(b, '-'), d))
}

// unixOfMillis is time.UnixMilli(ms).Unix(): the second ms falls in
// (rounded down, also before 1970).
func unixOfMillis(ms int64) int64 {
	s := ms / 1000
	if ms%1000 < 0 {
		s--
	}
	return s
}

// civil splits Unix seconds into the proleptic Gregorian date in UTC and
// the second of that day (H. Hinnant's days-from-civil inverse; exact for
// every instant within ±10^15 s, well past any a request carries).
func civil(unix int64) (year int64, month, day, sec int) {
	days := unix / 86400
	rem := unix % 86400
	if rem < 0 {
		rem += 86400
		days--
	}
	z := days + 719468 // days from 0000-03-01
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365], from March 1
	mp := (5*doy + 2) / 153                                // [0, 11], March = 0
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if mp >= 10 {
		month = int(mp - 9)
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day, int(rem)
}

// appendYear writes a year as time.Format's "2006" does: at least four
// digits, a '-' before a negative one.
func appendYear(b []byte, y int64) []byte {
	u := uint64(y)
	if y < 0 {
		b = append(b, '-')
		u = uint64(-y)
	}
	var buf [20]byte
	i := len(buf)
	for u >= 10 || len(buf)-i < 3 {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	i--
	buf[i] = byte('0' + u)
	return append(b, buf[i:]...)
}

// append2 writes 0-99 as two digits.
func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

// since is now.Sub(t) for the core's instants, which come from
// milliseconds (no monotonic reading): time.Time.Sub, with its monotonic
// and overflow cases, is 1.3 KB of the module's code. Like Sub it
// saturates, here when the instants are 292 years apart or more (Sub's
// own limit is within a second of that).
func since(t, now time.Time) time.Duration {
	const limit = int64(math.MaxInt64/time.Second) - 1 // whole seconds that cannot overflow
	switch s := now.Unix() - t.Unix(); {
	case s > limit:
		return math.MaxInt64
	case s < -limit:
		return math.MinInt64
	default:
		return time.Duration(s)*time.Second + time.Duration(now.Nanosecond()-t.Nanosecond())
	}
}
