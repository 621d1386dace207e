//go:build js && wasm

package bridge

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/syumai/workers"
)

// Limits are what the JavaScript entry enforces before and around a
// request; they are handed to it once, when the instance starts.
type Limits struct {
	// MaxBodyBytes: request bodies are read (in JavaScript) up to one
	// byte more than this, then cancelled.
	MaxBodyBytes int
	// MaxRequests and MaxMemoryBytes: past either, new requests go to a
	// fresh instance while this one finishes what it has.
	MaxRequests    int
	MaxMemoryBytes int64
	// BookingPaths are the paths whose requests are never replayed on a
	// fresh instance after a crash: they may have reached the upstream.
	BookingPaths []string
	// Deadline bounds how long the entry waits for a response before it
	// answers for the instance (the handler's own timeouts come first).
	Deadline time.Duration
}

// Scheduled, when set before Serve, runs the Cron Trigger's work: the
// entry's scheduled() hands it the trigger's scheduled time, and what it
// returns (a JSON line, already logged) ends the run; an error makes the
// entry report the run as failed. Its context routes every call to the
// scheduled handler's own context, as a request's does.
var Scheduled func(ctx context.Context, at time.Time) ([]byte, error)

var (
	binding    js.Value
	respondFn  js.Value
	callFn     js.Value
	uint8Array = js.Global().Get("Uint8Array")
)

// Serve hands requests from the JavaScript entry to h until the instance
// is dropped; it never returns.
func Serve(h http.Handler, l Limits) {
	binding = js.Global().Get("context").Get("binding")
	respondFn = binding.Get("respond")
	callFn = binding.Get("call")
	cfg := js.Global().Get("Object").New()
	cfg.Set("maxBodyBytes", l.MaxBodyBytes)
	cfg.Set("maxRequests", l.MaxRequests)
	cfg.Set("maxMemoryBytes", float64(l.MaxMemoryBytes))
	cfg.Set("bookingPaths", strings.Join(l.BookingPaths, "\n"))
	cfg.Set("deadlineMs", int(l.Deadline/time.Millisecond))
	binding.Set("config", cfg)
	binding.Set("serve", js.FuncOf(func(_ js.Value, args []js.Value) any {
		seq := args[0].Int()
		head := args[1].String()
		body := bytesOf(args[2])
		go serve(h, seq, head, body)
		return nil
	}))
	binding.Set("deliver", js.FuncOf(deliver))
	binding.Set("scheduled", js.FuncOf(func(_ js.Value, args []js.Value) any {
		seq := args[0].Int()
		at := time.UnixMilli(int64(args[1].Float()))
		go runScheduled(seq, at)
		return nil
	}))
	workers.Ready()
	select {}
}

// bytesOf copies a Uint8Array (or null) into Go.
func bytesOf(v js.Value) []byte {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// jsBytes copies b into a new Uint8Array (null for nil).
func jsBytes(b []byte) any {
	if b == nil {
		return nil
	}
	u := uint8Array.New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}

type seqKey struct{}
type infoKey struct{}

// Info is what the entry says of the instance serving a request: the
// third line of the request head ("<instance id> <requests> <memory bytes>").
func Info(ctx context.Context) (id string, requests int, memoryBytes int64) {
	s, _ := ctx.Value(infoKey{}).(string)
	f := strings.Fields(s)
	if len(f) != 3 {
		return "", 0, 0
	}
	n, _ := strconv.Atoi(f[1])
	m, _ := strconv.ParseInt(f[2], 10, 64)
	return f[0], n, m
}

func serve(h http.Handler, seq int, head string, body []byte) {
	w := &writer{header: http.Header{}}
	defer func() {
		if p := recover(); p != nil {
			// The handler recovers its own panics; this is the net under
			// it. Nothing was sent yet (responses are buffered).
			w.status = http.StatusInternalServerError
			w.header = http.Header{"Content-Type": {"application/json; charset=utf-8"}}
			w.body.Reset()
			w.body.WriteString(`{"status":"err","data":{"errorCode":1500,"errorMessage":"internal error in the edge worker","source":"edge","errorClass":"internal"}}`)
		}
		if w.status == 0 {
			w.status = http.StatusOK
		}
		respondFn.Invoke(seq, w.status, w.headText(), jsBytes(w.body.Bytes()))
	}()
	req, err := parseHead(head, body)
	if err != nil {
		w.status = http.StatusBadRequest
		w.header.Set("Content-Type", "application/json; charset=utf-8")
		w.body.WriteString(`{"status":"err","data":{"errorCode":1400,"errorMessage":"request the worker could not read","source":"edge","errorClass":"bad_request"}}`)
		return
	}
	ctx := context.WithValue(context.Background(), seqKey{}, seq)
	ctx = context.WithValue(ctx, infoKey{}, req.info)
	h.ServeHTTP(w, req.Request.WithContext(ctx))
}

// runScheduled runs Scheduled for the entry's scheduled handler seq and
// answers it like a request (status 200, the line as the body).
func runScheduled(seq int, at time.Time) {
	var line []byte
	status := http.StatusOK
	defer func() {
		if p := recover(); p != nil {
			status, line = http.StatusInternalServerError, []byte(`{"msg":"scheduled run failed","error":"internal error in the edge worker"}`)
		}
		respondFn.Invoke(seq, status, "", jsBytes(line))
	}()
	if Scheduled == nil {
		status, line = http.StatusInternalServerError, []byte(`{"msg":"scheduled run failed","error":"this build has no scheduled work"}`)
		return
	}
	var err error
	line, err = Scheduled(context.WithValue(context.Background(), seqKey{}, seq), at)
	if err != nil {
		status = http.StatusInternalServerError
	}
}

type parsedRequest struct {
	*http.Request
	info string
}

// parseHead rebuilds the request the entry described.
func parseHead(head string, body []byte) (*parsedRequest, error) {
	method, rest, _ := strings.Cut(head, "\n")
	rawURL, rest, _ := strings.Cut(rest, "\n")
	info, rest, _ := strings.Cut(rest, "\n")
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	hdr := parseHeaderLines(rest)
	r := &http.Request{
		Method: method, URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: hdr, Host: u.Host, RemoteAddr: hdr.Get("Cf-Connecting-Ip"), RequestURI: u.RequestURI(),
		Body: http.NoBody,
	}
	if cl := hdr.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n >= 0 {
			r.ContentLength = n
		}
	} else if body != nil {
		r.ContentLength = -1
	}
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	return &parsedRequest{Request: r, info: info}, nil
}

