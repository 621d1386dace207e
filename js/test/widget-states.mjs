// Every state a shopper can see of the four checkout widgets and of the demo
// shop, reachable in headless Chromium in any language: the walker that the
// language test (widget-i18n.test.mjs) and the accessibility and layout
// checks reuse. Each entry is {widget, state, setup(page, lang, base)}:
// setup answers the page's edge calls itself (page.route, with the canned
// answers of testdata/widgets/), opens a page of `base` (a server of the
// repository root, helpers.mjs startServer) in language `lang`, puts the
// widget in that state and resolves with a locator of the element to look
// at (the widget, or the demo's <body>) once the state is on screen.
//
//   import { STATES, LANGS } from './widget-states.mjs';
//   for (const s of STATES) for (const lang of LANGS) {
//     const page = await browser.newPage();
//     const el = await s.setup(page, lang, server.url);
//     ... check el ...
//     await page.close();
//   }
//
// Use a fresh page per state: setup installs its own routes.

import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.mjs';

/** The languages of the widgets' table, in its order. */
export const LANGS = ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl'];

const fixture = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata', 'widgets', name), 'utf8'));

/** The canned answers (testdata/widgets/*.json). */
export const FIXTURES = {
  rates: fixture('rate-selector.json'),
  dropPoints: fixture('drop-point-picker.json'),
  tracking: fixture('tracking-timeline.json'),
  edge: fixture('edge-errors.json'),
};

const { rates: RX, dropPoints: DX, tracking: TX, edge: EX } = FIXTURES;

/** The dispatch date every rate state asks for. */
export const SHIPPING_DATE = '2026-11-23';
/** "Now" of the drop-point states: Tuesday 24 November 2026, 09:45 (local time). */
export const PICKER_NOW = [2026, 10, 24, 9, 45];

const PARCELS = RX.madrid_barcelona.request.parcels;

// An answer: {status, body, headers} | 'hang' (never answered: loading) | 'abort' (network failure).
const ok = (body) => ({ status: 200, body });
const edgeError = (e) => ({ status: e.http_status, body: e.body, headers: e.headers || {} });

/**
 * Answers the page's calls to /v1/<operation> with answers[op] (an answer
 * or a function of the URLSearchParams returning one); an operation not
 * listed gets an edge 404.
 */
export async function fakeEdge(page, answers) {
  await page.unroute('**/v1/**').catch(() => {});
  await page.route('**/v1/**', async (route) => {
    const url = new URL(route.request().url());
    const op = url.pathname.split('/').pop();
    let a = answers[op];
    if (typeof a === 'function') a = a(url.searchParams, route.request());
    if (a === 'hang') return; // never answered: the widget stays loading
    if (a === 'abort') return route.abort('internetdisconnected');
    if (!a) a = { status: 404, body: { status: 'err', data: { errorCode: 1404, errorMessage: `unknown operation ${op}`, source: 'edge', errorClass: 'unknown_operation' } } };
    await route.fulfill({
      status: a.status || 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8', ...(a.headers || {}) },
      body: JSON.stringify(a.body),
    });
  });
}

/**
 * Opens the states page in lang and waits for the core. A page already on
 * it (same language) is reused: its widget is removed, so a walk over many
 * states loads the core once.
 */
export async function openStatesPage(page, lang, base) {
  const url = `${base}/js/test/pages/widget-states.html?lang=${encodeURIComponent(lang)}`;
  if (page.url() === url) {
    const reused = await page
      .evaluate(() => {
        if (document.body.dataset.ready !== 'true') return false;
        for (const el of [...document.getElementById('stage').children]) if (el.id !== 'state-name') el.remove();
        window.events = [];
        return true;
      })
      .catch(() => false);
    if (reused) return;
  }
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}

// Puts <tag attrs> in #stage; props are set before it is connected.
async function mount(page, tag, attrs = {}, props = {}, title = '') {
  await page.evaluate(
    ({ tag, attrs, props, title }) => {
      document.getElementById('state-name').textContent = title;
      const el = document.createElement(tag);
      for (const [k, v] of Object.entries(props)) {
        if (k === 'today') el.today = new Date(...v);
        else el[k] = v;
      }
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      document.getElementById('stage').append(el);
    },
    { tag, attrs, props, title },
  );
  return page.locator(tag);
}

