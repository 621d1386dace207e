// @ts-check
// The isolate's edge: the core (one module instance, replaced by its
// wrapper after a trap), the configuration it read from the environment
// (fixed for an isolate), and what requests share: the in-isolate cache,
// the retry budget, the watchlist counts /healthz reuses. Made on the
// first request or Cron run of an isolate.

import { IsolateCache } from "./platform/cache.mjs";
import { RetryBudget } from "./retry-budget.mjs";
import { bookingsBound, BOOKINGS_BINDING } from "./platform/bookings.mjs";
import { watchlistBound } from "./platform/watchlist.mjs";
import { bound, RATE_LIMIT_ANONYMOUS } from "./platform/ratelimit.mjs";
import { upstreamCall } from "./platform/upstream.mjs";
import { warmUpstream } from "./warm.mjs";

/** Names of the bindings. */
export const BOOKINGS = BOOKINGS_BINDING;
export const WATCHLIST = "WATCHLIST";
export const SANDBOX = "SANDBOX";

/**
 * @typedef {import("./core.mjs").EdgeCore} EdgeCore
 * @typedef {import("./core.mjs").Configuration} Configuration
 * @typedef {import("./types").Env} Env
 */

/**
 * @typedef {object} Edge
 * @property {EdgeCore} core
 * @property {Configuration} config
 * @property {IsolateCache} cache
 * @property {RetryBudget} retries
 * @property {typeof fetch} fetcher how upstream calls go out (fetch, or the SANDBOX service binding's)
 * @property {{requests: number}} counts requests served by this isolate
 * @property {{at: number, value: import("./platform/watchlist.mjs").WatchAnswer<import("./core.mjs").WatchStats> | null}} stats the watchlist's counts, reused for 10 s
 * @property {import("./routes/endpoints.mjs").HealthTemplate | null | false} health /healthz's answer as the core wrote it for this
 *   isolate, to fill in per request (routes/endpoints.mjs); null: not written yet; false: the core answers every probe
 */

/**
 * sandboxFetcher is the SANDBOX service binding's fetch, when bound.
 * @param {Env} env
 * @returns {typeof fetch | undefined}
 */
function sandboxFetcher(env) {
  const s = /** @type {{fetch?: typeof fetch} | undefined} */ (env[SANDBOX]);
  if (typeof s?.fetch !== "function") return undefined;
  const f = s.fetch;
  return /** @type {typeof fetch} */ ((input, init) => f.call(s, input, init));
}

/**
 * newEdge configures the core from the environment.
 * @param {{core: EdgeCore, env: Env}} p
 * @returns {Edge}
 */
export function newEdge({ core, env }) {
  const sandbox = sandboxFetcher(env);
  const config = core.configure({
    vars: env,
    bindings: {
      bookings: bookingsBound({ env, binding: BOOKINGS }),
      watchlist: watchlistBound({ env, binding: WATCHLIST }),
      sandbox: sandbox !== undefined,
      rateLimitAnonymous: bound({ env, binding: RATE_LIMIT_ANONYMOUS }),
    },
  });
  const l = config.limits;
  return {
    core,
    config,
    cache: new IsolateCache({ maxBytes: l.cacheMaxBytes, maxEntries: l.cacheMaxEntries }),
    retries: new RetryBudget({ share: l.retryShare, burst: l.retryBurst }),
    fetcher: config.upstream.kind === "sandbox" && sandbox !== undefined ? sandbox : (input, init) => fetch(input, init),
    counts: { requests: 0 },
    stats: { at: 0, value: null },
    health: null,
  };
}

/**
 * serviceCall makes one call of operation to the edge's upstream: its base
 * URL and credentials, the core's deadline and bound of the answer. The
 * made-up read of the isolate's start (warm) gets warm.mjs's stand-in
 * answer instead of the network, and no timer (both are refused there).
 * @param {Edge} edge
 * @param {string} operation
 * @param {Uint8Array | string} body
 * @param {string} requestId
 * @param {{warm?: boolean, fault?: string | null, signal?: AbortSignal}} [o] fault: the client's Sandbox-Fault
 *   header, passed on only when the upstream is the sandbox (a real upstream never sees a client's header);
 *   signal: the caller's abort (upstreamCall)
 */
export function serviceCall(edge, operation, body, requestId, { warm = false, fault = null, signal } = {}) {
  const { upstream, limits } = edge.config;
  return upstreamCall({ url: upstream.baseUrl + "/" + operation, body, authorization: upstream.authorization,
    requestId, timeoutMs: warm ? 0 : limits.upstreamTimeoutMs, maxBytes: limits.maxUpstreamBodyBytes,
    fetcher: warm ? warmUpstream : edge.fetcher, fault: upstream.kind === "sandbox" ? fault : null, signal });
}
