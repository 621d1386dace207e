//go:build js && wasm

package main

import (
	"context"
	"encoding/base64"

	"github.com/syumai/workers/cloudflare/kv"

	"github.com/parcelgate/parcelgate/internal/sandbox"
)

// kvStore is the embedded sandbox's sandbox.Store on a Cloudflare KV
// namespace. Values (msgp records) are stored as standard base64 text:
// syumai/workers v0.33.0 reads text reliably, and reports a missing key
// as the string "<null>", which base64 can never produce.
type kvStore struct {
	ns *kv.Namespace
}

var _ sandbox.Store = kvStore{}

func openKV(binding string) (sandbox.Store, error) {
	ns, err := kv.NewNamespace(binding)
	if err != nil {
		return nil, err
	}
	return kvStore{ns: ns}, nil
}

// Get implements sandbox.Store.
func (s kvStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	v, err := s.ns.GetString(key, nil)
	if err != nil {
		return nil, false, err
	}
	if v == "<null>" {
		return nil, false, nil
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// Put implements sandbox.Store.
func (s kvStore) Put(ctx context.Context, key string, value []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.ns.PutString(key, base64.StdEncoding.EncodeToString(value), nil)
}

// List implements sandbox.Store: every key with the prefix, in KV's
// ascending order, following the list cursor.
func (s kvStore) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	cursor := ""
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := s.ns.List(&kv.ListOptions{Prefix: prefix, Cursor: cursor, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, k := range res.Keys {
			keys = append(keys, k.Name)
		}
		if res.ListComplete || res.Cursor == "" {
			return keys, nil
		}
		cursor = res.Cursor
	}
}
