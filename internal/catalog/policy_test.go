package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every operation has exactly one row, in the catalog's order: an
// operation added without deciding its policy fails here.
func TestEveryOperationHasAPolicy(t *testing.T) {
	require.Len(t, Policies, len(Operations), "one policy row per operation")
	for i := range Operations {
		assert.Equal(t, Operations[i].Name, Policies[i].Name, "row %d", i)
		assert.Same(t, &Policies[i], PolicyOf(Operations[i].Name))
	}
	assert.Nil(t, PolicyOf("get-everything"))
}

// The rules the rows must keep whatever is edited: what books or lists
// every shipment is never public, a public operation may be made public,
// only bookings have a client reference and only they are exactly-once,
// only GET-able reads are cached, a demo token grants only grantable
// operations, and a binding names the field it is checked against.
func TestPoliciesAreConsistent(t *testing.T) {
	for i := range Policies {
		p, op := &Policies[i], &Operations[i]
		if op.Books || op.Name == "get-shipments" {
			assert.False(t, p.Publishable, "%s can never be public", p.Name)
		}
		if p.Public {
			assert.True(t, p.Publishable, p.Name)
		}
		assert.Equal(t, op.Books, p.ClientRef != "", "%s: a client reference exactly for bookings", p.Name)
		if p.ClientRef != "" {
			assert.NotNil(t, op.Param(p.ClientRef), "%s: %s is a parameter", p.Name, p.ClientRef)
		}
		if p.CacheTTLSeconds > 0 {
			assert.True(t, op.Read && p.Public, "%s: only public reads are cached", p.Name)
		}
		if p.Demo || p.Binding != BindNone {
			assert.True(t, p.Grantable, p.Name)
		}
		if p.Binding != BindNone {
			assert.NotEmpty(t, p.TokenRef, p.Name)
		}
		if p.TokenRef != "" {
			assert.NotNil(t, op.Param(p.TokenRef), "%s: %s is a parameter", p.Name, p.TokenRef)
		}
		assert.Equal(t, op.Books, p.Binding == BindBooking, "%s: bookings bind their own references", p.Name)
		if p.Watched {
			assert.Equal(t, "new-shipment", p.Name, "only booked shipments are watched")
		}
	}
	assert.False(t, PolicyOf("get-shipments").Grantable, "get-shipments lists every customer's shipment")
}
