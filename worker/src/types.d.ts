// Minimal types of the platform objects the worker uses (workerd's), written
// by hand: the worker needs a handful of members, not all of
// @cloudflare/workers-types.

/** A request's ExecutionContext: work that outlives the answer. */
export interface ExecutionContextLike {
  waitUntil(p: Promise<unknown>): void;
}

/** A rate-limiting binding ([[ratelimits]]). */
export interface RateLimitBinding {
  limit(o: { key: string }): Promise<{ success: boolean }>;
}

/** A Durable Object namespace; stubs expose the class's RPC methods. */
export interface DurableObjectNamespaceLike<T> {
  idFromName(name: string): unknown;
  get(id: unknown): T;
}

/** Durable Object storage, the members the two classes use. */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  deleteAll(): Promise<void>;
  list<T = unknown>(): Promise<Map<string, T>>;
  getAlarm(): Promise<number | null>;
  setAlarm(at: number): Promise<void>;
  transactionSync<T>(f: () => T): T;
  sql: SqlStorageLike;
}

export interface SqlStorageLike {
  exec(query: string, ...bindings: unknown[]): SqlCursorLike;
}

export interface SqlCursorLike {
  toArray(): Record<string, any>[];
  one(): Record<string, any>;
}

export interface DurableObjectStateLike {
  storage: DurableObjectStorageLike;
}

/** The worker's environment: [vars], secrets and bindings. */
export interface Env {
  [name: string]: unknown;
}

/** The Cache API's default cache (caches.default). */
export interface CacheLike {
  match(key: string): Promise<Response | undefined>;
  put(key: string, res: Response): Promise<void>;
}
