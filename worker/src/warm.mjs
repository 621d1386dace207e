// @ts-check
// Warming the core while the isolate starts. V8 compiles a WebAssembly
// function the first time it runs (lazily, with Liftoff), and a TinyGo
// module's request path is tens of kilobytes of code: compiled on the
// isolate's first request, it cost that request ~20 ms of CPU (Node and
// workerd, worker/bench/README.md "Cold start"). Run here, from the entry
// module's top level, it is part of the isolate's start, which Cloudflare
// begins while the TLS handshake is still in flight. The inputs are made
// up, touch no binding and no network, and their answers are dropped; the
// first request configures the core from the real environment.

import { newExchange } from './exchange.mjs';

const encoder = new TextEncoder();

/**
 * warmUpstream stands in for the network in the made-up forwarded read
 * (edge.mjs's serviceCall for a warm exchange): a 200 with an ok envelope
 * and its length, read as the platform's answer would be (a Response with a
 * body cannot be made outside a request). It never calls anything.
 * @type {typeof fetch}
 */
export const warmUpstream = async () => {
  const bytes = encoder.encode('{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}}');
  return /** @type {Response} */ (/** @type {unknown} */ ({
    status: 200,
    headers: new Headers({ 'content-type': 'application/json', 'content-length': String(bytes.byteLength) }),
    body: null,
    arrayBuffer: async () => bytes.buffer,
  }));
};

/** @typedef {import('./core.d.mts').EdgeCore} EdgeCore */

// A fixed instant: the answers are dropped, only the code paths matter.
const NOW = Date.UTC(2026, 0, 5, 9);
const TOKEN = 'warm-master-token-0123456789abcdefghij';
const VARS = {
  UPSTREAM_BASE_URL: 'https://upstream.invalid/v1',
  API_USER: 'warm',
  API_KEY: 'warm-key-0123456789abcdef',
  PROXY_TOKEN: TOKEN,
  TOKEN_SIGNING_KEY: 'warm-signing-key-0123456789abcdefghijklm',
  // wrangler.toml's [vars], so that parsing them is compiled too.
  ALLOWED_ORIGINS: 'https://shop.invalid,https://www.shop.invalid',
  UPSTREAM_TIMEOUT_MS: '10000',
  MAX_BODY_BYTES: '65536',
  RULES_FEATURE: 'false',
  CACHE_TTL: 'get-drop-points=900,*=3600',
};
const FACTS = {
  method: 'GET', query: 'country_code=es&zip_code=28014', body: null, bodyTooLarge: false, contentType: null,
  acceptLanguage: 'es-ES,es;q=0.9', authorization: null, clientIp: '192.0.2.1', requestId: 'warm', now: NOW,
};
// A booking as a shop sends it (the shape of worker/bench/core.mjs's).
const SHIPMENT =
  'shipping_date=2026-01-07&' + 'service_type=custom&' + 'carrier_code=rapido&' +
  'service_code=rapido-48h&' + 'shipping_client_ref=WARM-1&' + 'from_name=Tienda&' +
  'from_address=Calle+Mayor+1&' + 'from_city=Madrid&' + 'from_zip_code=28014&' +
  'from_country_code=ES&' + 'from_phone=%2B34+910+000+000&' + 'to_name=Ana&' +
  'to_address=Rua+Augusta+10&' + 'to_city=Lisboa&' + 'to_zip_code=1100-053&' + 'to_country_code=PT&' +
  'to_phone=912+345+678&' + 'parcels[0][parcel_weight]=1.5&' + 'parcels[0][parcel_width]=20&' +
  'parcels[0][parcel_height]=10&' + 'parcels[0][parcel_length]=30&' + 'parcels[0][parcel_volume]=6000';

/**
 * warm runs configure, /healthz, a refused path, a public read and its
 * answer, and a booking's validation, ledger step and answer once. It
 * leaves the core configured with made-up values: configure() it before use.
 * It returns what the core made of the read and the booking: "forward"
 * both, or the warm-up no longer reaches the paths it is for (a test
 * checks it).
 * @param {EdgeCore} core
 * @returns {{read: string, booking: string}}
 */
