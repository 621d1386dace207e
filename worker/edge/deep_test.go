package edge

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/parcelgate/parcelgate/internal/envelope"
)

// A valid get-service-info whose schema nests deeper than anything decoded
// field by field is relayed, and decodes.
func TestDeepServiceInfoSchemas(t *testing.T) {
	schema := strings.Repeat(`{"type":"object","properties":{"a":`, 150) + `{"type":"string"}` + strings.Repeat(`}}`, 150)
	body := `{"status":"ok","data":{"available_methods":{"new-shipment":true},"schemas":{"new-shipment":` + schema + `},"additional_information":{}}}`
	up := newFakeUpstream(t, okReply(body))
	hs := newHarness(baseEnv(up.srv.URL+"/v1"), up.srv.Client())
	r := hs.do(t, "GET", "/v1/get-service-info?carrier_code=rayo&service_code=rayo-48&from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001", "")
	assert.Equal(t, http.StatusOK, r.Code, r.Raw)
	assert.Equal(t, body, r.Raw)
	_, err := envelope.Decode("get-service-info", 200, []byte(body))
	assert.NoError(t, err)
}
