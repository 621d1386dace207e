// Package unitab answers the few Unicode questions the core asks (lower
// case, letter or digit, format character) from compact tables generated
// from Go's unicode package (gen/main.go), with the standard library's
// answers for every rune (the tests compare all of them). The unicode
// package's own tables cost the edge module about 6 KB gzip for these
// three questions; these cost a tenth of that. Lookups scan the runs in
// order and stop at the first past the rune: no allocation, fast for the
// Latin scripts the core mostly sees.
package unitab

//go:generate go run ./gen

// ToLower returns unicode.ToLower(r).
func ToLower(r rune) rune {
	if r < 0x80 {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	if r > lowerMax {
		return r
	}
	t := lowerRuns
	end := rune(0)
	for len(t) > 0 {
		var gap, n, d uint32
		gap, t = uvarint(t)
		n, t = uvarint(t)
		d, t = uvarint(t)
		lo := end + rune(gap)
		if r < lo {
			break
		}
		end = lo + rune(n) + 1
		if r < end {
			if d == 0 {
				// Pairs of upper and lower case: the upper ones sit at
				// even distances from lo.
				return r + 1&^(r-lo)
			}
			return r + (rune(d>>1) ^ -rune(d&1))
		}
	}
	return r
}

// IsLetterOrDigit reports unicode.IsLetter(r) || unicode.IsDigit(r).
func IsLetterOrDigit(r rune) bool {
	if r < 0x80 {
		return 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9'
	}
	return r <= alnumMax && in(alnumRuns, r)
}

// IsFormat reports unicode.Is(unicode.Cf, r).
func IsFormat(r rune) bool {
	return r <= formatMax && in(formatRuns, r)
}

// in reports whether r is in one of the runs of the set table t.
func in(t string, r rune) bool {
	end := rune(0)
	for len(t) > 0 {
		var gap, n uint32
		gap, t = uvarint(t)
		n, t = uvarint(t)
		lo := end + rune(gap)
		if r < lo {
			return false
		}
		end = lo + rune(n) + 1
		if r < end {
			return true
		}
	}
	return false
}

// uvarint reads the unsigned varint at the start of t (the generator
// writes them, so they are well formed).
func uvarint(t string) (uint32, string) {
	var v uint32
	for i, shift := 0, uint(0); ; i, shift = i+1, shift+7 {
		c := t[i]
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v, t[i+1:]
		}
	}
}
