//go:build !(js && wasm)

package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Findings of the security review (issue 20) that concern the runtime.

// /v1/new%2Dshipment is a booking to Go and a different pathname to
// worker/entry.mjs: the edge refuses it outright, so it is never booked
// and never replayed as a read.
func TestPercentEncodedBookingPathUnderWorkerd(t *testing.T) {
	skipUnlessE2E(t)
	up := newUpstream(t)
	s := runtimeStack(t, up, nil)
	v := parcel(parties(url.Values{}))
	v.Set("shipping_date", nextWorkingDay())
	v.Set("service_type", "custom")
	v.Set("carrier_code", "delay")
	v.Set("service_code", "delay-24")
	v.Set("shipping_client_ref", "ENC-1")
	for _, op := range []string{"new%2Dshipment", "new%2dshipment", "new-%73hipment"} {
		r := call(t, s.URL, http.MethodPost, op, v, bearer()...)
		require.Equal(t, 400, r.Code, "%s: %s", op, r.Raw)
		assert.Equal(t, "encoded_path", str(r.Data, "errorClass"), op)
		assert.Contains(t, str(r.Data, "errorMessage"), "/v1/"+op, op)
	}
	assert.Equal(t, 0, up.count(), "nothing reached the upstream")
	r := call(t, s.URL, http.MethodPost, "new-shipment", v, bearer()...)
	assert.Equal(t, 200, r.Code, r.Raw)
}
