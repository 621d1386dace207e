package hmacsha256

import "math/bits"

// The SHA-256 of FIPS 180-4: the initial hash value and the round
// constants (section 5.3.3 and 4.2.2).
var (
	iv = [8]uint32{
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	}
	k = [64]uint32{
		0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
		0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
		0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
		0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
		0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
		0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
		0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
		0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
	}
)

const blockSize = 64

// digest is a running SHA-256: the chaining value, the bytes of an
// unfinished block and the message length so far.
type digest struct {
	h   [8]uint32
	buf [blockSize]byte
	nb  int    // bytes in buf
	len uint64 // bytes written
}

func newDigest() *digest {
	d := &digest{}
	d.Reset()
	return d
}

func (d *digest) Reset() {
	d.h = iv
	d.nb = 0
	d.len = 0
}

func (d *digest) Size() int      { return Size }
func (d *digest) BlockSize() int { return blockSize }

// Write never fails (it satisfies io.Writer for hash.Hash).
func (d *digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.nb > 0 {
		c := copy(d.buf[d.nb:], p)
		d.nb += c
		p = p[c:]
		if d.nb < blockSize {
			return n, nil
		}
		d.block(d.buf[:])
		d.nb = 0
	}
	for len(p) >= blockSize {
		d.block(p[:blockSize])
		p = p[blockSize:]
	}
	d.nb = copy(d.buf[:], p)
	return n, nil
}

// Sum appends the digest of what was written to b; d is left as it was,
// so writing can go on (as hash.Hash asks).
func (d *digest) Sum(b []byte) []byte {
	c := *d
	s := c.sum()
	return append(b, s[:]...)
}

// sum pads the message (a 1 bit, zeros, the length in bits as 64 bits
// big-endian) and returns the final chaining value.
func (d *digest) sum() [Size]byte {
	bitLen := d.len << 3
	var pad [blockSize + 8]byte
	pad[0] = 0x80
	n := 56 - d.nb // zeros plus the 0x80 to reach 56 mod 64
	if n <= 0 {
		n += blockSize
	}
	for i := 0; i < 8; i++ {
		pad[n+i] = byte(bitLen >> (56 - 8*i))
	}
	d.Write(pad[:n+8])
	var out [Size]byte
	for i, v := range d.h {
		out[4*i] = byte(v >> 24)
		out[4*i+1] = byte(v >> 16)
		out[4*i+2] = byte(v >> 8)
		out[4*i+3] = byte(v)
	}
	return out
}

// block runs the compression function over one 64-byte block.
func (d *digest) block(p []byte) {
	var w [64]uint32
	for i := 0; i < 16; i++ {
		j := 4 * i
		w[i] = uint32(p[j])<<24 | uint32(p[j+1])<<16 | uint32(p[j+2])<<8 | uint32(p[j+3])
	}
	for i := 16; i < 64; i++ {
		v1, v2 := w[i-2], w[i-15]
		s1 := bits.RotateLeft32(v1, -17) ^ bits.RotateLeft32(v1, -19) ^ v1>>10
		s0 := bits.RotateLeft32(v2, -7) ^ bits.RotateLeft32(v2, -18) ^ v2>>3
		w[i] = s1 + w[i-7] + s0 + w[i-16]
	}
	a, b, c, dd, e, f, g, h := d.h[0], d.h[1], d.h[2], d.h[3], d.h[4], d.h[5], d.h[6], d.h[7]
	for i := 0; i < 64; i++ {
		t1 := h + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) +
			(e&f ^ ^e&g) + k[i] + w[i]
		t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) +
			(a&b ^ a&c ^ b&c)
		h, g, f, e, dd, c, b, a = g, f, e, dd+t1, c, b, a, t1+t2
	}
	d.h[0] += a
	d.h[1] += b
	d.h[2] += c
	d.h[3] += dd
	d.h[4] += e
	d.h[5] += f
	d.h[6] += g
	d.h[7] += h
}

// sum256 is the SHA-256 of data.
func sum256(data []byte) [Size]byte {
	var d digest
	d.Reset()
	d.Write(data)
	return d.sum()
}

// mac is a running HMAC-SHA256 (RFC 2104): the inner hash over
// (key ^ ipad) || message, the outer over (key ^ opad) || inner digest.
type mac struct {
	inner, outer digest
	ipad, opad   [blockSize]byte
}

func newMAC(key []byte) *mac {
	m := &mac{}
	if len(key) > blockSize {
		s := sum256(key)
		key = s[:]
	}
	copy(m.ipad[:], key)
	copy(m.opad[:], key)
	for i := range m.ipad {
		m.ipad[i] ^= 0x36
		m.opad[i] ^= 0x5c
	}
	m.Reset()
	return m
}

func (m *mac) Reset() {
	m.inner.Reset()
	m.inner.Write(m.ipad[:])
}

func (m *mac) Size() int      { return Size }
func (m *mac) BlockSize() int { return blockSize }

// Write never fails (it satisfies io.Writer for hash.Hash).
func (m *mac) Write(p []byte) (int, error) { return m.inner.Write(p) }

// Sum appends the MAC of what was written to b; writing can go on.
func (m *mac) Sum(b []byte) []byte {
	out := m.sum()
	return append(b, out[:]...)
}

func (m *mac) sum() [Size]byte {
	in := m.inner
	s := in.sum()
	m.outer.Reset()
	m.outer.Write(m.opad[:])
	m.outer.Write(s[:])
	return m.outer.sum()
}

// mac256 is the HMAC-SHA256 of msg keyed with key, in one call.
func mac256(key, msg []byte) [Size]byte {
	m := newMAC(key)
	m.inner.Write(msg)
	return m.sum()
}

// Key is an HMAC-SHA256 key with its two padded blocks already hashed:
// the inner state after (key ^ ipad) and the outer after (key ^ opad).
// A MAC with it resumes from copies of those states, so it hashes only
// the message and the inner digest (two compressions fewer than MAC for
// a short message, and no allocation). Built once per key (the edge
// signs every service of every rates answer with one key); safe for
// concurrent use, as MAC only reads it.
//
// Key is this package's SHA-256 in every build (natively too: the
// states are its own type; the tests hold it to crypto/hmac).
type Key struct {
	inner, outer digest
}

// NewKey precomputes key's states.
func NewKey(key []byte) Key {
	m := newMAC(key)
	var k Key
	k.inner = m.inner
	k.outer.Reset()
	k.outer.Write(m.opad[:])
	return k
}

// MAC returns the HMAC-SHA256 of msg under k.
func (k *Key) MAC(msg []byte) [Size]byte {
	in := k.inner
	in.Write(msg)
	s := in.sum()
	out := k.outer
	out.Write(s[:])
	return out.sum()
}
