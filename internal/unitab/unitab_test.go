package unitab

import (
	"strings"
	"testing"
	"unicode"
)

// Every rune, including the surrogates and the last one.
func TestToLower(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		if got, want := ToLower(r), unicode.ToLower(r); got != want {
			t.Fatalf("ToLower(%U) = %U, unicode.ToLower says %U", r, got, want)
		}
	}
}

func TestIsLetterOrDigit(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		if got, want := IsLetterOrDigit(r), unicode.IsLetter(r) || unicode.IsDigit(r); got != want {
			t.Fatalf("IsLetterOrDigit(%U) = %v, unicode says %v", r, got, want)
		}
	}
}

func TestIsFormat(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		if got, want := IsFormat(r), unicode.Is(unicode.Cf, r); got != want {
			t.Fatalf("IsFormat(%U) = %v, unicode says %v", r, got, want)
		}
	}
}

// Negative runes (a conversion of a large uint32) are neither.
func TestNegative(t *testing.T) {
	for _, r := range []rune{-1, -0x80, -1 << 31} {
		if ToLower(r) != unicode.ToLower(r) || IsLetterOrDigit(r) || IsFormat(r) {
			t.Errorf("%d", r)
		}
	}
}

// FormatClassBMP lists unicode.Cf's runes up to U+FFFF, runs of three or
// more as ranges.
func TestFormatClassBMP(t *testing.T) {
	var cs []rune
	for _, r := range unicode.Cf.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			cs = append(cs, c)
		}
	}
	var b strings.Builder
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1] == cs[j]+1 {
			j++
		}
		b.WriteRune(cs[i])
		if j-i >= 2 {
			b.WriteByte('-')
			b.WriteRune(cs[j])
		} else if j > i {
			b.WriteRune(cs[j])
		}
		i = j + 1
	}
	if b.String() != FormatClassBMP {
		t.Errorf("FormatClassBMP = %+q, want %+q", FormatClassBMP, b.String())
	}
}

func BenchmarkToLower(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for _, r := range "Ñandú Ŝtraße ĲSSEL Ωμέγα Москва 東京" {
			ToLower(r)
			IsLetterOrDigit(r)
		}
	}
}

func BenchmarkToLowerStd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for _, r := range "Ñandú Ŝtraße ĲSSEL Ωμέγα Москва 東京" {
			unicode.ToLower(r)
			_ = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
	}
}
