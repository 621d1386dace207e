// @ts-check
// The WebAssembly core: loading (browsers and Node 20+) and a thin wrapper
// over the modules' exports. See ../index.d.ts for the types.
//
// Two TinyGo modules with plain exports and no imports (wasm/doc.go): the
// validation module, loaded by load(), and the response decoder, loaded on
// the first need (loadDecoder(); the Client does it by itself). A call
// writes one message into the module's memory (TextEncoder.encodeInto),
// makes one WebAssembly call and reads one answer (TextDecoder): the
// format is wasm/internal/wire's, tokens ended by US (0x1f). Each call's
// input and answer are declared once, in wasm/internal/seam: core.gen.js
// (generated) packs the named input and reads the named answer.

import * as calls from './core.gen.js';
import { Usage, Tokens, numberText } from './wire.js';

export { numberText };

/** @import { LoadOptions, WasmSource, ValidateOptions, Core as CoreAPI, Catalog } from '../core.js' */
/** @typedef {{readFile: (path: string | URL) => Promise<Uint8Array>, pathToFileURL: (path: string) => URL}} NodeIO */

// The modules next to the package, written as `new URL('...', import.meta.url)`:
// the form bundlers (Vite, webpack 5, Parcel, Rollup with an import-meta-assets
// plugin) recognise and rewrite to the asset they emit. esbuild does not:
// there, give the URL with configure({wasm}) (README, "Bundlers").
const DEFAULT_WASM = new URL('../dist/parcelgate.wasm', import.meta.url);
const DEFAULT_DECODER = new URL('../dist/parcelgate-decoder.wasm', import.meta.url);
const DEFAULT_MAX_MEMORY = 16 * 1024 * 1024;

/** @type {Core | null} */
let defaultCore = null;
/** @type {Promise<Core> | null} */
let defaultLoading = null;
// What configure() set for the shared core: {wasm, decoder, maxMemory}.
/** @type {LoadOptions} */
let defaults = {};

// Node's process, typed here (no Node typings in a browser module).
/** @type {{versions?: {node?: string}, getBuiltinModule?: (id: string) => NodeIO} | undefined} */
const nodeProcess = /** @type {{process?: typeof nodeProcess}} */ (/** @type {unknown} */ (globalThis)).process;
const isNode = nodeProcess !== undefined && !!(nodeProcess.versions && nodeProcess.versions.node);

// Node's file reading. No node: import appears in this module (bundlers
// targeting browsers must not see one): the package's `node` entry
// (src/node.js, the `node` export condition) hands the functions in, and a
// module imported by path falls back to process.getBuiltinModule (Node 20.16+).
/** @type {NodeIO | null} */
let nodeIO = null;

/** Used by src/node.js only: Node's readFile and pathToFileURL. @param {NodeIO} io */
export function setNodeIO(io) {
  nodeIO = io;
}

/** @returns {NodeIO} */
function nodeFS() {
  if (nodeIO) return nodeIO;
  const get = nodeProcess && nodeProcess.getBuiltinModule;
  if (typeof get === 'function') {
    return { readFile: get('node:fs/promises').readFile, pathToFileURL: get('node:url').pathToFileURL };
  }
  throw new Error('parcelgate: reading the module from a file needs Node 20.16+ or the package\'s node entry (import "@parcelgate/js"); or pass its bytes as options.wasm');
}

/**
 * Sets where the shared core (the one load() without options, the Client
 * and the widgets use) comes from: options.wasm / options.decoder are a URL,
 * a path (Node), bytes, a Response or a WebAssembly.Module. Call it before
 * anything loads the core, e.g. in a module imported before the widgets'
 * define module. Throws once the shared core is loading or loaded from
 * another source.
 * @param {LoadOptions} options
 */
export function configure(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('parcelgate.configure: options must be an object');
  if (defaultLoading) {
    throw new Error('parcelgate.configure: the shared core is already loading or loaded; call configure() before the first load() (before the widgets are defined)');
  }
  defaults = { ...defaults, ...options };
}

