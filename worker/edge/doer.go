package edge

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
)

// HandlerDoer is a Doer served in-process by an http.Handler: an
// in-process sandbox (native builds, tests) goes through exactly the code
// path of a remote upstream (URL, Basic auth, form body, response classification). The
// request's context deadline is honoured.
type HandlerDoer struct {
	Handler http.Handler
}

// Do implements Doer.
func (d HandlerDoer) Do(req *http.Request) (*http.Response, error) {
	rec := &recorder{header: http.Header{}}
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		d.Handler.ServeHTTP(rec, req)
	}()
	select {
	case p := <-done:
		if p != nil {
			return nil, errors.New("embedded upstream panicked")
		}
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return &http.Response{
		Status:        strconv.Itoa(rec.status) + " " + http.StatusText(rec.status),
		StatusCode:    rec.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rec.header,
		Body:          io.NopCloser(bytes.NewReader(rec.body.Bytes())),
		ContentLength: int64(rec.body.Len()),
		Request:       req,
	}, nil
}

// recorder is a minimal http.ResponseWriter.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
