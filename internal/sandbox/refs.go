package sandbox

import (
	"strconv"
	"strings"
)

// References and identifiers are derived, not counted: a Store shared by
// fresh instances (the worker) has no atomic counter.
//
//   - shipping_dlvr_ref: "SBX" + 10 digits from a hash of the account and
//     the client reference (salted again on the rare collision).
//   - shipping_carrier_ref: the carrier's 4-digit prefix, the dlvr_ref's 10
//     digits and a check digit (15 digits): a carrier reference leads back
//     to its shipment without an index, and prints as a compact Code 128C
//     barcode.
//   - shipping_carrier_guid: a UUID (version 4 layout) from a hash of the
//     dlvr_ref.
//   - collection_dlvr_ref: "SBC" + 10 digits; collection_carrier_ref: "PU"
//     + the carrier prefix + 8 digits.

// fnv64 is FNV-1a over the strings, separated by a zero byte, from seed.
func fnv64(seed uint64, parts ...string) uint64 {
	h := uint64(14695981039346656037) ^ seed
	for i, p := range parts {
		if i > 0 {
			h ^= 0
			h *= 1099511628211
		}
		for j := 0; j < len(p); j++ {
			h ^= uint64(p[j])
			h *= 1099511628211
		}
	}
	// Final avalanche (splitmix64's finalizer).
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

func digits(n uint64, width int) string {
	s := strconv.FormatUint(n, 10)
	if len(s) >= width {
		return s[len(s)-width:]
	}
	return strings.Repeat("0", width-len(s)) + s
}

// dlvrRef derives a shipment reference; salt is 0 unless that reference
// is already taken by another client reference.
func dlvrRef(account, clientRef string, salt uint64) string {
	return "SBX" + digits(fnv64(salt, account, "shipment", clientRef)%1e10, 10)
}

// carrierRef derives the carrier reference of a shipment.
func carrierRef(c *carrier, dlvr string) string {
	body := c.RefPrefix + strings.TrimPrefix(dlvr, "SBX")
	return body + strconv.Itoa(checkDigit(body))
}

// checkDigit is a weighted (3,1) modulo-10 check digit, as on GS1 codes.
func checkDigit(s string) int {
	sum := 0
	for i := 0; i < len(s); i++ {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// dlvrFromCarrierRef returns the dlvr_ref a carrier reference was made
// from and the carrier whose prefix it carries, or false.
func dlvrFromCarrierRef(ref string) (string, *carrier, bool) {
	if len(ref) != 15 {
		return "", nil, false
	}
	for i := 0; i < len(ref); i++ {
		if ref[i] < '0' || ref[i] > '9' {
			return "", nil, false
		}
	}
	if checkDigit(ref[:14]) != int(ref[14]-'0') {
		return "", nil, false
	}
	for i := range carriers {
		if carriers[i].RefPrefix == ref[:4] {
			return "SBX" + ref[4:14], &carriers[i], true
		}
	}
	return "", nil, false
}

// guid derives a UUID-formatted carrier GUID.
func guid(dlvr string) string {
	a, b := fnv64(1, "guid", dlvr), fnv64(2, "guid", dlvr)
	a = a&^(0xf<<12) | 0x4<<12 // version 4 layout
	b = b&^(0x3<<62) | 0x2<<62 // RFC 4122 variant
	h := hex16(a) + hex16(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func hex16(n uint64) string {
	s := strconv.FormatUint(n, 16)
	return strings.Repeat("0", 16-len(s)) + s
}

func collectionRefs(account, clientRef string, c *carrier) (dlvr, carrierRef string) {
	h := fnv64(0, account, "collection", clientRef)
	return "SBC" + digits(h%1e10, 10), "PU" + c.RefPrefix + digits((h/1e10)%1e8, 8)
}
