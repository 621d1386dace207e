// @ts-check
// A request's own deadline (every upstream attempt, the backoff between
// them and a margin, from the core's limits): past it the client gets the
// timeout envelope instead of waiting on. What was running goes on to its
// end (a booking still records its outcome) but its answer is dropped.
//
// One timer per request serves the deadline and the first upstream
// attempt's timeout (UPSTREAM_TIMEOUT_MS): a timer and an
// AbortSignal.timeout each cost CPU in workerd (worker/bench/EDGE_COST.md).
// The timer first runs to when that attempt's timeout would end were it
// sent at the request's arrival here; the first attempt takes it
// (RequestTimer.take) and its abort is the TimeoutError
// AbortSignal.timeout gives, at the same instant: an attempt sent later
// (after the rate limit's call, a Durable Object's, or simply CPU) has the
// rest armed when the first leg passes, so only a call still unanswered
// then costs a second timer. Then the timer runs on to the deadline.
// Later attempts (a retry, a booking's call after its lookup) arm their own.

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
 * attempt's end (when that comes before the deadline), then to whichever
 * of the attempt's end (it was sent after the request's arrival) and the
 * deadline comes next; at the deadline it calls late once, unless the
 * request settled first.
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
    /** Whether an attempt may still take the timer: the first leg has not passed and none took it. */
    this.open = leg < deadlineMs;
    /** When the first leg ends. */
    this.first = start + leg;
    /** @type {AbortController | null} the attempt that took the timer, until it ends or is aborted */
    this.held = null;
    /** When the held attempt's timeout ends. */
    this.heldUntil = 0;
    /** Whether the request answered (or the deadline did). */
    this.settled = false;
    /** What the timer is armed for (a clock that stands still, as workerd's between I/O, still moves on). */
    this.due = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.handle = undefined;
    this.arm(this.first, start);
  }

  /**
   * take gives an upstream attempt of timeout ms its signal: the timer's,
   * when no attempt took it and its first leg has not passed; else
   * undefined (the attempt arms its own).
   * @param {number} ms
   * @returns {AbortSignal | undefined}
   */
  take(ms) {
    if (!this.open || this.settled) return undefined;
    const until = this.now() + ms;
    // A clock that went back would end the attempt late: its own timer then.
    if (until < this.first) return undefined;
    this.open = false;
    this.heldUntil = until;
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

  /**
   * arm sets the timer for at.
   * @param {number} at
   * @param {number} now
   */
  arm(at, now) {
    this.due = at;
    this.handle = setTimeout(() => this.fire(), Math.max(0, at - now));
  }

  fire() {
    const due = this.due;
    this.handle = undefined;
    this.open = false;
    if (this.held !== null && this.heldUntil <= due) {
      const held = this.held;
      this.held = null;
      held.abort(new DOMException(TIMED_OUT, "TimeoutError"));
    }
    if (!this.settled && this.end <= due) {
      this.settled = true;
      this.late();
    }
    let next = this.held !== null ? this.heldUntil : Infinity;
    if (!this.settled && this.end < next) next = this.end;
    if (next !== Infinity) this.arm(next, Math.max(this.now(), due));
  }
}
