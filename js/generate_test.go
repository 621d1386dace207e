package parcelgatejs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/catalog"
)

func TestGeneratedFilesAreFresh(t *testing.T) {
	for name, want := range Files() {
		got, err := os.ReadFile(filepath.FromSlash(name))
		require.NoError(t, err, "%s is missing: run make generate", name)
		assert.True(t, string(want) == string(got), "js/%s is stale: run make generate", name)
	}
}

func TestMethodName(t *testing.T) {
	cases := map[string]string{
		"get-client-carriers":                  "getClientCarriers",
		"get-shipment-time-arrival-estimation": "getShipmentTimeArrivalEstimation",
		"new-shipment":                         "newShipment",
		"get-shipments":                        "getShipments",
	}
	for in, want := range cases {
		assert.Equal(t, want, MethodName(in))
	}
}

func TestDeclarationsCoverTheCatalog(t *testing.T) {
	d := string(Files()["index.d.ts"])
	ops := string(Files()["src/operations.js"])
	for i := range catalog.Operations {
		op := &catalog.Operations[i]
		assert.Contains(t, d, "export interface "+typeName(op.Name)+"Params {")
		assert.Contains(t, d, "  "+MethodName(op.Name)+"(params")
		assert.Contains(t, ops, `name: "`+op.Name+`"`)
		for _, p := range op.Params {
			assert.True(t, strings.Contains(d, "  "+p.Name+": ") || strings.Contains(d, "  "+p.Name+"?: "), "%s.%s", op.Name, p.Name)
		}
	}
	// Required parameters are not optional in the types.
	assert.Contains(t, d, "  shipping_client_ref: string;")
	assert.Contains(t, d, "  carrier_code?: string;")
	assert.Contains(t, d, "  parcel_weight?: number | string;")
	assert.Contains(t, d, "  parcel_width: number | string;")
}
