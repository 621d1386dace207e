package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/worker/webhooks"
)

var secret = []byte(strings.Repeat("k", webhooks.MinSecretBytes))

// tracker plays a scripted service: each shipment's events appear one
// more per poll (stage), as a real one's do over time.
type tracker struct {
	mu     sync.Mutex
	script map[string][][2]string // ref -> (code, date) oldest first
	shown  map[string]int
	calls  int
	fail   bool
}

func newTracker() *tracker {
	return &tracker{script: map[string][][2]string{}, shown: map[string]int{}}
}

func (t *tracker) track(_ context.Context, ref string) (envelope.ShipmentTracking, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	if t.fail {
		return envelope.ShipmentTracking{}, errors.New("upstream unreachable")
	}
	evs := t.script[ref]
	if t.shown[ref] < len(evs) {
		t.shown[ref]++
	}
	var out envelope.ShipmentTracking
	out.ShippingDlvrRef = ref
	for i := t.shown[ref] - 1; i >= 0; i-- { // newest first, as the service sends it
		out.TrackingHistory = append(out.TrackingHistory, envelope.TrackingEvent{TrackingCode: evs[i][0], TrackingDate: evs[i][1]})
	}
	if len(out.TrackingHistory) > 0 {
		out.TrackingEvent = out.TrackingHistory[0]
	}
	return out, nil
}

// receiver records deliveries; fail decides per event id whether to
// answer 500.
type receiver struct {
	mu   sync.Mutex
	got  []delivery
	fail func(id string) bool
}

type delivery struct {
	ev     map[string]any
	header string
	ok     bool
}

func (rc *receiver) Do(req *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(req.Body)
	var ev map[string]any
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, err
	}
	if err := webhooks.Verify(body, req.Header.Get(webhooks.Header), secret, time.Now(), 0); err != nil {
		return nil, err
	}
	if req.Header.Get("Content-Type") != "application/json" {
		return nil, errors.New("content type " + req.Header.Get("Content-Type"))
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	ok := rc.fail == nil || !rc.fail(ev["id"].(string))
	rc.got = append(rc.got, delivery{ev: ev, header: req.Header.Get(webhooks.Header), ok: ok})
	status := 200
	if !ok {
		status = 500
	}
	return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader("ok"))}, nil
}

// codes lists, per shipment, the codes delivered successfully.
func (rc *receiver) codes() map[string][]string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := map[string][]string{}
	for _, d := range rc.got {
		if d.ok {
			data := d.ev["data"].(map[string]any)
			ref := data["shipping_dlvr_ref"].(string)
			out[ref] = append(out[ref], data["tracking_code"].(string))
		}
	}
	return out
}

type fixture struct {
	store *MemoryStore
	tr    *tracker
	rc    *receiver
	cfg   Config
	now   time.Time
}

func newFixture() *fixture {
	return &fixture{
		store: NewMemoryStore(), tr: newTracker(), rc: &receiver{},
		cfg: Config{URL: "https://shop.example/hooks", Secrets: [][]byte{secret}, Budget: DefaultBudget,
			CheckEvery: DefaultCheckEvery, RetryFor: DefaultRetryFor, MaxAge: DefaultMaxAge},
		now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC),
	}
}

func (f *fixture) run(t *testing.T) Report {
	t.Helper()
	rep, err := Run(context.Background(), f.cfg, Deps{Store: f.store, Track: f.tr.track, Post: f.rc}, f.now)
	require.NoError(t, err)
	return rep
}

func (f *fixture) book(ref string, evs ...[2]string) {
	f.tr.script[ref] = evs
	_ = f.store.Add(context.Background(), ref, "C-"+ref, f.now)
}

var delivered = [][2]string{
	{"01", "2026-11-23 09:00:00"}, {"03", "2026-11-24 08:00:00"}, {"05", "2026-11-24 17:40:00"},
	{"06", "2026-11-24 19:40:00"}, {"08", "2026-11-24 21:40:00"}, {"10", "2026-11-25 08:41:00"},
	{"11", "2026-11-25 12:02:00"},
}