/**
 * Loads the WebAssembly core (the validation module). Without options the
 * module next to the package (dist/parcelgate.wasm) is loaded once and
 * shared. options.decoder is where the response decoder is loaded from
 * when first needed (default dist/parcelgate-decoder.wasm).
 * @param {LoadOptions} [options]
 * @returns {Promise<Core>}
 */
export function load(options = {}) {
  if (options.wasm === undefined && options.maxMemory === undefined && options.decoder === undefined) {
    if (!defaultLoading) {
      defaultLoading = create(defaults.wasm === undefined ? DEFAULT_WASM : defaults.wasm, defaults).then(
        (core) => (defaultCore = core),
        (err) => {
          defaultLoading = null;
          throw err;
        },
      );
    }
    return defaultLoading;
  }
  return create(options.wasm === undefined ? DEFAULT_WASM : options.wasm, options);
}

/** The shared core once load() has resolved, else null. @returns {Core | null} */
export function loaded() {
  return defaultCore;
}

/** Local date as YYYY-MM-DD. @param {Date} [date] */
export function today(date = new Date()) {
  const p = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

// A coordinate as a number: numbers and numeric strings ("40.4168", as
// the edge sends them without a core); anything else (null, "") is NaN.
const coord = (/** @type {unknown} */ v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

/**
 * Great-circle distance in km between two {lat, lon} points in degrees
 * (haversine, as the core's geo.DistanceKm); NaN when a coordinate is
 * missing or not a number.
 * @type {typeof import('../core.js').distanceKm}
 */
export function distanceKm(a, b) {
  const r = Math.PI / 180;
  const la1 = coord(a && a.lat) * r;
  const la2 = coord(b && b.lat) * r;
  const sLat = Math.sin((la2 - la1) / 2);
  const sLon = Math.sin(((coord(b && b.lon) - coord(a && a.lon)) * r) / 2);
  const h = sLat * sLat + Math.cos(la1) * Math.cos(la2) * sLon * sLon;
  return 2 * 6371 * Math.asin(Math.sqrt(Math.min(1, h)));
}

/** @param {WasmSource} source @param {LoadOptions} options */
async function create(source, options) {
  const { module, instance } = await instantiate(source, {});
  return new Core(module, instance, options);
}

/** @param {string} s */
function looksLikePath(s) {
  return !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
}

// instantiate returns {module, instance} from any WasmSource, streaming
// when the server sends application/wasm and falling back to bytes when it
// does not.
/** @param {WasmSource} source @param {WebAssembly.Imports} imports @returns {Promise<WebAssembly.WebAssemblyInstantiatedSource>} */
async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) {
    return { module: source, instance: await WebAssembly.instantiate(source, imports) };
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.instantiate(/** @type {BufferSource} */ (source), imports);
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    return fromResponse(source, imports);
  }
  /** @type {URL} */
  let url;
  if (source instanceof URL) {
    url = source;
  } else if (typeof source === 'string') {
    if (isNode && looksLikePath(source) && typeof location === 'undefined') {
      url = nodeFS().pathToFileURL(source);
    } else {
      url = new URL(source, typeof location !== 'undefined' ? location.href : import.meta.url);
    }
  } else {
    throw new TypeError('parcelgate: wasm must be a URL, a path, bytes, a Response or a WebAssembly.Module');
  }
  if (url.protocol === 'file:' && isNode) {
    return WebAssembly.instantiate(/** @type {BufferSource} */ (await nodeFS().readFile(url)), imports);
  }
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new Error(`parcelgate: fetching ${url.href} failed: ${err && /** @type {Error} */ (err).message}`, { cause: err });
  }
  return fromResponse(res, imports);
}

