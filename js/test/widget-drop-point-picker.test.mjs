// <pg-drop-point-picker> in headless Chromium against a fake edge answering
// with testdata/widgets/drop-point-picker.json (captured from the sandbox):
// today's hours, distance from the postal code's location and the order,
// no distance where the location is unknown, the carrier filter, keyboard
// selection with pg-select and onPick, a stale answer ignored, errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { widgetHarness } from './widget-harness.mjs';

const h = widgetHarness({ page: 'widgets-drop-point-picker.html', element: 'pg-drop-point-picker', fixtures: 'drop-point-picker.json', fallback: (...a) => defaultAnswer(...a) });
const { openPage, eventually } = h;
const edge = h.edge;
const fx = h.fx;

function defaultAnswer(op, params) {
  if (op === 'get-client-carriers') return { body: fx.carriers };
  const zip = params.get('zip_code');
  if (zip === '08001') return { body: fx.es_08001 };
  if (zip === '75001') return { body: fx.fr_75001 };
  if (zip === '08003') return { status: fx.upstream_error.http_status, body: fx.upstream_error.body };
  return { status: 404, body: { status: 'err', data: { errorCode: 1404, errorMessage: `no canned answer for ${zip}` } } };
}

const set = (page, attrs) =>
  page.evaluate((a) => {
    const el = document.querySelector('pg-drop-point-picker');
    for (const [k, v] of Object.entries(a)) (v === null ? el.removeAttribute(k) : el.setAttribute(k, v));
  }, attrs);

const state = (page) => page.evaluate(() => document.querySelector('pg-drop-point-picker').state);

// The options as shown: key, text.
const options = (page) =>
  page.evaluate(() =>
    [...document.querySelector('pg-drop-point-picker').shadowRoot.querySelectorAll('label.pg-option')].map((l) => ({
      key: l.querySelector('input').value,
      text: l.textContent.replace(/\s+/g, ' ').trim(),
    })),
  );

const status = (page) =>
  page.evaluate(() => document.querySelector('pg-drop-point-picker').shadowRoot.querySelector('[role=status]').textContent);

test('Spain: today\'s hours, distance from the province centre, nearest first', async () => {
  const { page, errors } = await openPage();
  await set(page, { country: 'ES', 'zip-code': '08001' });
  await eventually(async () => assert.equal(await state(page), 'ready'));
  const shown = await options(page);
  const points = fx.es_08001.data.drop_points;
  assert.equal(shown.length, points.length);

  // Expected distances computed in the page with the same core and helper.
  const expected = await page.evaluate((pts) => {
    const here = window.core.locate('ES', '08001');
    return {
      city: here.city,
      list: pts
        .map((p) => ({ key: p.drop_point_key, km: Math.round(window.distanceKm(here, { lat: p.latitude, lon: p.longitude }) * 10) / 10 }))
        .sort((a, b) => a.km - b.km),
    };
  }, points);
  assert.equal(expected.city, 'Barcelona');
  assert.deepEqual(shown.map((o) => o.key), expected.list.map((e) => e.key), 'nearest first');
  for (const [i, o] of shown.entries()) {
    const km = expected.list[i].km;
    assert.ok(o.text.includes(`≈ ${km < 10 ? km.toFixed(1) : Math.round(km)} km from Barcelona centre`), o.text);
    // Monday 10:00 (the page's `today`).
    const p = points.find((x) => x.drop_point_key === o.key);
    if (p.time_table.mon === '00:00 - 23:59') {
      assert.ok(o.text.includes('Open 24 hours · open now'), o.text);
    } else {
      const [a, b] = p.time_table.mon.split(' - ');
      assert.ok(o.text.includes(`Open today ${a}–${b}`), o.text);
      assert.ok(o.text.includes(a <= '10:00' && b > '10:00' ? 'open now' : 'closed now'), o.text);
    }
    assert.ok(o.text.includes(p.address) && o.text.includes(p.city), o.text);
  }
  assert.equal(await status(page), `${points.length} drop points.`);

  // Sunday: shops are closed, lockers are not.
  await page.evaluate(() => (document.querySelector('pg-drop-point-picker').today = new Date(2026, 10, 22, 12, 0)));
  for (const o of await options(page)) {
    const p = points.find((x) => x.drop_point_key === o.key);
    assert.ok(o.text.includes(p.time_table.sun ? 'Open 24 hours' : 'Closed today'), o.text);
  }
  const load = await page.evaluate(() => window.events.find((e) => e.type === 'pg-load').detail.dropPoints);
  assert.equal(typeof load[0].latitude, 'number');
  assert.equal(typeof load[0].distance_km, 'number');
  assert.deepEqual(errors, []);
  await page.close();
});

test('France: the location is unknown, so no distance and the upstream order', async () => {
  const { page } = await openPage();
  await set(page, { country: 'FR', 'zip-code': '75001' });
  await eventually(async () => assert.equal(await state(page), 'ready'));
  const shown = await options(page);
  assert.deepEqual(shown.map((o) => o.key), fx.fr_75001.data.drop_points.map((p) => p.drop_point_key));
  for (const o of shown) assert.ok(!/km/.test(o.text), o.text);
  const load = await page.evaluate(() => window.events.find((e) => e.type === 'pg-load').detail.dropPoints);
  assert.ok(load.every((p) => p.distance_km === null));
  await page.close();
});

