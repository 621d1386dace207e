package sandbox

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Faults on demand (issue 31): a shop tests its checkout against a slow
// or failing carrier API. Only the sandbox honours them; the edge passes
// a client's Sandbox-Fault header on only to the sandbox (never to a real
// upstream).

// HeaderFault is the request header that asks for a fault:
// "delay=9000" (milliseconds, then the normal answer), "status=503" (an
// error envelope with that HTTP status), "drop" (the connection is cut:
// no answer), or a delay with one of the others ("delay=3000,drop").
const HeaderFault = "Sandbox-Fault"

// MaxFaultDelay bounds a fault's delay.
const MaxFaultDelay = 60 * time.Second

// Fault is a parsed Sandbox-Fault value.
type Fault struct {
	Delay  time.Duration
	Status int // 0: none
	Drop   bool
}

// ParseFault reads a fault; the error says what is wrong, in the
// header's terms.
func ParseFault(v string) (Fault, error) {
	var f Fault
	for _, part := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "", "none":
		case "delay":
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil || n < 0 || time.Duration(n)*time.Millisecond > MaxFaultDelay {
				return Fault{}, fail(http.StatusBadRequest, 400, "", HeaderFault+": delay must be a whole number of milliseconds from 0 to 60000")
			}
			f.Delay = time.Duration(n) * time.Millisecond
		case "status":
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil || n < 400 || n > 599 {
				return Fault{}, fail(http.StatusBadRequest, 400, "", HeaderFault+": status must be an HTTP status from 400 to 599")
			}
			f.Status = n
		case "drop":
			f.Drop = true
		default:
			return Fault{}, fail(http.StatusBadRequest, 400, "", HeaderFault+": "+strconv.Quote(part)+" is not delay=<ms>, status=<code> or drop")
		}
	}
	if f.Drop && f.Status != 0 {
		return Fault{}, fail(http.StatusBadRequest, 400, "", HeaderFault+": drop and status exclude each other")
	}
	return f, nil
}

// WithFault sets the fault of every request without a Sandbox-Fault
// header (the sandbox worker's SANDBOX_FAULT); "" for none.
func WithFault(f Fault) Option { return func(sb *Sandbox) { sb.fault = f } }

// WithSleep replaces time.Sleep for a fault's delay (tests).
func WithSleep(sleep func(time.Duration)) Option { return func(sb *Sandbox) { sb.sleep = sleep } }

// applyFault waits a fault's delay, then answers its status or drops the
// connection; false when the request goes on to be served.
func (sb *Sandbox) applyFault(w http.ResponseWriter, r *http.Request) bool {
	f := sb.fault
	if h := r.Header.Get(HeaderFault); h != "" {
		var err error
		if f, err = ParseFault(h); err != nil {
			writeError(w, err)
			return true
		}
	}
	if f.Delay > 0 {
		sleep := sb.sleep
		if sleep == nil {
			sleep = time.Sleep
		}
		sleep(f.Delay)
	}
	switch {
	case f.Drop:
		// The answer is cut short: headers promise more bytes than
		// come. net/http then closes the connection mid-answer, and
		// workerd errors the body stream; either way the caller's
		// fetch fails as on a dropped connection.
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Content-Length", "4096")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"status":"ok","data":{`))
		return true
	case f.Status != 0:
		writeError(w, &apiError{HTTP: f.Status, Code: 999, Message: "sandbox fault: HTTP " + strconv.Itoa(f.Status) + " on request (" + HeaderFault + ")"})
		return true
	}
	return false
}
