//go:build !(js && wasm)

package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deployRoot is the repository root (this package is worker/).
const deployRoot = ".."

func skipUnlessDeployTest(t *testing.T) {
	if os.Getenv("PARCELGATE_DEPLOY_TEST") != "1" {
		t.Skip("set PARCELGATE_DEPLOY_TEST=1 (make test-deploy builds the worker first)")
	}
}

// wrangler runs the pinned wrangler offline in dir.
func wrangler(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	root, err := filepath.Abs(deployRoot)
	require.NoError(t, err)
	cmd := exec.Command("node", append([]string{filepath.Join(root, "node_modules", "wrangler", "bin", "wrangler.js")}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "WRANGLER_SEND_ERROR_REPORTS=false",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "WRANGLER_HIDE_BANNER=true", "NO_COLOR=1", "CI=1",
		"WRANGLER_LOG_PATH="+filepath.Join(t.TempDir(), "logs"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// checkConfig runs make check-config's script.
func checkConfig(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("node", append([]string{"checkconfig.mjs"}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// deploySection is worker/DEPLOY.md's "Deploy with wrangler" code block
// (worker/README.md links there).
func deploySection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("DEPLOY.md")
	require.NoError(t, err)
	s := string(b)
	i := strings.Index(s, "## Deploy with wrangler")
	require.GreaterOrEqual(t, i, 0)
	s = s[i:]
	i = strings.Index(s, "```sh\n")
	require.GreaterOrEqual(t, i, 0)
	s = s[i+6:]
	return s[:strings.Index(s, "```")]
}

func randomSecret(t *testing.T) string {
	b := make([]byte, 33)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(b)
}

// TestDeployAsTheREADMESays follows worker/DEPLOY.md's deploy section
// step by step, with a dry run for the upload: the production config
// (wrangler.toml's top level) as it is refused by check-config, then
// edited as the README says and passing it with the secrets file, then
// `wrangler deploy --dry-run --secrets-file` uploading the edge alone: no
// sandbox code, no demo shop, no sandbox KV or service binding, no secret
// printed.
func TestDeployAsTheREADMESays(t *testing.T) {
	skipUnlessDeployTest(t)
	steps := deploySection(t)
	// The steps this test takes, in this order, are the README's.
	at := 0
	for _, step := range []string{"make worker", "UPSTREAM_BASE_URL = \"https://<service host>/v1\"",
		"ALLOWED_ORIGINS = \"https://your-shop.example\"", "cat > .prod.secrets", "PROXY_TOKEN=$(openssl rand -base64 33)",
		"TOKEN_SIGNING_KEY=$(openssl rand -base64 33)", "make check-config SECRETS_FILE=.prod.secrets",
		"npx wrangler deploy --env=\"\" --secrets-file .prod.secrets"} {
		i := strings.Index(steps[at:], step)
		require.GreaterOrEqual(t, i, 0, "the README's deploy section has %q after the previous step:\n%s", step, steps)
		at += i + len(step)
	}

	root, err := filepath.Abs(deployRoot)
	require.NoError(t, err)
	dir := t.TempDir()
	toml, err := os.ReadFile(filepath.Join(root, "wrangler.toml"))
	require.NoError(t, err)
	// main is resolved against the config's folder: made absolute, as the
	// copy lives elsewhere.
	main := filepath.Join(root, "build", "worker", "worker.mjs")
	_, err = os.Stat(main)
	require.NoError(t, err, "run make worker")
	cfg := regexp.MustCompile(`(?m)^main = .*$`).ReplaceAllString(string(toml), fmt.Sprintf("main = %q", main))
	cfgPath := filepath.Join(dir, "wrangler.toml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(cfg), 0o644))

	// The config as committed: check-config names what is missing.
	out, err := checkConfig(t, "--config", cfgPath)
	require.Error(t, err, out)
	for _, want := range []string{"UPSTREAM_BASE_URL is empty", "ALLOWED_ORIGINS is empty", "secrets not checked",
		"API_USER, API_KEY, PROXY_TOKEN, TOKEN_SIGNING_KEY"} {
		assert.Contains(t, out, want)
	}

	// Edited as the README says.
	cfg = strings.Replace(cfg, "UPSTREAM_BASE_URL = \"\"", "UPSTREAM_BASE_URL = \"https://api.shipping.example/v1\"", 1)
	cfg = strings.Replace(cfg, "ALLOWED_ORIGINS = \"\"", "ALLOWED_ORIGINS = \"https://shop.example\"", 1)
	require.NoError(t, os.WriteFile(cfgPath, []byte(cfg), 0o644))
	secrets := filepath.Join(dir, ".prod.secrets")
	apiKey, proxy, signing := randomSecret(t), randomSecret(t), randomSecret(t)
	write := func(s string) { require.NoError(t, os.WriteFile(secrets, []byte(s), 0o600)) }

	// A secrets file that misses one and reuses a value: refused, no value shown.
	write(fmt.Sprintf("API_USER=shop-42\nAPI_KEY=%s\nPROXY_TOKEN=%s\n", apiKey, apiKey))
	out, err = checkConfig(t, "--config", cfgPath, "--secrets", secrets)
	require.Error(t, err, out)
	assert.Contains(t, out, "secret TOKEN_SIGNING_KEY is missing: npx wrangler secret put TOKEN_SIGNING_KEY")
	assert.Contains(t, out, "PROXY_TOKEN: must differ from API_KEY")
	assert.NotContains(t, out, apiKey)

	// .dev.vars.example's placeholder copied into production: refused.
	write(fmt.Sprintf("API_USER=shop-42\nAPI_KEY=%s\nPROXY_TOKEN=dev-proxy-token-change-me-0123456789abcdef\nTOKEN_SIGNING_KEY=%s\n", apiKey, signing))
	out, err = checkConfig(t, "--config", cfgPath, "--secrets", secrets)
	require.Error(t, err, out)
	assert.Contains(t, out, "PROXY_TOKEN: is a placeholder")

	// A rotation's TOKEN_SIGNING_KEY_PREVIOUS: the same strength rule, and not the new key.
	write(fmt.Sprintf("API_USER=shop-42\nAPI_KEY=%s\nPROXY_TOKEN=%s\nTOKEN_SIGNING_KEY=%s\nTOKEN_SIGNING_KEY_PREVIOUS=%s\n", apiKey, proxy, signing, "short-previous"))
	out, err = checkConfig(t, "--config", cfgPath, "--secrets", secrets)
	require.Error(t, err, out)
	assert.Contains(t, out, "TOKEN_SIGNING_KEY_PREVIOUS: must be at least 32 bytes")
	write(fmt.Sprintf("API_USER=shop-42\nAPI_KEY=%s\nPROXY_TOKEN=%s\nTOKEN_SIGNING_KEY=%s\nTOKEN_SIGNING_KEY_PREVIOUS=%s\n", apiKey, proxy, signing, signing))
	out, err = checkConfig(t, "--config", cfgPath, "--secrets", secrets)
	require.Error(t, err, out)
	assert.Contains(t, out, "TOKEN_SIGNING_KEY_PREVIOUS: must differ from PROXY_TOKEN, API_KEY and TOKEN_SIGNING_KEY")

	write(fmt.Sprintf("API_USER=shop-42\nAPI_KEY=%s\nPROXY_TOKEN=%s\nTOKEN_SIGNING_KEY=%s\n", apiKey, proxy, signing))

	// What the core refuses is refused before the deploy too, in the core's words: a timeout out
	// of range, a grace not longer than it, an upgrade's day that is not a date.
	bad := strings.Replace(cfg, "UPSTREAM_TIMEOUT_MS = \"10000\"", "UPSTREAM_TIMEOUT_MS = \"0\"", 1)
	bad = strings.Replace(bad, "# BOOKINGS_LEGACY_UNTIL = \"2026-12-28\"", "BOOKINGS_LEGACY_UNTIL = \"2026-02-30\"", 1)
	require.NotEqual(t, cfg, bad)
	badPath := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(badPath, []byte(bad), 0o644))
	out, err = checkConfig(t, "--config", badPath, "--secrets", secrets)
	require.Error(t, err, out)
	assert.Contains(t, out, "UPSTREAM_TIMEOUT_MS: must be a whole number of milliseconds from 1 to 300000")
	assert.Contains(t, out, "BOOKINGS_LEGACY_UNTIL: must be a date, YYYY-MM-DD (UTC)")
	bad = strings.Replace(cfg, "# BOOKING_GRACE_SECONDS = \"120\"", "BOOKING_GRACE_SECONDS = \"5\"", 1)
	require.NotEqual(t, cfg, bad)
	require.NoError(t, os.WriteFile(badPath, []byte(bad), 0o644))
	out, err = checkConfig(t, "--config", badPath, "--secrets", secrets)
	require.Error(t, err, out)
	assert.Contains(t, out, "BOOKING_GRACE_SECONDS: must be longer than UPSTREAM_TIMEOUT_MS (10000 ms)")
	// Signed offers (issue 30): an offer's lifetime out of range is refused; unbound booking
	// grants are a warning (a risk the operator may take), not a refusal.
	bad = strings.Replace(cfg, "UPSTREAM_TIMEOUT_MS = \"10000\"", "UPSTREAM_TIMEOUT_MS = \"10000\"\nOFFER_TTL_SECONDS = \"30\"", 1)
	require.NotEqual(t, cfg, bad)
	require.NoError(t, os.WriteFile(badPath, []byte(bad), 0o644))
	out, err = checkConfig(t, "--config", badPath, "--secrets", secrets)
	require.Error(t, err, out)
	assert.Contains(t, out, "OFFER_TTL_SECONDS: must be a whole number of seconds from 60 to 86400")
	bad = strings.Replace(cfg, "UPSTREAM_TIMEOUT_MS = \"10000\"", "UPSTREAM_TIMEOUT_MS = \"10000\"\nALLOW_UNBOUND_BOOKING_GRANTS = \"true\"", 1)
	require.NoError(t, os.WriteFile(badPath, []byte(bad), 0o644))
	out, err = checkConfig(t, "--config", badPath, "--secrets", secrets)
	require.NoError(t, err, out)
	assert.Contains(t, out, "warning: ALLOW_UNBOUND_BOOKING_GRANTS is true")

	out, err = checkConfig(t, "--config", cfgPath, "--secrets", secrets)
	require.NoError(t, err, out)
	assert.Contains(t, out, "ready to deploy")

	// The upload, as a dry run.
	outdir := filepath.Join(dir, "out")
	// --env="" as the README has it (the shell passes --env=): the top level, with no warning
	// about the other environments.
	out, err = wrangler(t, dir, "deploy", "--config", cfgPath, "--env=", "--dry-run", "--outdir", outdir, "--secrets-file", secrets)
	require.NoError(t, err, out)
	assert.NotContains(t, out, "Multiple environments are defined")
	assert.NotContains(t, out, "no target environment was specified")
	require.Regexp(t, `Total Upload: [0-9.]+ KiB / gzip: [0-9.]+ KiB`, out)
	for _, s := range []string{apiKey, proxy, signing} {
		assert.NotContains(t, out, s, "no secret in wrangler's output")
	}
	assert.NotContains(t, out, "assets directory", "no demo shop uploaded")
	for _, b := range []string{"env.BOOKINGS (Bookings)", "env.WATCHLIST (Watchlist)", "env.RATE_LIMIT_PUBLIC", "env.RATE_LIMIT_ANONYMOUS", "env.RATE_LIMIT_TOKENS"} {
		assert.Contains(t, out, b)
	}
	for _, b := range []string{"SANDBOX_KV", "env.SANDBOX ", "SANDBOX_TIME_SCALE"} {
		assert.NotContains(t, out, b)
	}
	files, err := os.ReadDir(outdir)
	require.NoError(t, err)
	wasm := false
	for _, f := range files {
		wasm = wasm || strings.HasSuffix(f.Name(), "core.wasm")
		b, err := os.ReadFile(filepath.Join(outdir, f.Name()))
		require.NoError(t, err)
		// Package paths stay in the wasm's function table; the realm is
		// the sandbox's own 401 header.
		for _, s := range []string{"parcelgate/internal/sandbox", "tinylib/msgp", `realm="parcelgate sandbox`} {
			assert.False(t, bytes.Contains(b, []byte(s)), "%s carries %q", f.Name(), s)
		}
	}
	assert.True(t, wasm, "the upload is the built edge (its core module)")
}

// [env.dev] (make dev, the tests) restates every production binding (an
// environment inherits none) and adds only the sandbox and the demo shop.
func TestDeployDevEnvironmentKeepsProductionBindings(t *testing.T) {
	skipUnlessDeployTest(t)
	root, err := filepath.Abs(deployRoot)
	require.NoError(t, err)
	bindings := func(env ...string) map[string]string {
		args := append([]string{"deploy", "--dry-run", "--outdir", t.TempDir()}, env...)
		out, err := wrangler(t, root, args...)
		require.NoError(t, err, out)
		m := map[string]string{}
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "env.") {
				m[strings.TrimPrefix(f[0], "env.")] = l
			}
		}
		require.NotEmpty(t, m, out)
		return m
	}
	prod, dev := bindings("--env="), bindings("--env", "dev")
	for name, line := range prod {
		if strings.Contains(line, "Environment Variable") {
			continue // values differ by design; the edge validates them
		}
		assert.Contains(t, dev, name, "[env.dev] lacks the production binding %s", name)
	}
	assert.Contains(t, dev, "SANDBOX")
	assert.Contains(t, dev["SANDBOX"], "parcelgate-sandbox-dev")
	assert.NotContains(t, prod, "SANDBOX")
	assert.NotContains(t, prod, "SANDBOX_KV")
	assert.NotContains(t, dev, "SANDBOX_KV", "the sandbox's KV is the sandbox worker's")
}

// internal/sandbox/README.md's staging deploy, as a dry run: the command as
// written selects the top level and wrangler does not warn about [env.dev].
func TestDeploySandboxAsItsREADMESays(t *testing.T) {
	skipUnlessDeployTest(t)
	root, err := filepath.Abs(deployRoot)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(root, "internal", "sandbox", "README.md"))
	require.NoError(t, err)
	const cmd = `npx wrangler deploy -c internal/sandbox/worker/wrangler.toml --env=""`
	require.Contains(t, string(b), cmd)
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "npx wrangler ") && strings.Contains(l, "-c internal/sandbox/worker/wrangler.toml") {
			assert.Contains(t, l, `--env=""`, "every wrangler command of the sandbox README names its environment")
		}
	}
	out, err := wrangler(t, root, "deploy", "-c", "internal/sandbox/worker/wrangler.toml", "--env=", "--dry-run", "--outdir", t.TempDir())
	require.NoError(t, err, out)
	assert.Contains(t, out, "env.SANDBOX_KV")
	assert.NotContains(t, out, "Multiple environments are defined")
}

// TestDeployCheckConfigMalformedSecretsQuotesNothing: a secrets file that
// is not valid JSON is refused with what is wrong and where (line and
// column), never with its text (V8's JSON.parse message quoted it:
// `Unexpected token 'R', ..."API_KEY":REAL-API-K"...`).
func TestDeployCheckConfigMalformedSecretsQuotesNothing(t *testing.T) {
	skipUnlessDeployTest(t)
	cfg := filepath.Join(deployRoot, "wrangler.toml")
	// A value of bytes that nothing else in the output holds (it is
	// ASCII), so no byte of it may appear; and one a real key could be,
	// of which no four bytes in a row may appear. Columns count
	// characters: odd's seven are two bytes each.
	const odd, real = "«ÆØÅ¶§»", "REAL-API-KEY-7Q9X-do-not-print"
	for _, c := range []struct{ name, text, where string }{
		{"unquoted", "{\n  \"API_USER\": \"shop-42\",\n  \"API_KEY\":" + real + ",\n  \"PROXY_TOKEN\": \"" + odd + "\"\n}\n", "line 3, column 13"},
		{"unquoted, odd", "{\n\t\"API_KEY\": " + odd + "}", "line 2, column 13"},
		{"unclosed string", "\n{\"API_USER\": \"shop-42\", \"API_KEY\": \"" + odd + real + "\n}", "line 2, column 74"},
		{"missing comma", "{\"API_KEY\": \"" + real + odd + "\" \"PROXY_TOKEN\": \"x\"}", "line 1, column 53"},
		{"secret list cut short", "[{\"name\": \"API_KEY\"", "line 1, column 20"},
	} {
		file := filepath.Join(t.TempDir(), "secrets.json")
		require.NoError(t, os.WriteFile(file, []byte(c.text), 0o600))
		out, err := checkConfig(t, "--config", cfg, "--secrets", file)
		require.Error(t, err, c.name)
		assert.Contains(t, out, "is not valid JSON: "+c.where+": ", c.name)
		for i := 0; i < len(odd); i++ {
			assert.NotContains(t, out, odd[i:i+1], "%s: a byte of the value in %s", c.name, out)
		}
		for i := 0; i+4 <= len(real); i++ {
			assert.NotContains(t, out, real[i:i+4], "%s: part of the value in %s", c.name, out)
		}
	}
}
