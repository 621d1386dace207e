package decimal

import (
	"math/rand"
	"strconv"
	"testing"
)

func check(t *testing.T, s string) {
	t.Helper()
	wn, werr := strconv.ParseInt(s, 10, 64)
	if n, ok := ParseInt(s); ok != (werr == nil) || (ok && n != wn) {
		t.Fatalf("ParseInt(%q) = %d, %v; strconv %d, %v", s, n, ok, wn, werr)
	}
	wa, aerr := strconv.Atoi(s)
	if a, ok := Atoi(s); ok != (aerr == nil) || (ok && a != wa) {
		t.Fatalf("Atoi(%q) = %d, %v; strconv %d, %v", s, a, ok, wa, aerr)
	}
	w32, err32 := strconv.ParseInt(s, 10, 32)
	if n, ok := parse(s, 32); ok != (err32 == nil) || (ok && n != w32) {
		t.Fatalf("parse(%q, 32) = %d, %v; strconv %d, %v", s, n, ok, w32, err32)
	}
}

// The same verdicts and values as strconv on the edges of int64 and
// int32 (TinyGo's int on wasm), signs, zeros, prefixes, underscores,
// spaces and random text.
func TestMatchesStrconv(t *testing.T) {
	for _, s := range []string{"", "+", "-", "0", "-0", "+0", "00", "007", "-007", "1", "-1", "+1", "++1", "--1", "+-1",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "99999999999999999999", "00000000000000000000001",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296",
		"1_000", "0x10", "0b1", "1e3", "1.0", " 1", "1 ", "١", "12a", "a12", "\x00"} {
		check(t, s)
	}
	r := rand.New(rand.NewSource(8))
	const alphabet = "0123456789+-_ x"
	for i := 0; i < 200000; i++ {
		b := make([]byte, r.Intn(22))
		for j := range b {
			if r.Intn(8) == 0 {
				b[j] = alphabet[r.Intn(len(alphabet))]
			} else {
				b[j] = byte('0' + r.Intn(10))
			}
		}
		check(t, string(b))
		check(t, strconv.FormatInt(r.Int63()>>uint(r.Intn(63)), 10))
		check(t, strconv.FormatInt(-r.Int63()>>uint(r.Intn(63)), 10))
	}
}

func FuzzMatchesStrconv(f *testing.F) {
	for _, s := range []string{"0", "-9223372036854775808", "2147483648", "+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { check(t, s) })
}
