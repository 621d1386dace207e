// @ts-check
// What every route does with the core's decisions: send a CoreResponse,
// ask the core for the envelope of a failure the JavaScript detected,
// answer a preflight, apply a rate limit, make one upstream call.

import { reply } from "../exchange.mjs";
import { preflightHeaders } from "../middleware/cors.mjs";
import { rateLimit } from "../platform/ratelimit.mjs";
import { serviceCall } from "../edge.mjs";

/**
 * @typedef {import("../exchange.mjs").Exchange} Exchange
 * @typedef {import("../edge.mjs").Edge} Edge
 * @typedef {import("../core.mjs").CoreResponse} CoreResponse
 * @typedef {import("../core.mjs").FailureKind} FailureKind
 */

/**
 * send answers with a response the core decided; headers adds the
 * JavaScript's own (X-Cache).
 * @param {Exchange} x
 * @param {CoreResponse} r
 * @param {Record<string, string>} [headers]
 * @returns {Response}
 */
export function send(x, r, headers) {
  if (r.status >= 400) x.errorClass = r.class;
  if (r.detail !== undefined && r.detail !== "") x.detail = r.detail;
  return reply(x, { status: r.status, body: r.body, headers: headers === undefined ? r.headers : { ...r.headers, ...headers } });
}

/**
 * failure answers a failure the JavaScript detected with the core's
 * envelope (in the client's language).
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {FailureKind} kind
 * @param {{allow?: string, origin?: string}} [more]
 * @returns {Response}
 */
export function failure(x, edge, kind, more = {}) {
  return send(x, edge.core.failure({
    kind, requestId: x.id, acceptLanguage: x.request.headers.get("accept-language"), operation: x.op,
    method: x.request.method, path: x.path, allow: more.allow ?? "", origin: more.origin ?? "",
  }));
}

/**
 * preflight answers OPTIONS for a route allowing methods ("GET, POST"); the
 * origin was checked by the CORS middleware.
 * @param {Exchange} x
 * @param {string} allow
 * @returns {Response}
 */
export function preflight(x, allow) {
  return reply(x, { status: 200, body: JSON.stringify({ status: "ok", data: { allow: allow + ", OPTIONS" } }),
    headers: preflightHeaders(x.origin, allow) });
}

/**
 * limited applies the rate limit the core asked for; the 429 answer when
 * it is reached, else null (a failing binding lets the request through,
 * and the log line says so).
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {import("../core.mjs").RateLimit | null} rl
 * @returns {Promise<Response | null>}
 */
export async function limited(x, edge, rl) {
  // A made-up request of the isolate's start takes no limit (a binding is refused there).
  if (rl === null || x.warm) return null;
  const v = await rateLimit({ env: x.env, binding: rl.binding, key: rl.key });
  if (v.verdict === "limited") return failure(x, edge, "rate_limited");
  if (v.verdict === "failed") x.note = "rate limiter failed: " + v.detail;
  return null;
}

/**
 * callUpstream makes one call to <baseUrl>/<operation>, counted for
 * Server-Timing and the log line.
 * @param {Exchange} x
 * @param {Edge} edge
 * @param {{operation: string, body: string, signal?: AbortSignal}} c signal: the caller's abort
 * @returns {Promise<import("../core.mjs").UpstreamResult>}
 */
export async function callUpstream(x, edge, { operation, body, signal }) {
  const t0 = Date.now();
  x.upstream.attempts++;
  const a = await serviceCall(edge, operation, body, x.id, { warm: x.warm, fault: x.request.headers.get("sandbox-fault"), signal });
  x.upstream.ms += Date.now() - t0;
  x.upstream.status = a.status;
  if (a.failure !== null) x.detail = a.detail;
  return { status: a.status, body: a.body, failure: a.failure };
}
