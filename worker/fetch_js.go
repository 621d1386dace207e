//go:build js && wasm

package main

import (
	"bytes"
	"io"
	"net/http"
	"syscall/js"

	"github.com/syumai/workers/cloudflare/fetch"

	"github.com/parcelgate/parcelgate/worker/edge"
)

// fetchDoer sends requests with workerd's fetch through syumai/workers'
// client (Go's http.Client panics under workerd). Redirects are not
// followed. The request's context deadline bounds the whole exchange,
// body included: fetch itself cannot be cancelled from Go, so the call
// runs in a goroutine that is abandoned on timeout (the instance ends
// with the request anyway).
type fetchDoer struct{}

type fetchResult struct {
	res  *http.Response
	body []byte
	err  error
}

// Do implements edge.Doer.
func (fetchDoer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
		req = req.Clone(ctx)
		req.Body = nil
	}
	done := make(chan fetchResult, 1)
	go func() {
		c := fetch.NewClient(fetch.WithBinding(fixedLengthFetch(body)))
		res, err := c.Do(&fetch.Request{Request: req}, &fetch.RequestInit{Redirect: fetch.RedirectModeManual})
		if err != nil {
			done <- fetchResult{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(io.LimitReader(res.Body, edge.MaxUpstreamBody+1))
		done <- fetchResult{res: res, body: b, err: err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, r.err
		}
		r.res.Body = io.NopCloser(bytes.NewReader(r.body))
		r.res.ContentLength = int64(len(r.body))
		return r.res, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fixedLengthFetch is the object whose fetch syumai's client calls (its
// WithBinding option). syumai/workers turns a Go request body into a
// ReadableStream, which workerd sends chunked (some PHP upstreams then
// see an empty POST); so the request is handed to syumai without a body
// and this fetch adds the (small, already encoded) body as bytes, which
// go out with a Content-Length.
func fixedLengthFetch(body []byte) js.Value {
	global := js.Global()
	// Invoke, not Call: fetch called with the global proxy as this throws
	// "Illegal invocation".
	fetchFn := global.Get("fetch")
	obj := global.Get("Object").New()
	obj.Set("fetch", js.FuncOf(func(_ js.Value, args []js.Value) any {
		req, init := args[0], args[1]
		if body == nil {
			return fetchFn.Invoke(req, init)
		}
		ua := global.Get("Uint8Array").New(len(body))
		js.CopyBytesToJS(ua, body)
		opts := global.Get("Object").New()
		opts.Set("method", req.Get("method"))
		opts.Set("headers", req.Get("headers"))
		opts.Set("body", ua)
		if !init.IsUndefined() && !init.Get("redirect").IsUndefined() {
			opts.Set("redirect", init.Get("redirect"))
		}
		return fetchFn.Invoke(req.Get("url"), opts)
	}))
	return obj
}
