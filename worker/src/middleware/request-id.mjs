// @ts-check
// X-Request-Id: the client's own when it is a plain token of at most 64
// characters (so a shop can follow a request through its logs and ours),
// else a new one; on every answer and on the upstream call.

/** @typedef {import("../router.mjs").Middleware} Middleware */

const plain = /^[A-Za-z0-9._-]{1,64}$/;

/** newRequestId is 16 random bytes in hex. */
export function newRequestId() {
  return crypto.randomUUID().replaceAll("-", "");
}

/**
 * pickRequestId keeps a usable client id, else makes one.
 * @param {string | null} given
 * @param {() => string} make
 */
export function pickRequestId(given, make) {
  return given !== null && plain.test(given) ? given : make();
}

/**
 * requestId sets x.id and the answer's X-Request-Id.
 * @param {{make?: () => string}} [o]
 * @returns {Middleware}
 */
export function requestId({ make = newRequestId } = {}) {
  return (x, next) => {
    x.id = pickRequestId(x.request.headers.get("x-request-id"), make);
    x.answerHeaders["x-request-id"] = x.id;
    return next(x);
  };
}
