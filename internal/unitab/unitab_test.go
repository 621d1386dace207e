package unitab

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Every rune, including the surrogates and the last one.
func TestToLower(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		if got, want := ToLower(r), unicode.ToLower(r); got != want {
			t.Fatalf("ToLower(%U) = %U, unicode.ToLower says %U", r, got, want)
		}
	}
}

func TestToUpper(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		if got, want := ToUpper(r), unicode.ToUpper(r); got != want {
			t.Fatalf("ToUpper(%U) = %U, unicode.ToUpper says %U", r, got, want)
		}
	}
}

func TestSimpleFold(t *testing.T) {
	for r := rune(-1); r <= unicode.MaxRune+1; r++ {
		if got, want := SimpleFold(r), unicode.SimpleFold(r); got != want {
			t.Fatalf("SimpleFold(%U) = %U, unicode.SimpleFold says %U", r, got, want)
		}
	}
}

// cased returns the runes some case mapping or folding changes.
func cased() []rune {
	var rs []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.ToLower(r) != r || unicode.ToUpper(r) != r || unicode.SimpleFold(r) != r {
			rs = append(rs, r)
		}
	}
	return rs
}

// EqualFold of every cased rune (alone and amid ASCII) against the runes
// of its orbit, its mappings, its neighbours and ASCII letters.
func TestEqualFold(t *testing.T) {
	for _, r := range cased() {
		others := []rune{r, r + 1, r - 1, unicode.ToLower(r), unicode.ToUpper(r), unicode.ToTitle(r), 'k', 'S', 0x212a}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			others = append(others, f)
		}
		for _, o := range others {
			for _, p := range [][2]string{
				{string(r), string(o)},
				{"ab" + string(r) + "Cd", "AB" + string(o) + "cD"},
				{"x" + string(r), "X" + string(o) + "y"},
				{string(r) + "\xff", string(o) + "\xff"},
			} {
				if got, want := EqualFold(p[0], p[1]), strings.EqualFold(p[0], p[1]); got != want {
					t.Fatalf("EqualFold(%+q, %+q) = %v, strings says %v", p[0], p[1], got, want)
				}
				if got, want := EqualFold(p[1], p[0]), strings.EqualFold(p[1], p[0]); got != want {
					t.Fatalf("EqualFold(%+q, %+q) = %v, strings says %v", p[1], p[0], got, want)
				}
			}
		}
	}
	for _, p := range [][2]string{
		{"", ""}, {"", "a"}, {"a", ""}, {"Bearer ", "bearer "}, {"none", "NONE"}, {"none", "nonE "},
		{"ſ", "s"}, {"S", "ſ"}, {"K", "k"}, {"\xff", "\xfe"}, {"\xff", "\ufffd"}, {"a\xc3", "A\xc3"},
		{"@", "`"}, {"[", "{"}, {"Straße", "STRASSE"}, {"ǅ", "ǆ"}, {"ǅ", "Ǆ"},
	} {
		if got, want := EqualFold(p[0], p[1]), strings.EqualFold(p[0], p[1]); got != want {
			t.Errorf("EqualFold(%+q, %+q) = %v, strings says %v", p[0], p[1], got, want)
		}
	}
}

func TestLowerUpper(t *testing.T) {
	all := string(cased())
	for _, s := range []string{
		"", "a", "A", "abc", "ABC", "application/x-www-form-urlencoded", "GET", "post", "@[`{", "HTTPS://Example.COM/",
		all, "x" + all + "\xff", "\xff", "a\xc3", "\xed\xa0\x80", "ÉCOLE", "école", "\ufffd", "İ", "ı", "ß",
	} {
		if got, want := Lower(s), strings.ToLower(s); got != want {
			t.Errorf("Lower(%+q) = %+q, strings says %+q", s, got, want)
		}
		if got, want := Upper(s), strings.ToUpper(s); got != want {
			t.Errorf("Upper(%+q) = %+q, strings says %+q", s, got, want)
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

// ContainsAnyASCII answers as strings.ContainsAny for ASCII sets.
func TestContainsAnyASCII(t *testing.T) {
	for _, s := range []string{"", "abc", "a:b", "x\ny", "héllo\r", "-", "a_b", "€:"} {
		for _, set := range []string{"", ":", ":\r\n", " \t\r\n", "-_"} {
			if got, want := ContainsAnyASCII(s, set), strings.ContainsAny(s, set); got != want {
				t.Errorf("ContainsAnyASCII(%q, %q) = %v, want %v", s, set, got, want)
			}
		}
	}
}

// TrimSpace is strings.TrimSpace: every rune as leading and trailing
// space (or not), then random strings of spaces, their pieces, invalid
// bytes and letters.
func TestTrimSpace(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		e := string(r)
		for _, s := range []string{e, e + "x" + e, "x" + e, e + "x", e + e + "é" + e + e, " " + e + "\t"} {
			if got, want := TrimSpace(s), strings.TrimSpace(s); got != want {
				t.Fatalf("TrimSpace(%q) = %q, strings.TrimSpace says %q", s, got, want)
			}
		}
	}
	pieces := []string{" ", "\t", "\n", "\v", "\f", "\r", "\u0085", "\u00a0", "\u1680", "\u2000", "\u200a", "\u200b",
		"\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u3001", "\u2080", "\xc2", "\xa0", "\xe2\x80", "\x80", "\xe3",
		"\xff", "a", "é", "\x1c", "\x85", "\u180e", "\ufeff"}
	rng := uint64(1)
	for i := 0; i < 400000; i++ {
		var b strings.Builder
		rng = rng*6364136223846793005 + 1442695040888963407
		for n := int(rng>>59) % 7; n >= 0; n-- {
			rng = rng*6364136223846793005 + 1442695040888963407
			b.WriteString(pieces[int(rng>>33)%len(pieces)])
		}
		s := b.String()
		if got, want := TrimSpace(s), strings.TrimSpace(s); got != want {
			t.Fatalf("TrimSpace(%q) = %q, strings.TrimSpace says %q", s, got, want)
		}
	}
}

// AppendRune is utf8.AppendRune for every rune, the invalid ones around
// them and the extremes, after nothing and after text.
func TestAppendRune(t *testing.T) {
	runes := []rune{-1, -0x80, 0x110000, 0x7fffffff, -0x80000000}
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		runes = append(runes, r)
	}
	for _, r := range runes {
		for _, p := range [][]byte{nil, []byte("ab")} {
			got, want := AppendRune(slices.Clone(p), r), utf8.AppendRune(slices.Clone(p), r)
			if string(got) != string(want) {
				t.Fatalf("AppendRune(%q, %U) = %q, utf8.AppendRune says %q", p, r, got, want)
			}
		}
	}
}
