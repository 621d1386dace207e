import { test } from "node:test";
import assert from "node:assert/strict";
import { rawQuery, requestFacts } from "./facts.mjs";
import { RetryBudget } from "./retry-budget.mjs";
import { deadline } from "./middleware/deadline.mjs";
import { exchangeFor } from "./testing/fakes.mjs";

test("rawQuery: as sent, null without '?', '' for a bare '?', never the fragment", () => {
  assert.equal(rawQuery("https://e.example/v1/x?a=%20b+c&d"), "a=%20b+c&d");
  assert.equal(rawQuery("https://e.example/v1/x"), null);
  assert.equal(rawQuery("https://e.example/v1/x?"), "");
  assert.equal(rawQuery("https://e.example/v1/x?a=1#frag"), "a=1");
});

test("requestFacts: the headers the core reads, the body as bytes, the input counted", () => {
  const x = exchangeFor("/v1/x?q=1", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded",
    "accept-language": "es", authorization: "Bearer t", "cf-connecting-ip": "192.0.2.1" } });
  x.body = new Uint8Array([0x61, 0xff]);
  const f = requestFacts(x, 42);
  assert.deepEqual(f, { method: "POST", query: "q=1", body: x.body, bodyTooLarge: false,
    contentType: "application/x-www-form-urlencoded", acceptLanguage: "es", authorization: "Bearer t",
    clientIp: "192.0.2.1", requestId: "req-1", now: 42 });
  assert.equal(x.bytesIn, 2);
  const g = exchangeFor("/v1/x?abc");
  requestFacts(g, 1);
  assert.equal(g.bytesIn, 3);
});

test("RetryBudget: a burst saved, then a share per deposit", () => {
  const b = new RetryBudget({ share: 0.5, burst: 2 });
  assert.equal(b.withdraw(), true);
  assert.equal(b.withdraw(), true);
  assert.equal(b.withdraw(), false);
  b.deposit();
  assert.equal(b.withdraw(), false);
  b.deposit();
  assert.equal(b.withdraw(), true);
  for (let i = 0; i < 100; i++) b.deposit();
  assert.equal(b.tokens, 2, "never more than the burst");
});

test("deadline: the answer in time, else onTimeout's", async () => {
  const late = (x) => new Response("late");
  const m = deadline({ ms: () => 20, onTimeout: () => new Response("timeout", { status: 504 }) });
  const fast = await m(exchangeFor("/"), async () => new Response("ok"));
  assert.equal(await fast.text(), "ok");
  const slow = await m(exchangeFor("/"), () => new Promise((r) => setTimeout(() => r(late()), 100)));
  assert.equal(slow.status, 504);
});

test("splitUrl: the origin and path as URL would give them for a request's URL", async () => {
  const { splitUrl } = await import("./exchange.mjs");
  for (const u of ["https://edge.example/v1/get-client-carriers?a=1#f", "http://127.0.0.1:8787/healthz", "https://e.example/",
    "https://e.example/v1/x%20y?q", "https://e.example/a/../v1/./b?x#y", "http://[::1]:8787/tokens"]) {
    const norm = new Request(u).url;
    const want = new URL(norm);
    assert.deepEqual(splitUrl(norm), { self: want.origin, path: want.pathname }, u);
  }
});
