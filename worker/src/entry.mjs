// @ts-check
// parcelgate edge worker: the entry module workerd runs. It only wires: the
// core (worker/src/core.mjs over build/worker/core.wasm: every decision),
// the isolate's edge (edge.mjs), the request pipeline (app.mjs), the Cron
// run (scheduled.mjs) and the two Durable Object classes. The core is made,
// warmed (warm.mjs) and configured from the environment once per isolate
// while it starts, so the isolate's first request finds the edge made
// (worker/bench/README.md, cold start); a trap inside it answers that call
// with a 500 envelope and its wrapper replaces the module.

import coreModule from "./core.wasm";
import { env as startEnv } from "cloudflare:workers";
import { createCore, newCore } from "./core.mjs";
import { warm, warmPipeline } from "./warm.mjs";
import { newEdge } from "./edge.mjs";
import { app } from "./app.mjs";
import { newExchange } from "./exchange.mjs";
import { scheduled } from "./scheduled.mjs";
import { logLine } from "./middleware/log.mjs";
import { newRequestId } from "./middleware/request-id.mjs";
import { failureBody, json } from "./respond.mjs";
import { bookingsObject } from "./platform/bookings.mjs";
import { forwardBooking } from "./routes/operation.mjs";

export { Watchlist } from "./platform/watchlist.mjs";

/** @typedef {{edge: import("./edge.mjs").Edge, handle: import("./router.mjs").Handler}} Isolate */

/** @type {Promise<Isolate> | null} */
let isolate = null;
let instances = 1;

/** @param {import("./core.mjs").TrapInfo} t */
function onTrap(t) {
  instances = t.instances;
  logLine({ msg: "core trapped; module replaced", method: t.method, instances: t.instances });
}

/**
 * The core, made and warmed at the isolate's start (null when that failed:
 * the first request makes it again and reports why it cannot).
 * @type {import("./core.mjs").EdgeCore | null}
 */
let started = startCore();

function startCore() {
  try {
    const core = newCore(coreModule, { onTrap });
    warm(core);
    return core;
  } catch (e) {
    logLine({ msg: "the edge core failed to warm at start; retried on the first request", reason: String(e) });
    return null;
  }
}

/**
 * load makes the isolate's edge once (again after a failed start).
 * @param {import("./types").Env} env
 * @returns {Promise<Isolate>}
 */
function load(env) {
  if (isolate === null) {
    const made = started === null ? createCore(coreModule, { onTrap }) : Promise.resolve(started);
    started = null;
    isolate = made.then((core) => {
      const edge = newEdge({ core, env });
      const instance = () => ({ id: String(instances), requests: edge.counts.requests, memoryBytes: core.memoryBytes() });
      return { edge, handle: app({ edge, instance }) };
    });
    isolate.catch(() => { isolate = null; });
  }
  return isolate;
}

// The platform hands the top level the environment too (the same as every
// request's): the edge is made here, not by the first request. If that
// fails, the first request tries again and answers why it cannot.
// Then the request pipeline runs once on made-up requests (warm.mjs), so
// that its JavaScript is compiled before the first real request too.
if (startEnv) {
  const env = startEnv;
  load(env).then(
    (i) => warmPipeline(i.handle, { env, webhooks: i.edge.config.webhooks !== null })
      .catch((e) => logLine({ msg: "the pipeline warm-up failed", reason: String(e) })),
    (e) => logLine({ msg: "the edge could not be made at the isolate's start; retried on the first request", reason: String(e) }));
}

export default {
  /**
   * @param {Request} request
   * @param {import("./types").Env} env
   * @param {import("./types").ExecutionContextLike} ctx
   */
  async fetch(request, env, ctx) {
    let i;
    try {
      i = await load(env);
    } catch (e) {
      logLine({ msg: "the edge core failed to start", reason: String(e) });
      const body = failureBody({ status: 500, errorClass: "internal", message: "the edge worker could not start (see the worker's log)" },
        newRequestId());
      return json({ status: 500, body });
    }
    i.edge.counts.requests++;
    return i.handle(newExchange({ request, env, exec: ctx }));
  },

  /**
   * One run of the tracking webhooks' watcher; without WEBHOOK_URL it
   * returns at once, without even starting the core.
   * @param {{scheduledTime: number}} controller
   * @param {import("./types").Env} env
   */
  async scheduled(controller, env) {
    if (!env.WEBHOOK_URL) return;
    const { edge } = await load(env);
    await scheduled({ edge, env, runAt: controller.scheduledTime });
  },
};

/**
 * Bookings is the Bookings Durable Object over the isolate's edge: its
 * core decides (the ledger* calls), its configuration gives the earlier
 * layout's window, and it forwards a new booking itself (one call from the
 * worker instead of two; platform/bookings.mjs). Where the core cannot
 * start the object cannot decide: the call fails and the worker answers
 * ledger_unavailable.
 */
export const Bookings = bookingsObject({
  async isolate(env) {
    const { edge } = await load(/** @type {import("./types").Env} */ (env));
    return {
      core: edge.core,
      legacyUntilMs: edge.config.limits.bookingsLegacyUntilMs,
      forward: (send) => forwardBooking(edge, /** @type {import("./routes/operation.mjs").BookingSend} */ (send)),
    };
  },
});
