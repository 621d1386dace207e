// @ts-check
// Anything a route throws answers that request with a 500 envelope
// (errorCode 1500, errorClass "internal") and no other: requests run
// concurrently in one isolate, and each has its own await chain. (A trap
// of the core never gets here: its wrapper answers the trapping call with
// the same envelope and replaces the module.) The log line says "panic"
// with the error's name, never its message (it may hold data).

import { fail } from "../exchange.mjs";

/** @typedef {import("../router.mjs").Middleware} Middleware */

/**
 * errors turns a thrown error into the request's 500 answer.
 * @param {{internal: (x: import("../exchange.mjs").Exchange) => Response, onError?: (e: unknown) => void}} o
 *   internal: the 500 answer; onError: told of the error (the entry logs it)
 * @returns {Middleware}
 */
export function errors({ internal, onError }) {
  return async (x, next) => {
    try {
      return await next(x);
    } catch (e) {
      if (onError !== undefined) onError(e);
      let res;
      try {
        res = internal(x);
      } catch {
        // The core itself failed: the envelope without it (English).
        res = fail(x, { status: 500, errorClass: "internal", message: "internal error in the edge worker (request " + x.id + ")" });
      }
      x.errorClass = "panic";
      x.detail = e instanceof Error ? e.name : typeof e;
      return res;
    }
  };
}
