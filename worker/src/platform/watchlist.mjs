// @ts-check
// Tracking webhooks' watchlist: the Watchlist Durable Object and the calls
// on it. One object per (API user, upstream), a SQLite table with a row per
// shipment. The core owns each row's state (JSON text); this object only
// orders, leases and counts. Runs lease the due rows, oldest next_at first,
// and move their next_at past the lease, so an overlapping run never gets
// the same row.

import { DurableObject } from "cloudflare:workers";
import { errorDetail, namespaceOf } from "./binding.mjs";

/**
 * @typedef {{ref: string, client_ref: string, added: number, next_at: number, pending: number, state: string}} WatchRow
 * @typedef {{save?: {ref: string, next_at: number, pending: number, state: string}[], remove?: string[], delivered: number, dropped: number, run: unknown}} WatchCommit
 * @typedef {import("../core.mjs").WatchStats} WatchStats
 */

export class Watchlist extends DurableObject {
  /**
   * @param {import("../types").DurableObjectStateLike} ctx
   * @param {import("../types").Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    /** @type {import("../types").DurableObjectStateLike} */
    this.state = ctx;
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS watch (
      ref TEXT PRIMARY KEY, client_ref TEXT NOT NULL, added INTEGER NOT NULL,
      next_at INTEGER NOT NULL, pending INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT '')`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS watch_due ON watch (next_at, ref)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS totals (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
  }

  /**
   * add watches a shipment from at (due at once); nothing if watched.
   * @param {{ref: string, clientRef: string, at: number}} q
   */
  add({ ref, clientRef, at }) {
    this.sql.exec("INSERT OR IGNORE INTO watch (ref, client_ref, added, next_at) VALUES (?, ?, ?, ?)", ref, clientRef, at, at);
    return "";
  }

  /**
   * lease returns up to n due rows (JSON) and holds them for holdMs.
   * @param {{now: number, n: number, holdMs: number}} q
   * @returns {string}
   */
  lease({ now, n, holdMs }) {
    return this.state.storage.transactionSync(() => {
      const rows = this.sql.exec(
        "SELECT ref, client_ref, added, next_at, pending, state FROM watch WHERE next_at <= ? ORDER BY next_at, ref LIMIT ?",
        now, n).toArray();
      for (const r of rows) this.sql.exec("UPDATE watch SET next_at = ? WHERE ref = ?", now + holdMs, r.ref);
      return JSON.stringify(rows);
    });
  }

  /**
   * commit writes a chunk of a run's rows back, removes the finished ones,
   * adds the chunk's counts to the totals and keeps the run so far, in one
   * transaction (a run commits every few shipments).
   * @param {{text: string}} q text: a WatchCommit as JSON
   */
  commit({ text }) {
    /** @type {WatchCommit} */
    const c = JSON.parse(text);
    this.state.storage.transactionSync(() => {
      for (const r of c.save ?? []) {
        this.sql.exec("UPDATE watch SET next_at = ?, pending = ?, state = ? WHERE ref = ?", r.next_at, r.pending, r.state, r.ref);
      }
      for (const ref of c.remove ?? []) this.sql.exec("DELETE FROM watch WHERE ref = ?", ref);
      const t = this.totals();
      t.delivered += c.delivered;
      t.dropped += c.dropped;
      t.last_run = c.run;
      this.sql.exec("INSERT OR REPLACE INTO totals (k, v) VALUES ('totals', ?)", JSON.stringify(t));
    });
    return "";
  }

  /** stats counts for /healthz (JSON). */
  stats() {
    const w = this.sql.exec("SELECT COUNT(*) AS watched, COALESCE(SUM(pending), 0) AS pending FROM watch").one();
    const t = this.totals();
    return JSON.stringify({ watched: w.watched, pending: w.pending, delivered: t.delivered, dropped: t.dropped, last_run: t.last_run ?? null });
  }

  /** @returns {{delivered: number, dropped: number, last_run?: unknown}} */
  totals() {
    const rows = this.sql.exec("SELECT v FROM totals WHERE k = 'totals'").toArray();
    return rows.length > 0 ? JSON.parse(rows[0].v) : { delivered: 0, dropped: 0 };
  }
}

/**
 * @typedef {object} WatchlistName the Watchlist object of one (API user, upstream)
 * @property {string} binding the namespace's binding name (WATCHLIST)
 * @property {string} name the object's name (the core's watchlist name)
 */

/**
 * @param {import("../types").Env} env
 * @param {WatchlistName} w
 * @returns {Watchlist | undefined}
 */
function stubOf(env, { binding, name }) {
  /** @type {import("../types").DurableObjectNamespaceLike<Watchlist> | undefined} */
  const ns = namespaceOf(env, binding);
  return ns?.get(ns.idFromName(name));
}

/**
 * @template T
 * @typedef {{ok: true, value: T} | {ok: false, failure: "unbound" | "unreachable", detail: string}} WatchAnswer
 */

/**
 * call runs f on the object, turning failures into values.
 * @template T
 * @param {import("../types").Env} env
 * @param {WatchlistName} w
 * @param {(s: Watchlist) => Promise<T> | T} f
 * @returns {Promise<WatchAnswer<T>>}
 */
async function call(env, w, f) {
  const stub = stubOf(env, w);
  if (stub === undefined) return { ok: false, failure: "unbound", detail: "binding " + w.binding + " is not configured" };
  try {
    return { ok: true, value: await f(stub) };
  } catch (e) {
    return { ok: false, failure: "unreachable", detail: errorDetail(e, 100) };
  }
}

/**
 * watchAdd puts a booked shipment on the watchlist.
 * @param {{env: import("../types").Env, list: WatchlistName, ref: string, clientRef: string, at: number}} q
 */
export function watchAdd({ env, list, ref, clientRef, at }) {
  return call(env, list, (s) => s.add({ ref, clientRef, at }));
}

/**
 * watchLease leases up to n due rows for holdMs.
 * @param {{env: import("../types").Env, list: WatchlistName, now: number, n: number, holdMs: number}} q
 * @returns {Promise<WatchAnswer<WatchRow[]>>}
 */
export async function watchLease({ env, list, now, n, holdMs }) {
  const a = await call(env, list, (s) => s.lease({ now, n, holdMs }));
  return a.ok ? { ok: true, value: JSON.parse(a.value) } : a;
}

/**
 * watchCommit writes a chunk of a run back.
 * @param {{env: import("../types").Env, list: WatchlistName, commit: WatchCommit}} q
 */
export function watchCommit({ env, list, commit }) {
  return call(env, list, (s) => s.commit({ text: JSON.stringify(commit) }));
}

/**
 * watchStats reads the counts for /healthz.
 * @param {{env: import("../types").Env, list: WatchlistName}} q
 * @returns {Promise<WatchAnswer<WatchStats>>}
 */
export async function watchStats({ env, list }) {
  const a = await call(env, list, (s) => s.stats());
  return a.ok ? { ok: true, value: JSON.parse(a.value) } : a;
}

/**
 * watchlistBound reports whether the namespace is configured.
 * @param {{env: import("../types").Env, binding: string}} q
 */
export function watchlistBound({ env, binding }) {
  return namespaceOf(env, binding) !== undefined;
}

/** WatchlistError: the watchlist could not be reached (a run fails with it). */
export class WatchlistError extends Error {
  /** @param {string} detail */
  constructor(detail) {
    super("the watchlist could not be reached: " + detail);
    this.name = "WatchlistError";
  }
}
