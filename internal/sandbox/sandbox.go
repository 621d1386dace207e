// Package sandbox is a faithful, stateful implementation of the shipping
// service's thirteen operations, as an http.Handler: parcelgate's test
// mode. Shops develop their checkout against it, offline and without real
// credentials.
//
// It serves POST /v1/<operation> with a form body and, for the read
// operations, GET /v1/<operation>?<query> (the path without /v1 works
// too), answers with the {status, data} envelope and the response shapes
// of the spec, and keeps its state (shipments, collections) behind a small
// Store (in memory here; the sandbox worker, ./worker, backs it with
// Cloudflare KV).
//
// The handler needs no network, no file system, no background goroutine
// and no timer: every request is served from the Store and the injected
// clock alone, so a fresh instance per request (as under workerd) behaves
// like a long-running one.
//
// # Authentication
//
// Every request needs HTTP Basic authentication with the configured user
// and key (WithCredentials; default DefaultUser / DefaultKey). Missing or
// wrong credentials get HTTP 401 with a WWW-Authenticate: Basic header and
// {"status":"err","data":{"errorCode":401,"errorMessage":"..."}}. 401 is not
// in the spec's error table, on purpose: it cannot be mistaken for a
// carrier rejection.
//
// # Errors the spec leaves open
//
//   - Unknown operation: HTTP 404, errorCode 400.
//   - Method not allowed (GET on new-shipment or new-collection, or any
//     method but GET and POST): HTTP 405 with an Allow header, errorCode 400.
//   - Missing or malformed parameter: HTTP 400, errorCode = the field's code
//     in the catalog (e.g. 421 shipping_client_ref, 484 to_zip_code, 400
//     when the spec has none), errorMessage "<field>: <reason>", and
//     data.field naming the field. Only the first invalid field is
//     reported, as the service does.
//   - Unknown reference (dlvr_ref, carrier reference, client reference,
//     shipping_dlvr_ref of new-collection): HTTP 404, errorCode 400,
//     data.field naming the parameter.
//   - Carrier rejections (101-119, 421, 432, 469...): HTTP 400 with the code.
//   - A Store failure: HTTP 500, errorCode 999.
//
// # Repeated client references (no double booking)
//
// shipping_client_ref and collection_client_ref are idempotency keys. A
// repeated new-shipment with the same client reference and the same
// normalized data (same fields and parcels, in any order) returns the
// first booking's data again, with the same references, and books
// nothing. The same reference with different data is refused with 421.
// new-collection behaves the same way with collection_client_ref; a
// shipment takes one collection (a second one, with another reference,
// gets 400 on shipping_dlvr_ref).
//
// # Time
//
// The clock is injected (WithClock). Spain's civil time (CET/CEST) decides
// "today" and hours; working days skip weekends and national holidays.
// Tracking is computed from the booking and the clock, deterministically
// per shipment: WithTimeScale speeds it up for demos (a factor of 3600
// makes a day pass in 24 seconds), and WithClockHeader lets a request set
// the clock with X-Sandbox-Now: <RFC 3339 time> (tests, end-to-end runs).
package sandbox

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Default credentials of a sandbox made without WithCredentials.
const (
	DefaultUser = "sandbox"
	DefaultKey  = "sandbox-key"
)

// HeaderNow is the request header that sets the clock for one request when
// WithClockHeader is on: an RFC 3339 time, e.g. 2026-05-12T10:00:00+02:00.
const HeaderNow = "X-Sandbox-Now"

// MaxBodyBytes is the largest request body read.
const MaxBodyBytes = 1 << 20

// Sandbox is the sandbox service. It implements http.Handler and is safe
// for concurrent use when its Store is.
type Sandbox struct {
	store       Store
	user, key   string
	now         func() time.Time
	scale       float64
	clockHeader bool
	rules       bool
	trackingURL string
	fault       Fault
	sleep       func(time.Duration)
}

// Option configures a Sandbox.
type Option func(*Sandbox)

