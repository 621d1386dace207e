// Package edgeclient is the Go client of the parcelgate edge worker, for a
// shop's server: one typed method per operation (GetShipmentsRates,
// NewShipment, ...), each taking the operation's generated Params struct
// and answering with its typed result, decoded by the same generated
// decoders the edge and the browser module use.
//
// A Client holds the edge's URL, an *http.Client of the caller's choosing
// and a bearer token (the master PROXY_TOKEN, which never leaves the
// shop's server, or a scoped token; see worker/tokens/README.md). Every call
// takes a context. Failures are *Error (errors.As), with the edge's code,
// class, field errors, request id and whether sending again is safe.
//
// Bookings (new-shipment, new-collection) follow the edge's resend rules
// (worker/src/platform/BOOKINGS.md): the body is encoded once;
// while the edge answers that the booking may be resent (retryable: a lost
// upstream answer, 425 booking_unconfirmed within the grace, 503
// booking_in_progress, 429) the identical body is sent again after the
// answer's Retry-After, at most MaxResends times, and never a different
// body under the same reference. The edge's booking ledger then answers
// with the first booking (Response.Replayed) or books once. Reads are not
// resent: the edge already retries them upstream.
//
// A reference longer than the edge accepts (MaxClientRefRunes for the
// shop's own, MaxRefRunes for the others, counted in characters after
// trimming as the edge counts them) is refused before sending: an *Error
// with Source SourceClient naming the field, with the edge's code.
//
// The edge's own parameters, which it reads and never forwards, are typed
// fields of the operations that take them: the cart's OrderValue of a
// rates request (the shop's pricing rules), the Offer and Point a booking
// is held to (worker/offers). WithNormalized asks for the edge's
// normalized data (Response.Normalized); the typed results are the same.
//
// The package imports internal/ (the form codec and the envelope) and
// re-exports the types a caller needs as aliases, so a shop never imports
// internal/.
package edgeclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
)

// Defaults of a Client.
const (
	// DefaultMaxResends is how many times a booking is resent while the
	// edge says it is retryable: a lost answer, then 425s until the grace
	// (120 s by default) is over, then the answer.
	DefaultMaxResends = 5
	// DefaultMaxWait caps one wait before a resend (a Retry-After longer
	// than this is an *Error for the caller to schedule).
	DefaultMaxWait = 3 * time.Minute
	// retryWithoutHeader is the wait when a retryable answer names none.
	retryWithoutHeader = time.Second
	// maxBody bounds what is read of an answer (a label is a few hundred KB).
	maxBody = 16 << 20
)

// Client calls the edge. Its zero value is not usable: use New. A Client
// is safe for concurrent use; With returns a copy with other options.
type Client struct {
	base       string // ".../v1"
	http       *http.Client
	token      string
	header     http.Header
	maxResends int
	maxWait    time.Duration
	normalized bool
	sleep      func(ctx context.Context, d time.Duration) error
}

// Option configures a Client (New, With).
type Option func(*Client)

