// @ts-check
/** @import { Env, DurableObjectStorageLike, DurableObjectNamespaceLike } from "../types" */
// Fakes of the platform for the worker's unit tests.
import { newExchange } from "../exchange.mjs";

/**
 * exchangeFor makes an Exchange for a request to the worker.
 * @param {string} path
 * @param {RequestInit & {env?: Env}} [init]
 */
export function exchangeFor(path, init = {}) {
  const { env = {}, ...rest } = init;
  const request = new Request("https://edge.example" + path, rest);
  /** @type {Promise<unknown>[]} */
  const waited = [];
  const x = newExchange({ request, env, exec: { waitUntil: (p) => waited.push(p) }, now: 1000 });
  x.id = "req-1";
  return Object.assign(x, { waited });
}

/**
 * A Durable Object storage in memory (no SQL: `sql` is absent, so it is no DurableObjectStorageLike).
 * @implements {Omit<DurableObjectStorageLike, "sql">}
 */
export class MemoryStorage {
  constructor() {
    /** @type {Map<string, unknown>} */
    this.map = new Map();
    /** @type {number | null} */
    this.alarm = null;
  }
  /**
   * @template [T=unknown]
   * @param {string} k
   * @returns {Promise<T | undefined>}
   */
  async get(k) { return /** @type {T | undefined} */ (structuredClone(this.map.get(k))); }
  /**
   * @overload
   * @param {string} k
   * @param {unknown} v
   * @returns {Promise<void>}
   */
  /**
   * @overload
   * @param {Record<string, unknown>} k
   * @returns {Promise<void>}
   */
  /**
   * @param {string | Record<string, unknown>} k
   * @param {unknown} [v]
   * @returns {Promise<void>}
   */
  async put(k, v) {
    if (typeof k === "string") return void this.map.set(k, structuredClone(v));
    for (const [one, val] of Object.entries(k)) this.map.set(one, structuredClone(val));
  }
  /**
   * @overload
   * @param {string} k
   * @returns {Promise<boolean>}
   */
  /**
   * @overload
   * @param {string[]} k
   * @returns {Promise<number>}
   */
  /**
   * @param {string | string[]} k
   * @returns {Promise<boolean | number>}
   */
  async delete(k) {
    if (!Array.isArray(k)) return this.map.delete(k);
    let n = 0;
    for (const one of k) if (this.map.delete(one)) n++;
    return n;
  }
  async deleteAll() { this.map.clear(); }
  /**
   * @template [T=unknown]
   * @returns {Promise<Map<string, T>>}
   */
  async list() { return new Map([...this.map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, /** @type {T} */ (structuredClone(v))])); }
  async getAlarm() { return this.alarm; }
  /** @param {number} at */
  async setAlarm(at) { this.alarm = at; }
  /**
   * @template T
   * @param {() => T} f
   * @returns {T}
   */
  transactionSync(f) { return f(); }
}

/**
 * namespace is a Durable Object namespace whose objects are made by make
 * (one per name, kept).
 * @template T
 * @param {(name: string) => T} make
 * @returns {DurableObjectNamespaceLike<T> & {objects: Map<string, T>}}
 */
export function namespace(make) {
  /** @type {Map<string, T>} */
  const objects = new Map();
  return {
    objects,
    idFromName: (name) => name,
    get: (id) => {
      const name = /** @type {string} */ (id);
      let o = objects.get(name);
      if (o === undefined) objects.set(name, (o = make(name)));
      return o;
    },
  };
}
