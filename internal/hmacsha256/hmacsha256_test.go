package hmacsha256

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"math/rand"
	"testing"
)

// The own SHA-256 (what TinyGo builds link) against crypto/sha256 on every
// length around the padding boundaries (55/56/64 bytes and their
// multiples) and on random lengths, written whole and in random pieces.
func TestDigestMatchesCryptoSHA256(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var lengths []int
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	for i := 0; i < 200; i++ {
		lengths = append(lengths, r.Intn(5000))
	}
	for _, n := range lengths {
		msg := make([]byte, n)
		r.Read(msg)
		want := sha256.Sum256(msg)
		if got := sum256(msg); got != want {
			t.Fatalf("sum256 of %d bytes = %x, want %x", n, got, want)
		}
		d := newDigest()
		for rest := msg; len(rest) > 0; {
			c := r.Intn(len(rest)) + 1
			if r.Intn(4) == 0 {
				c = min(r.Intn(3), len(rest)) // empty and tiny writes too
			}
			d.Write(rest[:c])
			rest = rest[c:]
		}
		if got := d.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("pieces of %d bytes: %x, want %x", n, got, want)
		}
	}
}

// Sum leaves the running hash as it was: writing on gives the digest of
// the whole, as with hash.Hash; Reset starts afresh.
func TestDigestSumThenWrite(t *testing.T) {
	d := newDigest()
	d.Write([]byte("hello, "))
	first := d.Sum([]byte("prefix"))
	if want := sha256.Sum256([]byte("hello, ")); !bytes.Equal(first, append([]byte("prefix"), want[:]...)) {
		t.Fatalf("Sum(prefix) = %x", first)
	}
	d.Write([]byte("world"))
	if got, want := d.Sum(nil), sha256.Sum256([]byte("hello, world")); !bytes.Equal(got, want[:]) {
		t.Fatalf("after more writes %x, want %x", got, want)
	}
	d.Reset()
	if got, want := d.Sum(nil), sha256.Sum256(nil); !bytes.Equal(got, want[:]) {
		t.Fatalf("after Reset %x, want %x", got, want)
	}
	if d.Size() != sha256.Size || d.BlockSize() != sha256.BlockSize {
		t.Fatalf("Size %d BlockSize %d", d.Size(), d.BlockSize())
	}
}

