//go:build js && wasm

package bridge

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fetch sends requests with workerd's fetch through the entry: the body
// goes out as bytes with a Content-Length (a stream would go chunked, and
// some PHP upstreams then see an empty POST), redirects are not followed,
// the request's deadline becomes an AbortSignal that really cancels the
// call, and at most MaxBytes of the answer are read (more is an error).
type Fetch struct {
	MaxBytes int
	// Discard: the answer's body is not read at all (the entry cancels
	// it) and the response has an empty body; for webhook deliveries,
	// where only the status counts and a receiver's large answer must
	// not turn a delivery into a failure.
	Discard bool
	// Label names the calls in the entry's log ("upstream" when empty).
	// Failures of calls labelled other than upstream are logged without
	// the platform's message, which may name the URL.
	Label string
	// Service, when set, is the service binding the calls go through
	// (env[Service].fetch) instead of the global fetch: the sandbox
	// worker. An unbound name fails every call.
	Service string
}

// ErrTimeout is the failure of a call that passed its deadline.
var ErrTimeout = errors.New("upstream call timed out")

// Do implements the edge's Doer.
func (f Fetch) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	timeout := 300000
	if dl, ok := ctx.Deadline(); ok {
		timeout = int(time.Until(dl) / time.Millisecond)
		if timeout < 1 {
			return nil, context.DeadlineExceeded
		}
	}
	var head strings.Builder
	for k, vs := range req.Header {
		for _, v := range vs {
			head.WriteString(k)
			head.WriteByte(':')
			head.WriteString(v)
			head.WriteByte('\n')
		}
	}
	maxBytes := f.MaxBytes
	if f.Discard {
		maxBytes = -1
	}
	label := f.Label
	if label == "" {
		label = "upstream"
	}
	r, err := call(ctx, "fetch", req.URL.String(), req.Method, head.String(), jsBytes(body), timeout, maxBytes, label, f.Service)
	if err != nil {
		return nil, err
	}
	{
		switch {
		case r.failure == "timeout":
			return nil, context.DeadlineExceeded
		case r.failure == "too large":
			return nil, errors.New("upstream response larger than " + strconv.Itoa(f.MaxBytes) + " bytes")
		case r.failure != "":
			// The platform's message (it may name the URL) stays here.
			return nil, errors.New("upstream call failed")
		}
		return &http.Response{
			Status: strconv.Itoa(r.status) + " " + http.StatusText(r.status), StatusCode: r.status,
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: parseHeaderLines(r.head), Body: io.NopCloser(bytes.NewReader(r.body)),
			ContentLength: int64(len(r.body)), Request: req,
		}, nil
	}
}