// WithStore sets the Store (default: a new MemoryStore).
func WithStore(s Store) Option { return func(sb *Sandbox) { sb.store = s } }

// WithCredentials sets the Basic auth user and API key.
func WithCredentials(user, key string) Option {
	return func(sb *Sandbox) { sb.user, sb.key = user, key }
}

// WithClock sets the clock (default time.Now).
func WithClock(now func() time.Time) Option { return func(sb *Sandbox) { sb.now = now } }

// WithTimeScale makes tracking advance factor times faster than the clock
// (default 1). Events keep their scheduled dates; they become visible
// sooner.
func WithTimeScale(factor float64) Option {
	return func(sb *Sandbox) {
		if factor > 0 {
			sb.scale = factor
		}
	}
}

// WithClockHeader lets requests set the clock with the X-Sandbox-Now
// header (off by default).
func WithClockHeader(on bool) Option { return func(sb *Sandbox) { sb.clockHeader = on } }

// WithRules turns the carrier-selection rules feature on for the account.
func WithRules(on bool) Option { return func(sb *Sandbox) { sb.rules = on } }

// WithTrackingURL sets the prefix of advance_tracking_url; the dlvr_ref is
// appended (default "https://track.sandbox.parcelgate.example/").
func WithTrackingURL(prefix string) Option { return func(sb *Sandbox) { sb.trackingURL = prefix } }

// New returns a sandbox.
func New(opts ...Option) *Sandbox {
	sb := &Sandbox{
		user:        DefaultUser,
		key:         DefaultKey,
		now:         time.Now,
		scale:       1,
		trackingURL: "https://track.sandbox.parcelgate.example/",
	}
	for _, o := range opts {
		o(sb)
	}
	if sb.store == nil {
		sb.store = NewMemoryStore()
	}
	return sb
}

// apiError is an error response.
type apiError struct {
	HTTP    int
	Code    int
	Message string
	Field   string
}

func (e *apiError) Error() string { return e.Message }

func fail(http, code int, field, msg string) *apiError {
	if field != "" {
		msg = field + ": " + msg
	}
	return &apiError{HTTP: http, Code: code, Message: msg, Field: field}
}

func rejected(code int, field, msg string) *apiError {
	return fail(http.StatusBadRequest, code, field, msg)
}

func notFound(field, msg string) *apiError { return fail(http.StatusNotFound, 400, field, msg) }

func storeFailed(err error) *apiError {
	return &apiError{HTTP: http.StatusInternalServerError, Code: 999, Message: "unexpected error: storage: " + err.Error()}
}

// call is one request being served.
type call struct {
	sb  *Sandbox
	ctx context.Context
	now time.Time // the clock, UTC
	op  *catalog.Operation
	req *form.Request
}