// Published values, independent of crypto/sha256: FIPS 180-4 examples and
// RFC 4231 test cases 1, 2, 6 and 7 (keys of 20, 4 and 131 bytes).
func TestKnownAnswers(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	} {
		got := sum256([]byte(c.msg))
		if hex.EncodeToString(got[:]) != c.want {
			t.Errorf("SHA-256(%q) = %x, want %s", c.msg, got, c.want)
		}
	}
	big := bytes.Repeat([]byte{0xaa}, 131)
	for _, c := range []struct {
		key  []byte
		msg  string
		want string
	}{
		{bytes.Repeat([]byte{0x0b}, 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
		{[]byte("Jefe"), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{big, "Test Using Larger Than Block-Size Key - Hash Key First", "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
		{big, "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.", "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
	} {
		m := newMAC(c.key)
		m.Write([]byte(c.msg))
		if got := hex.EncodeToString(m.Sum(nil)); got != c.want {
			t.Errorf("HMAC(%d-byte key, %q) = %s, want %s", len(c.key), c.msg, got, c.want)
		}
	}
}

// The own HMAC against crypto/hmac: keys of every length to past two
// blocks (empty, 55/56/63/64/65 bytes, long keys hashed first), messages
// around the boundaries, whole and in pieces, Sum then more writes, Reset.
func TestMACMatchesCryptoHMAC(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	msgLens := []int{0, 1, 31, 32, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, stackMsg - 1, stackMsg, stackMsg + 1, 3000}
	for kl := 0; kl <= 150; kl++ {
		key := make([]byte, kl)
		r.Read(key)
		for _, n := range msgLens {
			msg := make([]byte, n)
			r.Read(msg)
			std := hmac.New(sha256.New, key)
			std.Write(msg)
			want := std.Sum(nil)
			m := newMAC(key)
			cut := 0
			if n > 0 {
				cut = r.Intn(n + 1)
			}
			m.Write(msg[:cut])
			m.Write(msg[cut:])
			if got := m.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("key %d bytes, message %d bytes: %x, want %x", kl, n, got, want)
			}
			if got := mac256(key, msg); !bytes.Equal(got[:], want) {
				t.Fatalf("mac256, key %d bytes, message %d bytes: %x, want %x", kl, n, got, want)
			}
			// The exported MAC and MACString (the build's own code).
			if got := MAC(key, msg); !bytes.Equal(got[:], want) {
				t.Fatalf("MAC, key %d bytes, message %d bytes: %x, want %x", kl, n, got, want)
			}
			if got := MACString(key, string(msg)); !bytes.Equal(got[:], want) {
				t.Fatalf("MACString, key %d bytes, message %d bytes: %x, want %x", kl, n, got, want)
			}
			// Sum did not disturb it: more writes MAC the whole.
			m.Write([]byte("more"))
			std.Write([]byte("more"))
			if got, want := m.Sum(nil), std.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("key %d bytes, message %d bytes + more: %x, want %x", kl, n, got, want)
			}
			m.Reset()
			std.Reset()
			m.Write(msg)
			std.Write(msg)
			if got, want := m.Sum(nil), std.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("key %d bytes, after Reset: %x, want %x", kl, got, want)
			}
		}
	}
}

// The exported API (crypto in this native build) agrees with the own code,
// so both builds answer the same bytes.
func TestExportedMatchesOwn(t *testing.T) {
	key, msg := []byte("parcelgate key of some length"), []byte("t=1700000000.{\"a\":1}")
	if Sum(msg) != sum256(msg) {
		t.Fatal("Sum differs")
	}
	h, d := New(), newDigest()
	h.Write(msg)
	d.Write(msg)
	if !bytes.Equal(h.Sum(nil), d.Sum(nil)) {
		t.Fatal("New differs")
	}
	a, b := NewMAC(key), newMAC(key)
	a.Write(msg)
	b.Write(msg)
	if !bytes.Equal(a.Sum(nil), b.Sum(nil)) {
		t.Fatal("NewMAC differs")
	}
	if MAC(key, msg) != mac256(key, msg) {
		t.Fatal("MAC differs")
	}
}

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"", "", true},
		{"abc", "abc", true},
		{"abc", "abd", false},
		{"abc", "ab", false},
		{"", "a", false},
		{"\x00", "\x80", false},
	} {
		if got := Equal([]byte(c.a), []byte(c.b)); got != c.want || got != hmac.Equal([]byte(c.a), []byte(c.b)) {
			t.Errorf("Equal(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// Key's precomputed states give crypto/hmac's MAC for keys of every
// length around the block and messages around its boundaries, and one
// Key serves many messages (MAC leaves it unchanged).
func TestKeyMatchesCryptoHMAC(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for kl := 0; kl <= 150; kl += 7 {
		key := make([]byte, kl)
		r.Read(key)
		k := NewKey(key)
		for _, n := range []int{0, 1, 55, 56, 63, 64, 65, 119, 120, 200} {
			msg := make([]byte, n)
			r.Read(msg)
			std := hmac.New(sha256.New, key)
			std.Write(msg)
			if got := k.MAC(msg); !bytes.Equal(got[:], std.Sum(nil)) {
				t.Fatalf("key %d bytes, message %d bytes: %x, want %x", kl, n, got, std.Sum(nil))
			}
		}
	}
}

func BenchmarkKeyMAC(b *testing.B) {
	k := NewKey([]byte("parcelgate-test-signing-key-0123456789ab"))
	msg := make([]byte, 200)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		k.MAC(msg)
	}
}
