import { test } from "node:test";
import assert from "node:assert/strict";
import { runWatcher, scheduled, Budget } from "./scheduled.mjs";
import { newEdge } from "./edge.mjs";
import { FakeCore, fakeConfig } from "./testing/fake-core.mjs";
import { namespace } from "./testing/fakes.mjs";

const settings = (over = {}) => ({ url: "https://shop.example/hooks", budget: 40, checkEveryMs: 600000, retryForMs: 86400000,
  maxAgeMs: 30 * 86400000, leaseMs: 600000, commitEvery: 8, concurrency: 4, deliveryTimeoutMs: 1000, runTimeoutMs: 240000,
  userAgent: "parcelgate-webhooks/1", ...over });

/** A Watchlist object in memory with the real one's lease order and commit semantics. */
function memoryWatchlist() {
  const rows = new Map();
  const totals = { delivered: 0, dropped: 0, last_run: null };
  const commits = [];
  const obj = {
    add: ({ ref, clientRef, at }) => { if (!rows.has(ref)) rows.set(ref, { ref, client_ref: clientRef, added: at, next_at: at, pending: 0, state: "" }); return ""; },
    lease: ({ now, n, holdMs }) => {
      const due = [...rows.values()].filter((r) => r.next_at <= now).sort((a, b) => a.next_at - b.next_at || (a.ref < b.ref ? -1 : 1)).slice(0, n);
      const out = JSON.stringify(due);
      for (const r of due) r.next_at = now + holdMs;
      return out;
    },
    commit: ({ text }) => {
      const c = JSON.parse(text);
      commits.push(c);
      for (const r of c.save ?? []) Object.assign(rows.get(r.ref), { next_at: r.next_at, pending: r.pending, state: r.state });
      for (const ref of c.remove ?? []) rows.delete(ref);
      totals.delivered += c.delivered;
      totals.dropped += c.dropped;
      totals.last_run = c.run;
      return "";
    },
    stats: () => JSON.stringify({ watched: rows.size, pending: 0, ...totals }),
  };
  return { obj, rows, commits, totals };
}

function setup({ histories = {}, receiver = () => 204, budget = 40, rows = [] } = {}) {
  const wl = memoryWatchlist();
  const env = { WATCHLIST: namespace(() => wl.obj) };
  const core = new FakeCore(fakeConfig({ webhooks: settings({ budget }) }));
  const edge = newEdge({ core, env });
  const posts = [];
  const polls = [];
  edge.fetcher = async (url, init) => {
    const ref = /dlvr_ref=([^&]*)/.exec(init.body)[1];
    polls.push(ref);
    const codes = histories[ref];
    if (codes === undefined) return new Response("down", { status: 503 });
    return new Response(JSON.stringify({ status: "ok", data: { codes } }));
  };
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    posts.push({ url, body: JSON.parse(init.body), headers: init.headers });
    return new Response(null, { status: receiver(posts.length, JSON.parse(init.body)) });
  };
  for (const r of rows) wl.obj.add({ ref: r, clientRef: "C-" + r, at: 0 });
  return { wl, env, core, edge, posts, polls, restore: () => { globalThis.fetch = realFetch; } };
}

test("a run: every change of every due shipment delivered in order, signed; finished shipments removed", async (t) => {
  const s = setup({ rows: ["D1", "D2"], histories: { D1: ["01", "05"], D2: ["01", "05", "11"] } });
  t.after(s.restore);
  const rep = await runWatcher({ edge: s.edge, env: s.env, runAt: 1000, log: () => {} });
  // In order per shipment (shipments run side by side).
  assert.deepEqual(s.posts.map((p) => p.body.id).filter((id) => id.startsWith("D1")), ["D1:01", "D1:05"]);
  assert.deepEqual(s.posts.map((p) => p.body.id).filter((id) => id.startsWith("D2")), ["D2:01", "D2:05", "D2:11"]);
  const h = s.posts[0].headers;
  assert.equal(h["parcelgate-signature"], "sig:D1:01");
  assert.equal(h["user-agent"], "parcelgate-webhooks/1");
  assert.equal(h["content-type"], "application/json");
  assert.equal(s.posts[0].url, "https://shop.example/hooks");
  assert.deepEqual([rep.leased, rep.checked, rep.changes, rep.delivered, rep.finished, rep.failed], [2, 2, 5, 5, 1, 0]);
  assert.equal(rep.subrequests, 1 + 2 + 5 + 1, "lease, polls, deliveries, one commit");
  assert.deepEqual([...s.wl.rows.keys()], ["D1"]);
  assert.equal(s.wl.rows.get("D1").next_at, 1000 + 600000);
  assert.equal(s.wl.totals.delivered, 5);
  assert.equal(s.wl.totals.last_run.at, "1970-01-01T00:00:01Z");
});

