// Tienda Demo: a checkout wired to the parcelgate widgets and the edge
// worker that serves this page. Everything a real shop would do is here,
// except one thing: where the order's token comes from. A real shop's
// server mints a scoped token per order (POST /tokens with PROXY_TOKEN, or
// mintToken); this demo has no server, so it asks the worker's /demo/token,
// which mints the same kind of token for one order and exists only while the
// worker's upstream is the embedded sandbox.

import { Client, ParcelgateError, load } from '../src/index.js';

const $ = (id) => document.getElementById(id);
const endpoint = location.origin;

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
  { name: 'Stoneware mug, terracotta', qty: 2, price: 18.5, weight: 0.45 },
  { name: 'Serving bowl, 24 cm', qty: 1, price: 42, weight: 1.1 },
];
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

const eur = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' });
const subtotal = () => CART.reduce((s, i) => s + i.qty * i.price, 0);

function renderCart() {
  $('items').innerHTML = '';
  for (const item of CART) {
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = `${item.qty} × ${item.name}`;
    const small = document.createElement('small');
    small.textContent = `${item.weight} kg each`;
    name.append(small);
    const price = document.createElement('span');
    price.textContent = eur.format(item.qty * item.price);
    li.append(name, price);
    $('items').append(li);
  }
  const p = parcel();
  $('parcel-note').textContent =
    `Packed in one box: ${p.parcel_length}×${p.parcel_width}×${p.parcel_height} cm, ${p.parcel_weight} kg.`;
  renderTotals();
}

function renderTotals() {
  const s = state.service;
  const shipping = s && Number.isFinite(Number(s.price)) ? Number(s.price) : null;
  $('subtotal').textContent = eur.format(subtotal());
  $('shipping-cost').textContent = shipping === null ? 'choose a service' : eur.format(shipping);
  $('total').textContent = eur.format(subtotal() + (shipping || 0));
}

const address = $('address');
const rates = $('rates');
const dropPoints = $('drop-points');
const shippingDate = nextWorkingDay();

function setupWidgets() {
  rates.parcels = [parcel()];
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
    $('route-hint').textContent = `Services from Madrid to ${zip} (${country}), dispatch on ${shippingDate}.`;
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
  $('order-error').textContent = '';
}

function fail(message) {
  $('order-error').textContent = message;
}

/**
 * Asks the worker for a token for one order (sandbox only): it books that
 * order and reads what was booked with it, nothing else. Returns the
 * {token, expiresAt} the Client caches and renews.
 */
async function demoToken(orderRef) {
  const res = await fetch('/demo/token', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ shipping_client_ref: orderRef }),
  });
  let body = null;
  try {
    body = await res.json();
  } catch {
    // handled below
  }
  if (res.status === 404) {
    throw new Error('This worker has a real upstream configured, so the demo cannot book: its token endpoint exists only with the embedded sandbox.');
  }
  if (!res.ok || !body || body.status !== 'ok') {
    throw new Error(body?.data?.errorMessage || `the token endpoint answered HTTP ${res.status}`);
  }
  return { token: body.data.token, expiresAt: body.data.expires_at };
}

let placing = false;

