package webhooks

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSignVerifyRoundTrip(t *testing.T) {
	secret := []byte(strings.Repeat("s", MinSecretBytes))
	ev := event("evt_1", "05", "01", false)
	body, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(baseT, 900e6)
	h := Sign(secret, body, at)
	if !strings.HasPrefix(h, "t=1795348800,v1=") || len(h) != len("t=1795348800,v1=")+64 {
		t.Fatalf("header %q", h)
	}
	if _, err := Verify(Keys{secret}, body, h, at.Add(4*time.Minute), 0); err != nil {
		t.Fatal(err)
	}
	// The default is 5 minutes: 5m01s is stale, and says so with its age.
	_, err = Verify(Keys{secret}, body, h, time.Unix(baseT+301, 0), 0)
	if !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "301s") {
		t.Fatalf("got %v", err)
	}
	if _, err := Verify(Keys{secret}, body[:len(body)-1], h, at, 0); !errors.Is(err, ErrSignature) {
		t.Fatalf("got %v", err)
	}
	if _, err := Verify(Keys{secret}, body, "t=1,v1=zz", at, 0); !errors.Is(err, ErrMalformed) || errors.Is(err, ErrSignature) {
		t.Fatalf("got %v", err)
	}
}

func TestSecretAndTolerance(t *testing.T) {
	short := []byte(strings.Repeat("s", MinSecretBytes-1))
	if err := CheckSecret(short); !errors.Is(err, ErrSecret) {
		t.Fatalf("got %v", err)
	}
	if _, err := Verify(Keys{short}, []byte("{}"), "t=1,v1="+strings.Repeat("0", 64), time.Unix(1, 0), 0); !errors.Is(err, ErrSecret) {
		t.Fatalf("got %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !errors.Is(r.(error), ErrSecret) {
				t.Fatalf("Sign with a short secret: recovered %v", r)
			}
		}()
		Sign(short, []byte("{}"), time.Unix(1, 0))
	}()
	secret := []byte(strings.Repeat("s", MinSecretBytes))
	h := Sign(secret, []byte("{}"), time.Unix(1, 0))
	if _, err := Verify(Keys{secret}, []byte("{}"), h, time.Unix(1, 0), -time.Second); err == nil || code(err) != "other: "+err.Error() {
		t.Fatalf("negative tolerance: %v", err)
	}
}

func TestMarshalIsStable(t *testing.T) {
	ev := event("evt_<x>&", "11", "05", true)
	a, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	ev.Created = ev.Created.In(time.FixedZone("X", 7200))
	b, _ := ev.Marshal()
	if string(a) != string(b) {
		t.Fatalf("zone changed the body:\n%s\n%s", a, b)
	}
	want := `{"id":"evt_<x>&","type":"shipment.tracking_updated","created":"2026-11-22T12:00:00Z","data":{"shipping_dlvr_ref":"SBX0000000042","shipping_client_ref":"ORDER-1001","tracking_code":"11","tracking_name":"Tracking 11","category":"transit","final":true,"tracking_date":"2026-11-22 12:59:58","previous_code":"05"}}`
	if string(a) != want {
		t.Fatalf("got  %s\nwant %s", a, want)
	}
}

// During a rotation every delivery carries one v1 per secret: a receiver
// holding either secret accepts it, one holding neither refuses it.
func TestSignAllRotation(t *testing.T) {
	old := []byte(strings.Repeat("o", MinSecretBytes))
	next := []byte(strings.Repeat("n", MinSecretBytes))
	other := []byte(strings.Repeat("x", MinSecretBytes))
	ev := event("evt_1", "05", "01", false)
	body, _ := ev.Marshal()
	at := time.Unix(baseT, 0)
	h := SignAll([][]byte{next, old}, body, at)
	if strings.Count(h, ",v1=") != 2 || !strings.HasPrefix(h, Sign(next, body, at)+",v1=") {
		t.Fatalf("header %q", h)
	}
	for _, s := range [][]byte{old, next} {
		if _, err := Verify(Keys{s}, body, h, at, 0); err != nil {
			t.Fatalf("secret %q: %v", s[:1], err)
		}
	}
	if _, err := Verify(Keys{other}, body, h, at, 0); !errors.Is(err, ErrSignature) {
		t.Fatalf("other secret: %v", err)
	}
	if got := SignAll([][]byte{next}, body, at); got != Sign(next, body, at) {
		t.Fatalf("one secret: %q", got)
	}
}

// js/core.d.ts declares the event for TypeScript receivers by hand: its
// data members must be Tracking's JSON names, in order, and the event's
// the wire's.
func TestTypeScriptDeclarationsMatch(t *testing.T) {
	src, err := os.ReadFile("../../js/core.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	members := func(iface string) []string {
		s := string(src)
		i := strings.Index(s, "export interface "+iface+" {")
		if i < 0 {
			t.Fatalf("js/core.d.ts has no interface %s", iface)
		}
		body := s[i:]
		body = body[strings.Index(body, "{")+1 : strings.Index(body, "\n}")]
		var out []string
		for _, line := range strings.Split(body, "\n") {
			line = strings.TrimSpace(line)
			if name, _, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "/") && !strings.HasPrefix(line, "*") {
				out = append(out, name)
			}
		}
		return out
	}
	tags := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := 0; i < rt.NumField(); i++ {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			out = append(out, name)
		}
		return out
	}
	if got, want := members("TrackingWebhookData"), tags(Tracking{}); !reflect.DeepEqual(got, want) {
		t.Errorf("TrackingWebhookData: %v, Go's Tracking: %v", got, want)
	}
	if got, want := members("TrackingWebhookEvent"), tags(wireEvent{}); !reflect.DeepEqual(got, want) {
		t.Errorf("TrackingWebhookEvent: %v, the wire: %v", got, want)
	}
	if got, want := tags(Event{}), tags(wireEvent{}); !reflect.DeepEqual(got, want) {
		t.Errorf("Event's json tags %v, the wire's %v", got, want)
	}
}
