package core

import (
	"github.com/parcelgate/parcelgate/worker/core/seam"

	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// /healthz's webhooks: the counts (the shop's order volume) for the
// master token only; anyone else gets when the watcher last ran, which
// worker/src passes alone.
func TestHealthzWebhooks(t *testing.T) {
	// Random-looking secrets: a weak or missing one makes /healthz 500
	// (secrets.go, issue 20).
	master := "pm-" + strings.Repeat("0123456789abcdef", 3)
	var c Calls
	call(&c, seam.MethodConfigure, []byte(`{"vars":{"UPSTREAM_BASE_URL":"https://api.example.com/v1","API_USER":"u","API_KEY":"k-0123456789",`+
		`"PROXY_TOKEN":"`+master+`","TOKEN_SIGNING_KEY":"sk-`+strings.Repeat("fedcba9876543210", 3)+`",`+
		`"WEBHOOK_URL":"https://shop.example/h","WEBHOOK_SECRET":"ws-`+strings.Repeat("a1b2c3d4e5f6g7h8", 3)+`"},`+
		`"bindings":{"watchlist":true}}`), nil)
	_, body := call(&c, seam.MethodHealthz, []byte(`{"method":"GET","requestId":"r","rateLimits":{},"cache":{},`+
		`"webhooks":{"stats":null,"error":null,"lastRunAt":1795348800000}}`), nil)
	assert.Contains(t, string(body), `"webhooks":{"last_run_at":"2026-11-22T12:00:00Z","counts":"with the master token`)
	_, body = call(&c, seam.MethodHealthz, []byte(`{"method":"GET","requestId":"r","authorization":"Bearer `+master+`","rateLimits":{},"cache":{},`+
		`"webhooks":{"stats":{"watched":3,"pending":1,"delivered":7,"dropped":0,"last_run":{"at":"2026-11-22T12:00:00Z","leased":3}},"error":null,"lastRunAt":1795348800000}}`), nil)
	assert.Contains(t, string(body), `"webhooks":{"watched":3,"pending":1,"delivered":7,"dropped":0,"last_run":{"at":"2026-11-22T12:00:00Z","leased":3}}`)
	_, body = call(&c, seam.MethodHealthz, []byte(`{"method":"GET","requestId":"r","rateLimits":{},"cache":{},`+
		`"webhooks":{"stats":null,"error":"the watchlist could not be reached","lastRunAt":null}}`), nil)
	assert.Contains(t, string(body), `"webhooks":{"error":"the watchlist could not be reached"}`)
}

// A missing or weak secret makes /healthz unhealthy: the variables to the
// master token and in the log line's detail, a generic message to anyone
// else, never a value.
func TestHealthzNamesMissingSecrets(t *testing.T) {
	master := "pm-" + strings.Repeat("0123456789abcdef", 3)
	var c Calls
	call(&c, seam.MethodConfigure, []byte(`{"vars":{"UPSTREAM_BASE_URL":"https://api.example.com/v1","API_USER":"u","API_KEY":"k-0123456789",`+
		`"PROXY_TOKEN":"`+master+`"},"bindings":{}}`), nil)
	head, body := call(&c, seam.MethodHealthz, []byte(`{"method":"GET","requestId":"r","rateLimits":{},"cache":{},"webhooks":null}`), nil)
	assert.Contains(t, string(head), `"status":500`)
	assert.Contains(t, string(head), `"detail":"worker misconfigured: TOKEN_SIGNING_KEY: secret is not set`)
	assert.Contains(t, string(body), "a required secret or setting is missing")
	assert.NotContains(t, string(body), "TOKEN_SIGNING_KEY")
	_, body = call(&c, seam.MethodHealthz, []byte(`{"method":"GET","requestId":"r","authorization":"Bearer `+master+`","rateLimits":{},"cache":{},"webhooks":null}`), nil)
	assert.Contains(t, string(body), "TOKEN_SIGNING_KEY: secret is not set")
	assert.NotContains(t, string(body), master)
}
