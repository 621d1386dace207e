// @ts-check
// Client of the edge worker: one method per operation (see OPERATIONS),
// validation with the WebAssembly core before anything is sent (when a
// core is loaded), one error class, get-shipments pagination and a label
// helper.

import { OPERATIONS } from './operations.js';
import { ParcelgateError } from './errors.js';
import { loaded } from './core.js';
import { numberText } from './wire.js';

/** @import { ClientOptions, CallOptions, Core, TokenSource, ValidateOptions, Label, RequestInput, ErrorCategory } from '../core.js' */
/** @import { OperationName, OperationParams, GetShipmentsParams, GetShipmentLabelParams } from '../index.js' */
/** @import { OperationResults, ErrorData, FieldError, Shipments, Shipment } from '../results.js' */
/**
 * An envelope as the edge sends it, read without the decoder.
 * @typedef {{status?: unknown, data?: unknown}} Envelope
 */

const BY_NAME = new Map(OPERATIONS.map((op) => [op.name, op]));

/** The Accept the Client sends: JSON, with the operation's data normalized by the edge (worker/HTTP.md). */
export const NORMALIZED_ACCEPT = 'application/json; parcelgate=normalized';

/**
 * @param {string} text
 * @returns {Envelope | null}
 */
function parseEnvelope(text) {
  try {
    const env = JSON.parse(text);
    return env && typeof env === 'object' ? env : null;
  } catch {
    return null;
  }
}

/** Client of the edge worker. */
export class Client {
  #token = '';
  /** @type {TokenSource | null} */
  #source = null;
  #expires = NaN;
  /** @type {Promise<string> | null} */
  #pending = null;

  /**
   * options.token is a scoped token, or a function that returns one (or
   * {token, expiresAt}, what mintToken and POST /tokens answer), e.g.
   * fetched from the shop's server. The function is called when no token
   * is cached (or the cached one's expiresAt has passed), and again when
   * the edge refuses the cached one with 401; the request is then sent once
   * more.
   * @param {ClientOptions} options
   */
  constructor(options) {
    if (!options || typeof options.baseUrl !== 'string' || options.baseUrl === '') {
      throw new TypeError('parcelgate: new Client({baseUrl}) needs the URL of the edge worker');
    }
    let base = options.baseUrl.replace(/\/+$/, '');
    if (!/\/v1$/.test(base)) base += '/v1';
    this.baseUrl = base;
    /** @type {Record<string, string>} */
    this.headers = { ...(options.headers || {}) };
    this.timeout = options.timeout === undefined ? 30000 : options.timeout;
    this.signal = options.signal || null;
    this.token = options.token;
    /** @type {Core | null | undefined} */
    this.core = options.core;
    this.validate = options.validate !== false;
    /** @type {ValidateOptions} */
    this.validateOptions = options.validateOptions || {};
    /** @type {typeof fetch} */
    this.fetch = options.fetch || ((...a) => globalThis.fetch(...a));
  }

