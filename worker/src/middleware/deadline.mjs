// @ts-check
// A request's own deadline (every upstream attempt, the backoff between
// them and a margin, from the core's limits): past it the client gets the
// timeout envelope instead of waiting on. What was running goes on to its
// end (a booking still records its outcome) but its answer is dropped.
//
// One timer per request serves the deadline and the first upstream
// attempt's timeout (UPSTREAM_TIMEOUT_MS): a timer and an
// AbortSignal.timeout each cost CPU in workerd (worker/bench/EDGE_COST.md).
// The timer first runs to when that attempt's timeout would end, counted
// from the request's arrival; an attempt that starts at the same instant
// (workerd's clock moves only across I/O: a read with no I/O before its
// call) takes it as its timeout (RequestTimer.take) and is aborted with the
// TimeoutError AbortSignal.timeout gives. Then the timer runs on to the
// deadline. Any other attempt (a retry, a call after I/O) arms its own.

/**
 * @typedef {import("../router.mjs").Middleware} Middleware
 * @typedef {import("../platform/upstream.mjs").AttemptTimer} AttemptTimer
 */

/** The message of AbortSignal.timeout's TimeoutError (workerd's and Node's): a timed-out call logs the same. */
const TIMED_OUT = "The operation was aborted due to timeout";

/**
 * deadline answers onTimeout(x) when the request takes longer than ms(),
 * and gives x.timer, which the first upstream attempt may take as its
 * timeout of first() ms.
 * @param {{ms: () => number, first?: () => number, onTimeout: (x: import("../exchange.mjs").Exchange) => Response, now?: () => number}} o
 *   first: the upstream's per-attempt timeout (0: none shared); now: the clock (Date.now)
 * @returns {Middleware}
 */
export function deadline({ ms, first = () => 0, onTimeout, now = () => Date.now() }) {
  return (x, next) => {
    // A made-up request of the isolate's start (warm.mjs) waits on no I/O,
    // and a timer is refused outside a request.
    if (x.warm) return next(x);
    // One promise settled by whichever comes first, not Promise.race over a
    // timer's promise in an async function: that cost about 0.02 ms of CPU
    // per forwarded read in workerd (worker/bench/EDGE_COST.md).
    return new Promise((resolve, reject) => {
      const t = new RequestTimer(ms(), first(), now, () => {
        try {
          resolve(onTimeout(x));
        } catch (e) {
          reject(e);
        }
      });
      x.timer = t;
      /** @param {Response} res */
      const done = (res) => {
        t.settle();
        resolve(res);
      };
      /** @param {unknown} e */
      const failed = (e) => {
        t.settle();
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

/**
 * RequestTimer is a request's one timer: first to the first upstream
 * attempt's end (when that comes before the deadline), then to the
 * deadline, where it calls late once unless the request settled first.
 * @implements {AttemptTimer}
 */
export class RequestTimer {
  /**
   * @param {number} deadlineMs the request's deadline, from now
   * @param {number} firstMs the first attempt's timeout (0: none shared)
   * @param {() => number} now the clock
   * @param {() => void} late called at the deadline
   */
  constructor(deadlineMs, firstMs, now, late) {
    this.now = now;
    this.late = late;
    const start = now();
    /** When the deadline passes. */
    this.end = start + deadlineMs;
    const leg = firstMs > 0 && firstMs < deadlineMs ? firstMs : deadlineMs;
    /** When the timer fires next. */
    this.at = start + leg;
    /** Whether an attempt may still take the first leg as its timeout. */
    this.open = leg < deadlineMs;
    /** @type {AbortController | null} the attempt that took the first leg, until it ends or is aborted */
    this.held = null;
    /** Whether the request answered (or the deadline did). */
    this.settled = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.handle = setTimeout(() => this.fire(), leg);
  }

  /**
   * take gives an upstream attempt of timeout ms its signal: the timer's,
   * when it ends exactly then and no attempt took it; else undefined (the
   * attempt arms its own).
   * @param {number} ms
   * @returns {AbortSignal | undefined}
   */
  take(ms) {
    if (!this.open || this.settled || this.now() + ms !== this.at) return undefined;
    this.open = false;
    this.held = new AbortController();
    return this.held.signal;
  }

  /** release: the attempt that took the timer ended (answered, read, failed). */
  release() {
    this.held = null;
    if (this.settled) this.stop();
  }

  /**
   * settle: the request answered. The timer stops unless an attempt holds
   * it (a rates call that goes on under waitUntil keeps its timeout).
   */
  settle() {
    this.settled = true;
    this.open = false;
    if (this.held === null) this.stop();
  }

  stop() {
    if (this.handle === undefined) return;
    clearTimeout(this.handle);
    this.handle = undefined;
  }

  fire() {
    this.handle = undefined;
    this.open = false;
    const held = this.held;
    this.held = null;
    if (held !== null) held.abort(new DOMException(TIMED_OUT, "TimeoutError"));
    if (this.settled) return;
    if (this.at < this.end) {
      this.at = this.end;
      this.handle = setTimeout(() => this.fire(), Math.max(0, this.end - this.now()));
      return;
    }
    this.settled = true;
    this.late();
  }
}
