// The demo shop's own server: what a real shop's server does between the
// checkout page and the edge (js/demo/README.md, "The shop's server").
//
//   node js/demo/server/shop.mjs --port 28787 --edge http://127.0.0.1:8787 \
//     --origins http://127.0.0.1:8787 --dev-vars .dev.vars       # make dev runs it so
//
// It keeps the cart's truth: the items, their prices and how they are
// packed live here, and the page only ever sends the cart's id, the offer
// the shopper chose (and the chosen drop point) and the delivery address.
// Placing an order verifies the offer offline (verifyOffer with the
// worker's TOKEN_SIGNING_KEY), compares it with the cart (origin = the
// shop, destination = the address, parcels = the cart's box, and the order
// value once offers carry it), charges the signed price (here: records
// it), and mints a booking grant bound to that offer (mintToken). The page
// books with that grant through the edge: whatever its script changes
// before booking, the edge books the offer or refuses. Refusals are
// answered in the shopper's language (the demo's texts, js/demo/strings.js).
//
// A fallback offer (the carrier API was down: the operator's
// RATES_FALLBACK price) is charged but not booked: no grant, the order
// kept "label pending" for the back-office. A different offer for an
// order whose first offer a grant may have booked is charged only once
// the edge says the order is not booked (placeOrder, mayReplace).
//
// A demo: carts and orders are kept in memory, payment is a record. It
// books only while the edge's upstream is the embedded sandbox (a real
// account is never charged for a demo cart).

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { load, verifyOffer, verifyPoint, mintToken, OfferError } from '../../src/node.js';
import DEMO from '../strings.js';

/** The shop: who ships (the booking's from_* fields), in Madrid. */
export const SENDER = {
  from_name: 'Tienda Demo',
  from_address: 'Calle de Alcalá 1',
  from_city: 'Madrid',
  from_zip_code: '28014',
  from_country_code: 'ES',
  from_phone: '910000000',
  from_email: 'envios@tienda-demo.example',
};

// The catalogue: prices are decimal strings of euros (money is never a
// float here), weights in kg, sizes in cm.
const CATALOGUE = {
  mug: { price: '18.50', weight: '0.45' },
  bowl: { price: '42.00', weight: '1.1', size: 24 },
};
// Every cart of the demo holds the same things, packed in one box.
const CART_LINES = [{ sku: 'mug', qty: 2 }, { sku: 'bowl', qty: 1 }];
const BOX = { width: 30, height: 20, length: 40, packing: '0.35' };

// The operations a checkout's token allows: book this order, then read
// what was booked (label, shipment, tracking), by its order reference.
const OPERATIONS = ['new-shipment', 'get-shipment', 'get-shipment-label', 'get-shipment-tracking'];
// A booking grant lives at most 2 hours (tokens.MaxBookingTTL); the
// shop's live 5 minutes, as long as a page needs to book with it (the
// Client renews an expired one through /orders/token): a grant already
// handed out is what may still book an offer the shop has stopped
// charging, so a short one lets the shop know sooner (see placeOrder).
const TOKEN_TTL = 300;
// How long after a grant's (or its offer's) expiry a booking sent with it
// may still be in flight at the edge (its UPSTREAM_TIMEOUT_MS, 10 s, and
// a margin).
const IN_FLIGHT_MS = 30_000;
const MAX_BODY = 16 * 1024;
const LANGS = Object.keys(DEMO);
// A demo keeps carts in memory: the oldest go first past this many.
const MAX_CARTS = 10000;

