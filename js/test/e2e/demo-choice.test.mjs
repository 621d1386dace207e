// End to end: the demo shop keeps the shopper's delivery choice honest
// (issue 30, item 4, on the demo rather than a test page), in headless
// Chromium against make dev's stack (the edge and the sandbox under
// wrangler dev, the shop's server js/demo/server/shop.mjs beside them). A
// shopper in Spanish on a 360 px phone:
// - chooses a drop-point service but no point and presses Place order:
//   nothing reaches the shop's server or the edge's booking, the picker is
//   invalid (valueMissing) with its Spanish message, focused;
// - chooses a service and a point, then changes the postal code: both are
//   cleared at once with the widgets' Spanish sentences (rates.changed,
//   points.changed) and a new quote for the new postal code is listed;
// - chooses a service and a point, reloads: the same service and point are
//   chosen again, with the offer of the fresh quote (signed by the edge,
//   unexpired), and Place order books them.
//
// Run: make test-e2e (builds what it needs), or, once built,
// node --test --test-concurrency=1 js/test/e2e/demo-choice.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, eventually } from '../helpers.mjs';
import { startStack } from './stack.mjs';
import { verifyOffer, verifyPoint } from '../../src/offers.js';
import DEMO from '../../demo/strings.js';
import ES from '../../src/widgets/strings/es.js';

const PROXY = 'e2e-proxy-token-never-shown-0123456';
const SIGNING_KEY = 'e2e-token-signing-key-never-shown-0123456789';
let stack;
let browser;

