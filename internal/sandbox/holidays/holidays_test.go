package holidays

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestEaster(t *testing.T) {
	for _, tc := range []struct {
		year  int
		month time.Month
		day   int
	}{
		{2024, time.March, 31}, {2025, time.April, 20}, {2026, time.April, 5},
		{2027, time.March, 28}, {2019, time.April, 21}, {2038, time.April, 25},
	} {
		m, d := Easter(tc.year)
		assert.Equal(t, tc.month, m, tc.year)
		assert.Equal(t, tc.day, d, tc.year)
	}
}

func TestHoliday(t *testing.T) {
	for _, tc := range []struct {
		date time.Time
		want bool
	}{
		{day(2026, 1, 1), true}, {day(2026, 1, 6), true}, {day(2026, 4, 3), true}, // Good Friday 2026
		{day(2026, 4, 2), false}, {day(2026, 5, 1), true}, {day(2026, 8, 15), true},
		{day(2026, 10, 12), true}, {day(2026, 11, 1), true}, {day(2026, 12, 6), true},
		{day(2026, 12, 8), true}, {day(2026, 12, 25), true}, {day(2026, 12, 24), false},
		{day(2025, 4, 18), true}, {day(2026, 5, 12), false},
	} {
		_, got := Holiday(tc.date)
		assert.Equal(t, tc.want, got, tc.date.Format("2006-01-02"))
	}
}

func TestWorkingDays(t *testing.T) {
	assert.True(t, IsWorkingDay(day(2026, 5, 12)))  // Tuesday
	assert.False(t, IsWorkingDay(day(2026, 5, 16))) // Saturday
	assert.False(t, IsWorkingDay(day(2026, 12, 8))) // Tuesday, holiday
	assert.Equal(t, day(2026, 5, 18), NextWorkingDay(day(2026, 5, 16)))
	assert.Equal(t, day(2026, 5, 12), NextWorkingDay(time.Date(2026, 5, 12, 23, 0, 0, 0, time.UTC)))
	// Thursday 2026-04-02 + 1 working day skips Good Friday and the weekend.
	assert.Equal(t, day(2026, 4, 6), AddWorkingDays(day(2026, 4, 2), 1))
	// Friday 2026-12-04 + 3: Mon 7, (Tue 8 holiday), Wed 9, Thu 10.
	assert.Equal(t, day(2026, 12, 10), AddWorkingDays(day(2026, 12, 4), 3))
	assert.Equal(t, day(2026, 5, 16), AddWorkingDays(day(2026, 5, 16), 0))
}
