// @ts-check
// The two cache tiers of public reads: an in-isolate LRU (bounded in
// entries and body bytes) in front of the Workers Cache API
// (caches.default), which outlives the isolate (a no-op on *.workers.dev).
// Only ok envelopes are stored (the route decides); identical concurrent
// misses share one upstream call (flights). Keys come from the core (the
// operation, the normalized request, the upstream identity).

/** Entries the in-isolate tier holds at most, whatever their size. */
export const CACHE_MAX_ENTRIES = 1024;

/** The Cache API needs URLs: keys live under this one (never fetched). */
const CACHE_BASE = "https://cache.parcelgate.invalid/v1/";

/**
 * IsolateCache is the in-isolate tier: least recently used entries go
 * first past maxBytes or maxEntries; a body over a quarter of maxBytes is
 * not kept (it would evict most of the cache). maxBytes 0 keeps nothing
 * (flights still coalesce).
 */
export class IsolateCache {
  /** @param {{maxBytes: number, maxEntries?: number}} o */
  constructor({ maxBytes, maxEntries = CACHE_MAX_ENTRIES }) {
    this.maxBytes = maxBytes;
    this.maxEntries = maxEntries;
    /** @type {Map<string, {body: Uint8Array, expires: number}>} insertion order = recency */
    this.entries = new Map();
    this.bytes = 0;
    /** @type {Map<string, Promise<any>>} */
    this.flights = new Map();
  }

  /**
   * get returns a fresh entry's body (undefined when none).
   * @param {{key: string, now: number}} q
   */
  get({ key, now }) {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    if (now >= e.expires) {
      this.bytes -= e.body.byteLength;
      return undefined;
    }
    this.entries.set(key, e);
    return e.body;
  }

  /**
   * put keeps body until expires (ms since the epoch).
   * @param {{key: string, body: Uint8Array, expires: number}} e
   */
  put({ key, body, expires }) {
    if (body.byteLength > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.body.byteLength;
    }
    this.entries.set(key, { body, expires });
    this.bytes += body.byteLength;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      this.entries.delete(k);
      this.bytes -= v.body.byteLength;
    }
  }

  /**
   * flight runs load once for concurrent callers of one key: the first
   * leads, the others get its result (the route's: an ok body, or the
   * upstream's outcome to answer from).
   * @template T
   * @param {{key: string, load: () => Promise<T>}} f
   * @returns {{lead: boolean, result: Promise<T>}}
   */
  flight({ key, load }) {
    const running = this.flights.get(key);
    if (running !== undefined) return { lead: false, result: running };
    const result = load().finally(() => this.flights.delete(key));
    this.flights.set(key, result);
    return { lead: true, result };
  }

  /** stats for /healthz. */
  stats() {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/**
 * sharedGet reads the Cache API tier: the body and when it expires, or
 * undefined (a miss, no Cache API, or a failure: a cache never fails a read).
 * @param {{cache: import("../types").CacheLike | undefined, key: string}} q
 * @returns {Promise<{body: Uint8Array, expires: number} | undefined>}
 */
export async function sharedGet({ cache, key }) {
  if (cache === undefined) return undefined;
  try {
    const res = await cache.match(CACHE_BASE + key);
    if (res === undefined) return undefined;
    const expires = Number(res.headers.get("x-parcelgate-expires") ?? "0");
    return { body: new Uint8Array(await res.arrayBuffer()), expires };
  } catch {
    return undefined;
  }
}

/**
 * sharedPut stores an ok answer in the Cache API tier for ttlSeconds; the
 * returned promise never rejects (give it to waitUntil).
 * @param {{cache: import("../types").CacheLike | undefined, key: string, body: Uint8Array, ttlSeconds: number, now: number}} p
 * @returns {Promise<void>}
 */
export async function sharedPut({ cache, key, body, ttlSeconds, now }) {
  if (cache === undefined) return;
  const res = new Response(/** @type {BodyInit} */ (body), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "max-age=" + ttlSeconds,
      "x-parcelgate-expires": String(now + ttlSeconds * 1000),
    },
  });
  await cache.put(CACHE_BASE + key, res).catch(() => {});
}

/**
 * defaultCache is caches.default where the platform has it.
 * @returns {import("../types").CacheLike | undefined}
 */
export function defaultCache() {
  // @ts-ignore: caches.default is workerd's, not the DOM's
  return typeof caches === "undefined" ? undefined : caches.default;
}
