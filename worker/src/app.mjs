// @ts-check
// The worker's request pipeline for one isolate's edge: the middleware, one
// per concern, outermost first, around the router.

import { compose, router } from "./router.mjs";
import { requestId } from "./middleware/request-id.mjs";
import { timing } from "./middleware/timing.mjs";
import { requestLog, logLine } from "./middleware/log.mjs";
import { cors } from "./middleware/cors.mjs";
import { errors } from "./middleware/errors.mjs";
import { deadline } from "./middleware/deadline.mjs";
import { bodyBounds } from "./middleware/body.mjs";
import { failure } from "./routes/common.mjs";
import { operation } from "./routes/operation.mjs";
import { healthz, tokens, demoToken, faults, notFound } from "./routes/endpoints.mjs";

/**
 * @typedef {import("./edge.mjs").Edge} Edge
 * @typedef {import("./router.mjs").Handler} Handler
 */

/**
 * app is the handler of an isolate's requests.
 * @param {{edge: Edge, instance: (edge: Edge) => import("./routes/endpoints.mjs").InstanceInfo, cache?: () => import("./types").CacheLike | undefined}} p
 * @returns {Handler}
 */
export function app({ edge, instance, cache }) {
  const limits = edge.config.limits;
  return compose([
    requestId(),
    timing(),
    requestLog({ mode: () => edge.config.logRequests }),
    cors({ allowedOrigins: () => edge.config.allowedOrigins, refuse: (x, origin) => failure(x, edge, "origin_forbidden", { origin }) }),
    errors({ internal: (x) => failure(x, edge, "internal"),
      onError: (e) => logLine({ msg: "request failed in the worker", error: e instanceof Error ? e.name + ": " + e.message : String(e) }) }),
    bodyBounds({ maxBodyBytes: () => limits.maxBodyBytes }),
  ], onePathSpelling(edge, router({
    exact: {
      "/healthz": healthz({ edge, instance }),
      "/tokens": tokens({ edge }),
      "/demo/token": demoToken({ edge }),
    },
    prefixes: [
      // The request's own deadline where it waits on the upstream (a timer
      // per request is not free: /healthz and the rest do without).
      { prefix: "/v1/", handler: compose([deadline({ ms: () => limits.requestDeadlineMs, onTimeout: (x) => failure(x, edge, "timeout") })],
        operation({ edge, cache })) },
      { prefix: "/__faults/", handler: faults({ edge }) },
    ],
    notFound: notFound({ edge }),
  })));
}

/**
 * onePathSpelling refuses a percent-encoded path before routing (the
 * core's 400 encoded_path): no path of the edge needs an escape, and one
 * spelling per path means nothing can take a booking for a read.
 * @param {Edge} edge
 * @param {Handler} next
 * @returns {Handler}
 */
function onePathSpelling(edge, next) {
  return async (x) => (x.path.includes("%") ? failure(x, edge, "encoded_path") : next(x));
}
