package edge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// /healthz is unhealthy (500) while a required secret is missing or weak,
// even when public reads still work. The caller with the master token
// reads which variables; anyone else a generic message; the log names
// them; no response or log line carries a value.
func TestHealthReportsMissingAndWeakSecrets(t *testing.T) {
	const weakToken = "abababababababababababababababab" // 32 characters, 2 distinct
	cases := []struct {
		name   string
		change env
		want   []string // variables named
	}{
		{"no PROXY_TOKEN", env{EnvProxyToken: ""}, []string{EnvProxyToken}},
		{"no TOKEN_SIGNING_KEY", env{EnvTokenSigningKey: ""}, []string{EnvTokenSigningKey}},
		{"neither", env{EnvProxyToken: "", EnvTokenSigningKey: ""}, []string{EnvProxyToken, EnvTokenSigningKey}},
		{"no API_KEY", env{EnvAPIKey: ""}, []string{EnvAPIKey}},
		{"no API_USER", env{EnvAPIUser: ""}, []string{EnvAPIUser}},
		{"short PROXY_TOKEN", env{EnvProxyToken: "short"}, []string{EnvProxyToken}},
		{"weak TOKEN_SIGNING_KEY", env{EnvTokenSigningKey: weakToken}, []string{EnvTokenSigningKey}},
		{"placeholder with a real upstream", env{EnvProxyToken: "dev-proxy-token-change-me-0123456789abcdef"}, []string{EnvProxyToken}},
		{"webhooks without their secret", env{EnvWebhookURL: "https://shop.example/hooks"}, []string{EnvWebhookSecret}},
		{"weak webhook secret", env{EnvWebhookURL: "https://shop.example/hooks", EnvWebhookSecret: strings.Repeat("xy", 20)}, []string{EnvWebhookSecret}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := baseEnv("https://api.example.com/v1")
			for k, v := range tc.change {
				e[k] = v
			}
			hs := newHarness(e, nil)
			r := hs.do(t, "GET", "/healthz", "")
			require.Equal(t, 500, r.Code, r.Raw)
			assert.Equal(t, CodeMisconfigured, r.errorCode())
			for _, v := range tc.want {
				assert.NotContains(t, r.Raw, v, "the anonymous caller is not told which variable")
				assert.Contains(t, hs.log.String(), v, "the log names it")
			}
			assert.Contains(t, r.message(), "master token")
			if tok := e[EnvProxyToken]; len(tok) >= MinProxyTokenLen {
				r = hs.do(t, "GET", "/healthz", "", "Authorization", "Bearer "+tok)
				require.Equal(t, 500, r.Code, r.Raw)
				for _, v := range tc.want {
					assert.Contains(t, r.message(), v, "the master token reads the names")
				}
			}
			for _, secret := range []string{weakToken, strings.Repeat("xy", 20), testKey, "dev-proxy-token-change-me"} {
				assert.NotContains(t, r.Raw, secret)
				assert.NotContains(t, hs.log.String(), secret)
			}
		})
	}

	// Every secret set and strong: 200.
	hs := newHarness(baseEnv("https://api.example.com/v1"), nil)
	assert.Equal(t, 200, hs.do(t, "GET", "/healthz", "").Code)
}
