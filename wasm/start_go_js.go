//go:build js && !tinygo

package main

// main (standard Go) exports the API and keeps the instance alive: the
// exports run as callbacks.
func main() {
	setup()
	select {}
}
