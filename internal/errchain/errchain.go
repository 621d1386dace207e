// Package errchain finds an error of one type in an error's chain, as
// errors.As does, without the reflection errors.As links into a TinyGo
// module (worker/tokens and worker/webhooks/wire are in the edge core).
package errchain

// As returns the first error of type E in err's chain: err itself, then
// what Unwrap returns, depth first through Unwrap() []error.
func As[E error](err error) (E, bool) {
	for err != nil {
		if e, ok := err.(E); ok {
			return e, true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				if e, ok := As[E](x); ok {
					return e, true
				}
			}
			err = nil
		default:
			err = nil
		}
	}
	var zero E
	return zero, false
}