  /** @returns {Core | null} */
  #core() {
    return this.core === undefined ? loaded() : this.core;
  }

  /** The cached token ('' when none); set a string or a token function (drops the cache). */
  get token() {
    return this.#token;
  }

  /** @param {string | TokenSource | undefined} t */
  set token(t) {
    this.#source = typeof t === 'function' ? t : null;
    this.#token = typeof t === 'string' ? t : '';
    this.#expires = NaN;
    this.#pending = null;
  }

  // The token to send: the cached one, or a fresh one from the token
  // function (one call shared by concurrent requests).
  /**
   * @param {string} operation
   * @returns {Promise<string>}
   */
  async #currentToken(operation) {
    if (!this.#source) return this.#token;
    if (this.#token && !(Date.now() >= this.#expires - 5000)) return this.#token;
    const source = this.#source;
    if (!this.#pending) {
      this.#pending = (async () => {
        let v;
        try {
          v = await source();
        } catch (err) {
          throw new ParcelgateError(`${operation}: the token function failed: ${err && /** @type {Error} */ (err).message}`, { category: 'unauthorized', operation, cause: err });
        }
        const tok = typeof v === 'string' ? v : v && typeof v.token === 'string' ? v.token : '';
        if (tok === '' || /[\s]/.test(tok)) {
          throw new ParcelgateError(`${operation}: the token function returned no token`, { category: 'unauthorized', operation, details: v });
        }
        const at = v && typeof v === 'object' ? v.expiresAt ?? v.expires_at : undefined;
        if (this.#source === source) {
          this.#token = tok;
          this.#expires = typeof at === 'string' ? Date.parse(at) : NaN;
        }
        return tok;
      })().finally(() => {
        this.#pending = null;
      });
    }
    return this.#pending;
  }

  /**
   * Calls an operation by name and resolves with the response's data.
   * options.locale (a language tag, e.g. the page's) is the language of
   * the field errors: the core's, and the edge's through Accept-Language.
   * @template {OperationName} K
   * @param {K} operation
   * @param {OperationParams[K]} [params]
   * @param {CallOptions} [options]
   * @returns {Promise<OperationResults[K]>}
   */
  async call(operation, params = /** @type {OperationParams[K]} */ ({}), options = {}) {
    const op = BY_NAME.get(operation);
    if (!op) throw new TypeError(`parcelgate: unknown operation "${operation}"`);
    const core = this.#core();
    const locale = typeof options.locale === 'string' && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/.test(options.locale) ? options.locale : '';
    let body;
    if (core) {
      if (this.validate) {
        const errors = core.validate(operation, params, locale ? { ...this.validateOptions, locale } : this.validateOptions);
        if (errors.length > 0) {
          throw new ParcelgateError(`${operation}: ${errors[0].field}: ${errors[0].message}`, {
            code: errors[0].code,
            category: 'validation',
            fieldErrors: errors,
            operation,
          });
        }
      }
      body = core.encode(operation, params);
    } else {
      body = encodeParams(params);
    }

    // parcelgate=normalized: the edge answers ok data already normalized by
    // the core's decoder (Parcelgate-Data: normalized), so the decoder module
    // is only fetched for what the edge did not normalize (errors, data of
    // the wrong shape, an older edge).
    /** @type {Record<string, string>} */
    const headers = { Accept: NORMALIZED_ACCEPT, ...this.headers, ...(options.headers || {}) };
    if (locale && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language')) {
      headers['Accept-Language'] = locale.replace(/_/g, '-');
    }
    let token = await this.#currentToken(operation);
    if (token) headers.Authorization = `Bearer ${token}`;
    // The cart's value for the edge's pricing rules (internal/pricing/README.md,
    // "Shipping prices"): the edge's own parameter, never the upstream's,
    // so the core's validation of the operation's fields does not see it.
    if (options.orderValue !== undefined && options.orderValue !== null && options.orderValue !== '') {
      if (operation !== 'get-shipments-rates') throw new TypeError('parcelgate: orderValue is for get-shipments-rates only');
      body = (body ? `${body}&` : '') + `order_value=${encodeURIComponent(String(options.orderValue).trim())}`;
    }
    let url = `${this.baseUrl}/${operation}`;
    /** @type {RequestInit} */
    const init = { headers, redirect: 'error' };
    if (op.read) {
      init.method = 'GET';
      if (body) url += `?${body}`;
    } else {
      init.method = 'POST';
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = body;
    }

    let { status, text, normalized, retryAfter } = await this.#send(operation, url, init, options);
    if (status === 401 && this.#source && edgeRefusedToken(text)) {
      // The edge's own 401 (source "edge"): it refused the token before
      // forwarding anything upstream, so nothing was booked and even a
      // booking (new-shipment, new-collection) may be sent again. Once,
      // with a fresh token; any other failure of a booking is never
      // retried here.
      if (this.#token === token) this.#token = '';
      token = await this.#currentToken(operation);
      headers.Authorization = `Bearer ${token}`;
      ({ status, text, normalized, retryAfter } = await this.#send(operation, url, init, options));
    }
    if (normalized && status === 200) {
      const env = parseEnvelope(text);
      if (env && env.status === 'ok' && 'data' in env) return /** @type {OperationResults[K]} */ (env.data);
    }
    // The response decoder is a second module, fetched on first need.
    // Without it the envelope is read in JavaScript.
    const decoding =
      core && typeof core.loadDecoder === 'function' ? core.loadDecoder().then(() => true, () => false) : Promise.resolve(!!core);
    try {
      // The data as decoded, or as the edge sent it without a core (index.d.ts says so).
      return /** @type {OperationResults[K]} */ (decodeResponse((await decoding) ? core : null, operation, status, text));
    } catch (err) {
      if (err instanceof ParcelgateError && retryAfter > 0) err.retryAfter = retryAfter;
      throw err;
    }
  }

  /**
   * @param {string} operation
   * @param {string} url
   * @param {RequestInit} init
   * @param {CallOptions} options
   * @returns {Promise<{status: number, text: string, normalized: boolean, retryAfter: number}>}
   */
  async #send(operation, url, init, options) {
    const ctrl = new AbortController();
    /** @type {Array<() => void>} */
    const cleanup = [];
    for (const s of [this.signal, options.signal]) {
      if (!s) continue;
      if (s.aborted) {
        throw new ParcelgateError(`${operation}: aborted`, { category: 'aborted', operation, cause: s.reason });
      }
      const onAbort = () => ctrl.abort(s.reason);
      s.addEventListener('abort', onAbort, { once: true });
      cleanup.push(() => s.removeEventListener('abort', onAbort));
    }
    const timeout = options.timeout === undefined ? this.timeout : options.timeout;
    let timedOut = false;
    const timer =
      timeout > 0
        ? setTimeout(() => {
            timedOut = true;
            ctrl.abort();
          }, timeout)
        : null;
    try {
      const res = await this.fetch(url, { ...init, signal: ctrl.signal });
      const text = await res.text();
      const normalized = !!(res.headers && typeof res.headers.get === 'function' && res.headers.get('Parcelgate-Data') === 'normalized');
      const retryAfter = retryAfterSeconds(res.headers && typeof res.headers.get === 'function' ? res.headers.get('Retry-After') : null);
      return { status: res.status, text, normalized, retryAfter };
    } catch (err) {
      if (timedOut) {
        throw new ParcelgateError(`${operation}: no response within ${timeout} ms`, { category: 'timeout', operation, cause: err });
      }
      if (ctrl.signal.aborted) {
        throw new ParcelgateError(`${operation}: aborted`, { category: 'aborted', operation, cause: err });
      }
      throw new ParcelgateError(`${operation}: network error: ${err && /** @type {Error} */ (err).message}`, { category: 'network', operation, cause: err });
    } finally {
      if (timer) clearTimeout(timer);
      for (const f of cleanup) f();
    }
  }

  /**
   * Pages of get-shipments from params.page (default 1) until a page is
   * shorter than n_items (default 10) or empty.
   * @param {GetShipmentsParams} [params]
   * @param {CallOptions} [options]
   * @returns {AsyncGenerator<Shipments, void, undefined>}
   */
  async *shipmentPages(params = {}, options = {}) {
    const size = Number(params.n_items) || 10;
    for (let page = Number(params.page) || 1; ; page++) {
      const data = await this.call('get-shipments', { ...params, page }, options);
      yield data;
      const n = Array.isArray(data && data.shipments) ? data.shipments.length : 0;
      if (n === 0 || n < size) return;
    }
  }

  /**
   * Every shipment of every page of get-shipments.
   * @param {GetShipmentsParams} [params]
   * @param {CallOptions} [options]
   * @returns {AsyncGenerator<Shipment, void, undefined>}
   */
  async *shipments(params = {}, options = {}) {
    for await (const page of this.shipmentPages(params, options)) {
      yield* page.shipments || [];
    }
  }

  /**
   * get-shipment-label with the PDF decoded: {bytes, blob(), data}.
   * @param {GetShipmentLabelParams} params
   * @param {CallOptions} [options]
   * @returns {Promise<Label>}
   */
  async label(params, options = {}) {
    const data = await this.call('get-shipment-label', params, options);
    const raw = data && data.label_raw;
    if (typeof raw !== 'string' || raw === '') {
      throw new ParcelgateError('get-shipment-label: the response has no label_raw', {
        category: 'unexpected_response',
        operation: 'get-shipment-label',
        details: data,
      });
    }
    const bytes = base64Bytes(raw);
    return {
      bytes,
      blob: () => new Blob([bytes], { type: 'application/pdf' }),
      data,
    };
  }
}

