package core_test

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
)

// SecretVectors is testdata/secrets.json: one table of secrets and the
// variables the one rule refuses, for the edge (here), make check-config and
// make dev's check (worker/secrets_vectors_test.go).
type SecretVectors struct {
	Base  map[string]string `json:"base"`
	Cases []struct {
		Name     string            `json:"name"`
		Upstream string            `json:"upstream"`
		Vars     map[string]string `json:"vars"`
		Set      map[string]string `json:"set"`
		Refused  []string          `json:"refused"`
	} `json:"cases"`
}

// The edge's verdict: what Configure refuses and what /healthz refuses
// besides, by variable; /healthz is 200 exactly when nothing is refused.
func TestSecretVectorsEdge(t *testing.T) {
	b, err := os.ReadFile("../../testdata/secrets.json")
	require.NoError(t, err)
	var v SecretVectors
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Cases)
	for _, c := range v.Cases {
		vars := map[string]string{}
		for k, x := range v.Base {
			vars[k] = x
		}
		for k, x := range c.Vars {
			vars[k] = x
		}
		for k, x := range c.Set {
			if x == "" {
				delete(vars, k)
			} else {
				vars[k] = x
			}
		}
		switch c.Upstream {
		case "remote":
			vars[core.EnvUpstreamBaseURL] = "https://api.shipping.example/v1"
		case "sandbox":
			vars[core.EnvUpstreamBaseURL] = core.SandboxUpstream
		default:
			t.Fatalf("%s: upstream %q", c.Name, c.Upstream)
		}
		e := core.Configure(func(k string) (string, bool) { x, ok := vars[k]; return x, ok },
			core.Bindings{Bookings: true, Watchlist: true, Sandbox: true, AnonymousRateLimit: true})
		got := map[string]bool{}
		for _, p := range e.Problems() {
			got[p.Var] = true
		}
		for _, p := range core.SecretProblems(e) {
			got[p.Var] = true
		}
		refused := []string{}
		for k := range got {
			refused = append(refused, k)
		}
		sort.Strings(refused)
		want := append([]string{}, c.Refused...)
		sort.Strings(want)
		assert.Equal(t, want, refused, c.Name)
		res := e.Healthz(&core.Health{Method: "GET", RequestID: "rid"})
		if len(want) == 0 {
			assert.Equal(t, 200, res.Status, "%s: %s", c.Name, res.Body)
		} else {
			assert.Equal(t, 500, res.Status, c.Name)
			for _, k := range want {
				assert.Contains(t, res.Detail, k, "%s: the log names it", c.Name)
			}
			for k, x := range vars {
				if k != core.EnvUpstreamBaseURL && k != core.EnvWebhookURL && len(x) > 12 { // (not the rule's own words)
					assert.NotContains(t, string(res.Body)+res.Detail, x, "%s: no value of %s", c.Name, k)
				}
			}
		}
	}
}
