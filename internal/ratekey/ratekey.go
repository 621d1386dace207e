// Package ratekey turns a client's address into the key the edge's rate
// limits count it under. An IPv4 client is its address; an IPv6 client is
// its /64, the block one subscriber (one home, one phone) is usually
// given and can cycle through at will, so counting full addresses would
// give each client 2^64 budgets. An IPv4-mapped IPv6 address
// (::ffff:192.0.2.1) is its IPv4 address, and so is a 6to4 address
// (2002:c000:201::/48), whose IPv4 host owns a whole /48.
//
// No address, or text that is not one, has no key (""): the edge counts
// those requests together under a key and a limit of their own.
//
// Pure and TinyGo-compatible (no net, fmt or reflection): the JavaScript
// edge calls the same code.
package ratekey

// Key returns the rate-limit key of addr: "ip4:192.0.2.1",
// "ip6:2001:db8:0:1::/64", or "" when addr is not an IP address. addr may
// carry a port ("192.0.2.1:443", "[2001:db8::1]:443") or an IPv6 zone
// ("fe80::1%eth0"), which are ignored.
func Key(addr string) string {
	host, bracketed := stripPort(addr)
	if v4, ok := parse4(host); ok && !bracketed {
		return key4(v4)
	}
	// A zone (an interface name) only follows an IPv6 address.
	for i := 0; i < len(host); i++ {
		if host[i] == '%' {
			if i+1 == len(host) {
				return ""
			}
			host = host[:i]
			break
		}
	}
	v6, ok := parse6(host)
	if !ok {
		return ""
	}
	if isMapped(v6) {
		return key4([4]byte{byte(v6[6] >> 8), byte(v6[6]), byte(v6[7] >> 8), byte(v6[7])})
	}
	if v6[0] == 0x2002 {
		// 6to4 (2002:AABB:CCDD::/48): the IPv4 host AA.BB.CC.DD owns the
		// whole /48, 65536 /64s; counted by /64 it would have as many
		// budgets. It is that IPv4 address.
		return key4([4]byte{byte(v6[1] >> 8), byte(v6[1]), byte(v6[2] >> 8), byte(v6[2])})
	}
	out := make([]byte, 0, 32)
	out = append(out, "ip6:"...)
	for i := 0; i < 4; i++ {
		out = appendHex(out, v6[i])
		out = append(out, ':')
	}
	return string(append(out, ":/64"...))
}

// stripPort removes a port: "[v6]:port" or "v4:port" (an IPv6 address
// without brackets has several colons and no port). bracketed reports
// "[...]", which only an IPv6 address may use.
func stripPort(s string) (host string, bracketed bool) {
	if len(s) > 0 && s[0] == '[' {
		for i := 1; i < len(s); i++ {
			if s[i] == ']' {
				if !validPort(s[i+1:]) {
					return "", false
				}
				return s[1:i], true
			}
		}
		return "", false
	}
	colon, n := -1, 0
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			colon, n = i, n+1
		}
	}
	if n == 1 {
		if !validPort(s[colon:]) {
			return "", false
		}
		return s[:colon], false
	}
	return s, false
}

// validPort: ":" and 1-5 digits up to 65535.
func validPort(p string) bool {
	if len(p) < 2 || len(p) > 6 || p[0] != ':' {
		return false
	}
	v := 0
	for i := 1; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
		v = v*10 + int(p[i]-'0')
	}
	return v <= 65535
}

func key4(b [4]byte) string {
	out := make([]byte, 0, 19)
	out = append(out, "ip4:"...)
	for i, v := range b {
		if i > 0 {
			out = append(out, '.')
		}
		out = appendDec(out, v)
	}
	return string(out)
}

func appendDec(b []byte, v byte) []byte {
	if v >= 100 {
		b = append(b, '0'+v/100)
	}
	if v >= 10 {
		b = append(b, '0'+v/10%10)
	}
	return append(b, '0'+v%10)
}

func appendHex(b []byte, v uint16) []byte {
	const digits = "0123456789abcdef"
	started := false
	for sh := 12; sh >= 0; sh -= 4 {
		d := v >> sh & 15
		if d != 0 || started || sh == 0 {
			b = append(b, digits[d])
			started = true
		}
	}
	return b
}

// parse4 reads a dotted quad: four decimal fields 0-255, no leading zeros
// (which some parsers read as octal).
func parse4(s string) ([4]byte, bool) {
	var out [4]byte
	field, i := 0, 0
	for field < 4 {
		start, v := i, 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			v = v*10 + int(s[i]-'0')
			i++
			if v > 255 || i-start > 3 {
				return out, false
			}
		}
		if i == start || i-start > 1 && s[start] == '0' {
			return out, false
		}
		out[field] = byte(v)
		field++
		if field < 4 {
			if i >= len(s) || s[i] != '.' {
				return out, false
			}
			i++
		}
	}
	return out, i == len(s)
}

// IsIPv6 reports whether s is an IPv6 address in text, without brackets,
// port or zone, exactly where net/netip.ParseAddr reads one (IPv4-mapped
// and IPv4-embedded forms included). The edge core checks bracketed URL
// hosts with it instead of linking net/netip (~6 KB with its unique
// zone handles).
func IsIPv6(s string) bool {
	_, ok := parse6(s)
	return ok
}

// parse6 reads an IPv6 address (RFC 4291 text: "::" once, an IPv4 tail).
func parse6(s string) ([8]uint16, bool) {
	var out [8]uint16
	if len(s) < 2 {
		return out, false
	}
	n, gap := 0, -1
	i := 0
	if s[0] == ':' {
		if s[1] != ':' {
			return out, false
		}
		gap, i = 0, 2
		if i == len(s) {
			return out, true
		}
	}
	for i < len(s) {
		if n == 8 {
			return out, false
		}
		// An IPv4 tail fills the last two groups.
		if v4, ok := parse4(s[i:]); ok && n <= 6 {
			out[n] = uint16(v4[0])<<8 | uint16(v4[1])
			out[n+1] = uint16(v4[2])<<8 | uint16(v4[3])
			n += 2
			i = len(s)
			break
		}
		var v uint16
		start := i
		for i < len(s) && i-start < 4 {
			d := hexVal(s[i])
			if d < 0 {
				break
			}
			v = v<<4 | uint16(d)
			i++
		}
		if i == start {
			return out, false
		}
		out[n] = v
		n++
		if i == len(s) {
			break
		}
		if s[i] != ':' {
			return out, false
		}
		i++
		if i < len(s) && s[i] == ':' {
			if gap >= 0 {
				return out, false
			}
			gap = n
			i++
			if i == len(s) {
				break
			}
		} else if i == len(s) {
			return out, false // a trailing single colon
		}
	}
	switch {
	case gap < 0 && n != 8, gap >= 0 && n == 8:
		return out, false
	case gap >= 0:
		// Move the groups after the gap to the end.
		tail := n - gap
		for j := 0; j < tail; j++ {
			out[7-j] = out[n-1-j]
			out[n-1-j] = 0
		}
	}
	return out, true
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func isMapped(a [8]uint16) bool {
	return a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == 0 && a[4] == 0 && a[5] == 0xffff
}
