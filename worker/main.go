// Command worker is parcelgate's edge worker: a Cloudflare Worker that
// validates requests with the core and forwards them with Basic auth to
// the shipping service, or to the sandbox worker (internal/sandbox/worker,
// through the SANDBOX service binding) when UPSTREAM_BASE_URL is
// "sandbox". Its workerd build carries no sandbox code (a test checks the
// imports). See worker/edge for the handler and worker/README.md for
// running and deploying it.
//
// Under workerd (GOOS=js GOARCH=wasm) the project's entry module
// (worker/entry.mjs) keeps one Go instance per isolate and hands it every
// request through worker/bridge. Natively (`go run ./worker`) the same
// handler serves plain net/http on 127.0.0.1:$PORT (default 9900) with an
// in-process sandbox on an in-memory store (platform_other.go) and the
// environment as configuration.
package main

import (
	"github.com/parcelgate/parcelgate/worker/edge"
)

func main() {
	serve(edge.New(platform()))
}
