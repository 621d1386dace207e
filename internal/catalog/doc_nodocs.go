//go:build nodocs

package catalog

// doc drops the documentation texts from a build tagged nodocs: the edge
// core (worker/worker.mk) decides with the catalog but never shows it, and
// the texts were 1.2 KB of its upload's gzip. The browser module and the
// generators keep them (doc.go).
func doc(string) string { return "" }
