// Tienda Demo: a checkout wired to the parcelgate widgets, the edge worker
// that serves this page and the shop's own server (server/shop.mjs, which
// make dev runs beside the worker), as a real shop does it: the page quotes
// through the edge and the shopper chooses; the shop's server keeps the
// cart, verifies the chosen offer, charges its price and mints a booking
// token bound to it; the page books with that token through the edge.

import { Client, ParcelgateError, load } from '../src/index.js';
import { LANGUAGES, entry, fill, intlLocale, language, formatMoney, formatUnit, formatNumber, formatDate, countryName } from '../src/widgets/i18n.js';
import DEMO from './strings.js';

const $ = (id) => document.getElementById(id);
const endpoint = location.origin;
// The shop's server: make dev runs it on DEV_PORT + 20000 (the worker's
// inspector is on DEV_PORT + 10000), on the same host; make dev refuses a
// DEV_PORT above 45535. A page served from a higher port (a test's server
// on an ephemeral port) would make no URL at all: it counts down instead, so
// the fetch is still a request the page (or a test's route) can answer.
const pagePort = Number(location.port || (location.protocol === 'https:' ? 443 : 80));
const shopUrl = `${location.protocol}//${location.hostname}:${pagePort + 20000 <= 65535 ? pagePort + 20000 : pagePort - 20000}`;

// The page's language: ?lang=, else the last one chosen, else Spanish (a
// Madrid shop). The widgets follow the document's lang; the page's own
// texts come from the same table (internal/i18n/ui.go, demo.*) and its
// numbers from the same Intl locale as the widgets'.
let lang = 'es';
const locale = () => intlLocale(lang);

/** A text of the page (demo.*) or of the widgets' table (common.*), in the page's language. */
function T(key, vars) {
  const l = language(lang);
  const v = key.startsWith('demo.') ? DEMO[l][key] ?? DEMO.en[key] : entry(lang, key);
  return fill(v ?? key, vars, locale());
}

// Messages on screen are kept as functions, so a language switch rewrites them.
// No route hint before the route is known: the rate selector already says what it needs (one hint, not two).
const shown = { routeHint: null, modeNote: () => T('demo.sandbox'), orderError: null, labelError: null };

function show(id, text) {
  shown[id] = text;
  const el = $({ routeHint: 'route-hint', modeNote: 'mode-note', orderError: 'order-error', labelError: 'label-error' }[id]);
  el.textContent = text ? text() : '';
  if (id === 'routeHint') el.hidden = !text; // the others are live regions: kept in the page
}

// Where the shop ships from (the rates' origin; the shop's server adds
// its sender address to the booking).
const ORIGIN = { city: 'Madrid', country: 'ES', zip: '28014' };
// The names of the shop's articles (the cart itself comes from its server).
const ARTICLES = {
  mug: () => T('demo.item.mug'),
  bowl: (line) => T('demo.item.bowl', { size: formatUnit(line.size, 'centimeter', locale()) }),
};
// The shop's rule (PRICING_RULES in wrangler.toml's [env.dev.vars]): the
// edge prices the services, the page only says so.
const FREE_DROP_POINT_FROM = 60;

const state = {
  mode: 'home',
  service: null,
  dropPoint: null,
  cart: null, // the shop's server's: {id, lines, value, currency, parcels}
  orderRef: '',
  booking: null,
  upstream: 'unknown',
};

// The checkout survives a reload: the cart's id (the shop's server keeps
// one order reference per cart, so a retry after a lost answer, even from
// a reloaded page, cannot book twice) and, once booked, the confirmation.
// sessionStorage: this tab only.
const STORE_KEY = 'tienda-demo-checkout';
// The delivery mode, for a reload (the widgets keep the chosen service and point themselves).
const MODE_KEY = 'tienda-demo-mode';
const ADDRESS_KEY = 'tienda-demo-address';

function saved() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE_KEY) || 'null') || {};
  } catch {
    return {};
  }
}

function save(v) {
  try {
    sessionStorage.setItem(STORE_KEY, JSON.stringify(v));
  } catch {
    // storage full or disabled: the page still works, without surviving a reload
  }
}