// Every change reaches the receiver once, in order, with the previous
// code; the final one says so, and nothing follows it.
func TestRunDeliversEveryChangeInOrderUntilFinal(t *testing.T) {
	f := newFixture()
	f.book("DLV-1", delivered...)
	absent := [][2]string{{"01", "2026-11-23 09:00:00"}, {"10", "2026-11-25 08:30:00"}, {"12", "2026-11-25 10:30:00"},
		{"10", "2026-11-26 08:30:00"}, {"10", "2026-11-26 09:00:00"}, {"11", "2026-11-26 11:00:00"}}
	f.book("DLV-2", absent...)
	for i := 0; i < 12; i++ {
		f.run(t)
		f.now = f.now.Add(DefaultCheckEvery)
	}
	got := f.rc.codes()
	assert.Equal(t, []string{"01", "03", "05", "06", "08", "10", "11"}, got["DLV-1"])
	// 10 twice in a row is one state: one event, not two.
	assert.Equal(t, []string{"01", "10", "12", "10", "11"}, got["DLV-2"])
	prev := map[string]string{}
	ids := map[string]bool{}
	for _, d := range f.rc.got {
		data := d.ev["data"].(map[string]any)
		ref := data["shipping_dlvr_ref"].(string)
		assert.Equal(t, prev[ref], data["previous_code"], "previous_code chains the events")
		prev[ref] = data["tracking_code"].(string)
		assert.Equal(t, data["tracking_code"] == "11", data["final"])
		assert.Equal(t, "C-"+ref, data["shipping_client_ref"])
		assert.Equal(t, webhooks.TypeTrackingUpdated, d.ev["type"])
		assert.False(t, ids[d.ev["id"].(string)], "ids are unique")
		ids[d.ev["id"].(string)] = true
	}
	assert.Empty(t, f.store.Rows(), "final shipments are no longer watched")
	st, _ := f.store.Stats(context.Background())
	assert.EqualValues(t, 12, st.Delivered)
	polls := f.tr.calls
	f.run(t)
	assert.Equal(t, polls, f.tr.calls, "no poll after the final state")
}

// Several changes between two polls are each an event, in order.
func TestRunCatchesUpSeveralChangesInOnePoll(t *testing.T) {
	f := newFixture()
	f.cfg.CheckEvery = 3 * time.Hour
	f.book("DLV-1", delivered...)
	f.run(t)                     // sees 01
	f.tr.shown["DLV-1"] = 5      // 03, 05, 06, 08 happen meanwhile
	f.now = f.now.Add(time.Hour) // not due yet
	assert.Zero(t, f.run(t).Checked)
	f.now = f.now.Add(2 * time.Hour) // due
	rep := f.run(t)
	assert.Equal(t, 1, rep.Checked)
	assert.Equal(t, 5, rep.Changes) // 03 05 06 08 and the sixth, 10, now shown
	assert.Equal(t, []string{"01", "03", "05", "06", "08", "10"}, f.rc.codes()["DLV-1"])
}

// A failing receiver gets the same event (same id, same body) again after
// a backoff, and the later events wait behind it; after the retry period
// it is dropped and counted, and the next one goes out.
func TestRunRetriesTheSameEventThenDrops(t *testing.T) {
	f := newFixture()
	f.cfg.RetryFor = 3 * time.Hour
	f.book("DLV-1", delivered...)
	failing := true
	f.rc.fail = func(string) bool { return failing }
	rep := f.run(t)
	assert.Equal(t, 1, rep.Failed)
	first := f.rc.got[0].ev["id"]
	f.now = f.now.Add(30 * time.Second) // within the first backoff (1 min)
	f.run(t)
	assert.Len(t, f.rc.got, 1, "no attempt before the backoff")
	f.now = f.now.Add(FirstRetry)
	f.run(t)
	require.Len(t, f.rc.got, 2)
	assert.Equal(t, first, f.rc.got[1].ev["id"], "a retry carries the same id")
	failing = false
	f.now = f.now.Add(backoff(2))
	f.run(t)
	got := f.rc.codes()["DLV-1"]
	require.NotEmpty(t, got)
	assert.Equal(t, "01", got[0], "the failed event goes first, then the rest in order")

	// Now a receiver that never recovers: dropped after RetryFor.
	failing = true
	for i := 0; i < 40; i++ {
		f.now = f.now.Add(20 * time.Minute)
		f.run(t)
	}
	st, _ := f.store.Stats(context.Background())
	assert.Positive(t, st.Dropped)
	assert.Empty(t, f.store.Rows(), "dropping the final event ends the watch")
}

