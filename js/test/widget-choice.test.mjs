// Issue 30, item 4: widgets that cannot lose or fake a choice. The rate
// selector and the drop-point picker in a real <form> (pages/widgets-form.html)
// in headless Chromium against a fake edge that signs offers and points as
// the edge does (offer-fakes.mjs: real facts, a placeholder MAC the page
// never checks): a change of postal code clears the choice visibly and says
// why; a reload brings back a choice that still holds, never across another
// address; an expired offer is quoted again before the form is submitted
// (same price: submitted once with the fresh offer; another price: held and
// said; gone: cleared and said); the picker follows the chosen offer's
// carrier. Some in Spanish on a 360 px wide phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { widgetHarness } from './widget-harness.mjs';
import { ROOT } from './helpers.mjs';
import { signRates, signPoints, inSeconds } from './offer-fakes.mjs';

const fx = Object.fromEntries(
  ['rate-selector', 'drop-point-picker'].map((n) => [n, JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata/widgets', `${n}.json`), 'utf8'))]),
);
const rs = fx['rate-selector'].madrid_barcelona;
const dp = fx['drop-point-picker'];

// The fake edge: Madrid -> any destination answers the Barcelona services, any postal code the
// 08001 drop points, each signed for the request that asked (route, parcels, place).
function answer(op, params) {
  if (op === 'get-shipments-rates') return { body: signRates(rs.rates, params) };
  if (op === 'get-shipment-time-arrival-estimation') return { body: rs.estimation };
  if (op === 'get-client-carriers') return { body: dp.carriers };
  if (op === 'get-drop-points') return { body: signPoints(dp.es_08001, params) };
  return null;
}

const h = widgetHarness({ page: 'widgets-form.html', fallback: answer, timeout: 10000 });

const ready = (page) => page.waitForFunction(() => ['rates', 'points'].every((id) => document.getElementById(id).state === 'ready'));
const formData = async (page) => Object.fromEntries(await page.evaluate(() => [...new FormData(document.getElementById('order')).entries()]));
const alertOf = (page, id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('[part=alert]').textContent, id);
const quotes = (zip) => h.edge.log.filter((r) => r.op === 'get-shipments-rates' && (!zip || r.params.to_zip_code === zip)).length;

async function fillAddress(page) {
  const form = page.locator('pg-address-form');
  await form.getByLabel(/^Name/).fill('Ana García');
  await form.getByLabel(/^Address/).fill('Carrer de Pau Claris 1');
  await form.getByLabel(/^City/).fill('Barcelona');
  await form.getByLabel(/^Postal code/).fill('08001');
  await form.getByLabel(/^Phone/).fill('600 000 000');
}

// A shopper in Spanish on a 360 px wide phone (the page's language switch sets the document's).
async function spanishPhone(page) {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.evaluate(() => { document.documentElement.lang = 'es'; });
  await h.eventually(async () =>
    assert.equal(await page.evaluate(() => document.getElementById('rates').shadowRoot.querySelector('legend').textContent), 'Método de envío'));
}

// The page's own submit handler (a shop posting the order with fetch): what it receives.
const recordSubmits = (page) => page.evaluate(() => {
  window.sent = [];
  const form = document.getElementById('order');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    window.sent.push(Object.fromEntries(new FormData(form).entries()));
  });
});

const noSideScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

async function chooseHome(page) {
  await page.locator('pg-rate-selector label[data-key="tortuga/tortuga-72"] input').check();
  await page.locator('pg-drop-point-picker input[type=radio]').nth(1).check();
}