/** @param {Response} res @param {WebAssembly.Imports} imports @returns {Promise<WebAssembly.WebAssemblyInstantiatedSource>} */
async function fromResponse(res, imports) {
  if (!res.ok) {
    throw new Error(`parcelgate: fetching ${res.url || 'the module'} failed with HTTP ${res.status}: serve dist/parcelgate.wasm there or give its URL to configure({wasm}) (README, "Bundlers")`);
  }
  const type = (res.headers.get('content-type') || '').split(';')[0].trim().toLowerCase();
  if (type === 'text/html') {
    // A dev server's or a CDN's fallback page where the module should be.
    throw new Error(
      `parcelgate: ${res.url || 'the module'} answered an HTML page, not the WebAssembly module: serve dist/parcelgate.wasm there or give its URL to configure({wasm}); ` +
        "with Vite's dev server, add optimizeDeps: {exclude: ['@parcelgate/js']} to vite.config, since pre-bundling moves the package away from its wasm (README, \"Bundlers\")",
    );
  }
  if (type === 'application/wasm' && typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      return await WebAssembly.instantiateStreaming(res.clone(), imports);
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      // Fall through: read the bytes ourselves.
    }
  }
  return WebAssembly.instantiate(await res.arrayBuffer(), imports);
}


// ---- the calls' inputs (declared in wasm/internal/seam; core.gen.js packs them) ----

// A call's operation must be a string (the module finds an unknown name).
/** @param {string} name @param {unknown} op @returns {asserts op is string} */
function checkOperation(name, op) {
  if (typeof op !== 'string') throw new TypeError(`parcelgate.${name}: operation must be a string such as "new-shipment"`);
}

// validate's input: the operation, the options as named members, the
// field ('' for every field) and the request.
/** @param {string} operation @param {unknown} request @param {ValidateOptions | undefined} options @param {string} field @returns {import('./core.gen.js').ValidateInput} */
function validateInput(operation, request, options, field) {
  /** @type {ValidateOptions['today']} */
  let t = options ? options.today : '';
  if (t === true) t = today();
  else if (t instanceof Date) t = today(t);
  else if (typeof t !== 'string') t = '';
  const locale = options && typeof options.locale === 'string' ? options.locale : '';
  return { operation, rules: !!(options && options.rules), today: t, locale, field, request };
}

// ---- one instance of a module ---------------------------------------------

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Module wraps one compiled module and its current instance: the input
// buffer, reading answers, and a fresh instance when the old one trapped
// or its memory (TinyGo's leaking heap) grew past maxMemory.
// A call: message length in, answer length out (negative: a usage error).
/** @typedef {(n: number) => number} Call */
/** @typedef {WebAssembly.Exports & {memory: WebAssembly.Memory, pg_in: Call, pg_out(): number, _initialize?: () => void}} Exports */
const exportsOf = (/** @type {WebAssembly.Instance} */ i) => /** @type {Exports} */ (i.exports);

const NO_BYTES = new Uint8Array(0);

class Module {
  // (#start sets them)
  cap = 0;
  ptr = 0;
  u8 = NO_BYTES;
  input = NO_BYTES;

  /** @param {WebAssembly.Module} module @param {WebAssembly.Instance} instance @param {number} maxMemory */
  constructor(module, instance, maxMemory) {
    this.module = module;
    this.maxMemory = maxMemory;
    this.stale = false;
    // (for tsc, which does not follow #start)
    this.exports = exportsOf(instance);
    this.memory = this.exports.memory;
    this.#start(instance);
  }

