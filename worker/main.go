//go:build !(js && wasm)

// Command worker serves worker/edge, the standard-Go handler the edge core
// (worker/core) was cut from, natively: `go run ./worker` listens on
// 127.0.0.1:$PORT (default 9900) with the sandbox in-process and the
// environment as configuration, for development. What Cloudflare runs is
// the JavaScript edge (worker/src) and the core module (make worker); see
// worker/README.md.
package main

import (
	"github.com/parcelgate/parcelgate/worker/edge"
)

func main() {
	serve(edge.New(platform()))
}