// Waits until the widget's data-state is one of states.
async function settled(page, tag, ...states) {
  await page.waitForFunction(
    ({ tag, states }) => states.includes(document.querySelector(tag)?.getAttribute('data-state')),
    { tag, states },
  );
}

// Waits until every pending animation frame and timer of the widget ran.
const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));

// ---- <pg-address-form> -------------------------------------------------------

const ADDRESS_OK = {
  to_name: 'Lucía Pérez',
  to_address: 'Carrer de Pau Claris 10',
  to_city: 'Barcelona',
  to_zip_code: '08010',
  to_country_code: 'ES',
  to_phone: '612345678',
  to_email: 'lucia@example.com',
};

async function addressForm(page, lang, base, title, fill) {
  await openStatesPage(page, lang, base);
  const el = await mount(page, 'pg-address-form', { prefix: 'to', country: 'ES' }, {}, title);
  await page.waitForFunction(() => {
    const f = document.querySelector('pg-address-form');
    return f.shadowRoot.querySelector('input') && f._coreReady;
  });
  if (fill) await fill(page);
  await frame(page);
  return el;
}

const addressStates = [
  { widget: 'pg-address-form', state: 'empty', setup: (page, lang, base) => addressForm(page, lang, base, 'address form: empty') },
  {
    widget: 'pg-address-form',
    state: 'errors',
    setup: (page, lang, base) =>
      addressForm(page, lang, base, 'address form: errors', async (p) => {
        await p.evaluate(() => {
          const f = document.querySelector('pg-address-form');
          f.value = { to_zip_code: '0800', to_email: 'lucia@', to_phone: '12' };
          f.validate();
        });
        await p.waitForFunction(() => document.querySelector('pg-address-form').shadowRoot.querySelector('[part=live]').textContent !== '');
      }),
  },
  {
    widget: 'pg-address-form',
    state: 'valid',
    setup: (page, lang, base) =>
      addressForm(page, lang, base, 'address form: valid', async (p) => {
        await p.evaluate((v) => {
          const f = document.querySelector('pg-address-form');
          f.value = v;
          f.validate();
        }, ADDRESS_OK);
        await p.waitForFunction(() => document.querySelector('pg-address-form').valid);
      }),
  },
  {
    widget: 'pg-address-form',
    state: 'valid-abroad',
    setup: (page, lang, base) =>
      addressForm(page, lang, base, 'address form: valid, France', async (p) => {
        await p.evaluate(() => {
          const f = document.querySelector('pg-address-form');
          f.value = { to_name: 'Jean Martin', to_address: '1 rue de Rivoli', to_city: 'Paris', to_zip_code: '75001', to_country_code: 'FR' };
          f.validate();
        });
        await p.waitForFunction(() => document.querySelector('pg-address-form').valid);
      }),
  },
];

// ---- <pg-rate-selector> ------------------------------------------------------

const ROUTE = { 'from-country': 'ES', 'from-zip': '28014', 'to-country': 'ES', 'to-zip': '08001', 'shipping-date': SHIPPING_DATE };

async function rateSelector(page, lang, base, title, answers, { attrs = ROUTE, parcels = PARCELS, states = ['ready'] } = {}) {
  await fakeEdge(page, answers);
  await openStatesPage(page, lang, base);
  const el = await mount(page, 'pg-rate-selector', attrs, parcels ? { parcels } : {}, title);
  await settled(page, 'pg-rate-selector', ...states);
  await frame(page);
  return el;
}

const ratesOf = (fx) => ({ 'get-shipments-rates': ok(fx.rates), 'get-shipment-time-arrival-estimation': ok(fx.estimation) });
const rateError = (a) => ({ 'get-shipments-rates': a, 'get-shipment-time-arrival-estimation': a });