  /** @param {WebAssembly.Instance} instance */
  #start(instance) {
    this.exports = exportsOf(instance);
    if (typeof this.exports._initialize === 'function') this.exports._initialize();
    this.memory = this.exports.memory;
    this.cap = 1024;
    this.ptr = this.exports.pg_in(this.cap);
    this.#views();
    this.stale = false;
  }

  #views() {
    this.u8 = new Uint8Array(this.memory.buffer);
    this.input = this.u8.subarray(this.ptr, this.ptr + this.cap);
  }

  // Writes a message into the input buffer and returns its length in bytes.
  /** @param {string} s */
  write(s) {
    if (this.stale) this.#start(new WebAssembly.Instance(this.module, {}));
    if (this.u8.length === 0) this.#views(); // memory grew: old views are detached
    const n = s.length;
    if (n * 3 > this.cap) {
      this.cap = n * 3;
      this.ptr = this.exports.pg_in(this.cap);
      this.#views();
    }
    if (n <= 64) {
      // Short messages: a loop beats encodeInto's call overhead.
      const u8 = this.u8;
      const p = this.ptr;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        u8[p + i] = c;
      }
      if (i === n) return n;
    }
    return encoder.encodeInto(s, this.input).written;
  }

  // Calls an export; traps become an Error and a fresh instance next time.
  /** @param {string} name @param {Call} fn @param {number} a */
  call(name, fn, a) {
    let r;
    try {
      r = fn(a);
    } catch (err) {
      this.stale = true;
      throw new Error(`parcelgate: ${name} failed inside the module: ${err && /** @type {Error} */ (err).message}`, { cause: err });
    }
    if (this.u8.length === 0) {
      this.#views();
      if (this.memory.buffer.byteLength > this.maxMemory) this.stale = true;
    }
    return r;
  }

  // The answer of the last call, n bytes.
  /** @param {number} n */
  read(n) {
    const p = this.exports.pg_out();
    const u8 = this.u8;
    if (n <= 32) {
      // Short ASCII answers: one flat string (a string built by += is a
      // rope, which the token cursor's indexOf and slice flatten again).
      const b = u8.subarray(p, p + n);
      for (let i = 0; i < n; i++) if (b[i] >= 0x80) return decoder.decode(b);
      return String.fromCharCode.apply(null, /** @type {number[]} */ (/** @type {unknown} */ (b)));
    }
    return decoder.decode(u8.subarray(p, p + n));
  }
}

/**
 * The loaded core; every method is synchronous except loadDecoder().
 * @implements {CoreAPI}
 */
export class Core {
  /** @type {Module} */
  #m;
  /** @type {string} */
  #version;
  /** @type {Catalog | null} */
  #catalog = null;
  /** @type {WasmSource} */
  #decoderSource;
  /** @type {Module | null} */
  #decoder = null;
  /** @type {Promise<void> | null} */
  #decoderLoading = null;

  /** @param {WebAssembly.Module} module @param {WebAssembly.Instance} instance @param {LoadOptions} [options] */
  constructor(module, instance, options = {}) {
    this.#m = new Module(module, instance, options.maxMemory || DEFAULT_MAX_MEMORY);
    this.#decoderSource = options.decoder === undefined ? DEFAULT_DECODER : options.decoder;
    this.#version = this.#run('version', calls.version).version;
  }

