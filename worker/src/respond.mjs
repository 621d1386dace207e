// @ts-check
// The edge's own answers: the {status, data} envelope of a failure the
// worker answers without the core (it could not start, or failed while
// answering), and JSON responses. Every other envelope is the core's, in the
// client's language with whatever members it needs; this one has the
// members every envelope has, in the order Go's envelope.ErrorData writes
// them, so a client sees one shape whoever wrote the body.

/** The Content-Type of every response. */
export const CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * A failure the edge answers with its own envelope (source "edge",
 * errorCode 1000 + status).
 * @typedef {object} EdgeFailure
 * @property {number} status HTTP status
 * @property {string} errorClass short machine-readable kind (logs and clients)
 * @property {string} message
 */

/**
 * failureBody renders a failure's envelope for request id requestId.
 * @param {EdgeFailure} f
 * @param {string} requestId
 * @returns {string}
 */
export function failureBody(f, requestId) {
  return JSON.stringify({ status: "err", data: { errorCode: 1000 + f.status, errorMessage: f.message, source: "edge",
    errorClass: f.errorClass, requestId } });
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
 * json is a JSON response with the headers every answer carries. The
 * headers go to the Response as one plain object: a Headers object filled
 * by set() crosses into the runtime once per header (/healthz 3-4% less
 * CPU alone in workerd: worker/bench/EDGE_COST.md). Names are lower-cased
 * first, so ours replace a header of the same name in any case, as set()
 * did. more (the middleware's, lower-case) come after the answer's own and
 * replace them, except Vary, which lists both (as append() did).
 * @param {{status: number, body: string | Uint8Array | null, headers?: Record<string, string>, more?: Record<string, string>}} r
 * @returns {Response}
 */
export function json({ status, body, headers, more }) {
  /** @type {Record<string, string>} */
  const h = {};
  for (const k in headers) h[k.toLowerCase()] = headers[k]; // nothing for undefined
  for (const k in more) h[k] = k === "vary" && h.vary !== undefined ? h.vary + ", " + more[k] : more[k];
  h["content-type"] = CONTENT_TYPE;
  h["cache-control"] = "no-store";
  h["x-content-type-options"] = "nosniff";
  return new Response(/** @type {BodyInit | null} */ (body), { status, headers: h });
}