const rateStates = [
  {
    widget: 'pg-rate-selector',
    state: 'idle',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: route incomplete', {}, { attrs: {}, parcels: null, states: ['idle'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'loading',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: loading', rateError('hang'), { states: ['loading'] }),
  },
  { widget: 'pg-rate-selector', state: 'list', setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: list', ratesOf(RX.madrid_barcelona)) },
  {
    widget: 'pg-rate-selector',
    state: 'list-drop-point',
    setup: (page, lang, base) =>
      rateSelector(page, lang, base, 'rates: drop-point services', ratesOf(RX.madrid_barcelona), { attrs: { ...ROUTE, filter: 'drop-point' } }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'list-no-dates',
    setup: (page, lang, base) =>
      rateSelector(page, lang, base, 'rates: no arrival dates', {
        'get-shipments-rates': ok(RX.madrid_barcelona.rates),
        'get-shipment-time-arrival-estimation': edgeError(EX.upstream_timeout),
      }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'empty',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: none', ratesOf(RX.empty), { states: ['empty'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'empty-filtered',
    setup: (page, lang, base) =>
      rateSelector(page, lang, base, 'rates: none of this kind', ratesOf(RX.madrid_barcelona), { attrs: { ...ROUTE, carrier: 'nobody' }, states: ['ready'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'invalid',
    // A postal code the core refuses before anything is sent.
    setup: (page, lang, base) =>
      rateSelector(page, lang, base, 'rates: invalid route', ratesOf(RX.madrid_barcelona), { attrs: { ...ROUTE, 'to-zip': '0800' }, states: ['error'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'error',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: upstream error', rateError(edgeError(RX.upstream_error)), { states: ['error'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'rate-limited',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: rate limited', rateError(edgeError(EX.rate_limited)), { states: ['error'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'upstream-timeout',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: upstream timeout', rateError(edgeError(EX.upstream_timeout)), { states: ['error'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'misconfigured',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: edge misconfigured', rateError(edgeError(EX.misconfigured)), { states: ['error'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'network',
    setup: (page, lang, base) => rateSelector(page, lang, base, 'rates: network down', rateError('abort'), { states: ['error'] }),
  },
  {
    widget: 'pg-rate-selector',
    state: 'choice-cleared',
    // Issue 30: a service chosen, then other parcels: cleared, with the reason above the new list.
    setup: async (page, lang, base) => {
      const el = await rateSelector(page, lang, base, 'rates: choice cleared (other parcels)', ratesOf(RX.madrid_barcelona));
      await el.locator('input[type=radio]').nth(1).check();
      await page.evaluate(() => {
        document.querySelector('pg-rate-selector').parcels = [{ parcel_weight: 3, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }];
      });
      await alerted(page, 'pg-rate-selector');
      return el;
    },
  },
  {
    widget: 'pg-rate-selector',
    state: 'price-changed',
    // Issue 30: the same request quoted again at another price for the chosen service: said.
    setup: async (page, lang, base) => {
      const el = await rateSelector(page, lang, base, 'rates: price changed', ratesOf(RX.madrid_barcelona));
      await el.locator('input[type=radio]').nth(1).check();
      const dearer = structuredClone(RX.madrid_barcelona.rates);
      for (const s of dearer.data.services) s.price = (Number(s.price) + 1.25).toFixed(2);
      await fakeEdge(page, { ...ratesOf(RX.madrid_barcelona), 'get-shipments-rates': ok(dearer) });
      await page.evaluate(() => document.querySelector('pg-rate-selector').refresh());
      await alerted(page, 'pg-rate-selector');
      return el;
    },
  },
];

// Waits for a widget's alert line (why a choice was cleared or changed) and a settled list.
async function alerted(page, tag) {
  await page.waitForFunction((tag) => {
    const el = document.querySelector(tag);
    return el.getAttribute('data-state') === 'ready' && el.shadowRoot.querySelector('[part=alert]').textContent !== '';
  }, tag);
  await frame(page);
}

// ---- <pg-drop-point-picker> --------------------------------------------------

async function picker(page, lang, base, title, answers, { attrs = { country: 'ES', 'zip-code': '08001' }, now = PICKER_NOW, states = ['ready'] } = {}) {
  await fakeEdge(page, { 'get-client-carriers': ok(DX.carriers), ...answers });
  await openStatesPage(page, lang, base);
  const el = await mount(page, 'pg-drop-point-picker', attrs, { today: now }, title);
  await settled(page, 'pg-drop-point-picker', ...states);
  await frame(page);
  return el;
}

const points = (body) => ({ 'get-drop-points': ok(body) });

const pickerStates = [
  {
    widget: 'pg-drop-point-picker',
    state: 'idle',
    setup: (page, lang, base) => picker(page, lang, base, 'drop points: no postal code', {}, { attrs: { country: 'ES' }, states: ['idle'] }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'loading',
    setup: (page, lang, base) => picker(page, lang, base, 'drop points: loading', { 'get-drop-points': 'hang' }, { states: ['loading'] }),
  },
  { widget: 'pg-drop-point-picker', state: 'list', setup: (page, lang, base) => picker(page, lang, base, 'drop points: list', points(DX.es_08001)) },
  {
    widget: 'pg-drop-point-picker',
    state: 'list-sunday',
    setup: (page, lang, base) => picker(page, lang, base, 'drop points: Sunday', points(DX.es_08001), { now: [2026, 10, 22, 12, 0] }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'list-abroad',
    setup: (page, lang, base) =>
      picker(page, lang, base, 'drop points: France, no distance', points(DX.fr_75001), { attrs: { country: 'FR', 'zip-code': '75001' } }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'empty',
    setup: (page, lang, base) =>
      picker(page, lang, base, 'drop points: none', points({ status: 'ok', data: { drop_points: [] } }), { states: ['empty'] }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'empty-filtered',
    setup: (page, lang, base) =>
      picker(page, lang, base, 'drop points: none of this carrier', points(DX.es_08001), { attrs: { country: 'ES', 'zip-code': '08001', carrier: 'mundo-cargo' } }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'error',
    setup: (page, lang, base) =>
      picker(page, lang, base, 'drop points: upstream error', { 'get-drop-points': edgeError(DX.upstream_error) }, { states: ['error'] }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'rate-limited',
    setup: (page, lang, base) =>
      picker(page, lang, base, 'drop points: rate limited', { 'get-drop-points': edgeError(EX.rate_limited) }, { states: ['error'] }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'network',
    setup: (page, lang, base) => picker(page, lang, base, 'drop points: network down', { 'get-drop-points': 'abort' }, { states: ['error'] }),
  },
  {
    widget: 'pg-drop-point-picker',
    state: 'choice-cleared',
    // Issue 30: a point chosen, then another postal code: cleared, with the reason above the new list.
    setup: async (page, lang, base) => {
      const el = await picker(page, lang, base, 'drop points: choice cleared (another postal code)', points(DX.es_08001));
      await el.locator('input[type=radio]').nth(1).check();
      await page.evaluate(() => document.querySelector('pg-drop-point-picker').setAttribute('zip-code', '08002'));
      await alerted(page, 'pg-drop-point-picker');
      return el;
    },
  },
];

// ---- <pg-tracking-timeline> --------------------------------------------------

async function timeline(page, lang, base, title, answer, { reference = TX.reference, states = ['ready'] } = {}) {
  await fakeEdge(page, { 'get-shipment-tracking': answer });
  await openStatesPage(page, lang, base);
  const el = await mount(page, 'pg-tracking-timeline', reference ? { reference } : {}, { token: 'shop-token' }, title);
  await settled(page, 'pg-tracking-timeline', ...states);
  await frame(page);
  return el;
}

const trackingStates = [
  {
    widget: 'pg-tracking-timeline',
    state: 'idle',
    setup: (page, lang, base) => timeline(page, lang, base, 'tracking: no shipment', null, { reference: '', states: ['idle'] }),
  },
  {
    widget: 'pg-tracking-timeline',
    state: 'loading',
    setup: (page, lang, base) => timeline(page, lang, base, 'tracking: loading', 'hang', { states: ['loading'] }),
  },
  {
    widget: 'pg-tracking-timeline',
    state: 'in-transit',
    setup: (page, lang, base) => timeline(page, lang, base, 'tracking: on its way', ok(TX.stages[1])),
  },
  {
    widget: 'pg-tracking-timeline',
    state: 'final',
    setup: (page, lang, base) => timeline(page, lang, base, 'tracking: delivered', ok(TX.stages[TX.stages.length - 1])),
  },
  {
    widget: 'pg-tracking-timeline',
    state: 'empty',
    setup: (page, lang, base) =>
      timeline(page, lang, base, 'tracking: no event yet', ok({ status: 'ok', data: { shipping_dlvr_ref: TX.reference, tracking_history: [] } }), { states: ['empty'] }),
  },
  {
    widget: 'pg-tracking-timeline',
    state: 'unauthorized',
    setup: (page, lang, base) => timeline(page, lang, base, 'tracking: refused', edgeError(TX.unauthorized), { states: ['error'] }),
  },
  {
    widget: 'pg-tracking-timeline',
    state: 'upstream-unreachable',
    setup: (page, lang, base) => timeline(page, lang, base, 'tracking: upstream down', edgeError(EX.upstream_unreachable), { states: ['error'] }),
  },
  {
    widget: 'pg-tracking-timeline',
    state: 'rate-limited',
    setup: (page, lang, base) => timeline(page, lang, base, 'tracking: rate limited', edgeError(EX.rate_limited), { states: ['error'] }),
  },
];

// ---- the demo shop (js/demo) -------------------------------------------------

const DEMO_BOOKED = 'SBX0000000042';

/**
 * The demo's edge: the sandbox's answers for a Madrid -> Barcelona order, a demo token, a booking.
 * labelPending: the shop answers the order as placed on a fallback price (no token, the label follows).
 */
export async function fakeDemoEdge(page, { labelPending = false } = {}) {
  await fakeEdge(page, {
    'get-shipments-rates': ok(RX.madrid_barcelona.rates),
    'get-shipment-time-arrival-estimation': ok(RX.madrid_barcelona.estimation),
    'get-drop-points': ok(DX.es_08001),
    'get-client-carriers': ok(DX.carriers),
    'new-shipment': ok({ status: 'ok', data: { shipping_dlvr_ref: DEMO_BOOKED, advance_tracking_url: '' } }),
    'get-shipment-tracking': ok(TX.stages[1]),
  });
  await page.route('**/healthz', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'ok', data: { upstream: 'sandbox' } }) }),
  );
  // The shop's own server (js/demo/server/shop.mjs, on the page's port + 20000): its cart, and an
  // order for the first home-delivery service (these rates carry no offers to verify).
  const { newCart, SENDER } = await import('../demo/server/shop.mjs');
  const cart = newCart('c-states');
  const shop = (data) => ({ status: 200, contentType: 'application/json', headers: { 'Access-Control-Allow-Origin': '*' }, body: JSON.stringify({ status: 'ok', data }) });
  const token = { token: 'demo-token', expiresAt: new Date(Date.now() + 3600e3).toISOString() };
  await page.route((url) => /^\/(cart|orders|orders\/token)$/.test(url.pathname), (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type' } });
    const path = new URL(route.request().url()).pathname;
    if (path === '/cart') return route.fulfill(shop({ ...cart, order: null }));
    if (path === '/orders/token') return route.fulfill(shop(token));
    const body = route.request().postDataJSON();
    const s = (RX.madrid_barcelona.rates.data.services || []).find((x) => !Number(x.is_drop_point));
    const charged = { shipping: Number(s.price).toFixed(2), total: (Number(cart.value) + Number(s.price)).toFixed(2), currency: 'EUR' };
    if (labelPending) return route.fulfill(shop({ order: 'WEB-STATES01', charged, state: 'label_pending' }));
    return route.fulfill(shop({
      order: 'WEB-STATES01', charged: { shipping: Number(s.price).toFixed(2), total: (Number(cart.value) + Number(s.price)).toFixed(2), currency: 'EUR' }, ...token,
      booking: { shipping_date: body.shipping_date, service_type: 'custom', carrier_code: s.carrier_code, service_code: s.service_code,
        shipping_client_ref: 'WEB-STATES01', ...SENDER, ...body.address, parcels: cart.parcels },
    }));
  });
}

async function demo(page, lang, base, steps, edge = {}) {
  await fakeDemoEdge(page, edge);
  await page.addInitScript(() => {
    try {
      sessionStorage.clear();
      localStorage.removeItem('pg-demo-lang');
    } catch {
      // no storage
    }
  });
  await page.goto(`${base}/js/demo/index.html?lang=${encodeURIComponent(lang)}`);
  await page.waitForFunction(() => customElements.get('pg-address-form') && document.querySelector('#items li'));
  await page.waitForFunction(() => document.querySelector('pg-address-form')._coreReady);
  if (steps) await steps(page);
  await frame(page);
  return page.locator('body');
}

const fillAddress = async (page) => {
  await page.evaluate((v) => {
    const f = document.getElementById('address');
    f.value = v;
    // What typing does: the page follows pg-change.
    f.dispatchEvent(new CustomEvent('pg-change', { detail: { value: f.value, valid: f.valid, errors: f.errors, field: null }, bubbles: true }));
  }, ADDRESS_OK);
  await page.waitForFunction(() => document.getElementById('rates').getAttribute('data-state') === 'ready');
};

const demoStates = [
  { widget: 'demo', state: 'checkout', setup: (page, lang, base) => demo(page, lang, base) },
  {
    widget: 'demo',
    state: 'checkout-errors',
    setup: (page, lang, base) =>
      demo(page, lang, base, async (p) => {
        await p.click('#place-order');
        await p.waitForFunction(() => document.getElementById('order-error').textContent !== '');
      }),
  },
  {
    widget: 'demo',
    state: 'rates',
    setup: (page, lang, base) =>
      demo(page, lang, base, async (p) => {
        await fillAddress(p);
        await p.evaluate(() => {
          const r = document.getElementById('rates');
          r.value = r.services[0] ? `${r.services.find((s) => !s.is_drop_point).carrier_code}/${r.services.find((s) => !s.is_drop_point).service_code}` : '';
          r.dispatchEvent(new CustomEvent('pg-select', { detail: { service: r.selected }, bubbles: true }));
        });
      }),
  },
  {
    widget: 'demo',
    state: 'drop-point',
    setup: (page, lang, base) =>
      demo(page, lang, base, async (p) => {
        await fillAddress(p);
        await p.check('input[name=mode][value=drop-point]');
        await p.waitForFunction(() => document.getElementById('drop-points').getAttribute('data-state') === 'ready');
      }),
  },
  {
    widget: 'demo',
    state: 'confirmation',
    setup: (page, lang, base) =>
      demo(page, lang, base, async (p) => {
        await fillAddress(p);
        await p.evaluate(() => {
          const r = document.getElementById('rates');
          const s = r.services.find((x) => !x.is_drop_point);
          r.value = `${s.carrier_code}/${s.service_code}`;
          r.dispatchEvent(new CustomEvent('pg-select', { detail: { service: r.selected }, bubbles: true }));
        });
        await p.click('#place-order');
        await p.waitForFunction(() => !document.getElementById('confirmation').hidden);
        await p.waitForFunction(() => document.getElementById('tracking').getAttribute('data-state') === 'ready');
      }),
  },
  {
    // An order on a fallback price (the carrier API was down): "the label follows".
    widget: 'demo',
    state: 'confirmation-label-pending',
    setup: (page, lang, base) =>
      demo(page, lang, base, async (p) => {
        await fillAddress(p);
        await p.evaluate(() => {
          const r = document.getElementById('rates');
          const s = r.services.find((x) => !x.is_drop_point);
          r.value = `${s.carrier_code}/${s.service_code}`;
          r.dispatchEvent(new CustomEvent('pg-select', { detail: { service: r.selected }, bubbles: true }));
        });
        await p.click('#place-order');
        await p.waitForFunction(() => !document.getElementById('confirmation').hidden && !document.getElementById('label-follows').hidden);
      }, { labelPending: true }),
  },
];

/** Every widget state (widget: its tag name). */
export const WIDGET_STATES = [...addressStates, ...rateStates, ...pickerStates, ...trackingStates];
/** The demo shop's states (widget: 'demo'; the locator is the page's <body>). */
export const DEMO_STATES = demoStates;
/** Both. */
export const STATES = [...WIDGET_STATES, ...DEMO_STATES];
