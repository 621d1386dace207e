// The WebAssembly core: loading (browsers and Node 20+) and a thin wrapper
// over the modules' exports. See ../index.d.ts for the types.
//
// Two TinyGo modules with plain exports and no imports (wasm/doc.go): the
// validation module, loaded by load(), and the response decoder, loaded on
// the first need (loadDecoder(); the Client does it by itself). A call
// writes one message into the module's memory (TextEncoder.encodeInto),
// makes one WebAssembly call and reads one answer (TextDecoder): the
// format is wasm/internal/wire's, tokens ended by US (0x1f).

// The modules next to the package, written as `new URL('...', import.meta.url)`:
// the form bundlers (Vite, webpack 5, Parcel, Rollup with an import-meta-assets
// plugin) recognise and rewrite to the asset they emit. esbuild does not:
// there, give the URL with configure({wasm}) (README, "Bundlers").
const DEFAULT_WASM = new URL('../dist/parcelgate.wasm', import.meta.url);
const DEFAULT_DECODER = new URL('../dist/parcelgate-decoder.wasm', import.meta.url);
const DEFAULT_MAX_MEMORY = 16 * 1024 * 1024;

let defaultCore = null;
let defaultLoading = null;
// What configure() set for the shared core: {wasm, decoder, maxMemory}.
let defaults = {};

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

// Node's file reading. No node: import appears in this module (bundlers
// targeting browsers must not see one): the package's `node` entry
// (src/node.js, the `node` export condition) hands the functions in, and a
// module imported by path falls back to process.getBuiltinModule (Node 20.16+).
let nodeIO = null;

/** Used by src/node.js only: Node's readFile and pathToFileURL. */
export function setNodeIO(io) {
  nodeIO = io;
}

function nodeFS() {
  if (nodeIO) return nodeIO;
  const get = globalThis.process && globalThis.process.getBuiltinModule;
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
 * @param {{wasm?: any, decoder?: any, maxMemory?: number}} options
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
 * @param {{wasm?: any, decoder?: any, maxMemory?: number}} [options]
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

async function create(source, options) {
  const { module, instance } = await instantiate(source, {});
  return new Core(module, instance, options);
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
      url = nodeFS().pathToFileURL(source);
    } else {
      url = new URL(source, typeof location !== 'undefined' ? location.href : import.meta.url);
    }
  } else {
    throw new TypeError('parcelgate: wasm must be a URL, a path, bytes, a Response or a WebAssembly.Module');
  }
  if (url.protocol === 'file:' && isNode) {
    return WebAssembly.instantiate(await nodeFS().readFile(url), imports);
  }
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new Error(`parcelgate: fetching ${url.href} failed: ${err && err.message}`, { cause: err });
  }
  return fromResponse(res, imports);
}

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


// ---- the wire format (wasm/internal/wire) ---------------------------------

const US = '\x1f';
const SEPARATORS = /[\x1c-\x1f]/;
const SEPARATORS_G = /[\x1c-\x1f]/g;
const escChar = (c) => '\x1c' + 'cdef'[c.charCodeAt(0) - 0x1c];
const unescChar = (m) => String.fromCharCode(0x1c + m.charCodeAt(1) - 0x63);

// A token: the text with separator bytes escaped, then US.
const tok = (s) => (SEPARATORS.test(s) ? s.replace(SEPARATORS_G, escChar) : s) + US;

// The tokens of an answer.
function tokens(text) {
  const t = text.split(US);
  t.pop();
  if (text.indexOf('\x1c') >= 0) {
    for (let i = 0; i < t.length; i++) t[i] = t[i].replace(/\x1c[c-f]/g, unescChar);
  }
  return t;
}

class Usage extends TypeError {}

const PARCEL_FIELDS = new Set(['parcel_weight', 'parcel_width', 'parcel_height', 'parcel_length', 'parcel_volume']);

