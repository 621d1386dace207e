package substr

import (
	"slices"
	"strings"
	"testing"
)

// Every function against strings' over every pair of short strings of an
// alphabet with repeats (overlapping matches, separators longer than the
// text, empty text and empty separator for Index, Contains and Cut).
func TestAgainstStrings(t *testing.T) {
	var all []string
	var grow func(p string)
	grow = func(p string) {
		all = append(all, p)
		if len(p) < 5 {
			for _, c := range []string{"a", "b", "&", "é"} {
				grow(p + c)
			}
		}
	}
	grow("")
	for _, elems := range [][]string{nil, {}, {""}, {"a"}, {"", ""}, {"a", "b", "c"}} {
		if got, want := Join(elems, ", "), strings.Join(elems, ", "); got != want {
			t.Fatalf("Join(%q) = %q, strings says %q", elems, got, want)
		}
	}
	for _, s := range all {
		for _, sep := range all[:200] {
			if got, want := Index(s, sep), strings.Index(s, sep); got != want {
				t.Fatalf("Index(%q, %q) = %d, strings says %d", s, sep, got, want)
			}
			if got, want := Contains(s, sep), strings.Contains(s, sep); got != want {
				t.Fatalf("Contains(%q, %q) = %v, strings says %v", s, sep, got, want)
			}
			b, a, f := Cut(s, sep)
			wb, wa, wf := strings.Cut(s, sep)
			if b != wb || a != wa || f != wf {
				t.Fatalf("Cut(%q, %q) = %q, %q, %v; strings says %q, %q, %v", s, sep, b, a, f, wb, wa, wf)
			}
			if got, want := Join([]string{s, sep, s}, sep), strings.Join([]string{s, sep, s}, sep); got != want {
				t.Fatalf("Join(%q, %q) = %q, strings says %q", []string{s, sep, s}, sep, got, want)
			}
			if sep == "" {
				continue
			}
			if got, want := Split(s, sep), strings.Split(s, sep); !slices.Equal(got, want) || got == nil {
				t.Fatalf("Split(%q, %q) = %q, strings says %q", s, sep, got, want)
			}
		}
	}
}
