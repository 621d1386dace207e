// Package substr is strings' Index, Cut, Contains and Split for the
// modules, with the same results: a search that compares at each
// position (IndexByte for a one-byte separator) instead of the standard
// library's, whose brute-force and Rabin-Karp paths are 0.7 KB of the
// edge module's code (705 B; 1e37976, 2026-11-28, TinyGo 0.39). The core's separators are a few bytes and its
// strings a request's fields, where the simple search costs nothing.
package substr

import "strings"

// Index returns strings.Index(s, sep).
func Index(s, sep string) int {
	if len(sep) == 1 {
		return strings.IndexByte(s, sep[0])
	}
	for i := 0; i+len(sep) <= len(s); i++ {
		if s[i:i+len(sep)] == sep {
			return i
		}
	}
	return -1
}

// Contains returns strings.Contains(s, sep).
func Contains(s, sep string) bool { return Index(s, sep) >= 0 }

// Cut returns strings.Cut(s, sep).
func Cut(s, sep string) (before, after string, found bool) {
	if i := Index(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// Split returns strings.Split(s, sep) for a sep that is not empty (the
// modules never split into runes).
func Split(s, sep string) []string {
	var out []string
	for {
		i := Index(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+len(sep):]
	}
}

// Join returns strings.Join(elems, sep) (without its length pass and
// strings.Builder: the core joins a few names for a message).
func Join(elems []string, sep string) string {
	var b []byte
	for i, e := range elems {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, e...)
	}
	return string(b)
}
