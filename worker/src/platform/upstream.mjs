// @ts-check
// The one way the worker calls the shipping service: POST of a form body to
// <base>/<operation> with the merchant's Basic auth, never a header of the
// client's (no Authorization, Cookie, Origin, X-Forwarded-*). The body goes
// as bytes, so the upstream gets a Content-Length (a stream would go
// chunked, and some PHP set-ups then see an empty POST). Redirects are not
// followed; the deadline is an AbortSignal (the call is really cancelled);
// the answer is read bounded.

import { declaredLength, readBounded } from "../middleware/body.mjs";
import { errorDetail } from "./binding.mjs";

/** MAX_UPSTREAM_BODY bounds what is read of an answer (a label is a base64 PDF of a few hundred KB). */
export const MAX_UPSTREAM_BODY = 8 << 20;

/**
 * @typedef {object} UpstreamCall
 * @property {string} url the operation's URL (<base>/<operation>)
 * @property {Uint8Array | string} body the encoded form
 * @property {string} authorization the upstream's Authorization value (the core's "Basic ...")
 * @property {string} requestId sent as X-Request-Id
 * @property {number} timeoutMs the call's deadline; 0: none, only for the made-up read of an
 *   isolate's start (warm.mjs), where a timer is refused (the core's UPSTREAM_TIMEOUT_MS is at least 1)
 * @property {number} [maxBytes] bound of the answer read (MAX_UPSTREAM_BODY)
 * @property {typeof fetch} [fetcher] the platform's fetch (or a service binding's)
 * @property {string | null} [fault] a Sandbox-Fault header value to send (the sandbox's only: serviceCall
 *   gives one only when the upstream is the SANDBOX binding)
 * @property {AbortSignal} [signal] the caller's own abort (a rates call that missed its deadline and is
 *   not the one refreshing the store): the call ends as a timeout
 */

/**
 * What came back, in the core's terms (UpstreamResult) plus the cause for
 * the log line (detail: it may name the upstream, so never sent).
 * @typedef {import("../core.mjs").UpstreamResult & {detail: string}} UpstreamAnswer
 */

/**
 * upstreamCall makes one call; it never throws.
 * @param {UpstreamCall} c
 * @returns {Promise<UpstreamAnswer>}
 */
export async function upstreamCall({ url, body, authorization, requestId, timeoutMs, maxBytes = MAX_UPSTREAM_BODY, fetcher = fetch, fault = null, signal }) {
  const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
  let status = 0;
  /** @type {Response} */
  let res;
  try {
    res = await fetcher(url, {
      method: "POST",
      headers: {
        authorization,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        "user-agent": "parcelgate-edge/1",
        "x-request-id": requestId,
        ...(fault ? { "sandbox-fault": fault } : {}),
      },
      body: /** @type {BodyInit} */ (body),
      redirect: "manual",
      signal: signal === undefined ? timeout : timeout === undefined ? signal : AbortSignal.any([timeout, signal]),
    });
    status = res.status;
  } catch (e) {
    return { status: 0, body: null, failure: timedOut(e) ? "timeout" : "unreachable", detail: errorDetail(e, 300) };
  }
  try {
    // Within the bound by its declared length: read in one call (the
    // platform's), else chunk by chunk and cut at the bound.
    const n = declaredLength(res.headers);
    let bytes;
    if (n >= 0 && n <= maxBytes) {
      bytes = new Uint8Array(await res.arrayBuffer());
    } else {
      const got = await readBounded(res.body, { limit: maxBytes + 1, drain: 0 });
      bytes = got === null ? new Uint8Array(0) : got.bytes;
    }
    if (bytes.byteLength > maxBytes) {
      return { status, body: null, failure: "too_large", detail: "response larger than " + maxBytes + " bytes" };
    }
    return { status, body: bytes, failure: null, detail: "" };
  } catch (e) {
    return { status, body: null, failure: timedOut(e) ? "timeout" : "unreadable", detail: errorDetail(e, 300) };
  }
}

/** @param {unknown} e */
function timedOut(e) {
  const name = e instanceof Error ? e.name : "";
  return name === "TimeoutError" || name === "AbortError";
}


/**
 * webhookPost delivers one signed event: only the status counts, the
 * answer is not read (a large 2xx page is a delivery).
 * @param {{url: string, body: string, headers: Record<string, string>, timeoutMs: number, fetcher?: typeof fetch}} d
 * @returns {Promise<{status: number} | {status: 0, failure: "timeout" | "network"}>}
 */
export async function webhookPost({ url, body, headers, timeoutMs, fetcher = fetch }) {
  try {
    const res = await fetcher(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    if (res.body !== null) res.body.cancel().catch(() => {});
    return { status: res.status };
  } catch (e) {
    return { status: 0, failure: timedOut(e) ? "timeout" : "network" };
  }
}
