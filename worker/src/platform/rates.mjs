// @ts-check
// Rates with a deadline, the platform's part (issue 31): the deadline's
// timer, and the store of the last good rates answer per route and
// parcels: an in-isolate map in front of the Workers Cache API (which
// outlives the isolate; a no-op on *.workers.dev, where the map alone
// serves). What a stored answer is worth and what to answer are the
// core's decisions (its rates call).

/** The Cache API needs URLs: stored rates live under this one (never fetched). */
const STORE_BASE = "https://rates.parcelgate.invalid/v1/";

/** Entries the in-isolate map holds at most (oldest first out). */
export const RATES_MEMORY_ENTRIES = 256;

/** @type {Map<string, {body: Uint8Array, storedAt: number}>} */
const memory = new Map();

/** The value a deadline resolves with. */
export const LATE = Symbol("late");

/**
 * deadline resolves with LATE after ms unless cancelled first (a cancelled
 * timer never fires: the request's answer does not wait on it).
 * @param {number} ms
 * @returns {{late: Promise<typeof LATE>, cancel: () => void}}
 */
export function deadline(ms) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let t;
  const late = new Promise((r) => { t = setTimeout(() => r(LATE), ms); });
  return { late: /** @type {Promise<typeof LATE>} */ (late), cancel: () => clearTimeout(t) };
}

/**
 * storedRates reads the last good answer under key: the in-isolate map,
 * else the Cache API; null when none (a store never fails a request).
 * @param {{cache: import("../types").CacheLike | undefined, key: string}} q
 * @returns {Promise<{body: Uint8Array, storedAt: number} | null>}
 */
export async function storedRates({ cache, key }) {
  const m = memory.get(key);
  if (m !== undefined) return m;
  if (cache === undefined) return null;
  try {
    const res = await cache.match(STORE_BASE + key);
    if (res === undefined) return null;
    const storedAt = Number(res.headers.get("x-parcelgate-stored-at") ?? "0");
    return { body: new Uint8Array(await res.arrayBuffer()), storedAt };
  } catch {
    return null;
  }
}

/**
 * storeRates keeps an ok answer (the upstream's bytes) as the last good
 * one for key, for keepMs in the Cache API; the promise never rejects
 * (give it to waitUntil).
 * @param {{cache: import("../types").CacheLike | undefined, key: string, body: Uint8Array, storedAt: number, keepMs: number}} p
 * @returns {Promise<void>}
 */
export async function storeRates({ cache, key, body, storedAt, keepMs }) {
  if (keepMs <= 0) return;
  memory.delete(key);
  memory.set(key, { body, storedAt });
  for (const k of memory.keys()) {
    if (memory.size <= RATES_MEMORY_ENTRIES) break;
    memory.delete(k);
  }
  if (cache === undefined) return;
  const res = new Response(/** @type {BodyInit} */ (body), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "max-age=" + Math.ceil(keepMs / 1000),
      "x-parcelgate-stored-at": String(storedAt),
    },
  });
  await cache.put(STORE_BASE + key, res).catch(() => {});
}

/** Store keys whose late call is refreshing the store now (in this isolate). */
const refreshing = new Set();

/**
 * claimRefresh makes a late call the one refreshing key's stored answer:
 * true (and key is held until done settles) when no other late call for
 * key is in flight in this isolate, else false (the caller aborts its
 * call). With the upstream slow, every request of a route would otherwise
 * leave its call running under waitUntil (up to UPSTREAM_TIMEOUT_MS): at
 * n requests a second, about n x 10 calls in flight against a carrier API
 * that is already struggling, each holding an outbound connection.
 * @param {string} key
 * @param {Promise<unknown>} done the late call
 * @returns {boolean}
 */
export function claimRefresh(key, done) {
  if (refreshing.has(key)) return false;
  refreshing.add(key);
  done.finally(() => refreshing.delete(key)).catch(() => {});
  return true;
}

/** refreshesInFlight is the count of late calls refreshing the store (tests). */
export function refreshesInFlight() {
  return refreshing.size;
}

/** forgetRates empties the in-isolate map and the refreshes' keys (tests). */
export function forgetRates() {
  memory.clear();
  refreshing.clear();
}