/** A refusal of the shop's server: its code and the sentence it wrote in the shopper's language. */
class ShopError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** POSTs to the shop's server; resolves with its data, rejects with a ShopError (status 0: not answering). */
async function shop(path, body) {
  let res;
  let env = null;
  try {
    res = await fetch(shopUrl + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ ...body, lang }),
    });
    env = await res.json();
  } catch (err) {
    console.error(`[tienda-demo] the shop's server (${shopUrl}) did not answer:`, err);
    throw new ShopError(0, 'shop_down', T('demo.errShop'));
  }
  if (!res.ok || !env || env.status !== 'ok') {
    throw new ShopError(res.status, env?.data?.code || 'unknown', env?.data?.errorMessage || T('demo.errOrder'));
  }
  return env.data;
}

/** The next working day (Mon-Fri) as YYYY-MM-DD, local time. */
function nextWorkingDay(from = new Date()) {
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + 1);
  while (d.getDay() === 0 || d.getDay() === 6) d.setDate(d.getDate() + 1);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

const eur = { format: (n) => formatMoney(n, 'EUR', locale()) };
const kg = (n) => formatUnit(n, 'kilogram', locale(), { maximumFractionDigits: 2 });
const subtotal = () => (state.cart ? Number(state.cart.value) : 0);

function renderCart() {
  $('items').innerHTML = '';
  for (const line of state.cart ? state.cart.lines : []) {
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = T('demo.item.line', { qty: formatNumber(line.qty, locale()), name: (ARTICLES[line.sku] || (() => line.sku))(line) });
    const small = document.createElement('small');
    small.textContent = T('demo.item.weight', { weight: kg(Number(line.weight)) });
    name.append(small);
    const price = document.createElement('span');
    price.textContent = eur.format(line.qty * Number(line.price));
    li.append(name, price);
    $('items').append(li);
  }
  const p = state.cart && state.cart.parcels[0];
  const n = (x) => formatNumber(x, locale());
  $('parcel-note').textContent = p ? T('demo.parcel', {
    size: `${n(p.parcel_length)} × ${n(p.parcel_width)} × ${formatUnit(p.parcel_height, 'centimeter', locale())}`,
    weight: kg(p.parcel_weight),
  }) : '';
  $('free-note').textContent = T('demo.freeDropPoint', { amount: formatMoney(FREE_DROP_POINT_FROM, 'EUR', locale()) });
  renderTotals();
}

function renderTotals() {
  const s = state.service;
  const shipping = s && Number.isFinite(Number(s.price)) ? Number(s.price) : null;
  $('subtotal').textContent = eur.format(subtotal());
  $('shipping-cost').textContent = shipping === null ? T('demo.chooseService') : eur.format(shipping);
  $('total').textContent = eur.format(subtotal() + (shipping || 0));
}

const address = $('address');
const rates = $('rates');
const dropPoints = $('drop-points');
const shippingDate = nextWorkingDay();

/** The cart from the shop's server: what the rates are asked for. */
function useCart(cart) {
  state.cart = cart;
  rates.parcels = cart.parcels;
  // The cart's value: the edge's pricing rules (make dev: drop points
  // free from 60 €, wrangler.toml's [env.dev.vars] PRICING_RULES).
  rates.orderValue = cart.value;
  renderCart();
}

