// Fakes of the platform for the worker's unit tests.
import { newExchange } from "../exchange.mjs";

/**
 * exchangeFor makes an Exchange for a request to the worker.
 * @param {string} path
 * @param {RequestInit & {env?: object}} [init]
 */
export function exchangeFor(path, init = {}) {
  const { env = {}, ...rest } = init;
  const request = new Request("https://edge.example" + path, rest);
  const waited = [];
  const x = newExchange({ request, env, exec: { waitUntil: (p) => waited.push(p) }, now: 1000 });
  x.id = "req-1";
  return Object.assign(x, { waited });
}

/** A Durable Object storage in memory (no SQL). */
export class MemoryStorage {
  constructor() {
    this.map = new Map();
    this.alarm = null;
  }
  async get(k) { return structuredClone(this.map.get(k)); }
  async put(k, v) {
    if (typeof k === "string") return void this.map.set(k, structuredClone(v));
    for (const [one, val] of Object.entries(k)) this.map.set(one, structuredClone(val));
  }
  async delete(k) {
    if (!Array.isArray(k)) return this.map.delete(k);
    let n = 0;
    for (const one of k) if (this.map.delete(one)) n++;
    return n;
  }
  async deleteAll() { this.map.clear(); }
  async list() { return new Map([...this.map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, structuredClone(v)])); }
  async getAlarm() { return this.alarm; }
  async setAlarm(at) { this.alarm = at; }
  transactionSync(f) { return f(); }
}

/**
 * namespace is a Durable Object namespace whose objects are made by make
 * (one per name, kept).
 */
export function namespace(make) {
  const objects = new Map();
  return {
    objects,
    idFromName: (name) => name,
    get: (id) => {
      if (!objects.has(id)) objects.set(id, make(id));
      return objects.get(id);
    },
  };
}
