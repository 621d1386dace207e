//go:build js && wasm

package bridge

import (
	"context"
	"errors"

	"github.com/syumai/workers/cloudflare"

	"github.com/parcelgate/parcelgate/worker/edge"
)

// Limiter applies Cloudflare's rate-limiting bindings ([[ratelimits]]):
// binding.limit({key}) in the request's context.
type Limiter struct{}

var _ edge.Limiter = Limiter{}

// Allow implements edge.Limiter.
func (Limiter) Allow(ctx context.Context, binding, key string) (bool, error) {
	r, err := call(ctx, "rateLimit", binding, key)
	if err != nil {
		return false, err
	}
	switch r.failure {
	case "":
		return r.status == 200, nil
	case "unbound":
		return false, edge.ErrNoLimiter
	}
	return false, errors.New(r.failure)
}

// Bound implements edge.Limiter: the environment is read directly (no I/O).
func (Limiter) Bound(binding string) bool {
	return !cloudflare.GetBinding(binding).IsUndefined()
}
