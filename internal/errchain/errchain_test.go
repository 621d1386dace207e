package errchain_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/parcelgate/parcelgate/internal/errchain"
)

type reasonErr struct{ reason string }

func (e *reasonErr) Error() string { return e.reason }

func TestAs(t *testing.T) {
	want := &reasonErr{"stale"}
	for name, err := range map[string]error{
		"itself":  want,
		"wrapped": fmt.Errorf("a: %w", fmt.Errorf("b: %w", want)),
		"joined":  errors.Join(errors.New("other"), fmt.Errorf("c: %w", want)),
	} {
		got, ok := errchain.As[*reasonErr](err)
		if !ok || got != want {
			t.Errorf("%s: As = %v, %v; want the wrapped error", name, got, ok)
		}
	}
	for name, err := range map[string]error{
		"nil":    nil,
		"other":  errors.New("x"),
		"joined": errors.Join(errors.New("x"), fmt.Errorf("y: %w", errors.New("z"))),
	} {
		if got, ok := errchain.As[*reasonErr](err); ok {
			t.Errorf("%s: As = %v; want none", name, got)
		}
	}
}