for (const op of OPERATIONS) {
  Object.defineProperty(Client.prototype, op.method, {
    /**
     * @this {Client}
     * @param {OperationParams[OperationName]} [params]
     * @param {CallOptions} [options]
     */
    value: function (params, options) {
      return this.call(op.name, params, options);
    },
    writable: true,
    configurable: true,
  });
}

// edgeRefusedToken: a 401 the edge answered itself (errorClass
// "unauthorized", source "edge"): an expired, tampered or foreign token,
// refused before anything reached the upstream.
/** @param {string} text */
function edgeRefusedToken(text) {
  try {
    const d = JSON.parse(text).data;
    return d.errorClass === 'unauthorized' && d.source === 'edge';
  } catch {
    return false;
  }
}

/**
 * The data of an ok answer; a ParcelgateError for any other.
 * @param {Core | null} core
 * @param {OperationName} operation
 * @param {number} status
 * @param {string} text
 * @returns {unknown}
 */
function decodeResponse(core, operation, status, text) {
  if (core) {
    const r = core.decode(operation, status, text);
    if (r.ok) return r.data;
    const e = r.error;
    if (e.type === 'api') {
      const fieldErrors = fieldErrorsOf(text);
      throw new ParcelgateError(`${operation}: ${e.description}`, {
        code: e.code,
        category: categoryOf(status, e.class, fieldErrors, edgeClassOf(text)),
        fieldErrors,
        status,
        operation,
        carrierCode: e.carrier_code,
        carrierMessage: e.carrier_message,
        details: e,
      });
    }
    throw new ParcelgateError(`${operation}: ${e.description}`, {
      category: e.type === 'shape' ? 'unexpected_response' : /** @type {ErrorCategory} */ (e.class),
      status,
      operation,
      details: e,
    });
  }
  // Without the core: the envelope only.
  /** @type {Envelope | null} */
  let env;
  try {
    env = JSON.parse(text);
  } catch {
    env = null;
  }
  if (env && typeof env === 'object' && env.status === 'ok' && 'data' in env) return env.data;
  if (env && typeof env === 'object' && env.status === 'err') {
    // The edge's error data, as sent (no decoder to check it).
    const d = /** @type {Partial<ErrorData>} */ (env.data && typeof env.data === 'object' ? env.data : {});
    const code = Number(d.errorCode) || 0;
    const fieldErrors = Array.isArray(d.errors) ? d.errors : [];
    const msg = d.errorMessage || d.message || 'upstream error';
    throw new ParcelgateError(`${operation}: ${code ? `error ${code}: ` : ''}${msg}`, {
      code,
      category: categoryOf(status, classOf(code), fieldErrors, d.source === 'edge' ? String(d.errorClass || '') : ''),
      fieldErrors,
      status,
      operation,
      carrierCode: d.carrierErrorCode === undefined ? '' : String(d.carrierErrorCode),
      carrierMessage: d.carrierErrorMessage || '',
      details: d,
    });
  }
  const category =
    status === 401 || status === 403
      ? 'unauthorized'
      : status === 429
        ? 'rate_limited'
        : status >= 502 && status <= 504
          ? 'upstream_unavailable'
          : 'unexpected_response';
  throw new ParcelgateError(`${operation}: unexpected response (HTTP ${status})`, { category, status, operation, details: snippet(text) });
}

