// @ts-check
// A request's own deadline (every upstream attempt, the backoff between
// them and a margin, from the core's limits): past it the client gets the
// timeout envelope instead of waiting on. What was running goes on to its
// end (a booking still records its outcome) but its answer is dropped.

/** @typedef {import("../router.mjs").Middleware} Middleware */

/**
 * deadline answers onTimeout(x) when the request takes longer than ms().
 * @param {{ms: () => number, onTimeout: (x: import("../exchange.mjs").Exchange) => Response}} o
 * @returns {Middleware}
 */
export function deadline({ ms, onTimeout }) {
  return (x, next) => {
    // A made-up request of the isolate's start (warm.mjs) waits on no I/O,
    // and a timer is refused outside a request.
    if (x.warm) return next(x);
    // One promise settled by whichever comes first, not Promise.race over a
    // timer's promise in an async function: that cost about 0.02 ms of CPU
    // per forwarded read in workerd (worker/bench/EDGE_COST.md).
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        try {
          resolve(onTimeout(x));
        } catch (e) {
          reject(e);
        }
      }, ms());
      /** @param {Response} res */
      const done = (res) => {
        clearTimeout(timer);
        resolve(res);
      };
      /** @param {unknown} e */
      const failed = (e) => {
        clearTimeout(timer);
        reject(e);
      };
      try {
        next(x).then(done, failed);
      } catch (e) {
        failed(e);
      }
    });
  };
}
