// @ts-check
// Request bodies, bounded: a Content-Length over MAX_BODY_BYTES is never
// read; one within it is read whole in one call (HTTP's framing holds the
// body to it); without one, the body is kept to one byte past the bound and
// the rest is read and dropped up to DRAIN_BYTES, then the stream is
// cancelled. The route answers 413 from x.bodyTooLarge. Draining is
// deliberate: a body abandoned half-read (cancelled or not) stalled the next
// request on the connection for ~10 s under wrangler/workerd; a drained one
// does not (worker/e2e tests it). The one-call read is the platform's own
// (arrayBuffer): a stream read chunk by chunk in JavaScript cost about 0.1
// ms of CPU more per forwarded read (worker/bench/README.md).

import { fail } from "../exchange.mjs";

/** @typedef {import("../router.mjs").Middleware} Middleware */

/**
 * DRAIN_BYTES bounds what is read of a body already known to be too large:
 * Cloudflare refuses bodies over 100 MB (Free and Pro plans) before they
 * reach a worker, so every body that can arrive is drained, not cancelled.
 */
export const DRAIN_BYTES = 100 * 1000 * 1000;

/**
 * readBounded reads a stream, keeping at most limit bytes; past that it
 * reads and drops up to drain bytes more, then cancels the stream.
 * @param {ReadableStream<Uint8Array> | null} stream
 * @param {{limit: number, drain: number}} bounds
 * @returns {Promise<{bytes: Uint8Array, total: number} | null>} total: bytes seen (at most limit + drain)
 */
export async function readBounded(stream, { limit, drain }) {
  if (stream === null) return null;
  const reader = stream.getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total < limit) chunks.push(value);
    total += value.byteLength;
    if (total >= limit + drain) {
      reader.cancel().catch(() => {});
      break;
    }
  }
  if (chunks.length === 1 && total <= limit) return { bytes: chunks[0], total };
  const out = new Uint8Array(Math.min(total, limit));
  let off = 0;
  for (const c of chunks) {
    const n = Math.min(c.byteLength, out.length - off);
    out.set(c.subarray(0, n), off);
    off += n;
    if (off === out.length) break;
  }
  return { bytes: out, total };
}

/**
 * declaredLength is a message's Content-Length when it bounds what reading
 * its body returns: digits only, and no Content-Encoding (the platform
 * decodes an encoded answer, which may then be longer than declared); -1
 * when it does not.
 * @param {Headers} h
 * @param {string | null} [cl] its Content-Length, when the caller has read it already
 * @param {string | null} [ce] its coding (coding()), when the caller has read it already
 */
export function declaredLength(h, cl = h.get("content-length"), ce = coding(h)) {
  if (ce !== null || cl === null || cl.length === 0 || cl.length > 15) return -1;
  for (let i = 0; i < cl.length; i++) {
    const c = cl.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return Number(cl);
}

/**
 * coding is a message's Content-Encoding when it names a coding, null when
 * it has none or names identity.
 * @param {Headers} h
 */
export function coding(h) {
  const ce = h.get("content-encoding");
  return ce !== null && ce.trim().toLowerCase() !== "identity" ? ce : null;
}

/**
 * bodyBounds reads the request's body into x.body, bounded.
 * @param {{maxBodyBytes: () => number, drainBytes?: number}} o
 * @returns {Middleware}
 */
export function bodyBounds({ maxBodyBytes, drainBytes = DRAIN_BYTES }) {
  return async (x, next) => {
    const body = x.request.body;
    if (body !== null) {
      const max = maxBodyBytes();
      const h = x.request.headers;
      const cl = h.get("content-length");
      x.coding = coding(h);
      const n = declaredLength(h, cl, x.coding);
      if (cl !== null && Number(cl) > max) {
        // Over the bound by its declared length: never read.
        x.bodyTooLarge = true;
      } else {
        // A body that cannot be read (the client hung up mid-upload, or
        // sent broken chunks) is the client's, not the worker's: a 400 and
        // its log line, not a 500 logged as a panic.
        try {
          const got = n >= 0 ? { bytes: new Uint8Array(await x.request.arrayBuffer()) } :
            await readBounded(body, { limit: max + 1, drain: drainBytes });
          if (got !== null) {
            x.body = got.bytes;
            x.bodyTooLarge = got.bytes.byteLength > max;
          }
        } catch (e) {
          x.detail = e instanceof Error ? e.message : String(e);
          return fail(x, { status: 400, errorClass: "body_unreadable",
            message: "the request's body could not be read (the connection was lost or its chunks were malformed): send it again" });
        }
      }
    }
    return next(x);
  };
}