function setupWidgets() {
  rates.setAttribute('shipping-date', shippingDate);
  for (const [k, v] of Object.entries({ 'from-country': ORIGIN.country, 'from-zip': ORIGIN.zip })) {
    rates.setAttribute(k, v);
  }

  // The destination follows the address form once its postal code and
  // country are valid.
  address.addEventListener('pg-change', (ev) => {
    const { value, errors } = ev.detail;
    try {
      // Kept for a reload (this tab only), as the widgets keep the choice:
      // the same address brings the chosen service and point back.
      sessionStorage.setItem(ADDRESS_KEY, JSON.stringify(value));
    } catch {
      // no storage: a reload starts with an empty form
    }
    followAddress(value, errors);
  });
  // The address of this tab before a reload (the browser does not restore the form's widgets).
  try {
    const kept = JSON.parse(sessionStorage.getItem(ADDRESS_KEY) || 'null');
    if (kept && typeof kept === 'object') {
      address.value = kept;
      followAddress(address.value, []);
    }
  } catch {
    // nothing kept
  }

  for (const radio of document.querySelectorAll('input[name=mode]')) {
    radio.addEventListener('change', () => setMode(radio.value));
  }

  rates.addEventListener('pg-select', (ev) => {
    state.service = ev.detail.service || null;
    if (state.mode === 'drop-point') {
      if (state.service) dropPoints.setAttribute('carrier', state.service.carrier_code);
      else dropPoints.removeAttribute('carrier');
    }
    clearError();
    renderTotals();
  });
  dropPoints.addEventListener('pg-select', (ev) => {
    state.dropPoint = ev.detail.dropPoint || null;
    clearError();
  });
}

/** The rates and drop points follow the address once its postal code and country are valid. */
function followAddress(value, errors) {
  const bad = new Set((errors || []).map((e) => e.field));
  const zip = value.to_zip_code;
  const country = value.to_country_code;
  if (!zip || !country || bad.has('to_zip_code') || bad.has('to_country_code')) return;
  if (rates.getAttribute('to-zip') === zip && rates.getAttribute('to-country') === country) return;
  rates.setAttribute('to-country', country);
  rates.setAttribute('to-zip', zip);
  dropPoints.setAttribute('country', country);
  dropPoints.setAttribute('zip-code', zip);
  show('routeHint', () =>
    T('demo.route', {
      from: ORIGIN.city,
      zip,
      country: countryName(country, locale()),
      date: formatDate(shippingDate, locale(), { weekday: 'long', day: 'numeric', month: 'long' }),
    }),
  );
}

function setMode(mode) {
  state.mode = mode;
  state.service = null;
  state.dropPoint = null;
  rates.setAttribute('filter', mode);
  $('drop-point-step').hidden = mode !== 'drop-point';
  // A point is needed to submit only when picking up (the picker's own
  // message, "Choose a drop point.", at the picker).
  dropPoints.required = mode === 'drop-point';
  try {
    // Kept for a reload, so the widgets can restore a drop-point choice.
    sessionStorage.setItem(MODE_KEY, mode);
  } catch {
    // no storage: a reload starts with home delivery
  }
  renderTotals();
}

function clearError() {
  show('orderError', null);
}

function fail(message) {
  show('orderError', message);
}

// What the shopper reads when a call failed: the sentence of its category
// (the widgets' common.error.*); the Client's message goes to the console.
function reason(err) {
  console.error('[tienda-demo]', err);
  const c = err && err.category;
  const known = ['rate_limited', 'network', 'timeout', 'configuration', 'unauthorized', 'upstream_unavailable'];
  return T(`common.error.${known.includes(c) ? c : 'unknown'}`);
}

/**
 * After a refusal of what was chosen (by the shop's server, or by the edge
 * because the booking was not the offer the token is bound to): the choice
 * is cleared and the services (and drop points) are quoted again.
 */
function quoteAgain() {
  state.service = null;
  state.dropPoint = null;
  rates.value = '';
  dropPoints.value = '';
  renderTotals();
  rates.refresh();
  if (state.mode === 'drop-point') dropPoints.refresh();
}

/** A refusal by the edge of a booking that is not its offer: 403 offer_*, or 400 naming offer or point. */
function offerRefused(err) {
  return err instanceof ParcelgateError && err.operation === 'new-shipment' &&
    (err.status === 403 || err.fieldErrors.some((e) => e.field === 'offer' || e.field === 'point'));
}

let placing = false;
let placingText = false;

