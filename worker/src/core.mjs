// @ts-check
// The edge core's wrapper: instantiates build/worker/core.wasm (TinyGo,
// worker/core/wasm) and marshals the calls of core.d.mts, the contract.
//
// A call writes one message into the module's memory (the input's JSON,
// then its one large string as raw UTF-8: a body), makes one WebAssembly
// call and reads one answer (JSON, then raw bytes that the JSON's "$raw"
// member places: "response.body", "forward.upstreamBody", ...). Bodies
// never go through JSON escaping.
//
// A trap (a Go panic: TinyGo has no recover on wasm) kills the instance.
// The wrapper answers that call as core.d.mts says (a 500 envelope in the
// client's language), instantiates the module afresh from the compiled
// WebAssembly.Module (about a millisecond), configures it with the last
// configure() input and goes on: calls are synchronous, so no other call
// was in flight in this instance.
//
// The module's heap is TinyGo's leaking one, a bump allocator with no
// collector (29.5 KB less gzip than one: no shadow-stack frames at every
// call site), run as an arena: the module marks where the heap ends after
// configure and takes everything back to that mark when the next call
// begins (worker/core/wasm/arena_leaking.go), so a read or a booking runs
// in the same few kilobytes as the last one. Linear memory cannot shrink,
// though, and one large answer grows it for the instance's life (a
// collector's heap never shrank either: a 1 MiB answer took it to 48 MiB
// for good). So after a call that leaves more than RENEW_ABOVE bytes of
// linear memory, the instance is replaced the same way as after a trap
// (about 0.2 ms) and the memory goes with it. The core's only state across
// calls is configure()'s, which is why the arena and both replacements are
// safe (core.test.mjs compares every call with a fresh instance's).

/** @typedef {import('./core.d.mts').EdgeCore} EdgeCore */
/** @typedef {import('./core.d.mts').CoreOptions} CoreOptions */
/** @typedef {import('./core.d.mts').CoreResponse} CoreResponse */

import { Calls, METHODS } from './core.gen.mjs';

const encoder = new TextEncoder();
// ignoreBOM: a body that starts with a BOM is relayed with it, byte for byte.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const EMPTY = new Uint8Array(0);

/**
 * RENEW_ABOVE is the linear memory past which the instance is replaced
 * after a call: issue 21's bound on the core's memory. A fresh instance
 * starts at 384 KiB and reads and bookings stay there (the arena), so only
 * an answer of several hundred kilobytes (a label, a city's drop points)
 * costs a renewal (worker/bench/CORE.md, "The arena").
 */
export const RENEW_ABOVE = 1 << 20;

/**
 * bytesOf is a raw part as bytes: the contract's bodies are strings or
 * bytes (core.d.mts; the platform's are bytes), absent as null.
 * @param {string | Uint8Array | null | undefined} v
 * @returns {Uint8Array}
 */
function bytesOf(v) {
  return v == null ? EMPTY : typeof v === 'string' ? encoder.encode(v) : v;
}

/**
 * The module's instance and its exports.
 */
class Instance {
  /** @param {WebAssembly.Module} module */
  constructor(module) {
    const x = /** @type {any} */ (new WebAssembly.Instance(module, {}).exports);
    this.x = x;
    if (typeof x._initialize === 'function') x._initialize();
  }

  /** @returns {number} bytes of linear memory */
  memoryBytes() {
    return this.x.memory.buffer.byteLength;
  }

  /**
   * One call: head JSON and raw bytes in, the parsed answer out. The head
   * is encoded straight into the module's memory (encodeInto, room for 3
   * bytes a UTF-16 unit: a head is JSON of a few hundred bytes,
   * configure's a few kilobytes), with no bytes of its own to copy.
   * @param {number} method
   * @param {string} head
   * @param {Uint8Array} raw
   */
  call(method, head, raw) {
    const max = head.length * 3 + raw.length;
    const ptr = this.x.pg_in(max); // first: it may grow the memory (a new buffer)
    const mem = new Uint8Array(this.x.memory.buffer, ptr, max);
    const h = encoder.encodeInto(head, mem).written;
    mem.set(raw, h);
    const headLen = this.x.pg_call(method, h, raw.length);
    const buffer = this.x.memory.buffer;
    const answer = JSON.parse(decoder.decode(new Uint8Array(buffer, this.x.pg_out(), headLen)));
    const parts = answer.$raw;
    if (parts !== undefined) {
      // [[path, bytes], ...]: raw part i at pg_part(i), where the call left
      // it (a relayed body in the input itself): never copied in the module.
      delete answer.$raw;
      for (let p = 0; p < parts.length; p++) {
        const [path, n] = parts[p];
        const keys = path.split('.');
        let o = answer;
        for (let i = 0; i < keys.length - 1; i++) o = o[keys[i]];
        o[keys[keys.length - 1]] = decoder.decode(new Uint8Array(buffer, this.x.pg_part(p), n));
      }
    }
    return answer;
  }
}

/**
 * The answers of a call that trapped, per method: what core.d.mts says a
 * trap gives (the 500 comes from a fresh instance, in the client's language).
 * @param {string} name
 * @param {any} input
 * @param {(input: any) => CoreResponse} internal
 * @param {string | Uint8Array | null | undefined} [raw] the call's raw part (the generated
 *   calls take a body out of the input: normalize's is here, not in input.body)
 */
