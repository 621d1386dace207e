//go:build !(js && wasm)

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/internal/wranglerdev"
	"github.com/parcelgate/parcelgate/worker/webhooks"
)

// Tracking webhooks under workerd: the Cron Trigger's runs fired through
// wrangler dev (--test-scheduled), the sandbox worker on a fast clock,
// and a recording receiver on 127.0.0.1.

const hookSecret = "e2e-webhook-secret-0123456789abcdef"

// hookDelivery is one POST the receiver got.
type hookDelivery struct {
	raw    []byte
	header http.Header
	at     time.Time
	ok     bool // answered 2xx
	verify error
	event  struct {
		ID      string         `json:"id"`
		Type    string         `json:"type"`
		Created string         `json:"created"`
		Data    map[string]any `json:"data"`
	}
}

// hookReceiver records every delivery, verifies its signature on arrival
// and fails the first failFirst attempts of each event of the client
// references listed.
type hookReceiver struct {
	mu        sync.Mutex
	srv       *httptest.Server
	got       []*hookDelivery
	failFirst map[string]int // client ref -> failures per event
	tries     map[string]int // event id -> attempts so far
}

func newHookReceiver(t *testing.T) *hookReceiver {
	rc := &hookReceiver{failFirst: map[string]int{}, tries: map[string]int{}}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		d := &hookDelivery{raw: b, header: r.Header.Clone(), at: time.Now()}
		_, d.verify = webhooks.Verify(webhooks.Keys{[]byte(hookSecret)}, b, r.Header.Get(webhooks.Header), time.Now(), 0)
		_ = json.Unmarshal(b, &d.event)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.tries[d.event.ID]++
		ref, _ := d.event.Data["shipping_client_ref"].(string)
		d.ok = d.verify == nil && rc.tries[d.event.ID] > rc.failFirst[ref]
		rc.got = append(rc.got, d)
		switch {
		case !d.ok:
			w.WriteHeader(http.StatusServiceUnavailable)
		case ref == "HOOK-A":
			// A receiver that answers with a page: only the status counts.
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(strings.Repeat("<p>thanks</p>", 20000)))
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *hookReceiver) all() []*hookDelivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]*hookDelivery(nil), rc.got...)
}

// delivered lists the codes delivered (2xx) per client reference.
func (rc *hookReceiver) delivered() map[string][]string {
	out := map[string][]string{}
	for _, d := range rc.all() {
		if d.ok {
			ref := d.event.Data["shipping_client_ref"].(string)
			out[ref] = append(out[ref], d.event.Data["tracking_code"].(string))
		}
	}
	return out
}

func webhookStack(t *testing.T, rc *hookReceiver, vars map[string]string) *wranglerdev.Server {
	v := map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey,
		"WEBHOOK_URL": rc.srv.URL + "/parcelgate/webhooks", "WEBHOOK_SECRET": hookSecret,
		"WEBHOOK_CHECK_MINUTES": "1",
	}
	for k, val := range vars {
		v[k] = val
	}
	return start(t, wranglerdev.Options{Sandbox: true, Scheduled: true, Vars: v})
}

func bookFor(t *testing.T, s *wranglerdev.Server, ref, outcome string) string {
	t.Helper()
	v := shipment(ref, "rayo")
	v.Set("service_code", "rayo-48")
	v.Set("to_observations", "sandbox:"+outcome)
	r := call(t, s.URL, http.MethodPost, "new-shipment", v, bearer()...)
	require.Equal(t, 200, r.Code, r.Raw)
	return str(r.Data, "shipping_dlvr_ref")
}

