package webhooks

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/webhooks/wire"
)

// FuzzVerify: any header and body give one of the typed verdicts, never a
// panic, and an accepted header carries the MAC Sign makes for its t.
func FuzzVerify(f *testing.F) {
	secret := []byte(vectorSecret)
	body := []byte(`{"id":"evt_1"}`)
	h := Sign(secret, body, time.Unix(baseT, 0))
	for _, s := range []string{h, h + ",v1=" + strings.Repeat("0", 64), "t=1,v1=", ",,,", "t=0", "v1=" + h[16:] + ",t=" + strconv.Itoa(baseT)} {
		f.Add(string(body), s)
	}
	f.Fuzz(func(t *testing.T, b, header string) {
		_, err := Verify(Keys{secret}, []byte(b), header, time.Unix(baseT, 0), 0)
		if err == nil {
			var p wire.Signature
			if perr := wire.Parse(header, &p); perr != nil {
				t.Fatalf("accepted an unparsable header %q", header)
			}
			want := Sign(secret, []byte(b), time.Unix(p.T, 0))
			if !strings.Contains(strings.ToLower(header), want[strings.Index(want, "v1="):]) {
				t.Fatalf("accepted %q without %s", header, want)
			}
			return
		}
		if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrStale) && !errors.Is(err, ErrSignature) {
			t.Fatalf("untyped error %v", err)
		}
	})
}
