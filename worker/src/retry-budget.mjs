// @ts-check
// The retry budget of reads: every forwarded read deposits a share of a
// retry, every retry withdraws one, at most a burst saved; so a failing
// upstream gets about a tenth more traffic, not three times as much. One
// per isolate (the core gives the share and the burst).

export class RetryBudget {
  /** @param {{share: number, burst: number}} o */
  constructor({ share, burst }) {
    this.share = share;
    this.burst = burst;
    this.tokens = burst;
  }

  deposit() {
    this.tokens = Math.min(this.burst, this.tokens + this.share);
  }

  /** withdraw takes one retry; false when none is saved. */
  withdraw() {
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}
