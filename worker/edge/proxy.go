package edge

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/i18n"
	"github.com/parcelgate/parcelgate/internal/leak"
	"github.com/parcelgate/parcelgate/internal/validate"
)

// Retries of read operations: after a transport failure or an upstream
// 5xx, wait then try again, at most len(readBackoff) more times.
var readBackoff = [...]time.Duration{100 * time.Millisecond, 400 * time.Millisecond}

// readForm reads and decodes the request's form (the query of a GET, the
// body of a POST, never both); on failure it has answered and returns nil.
func (x *exchange) readForm(cfg *Config) *form.Request {
	if e := queryOnPost(x.r); e != nil {
		x.fail(e)
		return nil
	}
	raw, e := x.readInput(cfg)
	if e != nil {
		x.fail(e)
		return nil
	}
	req, fe := decodeForm(raw, cfg)
	if fe != nil {
		x.fail(invalid([]validate.FieldError{*fe}))
		return nil
	}
	return req
}

// proxy decodes, validates and forwards one operation call.
func (x *exchange) proxy(cfg *Config, op *catalog.Operation) {
	req := x.readForm(cfg)
	if req == nil {
		return
	}
	today := x.h.d.Now().UTC().Add(-12 * time.Hour).Format("2006-01-02")
	// Messages in the shopper's language (Accept-Language, English when
	// none matches); errorCode and field names are the same in all.
	locale := i18n.FromAcceptLanguage(x.r.Header.Get("Accept-Language"))
	errs := validate.Request(op, req, validate.Options{Rules: cfg.Rules, Today: today, Locale: locale}, nil)
	if len(errs) > 0 {
		x.fail(invalid(errs))
		return
	}
	validate.Normalize(op, req)
	validate.Canonicalize(op, req)
	if x.scope != nil {
		once, dlvr := false, ""
		booked := func() string {
			if !once {
				once, dlvr = true, x.bookedDlvrRef(cfg, x.scope.ShippingClientRef)
			}
			return dlvr
		}
		if e := scopeError(x.scope, op, req, booked); e != nil {
			x.fail(e)
			return
		}
		// A page's booking goes through the booking records or not at
		// all: they make a resent booking answer the first one, so a
		// token bound to one reference books one shipment or one pickup.
		// Without them the master token on the shop's server may still
		// book (it decides), a page may not.
		if op.Books && !x.exactlyOnce(cfg) {
			x.fail(&edgeError{status: http.StatusForbidden, code: CodeForbidden, class: "forbidden",
				message: "a scoped token books only with booking records (" + EnvExactlyOnce + "=true and the BOOKINGS binding), which make a resend answer the first booking; book from the shop's server with PROXY_TOKEN"})
			return
		}
	}
	body := form.Encode(req)
	if ttl := cfg.CacheTTL[op.Name]; ttl > 0 {
		x.cached(cfg, op, req, body, ttl)
		return
	}
	if op.Books && x.exactlyOnce(cfg) {
		x.booked(cfg, op, req, body)
		return
	}
	x.forward(cfg, op, req, body)
}

// cached answers a cacheable read from the in-instance cache, a flight
// already under way, the shared cache or, failing those, the upstream,
// and stores an ok answer in both tiers.
func (x *exchange) cached(cfg *Config, op *catalog.Operation, req *form.Request, body []byte, ttl time.Duration) {
	key := cacheKey(cfg, op, body)
	c := x.h.cache
	if b, ok := c.get(key, x.h.d.Now()); ok {
		x.hit(b)
		return
	}
	f, lead := c.join(key)
	if !lead {
		select {
		case <-f.done:
		case <-x.r.Context().Done():
		}
		if f.body != nil {
			x.hit(f.body)
			return
		}
		// The call it waited for gave no ok answer: try on its own.
		x.w.Header().Set("X-Cache", "MISS")
		x.forward(cfg, op, req, body)
		return
	}
	var ok []byte
	defer func() { c.land(key, f, ok) }()
	if sh := x.h.d.Shared; sh != nil {
		if b, expires, found := sh.Get(x.r.Context(), key); found {
			ok = b
			c.put(key, b, expires)
			x.hit(b)
			return
		}
	}
	x.w.Header().Set("X-Cache", "MISS")
	ok = x.forward(cfg, op, req, body)
	if ok != nil {
		c.put(key, ok, x.h.d.Now().Add(ttl))
		if sh := x.h.d.Shared; sh != nil {
			sh.Put(x.r.Context(), key, ok, ttl)
		}
	}
}

