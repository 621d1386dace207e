package edge

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/worker/watch"
)

// Tracking webhooks. With WEBHOOK_URL set, every shipment the edge books
// (an ok answer to new-shipment, or one found again after a lost answer)
// goes on the watchlist of its (API user, upstream), and the Cron
// Trigger's runs (Handler.Watch) poll its tracking and POST a signed
// event per change to WEBHOOK_URL (worker/watch has the protocol,
// worker/README.md the contract).

// WatchlistBinding is the Durable Object namespace (class Watchlist in
// worker/entry.mjs) that holds the watched shipments.
const WatchlistBinding = "WATCHLIST"

// statsTTL is how long /healthz reuses the watchlist's counts: a probe
// every few seconds must not cost a Durable Object call each.
const statsTTL = 10 * time.Second

// watchRunTimeout bounds the work of one run; its commit gets its own
// time after that (worker/watch).
const watchRunTimeout = 4 * time.Minute

// webhookErrors are the configuration problems that only the platform can
// tell: the watchlist binding and a transport for the deliveries.
func (h *Handler) webhookErrors(cfg *Config) []ConfigError {
	if cfg.Webhooks == nil {
		return nil
	}
	var errs []ConfigError
	if h.d.Watchlists == nil {
		errs = append(errs, ConfigError{WatchlistBinding, "Durable Object binding is not configured: WEBHOOK_URL needs it to keep the watched shipments (see worker/README.md, Tracking webhooks)"})
	}
	if h.webhookDoer() == nil {
		errs = append(errs, ConfigError{EnvWebhookURL, "set, but this build has no HTTP transport"})
	}
	return errs
}

func (h *Handler) webhookDoer() Doer {
	if h.d.Webhooks != nil {
		return h.d.Webhooks
	}
	return h.d.Upstream
}

// watchlist is the Store of the configuration's (API user, upstream): a
// new upstream or API user starts an empty list, never polling the old
// one's references against the new one.
func (h *Handler) watchlist(cfg *Config) watch.Store {
	base := cfg.UpstreamBase
	if base == "" {
		base = SandboxBaseURL
	}
	return h.d.Watchlists("watch\n" + cfg.APIUser + "\n" + base)
}

// watchBooked puts a booked shipment on the watchlist; data is the ok
// answer's data. A failure is noted in the log line: the booking stands.
func (x *exchange) watchBooked(cfg *Config, data []byte) {
	if cfg.Webhooks == nil || x.h.d.Watchlists == nil {
		return
	}
	dlvr, client := bookedRefs(data)
	if dlvr == "" {
		x.note = "booked shipment not watched: no shipping_dlvr_ref in the answer"
		return
	}
	if err := x.h.watchlist(cfg).Add(x.r.Context(), dlvr, client, x.h.d.Now()); err != nil {
		x.note = "booked shipment not watched: " + clip(err.Error(), 100)
	}
}

// watchStats caches the watchlist's counts for /healthz.
type watchStats struct {
	mu  sync.Mutex
	at  time.Time
	s   watch.Stats
	err error
}

func (h *Handler) webhookStats(ctx context.Context, cfg *Config) (watch.Stats, error) {
	c := &h.stats
	c.mu.Lock()
	defer c.mu.Unlock()
	now := h.d.Now()
	if c.at.IsZero() || now.Sub(c.at) > statsTTL || now.Before(c.at) {
		c.s, c.err = h.watchlist(cfg).Stats(ctx)
		c.at = now
	}
	return c.s, c.err
}

// emitWebhooks writes /healthz's webhooks member: never a reference or
// the receiver's URL. The counts (shipments watched, events delivered)
// are the shop's order volume, so only a caller with the master token
// gets them; anyone else gets whether it runs and when it last ran,
// enough for a liveness probe.
func (x *exchange) emitWebhooks(cfg *Config, w jsonlite.Emitter) {
	w.Key("webhooks")
	if cfg.Webhooks == nil {
		w.String("off")
		return
	}
	s, err := x.h.webhookStats(x.r.Context(), cfg)
	w.BeginObject()
	if err != nil {
		w.Key("error")
		w.String("the watchlist could not be reached")
		w.EndObject()
		return
	}
	if cfg.ProxyToken == "" || !bearerOK(x.r.Header.Get("Authorization"), cfg.ProxyToken) {
		w.Key("last_run_at")
		if s.LastRun == nil {
			w.Null()
		} else {
			w.String(s.LastRun.At.UTC().Format(time.RFC3339))
		}
		w.Key("counts")
		w.String("with the master token (Authorization: Bearer PROXY_TOKEN)")
		w.EndObject()
		return
	}
	w.Key("watched")
	w.Int(int64(s.Watched))
	w.Key("pending")
	w.Int(int64(s.Pending))
	w.Key("delivered")
	w.Int(s.Delivered)
	w.Key("dropped")
	w.Int(s.Dropped)
	w.Key("last_run")
	if s.LastRun == nil {
		w.Null()
	} else {
		emitReport(w, s.LastRun)
	}
	w.EndObject()
}

