// Package holidays knows Spain's national public holidays and counts
// working days (Monday to Friday, national holidays excluded).
//
// Only the holidays common to the whole country are listed (the fixed
// national ones and Good Friday); regional and local holidays, and the
// Monday a region may move a Sunday holiday to, are not. Dates are civil
// dates: only the year, month and day of a time.Time are read, and results
// are at midnight UTC.
package holidays

import "time"

// fixed are the national holidays on the same date every year.
var fixed = [...]struct {
	Month time.Month
	Day   int
	Name  string
}{
	{time.January, 1, "Año Nuevo"},
	{time.January, 6, "Epifanía del Señor"},
	{time.May, 1, "Fiesta del Trabajo"},
	{time.August, 15, "Asunción de la Virgen"},
	{time.October, 12, "Fiesta Nacional de España"},
	{time.November, 1, "Todos los Santos"},
	{time.December, 6, "Día de la Constitución Española"},
	{time.December, 8, "Inmaculada Concepción"},
	{time.December, 25, "Natividad del Señor"},
}

// Easter returns the date of Easter Sunday (Gregorian calendar) of year.
func Easter(year int) (time.Month, int) {
	// Anonymous Gregorian algorithm (Meeus/Jones/Butcher).
	a := year % 19
	b := year / 100
	c := year % 100
	d := b / 4
	e := b % 4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i := c / 4
	k := c % 4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return time.Month(month), day
}

// Holiday returns the name of the national holiday on the civil date of t,
// or "" and false.
func Holiday(t time.Time) (string, bool) {
	y, m, d := t.Date()
	for _, h := range fixed {
		if h.Month == m && h.Day == d {
			return h.Name, true
		}
	}
	em, ed := Easter(y)
	gf := time.Date(y, em, ed-2, 0, 0, 0, 0, time.UTC)
	if gf.Month() == m && gf.Day() == d {
		return "Viernes Santo", true
	}
	return "", false
}

// Date returns the civil date of t at midnight UTC.
func Date(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// IsWorkingDay reports whether the civil date of t is Monday to Friday and
// not a national holiday.
func IsWorkingDay(t time.Time) bool {
	switch t.Weekday() {
	case time.Saturday, time.Sunday:
		return false
	}
	_, h := Holiday(t)
	return !h
}

// NextWorkingDay returns the civil date of t when it is a working day, or
// the first working day after it.
func NextWorkingDay(t time.Time) time.Time {
	d := Date(t)
	for !IsWorkingDay(d) {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// AddWorkingDays returns the civil date n working days after the civil
// date of t (n <= 0 gives the date of t itself). The start date does not
// count, and need not be a working day.
func AddWorkingDays(t time.Time, n int) time.Time {
	d := Date(t)
	for n > 0 {
		d = d.AddDate(0, 0, 1)
		if IsWorkingDay(d) {
			n--
		}
	}
	return d
}