  // One call of the validation module: the named input packed (a request
  // the loader refuses is the TypeError the module would have thrown), one
  // crossing, the named answer (a usage error the module found throws).
  /** @template I, O @param {string} name @param {{export: string, pack: (v: I) => string, unpack: (t: Tokens) => O}} call @param {I} [input] @param {Module} [m] @returns {O} */
  #run(name, call, input, m = this.#m) {
    let msg = '';
    if (input !== undefined) {
      try {
        msg = call.pack(input);
      } catch (err) {
        if (err instanceof Usage) throw new TypeError(`parcelgate.${name}: ${err.message}`);
        throw err;
      }
    }
    const n = m.write(msg);
    const r = m.call(name, /** @type {Call} */ (m.exports[call.export]), n);
    if (r < 0) throw new TypeError(`parcelgate.${name}: ${m.read(-r)}`);
    return call.unpack(new Tokens(r === 0 ? '' : m.read(r)));
  }

  // Runs f and turns a Usage error into the TypeError the module would
  // have thrown.
  /** @template T @param {string} name @param {() => T} f @returns {T} */
  #guard(name, f) {
    try {
      return f();
    } catch (err) {
      if (err instanceof Usage) throw new TypeError(`parcelgate.${name}: ${err.message}`);
      throw err;
    }
  }

  /** Version of the module. */
  get version() {
    return this.#version;
  }

  /** Every field error of a request, as the edge reports them; options.locale picks the language. @type {CoreAPI['validate']} */
  validate(operation, request, options) {
    checkOperation('validate', operation);
    return this.#run('validate', calls.validate, validateInput(operation, request, options, '')).errors;
  }

  /** The errors of one field in the context of the others (on-input feedback). @type {CoreAPI['validateField']} */
  validateField(operation, request, field, options) {
    checkOperation('validateField', operation);
    if (typeof field !== 'string') {
      // The request is checked first, as before.
      this.#guard('validateField', () => calls.encodeForm.pack({ request }));
      throw new TypeError('parcelgate.validateField: field must be a string');
    }
    return this.#run('validateField', calls.validate, validateInput(operation, request, options, field)).errors;
  }

  /** Checks and normalizes a postal code of a country (uppercase ISO code); options.locale picks the language of the message. @type {CoreAPI['postal']} */
  postal(country, input, options) {
    if (typeof country !== 'string' || typeof input !== 'string') {
      throw new TypeError('parcelgate.postal: postal(country, input) takes two strings');
    }
    const locale = options && typeof options.locale === 'string' ? options.locale : '';
    return this.#run('postal', calls.postal, { country, input, locale });
  }

  /** Approximate location of a postal code: {city, lat, lon, precision} or null when unknown. @type {CoreAPI['locate']} */
  locate(country, zip) {
    if (typeof country !== 'string' || typeof zip !== 'string') {
      throw new TypeError('parcelgate.locate: locate(country, zip) takes two strings');
    }
    // (precision: internal/geo.Precision's "province" or "country")
    return /** @type {import('../core.js').Located | null} */ (this.#run('locate', calls.locate, { country, zip }).location);
  }

  /** The form body the edge forwards: values normalized, canonical order. @type {CoreAPI['encode']} */
  encode(operation, request) {
    checkOperation('encode', operation);
    return this.#run('encode', calls.encode, { operation, request }).body;
  }

  /** The form body of a request exactly as held (no operation, no normalization). @type {CoreAPI['encodeForm']} */
  encodeForm(request) {
    return this.#run('encodeForm', calls.encodeForm, { request }).body;
  }

  /** The Events-table entry of a tracking code, or null. @type {CoreAPI['describeTracking']} */
  describeTracking(code) {
    let s;
    if (typeof code === 'string') s = code;
    else if (typeof code === 'number') s = numberText(code);
    else return null;
    // (category: one of the Events table's, which TrackingInfo lists)
    return /** @type {import('../core.js').TrackingInfo | null} */ (this.#run('describeTracking', calls.describe, { code: s }).tracking);
  }

  /** The operation catalog (built once, frozen). @type {CoreAPI['catalog']} */
  catalog() {
    if (!this.#catalog) {
      this.#catalog = deepFreeze(/** @type {Catalog} */ (JSON.parse(this.#run('catalog', calls.catalog).json)));
    }
    return this.#catalog;
  }

  /** Whether the response decoder is loaded (decode() works synchronously). */
  get decoderLoaded() {
    return this.#decoder !== null;
  }

  /**
   * Loads the response decoder module once (concurrent calls share the
   * load). The Client calls it while its request is in flight.
   * @returns {Promise<void>}
   */
  loadDecoder() {
    if (this.#decoder) return Promise.resolve();
    if (!this.#decoderLoading) {
      this.#decoderLoading = instantiate(this.#decoderSource, {}).then(
        ({ module, instance }) => {
          this.#decoder = new Module(module, instance, this.#m.maxMemory);
        },
        (err) => {
          this.#decoderLoading = null;
          throw err;
        },
      );
    }
    return this.#decoderLoading;
  }

  /** Decodes a {status, data} response: {ok: true, data} or {ok: false, error}. Needs the decoder: await core.loadDecoder() first (the Client does). @type {CoreAPI['decode']} */
  decode(operation, httpStatus, body) {
    const d = this.#decoder;
    if (!d) {
      throw new Error('parcelgate.decode: the decoder module is not loaded yet: await core.loadDecoder() first');
    }
    if (typeof operation !== 'string' || typeof httpStatus !== 'number') {
      throw new TypeError('parcelgate.decode: decode(operation, httpStatus, body) takes a string, a number and a string');
    }
    return JSON.parse(this.#run('decode', calls.decode, { operation, status: Math.trunc(httpStatus) | 0, body: String(body) }, d).json);
  }
}

/** @template T @param {T} v @returns {T} */
function deepFreeze(v) {
  if (v && typeof v === 'object') {
    for (const [, member] of Object.entries(v)) deepFreeze(member);
    Object.freeze(v);
  }
  return v;
}
