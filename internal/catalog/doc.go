//go:build !nodocs

package catalog

// doc is an operation's, parameter's or rule's documentation: kept, except
// in a build tagged nodocs (doc_nodocs.go).
func doc(s string) string { return s }
