package edgeclient

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
	"github.com/parcelgate/parcelgate/internal/validate"
	"github.com/parcelgate/parcelgate/worker/tokens"
)

// The limits are the ones the edge and the token minter apply.
func TestRefLimitConstants(t *testing.T) {
	assert.Equal(t, tokens.MaxClientRefRunes, MaxClientRefRunes)
	assert.Equal(t, tokens.MaxRefRunes, MaxRefRunes)
	assert.Equal(t, catalog.Lookup("new-collection").Param("collection_client_ref").MaxLen, MaxClientRefRunes)
	assert.Equal(t, catalog.MaxRefRunes, MaxRefRunes)
}

// A shipping_client_ref of 16 characters is refused before anything is
// sent, with an *Error naming the field and the edge's code (421); 15
// characters are sent, counted as runes and after trimming as the edge
// counts them.
func TestOverlongClientRefNotSent(t *testing.T) {
	s, c, _ := serve(t, answer{status: 200, body: shipped})
	p := booking
	p.ShippingClientRef = strings.Repeat("A", MaxClientRefRunes+1)
	_, err := c.NewShipment(context.Background(), p)
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, 0, s.count(), "nothing sent")
	assert.Equal(t, SourceClient, e.Source)
	assert.Equal(t, "invalid_request", e.Class)
	assert.Equal(t, 421, e.Code)
	assert.Equal(t, OpNewShipment, e.Operation)
	assert.False(t, e.Retryable)
	assert.Equal(t, 0, e.Attempts)
	f, ok := e.Field("shipping_client_ref")
	require.True(t, ok, "%+v", e.FieldErrors)
	assert.Equal(t, 421, f.Code)
	assert.Equal(t, "Use at most 15 characters.", f.Message)
	assert.Contains(t, e.Error(), "shipping_client_ref")

	// In the Client's language, as the edge would answer.
	_, err = c.With(WithHeader("Accept-Language", "es")).NewShipment(context.Background(), p)
	require.True(t, errors.As(err, &e))
	f, _ = e.Field("shipping_client_ref")
	assert.Equal(t, "Usa como máximo 15 caracteres.", f.Message)
	assert.Equal(t, 0, s.count())

	for _, ok := range []string{
		strings.Repeat("A", MaxClientRefRunes),
		"  " + strings.Repeat("A", MaxClientRefRunes) + " ", // trimmed by the edge
		strings.Repeat("Ñ", MaxClientRefRunes),              // 30 bytes, 15 characters
	} {
		p.ShippingClientRef = ok
		_, err := c.NewShipment(context.Background(), p)
		require.NoError(t, err, "%q", ok)
	}
	assert.Equal(t, 3, s.count())
}

// The other references: a collection's own reference and a dlvr_ref of a
// read (MaxRefRunes).
func TestOverlongRefsNotSent(t *testing.T) {
	s, c, _ := serve(t, answer{status: 200, body: `{"status":"ok","data":{}}`})
	_, err := c.NewCollection(context.Background(), NewCollectionParams{CollectionClientRef: strings.Repeat("c", 16), ShippingDlvrRef: "SBX1"})
	var e *Error
	require.True(t, errors.As(err, &e))
	_, named := e.Field("collection_client_ref")
	assert.True(t, named)
	_, err = c.GetShipment(context.Background(), GetShipmentParams{DlvrRef: strings.Repeat("d", MaxRefRunes+1)})
	require.True(t, errors.As(err, &e))
	f, named := e.Field("dlvr_ref")
	assert.True(t, named)
	assert.Equal(t, 400, f.Code)
	assert.Equal(t, 0, s.count())
	_, _ = c.GetShipment(context.Background(), GetShipmentParams{DlvrRef: strings.Repeat("d", MaxRefRunes)})
	assert.Equal(t, 1, s.count(), "64 characters are sent")
}

// The Client refuses only what the edge refuses: for every reference of
// every operation, a value one character over its limit is refused by the
// edge's own validation (internal/validate) with the same field and code,
// and a value at the limit passes the client.
func TestRefLimitsAgreeWithTheEdge(t *testing.T) {
	for i := range catalog.Operations {
		op := Operation(catalog.Operations[i].Name)
		for _, ref := range op.refs() {
			for _, n := range []int{ref.max, ref.max + 1} {
				v := strings.Repeat("é", n)
				req := &form.Request{Fields: []form.Field{{Name: ref.name, Value: " " + v + " "}}}
				mine := checkRefs(op, req, nil)
				var edge *validate.FieldError
				for _, fe := range validate.Request(catalog.Lookup(string(op)), req, validate.Options{}, nil) {
					if fe.Field == ref.name {
						edge = &fe
					}
				}
				if n == ref.max {
					assert.Nil(t, mine, "%s %s at the limit", op, ref.name)
					continue
				}
				require.NotNil(t, mine, "%s %s over the limit", op, ref.name)
				require.NotNil(t, edge, "%s %s: the edge accepts %d characters", op, ref.name, n)
				assert.Equal(t, edge.Code, mine.Code, "%s %s", op, ref.name)
				assert.Equal(t, edge.Message, mine.FieldErrors[0].Message, "%s %s", op, ref.name)
			}
		}
	}
}
