// @ts-check
// The request's one JSON log line (LOG_REQUESTS): "errors" (the default)
// logs an answer of 400 or more, a retried upstream call or a note; "all"
// every request; "off" none. A successful request is in the platform's own
// request log already, and a line costs CPU and, on Workers Logs, money.
// No query strings, bodies, client addresses, tokens or credentials:
// detail (a transport failure's cause) may name the upstream, which the
// operator's log may, the client's answer never.

import { bytesOut, clip } from "../exchange.mjs";
import { ms } from "./timing.mjs";

/**
 * @typedef {import("../router.mjs").Middleware} Middleware
 * @typedef {import("../exchange.mjs").Exchange} Exchange
 * @typedef {"errors" | "all" | "off"} LogRequests
 */

/**
 * logLine writes one JSON object as a line on the worker's console.
 * @param {Record<string, unknown>} o
 */
export function logLine(o) {
  console.log(JSON.stringify({ ts: new Date().toISOString(), ...o }));
}

/**
 * requestLine is the log line of a finished request.
 * @param {Exchange} x
 * @param {number} status
 * @param {number} end Date.now() at the answer
 * @returns {Record<string, unknown>}
 */
export function requestLine(x, status, end) {
  /** @type {Record<string, unknown>} */
  const o = { msg: "request", request_id: x.id, method: clip(x.request.method, 16), op: x.op, status };
  if (x.errorClass !== "") o.error = x.errorClass;
  if (x.detail !== "") o.detail = x.detail;
  o.edge_ms = Number(ms(end - x.t0));
  if (x.upstream.attempts > 0) {
    o.upstream_ms = Number(ms(x.upstream.ms));
    o.upstream_status = x.upstream.status;
    o.attempts = x.upstream.attempts;
  }
  o.bytes_in = x.bytesIn;
  o.bytes_out = bytesOut(x);
  o.cors = x.origin !== "";
  if (x.note !== "") o.note = x.note;
  return o;
}

/**
 * wanted reports whether LOG_REQUESTS asks for this request's line.
 * @param {LogRequests} mode
 * @param {Exchange} x
 * @param {number} status
 */
export function wanted(mode, x, status) {
  if (mode === "off") return false;
  if (mode === "all") return true;
  return status >= 400 || x.upstream.attempts > 1 || x.note !== "" || x.errorClass !== "";
}

/**
 * requestLog logs finished requests as LOG_REQUESTS says.
 * @param {{mode: () => LogRequests, write?: (o: Record<string, unknown>) => void, now?: () => number}} o
 * @returns {Middleware}
 */
export function requestLog({ mode, write = logLine, now = Date.now }) {
  return async (x, next) => {
    const res = await next(x);
    if (!x.warm && wanted(mode(), x, res.status)) write(requestLine(x, res.status, now()));
    return res;
  };
}
