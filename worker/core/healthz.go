package core

import (
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Instance describes what serves the isolate, for /healthz.
type Instance struct {
	ID          string
	Requests    int64
	MemoryBytes int64
}

// WatchStats are the watchlist's counts (worker/src reads them from the
// WATCHLIST object); LastRun is its last run's report as JSON, nil before
// the first.
type WatchStats struct {
	Watched, Pending   int64
	Delivered, Dropped int64
	LastRun            []byte
	LastRunAt          string // RFC 3339; "" before the first run
	// CountsHidden: only LastRunAt was read (not for the master token).
	CountsHidden bool
}

// Health is what /healthz reports besides the configuration.
type Health struct {
	Method         string
	Authorization  string
	RequestID      string
	AcceptLanguage string
	Instance       *Instance
	RatePublic     bool
	RateTokens     bool
	RateAnonymous  bool
	CacheEntries   int64
	CacheBytes     int64
	// Webhooks: the watchlist's counts (nil when webhooks are off or they
	// were not read); StatsError when they could not be read.
	Stats      *WatchStats
	StatsError string
}

// Healthz answers GET /healthz. The watcher's counts (the shop's order
// volume) only with the master token; anyone else gets when it last ran,
// for liveness probes.
func (e *Edge) Healthz(h *Health) *Response {
	r := &Request{Method: h.Method, RequestID: h.RequestID, AcceptLanguage: h.AcceptLanguage, Authorization: h.Authorization}
	if h.Method != "GET" {
		return e.methodNotAllowed(r, "healthz", "GET")
	}
	// Every problem at once: the secrets' ones a variable not named yet.
	errs := e.errs
	for _, p := range secretProblems(&e.cfg) {
		named := false
		for _, x := range errs {
			named = named || x.Var == p.Var
		}
		if !named {
			errs = append(errs[:len(errs):len(errs)], p)
		}
	}
	if len(errs) > 0 {
		return e.misconfigFor(errs, r)
	}
	upstream := "sandbox"
	if e.cfg.UpstreamBase != "" {
		upstream = "remote"
	}
	body := okObject(func(w jsonlite.Emitter) {
		jsonlite.StringMember(w, "service", "parcelgate-edge")
		jsonlite.StringMember(w, "upstream", upstream)
		if in := h.Instance; in != nil {
			w.Key("instance")
			w.BeginObject()
			jsonlite.StringMember(w, "id", in.ID)
			jsonlite.IntMember(w, "requests", in.Requests)
			jsonlite.IntMember(w, "memory_bytes", in.MemoryBytes)
			w.EndObject()
		}
		w.Key("rate_limits")
		w.BeginObject()
		for _, b := range [...]struct {
			name string
			on   bool
		}{{RateLimitPublic, h.RatePublic}, {RateLimitAnonymous, h.RateAnonymous}, {RateLimitTokens, h.RateTokens}} {
			w.Key(b.name)
			if b.on {
				w.String("on")
			} else {
				w.String("off (no binding: no limit)")
			}
		}
		w.EndObject()
		w.Key("cache")
		w.BeginObject()
		jsonlite.IntMember(w, "entries", h.CacheEntries)
		jsonlite.IntMember(w, "bytes", h.CacheBytes)
		w.EndObject()
		// Whether a resend can book twice, and until when an upgrade's
		// earlier records are read: what an operator checks after a deploy.
		w.Key("bookings")
		w.BeginObject()
		w.Key("exactly_once")
		w.Bool(e.ledger())
		if e.cfg.BookingsLegacyUntil > 0 {
			w.Key("legacy_until")
			w.String(isoDate(e.cfg.BookingsLegacyUntil/1000 - 1))
		}
		w.EndObject()
		e.emitWebhooks(h, w)
	})
	return ok(body, "healthz")
}

func (e *Edge) emitWebhooks(h *Health, w jsonlite.Emitter) {
	w.Key("webhooks")
	if e.cfg.Webhooks == nil {
		w.String("off")
		return
	}
	w.BeginObject()
	s := h.Stats
	if h.StatsError != "" || s == nil {
		w.Key("error")
		w.String("the watchlist could not be reached")
		w.EndObject()
		return
	}
	if !e.IsMaster(h.Authorization) || s.CountsHidden {
		w.Key("last_run_at")
		if s.LastRunAt == "" {
			w.Null()
		} else {
			w.String(s.LastRunAt)
		}
		w.Key("counts")
		w.String("with the master token (Authorization: Bearer PROXY_TOKEN)")
		w.EndObject()
		return
	}
	for _, kv := range [...]struct {
		k string
		v int64
	}{{"watched", s.Watched}, {"pending", s.Pending}, {"delivered", s.Delivered}, {"dropped", s.Dropped}} {
		w.Key(kv.k)
		w.Int(kv.v)
	}
	w.Key("last_run")
	if s.LastRun == nil {
		w.Null()
	} else {
		w.Raw(s.LastRun)
	}
	w.EndObject()
}
