// The test fake follows the generated contract: it has every call of
// core.gen.mjs (worker/core/seam's) and no other, with named answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { METHODS } from "./core.gen.mjs";
import { FakeCore } from "./testing/fake-core.mjs";

test("the fake core has the seam's calls, no more", () => {
  const fake = new FakeCore();
  const own = (o) => Object.getOwnPropertyNames(Object.getPrototypeOf(o)).filter((n) => n !== "constructor" && typeof o[n] === "function");
  const calls = own(fake).filter((n) => !["log", "methods", "memoryBytes"].includes(n)).sort();
  const watch = own(fake.watch).map((n) => "watch." + n).sort();
  assert.deepEqual([...calls, ...watch].sort(), Object.keys(METHODS).sort());
});

test("the fake's answers are named as the contract's", () => {
  const fake = new FakeCore();
  assert.deepEqual(fake.isMaster({ authorization: "Bearer master" }), { master: true });
  assert.equal(typeof fake.signWebhook({ body: "{}", now: 0 }).signature, "string");
  assert.equal(typeof fake.version().version, "string");
});