// Over its budget a run leaves the rest for the next runs, oldest check
// first, and everything is delivered in the end.
func TestRunSpreadsWorkOverRunsWithinTheBudget(t *testing.T) {
	f := newFixture()
	f.cfg.Budget = 6 // lease + commit + 4
	refs := []string{"A", "B", "C", "D", "E", "F"}
	for _, r := range refs {
		f.book(r, delivered[:1]...)
	}
	rep := f.run(t)
	assert.Equal(t, 6, rep.Used, "the run spends its budget exactly")
	assert.Equal(t, 4, rep.Leased)
	// A poll is made only with room for the event it may find: two
	// shipments polled and delivered, two left whole for the next run.
	assert.Equal(t, 2, rep.Checked)
	assert.Equal(t, 2, rep.Delivered)
	assert.Equal(t, 2, rep.Deferred)
	assert.Less(t, rep.Checked, len(refs))
	for i := 0; i < 10; i++ {
		f.now = f.now.Add(time.Minute)
		rep = f.run(t)
		assert.LessOrEqual(t, rep.Used, 6)
	}
	got := f.rc.codes()
	for _, r := range refs {
		assert.Equal(t, []string{"01"}, got[r], r)
	}
}

func TestRunStopsAtTheMaximumAge(t *testing.T) {
	f := newFixture()
	f.book("DLV-1", delivered[:3]...)
	f.run(t)
	f.now = f.now.Add(DefaultMaxAge)
	rep := f.run(t)
	assert.Equal(t, 1, rep.Expired)
	assert.Zero(t, rep.Checked, "no poll past the maximum age")
	assert.Empty(t, f.store.Rows())
}

// A failed poll is counted and tried again at the next check; overlapping
// runs never work on the same shipment.
func TestRunPollFailureAndLease(t *testing.T) {
	f := newFixture()
	f.book("DLV-1", delivered...)
	f.tr.fail = true
	rep := f.run(t)
	assert.Equal(t, 1, rep.Errors)
	f.tr.fail = false
	f.now = f.now.Add(DefaultCheckEvery)
	rows, err := f.store.Lease(context.Background(), f.now, 10, Lease)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Zero(t, f.run(t).Leased, "a leased shipment is skipped by another run")
	f.now = f.now.Add(Lease)
	assert.Equal(t, 1, f.run(t).Checked, "after the lease it is due again")
}

func TestRunRefusesWeakConfig(t *testing.T) {
	f := newFixture()
	f.cfg.Secrets = [][]byte{[]byte("short")}
	_, err := Run(context.Background(), f.cfg, Deps{Store: f.store, Track: f.tr.track, Post: f.rc}, f.now)
	assert.ErrorIs(t, err, webhooks.ErrSecret)
	f.cfg.Secrets, f.cfg.Budget = [][]byte{secret}, 2
	_, err = Run(context.Background(), f.cfg, Deps{Store: f.store, Track: f.tr.track, Post: f.rc}, f.now)
	assert.Error(t, err)
}

func TestBackoff(t *testing.T) {
	assert.Equal(t, []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 32 * time.Minute, time.Hour, time.Hour},
		[]time.Duration{backoff(1), backoff(2), backoff(3), backoff(6), backoff(7), backoff(30)})
}

// failingCommits is a MemoryStore whose commits fail from the n-th on, as
// when the platform stops a run midway.
type failingCommits struct {
	*MemoryStore
	commits, failFrom int
}

func (f *failingCommits) Commit(ctx context.Context, c Commit) error {
	f.commits++
	if f.failFrom > 0 && f.commits >= f.failFrom {
		return errors.New("the run was stopped")
	}
	return f.MemoryStore.Commit(ctx, c)
}

// A run commits every CommitEvery shipments: one stopped midway keeps
// what it finished, and only the rest is done (and sent) again.
func TestRunCommitsInChunks(t *testing.T) {
	f := newFixture()
	store := &failingCommits{MemoryStore: f.store, failFrom: 2}
	for i := 0; i < 2*CommitEvery+3; i++ {
		f.book(fmt.Sprintf("R%02d", i), delivered[:1]...)
	}
	_, err := Run(context.Background(), f.cfg, Deps{Store: store, Track: f.tr.track, Post: f.rc}, f.now)
	require.Error(t, err, "the second commit fails")
	assert.Len(t, f.rc.got, 2*CommitEvery, "the run stopped at the chunk whose commit failed")
	st, _ := f.store.Stats(context.Background())
	assert.EqualValues(t, CommitEvery, st.Delivered, "the first chunk is recorded")

	// Once the lease is over, the uncommitted chunk is done again (the same
	// ids: receivers dedupe), the committed one is not.
	store.failFrom = 0
	f.now = f.now.Add(Lease)
	rep, err := Run(context.Background(), f.cfg, Deps{Store: store, Track: f.tr.track, Post: f.rc}, f.now)
	require.NoError(t, err)
	assert.Equal(t, CommitEvery+3, rep.Delivered, "the second and third chunks' events")
	assert.Equal(t, 3, store.commits-2, "three commits for 19 shipments")
	ids := map[string]int{}
	for _, d := range f.rc.got {
		ids[d.ev["id"].(string)]++
	}
	assert.Len(t, ids, 2*CommitEvery+3, "every shipment's event")
	again := 0
	for _, n := range ids {
		if n > 1 {
			again++
		}
	}
	assert.Equal(t, CommitEvery, again, "the uncommitted chunk's events came again, with their ids")
}