func emitReport(w jsonlite.Emitter, r *watch.Report) {
	w.BeginObject()
	w.Key("at")
	w.String(r.At.UTC().Format(time.RFC3339))
	for _, f := range []struct {
		k string
		v int
	}{{"leased", r.Leased}, {"checked", r.Checked}, {"changes", r.Changes}, {"delivered", r.Delivered},
		{"failed", r.Failed}, {"dropped", r.Dropped}, {"finished", r.Finished}, {"expired", r.Expired},
		{"deferred", r.Deferred}, {"errors", r.Errors}, {"subrequests", r.Used}} {
		w.Key(f.k)
		w.Int(int64(f.v))
	}
	w.EndObject()
}

// Watch runs the tracking watcher once, for the Cron Trigger; at is the
// trigger's scheduled time. It logs and returns the run's line (JSON):
// counts, never a reference. The error says the run did not happen or
// failed (the configuration, or the watchlist unreachable).
func (h *Handler) Watch(ctx context.Context, at time.Time) ([]byte, error) {
	cfg, errs := h.config()
	line := jsonlite.NewWriter()
	line.BeginObject()
	line.Key("ts")
	line.String(h.d.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	line.Key("msg")
	defer func() {
		if h.d.Log != nil {
			_, _ = h.d.Log.Write(append(line.Bytes(), '\n'))
		}
	}()
	switch {
	case len(errs) > 0:
		line.String("webhooks run skipped")
		line.Key("error")
		line.String("misconfigured: " + errs[0].Error())
		line.EndObject()
		return line.Bytes(), errors.New("misconfigured")
	case cfg.Webhooks == nil:
		line.String("webhooks run skipped")
		line.Key("error")
		line.String("WEBHOOK_URL is not set")
		line.EndObject()
		return line.Bytes(), errors.New("WEBHOOK_URL is not set")
	}
	ctx, cancel := context.WithTimeout(ctx, watchRunTimeout)
	defer cancel()
	d := watch.Deps{
		Store: h.watchlist(cfg),
		Track: func(ctx context.Context, ref string) (envelope.ShipmentTracking, error) {
			return h.track(ctx, cfg, ref)
		},
		Post:  h.webhookDoer(),
		Clock: h.d.Now,
		Log:   h.watchLog,
	}
	rep, err := watch.Run(ctx, *cfg.Webhooks, d, at)
	if err != nil {
		line.String("webhooks run failed")
		line.Key("error")
		line.String(clip(err.Error(), 200))
	} else {
		line.String("webhooks run")
	}
	line.Key("run")
	emitReport(line, &rep)
	line.EndObject()
	return line.Bytes(), err
}

// watchLog writes the watcher's notes as log lines.
func (h *Handler) watchLog(msg string, fields ...any) {
	if h.d.Log == nil {
		return
	}
	w := jsonlite.NewWriter()
	w.BeginObject()
	w.Key("ts")
	w.String(h.d.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	w.Key("msg")
	w.String(msg)
	for i := 0; i+1 < len(fields); i += 2 {
		k, _ := fields[i].(string)
		w.Key(k)
		switch v := fields[i+1].(type) {
		case int:
			w.Int(int64(v))
		case string:
			w.String(v)
		default:
			w.Null()
		}
	}
	w.EndObject()
	_, _ = h.d.Log.Write(append(w.Bytes(), '\n'))
}

// track asks the service for a shipment's tracking, as an operation call
// would (credentials, timeout, the sandbox when configured). Its errors
// name neither the shipment nor the upstream: they go to the log.
func (h *Handler) track(ctx context.Context, cfg *Config, ref string) (envelope.ShipmentTracking, error) {
	r := (&http.Request{Method: http.MethodPost, URL: &url.URL{Path: "/v1/get-shipment-tracking"}, Header: http.Header{}}).WithContext(ctx)
	x := &exchange{h: h, r: r, id: "watch-" + h.d.NewID(), start: h.d.Now(), op: "get-shipment-tracking"}
	doer, base, e := x.target(cfg)
	if e != nil {
		return envelope.ShipmentTracking{}, errors.New(e.class)
	}
	q := &form.Request{}
	q.Set("dlvr_ref", ref)
	a := x.call(cfg, doer, base+"/get-shipment-tracking", form.Encode(q))
	switch {
	case a.err != nil && a.timeout:
		return envelope.ShipmentTracking{}, errors.New("upstream timeout")
	case a.err != nil:
		return envelope.ShipmentTracking{}, errors.New("upstream unreachable")
	case leaksSecret(cfg, a.body):
		return envelope.ShipmentTracking{}, errors.New("upstream answer withheld: it contained the credentials")
	}
	t, err := envelope.DecodeShipmentTracking(a.status, a.body)
	if err != nil {
		var api *envelope.APIError
		if errors.As(err, &api) {
			return t, errors.New("the service refused: errorCode " + strconv.Itoa(api.Code) + " (HTTP " + strconv.Itoa(a.status) + ")")
		}
		return t, errors.New("unreadable answer (HTTP " + strconv.Itoa(a.status) + ")")
	}
	return t, nil
}
