// @ts-check
// Cloudflare's rate-limiting bindings ([[ratelimits]], approximate, per
// location): RATE_LIMIT_PUBLIC keyed by the client's address, and
// RATE_LIMIT_TOKENS keyed by a scoped token's hash (the core decides which
// applies and makes the key). Without a binding
// there is no limit (and /healthz says so); a binding that fails lets the
// request through (availability first) and the log line says so.

import { errorDetail } from "./binding.mjs";

/** Names of the bindings. */
export const RATE_LIMIT_PUBLIC = "RATE_LIMIT_PUBLIC";
export const RATE_LIMIT_TOKENS = "RATE_LIMIT_TOKENS";
/** Requests without a client address, limited apart from everyone's (issue 20). */
export const RATE_LIMIT_ANONYMOUS = "RATE_LIMIT_ANONYMOUS";

/**
 * @typedef {{verdict: "allowed" | "limited" | "unbound"} | {verdict: "failed", detail: string}} RateVerdict
 */

/**
 * rateLimit asks binding whether one more request with key may go on.
 * @param {{env: import("../types").Env, binding: string, key: string}} q
 * @returns {Promise<RateVerdict>}
 */
export async function rateLimit({ env, binding, key }) {
  const rl = /** @type {import("../types").RateLimitBinding | undefined} */ (env[binding]);
  if (typeof rl?.limit !== "function") return { verdict: "unbound" };
  try {
    const { success } = await rl.limit({ key });
    return { verdict: success ? "allowed" : "limited" };
  } catch (e) {
    return { verdict: "failed", detail: errorDetail(e, 100) };
  }
}

/**
 * bound reports whether a rate-limiting binding is configured.
 * @param {{env: import("../types").Env, binding: string}} q
 */
export function bound({ env, binding }) {
  return typeof (/** @type {any} */ (env[binding]))?.limit === "function";
}
