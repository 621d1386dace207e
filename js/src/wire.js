// @ts-check
// The wire format between the loader and the browser modules
// (wasm/internal/wire): tokens ended by US (0x1f), separator bytes
// escaped. What the generated calls (core.gen.js, from wasm/internal/seam)
// build on: tok and tokens, and packRequest, the form request's packing
// (the seam's one hand-written type: it accepts the shapes the public API
// does and names a misuse as a Usage error).

/**
 * A request as the public API takes it: {fields, parcels} (fields an
 * object or [name, value] pairs) or flat {name: value, ..., parcels}.
 * Any value: packRequest checks it (a misuse is a Usage error).
 * @typedef {unknown} Request
 */

export const US = '\x1f';
const SEPARATORS = /[\x1c-\x1f]/;
const SEPARATORS_G = /[\x1c-\x1f]/g;
const escChar = (/** @type {string} */ c) => '\x1c' + 'cdef'[c.charCodeAt(0) - 0x1c];
const unescChar = (/** @type {string} */ m) => String.fromCharCode(0x1c + m.charCodeAt(1) - 0x63);

/**
 * A token: the text with separator bytes escaped, then US.
 * @param {string} s
 * @returns {string}
 */
export const tok = (s) => (SEPARATORS.test(s) ? s.replace(SEPARATORS_G, escChar) : s) + US;

// The tokens of an answer, read in order (no array of them: a call's
// answer is read once, on every keystroke).
export class Tokens {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
    this.at = 0;
    this.esc = text.indexOf('\x1c') >= 0;
  }

  /** Whether a token is left. */
  more() {
    return this.at < this.text.length;
  }

  /** The next token ('' at the end). */
  next() {
    const s = this.text;
    let end = s.indexOf(US, this.at);
    if (end < 0) end = s.length;
    const t = s.slice(this.at, end);
    this.at = end + 1;
    return this.esc ? t.replace(/\x1c[c-f]/g, unescChar) : t;
  }
}

/**
 * A misuse of the public API found while packing a request (a value of
 * the wrong shape). core.js catches it and throws the TypeError the
 * module's own check would, prefixed with the call's name, so a caller
 * meets one kind of error whichever side noticed.
 */
export class Usage extends TypeError {}

const PARCEL_FIELDS = new Set(['parcel_weight', 'parcel_width', 'parcel_height', 'parcel_length', 'parcel_volume']);

// A number as the service expects it in a form field: a point, never an
// exponent, the shortest digits that read back to the same number (as Go's
// strconv 'f' -1): 1e21 -> "1000000000000000000000", 1e-7 -> "0.0000001".
/**
 * @param {number} n
 * @returns {string}
 */
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

/**
 * A field value as text; undefined when absent (null, undefined).
 * @param {unknown} v
 * @param {string} where the Usage error's message
 * @returns {string | undefined}
 */
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

/**
 * @param {string} name
 * @param {unknown} v
 */
function field(name, v) {
  const t = text(v, `field ${name} must be a string, a number or a boolean`);
  return t === undefined ? '' : tok(name) + tok(t);
}

// The request's tokens: {fields, parcels} (fields an object or [name,
// value] pairs) or flat {name: value, ..., parcels}.
/**
 * @param {Request} request
 * @returns {string}
 */
export function packRequest(request) {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    throw new Usage('request must be an object: {fields, parcels} or {name: value, ...}');
  }
  // Its members read as unknown values, each checked below.
  const req = /** @type {Record<string, unknown>} */ (request);
  let s = '';
  const fields = req.fields;
  if (fields !== undefined && fields !== null) {
    if (typeof fields !== 'object') throw new Usage('request.fields must be an object or an array of [name, value] pairs');
    if (Array.isArray(fields)) {
      for (let i = 0; i < fields.length; i++) {
        /** @type {unknown} */
        const pair = fields[i];
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
          throw new Usage(`request.fields[${i}] must be a [name, value] pair`);
        }
        s += field(pair[0], pair[1]);
      }
    } else {
      const named = /** @type {Record<string, unknown>} */ (fields);
      for (const k of Object.keys(named)) s += field(k, named[k]);
    }
  } else {
    for (const k of Object.keys(req)) if (k !== 'parcels' && k !== 'fields') s += field(k, req[k]);
  }
  const parcels = req.parcels;
  if (parcels === undefined || parcels === null) return s;
  if (!Array.isArray(parcels)) throw new Usage('request.parcels must be an array of objects');
  for (let i = 0; i < parcels.length; i++) {
    /** @type {unknown} */
    const parcel = parcels[i];
    const where = `request.parcels[${i}]`;
    if (parcel === null || typeof parcel !== 'object') throw new Usage(`${where} must be an object`);
    const p = /** @type {Record<string, unknown>} */ (parcel);
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