// A number as the service expects it in a form field: a point, never an
// exponent, the shortest digits that read back to the same number (as Go's
// strconv 'f' -1): 1e21 -> "1000000000000000000000", 1e-7 -> "0.0000001".
export function numberText(n) {
  const s = String(n);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const sign = s[0] === '-' ? '-' : '';
  const mant = s.slice(sign.length, e).replace('.', '');
  const point = 1 + Number(s.slice(e + 1));
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${mant}`;
  if (point >= mant.length) return sign + mant + '0'.repeat(point - mant.length);
  return `${sign}${mant.slice(0, point)}.${mant.slice(point)}`;
}

// A field value as text; undefined when absent (null, undefined).
function text(v, where) {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return numberText(v);
    case 'boolean':
      return v ? '1' : '0';
    case 'undefined':
      return undefined;
    default:
      if (v === null) return undefined;
      throw new Usage(where);
  }
}

function field(name, v) {
  const t = text(v, `field ${name} must be a string, a number or a boolean`);
  return t === undefined ? '' : tok(name) + tok(t);
}

// The request's tokens: {fields, parcels} (fields an object or [name,
// value] pairs) or flat {name: value, ..., parcels}.
function packRequest(request) {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    throw new Usage('request must be an object: {fields, parcels} or {name: value, ...}');
  }
  let s = '';
  const fields = request.fields;
  if (fields !== undefined && fields !== null) {
    if (typeof fields !== 'object') throw new Usage('request.fields must be an object or an array of [name, value] pairs');
    if (Array.isArray(fields)) {
      for (let i = 0; i < fields.length; i++) {
        const pair = fields[i];
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
          throw new Usage(`request.fields[${i}] must be a [name, value] pair`);
        }
        s += field(pair[0], pair[1]);
      }
    } else {
      for (const k of Object.keys(fields)) s += field(k, fields[k]);
    }
  } else {
    for (const k of Object.keys(request)) if (k !== 'parcels' && k !== 'fields') s += field(k, request[k]);
  }
  const parcels = request.parcels;
  if (parcels === undefined || parcels === null) return s;
  if (!Array.isArray(parcels)) throw new Usage('request.parcels must be an array of objects');
  for (let i = 0; i < parcels.length; i++) {
    const p = parcels[i];
    const where = `request.parcels[${i}]`;
    if (p === null || typeof p !== 'object') throw new Usage(`${where} must be an object`);
    s += '\x1d' + US;
    for (const k of Object.keys(p)) {
      if (!PARCEL_FIELDS.has(k)) {
        throw new Usage(`${where} has an unknown field ${k} (parcel fields: parcel_weight, parcel_width, parcel_height, parcel_length, parcel_volume)`);
      }
      const t = text(p[k], `${where}.${k} must be a string or a number`);
      if (t !== undefined) s += k + US + tok(t);
    }
  }
  return s;
}

function operationToken(op) {
  if (typeof op !== 'string') throw new Usage('operation must be a string such as "new-shipment"');
  return tok(op);
}

function validateOptions(options) {
  if (!options) return US + US + US;
  let t = options.today;
  if (t === true) t = today();
  else if (t instanceof Date) t = today(t);
  else if (typeof t !== 'string') t = '';
  const locale = typeof options.locale === 'string' ? options.locale : '';
  return (options.rules ? '1' : '') + US + tok(t) + tok(locale);
}

const ZONES = ['', 'peninsular', 'balearic', 'canary', 'ceuta', 'melilla'];

// ---- one instance of a module ---------------------------------------------

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Module wraps one compiled module and its current instance: the input
// buffer, reading answers, and a fresh instance when the old one trapped
// or its memory (TinyGo's leaking heap) grew past maxMemory.
class Module {
  constructor(module, instance, maxMemory) {
    this.module = module;
    this.maxMemory = maxMemory;
    this.stale = false;
    this.#start(instance);
  }

  #start(instance) {
    this.exports = instance.exports;
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
  call(name, fn, a, b) {
    let r;
    try {
      r = fn(a, b);
    } catch (err) {
      this.stale = true;
      throw new Error(`parcelgate: ${name} failed inside the module: ${err && err.message}`, { cause: err });
    }
    if (this.u8.length === 0) {
      this.#views();
      if (this.memory.buffer.byteLength > this.maxMemory) this.stale = true;
    }
    return r;
  }

  // The answer of the last call, n bytes.
  read(n) {
    const p = this.exports.pg_out();
    const u8 = this.u8;
    if (n <= 32) {
      let s = '';
      for (let i = 0; i < n; i++) {
        const c = u8[p + i];
        if (c >= 0x80) return decoder.decode(u8.subarray(p, p + n));
        s += String.fromCharCode(c);
      }
      return s;
    }
    return decoder.decode(u8.subarray(p, p + n));
  }
}

/** The loaded core; every method is synchronous except loadDecoder(). */
export class Core {
  #m;
  #version;
  #catalog = null;
  #decoderSource;
  #decoder = null;
  #decoderLoading = null;

  constructor(module, instance, options = {}) {
    this.#m = new Module(module, instance, options.maxMemory || DEFAULT_MAX_MEMORY);
    this.#decoderSource = options.decoder === undefined ? DEFAULT_DECODER : options.decoder;
    this.#version = this.#m.read(this.#m.call('version', this.#m.exports.pg_version));
  }

  // One call of the validation module: the message in, the export's result out.
  #call(name, fn, msg, b) {
    const m = this.#m;
    const n = m.write(msg);
    const r = m.call(name, fn, n, b);
    if (r < 0) throw new TypeError(`parcelgate.${name}: ${m.read(-r)}`);
    return r;
  }

  // Runs f and turns a request the loader refuses into the TypeError the
  // module would have thrown.
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

  #errors(name, operation, request, options, fieldName) {
    const msg = this.#guard(name, () => {
      const head = operationToken(operation);
      const body = packRequest(request);
      if (fieldName !== undefined && typeof fieldName !== 'string') throw new Usage('field must be a string');
      return head + validateOptions(options) + tok(fieldName || '') + body;
    });
    const n = this.#call(name, this.#m.exports.pg_validate, msg);
    if (n === 0) return [];
    const t = tokens(this.#m.read(n));
    const out = [];
    for (let i = 0; i + 2 < t.length; i += 3) out.push({ field: t[i], code: Number(t[i + 1]), message: t[i + 2] });
    return out;
  }

  /** Every field error of a request, as the edge reports them; options.locale picks the language. */
  validate(operation, request, options) {
    return this.#errors('validate', operation, request, options, undefined);
  }

  /** The errors of one field in the context of the others (on-input feedback). */
  validateField(operation, request, field, options) {
    if (typeof field !== 'string') {
      // The operation and request are checked first, as before.
      this.#guard('validateField', () => (operationToken(operation), packRequest(request)));
      throw new TypeError('parcelgate.validateField: field must be a string');
    }
    return this.#errors('validateField', operation, request, options, field);
  }

  /**
   * Checks and normalizes a postal code of a country (uppercase ISO code):
   * {valid, normalized, province, zone, message}; options.locale picks the
   * language of the message.
   */
  postal(country, input, options) {
    if (typeof country !== 'string' || typeof input !== 'string') {
      throw new TypeError('parcelgate.postal: postal(country, input) takes two strings');
    }
    const locale = options && typeof options.locale === 'string' ? options.locale : '';
    const r = this.#call('postal', this.#m.exports.pg_postal, tok(country) + tok(input) + tok(locale));
    const text = this.#m.read(r & 0xffff);
    if (r & (1 << 30)) {
      return { valid: true, normalized: text, province: (r >> 19) & 0x7ff, zone: ZONES[(r >> 16) & 7], message: '' };
    }
    return { valid: false, normalized: '', province: 0, zone: '', message: text };
  }

  /** Approximate location of a postal code: {city, lat, lon, precision} or null when unknown. */
  locate(country, zip) {
    if (typeof country !== 'string' || typeof zip !== 'string') {
      throw new TypeError('parcelgate.locate: locate(country, zip) takes two strings');
    }
    const n = this.#call('locate', this.#m.exports.pg_locate, tok(country) + tok(zip));
    if (n === 0) return null;
    const t = tokens(this.#m.read(n));
    return { city: t[0], lat: Number(t[1]), lon: Number(t[2]), precision: t[3] };
  }

  /** The form body the edge forwards: values normalized, canonical order. */
  encode(operation, request) {
    const msg = this.#guard('encode', () => operationToken(operation) + packRequest(request));
    return this.#m.read(this.#call('encode', this.#m.exports.pg_encode, msg, 1));
  }

  /** The form body of a request exactly as held (no operation, no normalization). */
  encodeForm(request) {
    const msg = this.#guard('encodeForm', () => US + packRequest(request));
    return this.#m.read(this.#call('encodeForm', this.#m.exports.pg_encode, msg, 0));
  }

  /** The Events-table entry of a tracking code, or null. */
  describeTracking(code) {
    let s;
    if (typeof code === 'string') s = code;
    else if (typeof code === 'number') s = numberText(code);
    else return null;
    const n = this.#call('describeTracking', this.#m.exports.pg_describe, tok(s));
    if (n === 0) return null;
    const t = tokens(this.#m.read(n));
    return { code: t[0], meaning: t[1], label: t[2], category: t[3], final: t[4] === '1' };
  }

  /** The operation catalog (built once, frozen). */
  catalog() {
    if (!this.#catalog) {
      const n = this.#call('catalog', this.#m.exports.pg_catalog, '');
      this.#catalog = deepFreeze(JSON.parse(this.#m.read(n)));
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

  /**
   * Decodes a {status, data} response: {ok: true, data} or {ok: false,
   * error}. Needs the decoder: await core.loadDecoder() first (the Client
   * does).
   */
  decode(operation, httpStatus, body) {
    const d = this.#decoder;
    if (!d) {
      throw new Error('parcelgate.decode: the decoder module is not loaded yet: await core.loadDecoder() first');
    }
    if (typeof operation !== 'string' || typeof httpStatus !== 'number') {
      throw new TypeError('parcelgate.decode: decode(operation, httpStatus, body) takes a string, a number and a string');
    }
    const msg = tok(operation) + String(Math.trunc(httpStatus) | 0) + US + String(body);
    const n = d.write(msg);
    const r = d.call('decode', d.exports.pg_decode, n);
    if (r < 0) throw new TypeError(`parcelgate.decode: ${d.read(-r)}`);
    return JSON.parse(d.read(r));
  }
}

function deepFreeze(v) {
  if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) deepFreeze(v[k]);
    Object.freeze(v);
  }
  return v;
}