// parseHeaderLines reads "name:value" lines (names as JavaScript's
// Headers gives them: lowercase, values already combined).
func parseHeaderLines(s string) http.Header {
	h := make(http.Header, 8)
	for s != "" {
		var line string
		line, s, _ = strings.Cut(s, "\n")
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" {
			continue
		}
		h[textproto.CanonicalMIMEHeaderKey(name)] = append(h[textproto.CanonicalMIMEHeaderKey(name)], value)
	}
	return h
}

// writer buffers one response.
type writer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *writer) Header() http.Header { return w.header }

func (w *writer) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *writer) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(b)
}

// headText renders the header as "name:value" lines; JavaScript appends
// each, so repeated names (Vary) survive.
func (w *writer) headText() string {
	var b strings.Builder
	for k, vs := range w.header {
		for _, v := range vs {
			if strings.ContainsAny(v, "\r\n") {
				continue
			}
			b.WriteString(k)
			b.WriteByte(':')
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Calls from Go to JavaScript go through one function, call(seq, id,
// kind, ...args): workerd binds every I/O object to the request whose
// handler created it, and Go runs whatever goroutines are ready whenever
// any request wakes it, so the entry runs each call in the context of
// the request it is for (seq, from the context). Calls that answer wait
// on a channel keyed by the call id; deliver routes the answer. A call
// whose waiter gave up (timeout) is forgotten and its late answer dropped.
type result struct {
	status  int
	head    string
	body    []byte
	failure string
}

var (
	callsMu sync.Mutex
	calls   = map[int]chan result{}
	lastID  int
)

func newCall() (int, chan result) {
	callsMu.Lock()
	defer callsMu.Unlock()
	lastID++
	ch := make(chan result, 1)
	calls[lastID] = ch
	return lastID, ch
}

func forget(id int) {
	callsMu.Lock()
	delete(calls, id)
	callsMu.Unlock()
}

// seqOf is the request a context belongs to (0: none).
func seqOf(ctx context.Context) int {
	seq, _ := ctx.Value(seqKey{}).(int)
	return seq
}

// call makes a call that answers and waits for it or for ctx.
func call(ctx context.Context, kind string, args ...any) (result, error) {
	id, ch := newCall()
	callFn.Invoke(append([]any{seqOf(ctx), id, kind}, args...)...)
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		forget(id)
		return result{}, ctx.Err()
	}
}

// send makes a call that does not answer.
func send(ctx context.Context, kind string, args ...any) {
	callFn.Invoke(append([]any{seqOf(ctx), 0, kind}, args...)...)
}

func deliver(_ js.Value, args []js.Value) any {
	id := args[0].Int()
	callsMu.Lock()
	ch, ok := calls[id]
	delete(calls, id)
	callsMu.Unlock()
	if !ok {
		return nil
	}
	ch <- result{status: args[1].Int(), head: args[2].String(), body: bytesOf(args[3]), failure: args[4].String()}
	return nil
}
