//go:build !(js && wasm)

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// worker/README's real-upstream recipe, as written: .dev.vars.example with
// the upstream's URL and the account's credentials is refused by make dev's
// check (the example's tokens are placeholders), make dev-secrets replaces
// them with random ones, and then the check passes; a second make
// dev-secrets keeps them, and a value of one's own is never overwritten.
func TestDevVarsRealUpstreamRecipe(t *testing.T) {
	skipUnlessDeployTest(t)
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	require.Contains(t, string(b), "make dev-secrets\nmake dev\n", "the README's recipe")
	example, err := os.ReadFile("../.dev.vars.example")
	require.NoError(t, err)
	require.Contains(t, string(example), "make dev-secrets")

	dir := t.TempDir()
	dv := filepath.Join(dir, ".dev.vars")
	s := regexp.MustCompile(`(?m)^UPSTREAM_BASE_URL=.*$`).ReplaceAllString(string(example), "UPSTREAM_BASE_URL=http://127.0.0.1:9/v1")
	s = regexp.MustCompile(`(?m)^API_USER=.*$`).ReplaceAllString(s, "API_USER=shop-42")
	s = regexp.MustCompile(`(?m)^API_KEY=.*$`).ReplaceAllString(s, "API_KEY=acct-key-9f8e7d6c")
	require.NoError(t, os.WriteFile(dv, []byte(s), 0o600))
	sandboxOut := filepath.Join(dir, "sandbox.dev.vars")

	out, err := devVarsCheck(t, dv, sandboxOut)
	require.Error(t, err, "the example's tokens with a real upstream: %s", out)
	assert.Contains(t, out, "PROXY_TOKEN is a placeholder")

	secrets := func() string {
		cmd := exec.Command("make", "--no-print-directory", "dev-secrets", "DEV_VARS="+dv)
		cmd.Dir = ".."
		o, err := cmd.CombinedOutput()
		require.NoError(t, err, string(o))
		return string(o)
	}
	out = secrets()
	assert.Contains(t, out, "wrote a random PROXY_TOKEN")
	assert.Contains(t, out, "wrote a random TOKEN_SIGNING_KEY")
	after, err := os.ReadFile(dv)
	require.NoError(t, err)
	for _, k := range []string{"PROXY_TOKEN", "TOKEN_SIGNING_KEY"} {
		v := regexp.MustCompile(`(?m)^` + k + `="([0-9a-f]{64})"$`).FindStringSubmatch(string(after))
		require.NotNil(t, v, "%s is 64 random hex characters", k)
		assert.NotContains(t, out, v[1], "the value is not printed")
	}
	assert.Contains(t, string(after), "API_KEY=acct-key-9f8e7d6c", "the rest stays")
	info, err := os.Stat(dv)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	out, err = devVarsCheck(t, dv, sandboxOut)
	require.NoError(t, err, "the recipe's .dev.vars passes make dev's check: %s", out)

	// Run again: nothing replaced.
	out = secrets()
	assert.Contains(t, out, "kept PROXY_TOKEN")
	again, err := os.ReadFile(dv)
	require.NoError(t, err)
	assert.Equal(t, string(after), string(again))

	// A value of one's own is kept, even a weak one (the check names it).
	own := strings.Replace(string(again), regexp.MustCompile(`(?m)^PROXY_TOKEN=.*$`).FindString(string(again)), "PROXY_TOKEN=mine-mine-mine-mine-mine-mine-mine", 1)
	require.NoError(t, os.WriteFile(dv, []byte(own), 0o600))
	out = secrets()
	assert.Contains(t, out, "kept PROXY_TOKEN")
	kept, err := os.ReadFile(dv)
	require.NoError(t, err)
	assert.Contains(t, string(kept), "PROXY_TOKEN=mine-mine-mine-mine-mine-mine-mine")
}
