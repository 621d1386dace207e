// @ts-check
// CORS by ALLOWED_ORIGINS. A browser request from an origin not listed is
// refused with 403 and no CORS headers (an Origin header is set by the
// browser; a page's scripts cannot forge it). An allowed one gets
// Access-Control-Allow-Origin and the exposed headers on every answer;
// preflights get their headers from the route (it knows the methods).
// Requests without Origin (servers, curl) and same-origin ones (the demo
// shop served by the worker) are not affected. Vary: Origin always. The headers
// go to x.answerHeaders: reply() makes the answer with them.

/** @typedef {import("../router.mjs").Middleware} Middleware */

/**
 * originAllowed reports whether a browser origin is in the list (kept
 * normalized as browsers send Origin; "*" allows any).
 * @param {string[]} allowed
 * @param {string} origin
 */
export function originAllowed(allowed, origin) {
  return allowed.includes("*") || allowed.includes(origin);
}

/** EXPOSED: the answers' headers a page on an allowed origin may read. */
const EXPOSED = "X-Request-Id, Server-Timing, X-Cache, Parcelgate-Data, Retry-After, Rates-Source";

/**
 * cors applies ALLOWED_ORIGINS.
 * @param {{allowedOrigins: () => string[], refuse: (x: import("../exchange.mjs").Exchange, origin: string) => Response}} o
 *   allowedOrigins: the normalized list (read per request: the configuration loads lazily);
 *   refuse: the 403 answer (the core's envelope, in the client's language)
 * @returns {Middleware}
 */
export function cors({ allowedOrigins, refuse }) {
  return (x, next) => {
    const origin = x.request.headers.get("origin");
    x.answerHeaders.vary = "Origin";
    if (origin !== null && origin !== "" && origin !== x.self) {
      if (!originAllowed(allowedOrigins(), origin)) return Promise.resolve(refuse(x, origin));
      x.origin = origin;
      x.answerHeaders["access-control-allow-origin"] = origin;
      x.answerHeaders["access-control-expose-headers"] = EXPOSED;
    }
    return next(x);
  };
}

/**
 * preflightHeaders are an OPTIONS answer's headers for a route allowing
 * methods (e.g. "GET, POST"); the CORS ones only for an allowed origin.
 * @param {string} origin
 * @param {string} allow
 * @returns {Record<string, string>}
 */
export function preflightHeaders(origin, allow) {
  /** @type {Record<string, string>} */
  const h = { allow: allow + ", OPTIONS" };
  if (origin !== "") {
    h["access-control-allow-methods"] = allow + ", OPTIONS";
    h["access-control-allow-headers"] = "Authorization, Content-Type, X-Request-Id";
    h["access-control-max-age"] = "600";
  }
  return h;
}
