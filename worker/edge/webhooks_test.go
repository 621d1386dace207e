package edge

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/watch"
	"github.com/parcelgate/parcelgate/worker/webhooks"
)

const testWebhookSecret = "whsec-0123456789abcdef0123456789abcdef"

// hookReceiver verifies and records deliveries at the harness's clock.
type hookReceiver struct {
	mu     sync.Mutex
	hs     *harness
	events []map[string]any
	urls   []string
	fail   bool
}

func (rc *hookReceiver) Do(req *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(req.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if err := webhooks.Verify(body, req.Header.Get(webhooks.Header), []byte(testWebhookSecret), rc.hs.now, 0); err != nil {
		return nil, err
	}
	rc.urls = append(rc.urls, req.URL.String())
	if rc.fail {
		return &http.Response{StatusCode: 503, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
	var ev map[string]any
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, err
	}
	rc.events = append(rc.events, ev)
	return &http.Response{StatusCode: 204, Body: io.NopCloser(strings.NewReader(""))}, nil
}

// codes are the delivered tracking codes per client reference.
func (rc *hookReceiver) codes() map[string][]string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := map[string][]string{}
	for _, ev := range rc.events {
		d := ev["data"].(map[string]any)
		out[d["shipping_client_ref"].(string)] = append(out[d["shipping_client_ref"].(string)], d["tracking_code"].(string))
	}
	return out
}

// webhookHarness is the embedded sandbox with webhooks to a recording
// receiver and one in-memory watchlist per name.
func webhookHarness(t *testing.T) (*harness, *hookReceiver, map[string]*watch.MemoryStore) {
	e := baseEnv("")
	e[EnvWebhookURL] = "https://shop.example/parcelgate/hooks"
	e[EnvWebhookSecret] = testWebhookSecret
	hs := newHarness(e, nil)
	rc := &hookReceiver{hs: hs}
	lists := map[string]*watch.MemoryStore{}
	hs.h.d.Webhooks = rc
	hs.h.d.Watchlists = func(name string) watch.Store {
		if lists[name] == nil {
			lists[name] = watch.NewMemoryStore()
		}
		return lists[name]
	}
	return hs, rc, lists
}

func (hs *harness) watchRun(t *testing.T) map[string]any {
	t.Helper()
	before := hs.log.Len()
	line, err := hs.h.Watch(context.Background(), hs.now)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(line, &out), "%s", line)
	assert.Contains(t, hs.log.String()[before:], string(line), "the run's line is logged")
	return out
}

