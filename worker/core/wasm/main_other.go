//go:build !tinygo

package main

// main exists so that `go build ./...` and `go vet` see the package; the
// module is built by TinyGo only (exports_tinygo.go).
func main() {}
