package main

import (
	"bytes"
	"os"
	"testing"
)

// module is a WebAssembly module of a memory, a data count and the given
// active segments (no code: pack only reads sections 11 and 12).
func module(segs []segment) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, 5, 3, 1, 0, 1) // memory section: one memory, min 1 page
	m = append(m, secDataCount, 1, byte(len(segs)))
	body := appendUleb(nil, uint32(len(segs)))
	for _, s := range segs {
		body = append(body, 0, 0x41)
		body = appendSleb(body, int64(s.off))
		body = append(body, 0x0b)
		body = appendUleb(body, uint32(len(s.data)))
		body = append(body, s.data...)
	}
	m = append(m, secData)
	m = appendUleb(m, uint32(len(body)))
	return append(m, body...)
}

// image is the linear memory a module's data segments write, from 0.
func image(t *testing.T, m []byte) []byte {
	t.Helper()
	var mem []byte
	for i := 8; i < len(m); {
		id := m[i]
		n, j, err := uleb(m, i+1)
		if err != nil {
			t.Fatal(err)
		}
		if id == secData {
			segs, err := segments(m[j : j+int(n)])
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range segs {
				if end := int(s.off) + len(s.data); end > len(mem) {
					mem = append(mem, make([]byte, end-len(mem))...)
				}
				copy(mem[s.off:], s.data)
			}
		}
		i = j + int(n)
	}
	return mem
}

func TestPackKeepsTheMemoryImage(t *testing.T) {
	in := module([]segment{{1024, []byte("abc")}, {1027, []byte("d")}, {2000, []byte("xyz\x00q")}, {70000, []byte{1, 2}}})
	out, err := pack(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(image(t, in), image(t, out)) {
		t.Fatal("memory image changed")
	}
	segs := func(m []byte) int {
		for i := 8; i < len(m); {
			n, j, _ := uleb(m, i+1)
			if m[i] == secData {
				s, _ := segments(m[j : j+int(n)])
				return len(s)
			}
			i = j + int(n)
		}
		return -1
	}
	if got := segs(out); got != 1 {
		t.Fatalf("%d segments, want 1", got)
	}
	if !bytes.Contains(out, []byte{secDataCount, 1, 1}) {
		t.Fatal("data count section not rewritten to 1")
	}
}

func TestPackRefusesWhatItCannotRewrite(t *testing.T) {
	// One passive segment (flag 1: no memory, no offset), "a".
	passive := append([]byte("\x00asm\x01\x00\x00\x00"), secData, 4, 1, 1, 1, 'a')
	for name, m := range map[string][]byte{
		"overlapping":  module([]segment{{10, []byte("abcd")}, {12, []byte("x")}}),
		"out of order": module([]segment{{100, []byte("a")}, {10, []byte("b")}}),
		"passive":      passive,
	} {
		if _, err := pack(m); err == nil {
			t.Errorf("%s: packed, want an error", name)
		}
	}
}

// The built edge core (make worker-core), when present: same image, one
// segment.
func TestPackTheEdgeCore(t *testing.T) {
	in, err := os.ReadFile("../../../build/worker/core.wasm")
	if err != nil {
		t.Skip("no build/worker/core.wasm")
	}
	out, err := pack(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(image(t, in), image(t, out)) {
		t.Fatal("memory image changed")
	}
}
