//go:build !(js && wasm)

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// make dev runs worker/devvars.sh: a .dev.vars made from an older example
// is named and fixed by what the script says, never served as config errors.
func TestDevVarsCheck(t *testing.T) {
	dir := t.TempDir()
	run := func(devVars string) (string, error) {
		p := filepath.Join(dir, ".dev.vars")
		require.NoError(t, os.WriteFile(p, []byte(devVars), 0o600))
		out, err := exec.Command("bash", "devvars.sh", p, "../.dev.vars.example").CombinedOutput()
		return string(out), err
	}
	example, err := os.ReadFile("../.dev.vars.example")
	require.NoError(t, err)

	out, err := run(string(example))
	assert.NoError(t, err, "the example itself passes: %s", out)

	old := "API_USER=sandbox\nAPI_KEY=sandbox-dev-key\nPROXY_TOKEN=dev-proxy-token\nUPSTREAM_BASE_URL=\n"
	out, err = run(old)
	assert.Error(t, err)
	assert.Contains(t, out, "PROXY_TOKEN has 15 characters; it needs at least 32")
	assert.Contains(t, out, "TOKEN_SIGNING_KEY is missing: add this line from ../.dev.vars.example: TOKEN_SIGNING_KEY=")
	assert.Contains(t, out, "ALLOWED_ORIGINS is missing")
	assert.Contains(t, out, "UPSTREAM_BASE_URL is empty: set UPSTREAM_BASE_URL=sandbox")

	same := strings.Replace(string(example), "TOKEN_SIGNING_KEY=dev-token-signing-key-change-me-0123456789",
		"TOKEN_SIGNING_KEY=\"dev-proxy-token-change-me-0123456789abcdef\"", 1)
	out, err = run(same)
	assert.Error(t, err)
	assert.Contains(t, out, "TOKEN_SIGNING_KEY must differ from PROXY_TOKEN")
}
