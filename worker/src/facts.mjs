// @ts-check
// What the core needs to know of a request (RequestFacts): read once from
// the Exchange, after the body middleware.

/** @typedef {import("./core.mjs").RequestFacts} RequestFacts */


/**
 * rawQuery is the URL's query without "?" as sent (not decoded); null when
 * the URL has no "?" at all.
 * @param {string} url
 */
export function rawQuery(url) {
  const i = url.indexOf("?");
  if (i < 0) return null;
  const h = url.indexOf("#", i);
  return h < 0 ? url.slice(i + 1) : url.slice(i + 1, h);
}

/**
 * requestFacts describes the request for the core and counts its input
 * bytes for the log line.
 * @param {import("./exchange.mjs").Exchange} x
 * @param {number} now
 * @returns {RequestFacts}
 */
export function requestFacts(x, now) {
  const h = x.request.headers;
  const query = rawQuery(x.request.url);
  x.bytesIn = x.request.method === "GET" ? (query ?? "").length : x.body?.byteLength ?? 0;
  return {
    method: x.request.method,
    query,
    // Bytes, not text: the core refuses invalid UTF-8 rather than see it replaced.
    body: x.body,
    bodyTooLarge: x.bodyTooLarge,
    // A coded body (workerd does not decode a request's Content-Encoding:
    // x.coding, the body middleware's) is no form: its coding goes to the
    // core as the type, a 415 naming it.
    contentType: x.coding !== null ? "Content-Encoding: " + x.coding : h.get("content-type"),
    acceptLanguage: h.get("accept-language"),
    authorization: h.get("authorization"),
    clientIp: h.get("cf-connecting-ip") ?? "",
    requestId: x.id,
    now,
  };
}

