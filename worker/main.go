// Command worker is parcelgate's edge worker: a Cloudflare Worker that
// validates requests with the core and forwards them with Basic auth to
// the shipping service, or serves the embedded sandbox (state in a KV
// namespace) when no upstream is configured. See worker/edge for the
// handler and worker/README.md for running and deploying it.
//
// Under workerd (GOOS=js GOARCH=wasm) the project's entry module
// (worker/entry.mjs) keeps one Go instance per isolate and hands it every
// request through worker/bridge. Natively (`go run ./worker`) the same
// handler serves plain net/http on 127.0.0.1:$PORT (default 9900) with an
// in-memory sandbox store and the environment as configuration.
package main

import (
	"github.com/parcelgate/parcelgate/worker/edge"
)

func main() {
	serve(edge.New(platform()))
}
