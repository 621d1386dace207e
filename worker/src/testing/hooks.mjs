// @ts-check
// Module resolution hook of register.mjs.
/**
 * @typedef {{url: string, shortCircuit?: boolean}} Resolved
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<Resolved>} next
 * @returns {Promise<Resolved>}
 */
export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:workers") {
    return { url: new URL("./cloudflare-workers.mjs", import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