// Cents from a decimal string of euros ("18.5" -> 1850), and back.
const cents = (s) => {
  const [i, f = ''] = String(s).split('.');
  return Number(i) * 100 + Number((f + '00').slice(0, 2));
};
const euros = (c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
// Grams from kg as a decimal string, and a canonical decimal back (offers.Canonical: "2.35", "30").
const grams = (s) => {
  const [i, f = ''] = String(s).split('.');
  return Number(i) * 1000 + Number((f + '000').slice(0, 3));
};
const canonical = (n) => String(n);

/** A new cart: its lines, value and the one parcel it ships in, as the shop computes them. */
export function newCart(id, contents) {
  const lines = (contents?.lines || CART_LINES).map((l) => ({ ...CATALOGUE[l.sku], ...l }));
  const value = lines.reduce((s, l) => s + l.qty * cents(l.price), 0);
  const weight = lines.reduce((s, l) => s + l.qty * grams(l.weight), 0) + grams(BOX.packing);
  const parcel = {
    parcel_weight: weight / 1000,
    parcel_width: BOX.width,
    parcel_height: BOX.height,
    parcel_length: BOX.length,
    parcel_volume: BOX.width * BOX.height * BOX.length,
  };
  return { id, lines, value: euros(value), currency: 'EUR', parcels: contents?.parcels || [parcel], created: Date.now() };
}

/** The cart as the page may see it. */
const publicCart = (c) => ({ id: c.id, lines: c.lines, value: c.value, currency: c.currency, parcels: c.parcels });

/** A refusal: status, a code the page acts on, and the sentence the shopper reads. */
class Refusal extends Error {
  constructor(status, code, key, detail) {
    super(detail || code);
    this.status = status;
    this.code = code;
    this.key = key;
  }
}

/**
 * Reads a .dev.vars file (KEY=value lines, values optionally quoted) into
 * an object. Only the keys asked for are kept: the shop needs the signing
 * keys and nothing else of the worker's secrets.
 */
export function readDevVars(file, keys) {
  const out = {};
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || !keys.includes(m[1])) continue;
    let v = m[2];
    if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0]) {
      v = v[0] === '"' ? JSON.parse(v) : v.slice(1, -1);
    }
    out[m[1]] = v;
  }
  return out;
}

/**
 * The shop's request handler.
 *
 * @param {{signingKey: string, previousKey?: string, edge: string, origins?: string[],
 *   upstream?: () => Promise<string>, now?: () => number, log?: (line: string) => void,
 *   cart?: {lines?: Array<{sku: string, qty: number, price?: string, weight?: string}>, parcels?: object[]}}} options
 *   signingKey: the worker's TOKEN_SIGNING_KEY (previousKey its TOKEN_SIGNING_KEY_PREVIOUS during a
 *   rotation); edge: the edge's base URL; origins: the pages allowed to call (CORS); upstream: what
 *   the edge's /healthz says it books with (default: asks it); cart: what every cart holds (default:
 *   the demo's mugs and bowl in one box)
 */