async function placeOrder(ev) {
  ev.preventDefault();
  if (placing) return; // one booking at a time, whatever the clicks
  clearError();
  if (!address.validate()) {
    fail('Please check the delivery address.');
    return;
  }
  if (!state.service) {
    fail('Please choose a delivery service.');
    rates.focus?.();
    return;
  }
  if (state.mode === 'drop-point' && !state.dropPoint) {
    fail('Please choose a drop point.');
    return;
  }

  placing = true;
  const button = $('place-order');
  button.disabled = true;
  button.textContent = 'Booking…';
  try {
    const client = await bookingClient();
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
    if (state.mode === 'drop-point') request.drop_point_key = state.dropPoint.drop_point_key;
    const booked = await client.newShipment(request);
    const s = state.service;
    state.booking = {
      client,
      ref: booked.shipping_dlvr_ref,
      carrier: `${s.carrier_name || s.carrier_code} · ${s.service_name || s.service_code}`,
      delivery: state.mode === 'drop-point'
        ? `Drop point: ${state.dropPoint.name}, ${state.dropPoint.address}, ${state.dropPoint.city}`
        : `Home: ${address.value.to_address}, ${address.value.to_zip_code} ${address.value.to_city}`,
      trackingUrl: booked.advance_tracking_url || '',
    };
    const { client: _c, ...kept } = state.booking;
    save({ orderRef: state.orderRef, booking: kept });
    showConfirmation();
  } catch (err) {
    if (err instanceof ParcelgateError && (err.category === 'upstream_unavailable' || err.category === 'timeout' || err.category === 'network')) {
      // The answer was lost: the booking may exist. Placing the order again
      // sends the same order reference, which the service answers with the
      // first booking instead of booking twice.
      fail(`${err.message} The booking may have been made: press "Place order" again to check (the same order reference is used, so it cannot be booked twice).`);
    } else if (err instanceof ParcelgateError) {
      fail(err.message);
    } else {
      fail(err.message || String(err));
    }
  } finally {
    placing = false;
    button.disabled = false;
    button.textContent = 'Place order';
  }
}

function showConfirmation() {
  const b = state.booking;
  $('order-ref').textContent = state.orderRef;
  $('dlvr-ref').textContent = b.ref;
  $('booked-carrier').textContent = b.carrier;
  $('booked-delivery').textContent = b.delivery;
  if (b.trackingUrl) $('booked-delivery').title = b.trackingUrl;
  $('checkout').hidden = true;
  const box = $('confirmation');
  box.hidden = false;
  const timeline = $('tracking');
  timeline.client = b.client;
  timeline.setAttribute('reference', b.ref);
  box.focus();
}

/** A Client for the current order: its token is fetched when first needed and renewed on expiry. */
async function bookingClient() {
  const orderRef = state.orderRef;
  const client = new Client({ baseUrl: endpoint, token: () => demoToken(orderRef), validateOptions: { today: true } });
  return client;
}

async function downloadLabel() {
  const { ref } = state.booking;
  const button = $('download-label');
  $('label-error').textContent = '';
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
    $('label-error').textContent = `The label could not be downloaded: ${err.message}`;
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
  $('endpoint').textContent = endpoint;
  try {
    const res = await fetch('/healthz');
    const body = await res.json();
    state.upstream = body?.data?.upstream || 'unknown';
  } catch {
    state.upstream = 'unreachable';
  }
  if (state.upstream === 'remote') {
    $('mode-note').textContent = 'This worker forwards to a real shipping service: the demo shows rates and drop points, but cannot book.';
  } else if (state.upstream === 'unreachable') {
    $('mode-note').textContent = 'The edge worker did not answer /healthz.';
  }
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
    $('order-error').textContent = `Your order ${state.orderRef} is booked (${v.booking.ref}), but its details cannot be shown: ${err.message}`;
  }
}

renderCart();
setupWidgets();
restore();
$('order-form').addEventListener('submit', placeOrder);
$('download-label').addEventListener('click', downloadLabel);
$('new-order').addEventListener('click', newOrder);
showMode();
// Start fetching and compiling the core while the shopper reads the page.
// The language of the checks' messages: Spanish by default (a Madrid
// shop), switched for the whole page; the widgets follow the document's
// lang (the address form re-validates when its lang attribute changes).
function setLanguage(lang) {
  document.documentElement.lang = lang;
  $('address').setAttribute('lang', lang);
  try {
    localStorage.setItem('pg-demo-lang', lang);
  } catch {
    // private mode: the choice lasts for this page only
  }
}
{
  let saved = null;
  try {
    saved = localStorage.getItem('pg-demo-lang');
  } catch {
    // no storage
  }
  const select = $('lang');
  if (saved && [...select.options].some((o) => o.value === saved)) select.value = saved;
  setLanguage(select.value);
  select.addEventListener('change', () => setLanguage(select.value));
}

load().catch((err) => fail(`The validation module did not load: ${err.message}`));
