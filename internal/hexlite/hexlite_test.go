package hexlite

import (
	"encoding/hex"
	"testing"
)

// Every byte value, and the empty input, encode as encoding/hex does.
func TestMatchesEncodingHex(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for _, b := range [][]byte{nil, {}, {0}, all, all[250:]} {
		if got, want := EncodeToString(b), hex.EncodeToString(b); got != want {
			t.Fatalf("%x: got %s", b, got)
		}
		if got := string(Append([]byte("x="), b)); got != "x="+hex.EncodeToString(b) {
			t.Fatalf("Append %x: got %s", b, got)
		}
	}
}
