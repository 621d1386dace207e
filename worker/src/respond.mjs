// @ts-check
// The edge's own answers: the {status, data} envelope of every failure the
// worker makes itself (source "edge", errorCode 1000 + HTTP status or the
// field's code), and JSON responses. Members in the order Go's
// envelope.ErrorData writes them, so a client sees one shape whoever wrote
// the body.

/** The Content-Type of every response. */
export const CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * @typedef {object} FieldError
 * @property {string} field
 * @property {number} code
 * @property {string} message
 */

/**
 * A failure the edge answers with its own envelope.
 * @typedef {object} EdgeFailure
 * @property {number} status HTTP status
 * @property {string} errorClass short machine-readable kind (logs and clients)
 * @property {string} message
 * @property {number} [code] errorCode; 1000 + status when absent
 * @property {FieldError[]} [fieldErrors]
 * @property {number} [upstreamStatus]
 * @property {string} [upstreamData] raw JSON of the upstream's data, when it sent an envelope
 * @property {boolean} [retryable]
 * @property {string} [hint]
 * @property {Record<string, string>} [headers] extra response headers (Allow, Retry-After, WWW-Authenticate)
 * @property {string} [detail] the cause for the log line only, never sent
 */

/**
 * failureBody renders a failure's envelope for request id requestId.
 * @param {EdgeFailure} f
 * @param {string} requestId
 * @returns {string}
 */
export function failureBody(f, requestId) {
  let s = '{"status":"err","data":{"errorCode":' + (f.code ?? 1000 + f.status) +
    ',"errorMessage":' + JSON.stringify(f.message) + ',"source":"edge","errorClass":' + JSON.stringify(f.errorClass);
  if (f.fieldErrors !== undefined && f.fieldErrors.length > 0) {
    s += ',"errors":' + JSON.stringify(f.fieldErrors.map((e) => ({ field: e.field, code: e.code, message: e.message })));
  }
  if (f.upstreamStatus) s += ',"upstreamStatus":' + f.upstreamStatus;
  if (f.upstreamData !== undefined && f.upstreamData !== "") s += ',"upstream":' + f.upstreamData;
  if (f.retryable !== undefined) s += ',"retryable":' + f.retryable;
  if (f.hint) s += ',"hint":' + JSON.stringify(f.hint);
  return s + ',"requestId":' + JSON.stringify(requestId) + "}}";
}

/**
 * okBody renders {"status":"ok","data":<data>}.
 * @param {unknown} data
 * @returns {string}
 */
export function okBody(data) {
  return '{"status":"ok","data":' + JSON.stringify(data) + "}";
}

/**
 * json is a JSON response with the headers every answer carries.
 * @param {{status: number, body: string | Uint8Array | null, headers?: Record<string, string>}} r
 * @returns {Response}
 */
export function json({ status, body, headers }) {
  const h = new Headers(headers);
  h.set("content-type", CONTENT_TYPE);
  h.set("cache-control", "no-store");
  h.set("x-content-type-options", "nosniff");
  return new Response(/** @type {BodyInit | null} */ (body), { status, headers: h });
}