// runLines are the watcher's log lines ({"msg":"webhooks run",...}).
func runLines(t *testing.T, s *wranglerdev.Server) []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(s.Logs(), "\n") {
		i := strings.Index(line, `{"ts"`)
		if i < 0 || !strings.Contains(line, `"webhooks run`) {
			continue
		}
		var m map[string]any
		if json.Unmarshal([]byte(line[i:]), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func TestWebhooksUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	rc := newHookReceiver(t)
	// 50,000x: a shipment's week passes in about twelve seconds.
	s := webhookStack(t, rc, map[string]string{"SANDBOX_TIME_SCALE": "50000"})
	outcomes := map[string]string{"HOOK-A": "deliver", "HOOK-B": "address-error", "HOOK-C": "absent"}
	dlvr := map[string]string{}
	for ref, o := range outcomes {
		dlvr[ref] = bookFor(t, s, ref, o)
	}
	rc.mu.Lock()
	rc.failFirst["HOOK-C"] = 2 // every event of HOOK-C fails twice first
	rc.mu.Unlock()

	// Runs as the Cron Trigger would fire them, each three minutes later
	// (past the 1 and 2 minute retry backoffs) on the run's clock.
	at := time.Now()
	final := func() bool {
		got := rc.delivered()
		for ref := range outcomes {
			if c := got[ref]; len(c) == 0 || (c[len(c)-1] != "11" && c[len(c)-1] != "17") {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(90 * time.Second)
	runs := 0
	for !final() && time.Now().Before(deadline) {
		require.NoError(t, s.Scheduled(at))
		runs++
		at = at.Add(3 * time.Minute)
		time.Sleep(200 * time.Millisecond)
	}
	require.True(t, final(), "every shipment's final state delivered within 90 s (%d runs): %v", runs, rc.delivered())
	before := len(rc.all())
	for i := 0; i < 3; i++ {
		require.NoError(t, s.Scheduled(at))
		at = at.Add(3 * time.Minute)
	}
	assert.Len(t, rc.all(), before, "nothing after the final state")

	got := rc.delivered()
	for ref := range outcomes {
		tr := call(t, s.URL, http.MethodGet, "get-shipment-tracking", url.Values{"dlvr_ref": {dlvr[ref]}}, bearer()...)
		require.Equal(t, 200, tr.Code, tr.Raw)
		hist, _ := tr.Data["tracking_history"].([]any)
		var want []string
		for i := len(hist) - 1; i >= 0; i-- {
			c := hist[i].(map[string]any)["tracking_code"].(string)
			if len(want) == 0 || want[len(want)-1] != c {
				want = append(want, c)
			}
		}
		assert.Equal(t, want, got[ref], "%s: one event per change, in order", ref)
	}
	assert.Equal(t, "17", got["HOOK-B"][len(got["HOOK-B"])-1])
	assert.Contains(t, got["HOOK-C"], "12")

	prev := map[string]string{}
	firstBody := map[string][]byte{}
	for _, d := range rc.all() {
		require.NoError(t, d.verify, "every delivery is signed with WEBHOOK_SECRET")
		assert.Equal(t, "application/json", d.header.Get("Content-Type"))
		assert.Equal(t, webhooks.TypeTrackingUpdated, d.event.Type)
		_, err := time.Parse(time.RFC3339, d.event.Created)
		assert.NoError(t, err)
		assert.Len(t, d.event.Data, 8, "references and state only: %v", d.event.Data)
		ref := d.event.Data["shipping_client_ref"].(string)
		assert.Equal(t, dlvr[ref], d.event.Data["shipping_dlvr_ref"])
		if b, seen := firstBody[d.event.ID]; seen {
			assert.Equal(t, string(b), string(d.raw), "a retry carries the same body")
		} else {
			firstBody[d.event.ID] = d.raw
		}
		if d.ok {
			assert.Equal(t, prev[ref], d.event.Data["previous_code"], "%s: previous_code chains", ref)
			prev[ref] = d.event.Data["tracking_code"].(string)
			final := d.event.Data["tracking_code"] == "11" || d.event.Data["tracking_code"] == "17"
			assert.Equal(t, final, d.event.Data["final"])
		}
	}
	// HOOK-C's events each failed twice, then came again with the same id.
	rc.mu.Lock()
	for _, d := range rc.got {
		if d.ok && d.event.Data["shipping_client_ref"] == "HOOK-C" {
			assert.Equal(t, 3, rc.tries[d.event.ID], "same event id on every attempt")
		}
	}
	rc.mu.Unlock()

	// /healthz: counts (with the master token), no reference, no receiver URL.
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/healthz", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var h struct {
		Data struct {
			Webhooks struct {
				Watched   int            `json:"watched"`
				Pending   int            `json:"pending"`
				Delivered int            `json:"delivered"`
				Dropped   int            `json:"dropped"`
				LastRun   map[string]any `json:"last_run"`
			} `json:"webhooks"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &h), string(b))
	assert.Equal(t, 0, h.Data.Webhooks.Watched, string(b))
	assert.Equal(t, 0, h.Data.Webhooks.Pending)
	assert.Equal(t, len(firstBody), h.Data.Webhooks.Delivered, "every event delivered once")
	assert.NotNil(t, h.Data.Webhooks.LastRun)
	for ref, d := range dlvr {
		assert.NotContains(t, string(b), ref)
		assert.NotContains(t, string(b), d)
	}
	assert.NotContains(t, string(b), rc.srv.URL)
	assert.NotContains(t, s.Logs(), hookSecret)
	assert.NotEmpty(t, runLines(t, s), "every run logs its line")
}

// Over its budget a run leaves the rest for the next runs.
func TestWebhooksBudgetSpreadsRunsUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	rc := newHookReceiver(t)
	// 4 subrequests a run: the lease, the commit and two calls, while
	// each new shipment needs two (its poll and its first event).
	s := webhookStack(t, rc, map[string]string{"WEBHOOK_RUN_BUDGET": "4"})
	for _, ref := range []string{"BUD-1", "BUD-2", "BUD-3", "BUD-4", "BUD-5"} {
		bookFor(t, s, ref, "deliver")
	}
	at := time.Now()
	require.NoError(t, s.Scheduled(at))
	assert.Len(t, rc.delivered(), 1, "the first run reaches one shipment")
	for i := 0; i < 8 && len(rc.delivered()) < 5; i++ {
		at = at.Add(10 * time.Second)
		require.NoError(t, s.Scheduled(at))
	}
	got := rc.delivered()
	for _, ref := range []string{"BUD-1", "BUD-2", "BUD-3", "BUD-4", "BUD-5"} {
		assert.Equal(t, []string{"01"}, got[ref], ref)
	}
	lines := runLines(t, s)
	require.NotEmpty(t, lines)
	deferred := 0
	for _, l := range lines {
		run := l["run"].(map[string]any)
		assert.LessOrEqual(t, run["subrequests"].(float64), 4.0, "a run stays within its budget: %v", run)
		deferred += int(run["deferred"].(float64))
	}
	assert.Positive(t, deferred, "runs over budget say so in their line")
}

// The demo shop's receiver (js/demo/server/webhook-receiver.mjs, Node and
// the JS package's verifyWebhook) takes the worker's own deliveries: it
// prints each event once, in order, and refuses a tampered one.
func TestDemoReceiverUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	root, err := wranglerdev.FindRoot()
	require.NoError(t, err)
	port, err := wranglerdev.FreePort()
	require.NoError(t, err)
	var out, errOut wranglerdev.SyncBuffer
	cmd := exec.Command("node", filepath.Join(root, "js/demo/server/webhook-receiver.mjs"))
	cmd.Env = append(os.Environ(), "WEBHOOK_SECRET="+hookSecret, fmt.Sprintf("PORT=%d", port))
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	hookURL := fmt.Sprintf("http://127.0.0.1:%d/webhooks", port)
	require.Eventually(t, func() bool { return strings.Contains(errOut.String(), "webhook receiver on") }, 10*time.Second, 50*time.Millisecond)

	s := start(t, wranglerdev.Options{Sandbox: true, Scheduled: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey,
		"WEBHOOK_URL": hookURL, "WEBHOOK_SECRET": hookSecret, "WEBHOOK_CHECK_MINUTES": "1",
		"SANDBOX_TIME_SCALE": "50000"}})
	bookFor(t, s, "DEMO-HOOK-1", "deliver")
	// The dev flow of js/README.md: wrangler's own /__scheduled (of
	// --test-scheduled) fires a run at the current time.
	res, err := client.Get(s.URL + "/__scheduled")
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Eventually(t, func() bool { return strings.Contains(out.String(), `"tracking_code":"01"`) }, 10*time.Second, 50*time.Millisecond,
		"/__scheduled delivered the first event; stderr: %s", errOut.String())
	at := time.Now().Add(time.Minute)
	lines := func() []map[string]any {
		var evs []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil {
				evs = append(evs, m)
			}
		}
		return evs
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		evs := lines()
		if n := len(evs); n > 0 && evs[n-1]["final"] == true {
			break
		}
		require.NoError(t, s.Scheduled(at))
		at = at.Add(2 * time.Minute)
		time.Sleep(200 * time.Millisecond)
	}
	evs := lines()
	require.NotEmpty(t, evs, "stderr: %s", errOut.String())
	assert.Equal(t, true, evs[len(evs)-1]["final"], "the receiver printed the final event: %v", evs)
	assert.Equal(t, "11", evs[len(evs)-1]["tracking_code"])
	prev := ""
	for _, e := range evs {
		assert.Equal(t, prev, e["previous_code"])
		prev = e["tracking_code"].(string)
		assert.Equal(t, "DEMO-HOOK-1", e["shipping_client_ref"])
	}
	assert.NotContains(t, errOut.String(), "refused", "every real delivery verifies in JavaScript")

	// A forged delivery: refused with 400 and the reason on stderr.
	res, err = client.Post(hookURL, "application/json", strings.NewReader(`{"id":"evt_forged"}`))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Eventually(t, func() bool { return strings.Contains(errOut.String(), `"refused":"malformed"`) }, 5*time.Second, 50*time.Millisecond)
}

// WEBHOOK_URL without the WATCHLIST binding fails closed under workerd:
// requests get a configuration error naming it, and a Cron run is
// reported to the platform as failed.
func TestWebhooksWithoutTheWatchlistUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	s := start(t, wranglerdev.Options{Sandbox: true, Scheduled: true, NoWatchlist: true, Vars: map[string]string{
		"UPSTREAM_BASE_URL": "sandbox", "API_USER": user, "API_KEY": key, "PROXY_TOKEN": token, "TOKEN_SIGNING_KEY": signingKey,
		"WEBHOOK_URL": "http://127.0.0.1:9/webhooks", "WEBHOOK_SECRET": hookSecret}})
	v := shipment("NOWATCH-1", "rayo")
	v.Set("service_code", "rayo-48")
	r := call(t, s.URL, http.MethodPost, "new-shipment", v, bearer()...)
	assert.Equal(t, 500, r.Code, r.Raw)
	assert.Contains(t, str(r.Data, "errorMessage"), "WATCHLIST")
	err := s.Scheduled(time.Now())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HTTP 500")
	// The run's line reaches wrangler's output a moment later.
	assert.Eventually(t, func() bool { return strings.Contains(s.Logs(), `"msg":"webhooks run skipped"`) },
		5*time.Second, 20*time.Millisecond)
}
