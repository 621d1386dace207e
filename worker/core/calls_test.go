package core

import (
	"bytes"
	"testing"

	"github.com/parcelgate/parcelgate/worker/core/seam"
	"github.com/stretchr/testify/assert"
)

// call runs one call of the module and returns its JSON and its raw parts
// joined (the tests' calls have one).
func call(c *Calls, method int, in, raw []byte) (head, body []byte) {
	h, parts := c.Call(method, in, raw)
	return append([]byte(nil), h...), bytes.Join(parts, nil)
}

// A method the module does not have is an answer, not a trap; calls the
// seam marks free run before configure without configuring the module.
func TestCallDispatch(t *testing.T) {
	var c Calls
	head, _ := call(&c, 0, []byte(`{}`), nil)
	assert.JSONEq(t, `{"error":"unknown method"}`, string(head))
	head, _ = call(&c, len(seam.Names)+1, []byte(`{}`), nil)
	assert.JSONEq(t, `{"error":"unknown method"}`, string(head))
	head, _ = call(&c, seam.MethodVersion, nil, nil)
	assert.JSONEq(t, `{"version":"`+Version+`"}`, string(head))
	assert.Nil(t, c.Edge, "version needs no configuration")
	head, _ = call(&c, seam.MethodIsMaster, []byte(`{"authorization":"Bearer x"}`), nil)
	assert.JSONEq(t, `{"master":false}`, string(head))
	assert.NotNil(t, c.Edge, "isMaster configured the module first")
}

// Calls read their input in place (seam's decodeCall), and the module
// reuses one input buffer for every call: configure's strings, which the
// Edge keeps, must not be the buffer's bytes. Overwriting the buffer after
// configure leaves the configuration as it was read.
func TestConfigureKeepsItsOwnStrings(t *testing.T) {
	var c Calls
	in := []byte(`{"vars":{"UPSTREAM_BASE_URL":"https://api.example.com/v1","API_USER":"shop-user","API_KEY":"api-key-0123456789","PROXY_TOKEN":"master-token-0123456789abcdef0123456789"},"bindings":{}}`)
	head, _ := call(&c, seam.MethodConfigure, in, nil)
	assert.Contains(t, string(head), `"baseUrl":"https://api.example.com/v1"`)
	for i := range in {
		in[i] = 'x'
	}
	master := []byte(`{"authorization":"Bearer master-token-0123456789abcdef0123456789"}`)
	head, _ = call(&c, seam.MethodIsMaster, master, nil)
	assert.JSONEq(t, `{"master":true}`, string(head))
	assert.Equal(t, "https://api.example.com/v1", c.Edge.UpstreamBase())
}
