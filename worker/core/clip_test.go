package core_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/worker/core"
)

// What the edge's messages quote from a request or from the upstream is
// clipped to a number of characters (runes), never cut inside one: a byte
// count left half of "ñ" or "😀" in the message (U+FFFD once written as
// JSON) and clipped text that fit.

func TestUpstreamMessageClippedByRunes(t *testing.T) {
	e := edgeOf()
	a199 := strings.Repeat("a", 199)
	for _, c := range []struct{ msg, shown string }{
		{a199 + "ñb", a199 + "ñ..."},
		{a199 + "😀b", a199 + "😀..."},
		{strings.Repeat("ñ", 200), strings.Repeat("ñ", 200)},
	} {
		body := `{"status":"err","data":{"errorCode":999,"errorMessage":"` + c.msg + `"}}`
		a := drive(t, e, "get-client-carriers", &core.Request{Method: "GET", Authorization: bearerMaster}, &core.Upstream{Status: 500, Body: []byte(body)})
		require.Equal(t, 502, a.Status, a.Raw)
		assert.True(t, utf8.ValidString(a.Raw) && !strings.ContainsRune(a.Raw, utf8.RuneError), "no character cut in half: %s", a.Raw)
		assert.True(t, strings.HasSuffix(a.message(), ": 999 "+c.shown), "%q: got %q", c.msg, a.message())
	}
}

func TestTokensUnknownFieldClippedByRunes(t *testing.T) {
	e := edgeOf()
	a63 := strings.Repeat("a", 63)
	for _, c := range []struct{ name, shown string }{
		{a63 + "ñb", a63 + "ñ..."},
		{a63 + "😀b", a63 + "😀..."},
		{strings.Repeat("é", 64), strings.Repeat("é", 64)},
	} {
		body := "operations=new-shipment&shipping_client_ref=A&" + c.name + "=1"
		a := toAnswer(t, e.Tokens(&core.Request{Method: "POST", Body: []byte(body), ContentType: "application/x-www-form-urlencoded",
			Authorization: bearerMaster, RequestID: "rid", Now: day}).Response, nil)
		require.Equal(t, 400, a.Status, a.Raw)
		assert.True(t, utf8.ValidString(a.Raw) && !strings.ContainsRune(a.Raw, utf8.RuneError), "no character cut in half: %s", a.Raw)
		assert.True(t, strings.HasPrefix(a.message(), c.shown+": unknown field"), "%q: got %q", c.name, a.message())
	}
}