test('carrier filter: attribute, select with the carriers\' names, selection cleared when filtered out', async () => {
  const { page } = await openPage();
  await set(page, { country: 'ES', 'zip-code': '08001', carrier: 'tortuga' });
  await eventually(async () => assert.equal(await state(page), 'ready'));
  let shown = await options(page);
  const tortuga = fx.es_08001.data.drop_points.filter((p) => p.carrier_code === 'tortuga');
  assert.equal(shown.length, tortuga.length);
  assert.ok(shown.every((o) => o.text.includes('Tortuga Paquetería')));
  const select = page.locator('pg-drop-point-picker').getByLabel('Carrier');
  assert.equal(await select.inputValue(), 'tortuga');
  assert.deepEqual(await select.locator('option').allTextContents(), ['All carriers', 'Rayo Express', 'Tortuga Paquetería']);

  await select.selectOption('');
  shown = await options(page);
  assert.equal(shown.length, fx.es_08001.data.drop_points.length);
  // Choose a rayo point, then filter to tortuga: the choice is cleared.
  const rayo = shown.find((o) => o.key.startsWith('RY-'));
  await page.locator(`pg-drop-point-picker input[value="${rayo.key}"]`).check();
  await select.selectOption('tortuga');
  const sel = await page.evaluate(() => window.events.filter((e) => e.type === 'pg-select').map((e) => e.detail.dropPoint && e.detail.dropPoint.drop_point_key));
  assert.deepEqual(sel, [rayo.key, null]);
  assert.equal(await page.evaluate(() => document.querySelector('pg-drop-point-picker').value), '');
  // Filtering never re-fetched.
  assert.equal(edge.log.filter((l) => l.op === 'get-drop-points').length, 1);
  await page.close();
});

test('keyboard: arrow keys choose; pg-select and onPick carry the point', async () => {
  const { page } = await openPage();
  await set(page, { country: 'ES', 'zip-code': '08001' });
  await eventually(async () => assert.equal(await state(page), 'ready'));
  const shown = await options(page);
  await page.locator('pg-drop-point-picker input[type=radio]').first().focus();
  await page.keyboard.press('ArrowDown');
  await eventually(async () => assert.equal(await page.evaluate(() => window.picked.length), 1));
  const picked = await page.evaluate(() => window.picked[0]);
  const ev = await page.evaluate(() => window.events.find((e) => e.type === 'pg-select').detail.dropPoint);
  assert.equal(picked.drop_point_key, shown[1].key);
  assert.deepEqual(ev, picked);
  const raw = fx.es_08001.data.drop_points.find((p) => p.drop_point_key === picked.drop_point_key);
  assert.equal(picked.latitude, Number(raw.latitude));
  assert.equal(picked.name, raw.name);
  assert.deepEqual(picked.time_table, raw.time_table);
  assert.equal(await page.locator('pg-drop-point-picker').getAttribute('value'), picked.drop_point_key);
  await page.close();
});

test('a stale answer never replaces a newer one', async () => {
  const { page } = await openPage();
  // A fetch that ignores abort signals, so the stale answer really arrives
  // and only the widget's own bookkeeping can drop it.
  await page.evaluate(async () => {
    const { Client } = await import('/js/src/client.js');
    document.querySelector('pg-drop-point-picker').client = new Client({
      baseUrl: location.origin,
      fetch: (url, init) => fetch(url, { ...init, signal: undefined }),
    });
  });
  edge.answer = (op, params) => (op === 'get-drop-points' && params.get('zip_code') === '08001' ? { body: fx.es_08001, delay: 500 } : null);
  await set(page, { country: 'ES', 'zip-code': '08001' });
  await eventually(async () => assert.ok(edge.log.some((l) => l.params.zip_code === '08001')));
  await set(page, { country: 'FR', 'zip-code': '75001' });
  await eventually(async () => assert.equal(await state(page), 'ready'));
  await new Promise((r) => setTimeout(r, 700));
  const shown = await options(page);
  assert.ok(shown.length > 0 && shown.every((o) => o.key.includes('-FR-')), JSON.stringify(shown.map((o) => o.key)));
  await page.close();
});

test('errors: the core stops an invalid postal code; an edge 502 is shown', async () => {
  const { page } = await openPage();
  await set(page, { country: 'ES', 'zip-code': '0800' });
  await eventually(async () => assert.equal(await state(page), 'error'));
  const expected = await page.evaluate(() => window.core.validateField('get-drop-points', { country_code: 'ES', zip_code: '0800' }, 'zip_code')[0].message);
  assert.equal(await status(page), `The drop points could not be loaded. Postal code: ${expected}`);
  assert.equal(edge.log.filter((l) => l.op === 'get-drop-points').length, 0, 'nothing sent');

  await set(page, { 'zip-code': '08003' });
  // The shopper reads what happened and what to do; the edge's message is for developers (pg-error).
  await eventually(async () =>
    assert.equal(await status(page), 'The drop points could not be loaded. The delivery service is not answering right now. Try again in a few minutes.'));
  const err = await page.evaluate(() => window.events.filter((e) => e.type === 'pg-error').pop().detail);
  assert.equal(err.category, 'upstream_unavailable');
  assert.match(err.message, /the upstream answered HTTP 503/);
  assert.equal(await page.locator('pg-drop-point-picker [role=status]').getAttribute('aria-live'), 'polite');
  await page.close();
});
