package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// The spec's error codes that name a field (see its Errors section).
var specFieldCodes = map[int]bool{400: true, 402: true, 403: true, 404: true, 405: true, 406: true, 421: true,
	423: true, 424: true, 425: true, 426: true, 427: true, 432: true, 460: true, 461: true,
	480: true, 481: true, 483: true, 484: true, 485: true, 486: true, 487: true, 488: true}

func TestThirteenOperations(t *testing.T) {
	require.Len(t, Operations, 13)
	names := map[string]bool{}
	for i := range Operations {
		op := &Operations[i]
		assert.False(t, names[op.Name], "duplicate %s", op.Name)
		names[op.Name] = true
		assert.Same(t, op, Lookup(op.Name))
		if op.Books {
			assert.Equal(t, []string{"POST"}, op.Methods(), op.Name)
		} else {
			assert.Equal(t, []string{"GET", "POST"}, op.Methods(), op.Name)
		}
	}
	assert.Nil(t, Lookup("delete-everything"))
	assert.True(t, Lookup("new-shipment").Books)
	assert.True(t, Lookup("new-collection").Books)
}

func TestParamsAreConsistent(t *testing.T) {
	for i := range Operations {
		op := &Operations[i]
		seen := map[string]bool{}
		all := append(append([]Param{}, op.Params...), op.ParcelParams...)
		for _, p := range all {
			assert.False(t, seen[p.Name], "%s: duplicate %s", op.Name, p.Name)
			seen[p.Name] = true
			assert.True(t, specFieldCodes[p.Code], "%s.%s: code %d", op.Name, p.Name, p.Code)
			assert.NotEmpty(t, p.Doc, "%s.%s: doc", op.Name, p.Name)
			if p.Kind == Zip {
				c := op.Param(p.Country)
				if assert.NotNil(t, c, "%s.%s: country field %q", op.Name, p.Name, p.Country) {
					assert.Equal(t, Country, c.Kind)
				}
			}
			if p.Kind == Text || p.Kind == Ref || p.Kind == Code {
				assert.Positive(t, p.MaxLen, "%s.%s: every text has a maximum length", op.Name, p.Name)
			}
		}
		for _, r := range op.Rules {
			for _, f := range r.Fields {
				assert.NotNil(t, op.Param(f), "%s: rule names unknown field %s", op.Name, f)
			}
		}
	}
}

func TestSpecFacts(t *testing.T) {
	ns := Lookup("new-shipment")
	assert.Equal(t, 15, ns.Param("shipping_client_ref").MaxLen)
	assert.Equal(t, 421, ns.Param("shipping_client_ref").Code)
	assert.Equal(t, RequiredUnlessRules, ns.Param("carrier_code").Need)
	assert.Equal(t, RequiredUnlessRules, ns.ParcelParam("parcel_weight").Need, "convention 7 wins over the new-shipment sentence")
	for suffix, max := range map[string]int{"nif": 20, "name": 40, "attn": 20, "address": 50, "city": 50, "phone": 15, "email": 50, "observations": 80} {
		for _, prefix := range []string{"from_", "to_"} {
			for _, name := range []string{"new-shipment", "new-collection"} {
				assert.Equal(t, max, Lookup(name).Param(prefix+suffix).MaxLen, name+" "+prefix+suffix)
			}
		}
	}
	nc := Lookup("new-collection")
	assert.Equal(t, Required, nc.Param("to_phone").Need)
	assert.Equal(t, Optional, nc.Param("from_city").Need)
	assert.Equal(t, Required, nc.Param("service_code").Need)
	gs := Lookup("get-shipments")
	assert.Equal(t, 1, gs.Param("page").Default)
	assert.Equal(t, 10, gs.Param("n_items").Default)
	assert.Equal(t, 50, gs.Param("n_items").Max)
	assert.False(t, Lookup("get-client-carriers").TakesParcels())
	assert.True(t, Lookup("get-shipments-rates").TakesParcels())
}

func TestGeneratedFilesAreCurrent(t *testing.T) {
	for name, want := range Files() {
		got, err := os.ReadFile(filepath.Join("../../testdata", name))
		require.NoError(t, err, "run go generate ./internal/catalog")
		assert.Equal(t, string(want), string(got), "%s is stale: run go generate ./internal/catalog", name)
		assert.True(t, json.Valid(got), name)
	}
}

// schema is the part of draft 4 the catalog emits.
type schema struct {
	Schema      string             `json:"$schema"`
	Type        string             `json:"type"`
	Description string             `json:"description"`
	Properties  map[string]*schema `json:"properties"`
	Required    []string           `json:"required"`
	Items       *schema            `json:"items"`
	Pattern     string             `json:"pattern"`
	AnyOf       []schema           `json:"anyOf"`
	AllOf       []schema           `json:"allOf"`
	Not         *schema            `json:"not"`
	Additional  json.RawMessage    `json:"additionalProperties"`
	Enum        []any              `json:"enum"`
	Definitions map[string]*schema `json:"definitions"`
}