// WithToken sends "Authorization: Bearer <token>": the master PROXY_TOKEN
// or a scoped token. Public operations need none.
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithHTTPClient sends through hc (timeouts, transport, proxies are the
// caller's); the default is http.DefaultClient, bounded only by the
// context of each call.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithHeader sends a header on every request, e.g. Accept-Language, the
// language of the edge's messages and field errors (seven languages).
// Accept is the Client's (see WithNormalized), Content-Type and
// Authorization (WithToken) too.
func WithHeader(name, value string) Option {
	return func(c *Client) { c.header.Set(name, value) }
}

// NormalizedAccept is the Accept a Client sends WithNormalized: the edge
// then answers an ok answer's data normalized by the core's decoder
// (numbers as numbers, flags as booleans, PHP's [] as {}; worker/HTTP.md,
// "Normalized data on request"), marked Parcelgate-Data: normalized. It
// is what @parcelgate/js's Client sends.
const NormalizedAccept = "application/json; parcelgate=normalized"

// WithNormalized(true) asks the edge for normalized data (NormalizedAccept)
// instead of the service's as received (Accept: application/json, the
// default). The typed results are the same either way: the generated
// decoders read both, so a typed call gains nothing by it. It is for
// Client.Call's undecoded data, to relay to a page that then needs no
// decoder: the data a browser's Client gets from its edge. For one call:
// c.With(edgeclient.WithNormalized(true)).Call(ctx, p).
func WithNormalized(on bool) Option { return func(c *Client) { c.normalized = on } }

// WithMaxResends sets how many times a booking is resent while the edge
// says it is retryable (0: never; the caller gets the *Error).
func WithMaxResends(n int) Option { return func(c *Client) { c.maxResends = n } }

// WithMaxWait caps the wait before one resend.
func WithMaxWait(d time.Duration) Option { return func(c *Client) { c.maxWait = d } }

// New returns a Client of the edge at baseURL ("https://ship.example" or
// ".../v1").
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("edgeclient: the base URL must be an absolute http(s) URL, got " + strconv.Quote(baseURL))
	}
	base := strings.TrimRight(baseURL, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	c := &Client{base: base, http: http.DefaultClient, header: http.Header{}, maxResends: DefaultMaxResends,
		maxWait: DefaultMaxWait, sleep: sleep}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// With returns a copy of c with opts applied (e.g. a scoped token for one
// order), sharing its *http.Client.
func (c *Client) With(opts ...Option) *Client {
	d := *c
	d.header = c.header.Clone()
	for _, o := range opts {
		o(&d)
	}
	return &d
}

// Response is a successful answer: the typed data and what the edge said
// about it.
type Response[T any] struct {
	Data T
	// Replayed is true when the edge answered a booking from its ledger
	// (Idempotent-Replayed: true): the booking was made before, by this
	// request's earlier send or another one with the same reference and data.
	Replayed bool
	// RequestID is the edge's X-Request-Id (give it to support).
	RequestID  string
	StatusCode int
	Header     http.Header
	// Body is the answer as received: {"status":"ok","data":...}.
	Body []byte
	// Attempts is how many times the request was sent (more than 1 for a
	// booking resent under the resend rules).
	Attempts int
	// Normalized is true when Body's data is the edge's normalized form
	// (Parcelgate-Data: normalized; asked for WithNormalized). A client that
	// asked may still get the service's data as received: data the
	// decoder refuses, and bookings replayed from the edge's ledger.
	Normalized bool
}

// Call calls the operation of p (any <Operation>Params) and answers with
// the data undecoded, as JSON: for relaying it to a page as it came, or
// for data the typed decoders would refuse. The resend rules apply as for
// the typed methods.
func (c *Client) Call(ctx context.Context, p Params) (*Response[json.RawMessage], error) {
	return call(ctx, c, p, func(status int, body []byte) (json.RawMessage, error) {
		env, err := envelope.Open(status, body) // send has opened it: an ok envelope
		return json.RawMessage(env.Data), err
	})
}

func add(r *form.Request, name, value string) {
	if value != "" {
		r.Fields = append(r.Fields, form.Field{Name: name, Value: value})
	}
}

// setExtra sets a booking's carrier-specific fields after the listed
// ones: a listed parameter's name replaces its value, but one of the
// edge's own (own: offer, point) may not contradict its typed field. Two
// values of the offer a booking is held to are a mistake the Client
// cannot settle by picking one: the edge refuses a repeated field
// (internal/form, "repeated field"), and the Client refuses the same
// before sending, naming the field.
func setExtra(op Operation, r *form.Request, extra []Field, own ...string) *Error {
	for _, f := range extra {
		for _, name := range own {
			if f.Name != name {
				continue
			}
			if v := r.Get(name); v != "" && strings.TrimSpace(v) != strings.TrimSpace(f.Value) {
				msg := "repeated field: " + strconv.Quote(name) + " is given both as a field of the parameters and in Extra, with another value"
				return &Error{Operation: op, Code: codeFormat, Class: "invalid_request", Source: SourceClient,
					Message:     name + ": " + msg + " (not sent)",
					FieldErrors: []FieldError{{Field: name, Code: codeFormat, Message: msg}}}
			}
		}
		r.Set(f.Name, f.Value)
	}
	return nil
}

// codeFormat is the code of the edge's refusal of a malformed form (a
// repeated field): internal/validate's CodeFormat.
const codeFormat = 400

// call sends p's operation (GET with a query for reads, POST with a form
// otherwise), decodes the answer and applies the resend rules to bookings.
func call[T any](ctx context.Context, c *Client, p Params, decode func(int, []byte) (T, error)) (*Response[T], error) {
	op := p.operation()
	req, e := p.request()
	if e != nil {
		return nil, e
	}
	if e := checkRefs(op, req, c.header); e != nil {
		return nil, e
	}
	body := form.Encode(req) // once: a resend is these bytes
	for attempt := 1; ; attempt++ {
		res, err := send(ctx, c, op, body, attempt, decode)
		if err == nil {
			return res, nil
		}
		var e *Error
		if !errors.As(err, &e) || !op.books() || !e.Retryable || attempt > c.maxResends {
			return nil, err
		}
		wait := e.RetryAfter
		if wait <= 0 {
			wait = retryWithoutHeader
		}
		if wait > c.maxWait {
			return nil, err
		}
		if serr := c.sleep(ctx, wait); serr != nil {
			e.Err = errors.Join(e.Err, serr)
			return nil, e
		}
	}
}

// send sends body once and reads the answer: the typed data, or an *Error.
func send[T any](ctx context.Context, c *Client, op Operation, body []byte, attempt int, decode func(int, []byte) (T, error)) (*Response[T], error) {
	fail := func(e *Error) (*Response[T], error) {
		e.Operation, e.Attempts = op, attempt
		return nil, e
	}
	target := c.base + "/" + string(op)
	method := http.MethodPost
	var rd io.Reader
	if op.read() {
		method = http.MethodGet
		if len(body) > 0 {
			target += "?" + string(body)
		}
	} else {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return fail(&Error{Class: ClassNetwork, Message: "the request could not be made", Err: err})
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	if c.normalized {
		req.Header.Set("Accept", NormalizedAccept)
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fail(&Error{Class: ClassCanceled, Message: "canceled: " + ctx.Err().Error(), Err: errors.Join(ctx.Err(), err)})
		}
		// A booking may have reached the edge: only the edge can say a
		// resend is safe, so a transport failure is not retryable for it.
		return fail(&Error{Class: ClassNetwork, Message: "the edge could not be reached", Retryable: !op.books(), Err: err})
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		if ctx.Err() != nil {
			return fail(&Error{Class: ClassCanceled, Message: "canceled: " + ctx.Err().Error(), HTTPStatus: res.StatusCode, Err: errors.Join(ctx.Err(), err)})
		}
		return fail(&Error{Class: ClassNetwork, Message: "the answer was cut off", HTTPStatus: res.StatusCode, Retryable: !op.books(), Err: err})
	}
	rid := res.Header.Get("X-Request-Id")
	retryAfter := parseRetryAfter(res.Header.Get("Retry-After"), time.Now())
	env, err := envelope.Open(res.StatusCode, b)
	if err != nil {
		e := &Error{HTTPStatus: res.StatusCode, Class: ClassUnexpectedResponse, Message: err.Error(), RequestID: rid, RetryAfter: retryAfter, Header: res.Header, Body: b, Err: err}
		var ue *envelope.UnexpectedResponse
		if errors.As(err, &ue) {
			e.Class = ue.Class()
		}
		return fail(e)
	}
	if env.Status != envelope.StatusOK {
		return fail(errorOf(res.StatusCode, res.Header, b, env.Data, rid, retryAfter))
	}
	data, err := decode(res.StatusCode, b)
	if err != nil {
		return fail(&Error{HTTPStatus: res.StatusCode, Class: ClassUnexpectedResponse, Message: err.Error(), RequestID: rid, Header: res.Header, Body: b, Err: err})
	}
	return &Response[T]{Data: data, Replayed: res.Header.Get("Idempotent-Replayed") == "true", RequestID: rid,
		StatusCode: res.StatusCode, Header: res.Header, Body: b, Attempts: attempt,
		Normalized: res.Header.Get("Parcelgate-Data") == "normalized"}, nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// parseRetryAfter reads Retry-After: seconds, or an HTTP date; 0 when
// absent or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now).Round(time.Second)
	}
	return 0
}