// categoryOf: the category of an error envelope. The edge's own refusals
// (source "edge", errorClass) are told apart, so a widget can tell the
// shopper what to do: wait (rate_limited, with Retry-After), try again
// later (upstream_unavailable) or nothing they can fix (configuration).
/**
 * @param {number} status
 * @param {string} cls the class the decoder (or classOf) gave the code: internal/envelope's classes are categories
 * @param {unknown[]} fieldErrors
 * @param {string} edgeClass
 * @returns {ErrorCategory}
 */
function categoryOf(status, cls, fieldErrors, edgeClass) {
  // The edge's 425 (code 1425): an earlier booking's answer was lost and
  // it may exist; nothing was sent. Retryable after Retry-After, with the
  // same request (worker/src/platform/BOOKINGS.md, "Exactly-once bookings").
  if (status === 425) return 'booking_unconfirmed';
  if (fieldErrors.length > 0) return 'validation';
  if (status === 429 || edgeClass === 'rate_limited') return 'rate_limited';
  if (edgeClass === 'misconfigured') return 'configuration';
  if (status === 401 || status === 403) return 'unauthorized';
  // The edge's own 502/504 envelopes (codes 1502/1504, outside the
  // service's table): the upstream could not be reached or failed.
  if (status >= 502 && status <= 504 && (cls === 'unknown' || !cls)) return 'upstream_unavailable';
  return /** @type {ErrorCategory} */ (cls);
}

