package seam

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// truncNumber is int64(strconv.ParseFloat(r, 64)) for the JSON number r
// that is not an integer ParseInt reads (a fraction, an exponent, beyond
// int64), and 0 for any other text, as num was before. ParseFloat and its
// ~17 KB of tables and algorithms stay out of the core for what the
// typed wrapper sends as integers anyway.
//
// Exactly ParseFloat's value wherever its exact fast path applies (at
// most 19 significant digits of which the value needs 2^53 or less, times
// 10^-22..10^37): a float64 product or quotient of two exact values,
// correctly rounded. Beyond (a 17-digit mantissa above 2^53, tiny or huge
// exponents) within one rounding of it; the integer part can differ only
// for such a number within 2^-52 of a whole number. A value past int64
// saturates, as wasm's conversion does; past float64's range it is 0, as
// ParseFloat's error made it.
func truncNumber(r string) int64 {
	i, neg := 0, false
	if i < len(r) && r[i] == '-' {
		neg, i = true, i+1
	}
	var mant uint64
	digits, exp, sawDigit, sawDot := 0, 0, false, false
	for ; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '.' && !sawDot:
			sawDot = true
			continue
		case c < '0' || c > '9':
		default:
			sawDigit = true
			if c == '0' && digits == 0 {
				if sawDot {
					exp--
				}
				continue
			}
			if digits < 19 {
				mant = mant*10 + uint64(c-'0')
				digits++
				if sawDot {
					exp--
				}
			} else if !sawDot {
				exp++ // digits past 19 are dropped, as strconv's readFloat does
			}
			continue
		}
		break
	}
	if !sawDigit {
		return 0
	}
	if i < len(r) && (r[i] == 'e' || r[i] == 'E') {
		i++
		esign := 1
		if i < len(r) && (r[i] == '+' || r[i] == '-') {
			if r[i] == '-' {
				esign = -1
			}
			i++
		}
		if i == len(r) {
			return 0
		}
		e := 0
		for ; i < len(r) && r[i] >= '0' && r[i] <= '9'; i++ {
			if e < 10000 {
				e = e*10 + int(r[i]-'0')
			}
		}
		exp += esign * e
	}
	if i != len(r) {
		return 0
	}
	if mant == 0 {
		return 0
	}
	for mant%10 == 0 { // "2.50", "1.0": the same value, one rounding fewer
		mant /= 10
		exp++
	}
	f := float64(mant)
	switch {
	case exp < 0:
		for ; exp < -22; exp += 22 {
			f /= pow10[22]
		}
		f /= pow10[-exp]
	default:
		for ; exp > 22; exp -= 22 {
			f *= pow10[22]
		}
		f *= pow10[exp]
	}
	switch {
	case f > 1.7976931348623157e308:
		return 0 // ParseFloat: out of range
	case f >= 9223372036854775807:
		if neg {
			return -9223372036854775808
		}
		return 9223372036854775807
	}
	if neg {
		return -int64(f)
	}
	return int64(f)
}
