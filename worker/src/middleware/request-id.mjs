// @ts-check
// X-Request-Id: the client's own when it is a plain token of at most 64
// characters (so a shop can follow a request through its logs and ours),
// else a new one; on every answer and on the upstream call.

/** @typedef {import("../router.mjs").Middleware} Middleware */

const plain = /^[A-Za-z0-9._-]{1,64}$/;

/** The isolate's half of every id it makes: 8 random bytes in hex, made at its first id. */
let isolatePart = "";
/** How many ids this isolate has made. */
let made = 0;

/**
 * newRequestId is 32 hex digits: 8 random bytes drawn once per isolate,
 * then the isolate's count of ids, so ids from different isolates differ
 * (with the probability 64 random bits give) and one isolate never
 * repeats one. A crypto.randomUUID() per request cost 5-12 us of CPU in
 * workerd (worker/bench/EDGE_COST.md, "What the proxy lacks"), and an id
 * is a label for logs, not a secret: the count it shows is on /healthz
 * already. (Drawn at the first id, not at load: crypto is refused at an
 * isolate's top level.)
 */
export function newRequestId() {
  if (isolatePart === "") isolatePart = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  return isolatePart + (++made).toString(16).padStart(16, "0");
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