async function placeOrder(ev) {
  ev.preventDefault();
  if (placing) return; // one booking at a time, whatever the clicks
  clearError();
  if (!address.validate()) {
    fail(() => T('demo.errAddress'));
    return;
  }
  // The widgets' own validity (the form is novalidate: the address is
  // checked above with the page's message): a service is required, and a
  // point while picking up; the browser shows the widget's message at it
  // and focuses it.
  if (!rates.reportValidity() || !state.service) {
    fail(() => T('demo.errService'));
    if (rates.validity?.valid !== false) rates.focus?.();
    return;
  }
  if (!dropPoints.reportValidity() || (state.mode === 'drop-point' && !state.dropPoint)) {
    fail(() => T('demo.errDropPoint'));
    return;
  }
  if (!state.cart) {
    // The shop's server did not answer with a cart: ask again.
    if (!(await loadCart(''))) return;
  }

  placing = true;
  const button = $('place-order');
  button.disabled = true;
  placingText = true;
  button.textContent = T('demo.placing');
  try {
    // 1. The shop's server: the cart's id, the chosen offer (and point) and
    // the address. It verifies the offer against its cart, charges the
    // signed price and answers a token bound to that offer, with the
    // booking it checked (its sender, the cart's parcels, the offer's service).
    const s = state.service;
    const placed = await shop('/orders', {
      cart: state.cart.id,
      offer: s.offer,
      ...(state.mode === 'drop-point' ? { point: state.dropPoint.point || '', drop_point_key: state.dropPoint.drop_point_key } : {}),
      address: address.value,
      shipping_date: shippingDate,
    });
    state.orderRef = placed.order;
    save({ cart: state.cart.id, orderRef: state.orderRef });
    const a = address.value;
    const chosen = {
      charged: placed.charged,
      carrier: `${s.carrier_name || s.carrier_code} · ${s.service_name || s.service_code}`,
      delivery: state.mode === 'drop-point'
        ? { point: { name: state.dropPoint.name, address: state.dropPoint.address, city: state.dropPoint.city } }
        : { home: { address: a.to_address, zip: a.to_zip_code, city: a.to_city } },
    };
    if (placed.state === 'label_pending') {
      // A fallback price (the carrier API was down): the shop charged it
      // and books the shipment itself later; there is nothing to book
      // here (the edge refuses a fallback offer), and the label follows.
      state.booking = { ...chosen, ref: '', labelPending: true, trackingUrl: '' };
      save({ cart: state.cart.id, orderRef: state.orderRef, booking: state.booking });
      showConfirmation();
      return;
    }
    // 2. Book through the edge with that token: the edge books the offer
    // it is bound to, or refuses (the offer and point are checked and
    // stripped before the upstream).
    const client = bookingClient(placed);
    const booked = await client.newShipment(placed.booking, { locale: document.documentElement.lang });
    state.booking = { ...chosen, client, ref: booked.shipping_dlvr_ref, trackingUrl: booked.advance_tracking_url || '' };
    const { client: _c, ...kept } = state.booking;
    save({ cart: state.cart.id, orderRef: state.orderRef, booking: kept });
    showConfirmation();
  } catch (err) {
    console.error('[tienda-demo] booking failed:', err);
    if (err instanceof ShopError && err.code === 'quote_again') {
      fail(() => T('demo.errQuoteAgain'));
      quoteAgain();
    } else if (err instanceof ShopError && err.code === 'order_pending') {
      // Another service after a lost answer: the first may be booking.
      // The shop keeps the first charge until it knows (its server asks the edge).
      fail(() => T('demo.errPending'));
    } else if (err instanceof ShopError && err.code === 'booked') {
      fail(() => T('demo.errBooked'));
    } else if (err instanceof ShopError && err.code === 'cart_unknown') {
      // The shop's server forgot the cart (restarted): a new one.
      fail(() => T('demo.errCart'));
      await loadCart('');
    } else if (err instanceof ShopError && err.code === 'demo_remote') {
      fail(() => T('demo.remote'));
    } else if (err instanceof ShopError) {
      const said = err.message;
      fail(() => (err.code === 'shop_down' ? T('demo.errShop') : said));
    } else if (offerRefused(err)) {
      // The edge refused a booking that is not the offer the token is
      // bound to (changed by a script, or stale): nothing was booked.
      fail(() => T('demo.errQuoteAgain'));
      quoteAgain();
    } else if (err instanceof ParcelgateError && ['upstream_unavailable', 'timeout', 'network', 'booking_unconfirmed'].includes(err.category)) {
      // The answer was lost: the booking may exist. Placing the order again
      // sends the same order reference, which the service answers with the
      // first booking instead of booking twice.
      fail(() => T('demo.errLost', { button: T('demo.placeOrder') }));
    } else if (err && err.category === 'demo_remote') {
      fail(() => T('demo.remote'));
    } else if (err instanceof ParcelgateError && err.category === 'validation' && err.fieldErrors.some((e) => e.field.startsWith('to_'))) {
      address.validate();
      fail(() => T('demo.errAddress'));
    } else {
      fail(() => `${T('demo.errOrder')} ${reason(err)}`);
    }
  } finally {
    placing = false;
    placingText = false;
    button.disabled = false;
    button.textContent = T('demo.placeOrder');
  }
}

