//go:build !(js && wasm)

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secretVectors is testdata/secrets.json (worker/core/secrets_vectors_test.go
// holds the edge to it).
type secretVectors struct {
	Base  map[string]string `json:"base"`
	Cases []struct {
		Name     string            `json:"name"`
		Upstream string            `json:"upstream"`
		Vars     map[string]string `json:"vars"`
		Set      map[string]string `json:"set"`
		Refused  []string          `json:"refused"`
	} `json:"cases"`
}

// The secrets the edge reads: what a verdict is about.
var secretNames = []string{"API_USER", "API_KEY", "PROXY_TOKEN", "TOKEN_SIGNING_KEY", "TOKEN_SIGNING_KEY_PREVIOUS", "WEBHOOK_SECRET", "WEBHOOK_SECRET_PREVIOUS"}

var problemVar = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`)

// refusedIn reads the variables a checker's problem lines ("  - ...") name
// first, among the secrets.
func refusedIn(out string) []string {
	got := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "  - ") {
			continue
		}
		if m := problemVar.FindString(l); m != "" {
			for _, s := range secretNames {
				if m == s {
					got[m] = true
				}
			}
		}
	}
	out2 := []string{}
	for k := range got {
		out2 = append(out2, k)
	}
	sort.Strings(out2)
	return out2
}

// make check-config and make dev's check (worker/devvars.sh) give the verdicts
// of testdata/secrets.json, the edge's (the core's one rule), and print no
// secret's value.
func TestSecretVectorsCheckConfigAndDevVars(t *testing.T) {
	skipUnlessDeployTest(t)
	b, err := os.ReadFile("../testdata/secrets.json")
	require.NoError(t, err)
	var v secretVectors
	require.NoError(t, json.Unmarshal(b, &v))
	root, err := filepath.Abs(deployRoot)
	require.NoError(t, err)
	main := filepath.Join(root, "build", "worker", "worker.mjs")
	toml, err := os.ReadFile(filepath.Join(root, "wrangler.toml"))
	require.NoError(t, err)
	prod := regexp.MustCompile(`(?m)^main = .*$`).ReplaceAllString(string(toml), fmt.Sprintf("main = %q", main))
	prod = strings.Replace(prod, "UPSTREAM_BASE_URL = \"\"", "UPSTREAM_BASE_URL = \"https://api.shipping.example/v1\"", 1)
	prod = strings.Replace(prod, "ALLOWED_ORIGINS = \"\"", "ALLOWED_ORIGINS = \"https://shop.example\"", 1)
	dir := t.TempDir()

	for i, c := range v.Cases {
		secrets := map[string]string{}
		for k, x := range v.Base {
			secrets[k] = x
		}
		for k, x := range c.Set {
			if x == "" {
				delete(secrets, k)
			} else {
				secrets[k] = x
			}
		}
		want := append([]string{}, c.Refused...)
		sort.Strings(want)
		noValue := func(who, out string) {
			for k, x := range secrets {
				if len(x) > 12 {
					assert.NotContains(t, out, x, "%s, %s: no value of %s", c.Name, who, k)
				}
			}
		}

		// make dev's check: .dev.vars holds vars and secrets alike.
		var dv strings.Builder
		upstream := "https://api.shipping.example/v1"
		if c.Upstream == "sandbox" {
			upstream = "sandbox"
		}
		fmt.Fprintf(&dv, "UPSTREAM_BASE_URL=%s\n", upstream)
		for k, x := range c.Vars {
			fmt.Fprintf(&dv, "%s=%s\n", k, x)
		}
		for k, x := range secrets {
			fmt.Fprintf(&dv, "%s=\"%s\"\n", k, x)
		}
		dvPath := filepath.Join(dir, fmt.Sprintf("case%d.dev.vars", i))
		require.NoError(t, os.WriteFile(dvPath, []byte(dv.String()), 0o600))
		out, err := devVarsCheck(t, dvPath, filepath.Join(dir, "sandbox.dev.vars"))
		assert.Equal(t, want, refusedIn(out), "%s: make dev's check: %s", c.Name, out)
		assert.Equal(t, len(want) == 0, err == nil, "%s: make dev's check exits 0 exactly when nothing is refused: %s", c.Name, out)
		noValue("make dev's check", out)

		// make check-config: a deploy never has the sandbox upstream.
		if c.Upstream != "remote" {
			continue
		}
		cfg := prod
		for k, x := range c.Vars {
			cfg = strings.Replace(cfg, "[vars]\n", fmt.Sprintf("[vars]\n%s = %q\n", k, x), 1)
		}
		cfgPath := filepath.Join(dir, fmt.Sprintf("case%d.toml", i))
		require.NoError(t, os.WriteFile(cfgPath, []byte(cfg), 0o644))
		js, err := json.Marshal(secrets)
		require.NoError(t, err)
		secPath := filepath.Join(dir, fmt.Sprintf("case%d.secrets.json", i))
		require.NoError(t, os.WriteFile(secPath, js, 0o600))
		out, err = checkConfig(t, "--config", cfgPath, "--secrets", secPath)
		assert.Equal(t, want, refusedIn(out), "%s: check-config: %s", c.Name, out)
		assert.Equal(t, len(want) == 0, err == nil, "%s: check-config is ready exactly when nothing is refused: %s", c.Name, out)
		if len(want) == 0 {
			assert.Contains(t, out, "ready to deploy", c.Name)
		}
		noValue("check-config", out)
	}
}

// devVarsCheck runs make dev's check of a .dev.vars (worker/devvars.sh).
func devVarsCheck(t *testing.T, devVars, sandboxOut string) (string, error) {
	t.Helper()
	out, err := exec.Command("bash", "devvars.sh", devVars, "../.dev.vars.example", sandboxOut).CombinedOutput()
	return string(out), err
}