test('Spanish, 360 px: a new postal code clears the chosen service and point at once, says why, and quotes again', async () => {
  const { page, errors } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  // The page follows its address form, as a shop's checkout does.
  await page.evaluate(() => {
    document.getElementById('address').addEventListener('pg-change', ({ detail: { value, valid } }) => {
      if (!valid || !value.to_zip_code) return;
      document.getElementById('rates').setAttribute('to-zip', value.to_zip_code);
      document.getElementById('points').setAttribute('zip-code', value.to_zip_code);
    });
  });
  await spanishPhone(page);
  await chooseHome(page);
  assert.match((await formData(page)).service, /^pgo1\./);
  assert.equal(await alertOf(page, 'rates'), '');

  await page.locator('pg-address-form').getByLabel(/^Código postal/).fill('08002');
  await h.eventually(async () => {
    assert.equal(await alertOf(page, 'rates'), 'La dirección o los bultos han cambiado, así que hemos quitado el método de envío que elegiste. Vuelve a elegir uno.');
    assert.equal(await alertOf(page, 'points'), 'El código postal ha cambiado, así que hemos quitado el punto de recogida que elegiste. Vuelve a elegir uno.');
  });
  await ready(page);
  await h.eventually(() => assert.equal(quotes('08002'), 1, 'quoted again for the new address'));
  const now = await page.evaluate(() => ({
    values: ['rates', 'points'].map((id) => document.getElementById(id).value),
    checked: ['rates', 'points'].map((id) => document.getElementById(id).shadowRoot.querySelectorAll('input:checked').length),
    live: ['rates', 'points'].map((id) => document.getElementById(id).shadowRoot.querySelector('[part=alert]').getAttribute('aria-live')),
    selects: window.events.filter((e) => e.type === 'pg-select').slice(-2).map((e) => [e.target, e.detail]),
    valid: document.getElementById('order').checkValidity(),
  }));
  assert.deepEqual(now.values, ['', '']);
  assert.deepEqual(now.checked, [0, 0]);
  assert.deepEqual(now.live, ['polite', 'polite']);
  assert.deepEqual(now.selects, [['rates', { service: null }], ['points', { dropPoint: null }]]);
  assert.equal(now.valid, false, 'nothing chosen: the form cannot be sent');
  const data = await formData(page);
  assert.equal(data.service, undefined);
  assert.equal(data.drop_point, undefined);
  assert.equal(await noSideScroll(page), true);
  // The alert line is on screen, inside the widget's width.
  const box = await page.locator('pg-rate-selector [part=alert]').boundingBox();
  assert.ok(box && box.height > 0 && box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
  // Choosing again removes the sentence.
  await page.locator('pg-rate-selector input[type=radio]').first().check();
  assert.equal(await alertOf(page, 'rates'), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reload restores a choice that still holds (the fresh offer and point); another address gets none', async () => {
  const { page, errors } = await h.openPage();
  await ready(page);
  await chooseHome(page);
  const chosen = await page.evaluate(() => ({ service: document.getElementById('rates').value, point: document.getElementById('points').value }));

  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await ready(page);
  await h.eventually(async () => {
    const now = await page.evaluate(() => ({ service: document.getElementById('rates').value, point: document.getElementById('points').value }));
    assert.deepEqual(now, chosen);
  });
  const fresh = await page.evaluate(() => [document.getElementById('rates').offer, document.getElementById('points').point]);
  const data = await formData(page);
  assert.equal(data.service, fresh[0]);
  assert.match(data.service, /^pgo1\./);
  assert.equal(data.service_key, chosen.service);
  assert.equal(data.drop_point, fresh[1]);
  assert.equal(data.drop_point_key, chosen.point);
  const checked = await page.evaluate(() =>
    ['rates', 'points'].map((id) => document.getElementById(id).shadowRoot.querySelector('input:checked')?.value));
  assert.deepEqual(checked, [chosen.service, chosen.point]);

  // The same tab, the same page for another destination: nothing comes back.
  await page.goto(`${h.server.url}/js/test/pages/widgets-form.html?to=08002`);
  await page.waitForSelector('body[data-ready="true"]');
  await ready(page);
  assert.equal(quotes('08002'), 1);
  const other = await page.evaluate(() => ({
    values: ['rates', 'points'].map((id) => document.getElementById(id).value),
    selects: window.events.filter((e) => e.type === 'pg-select').length,
  }));
  assert.deepEqual(other, { values: ['', ''], selects: 0 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Spanish, 360 px: an expired offer is quoted again before submit; at a new price the order is held and the shopper told', async () => {
  let n = 0;
  // First quote: offers already expired (a page left open too long). Then tortuga-72 costs more.
  h.edge.answer = (op, params) => {
    if (op !== 'get-shipments-rates') return null;
    n += 1;
    return n === 1
      ? { body: signRates(rs.rates, params, { e: inSeconds(-60) }) }
      : { body: signRates(rs.rates, params, { price: (s) => (s.service_code === 'tortuga-72' ? '4.95' : null) }) };
  };
  const { page, errors } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  await spanishPhone(page);
  await chooseHome(page);
  const price = () => page.locator('pg-rate-selector label[data-key="tortuga/tortuga-72"] [part=price]').textContent();
  const before = await price();
  const stale = await page.evaluate(() => document.getElementById('rates').offer);
  await recordSubmits(page);

  await page.getByRole('button', { name: 'Place order' }).click();
  await h.eventually(async () => assert.match(await alertOf(page, 'rates'), /^El precio de /));
  assert.equal(n, 2, 'quoted again once');
  const after = await price();
  assert.notEqual(after, before);
  assert.equal(await alertOf(page, 'rates'),
    `El precio de Tortuga Económico ha cambiado de ${before} a ${after}. Revísalo y vuelve a confirmar el pedido.`);
  assert.deepEqual(await page.evaluate(() => window.sent), [], 'not sent at a price the shopper did not see');
  const kept = await page.evaluate(() => ({ value: document.getElementById('rates').value, offer: document.getElementById('rates').offer }));
  assert.equal(kept.value, 'tortuga/tortuga-72', 'the service stays chosen, at its new price on screen');
  assert.notEqual(kept.offer, stale);
  assert.equal(await noSideScroll(page), true);
  // Focus is on the choice at its new price (a keyboard shopper lands where to check).
  assert.deepEqual(await page.evaluate(() => [document.activeElement.id, document.getElementById('rates').shadowRoot.activeElement?.value]),
    ['rates', 'tortuga/tortuga-72']);

  // The shopper read it and places the order again: sent once, with the fresh offer.
  await page.getByRole('button', { name: 'Place order' }).click();
  await h.eventually(async () => assert.equal((await page.evaluate(() => window.sent)).length, 1));
  const sent = (await page.evaluate(() => window.sent))[0];
  assert.equal(sent.service, kept.offer);
  assert.equal(sent.service_key, 'tortuga/tortuga-72');
  assert.equal(n, 2, 'a fresh offer is not quoted again');
  assert.deepEqual(errors, []);
  await page.close();
});

test('expired offer and point at the same price: quoted again and submitted once, with the fresh ones', async () => {
  let rates = 0;
  let points = 0;
  h.edge.answer = (op, params) => {
    if (op === 'get-shipments-rates') {
      rates += 1;
      return { body: signRates(rs.rates, params, rates === 1 ? { e: inSeconds(-60) } : {}) };
    }
    if (op === 'get-drop-points') {
      points += 1;
      return { body: signPoints(dp.es_08001, params, points === 1 ? { e: inSeconds(-60) } : {}) };
    }
    return null;
  };
  const { page, errors } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  await chooseHome(page);
  const stale = await page.evaluate(() => [document.getElementById('rates').offer, document.getElementById('points').point]);
  await recordSubmits(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await h.eventually(async () => assert.equal((await page.evaluate(() => window.sent)).length, 1));
  await ready(page);
  const sent = await page.evaluate(() => window.sent);
  assert.equal(sent.length, 1, 'one submit, though two widgets quoted again');
  assert.deepEqual([rates, points], [2, 2]);
  const fresh = await page.evaluate(() => [document.getElementById('rates').offer, document.getElementById('points').point]);
  assert.notDeepEqual(fresh, stale);
  assert.equal(sent[0].service, fresh[0]);
  assert.equal(sent[0].drop_point, fresh[1]);
  assert.equal(await alertOf(page, 'rates'), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an expired offer whose service is gone from the fresh quote: cleared, said, not submitted', async () => {
  let n = 0;
  h.edge.answer = (op, params) => {
    if (op !== 'get-shipments-rates') return null;
    n += 1;
    if (n === 1) return { body: signRates(rs.rates, params, { e: inSeconds(-60) }) };
    const body = structuredClone(rs.rates);
    body.data.services = body.data.services.filter((s) => s.service_code !== 'tortuga-72');
    return { body: signRates(body, params) };
  };
  const { page } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  await chooseHome(page);
  await recordSubmits(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await h.eventually(async () =>
    assert.equal(await alertOf(page, 'rates'), 'Tortuga Económico is no longer available. Choose another delivery service.'));
  assert.equal(await page.evaluate(() => document.getElementById('rates').value), '');
  assert.deepEqual(await page.evaluate(() => window.sent), []);
  await page.close();
});

test('the picker follows the chosen offer: only its carrier\'s points; a point of another carrier is cleared, saying why', async () => {
  const { page, errors } = await h.openPage();
  await ready(page);
  const carriers = () => page.evaluate(() =>
    [...new Set(document.getElementById('points').shadowRoot.querySelectorAll('input[type=radio]').values().map((r) => r.value.slice(0, 2)))]);
  await page.locator('pg-rate-selector label[data-key="tortuga/tortuga-point"] input').check();
  await h.eventually(async () => assert.deepEqual(await carriers(), ['TT']));
  assert.equal(await page.locator('pg-drop-point-picker [part=filter]').isHidden(), true, 'no other carrier to pick');
  await page.locator('pg-drop-point-picker input[type=radio]').first().check();
  const data = await formData(page);
  assert.match(data.drop_point, /^pgp1\./);
  assert.match(data.drop_point_key, /^TT-/);

  await page.locator('pg-rate-selector label[data-key="rayo/rayo-shop"] input').check();
  await h.eventually(async () =>
    assert.equal(await alertOf(page, 'points'), 'The drop point you chose does not go with the delivery service you chose. Choose a drop point from this list.'));
  assert.deepEqual(await carriers(), ['RY']);
  assert.equal(await page.evaluate(() => document.getElementById('points').value), '');
  assert.equal((await formData(page)).drop_point, undefined);
  assert.equal(await page.evaluate(() => document.getElementById('order').checkValidity()), false);
  // A home service: the picker lists every carrier again.
  await page.locator('pg-rate-selector label[data-key="tortuga/tortuga-72"] input').check();
  await h.eventually(async () => assert.deepEqual((await carriers()).sort(), ['RY', 'TT']));
  assert.deepEqual(errors, []);
  await page.close();
});
