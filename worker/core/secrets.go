package core

import (
	"strings"

	"github.com/parcelgate/parcelgate/internal/decimal"
	"github.com/parcelgate/parcelgate/internal/substr"
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

// secretProblems lists the required secrets that are missing, weak or
// placeholders, beyond what Configure already refuses. It is the one rule
// for secrets: /healthz answers 500 with these, and make check-config and
// make dev's check (worker/checkconfig.mjs, worker/devvars.sh) get them
// among Configure's errors (Bindings.Check) and refuse what it refuses
// (testdata/secrets.json holds the verdicts all three are tested on).
func secretProblems(cfg *Config) []ConfigError {
	var out []ConfigError
	// One check per secret (one append: the core's size is budgeted).
	check := func(name, v, missing string) {
		p := missing
		switch {
		case v == "":
		case name == EnvAPIUser || name == EnvAPIKey:
			// The account's credentials are the upstream's to judge,
			// except a placeholder copied from a README: it can only
			// fail every call.
			p = ""
			if !cfg.Sandbox && isPlaceholder(v) {
				p = "is a placeholder"
			}
		default:
			p = weakSecret(cfg, v)
			if p == "" && name == EnvProxyToken && v == cfg.APIKey {
				// The shop's server holds the master token: it must not
				// be the account's key too.
				p = "must differ from API_KEY"
			}
		}
		if p != "" {
			out = append(out, ConfigError{name, p})
		}
	}
	check(EnvAPIUser, cfg.APIUser, "")
	check(EnvAPIKey, cfg.APIKey, "")
	check(EnvProxyToken, cfg.ProxyToken, "secret is not set: the shop's server needs it for protected operations and POST /tokens")
	check(EnvTokenSigningKey, string(cfg.SigningKey), "secret is not set: scoped tokens (POST /tokens, the pages' bookings and reads) cannot be minted or verified")
	if len(cfg.SigningKeys) > 1 {
		// The rotation's previous key verifies tokens still in the wild:
		// the same rule as the key that signs them.
		check(EnvTokenSigningKeyPrevious, string(cfg.SigningKeys[1]), "")
	}
	if cfg.Webhooks != nil {
		for i, s := range cfg.Webhooks.Secrets {
			name := EnvWebhookSecret
			if i > 0 {
				name = EnvWebhookSecretPrevious
			}
			check(name, string(s), "")
		}
	}
	return out
}

// isPlaceholder reports whether a secret is a placeholder copied from a
// README or an example file instead of a value: text in angle brackets
// (<your account's user>), change-me (changeme, change_me), or one that
// starts with replace or your- / your_ (REPLACE_ME, your-api-key), in any
// case. A generated secret is none of these.
func isPlaceholder(v string) bool {
	l := unitab.Lower(v)
	if i := strings.IndexByte(l, '<'); i >= 0 && strings.LastIndexByte(l, '>') > i {
		return true
	}
	return substr.Contains(l, "change-me") || substr.Contains(l, "changeme") || substr.Contains(l, "change_me") ||
		strings.HasPrefix(l, "replace") || strings.HasPrefix(l, "your-") || strings.HasPrefix(l, "your_")
}

// weakSecret says why a secret that passed the length check is still
// guessable ("" when it is not): few distinct characters, or a placeholder
// (.dev.vars.example's) with a real upstream.
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
		return "looks weak (" + decimal.Itoa(n) + " distinct characters): use a random secret, e.g. openssl rand -hex 32"
	}
	if !cfg.Sandbox && isPlaceholder(v) {
		return "is a placeholder: use a random secret, e.g. openssl rand -hex 32"
	}
	return ""
}

// SecretProblems is secretProblems of a configured edge, for the tests
// that hold check-config and make dev's check to the same verdicts.
func SecretProblems(e *Edge) []ConfigError { return secretProblems(&e.cfg) }
