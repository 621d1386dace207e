// @ts-check
// One run of the tracking webhooks' watcher (the Cron Trigger): the
// orchestration is here (lease, the budget of subrequests, concurrency,
// deliveries and polls, commits a chunk at a time), every decision in the
// core's WatchCore (what is due, what changed, what an event says and its
// signature, when a shipment is due again, when it is done).
//
// Committing per chunk, not once at the end, is what keeps a run the
// platform stops (the Free plan's CPU limit applies to Cron runs too) from
// starting over for ever: every chunk it finished is recorded.

import { watchLease, watchCommit, WatchlistError } from "./platform/watchlist.mjs";
import { webhookPost } from "./platform/upstream.mjs";
import { logLine } from "./middleware/log.mjs";
import { newRequestId } from "./middleware/request-id.mjs";
import { WATCHLIST, serviceCall } from "./edge.mjs";
import { errorDetail } from "./platform/binding.mjs";

/**
 * @typedef {import("./edge.mjs").Edge} Edge
 * @typedef {import("./core.mjs").WatchRow} WatchRow
 * @typedef {import("./core.mjs").WebhookSettings} WebhookSettings
 * @typedef {{at: string, leased: number, checked: number, changes: number, delivered: number, failed: number,
 *   dropped: number, finished: number, expired: number, deferred: number, errors: number, subrequests: number}} Report
 */

/**
 * Budget counts the subrequests a run may still make.
 */
export class Budget {
  /** @param {number} left */
  constructor(left) {
    this.left = left;
    this.taken = 0;
  }

  /**
   * take reserves n subrequests, all or none.
   * @param {number} n
   */
  take(n) {
    if (this.left < n) return false;
    this.left -= n;
    this.taken += n;
    return true;
  }

  /**
   * give returns n reserved subrequests that were not spent.
   * @param {number} n
   */
  give(n) {
    this.left += n;
    this.taken -= n;
  }
}

/**
 * newReport is an empty report of a run at runAt.
 * @param {number} runAt
 * @returns {Report}
 */
export function newReport(runAt) {
  return { at: new Date(runAt).toISOString().replace(/\.\d{3}Z$/, "Z"), leased: 0, checked: 0, changes: 0, delivered: 0,
    failed: 0, dropped: 0, finished: 0, expired: 0, deferred: 0, errors: 0, subrequests: 0 };
}

/**
 * @typedef {object} RunDeps
 * @property {Edge} edge
 * @property {import("./types").Env} env
 * @property {number} runAt the trigger's scheduled time
 * @property {() => number} [now]
 * @property {(o: Record<string, unknown>) => void} [log]
 */

/**
 * runWatcher makes one run; it returns the report, and throws when the
 * watchlist could not be reached (the run failed: what was sent and not
 * committed is sent again, with the same ids, once the lease ends).
 * @param {RunDeps} d
 * @returns {Promise<Report>}
 */
export async function runWatcher({ edge, env, runAt, now = Date.now, log = logLine }) {
  const w = /** @type {WebhookSettings} */ (edge.config.webhooks);
  const list = { binding: WATCHLIST, name: edge.config.watchlistName };
  const rep = newReport(runAt);
  const stopAt = now() + w.runTimeoutMs;
  // The lease is one subrequest; the rest is shared by the shipments and
  // one commit per chunk of them: n + ceil(n / commitEvery) <= rest.
  const rest = w.budget - 1;
  const n = Math.floor((rest * w.commitEvery) / (w.commitEvery + 1));
  const leased = await watchLease({ env, list, now: runAt, n, holdMs: w.leaseMs });
  rep.subrequests = 1;
  if (!leased.ok) throw new WatchlistError(leased.detail);
  const rows = leased.value;
  rep.leased = rows.length;
  const commits = Math.max(1, Math.ceil(rows.length / w.commitEvery));
  const budget = new Budget(rest - commits);
  const ctx = { edge, env, runAt, now, log, budget, stopAt, w };
  for (let start = 0; start === 0 || start < rows.length; start += w.commitEvery) {
    const part = rows.slice(start, start + w.commitEvery);
    const outs = await pool(part, w.concurrency, (row) => shipment(ctx, row));
    /** @type {import("./platform/watchlist.mjs").WatchCommit & {save: WatchRow[], remove: string[]}} */
    const c = { save: [], remove: [], delivered: 0, dropped: 0, run: rep };
    outs.forEach((o, i) => {
      for (const k of /** @type {const} */ (["checked", "changes", "delivered", "failed", "dropped", "finished", "expired", "deferred", "errors"])) rep[k] += o.rep[k];
      c.delivered += o.rep.delivered;
      c.dropped += o.rep.dropped;
      if (o.remove) c.remove.push(part[i].ref);
      else c.save.push(o.row);
    });
    // The lease, what the shipments spent, the commits so far and this one.
    rep.subrequests = 1 + budget.taken + start / w.commitEvery + 1;
    const done = await watchCommit({ env, list, commit: c });
    if (!done.ok) throw new WatchlistError(done.detail);
  }
  return rep;
}

