import { test } from "node:test";
import assert from "node:assert/strict";
import { requestId, pickRequestId, newRequestId } from "./request-id.mjs";
import { timing } from "./timing.mjs";
import { cors, preflightHeaders } from "./cors.mjs";
import { requestLog, wanted } from "./log.mjs";
import { bodyBounds, declaredLength, readBounded } from "./body.mjs";
import { errors } from "./errors.mjs";
import { deadline } from "./deadline.mjs";
import { exchangeFor } from "../testing/fakes.mjs";
import { reply, fail, clip } from "../exchange.mjs";

const refuse = (x, origin) => fail(x, { status: 403, errorClass: "origin_forbidden", message: "origin " + JSON.stringify(origin) + " is not allowed (ALLOWED_ORIGINS)" });

const ok = async (x) => reply(x, { status: 200, body: '{"status":"ok","data":{}}' });

test("request id: a plain client id of at most 64 characters is kept, anything else replaced", async () => {
  const make = () => "new";
  assert.equal(pickRequestId("abc-1.2_3", make), "abc-1.2_3");
  assert.equal(pickRequestId("a".repeat(64), make), "a".repeat(64));
  assert.equal(pickRequestId("a".repeat(65), make), "new");
  assert.equal(pickRequestId("a b", make), "new");
  assert.equal(pickRequestId("<script>", make), "new");
  assert.equal(pickRequestId("", make), "new");
  assert.equal(pickRequestId(null, make), "new");
  const x = exchangeFor("/", { headers: { "x-request-id": "shop-42" } });
  const res = await requestId()(x, ok);
  assert.equal(res.headers.get("x-request-id"), "shop-42");
  const y = exchangeFor("/");
  const r2 = await requestId()(y, ok);
  assert.match(r2.headers.get("x-request-id"), /^[0-9a-f]{32}$/);
});

test("request id: a new one is 32 hex digits, the isolate's random half and its count; never repeated", () => {
  const ids = Array.from({ length: 5000 }, () => newRequestId());
  for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(new Set(ids).size, ids.length);
  const half = ids[0].slice(0, 16);
  assert.ok(ids.every((id) => id.slice(0, 16) === half), "one isolate, one random half");
  assert.notEqual(half, "0".repeat(16));
  for (let i = 1; i < ids.length; i++) assert.equal(parseInt(ids[i].slice(16), 16), parseInt(ids[i - 1].slice(16), 16) + 1);
});

test("timing: edge always, upstream only when a call was made", async () => {
  let now = 1000;
  const x = exchangeFor("/");
  const res = await timing({ now: () => now })(x, async (x) => { now += 12.34; return ok(x); });
  assert.equal(res.headers.get("server-timing"), "edge;dur=12.3");
  const y = exchangeFor("/");
  const r2 = await timing({ now: () => now })(y, async (y) => { y.upstream.attempts = 1; y.upstream.ms = 7; return ok(y); });
  assert.match(r2.headers.get("server-timing"), /^edge;dur=[\d.]+, upstream;dur=7\.0$/);
});

test("cors: an allowed origin is echoed, another refused 403 without CORS headers, none untouched", async () => {
  const m = cors({ allowedOrigins: () => ["https://shop.example"], refuse });
  const a = await m(exchangeFor("/", { headers: { origin: "https://shop.example" } }), ok);
  assert.equal(a.headers.get("access-control-allow-origin"), "https://shop.example");
  assert.equal(a.headers.get("access-control-expose-headers"), "X-Request-Id, Server-Timing, X-Cache, Parcelgate-Data, Retry-After, Rates-Source");
  assert.equal(a.headers.get("vary"), "Origin");

  let called = false;
  const x = exchangeFor("/", { headers: { origin: "https://evil.example" } });
  const b = await m(x, async (x) => { called = true; return ok(x); });
  assert.equal(b.status, 403);
  assert.equal(called, false);
  assert.equal(b.headers.get("access-control-allow-origin"), null);
  assert.equal(b.headers.get("vary"), "Origin");
  const body = await b.json();
  assert.equal(body.data.errorCode, 1403);
  assert.equal(body.data.errorClass, "origin_forbidden");
  assert.match(body.data.errorMessage, /evil\.example/);

  const c = await m(exchangeFor("/"), ok);
  assert.equal(c.headers.get("access-control-allow-origin"), null);
  assert.equal(c.headers.get("vary"), "Origin");
  // Same origin (a page the worker serves itself).
  const d = await m(exchangeFor("/", { headers: { origin: "https://edge.example" } }), ok);
  assert.equal(d.status, 200);
  assert.equal(d.headers.get("access-control-allow-origin"), null);
  // "*" allows any.
  const e = await cors({ allowedOrigins: () => ["*"], refuse })(exchangeFor("/", { headers: { origin: "https://a.example" } }), ok);
  assert.equal(e.headers.get("access-control-allow-origin"), "https://a.example");
});

