import { test } from "node:test";
import assert from "node:assert/strict";
import { compose, router } from "./router.mjs";
import { exchangeFor } from "./testing/fakes.mjs";

test("compose runs middleware outermost first, around the handler", async () => {
  const seen = [];
  const m = (name) => async (x, next) => { seen.push("in " + name); const r = await next(x); seen.push("out " + name); return r; };
  const h = compose([m("a"), m("b")], async () => { seen.push("handler"); return new Response("x"); });
  await h(exchangeFor("/"));
  assert.deepEqual(seen, ["in a", "in b", "handler", "out b", "out a"]);
});

test("router: exact paths, then prefixes in order, else notFound", async () => {
  const named = (n) => async () => new Response(n);
  const h = router({ exact: { "/healthz": named("health") },
    prefixes: [{ prefix: "/v1/", handler: named("op") }, { prefix: "/v", handler: named("v") }], notFound: named("404") });
  const text = async (p) => (await h(exchangeFor(p))).text();
  assert.equal(await text("/healthz"), "health");
  assert.equal(await text("/healthz/"), "404");
  assert.equal(await text("/v1/get-client-carriers"), "op");
  assert.equal(await text("/v2"), "v");
  assert.equal(await text("/"), "404");
});