/**
 * pool runs f on items, at most limit at once, results in order.
 * @template T, R
 * @param {T[]} items
 * @param {number} limit
 * @param {(t: T) => Promise<R>} f
 * @returns {Promise<R[]>}
 */
async function pool(items, limit, f) {
  /** @type {R[]} */
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * @typedef {{edge: Edge, env: import("./types").Env, runAt: number, now: () => number,
 *   log: (o: Record<string, unknown>) => void, budget: Budget, stopAt: number, w: WebhookSettings}} RunContext
 */

/**
 * shipment works on one leased shipment: deliver what is queued and due,
 * poll when the check is due, deliver what the poll found.
 * @param {RunContext} r
 * @param {WatchRow} row
 * @returns {Promise<{row: WatchRow, remove: boolean, rep: Report}>}
 */
async function shipment(r, row) {
  const core = r.edge.core.watch;
  const rep = newReport(r.runAt);
  const o = core.open({ row, runAt: r.runAt });
  if (o.unreadable) r.log({ msg: "watch record unreadable; starting it over" });
  let record = o.record;
  let touched = false;
  let deferred = false;
  // A subrequest reserved with a poll for the first event it finds: a poll
  // whose change cannot be delivered in the same run only delays it.
  let credit = 0;
  const late = () => r.now() >= r.stopAt;

  const deliverQueue = async () => {
    for (;;) {
      const { event } = core.nextDelivery({ record, runAt: r.runAt, now: r.now() });
      if (event === null) return;
      if (late()) {
        // The run's deadline passed: no attempt is started, none counted.
        deferred = true;
        return;
      }
      if (credit > 0) credit--;
      else if (!r.budget.take(1)) {
        deferred = true;
        return;
      }
      touched = true;
      const res = await webhookPost({ url: r.w.url, body: event.body, timeoutMs: r.w.deliveryTimeoutMs,
        headers: { "content-type": "application/json", "parcelgate-signature": event.signature, "user-agent": r.w.userAgent } });
      const ok = res.status >= 200 && res.status < 300;
      if (!ok && late()) {
        // Cut short by the run's deadline, not refused: tried again next run.
        deferred = true;
        return;
      }
      const d = core.delivered({ record, eventId: event.id, ok, runAt: r.runAt });
      record = d.record;
      if (ok) {
        rep.delivered++;
        continue;
      }
      rep.failed++;
      if (!d.dropped) return;
      r.log({ msg: "webhook event dropped after retrying", type: "shipment.tracking_updated" });
      rep.dropped++;
    }
  };

  await deliverQueue();
  if (o.pollDue && !deferred && late()) deferred = true; // the poll waits for the next run
  if (o.pollDue && !deferred) {
    // A poll takes room for the event it may find too; with one
    // subrequest left it polls anyway: what it finds goes first next run.
    let polled = false;
    if (r.budget.take(2)) {
      polled = true;
      credit = 1;
    } else if (r.budget.take(1)) {
      polled = true;
    }
    if (polled) {
      touched = true;
      const a = await serviceCall(r.edge, "get-shipment-tracking", o.pollBody, "watch-" + newRequestId());
      const t = core.tracked({ record, row, upstream: { status: a.status, body: a.body, failure: a.failure }, runAt: r.runAt });
      record = t.record;
      if (t.error !== null) {
        rep.errors++;
        r.log({ msg: "tracking poll failed", error: t.error });
      } else {
        rep.checked++;
        rep.changes += t.changes;
        if (t.dropped > 0) {
          r.log({ msg: "webhook events dropped: queue full", dropped: t.dropped });
          rep.dropped += t.dropped;
        }
        await deliverQueue();
      }
      if (credit > 0) r.budget.give(credit);
      credit = 0;
    } else {
      deferred = true;
    }
  }
  const c = core.close({ record, row, runAt: r.runAt, touched, deferred });
  if (deferred) rep.deferred++;
  if (c.finished) rep.finished++;
  if (c.expired) rep.expired++;
  return { row: c.row, remove: c.remove, rep };
}

/**
 * scheduled is the Cron Trigger's run: it logs the run's line and throws
 * when the run failed, so that the platform counts it as failed.
 * @param {{edge: Edge, env: import("./types").Env, runAt: number, log?: (o: Record<string, unknown>) => void}} p
 */
export async function scheduled({ edge, env, runAt, log = logLine }) {
  const { config } = edge;
  if (config.errors.length > 0) {
    const e = config.errors[0];
    log({ msg: "webhooks run skipped", error: "misconfigured: " + e.variable + ": " + e.problem });
    throw new Error("webhooks run skipped: misconfigured");
  }
  if (config.webhooks === null) {
    log({ msg: "webhooks run skipped", error: "WEBHOOK_URL is not set" });
    return;
  }
  try {
    const rep = await runWatcher({ edge, env, runAt, log });
    log({ msg: "webhooks run", run: rep });
  } catch (e) {
    log({ msg: "webhooks run failed", error: errorDetail(e, 200) });
    throw e;
  }
}
