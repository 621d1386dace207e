//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main outside workerd: this command is only built for it. The same
// sandbox runs natively as ./internal/sandbox/cmd/sandbox.
func main() {
	fmt.Fprintln(os.Stderr, "the sandbox worker runs under workerd: make sandbox-worker, then wrangler dev -c internal/sandbox/worker/wrangler.toml; natively: go run ./internal/sandbox/cmd/sandbox")
	os.Exit(2)
}