// hit answers with a cached ok envelope.
func (x *exchange) hit(body []byte) {
	x.w.Header().Set("X-Cache", "HIT")
	x.okData(body)
}

// invalid is the 400 answer to a request that failed decoding or
// validation: the first error as errorCode/errorMessage, all in errors.
func invalid(errs []validate.FieldError) *edgeError {
	first := errs[0]
	msg := first.Message
	if first.Field != "" {
		msg = first.Field + ": " + first.Message
	}
	return &edgeError{status: http.StatusBadRequest, code: first.Code, class: "invalid_request",
		message: msg, fieldErrors: errs}
}

// readInput returns the form-encoded input: the query string of a GET,
// the body of a POST, both bounded by MAX_BODY_BYTES on the bytes
// actually read (Content-Length is only used to refuse early).
func (x *exchange) readInput(cfg *Config) ([]byte, *edgeError) {
	r := x.r
	tooLarge := &edgeError{status: http.StatusRequestEntityTooLarge, code: CodeTooLarge, class: "too_large",
		message: "request larger than MAX_BODY_BYTES (" + strconv.Itoa(cfg.MaxBodyBytes) + " bytes)"}
	if r.Method == http.MethodGet {
		q := r.URL.RawQuery
		x.bytesIn = len(q)
		if len(q) > cfg.MaxBodyBytes {
			return nil, tooLarge
		}
		return []byte(q), nil
	}
	if r.ContentLength > int64(cfg.MaxBodyBytes) {
		return nil, tooLarge
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/x-www-form-urlencoded" {
			return nil, &edgeError{status: http.StatusUnsupportedMediaType, code: CodeUnsupportedType, class: "unsupported_media_type",
				message: "send the parameters as application/x-www-form-urlencoded (got " + strconv.Quote(clip(ct, 64)) + ")"}
		}
	}
	if r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, int64(cfg.MaxBodyBytes)+1))
	x.bytesIn = len(b)
	if err != nil {
		return nil, &edgeError{status: http.StatusBadRequest, code: CodeBadRequest, class: "bad_body",
			message: "could not read the request body"}
	}
	if len(b) > cfg.MaxBodyBytes {
		return nil, tooLarge
	}
	return b, nil
}

// attempt is the outcome of one upstream call.
type attempt struct {
	status  int
	body    []byte
	err     error // transport failure
	timeout bool
}

// forward sends the encoded request upstream (retrying reads) and relays
// or maps the answer. It returns the body when it relayed an ok envelope.
func (x *exchange) forward(cfg *Config, op *catalog.Operation, req *form.Request, body []byte) []byte {
	doer, base, e := x.target(cfg)
	if e != nil {
		x.fail(e)
		return nil
	}
	url := base + "/" + op.Name

	var a attempt
	x.h.retries.deposit()
	for i := 0; ; i++ {
		a = x.call(cfg, doer, url, body)
		// Reads are retried within the budget (a share of the reads), so
		// a failing upstream does not get three times the traffic.
		if op.Books || i >= len(readBackoff) || !retryable(&a) || !x.h.retries.withdraw() {
			break
		}
		if x.h.d.Sleep(x.r.Context(), readBackoff[i]) != nil {
			break
		}
	}
	return x.relay(cfg, op, req, &a)
}

// target returns the Doer and base URL requests go to: the configured
// upstream, or the sandbox.
func (x *exchange) target(cfg *Config) (Doer, string, *edgeError) {
	if cfg.UpstreamBase != "" {
		if x.h.d.Upstream == nil {
			return nil, "", misconfig([]ConfigError{{EnvUpstreamBaseURL, "set, but this build has no HTTP transport"}})
		}
		return x.h.d.Upstream, cfg.UpstreamBase, nil
	}
	if x.h.d.Sandbox == nil {
		return nil, "", misconfig([]ConfigError{{EnvUpstreamBaseURL, noSandbox}})
	}
	doer, err := x.h.d.Sandbox(x.r.Context(), SandboxOptions{User: cfg.APIUser, Key: cfg.APIKey,
		Rules: cfg.Rules, TimeScale: cfg.SandboxTimeScale, Now: x.h.d.Now})
	if err != nil {
		return nil, "", &edgeError{status: http.StatusInternalServerError, code: CodeMisconfigured, class: "misconfigured",
			message: "sandbox unavailable: " + err.Error()}
	}
	return doer, SandboxBaseURL, nil
}