before(async () => {
  // Drop points cost something here (free only from 500 €, the cart is 79 €): a price to keep.
  stack = await startStack({ vars: { TOKEN_SIGNING_KEY: SIGNING_KEY, PRICING_RULES: '[{"kind": "drop_point", "free_from": "500"}]' } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

const api = (path) => fetch(`${stack.url}/v1/${path}`, { headers: { Authorization: `Bearer ${PROXY}` } }).then((r) => r.json());
/** Every shipment the sandbox holds. */
async function allShipments() {
  const list = await api('get-shipments?page=1&n_items=50&filter_date_ini=2000-01-01');
  assert.equal(list.status, 'ok', JSON.stringify(list).slice(0, 300));
  return Array.isArray(list.data) ? list.data : list.data.shipments || [];
}

/**
 * A Spanish phone (360 px) on the demo, the address filled in Barcelona
 * (postal code zip). Records what the page sends: orders to the shop's
 * server, bookings to the edge, and the rates the edge answered.
 */
async function phonePage(zip = '08001') {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: 'es-ES' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(err));
  const sent = { orders: 0, bookings: 0, quotes: [] };
  page.on('request', (req) => {
    if (req.url().startsWith(`${stack.shopUrl}/orders`) && req.method() === 'POST') sent.orders += 1;
    if (req.url().includes('/v1/new-shipment')) sent.bookings += 1;
  });
  page.on('response', async (res) => {
    if (!res.url().includes('/v1/get-shipments-rates')) return;
    const req = res.request();
    const asked = `${req.url()} ${req.postData() || ''}`;
    try {
      sent.quotes.push({ asked, body: await res.json() });
    } catch {
      sent.quotes.push({ asked, body: null });
    }
  });
  await page.goto(`${stack.url}/demo/`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  await fillAddress(page, zip);
  return { context, page, sent, pageErrors };
}

async function fillAddress(page, zip) {
  const form = page.locator('pg-address-form');
  await form.getByLabel(/^Nombre/).fill('Ana García');
  await form.getByLabel(/^Dirección/).fill('Carrer de Pau Claris 1');
  await form.getByLabel(/^Código postal/).fill(zip);
  await form.getByLabel(/^Localidad/).fill('Barcelona');
  await form.getByLabel(/^Teléfono/).fill('600000000');
  await form.getByLabel(/^Correo electrónico/).fill('ana@example.com');
  await eventually(async () => assert.equal(await page.evaluate(() => document.getElementById('address').valid), true));
}

/** Pick-up at a drop point, its n-th service; resolves with the chosen service. */
async function chooseDropPointService(page, n = 0) {
  await page.getByLabel('Recoger en un punto de recogida').check();
  const radios = page.locator('pg-rate-selector input[type=radio]');
  await eventually(async () => assert.ok((await radios.count()) > n, 'services listed'));
  const selected = page.evaluate(() => new Promise((resolve) =>
    document.getElementById('rates').addEventListener('pg-select', (e) => e.detail.service && resolve(e.detail.service))));
  await radios.nth(n).check();
  const service = await selected;
  assert.equal(service.is_drop_point, true);
  assert.match(service.offer, /^pgo1\./);
  return service;
}

/** The n-th listed point of the chosen service's carrier; resolves with it. */
async function choosePoint(page, n = 1) {
  const points = page.locator('pg-drop-point-picker input[type=radio]');
  await eventually(async () => assert.ok((await points.count()) > n, 'drop points listed'));
  const picked = page.evaluate(() => new Promise((resolve) =>
    document.getElementById('drop-points').addEventListener('pg-select', (e) => e.detail.dropPoint && resolve(e.detail.dropPoint))));
  await points.nth(n).check();
  return picked;
}

const alertOf = (page, id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('[part=alert]').textContent, id);
const widget = (page, id) => page.evaluate((id) => {
  const el = document.getElementById(id);
  return { value: el.value, valueMissing: el.validity.valueMissing, message: el.validationMessage, state: el.state };
}, id);

test('Spanish, 360 px: Place order with a drop-point service and no point is blocked at the picker; nothing reaches the shop or the edge', { timeout: 180000 }, async () => {
  const { context, page, sent, pageErrors } = await phonePage();
  const service = await chooseDropPointService(page, 0);
  const points = page.locator('pg-drop-point-picker input[type=radio]');
  await eventually(async () => assert.ok((await points.count()) >= 1, 'drop points listed'));
  await page.evaluate(() => {
    window.invalid = [];
    document.addEventListener('invalid', (e) => window.invalid.push(e.target.id), true);
  });

  await page.locator('#place-order').click();
  // The picker is what lacks: it is invalid with its message in Spanish (the
  // browser shows it at the picker), and focused; the page says the same.
  await eventually(async () => assert.equal(await page.locator('#order-error').textContent(), DEMO.es['demo.errDropPoint']));
  assert.deepEqual(await page.evaluate(() => window.invalid), ['drop-points']);
  const picker = await widget(page, 'drop-points');
  assert.equal(picker.value, '');
  assert.equal(picker.valueMissing, true);
  assert.equal(picker.message, ES['points.required']);
  assert.deepEqual(await page.evaluate(() => [document.activeElement?.id, document.activeElement?.shadowRoot?.activeElement?.type]), ['drop-points', 'radio'],
    'the picker\'s first option has the focus');
  assert.equal(await page.evaluate(() => document.getElementById('rates').value), `${service.carrier_code}/${service.service_code}`, 'the service stays chosen');
  // Nothing was sent: no order to the shop's server, no booking to the edge, nothing booked.
  assert.equal(sent.orders, 0, 'no order reached the shop\'s server');
  assert.equal(sent.bookings, 0, 'no booking reached the edge');
  assert.equal((await allShipments()).length, 0, 'nothing booked');
  assert.equal(await page.locator('#confirmation').isHidden(), true);

  // With a point, the same Place order goes through, once.
  const point = await choosePoint(page, 1);
  await eventually(async () => assert.equal(await page.locator('#order-error').textContent(), ''));
  assert.equal((await widget(page, 'drop-points')).valueMissing, false);
  await page.locator('#place-order').click();
  await page.locator('#confirmation').waitFor({ state: 'visible', timeout: 30000 });
  assert.equal(sent.orders, 1);
  const booked = await api(`get-shipment?dlvr_ref=${(await page.locator('#dlvr-ref').textContent()).trim()}`);
  assert.equal(booked.data.drop_point_data.drop_point_key, point.drop_point_key);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'nothing scrolls sideways at 360 px');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('Spanish, 360 px: a new postal code clears the chosen service and point, says why in Spanish, and quotes again', { timeout: 180000 }, async () => {
  const { context, page, sent, pageErrors } = await phonePage('08001');
  const service = await chooseDropPointService(page, 0);
  await choosePoint(page, 1);
  assert.equal(await alertOf(page, 'rates'), '');
  assert.equal(await alertOf(page, 'drop-points'), '');
  assert.equal(sent.quotes.filter((q) => q.asked.includes('08002')).length, 0);

  await page.locator('pg-address-form').getByLabel(/^Código postal/).fill('08002');
  // Cleared at once, each widget saying why, in Spanish.
  await eventually(async () => assert.equal(await alertOf(page, 'rates'), ES['rates.changed']));
  await eventually(async () => assert.equal(await alertOf(page, 'drop-points'), ES['points.changed']));
  const rates = await widget(page, 'rates');
  assert.equal(rates.value, '');
  assert.equal(rates.valueMissing, true, 'a service is needed again');
  assert.equal((await widget(page, 'drop-points')).value, '');
  // The summary no longer charges the removed service.
  assert.equal(await page.locator('#shipping-cost').textContent(), DEMO.es['demo.chooseService']);
  // A new quote for the new postal code, listed.
  await eventually(async () => assert.ok(sent.quotes.some((q) => q.asked.includes('08002') && q.body?.status === 'ok'), 'quoted for 08002'));
  await eventually(async () => assert.equal((await widget(page, 'rates')).state, 'ready'));
  const listed = await page.evaluate(() => document.getElementById('rates').services.map((s) => s.offer));
  assert.ok(listed.length > 0);
  for (const offer of listed) assert.equal((await verifyOffer(SIGNING_KEY, offer)).to.postal, '08002');
  assert.equal(await page.evaluate(() => document.getElementById('rates').getAttribute('to-zip')), '08002');

  // Place order now: blocked at the rate selector, nothing sent.
  await page.locator('#place-order').click();
  await eventually(async () => assert.equal(await page.locator('#order-error').textContent(), DEMO.es['demo.errService']));
  assert.equal(sent.orders, 0);
  assert.equal(sent.bookings, 0);

  // Choosing again works, and the sentence goes.
  const again = await chooseDropPointService(page, 0);
  assert.equal(again.carrier_code, service.carrier_code);
  assert.equal(await alertOf(page, 'rates'), '');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'the sentences fit at 360 px');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('Spanish, 360 px: a reload brings back the chosen service and point with a fresh offer, and Place order books them', { timeout: 180000 }, async () => {
  const { context, page, sent, pageErrors } = await phonePage('08001');
  const service = await chooseDropPointService(page, 0);
  const point = await choosePoint(page, 1);
  const key = `${service.carrier_code}/${service.service_code}`;

  const quotesBefore = sent.quotes.length;
  await page.reload();
  // The address form comes back as the shopper left it, and with it the route.
  await eventually(async () => assert.equal(await page.evaluate(() => document.getElementById('rates').getAttribute('to-zip')), '08001'), 30000);
  assert.equal(await page.evaluate(() => document.querySelector('input[name=mode]:checked').value), 'drop-point');
  // The same service and point are chosen again, without the shopper.
  await eventually(async () => assert.equal((await widget(page, 'rates')).value, key), 30000);
  await eventually(async () => assert.equal((await widget(page, 'drop-points')).value, point.drop_point_key), 30000);
  assert.equal(await page.locator('pg-rate-selector input[type=radio]:checked').count(), 1, 'the service shows as chosen');
  assert.equal(await page.locator('pg-drop-point-picker input[type=radio]:checked').count(), 1, 'the point shows as chosen');
  // With the offer of the quote made after the reload: signed by the edge, unexpired, the price shown before.
  const fresh = sent.quotes.slice(quotesBefore).filter((q) => q.body?.status === 'ok');
  assert.ok(fresh.length > 0, 'quoted again after the reload');
  const restored = await page.evaluate(() => document.getElementById('rates').selected);
  assert.ok(fresh.some((q) => JSON.stringify(q.body).includes(restored.offer)), 'the offer is from the fresh quote');
  const facts = await verifyOffer(SIGNING_KEY, restored.offer);
  assert.equal(`${facts.carrier}/${facts.service}`, key);
  assert.equal(Number(facts.price), service.price);
  assert.ok(Date.parse(facts.expiresAt) > Date.now());
  const restoredPoint = await page.evaluate(() => document.getElementById('drop-points').selected);
  assert.equal((await verifyPoint(SIGNING_KEY, restoredPoint.point)).key, point.drop_point_key);
  // The page follows the restored choice: its summary charges it, nothing is said.
  assert.equal(await alertOf(page, 'rates'), '');
  assert.equal(await alertOf(page, 'drop-points'), '');
  const shown = await page.locator('#shipping-cost').textContent();
  assert.notEqual(shown, DEMO.es['demo.chooseService']);

  await page.locator('#place-order').click();
  await page.locator('#confirmation').waitFor({ state: 'visible', timeout: 30000 });
  assert.equal(sent.orders, 1);
  assert.equal(await page.locator('#paid-shipping').textContent(), shown);
  const booked = await api(`get-shipment?dlvr_ref=${(await page.locator('#dlvr-ref').textContent()).trim()}`);
  assert.equal(booked.data.shipping_data.service_code, service.service_code);
  assert.equal(booked.data.drop_point_data.drop_point_key, point.drop_point_key);
  assert.equal(booked.data.to_data.to_zip_code, '08001');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