export function trapAnswer(name, input, internal, raw) {
  const response = () => internal(input);
  switch (name) {
    case 'prepare':
      return { kind: 'respond', caller: 'unknown', rateLimit: null, response: response() };
    case 'answer':
      return { response: response(), outcome: 'lost', cacheable: false, retry: false, leak: false, watch: null, note: 'trap' };
    case 'booking':
      // Nothing was sent by this attempt. A record it took new is released;
      // one it took after a lost answer stays lost (that booking may exist);
      // the other states took nothing.
      return {
        kind: 'respond',
        response: response(),
        finish: input.state === 'new' ? { outcome: 'refused', body: null } : input.state === 'lost' ? { outcome: 'unsent', body: null } : null,
        watch: null,
      };
    case 'lookedUp':
      // Nothing was sent by this attempt: the record goes back to what it was.
      return { kind: 'respond', response: response(), finish: { outcome: 'unsent', body: null }, watch: null };
    case 'tokens':
    case 'demoToken':
      return { rateLimit: null, response: response() };
    case 'healthz':
    case 'failure':
    case 'fault':
      return response();
    case 'rates':
      // Nothing to answer with: the request is answered as before.
      return { source: '', response: null };
    case 'normalize':
      // The body goes out as received: the Client decodes it itself.
      return { body: raw == null ? '' : typeof raw === 'string' ? raw : decoder.decode(raw), normalized: false };
    default:
      return null;
  }
}

/**
 * Creates the core from the compiled module.
 * @param {WebAssembly.Module} module
 * @param {CoreOptions} [options]
 * @returns {Promise<EdgeCore>}
 */
export async function createCore(module, options = {}) {
  return new Core(module, options);
}

/**
 * newCore is createCore without the promise: the entry module calls it at
 * its top level, where an isolate starts (warm.mjs).
 * @param {WebAssembly.Module} module
 * @param {CoreOptions} [options]
 * @returns {EdgeCore}
 */
export function newCore(module, options = {}) {
  return new Core(module, options);
}

/**
 * The core: the generated calls (core.gen.mjs) over one crossing that
 * survives traps.
 * @implements {EdgeCore}
 */
class Core extends Calls {
  /** @type {WebAssembly.Module} */ #module;
  /** @type {Instance} */ #inst;
  /** @type {CoreOptions} */ #options;
  /** @type {string | null} the last configure() input, replayed in a fresh instance */ #configured = null;
  #instances = 1;
  #renewals = 0;

  /** @param {WebAssembly.Module} module @param {CoreOptions} options */
  constructor(module, options) {
    super();
    this.#module = module;
    this.#options = options;
    this.#inst = new Instance(module);
  }

  /** Instances created so far (1 + traps). */
  get instances() {
    return this.#instances;
  }

  /** Instances replaced because memory passed RENEW_ABOVE (not traps). */
  get renewals() {
    return this.#renewals;
  }

  /** The module's linear memory, in bytes (for /healthz and the memory tests). */
  memoryBytes() {
    return this.#inst.memoryBytes();
  }

  /**
   * One crossing (the generated calls' call()): a trap is answered as
   * core.d.mts says and the module replaced.
   * @param {keyof typeof METHODS} name
   * @param {any} input the JSON part
   * @param {string | Uint8Array | null | undefined} raw the raw part
   * @returns {any}
   */
  call(name, input, raw) {
    const head = JSON.stringify(input);
    if (name === 'configure') this.#configured = head;
    try {
      const answer = this.#inst.call(METHODS[name], head, bytesOf(raw));
      // The answer is JavaScript strings and objects by now: nothing refers to the old memory.
      if (this.#inst.memoryBytes() > RENEW_ABOVE) {
        this.#fresh();
        this.#renewals++;
      }
      return answer;
    } catch (err) {
      if (!(err instanceof WebAssembly.RuntimeError)) throw err;
      this.#replace(name, err);
      const answer = trapAnswer(name, input, (i) =>
        this.#inst.call(
          METHODS.failure,
          JSON.stringify({
            kind: 'internal',
            requestId: (i && i.requestId) || '',
            acceptLanguage: (i && i.acceptLanguage) || null,
            operation: '',
            method: '',
            path: '',
            allow: '',
            origin: '',
          }),
          EMPTY,
        ),
        raw,
      );
      if (answer === null) throw err;
      return answer;
    }
  }

  /**
   * configure sends the string variables only: the environment's other
   * members are bindings (objects of the platform's).
   * @param {import('./core.d.mts').ConfigureInput} input
   */
  configure(input) {
    /** @type {Record<string, string>} */
    const vars = {};
    for (const [k, v] of Object.entries(input.vars || {})) if (typeof v === 'string') vars[k] = v;
    return super.configure({ vars, bindings: input.bindings });
  }

  /** A fresh instance of the compiled module, configured as the last one was. */
  #fresh() {
    this.#inst = new Instance(this.#module);
    if (this.#configured !== null) this.#inst.call(METHODS.configure, this.#configured, EMPTY);
  }

  /** @param {string} method @param {Error} err */
  #replace(method, err) {
    this.#fresh();
    this.#instances++;
    if (this.#options.onTrap) this.#options.onTrap({ method, message: err.message, instances: this.#instances });
  }
}
