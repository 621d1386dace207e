package ratekey

import (
	"math/rand"
	"net/netip"
	"testing"
)

func TestKey(t *testing.T) {
	cases := map[string]string{
		"192.0.2.1":                        "ip4:192.0.2.1",
		"192.0.2.1:443":                    "ip4:192.0.2.1",
		"0.0.0.0":                          "ip4:0.0.0.0",
		"255.255.255.255":                  "ip4:255.255.255.255",
		"2001:db8:1:2:3:4:5:6":             "ip6:2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:ffff:ffff:ffff": "ip6:2001:db8:1:2::/64",
		"2001:0DB8:0001:0002::1":           "ip6:2001:db8:1:2::/64",
		"[2001:db8:1:2::9]:8443":           "ip6:2001:db8:1:2::/64",
		"2001:db8::1":                      "ip6:2001:db8:0:0::/64",
		"fe80::1%eth0":                     "ip6:fe80:0:0:0::/64",
		"::1":                              "ip6:0:0:0:0::/64",
		"::":                               "ip6:0:0:0:0::/64",
		"::ffff:192.0.2.7":                 "ip4:192.0.2.7",
		"64:ff9b::192.0.2.7":               "ip6:64:ff9b:0:0::/64",
		// 6to4: the IPv4 host owns the /48, every /64 in it is that host.
		"2002:c000:207::1":      "ip4:192.0.2.7",
		"2002:c000:207:ffff::9": "ip4:192.0.2.7",
		"2002:C000:0207:1::":    "ip4:192.0.2.7",
		"1:2:3:4:5:6:7::":       "ip6:1:2:3:4::/64",
		"":                      "",
		"unknown":               "",
		"192.0.2":               "",
		"192.0.2.256":           "",
		"192.0.2.01":            "",
		"1.2.3.4.5":             "",
		"2001:db8:::1":          "",
		"2001:db8::1::2":        "",
		"1:2:3:4:5:6:7:8:9":     "",
		"1:2:3:4:5:6:7":         "",
		"12345::":               "",
		"2001:db8:1:2:3:4:5:6:": "",
		":1:2:3:4:5:6:7:8":      "",
		"[::1":                  "",
		"g::1":                  "",
	}
	for in, want := range cases {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every address the standard library parses gets the key of its /64 (or
// its IPv4 address), and text it refuses gets none.
func FuzzKeyMatchesNetip(f *testing.F) {
	for _, s := range []string{"192.0.2.1", "2001:db8::1", "::ffff:1.2.3.4", "::", "1::2:3.4.5.6", "fe80::1%x", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Key(s)
		a, err := netip.ParseAddr(s)
		if err != nil {
			// Only a port or brackets (which Key strips) make a key netip
			// does not parse.
			if ap, err := netip.ParseAddrPort(s); err == nil {
				if want := Key(ap.Addr().WithZone("").String()); got != want {
					t.Fatalf("%q: %q, want %q", s, got, want)
				}
				return
			}
			if got != "" {
				t.Fatalf("%q: key %q for text netip refuses", s, got)
			}
			return
		}
		a = a.WithZone("")
		var want string
		if b := a.As16(); a.Is4() || a.Is4In6() {
			want = "ip4:" + a.Unmap().String()
		} else if b[0] == 0x20 && b[1] == 0x02 {
			want = "ip4:" + netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}).String()
		} else {
			p := netip.PrefixFrom(a, 64).Masked().Addr().As16()
			want = "ip6:"
			for i := 0; i < 8; i += 2 {
				want += hexGroup(uint16(p[i])<<8|uint16(p[i+1])) + ":"
			}
			want += ":/64"
		}
		if got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	})
}

func hexGroup(v uint16) string { return string(appendHex(nil, v)) }

// IsIPv6 says yes exactly where netip.ParseAddr reads an IPv6 address
// without a zone.
func FuzzIsIPv6MatchesNetip(f *testing.F) {
	for _, s := range []string{"::1", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "1::2::3", "::01.2.3.4", "1.2.3.4", "fe80::1%x", "", ":", "::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkIsIPv6(t, s) })
}

func checkIsIPv6(t *testing.T, s string) {
	t.Helper()
	a, err := netip.ParseAddr(s)
	if want := err == nil && a.Is6() && a.Zone() == ""; IsIPv6(s) != want {
		t.Fatalf("IsIPv6(%q) = %v, netip %v (%v)", s, !want, want, err)
	}
}

func TestIsIPv6Random(t *testing.T) {
	const alphabet = "0123456789abcdefABCDEFg:.%"
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 100000; i++ {
		b := make([]byte, r.Intn(40))
		for j := range b {
			b[j] = alphabet[r.Intn(len(alphabet))]
		}
		checkIsIPv6(t, string(b))
	}
	for _, s := range []string{"::", "::1", "1::", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4",
		"1:2:3:4:5:6:7:1.2.3.4", "::ffff:255.255.255.255", "::ffff:256.1.1.1", "::1.2.3", "12345::", "1:2:3:4:5:6:7:8:9"} {
		checkIsIPv6(t, s)
	}
}
