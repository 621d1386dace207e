//go:build js && wasm

package main

import (
	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/kv"

	"github.com/parcelgate/parcelgate/internal/sandbox"
)

func main() {
	workers.Serve(newHandler(platform{
		getenv: cloudflare.Getenv,
		store: func() (sandbox.Store, error) {
			ns, err := kv.NewNamespace(KVBinding)
			if err != nil {
				return nil, err
			}
			return kvStore{ns: workersKV{ns}}, nil
		},
	}))
}

// workersKV adapts syumai's namespace. Under its worker.mjs each request
// has an instance of its own, so its calls run in that request's context.
type workersKV struct{ ns *kv.Namespace }

// Get reads text; syumai answers the text "<null>" for a missing key,
// which base64 values never are.
func (k workersKV) Get(key string) (string, bool, error) {
	v, err := k.ns.GetString(key, nil)
	if err != nil {
		return "", false, err
	}
	if v == "<null>" {
		return "", false, nil
	}
	return v, true, nil
}

func (k workersKV) Put(key, value string) error { return k.ns.PutString(key, value, nil) }

func (k workersKV) List(prefix, cursor string) ([]string, string, error) {
	r, err := k.ns.List(&kv.ListOptions{Prefix: prefix, Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	keys := make([]string, len(r.Keys))
	for i, key := range r.Keys {
		keys[i] = key.Name
	}
	if r.ListComplete {
		return keys, "", nil
	}
	return keys, r.Cursor, nil
}
