// Package watch is the tracking watcher behind the edge's webhooks: it
// polls the tracking of the shipments the edge booked and POSTs a signed
// event (worker/webhooks) to the shop's WEBHOOK_URL for every change of
// tracking_code, in order per shipment, at least once.
//
// The service has no push, so the edge polls. A Cron Trigger runs Run;
// one run:
//
//  1. leases the due shipments from the Store, oldest check first, as many
//     as the run's budget of subrequests allows (the platform caps
//     subrequests per invocation: 50 on Cloudflare's Free plan);
//  2. per shipment, delivers the events still queued (a failed delivery is
//     retried with backoff, then dropped and counted), polls
//     get-shipment-tracking when its check is due, queues one event per
//     change of tracking_code found in the history, and delivers them;
//  3. commits the shipments back, a chunk at a time, with when each is due
//     next, and removes those done: final state delivered, or older than
//     the maximum age.
//
// Shipments a run could not reach within its budget keep their place and
// come first in the next run. A shipment is leased by one run at a time,
// so its events are never sent out of order by overlapping runs.
//
// Event ids are derived from the shipment and the history entry, so a
// retry (and even a change seen again after a lost commit) carries the
// same id: receivers dedupe on it.
package watch

import (
	"context"
	"net/http"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
)

// Defaults and bounds of the watcher; worker/README.md ("Tracking
// webhooks") documents them.
const (
	// DefaultBudget is the subrequests one run may make: Cloudflare's
	// Free plan allows 50 per invocation, and the run's own Store calls
	// and a margin come out of the rest.
	DefaultBudget = 40
	// DefaultCheckEvery is how long after a check a shipment is checked
	// again: parcels change state a few times a day.
	DefaultCheckEvery = 10 * time.Minute
	// DefaultRetryFor is how old an event may get (from when the edge saw
	// the change) while its delivery is retried; then it is dropped.
	DefaultRetryFor = 24 * time.Hour
	// DefaultMaxAge is how long after booking a shipment is watched at
	// most: one that is not final by then is stuck or forgotten upstream.
	DefaultMaxAge = 30 * 24 * time.Hour
	// DeliveryTimeout bounds one POST to the receiver.
	DeliveryTimeout = 10 * time.Second
	// FirstRetry and MaxRetry bound the backoff between attempts of one
	// event: 1, 2, 4, ... minutes, at most an hour.
	FirstRetry = time.Minute
	MaxRetry   = time.Hour
	// Lease is how long a run holds the shipments it leased: longer than a
	// run can take, so two runs never work on one shipment.
	Lease = 10 * time.Minute
	// Concurrency is how many shipments one run works on at once
	// (Cloudflare allows six open connections per invocation).
	Concurrency = 6
	// MaxQueue bounds the events queued for one shipment; a shipment has
	// a dozen changes at most, so this is only reached when the receiver
	// has been failing for long. The oldest are dropped (and counted).
	MaxQueue = 32
	// CommitEvery is how many shipments a run works on between two
	// commits (each one subrequest).
	CommitEvery = 8
	// minBudget: the lease, one commit and one call.
	minBudget = 3
)

// Config is the watcher's configuration (from the WEBHOOK_* variables).
type Config struct {
	// URL receives the events (WEBHOOK_URL).
	URL string
	// Secrets sign them: WEBHOOK_SECRET first, then WEBHOOK_SECRET_PREVIOUS
	// while a rotation is under way. Each passed webhooks.CheckSecret.
	Secrets [][]byte
	// Budget is the subrequests one run may make (lease and commit
	// included); at least 3.
	Budget     int
	CheckEvery time.Duration
	RetryFor   time.Duration
	MaxAge     time.Duration
}

// Doer sends one HTTP request (net/http natively, the entry's fetch under
// workerd). It must honour the request's context deadline.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

// Deps are what the edge provides to a run.
type Deps struct {
	// Store holds the watched shipments.
	Store Store
	// Track asks the service for a shipment's tracking (with the edge's
	// credentials, or the embedded sandbox).
	Track func(ctx context.Context, dlvrRef string) (envelope.ShipmentTracking, error)
	// Post delivers events to Config.URL.
	Post Doer
	// Clock is the wall clock the signatures' timestamps come from: the
	// receiver compares them with its own. The run's schedule uses the
	// time Run is given instead (the Cron Trigger's scheduled time).
	Clock func() time.Time
	// Log receives one line per notable thing (a dropped event, a
	// failed check); nil: nothing. Never given a reference or a URL.
	Log func(msg string, fields ...any)
}

// Row is one watched shipment as the Store keeps it. State is the
// watcher's own record (JSON), opaque to the Store.
type Row struct {
	Ref       string `json:"ref"`        // shipping_dlvr_ref
	ClientRef string `json:"client_ref"` // shipping_client_ref
	Added     int64  `json:"added"`      // booked, Unix milliseconds
	NextAt    int64  `json:"next_at"`    // due, Unix milliseconds
	Pending   int    `json:"pending"`    // events queued
	State     string `json:"state"`
}

// Store keeps the watched shipments of one (API user, upstream): a
// Durable Object under workerd (class Watchlist in worker/entry.mjs),
// MemoryStore natively.
type Store interface {
	// Add starts watching a shipment, due at once; nothing when it is
	// watched already. It may return before the write lands (the worker
	// does not hold a booking's answer for it).
	Add(ctx context.Context, ref, clientRef string, at time.Time) error
	// Lease returns up to n rows due at now, the earliest NextAt first,
	// and makes them due again only after hold (another run skips them).
	Lease(ctx context.Context, now time.Time, n int, hold time.Duration) ([]Row, error)
	// Commit writes rows back (their NextAt, Pending and State), removes
	// the refs listed, adds Delivered and Dropped to the totals and keeps
	// Run as the last run. A run commits several times.
	Commit(ctx context.Context, c Commit) error
	// Stats reports the watchlist for /healthz.
	Stats(ctx context.Context) (Stats, error)
}

// Commit is what a run writes back after a chunk of shipments.
type Commit struct {
	Save   []Row    `json:"save"`
	Remove []string `json:"remove"`
	// Delivered and Dropped are this chunk's, for the totals.
	Delivered int `json:"delivered"`
	Dropped   int `json:"dropped"`
	// Run is the run so far, for /healthz's last_run.
	Run Report `json:"run"`
}

// Report counts what one run did. It names no shipment.
type Report struct {
	At        time.Time `json:"at"`        // the run's scheduled time
	Leased    int       `json:"leased"`    // shipments taken from the Store
	Checked   int       `json:"checked"`   // tracking polls answered
	Changes   int       `json:"changes"`   // events queued
	Delivered int       `json:"delivered"` // events the receiver took
	Failed    int       `json:"failed"`    // delivery attempts refused or timed out
	Dropped   int       `json:"dropped"`   // events given up (retried too long, or queue full)
	Finished  int       `json:"finished"`  // shipments done: final state delivered
	Expired   int       `json:"expired"`   // shipments past the maximum age
	Deferred  int       `json:"deferred"`  // shipments left for the next run (budget)
	Errors    int       `json:"errors"`    // tracking polls that failed
	Used      int       `json:"used"`      // subrequests spent, Store calls included
}

// Stats is the watchlist's state for /healthz: counts only.
type Stats struct {
	Watched   int     `json:"watched"`   // shipments watched
	Pending   int     `json:"pending"`   // events queued for delivery
	Delivered int64   `json:"delivered"` // events delivered, all time
	Dropped   int64   `json:"dropped"`   // events dropped, all time
	LastRun   *Report `json:"last_run"`  // nil before the first run
}