function showConfirmation() {
  const b = state.booking;
  $('order-ref').textContent = state.orderRef;
  // Label pending (a fallback price): no shipment, label or tracking yet.
  const pending = Boolean(b.labelPending);
  for (const id of ['dlvr-ref-term', 'dlvr-ref', 'download-label', 'tracking-title', 'tracking']) $(id).hidden = pending;
  $('label-follows').hidden = !pending;
  $('dlvr-ref').textContent = b.ref;
  $('booked-carrier').textContent = b.carrier;
  $('booked-delivery').textContent = deliveryText(b.delivery);
  renderPaid();
  if (b.trackingUrl) $('booked-delivery').title = b.trackingUrl;
  $('checkout').hidden = true;
  const box = $('confirmation');
  box.hidden = false;
  const timeline = $('tracking');
  if (pending) {
    timeline.removeAttribute('reference');
  } else {
    timeline.client = b.client;
    timeline.setAttribute('reference', b.ref);
  }
  box.focus();
}

// The booked delivery in the page's language (a string: saved by an older page).
function deliveryText(d) {
  if (!d || typeof d === 'string') return d || '';
  if (d.point) return T('demo.deliveryDropPoint', d.point);
  return T('demo.deliveryHome', d.home);
}

/**
 * A Client for the current order: the token the shop's server answered
 * with the order first, then fresh ones from it when the edge refuses an
 * expired one (or after a reload).
 */
function bookingClient(placed, cart = state.cart ? state.cart.id : '') {
  let first = placed ? { token: placed.token, expiresAt: placed.expiresAt } : null;
  const token = async () => {
    if (first) {
      const t = first;
      first = null;
      return t;
    }
    return shop('/orders/token', { cart });
  };
  return new Client({ baseUrl: endpoint, token, validateOptions: { today: true } });
}

