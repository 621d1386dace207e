// @ts-check
// One request's state, shared by the middleware and the route that serves
// it: what the response headers and the log line need. Nothing here lives
// beyond the request.

import { failureBody, json } from "./respond.mjs";

/**
 * @typedef {import("./respond.mjs").EdgeFailure} EdgeFailure
 * @typedef {import("./types").Env} Env
 * @typedef {import("./types").ExecutionContextLike} ExecutionContextLike
 */

/**
 * @typedef {object} Exchange
 * @property {Request} request
 * @property {string} path the URL's path as sent (request.url is already normalized)
 * @property {string} self the worker's own origin as the request addressed it
 * @property {Env} env
 * @property {ExecutionContextLike} exec the request's ExecutionContext (waitUntil)
 * @property {number} t0 Date.now() when the request arrived (workerd's clock moves only across I/O)
 * @property {string} id the request id (X-Request-Id)
 * @property {string} op what the log line names: an operation, "healthz", "tokens", ...
 * @property {string} pricing the basis of the answer's shop prices (the core's forward.pricing; "" for none)
 * @property {string} sign the basis of the answer's signed offers or drop points (the core's forward.sign; "" for none)
 * @property {string} origin the allowed browser origin echoed in CORS headers ("" for none)
 * @property {string} errorClass the failure's class for the log line ("" for none)
 * @property {string} detail a failure's cause, for the log line only
 * @property {string} note what the log line should add (a failure off the answer's path)
 * @property {{status: number, attempts: number, ms: number}} upstream upstream calls made for it
 * @property {number} bytesIn bytes of the query (GET) or body read
 * @property {string | Uint8Array | null} answered the answer's body as reply() sent it (the log line counts its bytes)
 * @property {Record<string, string>} answerHeaders headers the middleware add to whatever answer the
 *   request gets (lower-case names), known before it is made: reply() builds the Response with them,
 *   one crossing into the runtime instead of a set() per header afterwards
 * @property {Array<(x: Exchange) => void>} finishing what the middleware write into answerHeaders
 *   as the answer is made (Server-Timing's durations)
 * @property {Uint8Array | null} body the body read (bounded), null when none
 * @property {boolean} bodyTooLarge the body passed MAX_BODY_BYTES (declared or read)
 * @property {string | null} coding the body's Content-Encoding when it names a coding (not
 *   identity): the runtime does not decode it, so it is no form (the core's 415); null for none
 * @property {boolean} warm a made-up request of the isolate's start (warm.mjs): answered without a body
 *   (workerd refuses a Response with a body outside a request) and not logged
 */

/**
 * newExchange starts a request's state.
 * @param {{request: Request, env: Env, exec: ExecutionContextLike, now?: number, warm?: boolean, body?: Uint8Array}} p
 *   body: a made-up request's body (warm.mjs: a Request made outside a request cannot carry one)
 * @returns {Exchange}
 */
export function newExchange({ request, env, exec, now, warm = false, body }) {
  const { self, path } = splitUrl(request.url);
  return {
    request, env, exec, path, self, t0: now ?? Date.now(), id: "", op: "", pricing: "", sign: "", origin: "",
    errorClass: "", detail: "", note: "", upstream: { status: 0, attempts: 0, ms: 0 },
    bytesIn: 0, answered: null, answerHeaders: {}, finishing: [], body: body ?? null, bodyTooLarge: false, coding: null, warm,
  };
}

/**
 * splitUrl reads an absolute URL's origin and path with string operations:
 * request.url is already parsed and normalized by the platform, and a URL
 * object per request costs more than the routing it serves.
 * @param {string} u
 * @returns {{self: string, path: string}}
 */
export function splitUrl(u) {
  const s = u.indexOf("//");
  let p = u.indexOf("/", s < 0 ? 0 : s + 2);
  if (p < 0) p = u.length;
  let e = u.length;
  for (const c of ["?", "#"]) {
    const i = u.indexOf(c, p);
    if (i >= 0 && i < e) e = i;
  }
  return { self: u.slice(0, p), path: p === e ? "/" : u.slice(p, e) };
}

/**
 * fail answers with the edge's envelope and records the failure for the log.
 * @param {Exchange} x
 * @param {EdgeFailure} f
 * @returns {Response}
 */
export function fail(x, f) {
  x.errorClass = f.errorClass;
  return reply(x, { status: f.status, body: failureBody(f, x.id) });
}

const encoder = new TextEncoder();

/**
 * reply answers with a JSON body and the headers the middleware asked for
 * (x.answerHeaders, after what finishing wrote). The body goes to the
 * Response as it is: the log line counts its bytes (bytesOut), and only
 * when it writes one.
 * @param {Exchange} x
 * @param {{status: number, body: string | Uint8Array, headers?: Record<string, string>}} r
 * @returns {Response}
 */
export function reply(x, { status, body, headers }) {
  for (const f of x.finishing) f(x);
  x.answered = body;
  return json({ status, body: x.warm ? null : body, headers, more: x.answerHeaders });
}

/**
 * bytesOut is the size of the answer reply() sent, in bytes.
 * @param {Exchange} x
 * @returns {number}
 */
export function bytesOut(x) {
  const b = x.answered;
  return b === null ? 0 : typeof b === "string" ? encoder.encode(b).byteLength : b.byteLength;
}

/**
 * head is s's first n characters (code points, as the core counts runes):
 * .slice counts UTF-16 units and could keep half of an emoji. n characters
 * take at most 2n units, so only those are spread.
 * @param {string} s
 * @param {number} n
 */
export function head(s, n) {
  return [...s.slice(0, 2 * n)].slice(0, n).join("");
}

/**
 * clip shortens s to n characters (code points) with "..." when longer.
 * @param {string} s
 * @param {number} n
 */
export function clip(s, n) {
  const h = head(s, n);
  return h.length < s.length ? h + "..." : s;
}