// ctxDoer is a receiver that honours the request's context, as Deps.Post
// must: a request whose context has ended is not sent.
type ctxDoer struct{ rc *receiver }

func (c ctxDoer) Do(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

// A run whose context has ended (its deadline passed) starts no more
// work: it neither counts attempts it did not make nor drops an event it
// never tried; the shipments keep their place for the next run.
func TestRunPastItsDeadlineStartsNoWork(t *testing.T) {
	f := newFixture()
	f.cfg.RetryFor = time.Hour
	f.book("DLV-1", delivered[:1]...)
	failing := true
	f.rc.fail = func(string) bool { return failing }
	rep := f.run(t)
	require.Equal(t, 1, rep.Failed)
	failing = false

	// Past the retry period, the event gets one more real attempt; this
	// run's context is over before it starts.
	f.now = f.now.Add(2 * time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	track := func(ctx context.Context, ref string) (envelope.ShipmentTracking, error) {
		if err := ctx.Err(); err != nil {
			return envelope.ShipmentTracking{}, err
		}
		return f.tr.track(ctx, ref)
	}
	rep, err := Run(ctx, f.cfg, Deps{Store: f.store, Track: track, Post: ctxDoer{f.rc}}, f.now)
	require.NoError(t, err)
	assert.Zero(t, rep.Failed, "no attempt was made")
	assert.Zero(t, rep.Dropped, "an event is not dropped without an attempt")
	assert.Zero(t, rep.Errors, "no poll was made")
	assert.Equal(t, 1, rep.Deferred)
	rows := f.store.Rows()
	require.Len(t, rows, 1)
	assert.Equal(t, 1, rows[0].Pending)

	// The next run delivers it.
	rep, err = Run(context.Background(), f.cfg, Deps{Store: f.store, Track: track, Post: ctxDoer{f.rc}}, f.now.Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Delivered)
	assert.Equal(t, []string{"01"}, f.rc.codes()["DLV-1"])
}

// ctxStore is a MemoryStore whose commits honour their context, as the
// Durable Object's calls through the bridge do.
type ctxStore struct{ *MemoryStore }

func (s ctxStore) Commit(ctx context.Context, c Commit) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.MemoryStore.Commit(ctx, c)
}

// slowDoer answers after a pause, as a slow receiver does.
type slowDoer struct {
	rc    *receiver
	pause time.Duration
}

func (s slowDoer) Do(req *http.Request) (*http.Response, error) {
	time.Sleep(s.pause)
	return s.rc.Do(req)
}

// Each commit gets its own time: a run that has worked longer than the
// commit timeout still records every chunk it finished.
func TestRunCommitsAfterALongChunk(t *testing.T) {
	defer func(d time.Duration) { commitTimeout = d }(commitTimeout)
	commitTimeout = 20 * time.Millisecond
	f := newFixture()
	for i := 0; i < CommitEvery+1; i++ {
		f.book(fmt.Sprintf("R%02d", i), delivered[:1]...)
	}
	store := ctxStore{f.store}
	rep, err := Run(context.Background(), f.cfg, Deps{Store: store, Track: f.tr.track,
		Post: slowDoer{f.rc, 3 * commitTimeout}}, f.now)
	require.NoError(t, err, "the commits land")
	assert.Equal(t, CommitEvery+1, rep.Delivered)
	st, _ := f.store.Stats(context.Background())
	assert.EqualValues(t, CommitEvery+1, st.Delivered)
	for _, r := range f.store.Rows() {
		assert.Zero(t, r.Pending, r.Ref)
	}
}
