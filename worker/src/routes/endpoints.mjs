// @ts-check
// The worker's other paths: /healthz, POST /tokens, /demo/token (sandbox
// only), /__faults/<kind> (FAULT_INJECTION only) and everything else (404).
// The core writes every answer; the JavaScript adds what only the platform
// knows (the bindings, the cache, the watchlist's counts).

import { failure, limited, preflight, send } from "./common.mjs";
import { requestFacts } from "../facts.mjs";
import { bound, RATE_LIMIT_ANONYMOUS, RATE_LIMIT_PUBLIC, RATE_LIMIT_TOKENS } from "../platform/ratelimit.mjs";
import { watchStats } from "../platform/watchlist.mjs";
import { WATCHLIST } from "../edge.mjs";

/**
 * @typedef {import("../exchange.mjs").Exchange} Exchange
 * @typedef {import("../edge.mjs").Edge} Edge
 * @typedef {{id: string, requests: number, memoryBytes: number} | null} InstanceInfo
 */

/** STATS_TTL_MS: how long /healthz reuses the watchlist's counts (a probe every few seconds must not cost a Durable Object call each). */
export const STATS_TTL_MS = 10 * 1000;

/**
 * healthz serves GET /healthz.
 * @param {{edge: Edge, instance: (edge: Edge) => InstanceInfo}} deps
 */
export function healthz({ edge, instance }) {
  return async (/** @type {Exchange} */ x) => {
    x.op = "healthz";
    // HEAD as GET (the runtime sends no body): uptime monitors probe with it.
    const method = x.request.method;
    if (method === "OPTIONS") return preflight(x, "GET, HEAD");
    if (method !== "GET" && method !== "HEAD") return failure(x, edge, "method_not_allowed", { allow: "GET, HEAD" });
    /** @type {import("../core.mjs").HealthzInput["webhooks"]} */
    let webhooks = null;
    if (edge.config.webhooks !== null && edge.config.errors.length === 0) {
      const s = await stats(x, edge);
      const master = edge.core.isMaster({ authorization: x.request.headers.get("authorization") }).master;
      if (s.ok) {
        const at = s.value.last_run === null ? NaN : Date.parse(String(s.value.last_run.at));
        webhooks = { stats: master ? s.value : null, error: null, lastRunAt: Number.isNaN(at) ? null : at };
      } else {
        webhooks = { stats: null, error: "the watchlist could not be reached", lastRunAt: null };
      }
    }
    const inst = instance(edge);
    // The template's answer depends on nothing of the request but its
    // numbers: nothing else is read for it.
    if (webhooks === null && inst !== null) {
      if (edge.health === null) edge.health = healthTemplate(edge.core.healthz(healthInput(x, MARK.instance, MARK.cache, null)));
      if (edge.health !== false) return send(x, fillHealth(edge.health, inst, edge.cache.stats()));
    }
    return send(x, edge.core.healthz(healthInput(x, inst, edge.cache.stats(), webhooks)));
  };
}

/**
 * healthInput is the core's healthz input for a request.
 * @param {Exchange} x
 * @param {InstanceInfo} instance
 * @param {{entries: number, bytes: number}} cache
 * @param {import("../core.mjs").HealthzInput["webhooks"]} webhooks
 * @returns {import("../core.mjs").HealthzInput}
 */
function healthInput(x, instance, cache, webhooks) {
  const h = x.request.headers;
  return {
    method: "GET", authorization: h.get("authorization"), acceptLanguage: h.get("accept-language"),
    requestId: x.id, now: Date.now(), instance,
    rateLimits: { public: bound({ env: x.env, binding: RATE_LIMIT_PUBLIC }), anonymous: bound({ env: x.env, binding: RATE_LIMIT_ANONYMOUS }),
      tokens: bound({ env: x.env, binding: RATE_LIMIT_TOKENS }) },
    cache, webhooks,
  };
}

// The /healthz answer without webhooks is the core's for the isolate's
// configuration and bindings (both fixed for an isolate: read once by
// newEdge), plus five numbers that change with every request: the core
// instance's id, requests and memory, and the cache's entries and bytes.
// So the core writes it once per isolate with marks in place of those
// numbers (healthTemplate), and each request fills the marks in
// (fillHealth): a crossing into the core less per probe. Anything else
// (webhooks on: the counts depend on the caller and the watchlist; a
// configuration error: its answer names the request) goes to the core
// every time, and so does an answer whose marks are not where expected.

