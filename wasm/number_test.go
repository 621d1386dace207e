package main

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormatNumber(t *testing.T) {
	a, b := 0.1, 0.2 // not constants: float64 arithmetic
	cases := []struct {
		in   float64
		want string
	}{
		{1.5, "1.5"},
		{0.75, "0.75"},
		{20, "20"},
		{-3, "-3"},
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{a + b, "0.30000000000000004"},
		{1e21, "1000000000000000000000"},
		{1e-7, "0.0000001"},
		{123456789.125, "123456789.125"},
		{9007199254740993, "9007199254740992"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, formatNumber(c.in), "%v", c.in)
	}
}

func TestFormatNumberRoundTrips(t *testing.T) {
	for _, f := range []float64{1.2, 33.333333333333336, 5e-324, 1.7976931348623157e308, 0.000001, 15.5} {
		s := formatNumber(f)
		assert.NotContains(t, s, "e")
		back, err := strconv.ParseFloat(s, 64)
		assert.NoError(t, err)
		assert.Equal(t, f, back, s)
	}
}
