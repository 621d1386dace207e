package core

import (
	"strconv"
	"strings"

	"github.com/parcelgate/parcelgate/internal/unitab"
)

// Health of the secrets (worker/edge's health.go, issue 20). Configure
// refuses a secret that is too short and checks a missing one where it is
// needed (PROXY_TOKEN when a protected operation is called), so a worker
// without PROXY_TOKEN or TOKEN_SIGNING_KEY serves public reads and looks
// healthy while the shop's bookings fail. /healthz reports every required
// secret that is missing or weak instead, and never a value.

// minDistinct: a generated secret (openssl rand -hex 32, -base64 33) has
// far more distinct characters; fewer means a typed or repeated one.
const minDistinct = 8

// secretProblems lists the required secrets that are missing or weak,
// beyond what Configure already refuses.
func secretProblems(cfg *Config) []ConfigError {
	var out []ConfigError
	if cfg.ProxyToken == "" {
		out = append(out, ConfigError{EnvProxyToken, "secret is not set: the shop's server needs it for protected operations and POST /tokens"})
	} else if p := weakSecret(cfg, cfg.ProxyToken); p != "" {
		out = append(out, ConfigError{EnvProxyToken, p})
	}
	if len(cfg.SigningKey) == 0 {
		out = append(out, ConfigError{EnvTokenSigningKey, "secret is not set: scoped tokens (POST /tokens, the pages' bookings and reads) cannot be minted or verified"})
	} else if p := weakSecret(cfg, string(cfg.SigningKey)); p != "" {
		out = append(out, ConfigError{EnvTokenSigningKey, p})
	}
	if cfg.Webhooks != nil {
		for i, s := range cfg.Webhooks.Secrets {
			name := EnvWebhookSecret
			if i > 0 {
				name = EnvWebhookSecretPrevious
			}
			if p := weakSecret(cfg, string(s)); p != "" {
				out = append(out, ConfigError{name, p})
			}
		}
	}
	return out
}

// weakSecret says why a secret that passed the length check is still
// guessable ("" when it is not): few distinct characters, or the
// placeholder of .dev.vars.example with a real upstream.
func weakSecret(cfg *Config, v string) string {
	var seen [256]bool
	n := 0
	for i := 0; i < len(v); i++ {
		if !seen[v[i]] {
			seen[v[i]] = true
			n++
		}
	}
	if n < minDistinct {
		return "looks weak (" + strconv.Itoa(n) + " distinct characters): use a random secret, e.g. openssl rand -hex 32"
	}
	if !cfg.Sandbox && strings.Contains(unitab.Lower(v), "change-me") {
		return "is the placeholder of .dev.vars.example: use a random secret, e.g. openssl rand -hex 32"
	}
	return ""
}