// TestSchemasMatchCatalog checks every schema against the catalog data it
// was made from: the same properties, types, lengths and requiredness. That
// the patterns mean what validation does is TestSchemasAgreeWithValidation's.
func TestSchemasMatchCatalog(t *testing.T) {
	for i := range Operations {
		op := &Operations[i]
		for _, rules := range []bool{false, true} {
			var s schema
			require.NoError(t, json.Unmarshal(jsonlite.Marshal(Schema{Op: op, Rules: rules}), &s))
			assert.Equal(t, "http://json-schema.org/draft-04/schema#", s.Schema)
			assert.Equal(t, "object", s.Type)
			if op.Extra {
				assert.Contains(t, string(s.Additional), `"type":"string"`, op.Name)
			} else {
				assert.Equal(t, "false", string(s.Additional), op.Name)
			}
			var strict schema
			require.NoError(t, json.Unmarshal(jsonlite.Marshal(Schema{Op: op, Rules: rules, Strict: true}), &strict))
			assert.Equal(t, "false", string(strict.Additional), op.Name)
			assert.Len(t, s.Properties, len(op.Params)+1, op.Name) // parcels: taken or refused
			req := map[string]bool{}
			for _, r := range s.Required {
				req[r] = true
			}
			zips := 0
			for _, p := range op.Params {
				ps := s.Properties[p.Name]
				require.NotNil(t, ps, p.Name)
				assert.Equal(t, p.Kind.JSONType(), ps.Type)
				if p.Kind == Zip {
					zips++
					assert.False(t, req[p.Name], "%s.%s: required per country", op.Name, p.Name)
					continue
				}
				assert.Equal(t, p.Need.IsRequired(rules), req[p.Name], "%s.%s rules=%v", op.Name, p.Name, rules)
				if p.MaxLen > 0 && p.Kind.JSONType() == "string" && p.Kind != Country {
					assert.Contains(t, ps.Description, "at most "+strconv.Itoa(p.MaxLen)+" characters", p.Name)
				}
			}
			if zips > 0 {
				assert.Contains(t, s.Definitions, "zip_generic")
				assert.Contains(t, s.Definitions, "zip_GB")
			}
			ps := s.Properties["parcels"]
			if op.TakesParcels() {
				assert.Equal(t, "array", ps.Type)
				assert.Len(t, ps.Items.Properties, 5)
				assert.Equal(t, !rules, contains(ps.Items.Required, "parcel_weight"))
				assert.True(t, req["parcels"])
			} else {
				assert.NotNil(t, ps.Not, "%s refuses parcels", op.Name)
			}
		}
	}
	var tr schema
	require.NoError(t, json.Unmarshal(jsonlite.Marshal(Schema{Op: Lookup("get-shipment-tracking")}), &tr))
	require.Len(t, tr.AllOf, 2)
	assert.Len(t, tr.AllOf[0].AnyOf, 3)
	for rules, st := range map[bool]string{false: "custom", true: "24|48|72"} {
		var s schema
		require.NoError(t, json.Unmarshal(jsonlite.Marshal(Schema{Op: Lookup("new-shipment"), Rules: rules}), &s))
		assert.Contains(t, s.Properties["service_type"].Pattern, "(?:"+st+")")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCatalogJSON(t *testing.T) {
	var c struct {
		Version    string `json:"version"`
		MaxParcels int    `json:"max_parcels"`
		Operations []struct {
			Name    string   `json:"name"`
			Methods []string `json:"methods"`
			Books   bool     `json:"books"`
			Params  []struct {
				Name string `json:"name"`
				Kind string `json:"kind"`
				Need string `json:"need"`
				Code int    `json:"code"`
			} `json:"params"`
			ParcelParams []struct {
				Name string `json:"name"`
				Need string `json:"need"`
			} `json:"parcel_params"`
			Rules []struct {
				Kind   string   `json:"kind"`
				Fields []string `json:"fields"`
			} `json:"rules"`
		} `json:"operations"`
	}
	require.NoError(t, json.Unmarshal(jsonlite.Marshal(Catalog{}), &c))
	assert.Equal(t, "v1", c.Version)
	require.Len(t, c.Operations, 13)
	ns := c.Operations[6]
	assert.Equal(t, "new-shipment", ns.Name)
	assert.True(t, ns.Books)
	assert.Equal(t, "required_unless_rules", ns.ParcelParams[0].Need)
	assert.Equal(t, "date", ns.Params[0].Kind)
	assert.Equal(t, 402, ns.Params[0].Code)
	tr := c.Operations[12]
	assert.Equal(t, "one_of", tr.Rules[0].Kind)
	assert.Equal(t, []string{"dlvr_ref", "carrier_ref", "client_ref"}, tr.Rules[0].Fields)
}

func TestDocsAreText(t *testing.T) {
	for i := range Operations {
		assert.True(t, utf8.ValidString(Operations[i].Doc))
		assert.NotEmpty(t, Operations[i].Doc)
	}
}
