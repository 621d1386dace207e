//go:build js && wasm

package bridge

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
)

// KV is a Workers KV namespace holding binary values (the embedded
// sandbox's msgp records) as standard base64 text, the format earlier
// builds wrote. Calls run in the context of the request they are for (see
// call); syumai's kv package would run them in whichever request's
// context Go is in, which workerd refuses once two requests interleave.
type KV struct {
	// Binding is the namespace's binding name in wrangler.toml.
	Binding string
}

// Get reports the value of key.
func (k KV) Get(ctx context.Context, key string) ([]byte, bool, error) {
	r, err := call(ctx, "kvGet", k.Binding, key)
	if err != nil {
		return nil, false, err
	}
	switch {
	case r.failure != "":
		return nil, false, errors.New("KV " + k.Binding + ": " + r.failure)
	case r.status == 404:
		return nil, false, nil
	}
	b, err := base64.StdEncoding.DecodeString(r.head)
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// Put stores value under key.
func (k KV) Put(ctx context.Context, key string, value []byte) error {
	r, err := call(ctx, "kvPut", k.Binding, key, base64.StdEncoding.EncodeToString(value))
	if err != nil {
		return err
	}
	if r.failure != "" {
		return errors.New("KV " + k.Binding + ": " + r.failure)
	}
	return nil
}

// List returns every key with the prefix, in KV's ascending order.
func (k KV) List(ctx context.Context, prefix string) ([]string, error) {
	r, err := call(ctx, "kvList", k.Binding, prefix)
	if err != nil {
		return nil, err
	}
	if r.failure != "" {
		return nil, errors.New("KV " + k.Binding + ": " + r.failure)
	}
	if r.head == "" {
		return nil, nil
	}
	return strings.Split(r.head, "\n"), nil
}
