// @ts-check
// What the platform modules share: a binding as configured (or not), and a
// thrown error as the short detail their answers carry.

import { head } from "../exchange.mjs";

/**
 * namespaceOf is the Durable Object namespace bound as binding, or
 * undefined when it is not configured.
 * @template T
 * @param {import("../types").Env} env
 * @param {string} binding
 * @returns {import("../types").DurableObjectNamespaceLike<T> | undefined}
 */
export function namespaceOf(env, binding) {
  const ns = /** @type {any} */ (env[binding]);
  return typeof ns?.idFromName === "function" ? ns : undefined;
}

/**
 * errorDetail is a thrown value's message, at most n characters (code
 * points: never half of one).
 * @param {unknown} e
 * @param {number} n
 */
export function errorDetail(e, n) {
  return head(String(e instanceof Error ? e.message : e), n);
}
