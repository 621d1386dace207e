// The WebAssembly core: loading (browsers and Node 20+) and a thin wrapper
// over the module's exports. See ../index.d.ts for the types.

const DEFAULT_WASM = new URL('../dist/parcelgate.wasm', import.meta.url);
const WASM_EXEC = new URL('../dist/wasm_exec.js', import.meta.url);
const DEFAULT_MAX_MEMORY = 16 * 1024 * 1024;
// TinyGo never releases the JavaScript values a module has seen, so the
// instance is also replaced after this many of them.
const MAX_VALUES = 200000;

let defaultCore = null;
let defaultLoading = null;
let execLoading = null;

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

/**
 * Loads the WebAssembly core. Without options the module next to the
 * package (dist/parcelgate.wasm) is loaded once and shared.
 * @param {{wasm?: any, maxMemory?: number}} [options]
 * @returns {Promise<Core>}
 */
export function load(options = {}) {
  if (options.wasm === undefined && options.maxMemory === undefined) {
    if (!defaultLoading) {
      defaultLoading = create(DEFAULT_WASM, {}).then(
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

/** The shared core once load() has resolved, else null. */
export function loaded() {
  return defaultCore;
}

/** Local date as YYYY-MM-DD. */
export function today(date = new Date()) {
  const p = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

// A coordinate as a number: numbers and numeric strings ("40.4168", as
// the edge sends them without a core); anything else (null, "") is NaN.
const coord = (v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

/**
 * Great-circle distance in km between two {lat, lon} points in degrees
 * (haversine, as the core's geo.DistanceKm); NaN when a coordinate is
 * missing or not a number.
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

function loadExec() {
  if (typeof globalThis.Go === 'function') return Promise.resolve();
  if (!execLoading) {
    execLoading = import(WASM_EXEC.href).then(() => {
      if (typeof globalThis.Go !== 'function') throw new Error('parcelgate: wasm_exec.js did not define Go');
    });
    execLoading.catch(() => (execLoading = null));
  }
  return execLoading;
}

async function create(source, options) {
  await loadExec();
  const go = new globalThis.Go();
  const { module, instance } = await instantiate(source, go.importObject);
  return new Core(module, go, instance, options);
}

function looksLikePath(s) {
  return !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
}

// instantiate returns {module, instance} from any WasmSource, streaming
// when the server sends application/wasm and falling back to bytes when it
// does not.
async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) {
    return { module: source, instance: await WebAssembly.instantiate(source, imports) };
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.instantiate(source, imports);
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    return fromResponse(source, imports);
  }
  let url;
  if (source instanceof URL) {
    url = source;
  } else if (typeof source === 'string') {
    if (isNode && looksLikePath(source) && typeof location === 'undefined') {
      const { pathToFileURL } = await import('node:url');
      url = pathToFileURL(source);
    } else {
      url = new URL(source, typeof location !== 'undefined' ? location.href : import.meta.url);
    }
  } else {
    throw new TypeError('parcelgate: wasm must be a URL, a path, bytes, a Response or a WebAssembly.Module');
  }
  if (url.protocol === 'file:' && isNode) {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.instantiate(await readFile(url), imports);
  }
  const res = await fetch(url);
  return fromResponse(res, imports);
}

async function fromResponse(res, imports) {
  if (!res.ok) throw new Error(`parcelgate: fetching ${res.url || 'the module'} failed with HTTP ${res.status}`);
  const type = (res.headers.get('content-type') || '').split(';')[0].trim().toLowerCase();
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

function validateOptions(options) {
  if (!options) return undefined;
  let t = options.today;
  if (t === true) t = today();
  else if (t instanceof Date) t = today(t);
  else if (typeof t !== 'string') t = undefined;
  return { rules: !!options.rules, today: t };
}

/** The loaded core; every method is synchronous. */
export class Core {
  #module;
  #go;
  #instance;
  #api;
  #maxMemory;
  #catalog = null;
  #stale = false;

  constructor(module, go, instance, options = {}) {
    this.#module = module;
    this.#maxMemory = options.maxMemory || DEFAULT_MAX_MEMORY;
    this.#start(go, instance);
  }

  #start(go, instance) {
    let api = null;
    const had = Object.prototype.hasOwnProperty.call(globalThis, '__parcelgate_register');
    const prev = globalThis.__parcelgate_register;
    globalThis.__parcelgate_register = (a) => {
      api = a;
    };
    try {
      const done = go.run(instance);
      if (done && typeof done.catch === 'function') done.catch(() => {});
    } finally {
      if (had) globalThis.__parcelgate_register = prev;
      else delete globalThis.__parcelgate_register;
    }
    if (!api) throw new Error('parcelgate: the module did not register its exports');
    this.#go = go;
    this.#instance = instance;
    this.#api = api;
    this.#stale = false;
  }

  // A fresh instance of the same compiled module (the module keeps no
  // state between calls): frees what TinyGo's leaking heap and its table
  // of JavaScript values hold.
  #restart() {
    const go = new globalThis.Go();
    this.#start(go, new WebAssembly.Instance(this.#module, go.importObject));
  }

  #call(name, args) {
    if (this.#stale) this.#restart();
    let r;
    try {
      r = this.#api[name](...args);
    } catch (err) {
      this.#stale = true;
      throw new Error(`parcelgate: ${name} failed inside the module: ${err && err.message}`, { cause: err });
    }
    const mem = this.#instance.exports.memory;
    const values = this.#go._values;
    if ((mem && mem.buffer.byteLength > this.#maxMemory) || (values && values.length > MAX_VALUES)) {
      this.#stale = true;
    }
    if (r !== null && typeof r === 'object' && typeof r.__error === 'string') {
      throw new TypeError(`parcelgate.${name}: ${r.__error}`);
    }
    return r;
  }

  /** Version of the module. */
  get version() {
    return this.#api.version;
  }

  /** Every field error of a request, as the edge reports them. */
  validate(operation, request, options) {
    return this.#call('validate', [operation, request, validateOptions(options)]);
  }

  /** The errors of one field in the context of the others (on-input feedback). */
  validateField(operation, request, field, options) {
    return this.#call('validateField', [operation, request, field, validateOptions(options)]);
  }

  /** Checks and normalizes a postal code of a country (uppercase ISO code). */
  postal(country, input) {
    return this.#call('postal', [country, input]);
  }

  /** Approximate location of a postal code: {city, lat, lon, precision} or null when unknown. */
  locate(country, zip) {
    return this.#call('locate', [country, zip]);
  }

  /** The form body the edge forwards: values normalized, canonical order. */
  encode(operation, request) {
    return this.#call('encode', [operation, request]);
  }

  /** The form body of a request exactly as held (no operation, no normalization). */
  encodeForm(request) {
    return this.#call('encodeForm', [request]);
  }

  /** Decodes a {status, data} response: {ok: true, data} or {ok: false, error}. */
  decode(operation, httpStatus, body) {
    return this.#call('decode', [operation, httpStatus, String(body)]);
  }

  /** The Events-table entry of a tracking code, or null. */
  describeTracking(code) {
    return this.#call('describeTracking', [code]);
  }

  /** The operation catalog (built once, frozen). */
  catalog() {
    if (!this.#catalog) this.#catalog = deepFreeze(this.#call('catalog', []));
    return this.#catalog;
  }
}

function deepFreeze(v) {
  if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) deepFreeze(v[k]);
    Object.freeze(v);
  }
  return v;
}
