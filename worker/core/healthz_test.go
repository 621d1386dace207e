package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// /healthz's webhooks: the counts (the shop's order volume) for the
// master token only; anyone else gets when the watcher last ran, which
// worker/src passes alone.
func TestHealthzWebhooks(t *testing.T) {
	var c Calls
	c.Call(MethodConfigure, []byte(`{"vars":{"UPSTREAM_BASE_URL":"https://api.example.com/v1","API_USER":"u","API_KEY":"k-0123456789",`+
		`"PROXY_TOKEN":"`+strings.Repeat("p", 40)+`","WEBHOOK_URL":"https://shop.example/h","WEBHOOK_SECRET":"`+strings.Repeat("s", 32)+`"},`+
		`"bindings":{"watchlist":true}}`), nil)
	_, body := c.Call(MethodHealthz, []byte(`{"method":"GET","requestId":"r","rateLimits":{},"cache":{},`+
		`"webhooks":{"stats":null,"error":null,"lastRunAt":1795348800000}}`), nil)
	assert.Contains(t, string(body), `"webhooks":{"last_run_at":"2026-11-22T12:00:00Z","counts":"with the master token`)
	_, body = c.Call(MethodHealthz, []byte(`{"method":"GET","requestId":"r","authorization":"Bearer `+strings.Repeat("p", 40)+`","rateLimits":{},"cache":{},`+
		`"webhooks":{"stats":{"watched":3,"pending":1,"delivered":7,"dropped":0,"last_run":{"at":"2026-11-22T12:00:00Z","leased":3}},"error":null,"lastRunAt":1795348800000}}`), nil)
	assert.Contains(t, string(body), `"webhooks":{"watched":3,"pending":1,"delivered":7,"dropped":0,"last_run":{"at":"2026-11-22T12:00:00Z","leased":3}}`)
	_, body = c.Call(MethodHealthz, []byte(`{"method":"GET","requestId":"r","rateLimits":{},"cache":{},`+
		`"webhooks":{"stats":null,"error":"the watchlist could not be reached","lastRunAt":null}}`), nil)
	assert.Contains(t, string(body), `"webhooks":{"error":"the watchlist could not be reached"}`)
}
