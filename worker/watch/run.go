package watch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/parcelgate/parcelgate/worker/webhooks"
)

// UserAgent is sent with every delivery.
const UserAgent = "parcelgate-webhooks/1"

// commitTimeout bounds one commit (a variable for tests).
var commitTimeout = 30 * time.Second

// Run is one run of the watcher at now (the Cron Trigger's scheduled
// time): it leases the due shipments, works on them within the budget and
// commits them back, a chunk at a time. The report counts what it did; an
// error means the Store could not be reached (what was sent and not
// committed is sent again, with the same ids, once the lease ends).
//
// Committing per chunk of CommitEvery shipments, not once at the end,
// is what keeps a run that the platform stops (the Free plan's CPU limit
// applies to Cron runs too) from starting over for ever: every chunk it
// finished is recorded.
func Run(ctx context.Context, cfg Config, d Deps, now time.Time) (Report, error) {
	rep := Report{At: now.UTC()}
	if cfg.Budget < minBudget {
		return rep, errors.New("watch: the budget must allow at least one subrequest besides the Store's two")
	}
	if len(cfg.Secrets) == 0 {
		return rep, errors.New("watch: no secret to sign with")
	}
	for _, s := range cfg.Secrets {
		if err := webhooks.CheckSecret(s); err != nil {
			return rep, err
		}
	}
	if d.Clock == nil {
		d.Clock = time.Now
	}
	if d.Log == nil {
		d.Log = func(string, ...any) {}
	}
	// The lease is one subrequest; the rest is shared by the shipments and
	// one commit per chunk of them: n + ceil(n/CommitEvery) <= rest.
	rest := cfg.Budget - 1
	n := rest * CommitEvery / (CommitEvery + 1)
	rows, err := d.Store.Lease(ctx, now, n, Lease)
	rep.Used = 1
	if err != nil {
		return rep, err
	}
	rep.Leased = len(rows)
	commits := (len(rows) + CommitEvery - 1) / CommitEvery
	if commits == 0 {
		commits = 1 // the run's report, for /healthz
	}
	b := &budget{left: rest - commits}
	r := &run{cfg: cfg, d: d, now: now, b: b}
	for start := 0; start == 0 || start < len(rows); start += CommitEvery {
		part := rows[start:min(start+CommitEvery, len(rows))]
		outs := make([]outcome, len(part))
		sem := make(chan struct{}, Concurrency)
		var wg sync.WaitGroup
		for i := range part {
			wg.Add(1)
			sem <- struct{}{}
			go func(i int) {
				defer func() { <-sem; wg.Done() }()
				outs[i] = r.shipment(ctx, part[i])
			}(i)
		}
		wg.Wait()
		var c Commit
		for i := range outs {
			o := &outs[i]
			rep.add(&o.rep)
			c.Delivered += o.rep.Delivered
			c.Dropped += o.rep.Dropped
			if o.remove {
				c.Remove = append(c.Remove, part[i].Ref)
			} else {
				c.Save = append(c.Save, o.row)
			}
		}
		// Used: the lease, what the shipments spent, the commits so far
		// and this one.
		rep.Used = 1 + b.spent() + start/CommitEvery + 1
		c.Run = rep
		// Commits must land even when the run's context is ending: what
		// was delivered is recorded, or it is delivered again. Each gets
		// its own time, counted from when it starts.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
		err := d.Store.Commit(cctx, c)
		cancel()
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// budget counts the subrequests a run may still make.
type budget struct {
	mu    sync.Mutex
	left  int
	taken int
}

// take reserves n subrequests, all or none.
func (b *budget) take(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left < n {
		return false
	}
	b.left -= n
	b.taken += n
	return true
}

// give returns n reserved subrequests that were not spent.
func (b *budget) give(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.left += n
	b.taken -= n
}

func (b *budget) spent() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.taken
}

func (r *Report) add(o *Report) {
	r.Checked += o.Checked
	r.Changes += o.Changes
	r.Delivered += o.Delivered
	r.Failed += o.Failed
	r.Dropped += o.Dropped
	r.Finished += o.Finished
	r.Expired += o.Expired
	r.Deferred += o.Deferred
	r.Errors += o.Errors
}

type run struct {
	cfg Config
	d   Deps
	now time.Time
	b   *budget
}

// outcome is what became of one leased shipment.
type outcome struct {
	row    Row
	remove bool
	rep    Report
}

// shipment works on one leased shipment: deliver what is queued and due,
// poll when the check is due, deliver what the poll found.
func (r *run) shipment(ctx context.Context, row Row) (o outcome) {
	nowMs := r.now.UnixMilli()
	st, ok := loadState(row.State)
	if !ok {
		r.d.Log("watch record unreadable; starting it over")
	}
	// Unless this run gets to it, the shipment keeps its place.
	o.row = row
	untouched := true
	deferred := false
	defer func() {
		if untouched {
			if deferred {
				o.rep.Deferred++
			}
			// Restore the place it had before the lease.
			return
		}
		o.row.State = st.encode()
		o.row.Pending = len(st.Queue)
		o.row.NextAt = r.nextAt(&st, row, deferred)
		if deferred {
			o.rep.Deferred++
		}
	}()

	// credit is a subrequest reserved with a poll for the first event it
	// finds: a poll whose change cannot be delivered in the same run
	// only delays it.
	credit := 0
	deliverQueue := func() {
		for len(st.Queue) > 0 {
			q := &st.Queue[0]
			if q.RetryAt > nowMs {
				return
			}
			if ctx.Err() != nil {
				// The run's deadline passed: no attempt is started, so
				// none is counted (nor an event dropped untried).
				deferred = true
				return
			}
			if credit > 0 {
				credit--
			} else if !r.b.take(1) {
				deferred = true
				return
			}
			untouched = false
			if r.post(ctx, q) {
				o.rep.Delivered++
				st.Queue = st.Queue[1:]
				continue
			}
			if ctx.Err() != nil {
				// Cut short by the run's deadline, not refused by the
				// receiver: tried again next run, not held against it.
				deferred = true
				return
			}
			o.rep.Failed++
			q.Attempts++
			if nowMs-q.Created*1000 >= r.cfg.RetryFor.Milliseconds() {
				// Too old to keep trying: give up on it and try the next,
				// which is as old or newer.
				r.d.Log("webhook event dropped after retrying", "attempts", q.Attempts, "type", webhooks.TypeTrackingUpdated)
				o.rep.Dropped++
				st.Queue = st.Queue[1:]
				continue
			}
			q.RetryAt = nowMs + backoff(q.Attempts).Milliseconds()
			return
		}
	}

	deliverQueue()
	tooOld := nowMs-row.Added >= r.cfg.MaxAge.Milliseconds()
	if !st.Final && !tooOld && st.CheckAt <= nowMs && !deferred && ctx.Err() != nil {
		deferred = true // the run's deadline passed: the poll waits for the next run
	}
	if !st.Final && !tooOld && st.CheckAt <= nowMs && !deferred {
		// A poll takes room for the event it may find too; when only one
		// subrequest is left (others hold theirs for a moment), it polls
		// anyway: what it finds is queued and goes first next run.
		polled := false
		if r.b.take(2) {
			polled, credit = true, 1
		} else if r.b.take(1) {
			polled = true
		}
		if polled {
			untouched = false
			t, err := r.d.Track(ctx, row.Ref)
			st.CheckAt = nowMs + r.cfg.CheckEvery.Milliseconds()
			if err != nil {
				st.Errors++
				o.rep.Errors++
				r.d.Log("tracking poll failed", "errors_in_a_row", st.Errors, "error", err.Error())
			} else {
				st.Errors = 0
				o.rep.Checked++
				evs := st.changes(&t, row.Ref, row.ClientRef, r.now)
				o.rep.Changes += len(evs)
				st.Queue = append(st.Queue, evs...)
				if n := len(st.Queue) - MaxQueue; n > 0 {
					r.d.Log("webhook events dropped: queue full", "dropped", n)
					o.rep.Dropped += n
					st.Queue = st.Queue[n:]
				}
				deliverQueue()
			}
			if credit > 0 {
				r.b.give(credit)
			}
		} else {
			deferred = true
		}
	}
	if len(st.Queue) == 0 && (st.Final || tooOld) {
		untouched = false
		o.remove = true
		if st.Final {
			o.rep.Finished++
		} else {
			o.rep.Expired++
		}
	}
	return o
}

// nextAt is when a shipment worked on is due again: its next check or
// the retry of its first queued event, whichever comes first. One the
// budget cut short keeps its place (it was due then, and is first again).
func (r *run) nextAt(st *state, row Row, deferred bool) int64 {
	nowMs := r.now.UnixMilli()
	if deferred {
		return row.NextAt
	}
	next := int64(-1)
	if !st.Final && nowMs-row.Added < r.cfg.MaxAge.Milliseconds() {
		next = st.CheckAt
	}
	if len(st.Queue) > 0 && (next < 0 || st.Queue[0].RetryAt < next) {
		next = st.Queue[0].RetryAt
	}
	if next < nowMs {
		// Past the maximum age with nothing left to poll: removed unless
		// events are queued (next is their retry), so this is a floor.
		next = nowMs
	}
	return next
}

// backoff is the wait after the n-th failed attempt of an event.
func backoff(n int) time.Duration {
	d := FirstRetry
	for i := 1; i < n && d < MaxRetry; i++ {
		d *= 2
	}
	if d > MaxRetry {
		d = MaxRetry
	}
	return d
}

// post delivers one event; true when the receiver answered 2xx.
func (r *run) post(ctx context.Context, q *queued) bool {
	body, err := q.event().Marshal()
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, DeliveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(webhooks.Header, webhooks.SignAll(r.cfg.Secrets, body, r.d.Clock()))
	req.Header.Set("User-Agent", UserAgent)
	req.ContentLength = int64(len(body))
	res, err := r.d.Post.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	return res.StatusCode >= 200 && res.StatusCode < 300
}
