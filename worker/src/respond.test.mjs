import { test } from "node:test";
import assert from "node:assert/strict";
import { failureBody, okBody, json } from "./respond.mjs";

test("failureBody writes ErrorData's members in Go's order", () => {
  assert.equal(failureBody({ status: 404, errorClass: "not_found", message: "nope" }, "r1"),
    '{"status":"err","data":{"errorCode":1404,"errorMessage":"nope","source":"edge","errorClass":"not_found","requestId":"r1"}}');
  const b = JSON.parse(failureBody({ status: 500, errorClass: "internal", message: "m \"q\" </script>\u2028" }, "r\"2"));
  assert.deepEqual(Object.keys(b.data), ["errorCode", "errorMessage", "source", "errorClass", "requestId"]);
  assert.equal(b.data.errorCode, 1500);
  assert.equal(b.data.errorMessage, 'm "q" </script>\u2028');
  assert.equal(b.data.requestId, 'r"2');
});

test("okBody and json", async () => {
  assert.equal(okBody({ a: "b" }), '{"status":"ok","data":{"a":"b"}}');
  const r = json({ status: 201, body: "{}", headers: { allow: "GET" } });
  assert.equal(r.status, 201);
  assert.equal(r.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(r.headers.get("cache-control"), "no-store");
  assert.equal(r.headers.get("x-content-type-options"), "nosniff");
  assert.equal(r.headers.get("allow"), "GET");
  assert.equal(await r.text(), "{}");
  // The core names its headers in canonical case: ours replace its Content-Type (not a second value).
  const c = json({ status: 503, body: null, headers: { "Content-Type": "text/plain", "Retry-After": "5", "Cache-Control": "max-age=60" } });
  assert.equal(c.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(c.headers.get("cache-control"), "no-store");
  assert.equal(c.headers.get("retry-after"), "5");
});
