package edge

import (
	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// log writes the request's one structured line: no query strings, bodies,
// client addresses, tokens or credentials, only what describes the
// exchange. detail may name the upstream (a transport failure's cause):
// the operator's log has it, the client's answer never does.
func (x *exchange) log() {
	if x.h.d.Log == nil {
		return
	}
	// LOG_REQUESTS: a successful request is already in the platform's own
	// request log, and each line costs CPU (~1 ms a request under workerd,
	// measured) and, on Workers Logs, money.
	cfg, _ := x.h.config()
	switch cfg.LogRequests {
	case "off":
		if !x.alert {
			return
		}
	case "errors":
		if x.status < 400 && x.upstream.attempts <= 1 && x.note == "" && x.class == "" {
			return
		}
	}
	end := x.h.d.Now()
	w := jsonlite.NewWriter()
	w.BeginObject()
	w.Key("ts")
	w.String(end.UTC().Format("2006-01-02T15:04:05.000Z"))
	w.Key("msg")
	w.String("request")
	w.Key("request_id")
	w.String(x.id)
	w.Key("method")
	w.String(clip(x.r.Method, 16))
	w.Key("op")
	w.String(x.op)
	w.Key("status")
	w.Int(int64(x.status))
	if x.class != "" {
		w.Key("error")
		w.String(x.class)
	}
	if x.detail != "" {
		w.Key("detail")
		w.String(x.detail)
	}
	w.Key("edge_ms")
	w.Raw([]byte(ms(end.Sub(x.start))))
	if x.upstream.attempts > 0 {
		w.Key("upstream_ms")
		w.Raw([]byte(ms(x.upstream.dur)))
		w.Key("upstream_status")
		w.Int(int64(x.upstream.status))
		w.Key("attempts")
		w.Int(int64(x.upstream.attempts))
	}
	w.Key("bytes_in")
	w.Int(int64(x.bytesIn))
	w.Key("bytes_out")
	w.Int(int64(x.bytesOut))
	w.Key("cors")
	w.Bool(x.origin != "")
	if x.note != "" {
		w.Key("note")
		w.String(x.note)
	}
	w.EndObject()
	line := append(w.Bytes(), '\n')
	_, _ = x.h.d.Log.Write(line)
}