async function downloadLabel() {
  const { ref } = state.booking;
  const button = $('download-label');
  show('labelError', null);
  button.disabled = true;
  try {
    // The Client renews the order's token itself when it expires.
    const label = await state.booking.client.label({ dlvr_ref: ref });
    const url = URL.createObjectURL(label.blob());
    const a = $('label-link');
    a.href = url;
    a.download = `label-${ref}.pdf`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (err) {
    const why = reason(err);
    show('labelError', () => `${T('demo.labelError')} ${why}`);
  } finally {
    button.disabled = false;
  }
}

async function newOrder() {
  state.orderRef = '';
  state.booking = null;
  $('tracking').removeAttribute('reference');
  $('confirmation').hidden = true;
  $('checkout').hidden = false;
  await loadCart('');
}

/**
 * The cart of that id from the shop's server (a new one when it has none),
 * saved for a reload unless the tab's confirmation is still on screen.
 */
async function loadCart(id) {
  try {
    const cart = await shop('/cart', { cart: id });
    useCart(cart);
    if (cart.id !== id && !state.booking) save({ cart: cart.id });
    return cart;
  } catch (err) {
    fail(() => T('demo.errShop'));
    return null;
  }
}

async function showMode() {
  try {
    const res = await fetch('/healthz');
    const body = await res.json();
    state.upstream = body?.data?.upstream || 'unknown';
  } catch {
    state.upstream = 'unreachable';
  }
  if (state.upstream === 'remote') show('modeNote', () => T('demo.remote'));
  else if (state.upstream === 'unreachable') show('modeNote', () => T('demo.unreachable'));
}

/** Restores this tab's checkout: its cart, and its confirmation once booked. */
async function restore() {
  try {
    const mode = sessionStorage.getItem(MODE_KEY);
    const radio = document.querySelector(`input[name=mode][value="${mode === 'drop-point' ? 'drop-point' : 'home'}"]`);
    radio.checked = true;
    setMode(radio.value);
  } catch {
    // no storage
  }
  const v = saved();
  if (!v.booking || !(v.booking.ref || v.booking.labelPending)) {
    await loadCart(v.cart || '');
    return;
  }
  // Booked: the confirmation from this tab's record, its token from the shop's server (by the cart's id).
  state.orderRef = v.orderRef || '';
  try {
    state.booking = { ...v.booking, client: v.booking.labelPending ? null : bookingClient(null, v.cart) };
    showConfirmation();
  } catch (err) {
    console.error('[tienda-demo] the saved order cannot be shown:', err);
    fail(() => T('demo.restoreError', { order: state.orderRef, ref: v.booking.ref }));
  }
}

// The page's texts in the current language: the marked elements, the
// footer, the cart and totals, and every message on screen.
function applyTexts() {
  document.title = T('demo.title');
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = T(el.dataset.t);
  for (const el of document.querySelectorAll('[data-t-aria-label]')) el.setAttribute('aria-label', T(el.dataset.tAriaLabel));
  // The footer: its sentence around the link and the endpoint.
  const footer = $('footer');
  const link = $('footer-link');
  const code = $('endpoint');
  const parts = T('demo.footer').split(/(\{link\}|\{endpoint\})/);
  footer.replaceChildren(...parts.map((p) => (p === '{link}' ? link : p === '{endpoint}' ? code : document.createTextNode(p))));
  link.textContent = T('demo.product');
  if (placingText) $('place-order').textContent = T('demo.placing');
  for (const id of Object.keys(shown)) show(id, shown[id]);
  renderCart();
  if (state.booking) $('booked-delivery').textContent = deliveryText(state.booking.delivery);
  if (state.booking) renderPaid();
}

// What the shop's server charged (the signed price of the booked offer).
function renderPaid() {
  const c = state.booking.charged;
  $('paid-shipping').textContent = c ? eur.format(Number(c.shipping)) : '';
  $('paid-total').textContent = c ? eur.format(Number(c.total)) : '';
}

// Switches the whole page: the document's lang (the widgets follow it),
// the address (?lang=) and the page's own texts.
function setLanguage(l) {
  lang = LANGUAGES.includes(l) ? l : 'es';
  document.documentElement.lang = lang;
  try {
    localStorage.setItem('pg-demo-lang', lang);
    const url = new URL(location.href);
    url.searchParams.set('lang', lang);
    history.replaceState(history.state, '', url);
  } catch {
    // private mode or a sandboxed frame: the choice lasts for this page only
  }
  applyTexts();
}

{
  let chosen = new URLSearchParams(location.search).get('lang');
  if (!chosen) {
    try {
      chosen = localStorage.getItem('pg-demo-lang');
    } catch {
      // no storage
    }
  }
  const select = $('lang');
  if (chosen && [...select.options].some((o) => o.value === chosen)) select.value = chosen;
  setLanguage(select.value);
  select.addEventListener('change', () => setLanguage(select.value));
}

$('endpoint').textContent = endpoint;
renderCart();
setupWidgets();
restore();
$('order-form').addEventListener('submit', placeOrder);
$('download-label').addEventListener('click', downloadLabel);
$('new-order').addEventListener('click', newOrder);
showMode();
// Start fetching and compiling the core while the shopper reads the page.
load().catch((err) => {
  console.error('[tienda-demo] the validation module did not load:', err);
  fail(() => T('demo.errModule'));
});
