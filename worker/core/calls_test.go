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