export function createShop(options) {
  const { signingKey, edge } = options;
  if (!signingKey) throw new TypeError('shop: the worker\'s TOKEN_SIGNING_KEY is needed (--dev-vars or TOKEN_SIGNING_KEY)');
  const keys = [signingKey, options.previousKey].filter(Boolean);
  const origins = new Set(options.origins || []);
  const now = options.now || Date.now;
  const log = options.log || ((line) => console.error(line));
  const upstream = options.upstream || (async () => {
    const res = await fetch(`${edge}/healthz`, { signal: AbortSignal.timeout(5000) });
    const body = await res.json();
    return String(body?.data?.upstream || 'unknown');
  });
  const carts = new Map();
  // cart id -> {ref, offer, offerTag, charged, state, bookable}:
  // state 'charged' (a grant may book it), 'label_pending' (a fallback
  // offer: charged, no grant; the back-office books it later) or
  // 'booked' (the edge said so); bookable the offers of this order that
  // a grant handed out may still book: {tag, service, price, until (ms,
  // the last moment a booking sent with it may land)}.
  const orders = new Map();
  let seq = 0;
  let corePromise = null;
  const core = () => (corePromise ||= load());

  const text = (lang, key) => (DEMO[lang] && DEMO[lang][key]) || DEMO.en[key] || key;
  function langOf(req, body) {
    const want = [body && body.lang, ...String(req.headers['accept-language'] || '').split(',').map((s) => s.split(';')[0])];
    for (const w of want) {
      const l = typeof w === 'string' ? w.trim().toLowerCase().split('-')[0] : '';
      if (LANGS.includes(l)) return l;
    }
    return 'es'; // a Madrid shop
  }

  function cartOf(id) {
    const c = typeof id === 'string' ? carts.get(id) : undefined;
    if (!c) throw new Refusal(404, 'cart_unknown', 'demo.errCart');
    return c;
  }

  function orderRef() {
    // At most 15 characters (shipping_client_ref), unique in this shop.
    seq = (seq + 1) % 1296;
    return `WEB-${now().toString(36).toUpperCase()}${seq.toString(36).toUpperCase().padStart(2, '0')}`.slice(0, 15);
  }

  // POST /cart {cart?}: the cart of that id, or a new one.
  function cart(body) {
    let c = typeof body.cart === 'string' ? carts.get(body.cart) : undefined;
    if (!c) {
      // The cart's id is what the page holds: unguessable, as a session would be.
      c = newCart(randomUUID(), options.cart);
      if (carts.size >= MAX_CARTS) {
        const oldest = carts.keys().next().value;
        carts.delete(oldest);
        orders.delete(oldest);
      }
      carts.set(c.id, c);
    }
    const o = orders.get(c.id);
    return { ...publicCart(c), order: o ? { ref: o.ref, charged: o.charged, state: o.state } : null };
  }

  /**
   * The offer and point against the cart and the address: the refusal's
   * detail (for the log), or '' when they are the cart's.
   */
  async function compare(c, facts, body, lang) {
    const a = body.address || {};
    const k = await core();
    if (facts.from.country !== SENDER.from_country_code || facts.from.postal !== SENDER.from_zip_code) return `origin ${facts.from.country} ${facts.from.postal}`;
    const p = k.postal(String(a.to_country_code || ''), String(a.to_zip_code || ''), { locale: lang });
    if (!p.valid || facts.to.country !== a.to_country_code || facts.to.postal !== p.normalized) return `destination ${facts.to.country} ${facts.to.postal}`;
    const want = c.parcels.map((x) => [x.parcel_weight, x.parcel_width, x.parcel_height, x.parcel_length, x.parcel_volume].map(canonical).join('*')).join(',');
    const got = facts.parcels.map((x) => [x.weight, x.width, x.height, x.length, x.volume].join('*')).join(',');
    if (want !== got) return `parcels ${got}`;
    // Once offers carry the order value the edge priced with (its pricing
    // rules: free drop points from 60 €), it must be the cart's.
    const ov = facts.orderValue ?? facts.order_value;
    if (ov !== undefined && ov !== '' && cents(ov) !== cents(c.value)) return `order value ${ov}`;
    if (facts.dropPoint) {
      if (typeof body.point !== 'string' || body.point === '') return 'no drop point';
      const pt = await verifyPoint(keys, body.point, { now: now() });
      if (pt.carrier !== facts.carrier || pt.key !== body.drop_point_key || pt.near.country !== facts.to.country || pt.near.postal !== facts.to.postal) {
        return `drop point ${pt.carrier} ${pt.key}`;
      }
    } else if (body.point || body.drop_point_key) {
      return 'a drop point for a home service';
    }
    return '';
  }

  // POST /orders {cart, offer, point?, drop_point_key?, address, lang}:
  // verify, compare, charge, bind. One order per cart: placing it again
  // (a lost answer, a double click) answers the same order, charged once.
  async function placeOrder(body, lang) {
    const c = cartOf(body.cart);
    if ((await upstream().catch(() => 'unreachable')) !== 'sandbox') throw new Refusal(409, 'demo_remote', 'demo.remote');
    const address = body.address && typeof body.address === 'object' ? body.address : {};
    let facts;
    try {
      facts = await verifyOffer(keys, body.offer, { now: now() });
    } catch (err) {
      if (err instanceof OfferError) throw new Refusal(409, 'quote_again', 'demo.errQuoteAgain', `offer ${err.reason}`);
      throw err;
    }
    let differs;
    try {
      differs = await compare(c, facts, body, lang);
    } catch (err) {
      if (err instanceof OfferError) throw new Refusal(409, 'quote_again', 'demo.errQuoteAgain', `point ${err.reason}`);
      throw err;
    }
    if (differs) throw new Refusal(409, 'quote_again', 'demo.errQuoteAgain', `the offer's ${differs} is not the cart's`);
    // The booking the page sends: the shop's sender, the address, the
    // cart's parcels, the offer's service (and drop point).
    const booking = {
      shipping_date: typeof body.shipping_date === 'string' ? body.shipping_date : undefined,
      service_type: 'custom',
      carrier_code: facts.carrier,
      service_code: facts.service,
      ...SENDER,
      ...Object.fromEntries(Object.entries(address).filter(([key, v]) => key.startsWith('to_') && typeof v === 'string')),
      parcels: c.parcels,
      offer: body.offer,
    };
    if (facts.dropPoint) Object.assign(booking, { drop_point_key: body.drop_point_key, point: body.point });
    const errors = (await core()).validate('new-shipment', { ...booking, shipping_client_ref: 'WEB-CHECK' }, { locale: lang, today: true })
      .filter((e) => e.field.startsWith('to_'));
    if (errors.length) throw Object.assign(new Refusal(400, 'address', 'demo.errAddress', errors.map((e) => e.field).join(', ')), { errors });

    // One order reference per cart: placing the order again (a lost
    // answer, a double click, a new choice after a refusal) reuses it, so
    // the edge's exactly-once booking answers a second attempt with the
    // first booking instead of booking twice.
    let o = orders.get(c.id);
    if (o && o.offerTag !== facts.tag && o.bookable.length > 0) await mayReplace(o, facts, lang);
    if (!o || o.offerTag !== facts.tag) {
      // Charge the signed price (a record here: a real shop takes the
      // payment, and refunds the offer this one replaces).
      const source = facts.source || 'live';
      o = { ref: o ? o.ref : orderRef(), offer: body.offer, offerTag: facts.tag, source,
        state: source === 'fallback' ? 'label_pending' : 'charged', expiresAt: Date.parse(facts.expiresAt), price: facts.price,
        // The offers replaced whose grants may still book them stay in the count.
        bookable: o ? o.bookable.filter((b) => now() < b.until) : [],
        service: `${facts.carrier}/${facts.service}`,
        charged: { shipping: euros(cents(facts.price)), total: euros(cents(c.value) + cents(facts.price)), currency: facts.currency } };
      orders.set(c.id, o);
      log(`shop: order ${o.ref} charged ${o.charged.total} ${o.charged.currency} (shipping ${o.charged.shipping}, ${o.service}, ${source})`);
    }
    booking.shipping_client_ref = o.ref;
    if (o.state === 'label_pending') {
      // A fallback offer: the carrier API was down, and the price is the
      // shop's own backup rate for that destination, not a carrier's
      // service the edge can book (it refuses one: 403 offer_fallback).
      // The sale goes on as a real shop's does: charged at the signed
      // price, no booking grant, the order kept as "label pending" for
      // the back-office to book (the master token, edgeclient) once the
      // carrier answers, and the shopper told the label follows.
      log(`shop: order ${o.ref} label pending (a fallback price: the back-office books it)`);
      return { order: o.ref, charged: o.charged, state: o.state };
    }
    const grant = await mintToken(signingKey, { operations: OPERATIONS, shippingClientRef: o.ref, offer: o.offer }, { ttl: TOKEN_TTL, now: now() });
    handedOut(o, grant);
    return { order: o.ref, charged: o.charged, state: o.state, token: grant.token, expiresAt: grant.expiresAt, booking };
  }

  /** Records that a grant bound to the order's offer is out: it may book until it or the offer expires. */
  function handedOut(o, grant) {
    const until = Math.min(Date.parse(grant.expiresAt), o.expiresAt) + IN_FLIGHT_MS;
    const b = o.bookable.find((x) => x.tag === o.offerTag);
    if (b) b.until = Math.max(b.until, until);
    else o.bookable.push({ tag: o.offerTag, service: o.service, price: o.price, currency: o.charged.currency, until });
  }

  /**
   * A different offer for an order whose first offer a grant may have
   * booked (a lost answer, then another service chosen; or the edge
   * refused a booking the page changed): the shop charged the first, and
   * the edge's exactly-once booking would answer the first booking (or
   * 409) to the second. So the second offer is charged only when the
   * order is known not to be booked: the edge says no shipment has the
   * order's reference (read-only, bookedAtEdge). A grant for the first
   * offer may still book it after that read, until it (or its offer)
   * expires and a booking sent with it has landed: the edge books one of
   * the two, never both (one reference), so while that can happen the
   * second offer is charged only if it costs at least every offer a
   * grant may still book (were one of those booked instead, the shop
   * refunds the difference; it never ships for less than it charged). A
   * cheaper one waits: the first charge stands and the shopper is told why.
   */
  async function mayReplace(o, facts, lang) {
    const dearer = o.bookable.find((b) => now() < b.until && (b.currency !== facts.currency || cents(facts.price) < cents(b.price)));
    if (dearer) {
      throw new Refusal(409, 'order_pending', 'demo.errPending', `order ${o.ref}: a grant for ${dearer.service} at ${dearer.price} may still book it`);
    }
    const state = await bookedAtEdge(o.ref, lang);
    if (state === 'booked') {
      o.state = 'booked';
      throw new Refusal(409, 'booked', 'demo.errBooked', `order ${o.ref} is booked with ${o.service}`);
    }
    if (state !== 'not_booked') throw new Refusal(503, 'order_pending', 'demo.errPending', `order ${o.ref}: the edge did not say whether it is booked (${state})`);
    log(`shop: order ${o.ref} not booked with ${o.service}: its charge is replaced`);
  }

  /**
   * Whether the edge booked a shipment with this order reference: it reads
   * its tracking by client_ref with a read-only token the shop mints for
   * that reference (get-shipment-tracking; no booking allowed). 'booked'
   * (an answer), 'not_booked' (404: no shipment with that reference), or
   * why it cannot tell.
   */
  async function bookedAtEdge(ref, lang) {
    try {
      const t = await mintToken(signingKey, { operations: ['get-shipment-tracking'], shippingClientRef: ref }, { ttl: 60, now: now() });
      const res = await fetch(`${edge}/v1/get-shipment-tracking?client_ref=${encodeURIComponent(ref)}`, {
        headers: { Authorization: `Bearer ${t.token}`, 'Accept-Language': lang }, signal: AbortSignal.timeout(10_000),
      });
      const env = await res.json().catch(() => null);
      if (res.status === 200 && env?.status === 'ok') return 'booked';
      if (res.status === 404) return 'not_booked';
      return `HTTP ${res.status}`;
    } catch (err) {
      return String(err && err.name ? err.name : err);
    }
  }

  // POST /orders/token {cart}: a fresh token for the cart's order (the
  // Client renews an expired one; a reloaded page reads its booking). It
  // still binds the order's offer; once that offer expired, it reads only.
  async function orderToken(body) {
    const c = cartOf(body.cart);
    const o = orders.get(c.id);
    if (!o) throw new Refusal(404, 'order_unknown', 'demo.errCart');
    // A label-pending order has no shipment yet: nothing for a page to read or book.
    if (o.state === 'label_pending') throw new Refusal(409, 'label_pending', 'demo.labelFollows');
    let grant = { operations: OPERATIONS, shippingClientRef: o.ref, offer: o.offer };
    try {
      await verifyOffer(keys, o.offer, { now: now() });
    } catch {
      grant = { operations: OPERATIONS.slice(1), shippingClientRef: o.ref };
    }
    const t = await mintToken(signingKey, grant, { ttl: TOKEN_TTL, now: now() });
    if (grant.offer) handedOut(o, t);
    return { token: t.token, expiresAt: t.expiresAt };
  }

  const routes = { '/cart': cart, '/orders': placeOrder, '/orders/token': orderToken };

  return async function handle(req, res) {
    const origin = req.headers.origin;
    const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Vary: 'Origin' };
    if (origin && origins.has(origin)) {
      Object.assign(headers, { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type' });
    }
    const send = (status, body) => res.writeHead(status, headers).end(JSON.stringify(body));
    const path = new URL(req.url, 'http://shop').pathname;
    const route = routes[path];
    if (origin && !origins.has(origin)) return send(403, { status: 'err', data: { code: 'origin', errorMessage: `origin ${origin} is not this shop's` } });
    if (req.method === 'OPTIONS' && route) return res.writeHead(204, headers).end();
    if (!route) return send(404, { status: 'err', data: { code: 'not_found', errorMessage: 'no such path' } });
    if (req.method !== 'POST') return send(405, { status: 'err', data: { code: 'method', errorMessage: 'POST only' } });
    let body = {};
    let lang = langOf(req, null);
    try {
      const chunks = [];
      let size = 0;
      for await (const chunk of req) if ((size += chunk.length) <= MAX_BODY) chunks.push(chunk);
      if (size > MAX_BODY) throw new Refusal(413, 'too_large', 'demo.errOrder');
      try {
        body = size ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        throw new Refusal(400, 'json', 'demo.errOrder', 'the body is not JSON');
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'json', 'demo.errOrder', 'the body is not a JSON object');
      lang = langOf(req, body);
      return send(200, { status: 'ok', data: await route(body, lang) });
    } catch (err) {
      if (!(err instanceof Refusal)) {
        log(`shop: ${path} failed: ${err && err.stack ? err.stack : err}`);
        return send(500, { status: 'err', data: { code: 'internal', errorMessage: text(lang, 'demo.errOrder') } });
      }
      log(`shop: ${path} refused (${err.code}): ${err.message}`);
      const data = { code: err.code, errorMessage: text(lang, err.key) };
      if (err.errors) data.errors = err.errors;
      return send(err.status, { status: 'err', data });
    }
  };
}

/** Runs the shop: flags --port, --host, --edge, --origins (comma-separated), --dev-vars. */
export function main(argv = process.argv.slice(2), env = process.env) {
  const flag = (name, def) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
  };
  const devVars = flag('dev-vars', '');
  const secrets = devVars ? readDevVars(devVars, ['TOKEN_SIGNING_KEY', 'TOKEN_SIGNING_KEY_PREVIOUS']) : {};
  const handle = createShop({
    signingKey: secrets.TOKEN_SIGNING_KEY || env.TOKEN_SIGNING_KEY,
    previousKey: secrets.TOKEN_SIGNING_KEY_PREVIOUS || env.TOKEN_SIGNING_KEY_PREVIOUS,
    edge: flag('edge', 'http://127.0.0.1:8787').replace(/\/+$/, ''),
    origins: flag('origins', 'http://127.0.0.1:8787,http://localhost:8787').split(',').filter(Boolean),
  });
  const host = flag('host', '127.0.0.1');
  const port = Number(flag('port', env.SHOP_PORT || 28787));
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error('shop:', err);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.listen(port, host, () => console.error(`  shop server: http://${host}:${server.address().port}/ (the demo's cart and orders)`));
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}

// Run as a program (node js/demo/server/shop.mjs ...): Node names the module by its real path,
// so a symlinked checkout (the make dev tests' mirrors) is compared by real path too.
const invoked = (() => {
  try {
    return pathToFileURL(fs.realpathSync(process.argv[1] || '')).href;
  } catch {
    return '';
  }
})();
if (import.meta.url === invoked) main();
