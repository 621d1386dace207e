package core

import (
	"github.com/parcelgate/parcelgate/worker/core/seam"

	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBookingsLegacyUntilConfig(t *testing.T) {
	load := func(v string) (Config, []ConfigError) {
		e := hardenEnv()
		if v != "" {
			e[EnvBookingsLegacyUntil] = v
		}
		return LoadConfig(func(k string) string { return e[k] })
	}
	c, errs := load("")
	assert.Empty(t, errs)
	assert.Zero(t, c.BookingsLegacyUntil, "unset: the earlier layout is never read")

	c, errs = load(" 2026-12-28 ")
	assert.Empty(t, errs)
	assert.Equal(t, time.Date(2026, 12, 29, 0, 0, 0, 0, time.UTC).UnixMilli(), c.BookingsLegacyUntil, "the whole UTC day counts")
	c, errs = load("2028-02-29")
	assert.Empty(t, errs)
	assert.Equal(t, time.Date(2028, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), c.BookingsLegacyUntil)

	for _, v := range []string{"2026-02-29", "2026-13-01", "2026-00-10", "2026-12-32", "26-12-28", "2026-1a-01", "2026/12/28",
		"1969-12-31", "+026-12-28", "2026-12-28T00:00:00Z", "tomorrow"} {
		_, errs = load(v)
		require.Len(t, errs, 1, v)
		assert.Equal(t, EnvBookingsLegacyUntil, errs[0].Var, v)
		assert.Contains(t, errs[0].Problem, "must be a date, YYYY-MM-DD (UTC)", v)
	}
}

// The refusal sends the operator to the deploy step that says how to set
// the variable: the file it names must have that section, and the step of
// that number in it must be about BOOKINGS_LEGACY_UNTIL (the step moved
// from worker/README.md to worker/DEPLOY.md when the README was split).
func TestBookingsLegacyUntilErrorCitesTheDeployStep(t *testing.T) {
	e := hardenEnv()
	e[EnvBookingsLegacyUntil] = "tomorrow"
	_, errs := LoadConfig(func(k string) string { return e[k] })
	require.Len(t, errs, 1)
	m := regexp.MustCompile(`\((worker/[A-Za-z_./]+\.md), ([^,]+), step (\d+)\)`).FindStringSubmatch(errs[0].Problem)
	require.NotNil(t, m, "no (file, section, step N) citation in %q", errs[0].Problem)
	doc, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(m[1])))
	require.NoError(t, err, m[1])
	section := ""
	in, fenced := false, false
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "#") {
			if in {
				break
			}
			in = strings.TrimSpace(strings.TrimLeft(line, "#")) == m[2]
			continue
		}
		if in {
			section += line + "\n"
		}
	}
	require.NotEmpty(t, section, "%s has no section %q", m[1], m[2])
	step := regexp.MustCompile(`(?ms)^` + m[3] + `\. (.*?)(?:^\d+\. |\z)`).FindStringSubmatch(section)
	require.NotNil(t, step, "%s, %q has no step %s", m[1], m[2], m[3])
	assert.Contains(t, step[1], EnvBookingsLegacyUntil, "%s, %q, step %s", m[1], m[2], m[3])
}

// daysFromCivil agrees with the time package on every day of a span that
// covers leap years, century years and the era boundary of 2000.
func TestDaysFromCivil(t *testing.T) {
	for d := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2105; d = d.AddDate(0, 0, 1) {
		got := daysFromCivil(int64(d.Year()), int(d.Month()), d.Day())
		if want := d.Unix() / 86400; got != want {
			t.Fatalf("%s: %d, want %d", d.Format("2006-01-02"), got, want)
		}
	}
}

// The configuration the JavaScript reads carries the window.
func TestBookingsLegacyUntilExported(t *testing.T) {
	var c Calls
	head, _ := call(&c, seam.MethodConfigure, []byte(`{"vars":{"UPSTREAM_BASE_URL":"https://api.example.com/v1","API_USER":"u","API_KEY":"k-0123456789",`+
		`"PROXY_TOKEN":"`+hardenMaster+`","BOOKINGS_LEGACY_UNTIL":"2027-01-31"},"bindings":{"bookings":true}}`), nil)
	assert.Contains(t, string(head), `"errors":[]`)
	assert.Contains(t, string(head), `"bookingsLegacyUntilMs":1801440000000`)
	assert.Equal(t, int64(1801440000000), time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
}

// /healthz says whether bookings are exactly-once and, during an upgrade,
// the last day the earlier layout is read.
func TestHealthzBookings(t *testing.T) {
	health := func(vars string, bindings string) string {
		var c Calls
		call(&c, seam.MethodConfigure, []byte(`{"vars":{"UPSTREAM_BASE_URL":"https://api.example.com/v1","API_USER":"u","API_KEY":"k-0123456789",`+
			`"PROXY_TOKEN":"`+hardenMaster+`","TOKEN_SIGNING_KEY":"`+hardenSigning+`"`+vars+`},"bindings":`+bindings+`}`), nil)
		_, body := call(&c, seam.MethodHealthz, []byte(`{"method":"GET","requestId":"r","rateLimits":{},"cache":{},"webhooks":null}`), nil)
		return string(body)
	}
	assert.Contains(t, health(``, `{"bookings":true}`), `"bookings":{"exactly_once":true}`)
	assert.Contains(t, health(``, `{}`), `"bookings":{"exactly_once":false}`, "no BOOKINGS binding")
	assert.Contains(t, health(`,"EXACTLY_ONCE":"false"`, `{"bookings":true}`), `"bookings":{"exactly_once":false}`)
	assert.Contains(t, health(`,"BOOKINGS_LEGACY_UNTIL":"2026-12-28"`, `{"bookings":true}`),
		`"bookings":{"exactly_once":true,"legacy_until":"2026-12-28"}`)
}