// The whole contract against the embedded sandbox, on the harness's
// clock: bookings are watched, every change is delivered signed and in
// order, the final state ends it, /healthz counts without references.
func TestWebhooksFromBookingToFinalState(t *testing.T) {
	hs, rc, lists := webhookHarness(t)
	refs := map[string]string{"ORD-1": "sandbox:deliver", "ORD-2": "sandbox:absent", "ORD-3": "sandbox:address-error"}
	dlvr := map[string]string{}
	for ref, marker := range refs {
		r := hs.do(t, "POST", "/v1/new-shipment", demoBooking(ref)+"&to_observations="+url.QueryEscape(marker), "Authorization", "Bearer "+testToken)
		require.Equal(t, 200, r.Code, r.Raw)
		dlvr[ref] = r.Env.Data["shipping_dlvr_ref"].(string)
	}
	require.Len(t, lists, 1, "one watchlist for the (API user, upstream)")
	for _, l := range lists {
		assert.Len(t, l.Rows(), 3)
	}
	h := hs.do(t, "GET", "/healthz", "", "Authorization", "Bearer "+testToken)
	wh := h.Env.Data["webhooks"].(map[string]any)
	assert.EqualValues(t, 3, wh["watched"])
	assert.Nil(t, wh["last_run"])
	// Without the master token: whether it runs, not the shop's volume.
	h = hs.do(t, "GET", "/healthz", "")
	wh = h.Env.Data["webhooks"].(map[string]any)
	assert.Nil(t, wh["watched"], "%v", wh)
	assert.Nil(t, wh["last_run_at"])
	assert.Contains(t, wh["counts"], "master token")

	// Runs every 10 minutes over ten days of the sandbox's clock.
	for i := 0; i < 6*24*10; i++ {
		run := hs.watchRun(t)
		require.Equal(t, "webhooks run", run["msg"], "%v", run)
		hs.now = hs.now.Add(10 * time.Minute)
	}
	got := rc.codes()
	for ref := range refs {
		// What the service itself says, deduplicated: the events match it.
		tr := hs.do(t, "GET", "/v1/get-shipment-tracking?dlvr_ref="+dlvr[ref], "", "Authorization", "Bearer "+testToken)
		require.Equal(t, 200, tr.Code, tr.Raw)
		hist := tr.Env.Data["tracking_history"].([]any)
		var want []string
		for i := len(hist) - 1; i >= 0; i-- {
			c := hist[i].(map[string]any)["tracking_code"].(string)
			if len(want) == 0 || want[len(want)-1] != c {
				want = append(want, c)
			}
		}
		assert.Equal(t, want, got[ref], ref)
	}
	t.Logf("delivered: %v", got)
	assert.Equal(t, "11", last(got["ORD-1"]))
	assert.Contains(t, got["ORD-2"], "12")
	assert.Equal(t, "17", last(got["ORD-3"]), "returned to the sender")
	for _, ev := range rc.events {
		d := ev["data"].(map[string]any)
		assert.Equal(t, d["tracking_code"] == "11" || d["tracking_code"] == "17", d["final"], "%v", d)
		assert.Len(t, d, 8, "references and state only: %v", d)
	}
	for _, l := range lists {
		assert.Empty(t, l.Rows(), "every shipment reached a final state")
	}
	hs.now = hs.now.Add(statsTTL + time.Second)
	anon := hs.do(t, "GET", "/healthz", "")
	assert.Equal(t, hs.now.Add(-statsTTL-time.Second-10*time.Minute).UTC().Format(time.RFC3339),
		anon.Env.Data["webhooks"].(map[string]any)["last_run_at"], "the last run, for a liveness probe")
	h = hs.do(t, "GET", "/healthz", "", "Authorization", "Bearer "+testToken)
	wh = h.Env.Data["webhooks"].(map[string]any)
	assert.EqualValues(t, 0, wh["watched"])
	assert.EqualValues(t, len(rc.events), wh["delivered"])
	assert.NotNil(t, wh["last_run"])
	for ref, d := range dlvr {
		assert.NotContains(t, h.Raw, ref)
		assert.NotContains(t, h.Raw, d)
		assert.NotContains(t, hs.log.String(), d, "no reference in any log line")
	}
	assert.NotContains(t, h.Raw, "shop.example")
	assert.NotContains(t, hs.log.String(), testWebhookSecret)
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// A receiver that fails gets the same event again later; while it fails
// /healthz shows the event pending.
func TestWebhooksRetryWhileTheReceiverFails(t *testing.T) {
	hs, rc, _ := webhookHarness(t)
	r := hs.do(t, "POST", "/v1/new-shipment", demoBooking("ORD-9"), "Authorization", "Bearer "+testToken)
	require.Equal(t, 200, r.Code, r.Raw)
	rc.fail = true
	run := hs.watchRun(t)["run"].(map[string]any)
	assert.EqualValues(t, 1, run["failed"])
	hs.now = hs.now.Add(statsTTL + time.Second)
	h := hs.do(t, "GET", "/healthz", "", "Authorization", "Bearer "+testToken)
	assert.EqualValues(t, 1, h.Env.Data["webhooks"].(map[string]any)["pending"])
	rc.fail = false
	hs.now = hs.now.Add(watch.FirstRetry)
	run = hs.watchRun(t)["run"].(map[string]any)
	assert.EqualValues(t, 1, run["delivered"])
	require.Len(t, rc.events, 1)
	assert.Equal(t, "01", rc.events[0]["data"].(map[string]any)["tracking_code"])
	assert.Equal(t, []string{"https://shop.example/parcelgate/hooks", "https://shop.example/parcelgate/hooks"}, rc.urls)
}

func TestWebhookConfig(t *testing.T) {
	cases := []struct {
		name string
		env  env
		bad  string // the variable named in the error, "" for none
	}{
		{"off", env{}, ""},
		{"on", env{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: testWebhookSecret}, ""},
		{"loopback http", env{EnvWebhookURL: "http://127.0.0.1:8080/h", EnvWebhookSecret: testWebhookSecret}, ""},
		{"plain http", env{EnvWebhookURL: "http://shop.example/h", EnvWebhookSecret: testWebhookSecret}, EnvWebhookURL},
		{"credentials", env{EnvWebhookURL: "https://u:p@shop.example/h", EnvWebhookSecret: testWebhookSecret}, EnvWebhookURL},
		{"not a URL", env{EnvWebhookURL: "shop.example/h", EnvWebhookSecret: testWebhookSecret}, EnvWebhookURL},
		{"no secret", env{EnvWebhookURL: "https://shop.example/h"}, EnvWebhookSecret},
		{"short secret", env{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: "short"}, EnvWebhookSecret},
		{"secret is the API key", env{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: testKey + "-padding-to-32-bytes"}, ""},
		{"secret is the proxy token", env{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: testToken}, EnvWebhookSecret},
		{"short previous", env{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: testWebhookSecret, EnvWebhookSecretPrevious: "x"}, EnvWebhookSecretPrevious},
		{"budget", env{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: testWebhookSecret, EnvWebhookRunBudget: "2"}, EnvWebhookRunBudget},
		{"check", env{EnvWebhookURL: "https://shop.example/h", EnvWebhookSecret: testWebhookSecret, EnvWebhookCheckMinutes: "0"}, EnvWebhookCheckMinutes},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := baseEnv("")
			for k, v := range c.env {
				e[k] = v
			}
			cfg, errs := LoadConfig(func(k string) string { return e[k] })
			if c.bad == "" {
				assert.Empty(t, errs)
				assert.Equal(t, c.env[EnvWebhookURL] != "", cfg.Webhooks != nil)
				return
			}
			require.NotEmpty(t, errs)
			assert.Equal(t, c.bad, errs[0].Var, "%v", errs)
		})
	}
	cfg, errs := LoadConfig(func(k string) string {
		return env{EnvUpstreamBaseURL: "sandbox", EnvAPIUser: "u", EnvAPIKey: "k", EnvWebhookURL: "https://shop.example/h",
			EnvWebhookSecret: testWebhookSecret, EnvWebhookSecretPrevious: strings.Repeat("p", 32)}[k]
	})
	require.Empty(t, errs)
	assert.Len(t, cfg.Webhooks.Secrets, 2, "both secrets sign during a rotation")
	assert.Equal(t, watch.DefaultBudget, cfg.Webhooks.Budget)
}

// WEBHOOK_URL without the WATCHLIST binding fails closed, naming it; no
// WEBHOOK_URL costs nothing.
func TestWebhooksNeedTheWatchlist(t *testing.T) {
	e := baseEnv("")
	e[EnvWebhookURL] = "https://shop.example/h"
	e[EnvWebhookSecret] = testWebhookSecret
	hs := newHarness(e, nil)
	r := hs.do(t, "POST", "/v1/new-shipment", demoBooking("ORD-1"), "Authorization", "Bearer "+testToken)
	assert.Equal(t, 500, r.Code)
	assert.Contains(t, r.message(), WatchlistBinding)

	off := newHarness(baseEnv(""), nil)
	r = off.do(t, "GET", "/healthz", "")
	assert.Equal(t, "off", r.Env.Data["webhooks"])
	var run map[string]any
	line, err := off.h.Watch(context.Background(), off.now)
	assert.Error(t, err)
	require.NoError(t, json.Unmarshal(line, &run))
	assert.Equal(t, "webhooks run skipped", run["msg"])
}
