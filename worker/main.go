// Command worker is parcelgate's edge worker: a Cloudflare Worker built
// with github.com/syumai/workers that validates requests with the core
// and forwards them with Basic auth to the shipping service, or serves
// the embedded sandbox (state in a KV namespace) when no upstream is
// configured. See worker/edge for the handler.
//
// Under workerd (GOOS=js GOARCH=wasm) every request runs a fresh Go
// instance: main builds the handler and serves exactly one request.
// Natively (`go run ./worker`) it serves plain net/http on $PORT
// (default 9900) with the same handler, an in-memory sandbox store and
// the environment as configuration.
package main

import (
	"github.com/syumai/workers"

	"github.com/parcelgate/parcelgate/worker/edge"
)

func main() {
	workers.Serve(edge.New(platform()))
}
