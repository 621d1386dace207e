// @ts-check
// Server-Timing: edge;dur=<the whole request>, upstream;dur=<its upstream
// calls> when it made any. workerd's clock advances only across I/O, so
// these are wall times of the awaits, which is what a client waits for.

/** @typedef {import("../router.mjs").Middleware} Middleware */

/**
 * ms formats milliseconds with one decimal, as the log line does.
 * @param {number} n
 */
export function ms(n) {
  return n.toFixed(1);
}

/**
 * timing sets the answer's Server-Timing as the answer is made (reply()):
 * nothing the request waits on comes after that, so it is the request's
 * duration.
 * @param {{now?: () => number}} [o]
 * @returns {Middleware}
 */
export function timing({ now = Date.now } = {}) {
  /** @param {import("../exchange.mjs").Exchange} x */
  const stamp = (x) => {
    let v = "edge;dur=" + ms(now() - x.t0);
    if (x.upstream.attempts > 0) v += ", upstream;dur=" + ms(x.upstream.ms);
    x.answerHeaders["server-timing"] = v;
  };
  return (x, next) => {
    x.finishing.push(stamp);
    return next(x);
  };
}
