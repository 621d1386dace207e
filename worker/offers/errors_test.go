package offers

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Offers' errors have tokens' and webhooks' shape: sentinels for
// errors.Is, one *Error for errors.As, and Reason through wrapping.
func TestErrorsThroughWrapping(t *testing.T) {
	_, err := Verify(Keys{[]byte("0123456789abcdef0123456789abcdef")}, "pgo1.not-an-offer", time.Unix(0, 0))
	require.Error(t, err)
	wrapped := fmt.Errorf("checkout: %w", err)
	assert.ErrorIs(t, wrapped, ErrMalformed)
	assert.NotErrorIs(t, wrapped, ErrExpired)
	var e *Error
	require.ErrorAs(t, wrapped, &e)
	assert.Equal(t, "malformed", e.Reason)
	assert.Equal(t, "malformed", Reason(wrapped))
	assert.Equal(t, "expired", Reason(errors.Join(errors.New("other"), fmt.Errorf("x: %w", ErrExpired))))
	assert.Equal(t, "", Reason(errors.New("other")))
}
