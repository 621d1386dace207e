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

/** @typedef {import('./core.d.mts').EdgeCore} EdgeCore */
/** @typedef {import('./core.d.mts').CoreOptions} CoreOptions */
/** @typedef {import('./core.d.mts').CoreResponse} CoreResponse */

import { Calls, METHODS } from './core.gen.mjs';

const encoder = new TextEncoder();
// ignoreBOM: a body that starts with a BOM is relayed with it, byte for byte.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const EMPTY = new Uint8Array(0);

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
    const total = this.x.pg_out_len();
    const out = new Uint8Array(this.x.memory.buffer, this.x.pg_out(), total);
    const answer = JSON.parse(decoder.decode(out.subarray(0, headLen)));
    const parts = answer.$raw;
    if (parts !== undefined) {
      // [[path, bytes], ...]: each raw part, in order after the JSON.
      delete answer.$raw;
      let at = headLen;
      for (const [path, n] of parts) {
        const keys = path.split('.');
        let o = answer;
        for (let i = 0; i < keys.length - 1; i++) o = o[keys[i]];
        o[keys[keys.length - 1]] = decoder.decode(out.subarray(at, at + n));
        at += n;
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
 */
export function trapAnswer(name, input, internal) {
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
      return { body: typeof input.body === 'string' ? input.body : decoder.decode(input.body), normalized: false };
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
  /** @type {string | null} the last configure() input, replayed after a trap */ #configured = null;
  #instances = 1;

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
      return this.#inst.call(METHODS[name], head, bytesOf(raw));
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

  /** @param {string} method @param {Error} err */
  #replace(method, err) {
    this.#inst = new Instance(this.#module);
    this.#instances++;
    if (this.#configured !== null) this.#inst.call(METHODS.configure, this.#configured, EMPTY);
    if (this.#options.onTrap) this.#options.onTrap({ method, message: err.message, instances: this.#instances });
  }
}
