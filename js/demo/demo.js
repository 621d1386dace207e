// Tienda Demo: a checkout wired to the parcelgate widgets and the edge
// worker that serves this page. Everything a real shop would do is here,
// except one thing: where the order's token comes from. A real shop's
// server mints a scoped token per order (POST /tokens with PROXY_TOKEN, or
// mintToken); this demo has no server, so it asks the worker's /demo/token,
// which mints the same kind of token for one order and exists only while the
// worker's upstream is the embedded sandbox.

import { Client, ParcelgateError, load } from '../src/index.js';
import { LANGUAGES, entry, fill, intlLocale, language, formatMoney, formatUnit, formatNumber, formatDate, countryName } from '../src/widgets/i18n.js';
import DEMO from './strings.js';

const $ = (id) => document.getElementById(id);
const endpoint = location.origin;

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

// The shop: who ships, what is in the cart, how it is packed.
const SHOP = {
  from_name: 'Tienda Demo',
  from_address: 'Calle de Alcalá 1',
  from_city: 'Madrid',
  from_zip_code: '28014',
  from_country_code: 'ES',
  from_phone: '910000000',
  from_email: 'envios@tienda-demo.example',
};
const CART = [
  { name: () => T('demo.item.mug'), qty: 2, price: 18.5, weight: 0.45 },
  { name: () => T('demo.item.bowl', { size: formatUnit(24, 'centimeter', locale()) }), qty: 1, price: 42, weight: 1.1 },
];
// The shop's rule (PRICING_RULES in wrangler.toml's [env.dev.vars]): the
// edge prices the services, the page only says so.
const FREE_DROP_POINT_FROM = 60;
const BOX = { parcel_width: 30, parcel_height: 20, parcel_length: 40, packing: 0.35 };

const state = {
  mode: 'home',
  service: null,
  dropPoint: null,
  orderRef: '',
  booking: null,
  upstream: 'unknown',
};

// The checkout survives a reload: the order reference (so a retry after a
// lost answer, even from a reloaded page, reuses it and cannot book twice)
// and, once booked, the confirmation. sessionStorage: this tab only.
const STORE_KEY = 'tienda-demo-checkout';

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

function newOrderRef() {
  // At most 15 characters (the spec's limit for shipping_client_ref). Kept
  // for every attempt of this checkout, so a retry after a lost answer is
  // answered with the first booking instead of booking twice.
  return `WEB-${Date.now().toString(36).toUpperCase()}`.slice(0, 15);
}

function parcel() {
  const weight = CART.reduce((s, i) => s + i.qty * i.weight, 0) + BOX.packing;
  return {
    parcel_weight: Math.round(weight * 100) / 100,
    parcel_width: BOX.parcel_width,
    parcel_height: BOX.parcel_height,
    parcel_length: BOX.parcel_length,
    parcel_volume: BOX.parcel_width * BOX.parcel_height * BOX.parcel_length,
  };
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
const subtotal = () => CART.reduce((s, i) => s + i.qty * i.price, 0);

function renderCart() {
  $('items').innerHTML = '';
  for (const item of CART) {
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = T('demo.item.line', { qty: formatNumber(item.qty, locale()), name: item.name() });
    const small = document.createElement('small');
    small.textContent = T('demo.item.weight', { weight: kg(item.weight) });
    name.append(small);
    const price = document.createElement('span');
    price.textContent = eur.format(item.qty * item.price);
    li.append(name, price);
    $('items').append(li);
  }
  const p = parcel();
  const n = (x) => formatNumber(x, locale());
  $('parcel-note').textContent = T('demo.parcel', {
    size: `${n(p.parcel_length)} × ${n(p.parcel_width)} × ${formatUnit(p.parcel_height, 'centimeter', locale())}`,
    weight: kg(p.parcel_weight),
  });
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

function setupWidgets() {
  rates.parcels = [parcel()];
  // The cart's value: the edge's pricing rules (make dev: drop points
  // free from 60 €, wrangler.toml's [env.dev.vars] PRICING_RULES).
  rates.orderValue = subtotal().toFixed(2);
  rates.setAttribute('shipping-date', shippingDate);
  for (const [k, v] of Object.entries({ 'from-country': SHOP.from_country_code, 'from-zip': SHOP.from_zip_code })) {
    rates.setAttribute(k, v);
  }

  // The destination follows the address form once its postal code and
  // country are valid.
  address.addEventListener('pg-change', (ev) => {
    const { value, errors } = ev.detail;
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
        from: SHOP.from_city,
        zip,
        country: countryName(country, locale()),
        date: formatDate(shippingDate, locale(), { weekday: 'long', day: 'numeric', month: 'long' }),
      }),
    );
  });

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

