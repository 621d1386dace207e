package decimal

// The writers of base-10 integers, for the modules: strconv's formatBits
// serves every base with two digit tables and a 32-bit special case, 1.2 KB
// of code and tables that the core and the browser module only ever use in
// base 10.

// AppendInt appends the base-10 text of n to b, as strconv.AppendInt(b, n, 10).
func AppendInt(b []byte, n int64) []byte {
	var buf [20]byte // -9223372036854775808
	i := len(buf)
	u := uint64(n)
	if n < 0 {
		u = -u
	}
	for u >= 10 {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	i--
	buf[i] = byte('0' + u)
	if n < 0 {
		i--
		buf[i] = '-'
	}
	return append(b, buf[i:]...)
}

// FormatInt is strconv.FormatInt(n, 10).
func FormatInt(n int64) string {
	var buf [20]byte
	return string(AppendInt(buf[:0], n))
}

// Itoa is strconv.Itoa.
func Itoa(n int) string { return FormatInt(int64(n)) }