/** Values no real instance or cache has, found in the core's answer by their text. */
const MARK = {
  instance: { id: "pg-health-mark-id", requests: 987654321000001, memoryBytes: 987654321000002 },
  cache: { entries: 987654321000003, bytes: 987654321000004 },
};

/**
 * @typedef {{parts: string[], headers: Record<string, string>, class: string}} HealthTemplate
 */

/**
 * healthTemplate splits the core's marked answer around its marks, in the
 * order the core writes them; false when it cannot be reused (not a 200,
 * or a mark missing or repeated).
 * @param {import("../core.mjs").CoreResponse} r
 * @returns {HealthTemplate | false}
 */
export function healthTemplate(r) {
  if (r.status !== 200) return false;
  const marks = [JSON.stringify(MARK.instance.id), String(MARK.instance.requests), String(MARK.instance.memoryBytes),
    String(MARK.cache.entries), String(MARK.cache.bytes)];
  const parts = [];
  let rest = r.body;
  for (const m of marks) {
    const i = rest.indexOf(m);
    if (i < 0 || rest.indexOf(m, i + 1) >= 0) return false;
    parts.push(rest.slice(0, i));
    rest = rest.slice(i + m.length);
  }
  parts.push(rest);
  return { parts, headers: r.headers, class: r.class };
}

/**
 * fillHealth is a request's answer from the template.
 * @param {HealthTemplate} t
 * @param {{id: string, requests: number, memoryBytes: number}} instance
 * @param {{entries: number, bytes: number}} cache
 * @returns {import("../core.mjs").CoreResponse}
 */
export function fillHealth(t, instance, cache) {
  const p = t.parts;
  const body = p[0] + JSON.stringify(String(instance.id)) + p[1] + Math.trunc(instance.requests) + p[2] + Math.trunc(instance.memoryBytes) +
    p[3] + Math.trunc(cache.entries) + p[4] + Math.trunc(cache.bytes) + p[5];
  return { status: 200, headers: t.headers, body, class: t.class };
}

/**
 * stats reads the watchlist's counts, reused for STATS_TTL_MS.
 * @param {Exchange} x
 * @param {Edge} edge
 * @returns {Promise<import("../platform/watchlist.mjs").WatchAnswer<import("../core.mjs").WatchStats>>}
 */
async function stats(x, edge) {
  const now = Date.now();
  const c = edge.stats;
  if (c.value !== null && now - c.at <= STATS_TTL_MS && now >= c.at) return c.value;
  const v = await watchStats({ env: x.env, list: { binding: WATCHLIST, name: edge.config.watchlistName } });
  c.value = v;
  c.at = now;
  return v;
}

/**
 * tokens serves POST /tokens (the shop's server mints scoped tokens).
 * @param {{edge: Edge}} deps
 */
export function tokens({ edge }) {
  return async (/** @type {Exchange} */ x) => {
    x.op = "tokens";
    if (x.request.method === "OPTIONS") return preflight(x, "POST");
    const a = edge.core.tokens(requestFacts(x, Date.now()));
    return (await limited(x, edge, a.rateLimit)) ?? send(x, a.response);
  };
}

/**
 * demoToken serves /demo/token while the upstream is the sandbox (a 404
 * otherwise, as any unknown path).
 * @param {{edge: Edge}} deps
 */
export function demoToken({ edge }) {
  return async (/** @type {Exchange} */ x) => {
    if (!edge.config.demo) return failure(x, edge, "not_found");
    x.op = "demo-token";
    if (x.request.method === "OPTIONS") return preflight(x, "GET, POST");
    const a = edge.core.demoToken(requestFacts(x, Date.now()));
    return (await limited(x, edge, a.rateLimit)) ?? send(x, a.response);
  };
}

/**
 * faults serves /__faults/<kind> with FAULT_INJECTION on a sound
 * configuration (tests of trap isolation); a 404 otherwise.
 * @param {{edge: Edge}} deps
 */
export function faults({ edge }) {
  return async (/** @type {Exchange} */ x) => {
    if (!edge.config.faults || edge.config.errors.length > 0) return failure(x, edge, "not_found");
    x.op = "faults";
    return send(x, edge.core.fault({ kind: x.path.slice("/__faults/".length), requestId: x.id }));
  };
}

/**
 * notFound answers a path the worker does not serve.
 * @param {{edge: Edge}} deps
 */
export function notFound({ edge }) {
  return async (/** @type {Exchange} */ x) => failure(x, edge, "not_found");
}