function setMode(mode) {
  state.mode = mode;
  state.service = null;
  state.dropPoint = null;
  rates.setAttribute('filter', mode);
  $('drop-point-step').hidden = mode !== 'drop-point';
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
 * Asks the worker for a token for one order (sandbox only): it books that
 * order and reads what was booked with it, nothing else. Returns the
 * {token, expiresAt} the Client caches and renews.
 */
async function demoToken(orderRef, offer) {
  // The grant is bound to the chosen service's offer (issue 30): the
  // booking must be the one quoted, whatever the page's script sends.
  const res = await fetch('/demo/token', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ shipping_client_ref: orderRef, offer: offer || '' }),
  });
  let body = null;
  try {
    body = await res.json();
  } catch {
    // handled below
  }
  if (res.status === 404) {
    throw Object.assign(new Error('this worker has a real upstream configured: /demo/token exists only with the embedded sandbox'), { category: 'demo_remote' });
  }
  if (!res.ok || !body || body.status !== 'ok') {
    throw Object.assign(new Error(body?.data?.errorMessage || `the token endpoint answered HTTP ${res.status}`), {
      category: res.status === 429 ? 'rate_limited' : 'unknown',
    });
  }
  return { token: body.data.token, expiresAt: body.data.expires_at };
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
  if (!state.service) {
    fail(() => T('demo.errService'));
    rates.focus?.();
    return;
  }
  if (state.mode === 'drop-point' && !state.dropPoint) {
    fail(() => T('demo.errDropPoint'));
    return;
  }

  placing = true;
  const button = $('place-order');
  button.disabled = true;
  placingText = true;
  button.textContent = T('demo.placing');
  try {
    const client = await bookingClient(state.service.offer);
    const request = {
      shipping_date: shippingDate,
      service_type: 'custom',
      carrier_code: state.service.carrier_code,
      service_code: state.service.service_code,
      shipping_client_ref: state.orderRef,
      ...SHOP,
      ...address.value,
      parcels: [parcel()],
    };
    // The signed offer and drop point travel with the booking; the edge
    // checks them and strips them before the upstream.
    if (state.service.offer) request.offer = state.service.offer;
    if (state.mode === 'drop-point') {
      request.drop_point_key = state.dropPoint.drop_point_key;
      if (state.dropPoint.point) request.point = state.dropPoint.point;
    }
    const booked = await client.newShipment(request, { locale: document.documentElement.lang });
    const s = state.service;
    const a = address.value;
    state.booking = {
      client,
      ref: booked.shipping_dlvr_ref,
      carrier: `${s.carrier_name || s.carrier_code} · ${s.service_name || s.service_code}`,
      delivery: state.mode === 'drop-point'
        ? { point: { name: state.dropPoint.name, address: state.dropPoint.address, city: state.dropPoint.city } }
        : { home: { address: a.to_address, zip: a.to_zip_code, city: a.to_city } },
      trackingUrl: booked.advance_tracking_url || '',
    };
    const { client: _c, ...kept } = state.booking;
    save({ orderRef: state.orderRef, booking: kept });
    showConfirmation();
  } catch (err) {
    console.error('[tienda-demo] booking failed:', err);
    if (err instanceof ParcelgateError && ['upstream_unavailable', 'timeout', 'network', 'booking_unconfirmed'].includes(err.category)) {
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
  $('dlvr-ref').textContent = b.ref;
  $('booked-carrier').textContent = b.carrier;
  $('booked-delivery').textContent = deliveryText(b.delivery);
  if (b.trackingUrl) $('booked-delivery').title = b.trackingUrl;
  $('checkout').hidden = true;
  const box = $('confirmation');
  box.hidden = false;
  const timeline = $('tracking');
  timeline.client = b.client;
  timeline.setAttribute('reference', b.ref);
  box.focus();
}

// The booked delivery in the page's language (a string: saved by an older page).
function deliveryText(d) {
  if (!d || typeof d === 'string') return d || '';
  if (d.point) return T('demo.deliveryDropPoint', d.point);
  return T('demo.deliveryHome', d.home);
}

/** A Client for the current order: its token is fetched when first needed and renewed on expiry. */
async function bookingClient(offer) {
  const orderRef = state.orderRef;
  const client = new Client({ baseUrl: endpoint, token: () => demoToken(orderRef, offer), validateOptions: { today: true } });
  return client;
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

function newOrder() {
  state.orderRef = newOrderRef();
  state.booking = null;
  save({ orderRef: state.orderRef });
  $('tracking').removeAttribute('reference');
  $('confirmation').hidden = true;
  $('checkout').hidden = false;
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

/** Restores this tab's checkout: its order reference, or its confirmation. */
async function restore() {
  const v = saved();
  state.orderRef = v.orderRef || newOrderRef();
  save({ orderRef: state.orderRef, booking: v.booking });
  if (!v.booking || !v.booking.ref) return;
  try {
    state.booking = { ...v.booking, client: await bookingClient() };
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