test("a failing receiver: the event waits (not the next), then is dropped and counted; a failed poll is an error", async (t) => {
  const s = setup({ rows: ["D1", "D9"], histories: { D1: ["01", "05"] }, receiver: () => 500 });
  t.after(s.restore);
  const lines = [];
  const rep = await runWatcher({ edge: s.edge, env: s.env, runAt: 1000, log: (o) => lines.push(o) });
  assert.deepEqual(s.posts.map((p) => p.body.id), ["D1:01"], "the second waits behind the first");
  assert.deepEqual([rep.failed, rep.errors, rep.delivered], [1, 1, 0]);
  assert.ok(lines.some((l) => l.msg === "tracking poll failed"));
  assert.equal(s.wl.rows.get("D1").pending, 2);
  assert.doesNotMatch(JSON.stringify(lines), /D1|D9/, "log lines name no shipment");
});

test("the budget: polls and deliveries within it; shipments left out keep their place", async (t) => {
  const refs = Array.from({ length: 12 }, (_, i) => "D" + String(i).padStart(2, "0"));
  const histories = Object.fromEntries(refs.map((r) => [r, ["01"]]));
  const s = setup({ rows: refs, histories, budget: 10 });
  t.after(s.restore);
  const rep = await runWatcher({ edge: s.edge, env: s.env, runAt: 1000, log: () => {} });
  assert.ok(rep.subrequests <= 10, JSON.stringify(rep));
  // rest 9: 8 leased, one commit, 8 left: four shipments polled and delivered.
  assert.equal(rep.leased, 8);
  assert.equal(rep.delivered, 4);
  assert.equal(rep.deferred, 4);
  const untouched = [...s.wl.rows.values()].filter((r) => r.state === "");
  assert.equal(untouched.length, 8, "four deferred and four never leased");
  for (const r of untouched.filter((r) => r.next_at !== 1000 + 600000)) assert.equal(r.next_at, 0, "a deferred one keeps its place");
});

test("commits a chunk at a time; a failed commit fails the run", async (t) => {
  const refs = Array.from({ length: 10 }, (_, i) => "D" + i);
  const s = setup({ rows: refs, histories: Object.fromEntries(refs.map((r) => [r, []])) });
  t.after(s.restore);
  await runWatcher({ edge: s.edge, env: s.env, runAt: 1000, log: () => {} });
  assert.deepEqual(s.wl.commits.map((c) => c.save.length), [8, 2]);
  const broken = setup({ rows: ["D1"], histories: { D1: [] } });
  t.after(broken.restore);
  broken.wl.obj.commit = () => { throw new Error("storage down"); };
  const lines = [];
  await assert.rejects(scheduled({ edge: broken.edge, env: broken.env, runAt: 1000, log: (o) => lines.push(o) }), /watchlist could not be reached/);
  assert.equal(lines.at(-1).msg, "webhooks run failed");
});

test("scheduled: logs the run's counts; a configuration error fails the run; no WEBHOOK_URL skips it", async (t) => {
  const s = setup({ rows: ["D1"], histories: { D1: ["01"] } });
  t.after(s.restore);
  const lines = [];
  await scheduled({ edge: s.edge, env: s.env, runAt: 1000, log: (o) => lines.push(o) });
  assert.equal(lines[0].msg, "webhooks run");
  assert.equal(lines[0].run.delivered, 1);
  const bad = newEdge({ core: new FakeCore(fakeConfig({ webhooks: settings(), errors: [{ variable: "WATCHLIST", problem: "not bound" }] })), env: {} });
  await assert.rejects(scheduled({ edge: bad, env: {}, runAt: 1, log: (o) => lines.push(o) }));
  assert.match(lines.at(-1).error, /WATCHLIST/);
  const off = newEdge({ core: new FakeCore(fakeConfig()), env: {} });
  await scheduled({ edge: off, env: {}, runAt: 1, log: (o) => lines.push(o) });
  assert.equal(lines.at(-1).msg, "webhooks run skipped");
});

test("Budget: all or none", () => {
  const b = new Budget(3);
  assert.equal(b.take(2), true);
  assert.equal(b.take(2), false);
  b.give(1);
  assert.equal(b.take(2), true);
  assert.equal(b.taken, 3);
});
