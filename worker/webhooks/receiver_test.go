package webhooks_test

import (
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/webhooks"
)

// webhookHandler is the Go receiver of worker/README.md ("Tracking
// webhooks", "Verifying a delivery"), as printed there.
func webhookHandler(secret []byte) http.HandlerFunc {
	keys := webhooks.Keys{secret} // during a rotation: {new, old}
	return func(w http.ResponseWriter, r *http.Request) {
		// 64 KiB at most of the body; 0: the default tolerance, 5 minutes.
		ev, err := webhooks.VerifyRequest(keys, r, 64<<10, time.Now(), 0)
		if errors.Is(err, webhooks.ErrTooLarge) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err != nil {
			log.Printf("webhook refused: %v", err) // errors.Is(err, webhooks.ErrStale) etc.
			http.Error(w, "bad signature", http.StatusBadRequest)
			return
		}
		// store ev (dedupe on ev.ID), then:
		log.Printf("webhook %s: %s is now %s", ev.ID, ev.Data.ShippingClientRef, ev.Data.TrackingCode)
		w.WriteHeader(http.StatusNoContent)
	}
}

func TestReadmeReceiver(t *testing.T) {
	secret := []byte("whsec-receiver-test-secret-0123456789")
	srv := httptest.NewServer(webhookHandler(secret))
	defer srv.Close()
	log.SetOutput(io.Discard)
	defer log.SetOutput(os.Stderr)

	ev := webhooks.Event{ID: "evt_1", Type: webhooks.TypeTrackingUpdated, Created: time.Now(),
		Data: webhooks.Tracking{ShippingDlvrRef: "SBX1", TrackingCode: "05", PreviousCode: "01"}}
	body, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	post := func(b, header string) int {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if header != "" {
			req.Header.Set(webhooks.Header, header)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	fresh := webhooks.Sign(secret, body, time.Now())
	for _, c := range []struct {
		name, body, header string
		want               int
	}{
		{"signed now", string(body), fresh, 204},
		{"tampered", string(body) + " ", fresh, 400},
		{"stale", string(body), webhooks.Sign(secret, body, time.Now().Add(-10*time.Minute)), 400},
		{"other secret", string(body), webhooks.Sign([]byte(strings.Repeat("x", 32)), body, time.Now()), 400},
		{"no header", string(body), "", 400},
		{"too large", strings.Repeat("x", 70<<10), fresh, 413},
	} {
		if got := post(c.body, c.header); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
}

// The handler above is the README's, character for character.
func TestReadmeShowsThisHandler(t *testing.T) {
	src, err := os.ReadFile("receiver_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	start := strings.Index(s, "func webhookHandler")
	end := strings.Index(s[start:], "\n}\n")
	if start < 0 || end < 0 {
		t.Fatal("no webhookHandler in receiver_test.go")
	}
	if handler := s[start : start+end+3]; !strings.Contains(string(readme), handler) {
		t.Fatalf("worker/README.md does not show this handler:\n%s", handler)
	}
}
