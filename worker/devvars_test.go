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

// make dev runs worker/devvars.sh: a .dev.vars the edge would answer
// configuration errors with is named and fixed by what the script says;
// one for a real upstream is accepted; the sandbox worker's .dev.vars is
// derived from it, never with a real account's key. The verdicts are the
// built core's (make test-deploy builds it).
func TestDevVarsCheck(t *testing.T) {
	skipUnlessDeployTest(t)
	dir := t.TempDir()
	sandboxVars := filepath.Join(dir, "sandbox.dev.vars")
	run := func(devVars string) (string, error) {
		p := filepath.Join(dir, ".dev.vars")
		require.NoError(t, os.WriteFile(p, []byte(devVars), 0o600))
		_ = os.Remove(sandboxVars)
		out, err := exec.Command("bash", "devvars.sh", p, "../.dev.vars.example", sandboxVars).CombinedOutput()
		return string(out), err
	}
	example, err := os.ReadFile("../.dev.vars.example")
	require.NoError(t, err)

	out, err := run(string(example))
	assert.NoError(t, err, "the example itself passes: %s", out)
	derived, err := os.ReadFile(sandboxVars)
	require.NoError(t, err)
	assert.Contains(t, string(derived), `SANDBOX_USER="sandbox"`)
	assert.Contains(t, string(derived), `SANDBOX_KEY="sandbox-dev-key"`)
	assert.Contains(t, string(derived), `SANDBOX_TIME_SCALE="1800"`)

	old := "API_USER=sandbox\nAPI_KEY=sandbox-dev-key\nPROXY_TOKEN=dev-proxy-token\nUPSTREAM_BASE_URL=\n"
	out, err = run(old)
	assert.Error(t, err)
	assert.Contains(t, out, ".dev.vars: the edge worker would answer configuration errors. Change:")
	assert.NotContains(t, out, "older", "the file may be the developer's own, not an older copy")
	assert.Contains(t, out, "PROXY_TOKEN must be at least 32 characters")
	assert.Contains(t, out, "TOKEN_SIGNING_KEY is missing: make dev-secrets writes a strong random one into")
	assert.Contains(t, out, "UPSTREAM_BASE_URL is empty or missing: set UPSTREAM_BASE_URL=sandbox (the sandbox worker make dev runs beside the edge), or your service's https URL ending in /v1")
	assert.NotContains(t, out, "ALLOWED_ORIGINS", "make dev derives it from DEV_PORT")
	_, err = os.Stat(sandboxVars)
	assert.True(t, os.IsNotExist(err), "nothing written for a refused .dev.vars")

	same := strings.Replace(string(example), "TOKEN_SIGNING_KEY=dev-token-signing-key-change-me-0123456789",
		"TOKEN_SIGNING_KEY=\"dev-proxy-token-change-me-0123456789abcdef\"", 1)
	out, err = run(same)
	assert.Error(t, err)
	assert.Contains(t, out, "TOKEN_SIGNING_KEY must differ from PROXY_TOKEN and API_KEY")

	// A .dev.vars for a real upstream: only what the edge needs, accepted;
	// the sandbox worker gets placeholders, not the account's key.
	real := "UPSTREAM_BASE_URL=https://api.shipping.example/v1\nAPI_USER=shop-42\nAPI_KEY=real-account-key-never-copied\n" +
		"PROXY_TOKEN=proxy-token-0123456789abcdef0123456789\nTOKEN_SIGNING_KEY=signing-key-0123456789abcdef0123456789\n"
	out, err = run(real)
	assert.NoError(t, err, out)
	assert.Contains(t, out, "the demo shop gets no demo token")
	assert.NotContains(t, out, "real-account-key-never-copied")
	derived, err = os.ReadFile(sandboxVars)
	require.NoError(t, err)
	assert.NotContains(t, string(derived), "real-account-key-never-copied")
	assert.NotContains(t, string(derived), "shop-42")

	// The example's placeholders with a real upstream: named, as the edge's
	// /healthz would refuse them.
	out, err = run(strings.Replace(string(example), "\nUPSTREAM_BASE_URL=sandbox\n", "\nUPSTREAM_BASE_URL=https://api.shipping.example/v1\n", 1))
	assert.Error(t, err)
	assert.Contains(t, out, "PROXY_TOKEN is a placeholder")
	assert.Contains(t, out, "TOKEN_SIGNING_KEY is a placeholder")
	assert.Contains(t, out, "make dev-secrets writes strong random ones")
	assert.NotContains(t, out, "dev-proxy-token-change-me")

	// TOKEN_SIGNING_KEY_PREVIOUS (a rotation) has the same strength rule,
	// and must differ from the key that replaced it.
	rot := real + "TOKEN_SIGNING_KEY_PREVIOUS=short\n"
	out, err = run(rot)
	assert.Error(t, err)
	assert.Contains(t, out, "TOKEN_SIGNING_KEY_PREVIOUS must be at least 32 bytes")
	out, err = run(real + "TOKEN_SIGNING_KEY_PREVIOUS=signing-key-0123456789abcdef0123456789\n")
	assert.Error(t, err)
	assert.Contains(t, out, "TOKEN_SIGNING_KEY_PREVIOUS must differ from PROXY_TOKEN, API_KEY and TOKEN_SIGNING_KEY")
	out, err = run(real + "TOKEN_SIGNING_KEY_PREVIOUS=previous-signing-key-0123456789abcdef\n")
	assert.NoError(t, err, out)

	// Missing account credentials are asked for as such, and a wrong URL
	// is named without echoing the file.
	out, err = run("UPSTREAM_BASE_URL=http://api.shipping.example/v1\nPROXY_TOKEN=proxy-token-0123456789abcdef0123456789\n" +
		"TOKEN_SIGNING_KEY=signing-key-0123456789abcdef0123456789\n")
	assert.Error(t, err)
	assert.Contains(t, out, "API_USER is missing: the Basic auth user of your account at the upstream")
	assert.Contains(t, out, "API_KEY is missing: the Basic auth key of your account at the upstream")
	assert.Contains(t, out, "UPSTREAM_BASE_URL must be sandbox, or the service's https URL ending in /v1")
	assert.NotContains(t, out, "signing-key-0123456789")
}