// ServeHTTP implements http.Handler.
func (sb *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !sb.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="parcelgate sandbox", charset="UTF-8"`)
		writeError(w, &apiError{HTTP: http.StatusUnauthorized, Code: 401, Message: "authentication required: send HTTP Basic credentials (user and API key)"})
		return
	}
	if sb.applyFault(w, r) {
		return
	}
	name := strings.TrimSuffix(r.URL.Path, "/")
	name = strings.TrimPrefix(name, "/v1")
	if !strings.HasPrefix(name, "/") || strings.Count(name, "/") != 1 {
		writeError(w, &apiError{HTTP: http.StatusNotFound, Code: 400, Message: "unknown operation: the path is /v1/<operation>"})
		return
	}
	name = name[1:]
	op := catalog.Lookup(name)
	if op == nil {
		writeError(w, &apiError{HTTP: http.StatusNotFound, Code: 400, Message: "unknown operation " + quoteName(name)})
		return
	}
	allowed := r.Method == http.MethodPost || (r.Method == http.MethodGet && op.Read)
	if !allowed {
		w.Header().Set("Allow", strings.Join(op.Methods(), ", "))
		writeError(w, &apiError{HTTP: http.StatusMethodNotAllowed, Code: 400, Message: "method " + r.Method + " not allowed for " + op.Name + "; use " + strings.Join(op.Methods(), " or ")})
		return
	}
	var raw string
	if r.Method == http.MethodGet {
		raw = r.URL.RawQuery
	} else {
		b, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil {
			writeError(w, &apiError{HTTP: http.StatusBadRequest, Code: 400, Message: "cannot read the request body: " + err.Error()})
			return
		}
		if len(b) > MaxBodyBytes {
			writeError(w, &apiError{HTTP: http.StatusRequestEntityTooLarge, Code: 400, Message: "request body larger than 1 MiB"})
			return
		}
		raw = string(b)
	}
	req, err := decodeForm(raw)
	if err != nil {
		writeError(w, err)
		return
	}
	now := sb.now()
	if sb.clockHeader {
		if h := r.Header.Get(HeaderNow); h != "" {
			t, perr := time.Parse(time.RFC3339, h)
			if perr != nil {
				writeError(w, &apiError{HTTP: http.StatusBadRequest, Code: 400, Message: HeaderNow + ": not an RFC 3339 time"})
				return
			}
			now = t
		}
	}
	c := &call{sb: sb, ctx: r.Context(), now: now.UTC(), op: op, req: req}
	out, aerr := c.serve()
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeOK(w, out)
}

func quoteName(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	return string(jsonlite.AppendString(nil, s))
}

// authorized checks Basic credentials in constant time.
func (sb *Sandbox) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	const prefix = "Basic "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(h[len(prefix):]))
	if err != nil {
		return false
	}
	user, key, ok := strings.Cut(string(raw), ":")
	if !ok {
		return false
	}
	u := subtle.ConstantTimeCompare([]byte(user), []byte(sb.user))
	k := subtle.ConstantTimeCompare([]byte(key), []byte(sb.key))
	return u&k == 1
}

func (c *call) serve() (jsonlite.Value, *apiError) {
	if errs := validate.Request(c.op, c.req, validate.Options{Rules: c.sb.rules}, nil); len(errs) > 0 {
		e := errs[0]
		return nil, rejected(e.Code, e.Field, e.Message)
	}
	validate.Normalize(c.op, c.req)
	switch c.op.Name {
	case "get-client-carriers":
		return c.clientCarriers()
	case "get-client-services":
		return c.clientServices()
	case "get-shipments-rates":
		return c.rates()
	case "get-shipment-time-arrival-estimation":
		return c.arrival()
	case "get-service-info":
		return c.serviceInfo()
	case "get-drop-points":
		return c.dropPoints()
	case "new-shipment":
		return c.newShipment()
	case "get-collection-cutoff-hour":
		return c.cutoff()
	case "new-collection":
		return c.newCollection()
	case "get-shipment-label":
		return c.label()
	case "get-shipment":
		return c.shipment()
	case "get-shipments":
		return c.shipments()
	case "get-shipment-tracking":
		return c.tracking()
	}
	return nil, &apiError{HTTP: http.StatusNotFound, Code: 400, Message: "unknown operation " + quoteName(c.op.Name)}
}

// get returns a normalized parameter.
func (c *call) get(name string) string { return c.req.Get(name) }

// emitFunc adapts a function to jsonlite.Value.
type emitFunc func(e jsonlite.Emitter)

func (f emitFunc) EmitTo(e jsonlite.Emitter) { f(e) }

func writeOK(w http.ResponseWriter, data jsonlite.Value) {
	writeJSON(w, http.StatusOK, envelope.MarshalOK(data))
}

// writeError answers with the service's error body (envelope.ErrorData);
// an error that is not an *apiError is the service's 999.
func writeError(w http.ResponseWriter, err error) {
	e, ok := err.(*apiError)
	if !ok {
		e = &apiError{HTTP: http.StatusInternalServerError, Code: 999, Message: "unexpected error: " + err.Error()}
	}
	writeJSON(w, e.HTTP, envelope.MarshalErr(&envelope.ErrorData{Code: e.Code, Message: e.Message, Field: e.Field}))
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}