// retryable: transport failures other than a timeout (which already used
// the time budget), and 5xx answers.
func retryable(a *attempt) bool {
	if a.err != nil {
		return !a.timeout
	}
	return a.status >= 500
}

// call makes one upstream request under the timeout.
func (x *exchange) call(cfg *Config, doer Doer, url string, body []byte) attempt {
	ctx, cancel := context.WithTimeout(x.r.Context(), cfg.Timeout)
	defer cancel()
	t0 := x.h.d.Now()
	defer func() { x.upstream.dur += x.h.d.Now().Sub(t0) }()
	x.upstream.attempts++

	up, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return attempt{err: err}
	}
	// Only what the upstream needs: never the client's headers.
	up.Header.Set("Authorization", basicAuth(cfg.APIUser, cfg.APIKey))
	up.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	up.Header.Set("Accept", "application/json")
	up.Header.Set("User-Agent", "parcelgate-edge/1")
	up.Header.Set("X-Request-Id", x.id)
	up.ContentLength = int64(len(body))

	res, err := doer.Do(up)
	if err != nil {
		return attempt{err: err, timeout: isTimeout(ctx, err)}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, MaxUpstreamBody+1))
	x.upstream.status = res.StatusCode
	if err != nil {
		return attempt{status: res.StatusCode, err: err, timeout: isTimeout(ctx, err)}
	}
	if len(b) > MaxUpstreamBody {
		return attempt{status: res.StatusCode, err: errors.New("response larger than " + strconv.Itoa(MaxUpstreamBody) + " bytes")}
	}
	return attempt{status: res.StatusCode, body: b}
}

func isTimeout(ctx context.Context, err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return true
	}
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

// relay answers the client from the upstream's answer. It returns the body
// when it relayed an ok envelope.
func (x *exchange) relay(cfg *Config, op *catalog.Operation, req *form.Request, a *attempt) []byte {
	retry := 1
	hint := ""
	if op.Books {
		// A resend is safe only where the ledger makes bookings exactly-once.
		if !x.exactlyOnce(cfg) {
			retry = 2
		}
		hint = x.bookingHint(cfg, op, req)
	}
	if a.err != nil {
		if a.timeout {
			x.fail(&edgeError{status: http.StatusGatewayTimeout, code: CodeGatewayTimeout, class: "upstream_timeout",
				message:        "the upstream did not answer within " + strconv.FormatInt(cfg.Timeout.Milliseconds(), 10) + " ms (UPSTREAM_TIMEOUT_MS)",
				upstreamStatus: a.status, retryable: retry, hint: hint})
			return nil
		}
		// A fixed message: the transport's error names the upstream's
		// URL and address; the details go to the log line only.
		x.detail = clip(a.err.Error(), 300)
		msg := "the upstream could not be reached"
		if a.status != 0 {
			msg = "the upstream's response (HTTP " + strconv.Itoa(a.status) + ") could not be read"
		}
		x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: "upstream_unreachable",
			message: msg, upstreamStatus: a.status, retryable: retry, hint: hint})
		return nil
	}
	st := strconv.Itoa(a.status)
	if leaksSecret(cfg, a.body) {
		// Never relay the merchant's credentials, whatever the upstream
		// (or something between) echoed: not the body, not its data.
		x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: "upstream_leak",
			message:        "the upstream's answer (HTTP " + st + ") contained the worker's credentials and was withheld",
			upstreamStatus: a.status, retryable: retry, hint: hint})
		return nil
	}
	status, data, reason := sniffEnvelope(a.body)
	if status == "ok" && (a.status < 200 || a.status >= 300) && reason == "" {
		// An ok envelope under an error status is not a success: a 5xx
		// may or may not have done the work.
		x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: "upstream_error",
			message:        "the upstream answered HTTP " + st + " with an ok envelope; it may or may not have been applied",
			upstreamStatus: a.status, upstreamData: data, retryable: retry, hint: hint})
		return nil
	}
	switch {
	case reason != "":
		class := "upstream_bad_response"
		if a.status >= 500 {
			class = "upstream_error"
		}
		x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: class,
			message:        "the upstream answered HTTP " + st + " with " + reason + " instead of a {status, data} envelope",
			upstreamStatus: a.status, retryable: retry, hint: hint})
	case status == "ok":
		if catalog.PolicyOf(op.Name).Watched {
			x.watchBooked(cfg, data)
		}
		x.okData(a.body)
		return a.body
	case a.status == 401 || a.status == 403 || a.status == 407:
		// No upstream data: an auth failure's details are for the
		// merchant's logs, not for whoever called.
		x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: "upstream_auth",
			message:        "the upstream refused the worker's credentials (HTTP " + st + "): check the API_USER and API_KEY secrets",
			upstreamStatus: a.status})
	case a.status >= 500:
		x.fail(&edgeError{status: http.StatusBadGateway, code: CodeBadGateway, class: "upstream_error",
			message:        "the upstream failed (HTTP " + st + ")" + upstreamMessage(data),
			upstreamStatus: a.status, upstreamData: data, retryable: retry, hint: hint})
	default:
		// A refusal by the service (status "err"): relayed as is, with the
		// upstream's status (200 when it used a 1xx/3xx one).
		code := a.status
		if code < 200 || code >= 300 && code < 400 {
			code = http.StatusOK
		}
		x.respond(code, a.body)
	}
	return nil
}

