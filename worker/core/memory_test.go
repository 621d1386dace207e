package core_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/allocated"
	"github.com/parcelgate/parcelgate/worker/core"
	"github.com/parcelgate/parcelgate/worker/core/seam"
)

// One call's memory with a large answer (a Cloudflare isolate has 128 MB
// in all, and the worker reads up to MaxUpstreamBody of an answer): the
// core's work on a body allocates a few times its size at most, and the
// crossing none beyond the message buffer. Bytes allocated natively
// (TotalAlloc); worker/src/core.test.mjs checks the module's memory.
// Before: a booking answer with an 8 MiB label allocated 7x its size in
// the call (the key-leak scan joined the label's hex run into growing
// buffers; the envelope was read from two copies), a megabyte of drop
// points 4.7x to normalize and 7.4x signed.

// dropPoints is a get-drop-points answer of about n bytes.
func dropPoints(n int) []byte {
	const pt = `{"carrier_code":"swiftpost","drop_point_key":"SP-28013-004","name":"Kiosko Sol","address":"Calle Mayor 5","zip_code":"28013",` +
		`"city":"Madrid","latitude":"40.4165","longitude":"-3.70256","time_table":{"mon":"09:00 - 20:00","tue":"09:00 - 20:00",` +
		`"wed":"09:00 - 20:00","thu":"09:00 - 20:00","fri":"09:00 - 20:00","sat":"10:00 - 14:00","sun":""},"phone":"910000000"}`
	var b bytes.Buffer
	b.WriteString(`{"status":"ok","data":{"drop_points":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(pt)
	}
	b.WriteString(`]}}`)
	return b.Bytes()
}

// labels are booking answers with an 8 MiB label: a run of "A" (all hex
// digits, what the leak scan joined whole) and base64 as a PHP upstream
// sends it (its slashes escaped: the scan's one copy, unescaped).
func labels() map[string][]byte {
	raw := make([]byte, 6<<20)
	for i := range raw {
		raw[i] = byte(i * 2654435761 >> 13)
	}
	b64 := strings.ReplaceAll(base64.StdEncoding.EncodeToString(raw), "/", `\/`)
	return map[string][]byte{
		"A":            []byte(`{"status":"ok","data":{"label":"` + strings.Repeat("A", 8<<20) + `"}}`),
		"PHP's base64": []byte(`{"status":"ok","data":{"label":"` + b64 + `"}}`),
	}
}

func memoryEdge() *core.Edge {
	e := env()
	return core.Configure(func(k string) (string, bool) { v, ok := e[k]; return v, ok }, core.Bindings{})
}

const bookingAnswer = `{"context":{"operation":"new-shipment","clientRef":"ORD-1","ledger":true},"upstream":{"status":200,"failure":null},` +
	`"requestId":"r","acceptLanguage":"es","now":1}`

func TestOneCallsMemoryIsAFewTimesTheBody(t *testing.T) {
	c := core.Calls{Edge: memoryEdge()}
	for name, body := range labels() {
		var parts [][]byte
		n := allocated.Bytes(func() { _, parts = c.Call(seam.MethodAnswer, []byte(bookingAnswer), body) })
		require.Len(t, parts, 1, name)
		assert.True(t, bytes.Equal(body, parts[0]), "%s: relayed as received", name)
		assert.LessOrEqual(t, float64(n), 1.5*float64(len(body)), "%s: allocated %.2fx the body", name, float64(n)/float64(len(body)))
	}
	body := dropPoints(1 << 20)
	for _, in := range []struct {
		name, head string
		limit      float64
	}{
		{"normalized", `{"operation":"get-drop-points","now":1}`, 2.5},
		{"normalized and signed", `{"operation":"get-drop-points","now":1,"sign":"cc=ES&z=28013"}`, 4.5},
		{"signed", `{"operation":"get-drop-points","keep":true,"now":1,"sign":"cc=ES&z=28013"}`, 2.5},
	} {
		var head []byte
		var parts [][]byte
		n := allocated.Bytes(func() { head, parts = c.Call(seam.MethodNormalize, []byte(in.head), body) })
		var got struct{ Normalized bool }
		require.NoError(t, json.Unmarshal(head, &got), in.name)
		require.Len(t, parts, 1, in.name)
		assert.Equal(t, in.name != "signed", got.Normalized, in.name)
		assert.Greater(t, len(parts[0]), len(body)*9/10, in.name)
		assert.LessOrEqual(t, float64(n), in.limit*float64(len(body)), "%s: allocated %.2fx the body", in.name, float64(n)/float64(len(body)))
	}
}

// A normalized answer is signed in its own buffer (the room normalize
// left after it), never copied: byte for byte what signing a copy gives,
// for drop points and for rates (best_price_service and services).
func TestSigningInPlaceIsSigningACopy(t *testing.T) {
	edge := memoryEdge()
	c := core.Calls{Edge: edge}
	for _, tc := range []struct {
		op, sign string
		body     []byte
	}{
		{"get-drop-points", "cc=ES&z=28013", dropPoints(64 << 10)},
		{"get-drop-points", "cc=ES&z=28013", []byte(`{"status":"ok","data":[` + strings.TrimSuffix(strings.TrimPrefix(string(dropPoints(2000)), `{"status":"ok","data":{"drop_points":[`), `]}}`) + `]}`)},
		{"get-shipments-rates", "fc=ES&fz=28014&tc=ES&tz=08001&pc=2,20,10,30,6000", []byte(ratesBody)},
	} {
		_, parts := c.Call(seam.MethodNormalize, []byte(`{"operation":"`+tc.op+`","now":1700000000000,"sign":"`+tc.sign+`"}`), tc.body)
		norm, ok := core.Normalize(tc.op, tc.body)
		require.True(t, ok, tc.op)
		want := edge.SignAnswer(tc.op, norm, tc.sign, time.UnixMilli(1700000000000))
		require.NotEqual(t, string(norm), string(want), "%s: signed", tc.op)
		assert.Equal(t, string(want), string(parts[0]), tc.op)
	}
}

// The crossing (the module's buffers) sizes a large message's buffer
// exactly and hands back each raw part where the call left it: a relayed
// body is the message's own bytes, never copied (the module once copied
// every answer after its JSON, in a buffer TinyGo rounded up to a power
// of two: 16 MiB for an 8 MiB label).
func TestTheCrossingCopiesNoBody(t *testing.T) {
	x := core.Crossing{Calls: core.Calls{Edge: memoryEdge()}}
	body := labels()["A"]
	n := len(bookingAnswer) + len(body)
	var in []byte
	assert.LessOrEqual(t, allocated.Bytes(func() { in = x.In(n) }), uint64(n)+16<<10, "the buffer of a large message is its size (and Go's page rounding)")
	require.Len(t, in, n)
	copy(in, bookingAnswer)
	copy(in[len(bookingAnswer):], body)
	var head []byte
	var parts [][]byte
	assert.Less(t, allocated.Bytes(func() { head, parts = x.Run(seam.MethodAnswer, len(bookingAnswer), len(body)) }), uint64(64<<10))
	assert.Contains(t, string(head), `"$raw":[["response.body",`+strconv.Itoa(len(body))+`]]`)
	require.Len(t, parts, 1)
	assert.Same(t, &in[len(bookingAnswer)], &parts[0][0], "the relayed body is the message's own bytes")

	// A small message: exactly its size too (the module's arena takes every
	// call's memory back, so nothing is kept for the next message).
	x = core.Crossing{Calls: core.Calls{Edge: memoryEdge()}}
	assert.Equal(t, 100, cap(x.In(100)))
	assert.Empty(t, x.In(-1))
	// Lengths the buffer does not hold are an empty message (an answer,
	// not a trap).
	head, _ = x.Run(seam.MethodVersion, 1000, 1000)
	assert.JSONEq(t, `{"version":"`+core.Version+`"}`, string(head))
	head, _ = x.Run(seam.MethodVersion, -1, 5)
	assert.JSONEq(t, `{"version":"`+core.Version+`"}`, string(head))
}
