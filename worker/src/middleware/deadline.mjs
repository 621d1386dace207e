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
  return async (x, next) => {
    // A made-up request of the isolate's start (warm.mjs) waits on no I/O,
    // and a timer is refused outside a request.
    if (x.warm) return next(x);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms()); });
    try {
      const res = await Promise.race([next(x), late]);
      return res ?? onTimeout(x);
    } finally {
      clearTimeout(timer);
    }
  };
}
