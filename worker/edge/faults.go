package edge

import (
	"net/http"
	"time"
)

// Fault injection, for the tests of the isolation the worker promises: a
// panic in one request answers that request with a 500 envelope and no
// other; a crash of the Go instance (a panic no handler can recover)
// makes worker/entry.mjs replay the reads in flight on a fresh instance.
// Enabled only by FAULT_INJECTION=true, which the configuration refuses
// with a remote upstream.
const faultsPrefix = "/__faults/"

func (x *exchange) fault(name string) {
	switch name {
	case "panic":
		panic("injected fault: panic in a request")
	case "panic-after-write":
		x.respond(http.StatusOK, okBody("written", "yes"))
		panic("injected fault: panic after the response was written")
	case "crash":
		// A goroutine's panic is not recovered by the request's handler:
		// the runtime exits, as with any fatal error.
		go func() { panic("injected fault: crash of the instance") }()
		time.Sleep(time.Second)
		x.respond(http.StatusOK, okBody("crashed", "no"))
	default:
		x.fail(&edgeError{status: http.StatusNotFound, code: CodeNotFound, class: "not_found",
			message: "unknown fault; use panic, panic-after-write or crash"})
	}
}