// leaksSecret reports whether body contains API_KEY, "API_USER:API_KEY"
// or the base64 of either, as it is or spelled with JSON escapes
// ("\/", "\u0064"): internal/leak.
func leaksSecret(cfg *Config, body []byte) bool {
	return leak.New(cfg.APIUser, cfg.APIKey).Leaks(body)
}

// bookingHint tells the client what to do when a booking's answer was
// lost: it may have been made. What is safe depends on the mode.
func (x *exchange) bookingHint(cfg *Config, op *catalog.Operation, req *form.Request) string {
	ref := bookingRef(op)
	if x.exactlyOnce(cfg) {
		if op.Name != "new-shipment" {
			return "the collection may have been booked, and the service offers no way to look it up: a resend with this " + ref +
				" is answered 409 and never books twice; check the customer area, then book with a new reference"
		}
		grace := strconv.FormatInt(int64(cfg.BookingGrace/time.Second), 10)
		return "the shipment may have been booked, and the upstream may still be committing it. Resend the same request (same " + ref +
			", same data) after Retry-After: for " + grace + " s after the booking was sent (BOOKING_GRACE_SECONDS) a resend is answered 425 " +
			"(errorCode 1425) and sends nothing; after that the edge looks the booking up and answers with it, or books it if it is not there, " +
			"and never books twice. A shipment found with this " + ref + " but other data is answered 409 (errorCode 421), never adopted"
	}
	if cfg.UpstreamBase == "" {
		return "resending the same " + ref + " with the same data is answered with the first booking (the sandbox dedupes by reference)"
	}
	if op.Name == "new-shipment" {
		return "do not resend blindly: the shipment may have been booked; look it up with get-shipments?filter_shipping_client_ref=" +
			req.Get("shipping_client_ref") + " and book again only if it is not there"
	}
	return "do not resend blindly: the collection may have been booked; check the customer area before booking again"
}

// upstreamMessage formats the upstream's errorCode/errorMessage, if any,
// read by envelope.ParseErrorData.
func upstreamMessage(data []byte) string {
	if data == nil {
		return ""
	}
	d, _ := envelope.ParseErrorData(data) // what could be read
	msg := d.Message
	if msg == "" {
		msg = d.AltMessage
	}
	code := ""
	if d.Code != 0 {
		code = strconv.Itoa(d.Code)
	}
	switch {
	case code != "" && msg != "":
		return ": " + code + " " + clip(msg, 200)
	case msg != "":
		return ": " + clip(msg, 200)
	case code != "":
		return ": error " + code
	}
	return ""
}

// sniffEnvelope checks with envelope.Open that body is a {status, data}
// envelope and returns its status and the raw JSON of data; reason says
// what came instead ("an empty body", "an HTML page", ...).
func sniffEnvelope(body []byte) (status string, data []byte, reason string) {
	env, err := envelope.Open(0, body)
	if err != nil {
		if u, ok := err.(*envelope.UnexpectedResponse); ok {
			return "", nil, u.Reason
		}
		return "", nil, "malformed JSON"
	}
	if env.Data == nil {
		return "", nil, "JSON without data"
	}
	return env.Status, env.Data, ""
}