test("cors: a page on another origin may read a rates answer's Rates-Source (issue 31)", async () => {
  const m = cors({ allowedOrigins: () => ["https://shop.example"], refuse });
  const rates = async (x) => {
    const r = await ok(x);
    r.headers.set("rates-source", "recent");
    return r;
  };
  const a = await m(exchangeFor("/v1/get-shipments-rates", { headers: { origin: "https://shop.example" } }), rates);
  const exposed = a.headers.get("access-control-expose-headers").split(",").map((h) => h.trim().toLowerCase());
  assert.ok(exposed.includes("rates-source"), exposed.join(", "));
  assert.equal(a.headers.get("rates-source"), "recent");
});

test("preflight headers: CORS members only for an allowed origin", () => {
  assert.deepEqual(preflightHeaders("", "GET"), { allow: "GET, OPTIONS" });
  assert.deepEqual(preflightHeaders("https://s.example", "GET, POST"), {
    allow: "GET, POST, OPTIONS", "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "Authorization, Content-Type, X-Request-Id", "access-control-max-age": "600" });
});

test("request log: LOG_REQUESTS errors, all, off; the line holds no query, body or token", async () => {
  const lines = [];
  const write = (o) => lines.push(o);
  const run = async (mode, path, status, init) => {
    const x = exchangeFor(path, init);
    x.op = "get-client-carriers";
    await requestLog({ mode: () => mode, write, now: () => 1005 })(x, async (x) => reply(x, { status, body: "{}" }));
    return x;
  };
  await run("errors", "/v1/get-client-carriers?secret=1", 200);
  assert.equal(lines.length, 0);
  await run("errors", "/v1/get-client-carriers?secret=1", 404, { headers: { authorization: "Bearer tok-123" } });
  assert.equal(lines.length, 1);
  const l = lines[0];
  assert.equal(l.msg, "request");
  assert.equal(l.status, 404);
  assert.equal(l.edge_ms, 5);
  assert.equal(l.bytes_out, 2);
  assert.equal(l.cors, false);
  assert.doesNotMatch(JSON.stringify(l), /secret|tok-123/);
  await run("all", "/healthz", 200);
  assert.equal(lines.length, 2);
  await run("off", "/x", 500);
  assert.equal(lines.length, 2);
  const x = exchangeFor("/");
  x.upstream.attempts = 2;
  assert.equal(wanted("errors", x, 200), true, "a retried upstream call is logged");
  const y = exchangeFor("/");
  y.note = "rate limiter failed";
  assert.equal(wanted("errors", y, 200), true);
});

/** A stream of n bytes in chunks of size, counting what was pulled. */
function stream(n, size) {
  let sent = 0;
  const s = new ReadableStream({
    pull(c) {
      if (sent >= n) return c.close();
      const k = Math.min(size, n - sent);
      sent += k;
      c.enqueue(new Uint8Array(k).fill(97));
    },
  });
  return { s, sent: () => sent };
}

test("readBounded keeps the bound, drains past it, cancels past the drain", async () => {
  const a = stream(10, 3);
  const got = await readBounded(a.s, { limit: 100, drain: 0 });
  assert.equal(got.bytes.byteLength, 10);
  const b = stream(1000, 64);
  const g2 = await readBounded(b.s, { limit: 101, drain: 10000 });
  assert.equal(g2.bytes.byteLength, 101);
  assert.equal(b.sent(), 1000, "drained to the end");
  const c = stream(100000, 64);
  const g3 = await readBounded(c.s, { limit: 101, drain: 1000 });
  assert.equal(g3.bytes.byteLength, 101);
  assert.ok(c.sent() < 2000, "cancelled past the drain: " + c.sent());
  assert.equal(await readBounded(null, { limit: 1, drain: 0 }), null);
});

test("body bounds: a declared length over the bound is never read; a read one is kept to bound+1", async () => {
  const m = bodyBounds({ maxBodyBytes: () => 256, drainBytes: 1 << 20 });
  const big = exchangeFor("/v1/x", { method: "POST", body: "a".repeat(300) });
  await m(big, ok);
  assert.equal(big.bodyTooLarge, true);
  const chunked = stream(5000, 100);
  const c = exchangeFor("/v1/x", { method: "POST", body: chunked.s, duplex: "half" });
  await m(c, ok);
  assert.equal(c.bodyTooLarge, true);
  assert.equal(c.body.byteLength, 257);
  assert.equal(chunked.sent(), 5000, "drained");
  const small = exchangeFor("/v1/x", { method: "POST", body: "a=1" });
  await m(small, ok);
  assert.equal(small.bodyTooLarge, false);
  assert.equal(new TextDecoder().decode(small.body), "a=1");
  const none = exchangeFor("/healthz");
  await m(none, ok);
  assert.equal(none.body, null);
});

test("body bounds: a body that breaks off mid-read is the client's 400 (body_unreadable), not a 500 panic", async () => {
  const m = bodyBounds({ maxBodyBytes: () => 256, drainBytes: 1 << 20 });
  for (const declared of [false, true]) {
    let sent = 0;
    const broken = new ReadableStream({
      pull(c) {
        if (sent++ === 0) c.enqueue(new TextEncoder().encode("a=1&"));
        else c.error(new Error("Network connection lost."));
      },
    });
    const x = exchangeFor("/v1/x", { method: "POST", body: broken, duplex: "half",
      headers: declared ? { "content-length": "100" } : {} });
    let reached = false;
    const res = await m(x, async () => { reached = true; return ok(); });
    assert.equal(reached, false, "the route never sees a half body");
    assert.equal(res.status, 400);
    const b = await res.json();
    assert.equal(b.data.errorClass, "body_unreadable");
    assert.equal(x.errorClass, "body_unreadable");
    assert.equal(x.detail, "Network connection lost.");
  }
});

test("declaredLength: a plain Content-Length bounds the body; an encoded or odd one does not", () => {
  const h = (o) => new Headers(o);
  assert.equal(declaredLength(h({ "content-length": "42" })), 42);
  assert.equal(declaredLength(h({ "content-length": "0" })), 0);
  assert.equal(declaredLength(h({ "content-length": "42", "content-encoding": "identity" })), 42);
  for (const bad of [{}, { "content-length": "" }, { "content-length": "-1" }, { "content-length": "4.2" }, { "content-length": "1e3" },
    { "content-length": "1234567890123456" }, { "content-length": "42", "content-encoding": "gzip" }]) {
    assert.equal(declaredLength(h(bad)), -1, JSON.stringify(bad));
  }
});

test("body bounds: a declared length within the bound is read in one call, whole", async () => {
  const m = bodyBounds({ maxBodyBytes: () => 256, drainBytes: 1 << 20 });
  const x = exchangeFor("/v1/x", { method: "POST", body: "a=1&b=2", headers: { "content-length": "7" } });
  let whole = 0;
  const arrayBuffer = x.request.arrayBuffer.bind(x.request);
  x.request.arrayBuffer = () => { whole++; return arrayBuffer(); };
  await m(x, ok);
  assert.equal(new TextDecoder().decode(x.body), "a=1&b=2");
  assert.equal(x.bodyTooLarge, false);
  assert.equal(whole, 1, "read with arrayBuffer, not chunk by chunk");
});

test("errors: a throw answers that request 500 with the envelope; the log says panic", async () => {
  const seen = [];
  const x = exchangeFor("/");
  const internal = (x) => fail(x, { status: 500, errorClass: "internal", message: "internal error in the edge worker (request " + x.id + ")" });
  const res = await errors({ internal, onError: (e) => seen.push(e) })(x, async () => { throw new TypeError("x is undefined"); });
  assert.equal(res.status, 500);
  const b = await res.json();
  assert.equal(b.status, "err");
  assert.equal(b.data.errorCode, 1500);
  assert.equal(b.data.errorClass, "internal");
  assert.match(b.data.errorMessage, /req-1/);
  assert.equal(x.errorClass, "panic");
  assert.equal(x.detail, "TypeError");
  assert.equal(seen.length, 1);
  // The core failing to write the envelope too: the English one.
  const y = exchangeFor("/");
  const r2 = await errors({ internal: () => { throw new Error("core"); } })(y, async () => { throw new Error("x"); });
  assert.equal(r2.status, 500);
  assert.equal((await r2.json()).data.errorClass, "internal");
});

test("deadline: the answer of whichever comes first; a throw passes through", async () => {
  const late = (x) => fail(x, { status: 504, errorClass: "timeout", message: "late" });
  const m = deadline({ ms: () => 1, onTimeout: late });
  const never = () => new Promise(() => {});
  assert.equal((await m(exchangeFor("/v1/x"), never)).status, 504);
  assert.equal((await m(exchangeFor("/v1/x"), ok)).status, 200);
  await assert.rejects(m(exchangeFor("/v1/x"), async () => { throw new TypeError("boom"); }), TypeError);
  await assert.rejects(m(exchangeFor("/v1/x"), () => { throw new RangeError("sync"); }), RangeError);
  const broken = deadline({ ms: () => 1, onTimeout: () => { throw new SyntaxError("envelope"); } });
  await assert.rejects(broken(exchangeFor("/v1/x"), never), SyntaxError);
});

test("clip shortens to n characters (code points), never half of one", () => {
  const a15 = "a".repeat(15);
  assert.equal(clip(a15 + "😀x", 16), a15 + "😀...");
  assert.equal(clip("😀".repeat(16), 16), "😀".repeat(16));
  assert.equal(clip("ñ".repeat(17), 16), "ñ".repeat(16) + "...");
  assert.equal(clip("GET", 16), "GET");
});