// edgeClassOf: the errorClass of an envelope the edge wrote itself, or ''.
/**
 * @param {string} text
 * @returns {string}
 */
function edgeClassOf(text) {
  try {
    const d = JSON.parse(text).data;
    return d && d.source === 'edge' && typeof d.errorClass === 'string' ? d.errorClass : '';
  } catch {
    return '';
  }
}

// retryAfterSeconds reads a Retry-After header (seconds, or an HTTP date)
// as whole seconds from now; 0 when absent or unreadable. (A browser reads
// it across origins only when the edge exposes it, which it does.)
/**
 * @param {string | null | undefined} value
 * @returns {number}
 */
export function retryAfterSeconds(value) {
  if (value === null || value === undefined || value === '') return 0;
  const v = String(value).trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v), 86400);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return 0;
  return Math.max(0, Math.min(Math.ceil((at - Date.now()) / 1000), 86400));
}

// classOf approximates the core's classes when no core is loaded.
/** @param {number} code */
function classOf(code) {
  if (code >= 101 && code <= 488) return 'carrier_rejected';
  if (code >= 994 && code <= 998) return 'carrier_communication';
  if (code === 999) return 'unexpected';
  return 'unknown';
}

// fieldErrorsOf reads data.errors of the edge's HTTP 400 envelope.
/**
 * @param {string} text
 * @returns {FieldError[]}
 */
function fieldErrorsOf(text) {
  try {
    const env = JSON.parse(text);
    const list = env && env.data && env.data.errors;
    if (Array.isArray(list)) {
      return list
        .filter((e) => e && typeof e.field === 'string')
        .map((e) => ({ field: e.field, code: Number(e.code) || 0, message: String(e.message || '') }));
    }
  } catch {
    // not JSON: no field errors
  }
  return [];
}

// encodeParams is the form encoding used without the core (no
// normalization, the caller's order).
/**
 * @param {OperationParams[OperationName] | RequestInput} [params] {fields, parcels} or flat, as the core's encode takes it
 * @returns {string}
 */
export function encodeParams(params) {
  /** @type {string[]} */
  const out = [];
  const add = (/** @type {string} */ k, /** @type {unknown} */ v) => {
    if (v === undefined || v === null) return;
    out.push(`${k}=${esc(typeof v === 'number' ? numberText(v) : typeof v === 'boolean' ? (v ? '1' : '0') : String(v))}`);
  };
  // Read as a page's JavaScript passed it: members of any type.
  const req = /** @type {{fields?: unknown, parcels?: Array<Record<string, unknown>>} | undefined} */ (params);
  const fields = /** @type {Record<string, unknown> | Array<[string, unknown]>} */ (
    req && req.fields !== undefined && req.fields !== null ? req.fields : req || {}
  );
  if (Array.isArray(fields)) {
    for (const [k, v] of fields) add(k, v);
  } else {
    for (const k of Object.keys(fields)) if (k !== 'parcels' && k !== 'fields') add(k, fields[k]);
  }
  const parcels = (req && req.parcels) || [];
  parcels.forEach((p, i) => {
    for (const k of Object.keys(p || {})) add(`parcels[${i}][${k}]`, p[k]);
  });
  return out.join('&');
}

/** Go's url.QueryEscape (as signing.js's, which the Client does not import). @param {string} s */
function esc(s) {
  return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** @param {string} b64 */
function base64Bytes(b64) {
  let s = b64.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  while (s.length % 4 !== 0) s += '=';
  const bin = atob(s);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/**
 * snippet is the start of a body as the core's envelope snippet keeps it
 * (internal/envelope/errors.go): at most 200 bytes of UTF-8, never half a
 * character (.slice(0, 200) counted UTF-16 units and could keep half an
 * emoji), trimmed.
 * @param {string} text
 */
function snippet(text) {
  const b = new TextEncoder().encode(text.slice(0, 400));
  let n = b.length;
  if (n > 200) for (n = 200; n > 0 && (b[n] & 0xc0) === 0x80; n--);
  return new TextDecoder().decode(b.subarray(0, n)).trim();
}
