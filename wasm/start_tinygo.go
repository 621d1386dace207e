//go:build js && tinygo

package main

// The shipped TinyGo build is a reactor without a scheduler
// (-buildmode=c-shared -scheduler=none, see wasm/wasm.mk): no asyncify
// instrumentation, which makes the module about 40% smaller. There is no
// main goroutine to block: _initialize runs the package initializers,
// which export the API, and every call from JavaScript enters through the
// resume export below.

func init() { setup() }

// main is not called in the reactor build.
func main() {}