export function warm(core) {
  core.configure({ vars: VARS, bindings: { bookings: true, watchlist: false, sandbox: false, rateLimitAnonymous: false } });
  core.healthz({
    method: 'GET', authorization: null, acceptLanguage: null, requestId: 'warm', now: NOW, instance: null,
    rateLimits: { public: false, tokens: false }, cache: { entries: 0, bytes: 0 }, webhooks: null,
  });
  core.failure({ kind: 'not_found', requestId: 'warm', acceptLanguage: 'es', operation: '', method: 'GET', path: '/warm', allow: '', origin: '' });
  const read = core.prepare({ ...FACTS, operation: 'get-drop-points' });
  if (read.kind === 'forward') {
    core.answer({
      context: read.forward.context, requestId: 'warm', acceptLanguage: FACTS.acceptLanguage, now: NOW,
      upstream: { status: 200, body: '{"status":"ok","data":[]}', failure: null },
    });
  }
  const booking = core.prepare({
    ...FACTS, method: 'POST', query: null, body: SHIPMENT, contentType: 'application/x-www-form-urlencoded',
    authorization: `Bearer ${TOKEN}`, operation: 'new-shipment',
  });
  if (booking.kind === 'forward' && booking.forward.booking) {
    core.booking({
      context: booking.forward.context, ticket: booking.forward.booking, state: 'new', stored: null,
      requestId: 'warm', acceptLanguage: FACTS.acceptLanguage, now: NOW,
    });
    core.answer({
      context: booking.forward.context, requestId: 'warm', acceptLanguage: FACTS.acceptLanguage, now: NOW, sentAt: NOW,
      upstream: { status: 200, body: '{"status":"ok","data":{"shipping_dlvr_ref":"PG0","shipping_client_ref":"WARM-1"}}', failure: null },
    });
  }
  core.prepare({ ...FACTS, query: 'country_code=es&zip_code=1', operation: 'get-drop-points' });
  return { read: read.kind, booking: booking.kind };
}

/**
 * The made-up requests warmPipeline sends: a health probe, a browser's
 * preflight from an origin that is not allowed, a path that does not
 * exist, an operation's preflight and a forwarded read (a shop page's
 * first POST), so that every middleware, the operation route, the upstream
 * call and the answers' common code run once. None of them reaches a
 * binding, a timer or the network (all three are refused outside a
 * request): a warm exchange takes no rate limit, /v1/'s deadline sets no
 * timer for it, and its upstream call is answered by warmUpstream.
 * @type {{path: string, method: string, headers: Record<string, string>, body?: string}[]}
 */
const PIPELINE = [
  { path: '/healthz', method: 'GET', headers: {} },
  { path: '/healthz', method: 'OPTIONS', headers: { origin: 'https://foreign.invalid', 'access-control-request-method': 'GET' } },
  { path: '/warm-not-found', method: 'GET', headers: {} },
  { path: '/v1/get-drop-points', method: 'OPTIONS', headers: {} },
  {
    path: '/v1/get-collection-cutoff-hour', method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rapido',
  },
];

/**
 * warmPipeline runs the isolate's request pipeline once per made-up request
 * at the entry's top level, so V8 has compiled the JavaScript of a
 * request's path before the first real one arrives (what remained of the
 * cold start once the core was warm: worker/bench/README.md, "Cold
 * start"). The exchanges are marked warm: answered without a body and not
 * logged. The health probe is left out when webhooks are configured (it
 * would ask the Watchlist object). Returns the statuses answered.
 * @param {(x: import('./exchange.mjs').Exchange) => Promise<Response>} handle
 * @param {{env: import('./types').Env, webhooks: boolean}} p
 * @returns {Promise<number[]>}
 */
export async function warmPipeline(handle, { env, webhooks }) {
  const exec = { waitUntil() {} };
  const statuses = [];
  for (const r of PIPELINE) {
    if (webhooks && r.path === '/healthz' && r.method === 'GET') continue;
    const request = new Request('https://warm.invalid' + r.path, {
      method: r.method, headers: { 'x-request-id': 'warm', 'accept-language': 'es', ...r.headers },
    });
    const body = r.body === undefined ? undefined : encoder.encode(r.body);
    const res = await handle(newExchange({ request, env, exec, warm: true, body }));
    statuses.push(res.status);
  }
  return statuses;
}
