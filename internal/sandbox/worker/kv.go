package main

import (
	"context"
	"encoding/base64"
	"errors"
)

// namespace is the part of a Workers KV namespace the store needs, in
// plain Go types (syumai/workers' kv package under workerd; a map in
// tests).
type namespace interface {
	// Get returns the text under key; ok is false when there is none.
	Get(key string) (value string, ok bool, err error)
	Put(key, value string) error
	// List returns one page of keys with the prefix, after cursor ("" for
	// the first page), and the cursor of the next page ("" when none).
	List(prefix, cursor string) (keys []string, next string, err error)
}

// kvStore is the sandbox's Store on a KV namespace. Values are msgp
// records as standard base64 text: KV holds text here, and earlier builds
// (the sandbox embedded in the edge worker) wrote that format.
type kvStore struct{ ns namespace }

// Get implements sandbox.Store.
func (s kvStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	v, ok, err := s.ns.Get(key)
	if err != nil || !ok {
		return nil, false, err
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return nil, false, errors.New("KV " + KVBinding + ": the value of " + key + " is not base64: " + err.Error())
	}
	return b, true, nil
}

// Put implements sandbox.Store.
func (s kvStore) Put(_ context.Context, key string, value []byte) error {
	return s.ns.Put(key, base64.StdEncoding.EncodeToString(value))
}

// maxListPages bounds a listing (1,000 keys a page): a cursor that never
// ends is an error, not a request that never answers.
const maxListPages = 1000

// List implements sandbox.Store: every page, in KV's ascending order.
func (s kvStore) List(_ context.Context, prefix string) ([]string, error) {
	var all []string
	cursor := ""
	for i := 0; i < maxListPages; i++ {
		keys, next, err := s.ns.List(prefix, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, keys...)
		if next == "" {
			return all, nil
		}
		cursor = next
	}
	return nil, errors.New("KV " + KVBinding + ": listing " + prefix + " did not end after 1000 pages")
}
