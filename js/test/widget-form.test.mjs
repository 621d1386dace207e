// The widgets inside a real <form> (js/test/pages/widgets-form.html) in
// headless Chromium against the fake edge: <pg-rate-selector name=service
// required> and <pg-drop-point-picker name=drop_point required> are
// form-associated like <pg-address-form>: `required` blocks submission with
// the widget's message, the chosen service and drop point reach FormData and
// the submitted query, a reset clears them (pg-select null), the browser's
// form restore brings them back, a disabled fieldset disables the options.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { widgetHarness } from './widget-harness.mjs';
import { ROOT } from './helpers.mjs';
import { signRates, signPoints } from './offer-fakes.mjs';

const fx = Object.fromEntries(
  ['rate-selector', 'drop-point-picker'].map((n) => [n, JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata/widgets', `${n}.json`), 'utf8'))]),
);

// The fake edge: Madrid -> Barcelona services and the drop points of 08001 (testdata/widgets),
// signed as the edge signs them (an offer per service, a point per drop point).
function answer(op, params) {
  const rs = fx['rate-selector'].madrid_barcelona;
  const dp = fx['drop-point-picker'];
  if (op === 'get-shipments-rates') return { body: signRates(rs.rates, params) };
  if (op === 'get-shipment-time-arrival-estimation') return { body: rs.estimation };
  if (op === 'get-client-carriers') return { body: dp.carriers };
  if (op === 'get-drop-points') return { body: signPoints(dp.es_08001, params) };
  return null;
}

const h = widgetHarness({ page: 'widgets-form.html', fallback: answer, timeout: 10000 });

async function ready(page) {
  await page.waitForFunction(() => ['rates', 'points'].every((id) => document.getElementById(id).state === 'ready'));
}

const formData = (page) => page.evaluate(() => [...new FormData(document.getElementById('order')).entries()]);

async function fillAddress(page) {
  const form = page.locator('pg-address-form');
  await form.getByLabel(/^Name/).fill('Ana García');
  await form.getByLabel(/^Address/).fill('Carrer de Pau Claris 1');
  await form.getByLabel(/^City/).fill('Barcelona');
  await form.getByLabel(/^Postal code/).fill('08001');
  await form.getByLabel(/^Phone/).fill('600 000 000');
}

// Chooses the second service and the second drop point with the keyboard and mouse as a shopper would.
async function choose(page) {
  await page.locator('pg-rate-selector input[type=radio]').nth(1).check();
  await page.locator('pg-drop-point-picker input[type=radio]').nth(1).check();
  return page.evaluate(() => ({
    service: document.getElementById('rates').value, offer: document.getElementById('rates').offer,
    point: document.getElementById('points').value, signed: document.getElementById('points').point,
  }));
}

test('required: submitting without a service or a drop point is blocked, with each widget\'s message', async () => {
  const { page, errors } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  await h.eventually(async () => assert.equal(await page.evaluate(() => document.getElementById('address').valid), true));

  const v = await page.evaluate(() =>
    ['address', 'rates', 'points'].map((id) => {
      const el = document.getElementById(id);
      return { id, form: el.form?.id, valueMissing: el.validity.valueMissing, message: el.validationMessage, invalid: el.matches(':invalid'), willValidate: el.willValidate };
    }),
  );
  assert.deepEqual(v, [
    { id: 'address', form: 'order', valueMissing: false, message: '', invalid: false, willValidate: true },
    { id: 'rates', form: 'order', valueMissing: true, message: 'Choose a delivery service.', invalid: true, willValidate: true },
    { id: 'points', form: 'order', valueMissing: true, message: 'Choose a drop point.', invalid: true, willValidate: true },
  ]);
  assert.equal(await page.evaluate(() => document.getElementById('order').checkValidity()), false);

  await page.getByRole('button', { name: 'Place order' }).click();
  await h.eventually(async () => assert.ok((await page.evaluate(() => window.events.filter((e) => e.type === 'invalid').length)) >= 2));
  assert.equal(await page.evaluate(() => window.submitted), 0, 'no submit event');
  assert.equal(new URL(page.url()).search, '', 'no navigation');
  // Interactive validation focuses the first invalid option.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'rates');

  // A service chosen: only the drop point is missing.
  await page.locator('pg-rate-selector input[type=radio]').first().check();
  assert.deepEqual(await page.evaluate(() => [document.getElementById('rates').checkValidity(), document.getElementById('points').reportValidity()]), [true, false]);
  // Not required any more: nothing blocks.
  await page.evaluate(() => document.getElementById('points').removeAttribute('required'));
  assert.equal(await page.evaluate(() => document.getElementById('order').checkValidity()), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an empty address blocks the form too, before and after the core loads', async () => {
  const { page } = await h.openPage();
  const v = await page.evaluate(() => {
    const el = document.getElementById('address');
    return { valueMissing: el.validity.valueMissing, message: el.validationMessage };
  });
  assert.equal(v.valueMissing, true);
  assert.match(v.message, /^Name: /);
  await page.locator('pg-address-form').getByLabel(/^Postal code/).fill('0800');
  const bad = await page.evaluate(() => document.getElementById('address').validity.valueMissing);
  assert.equal(bad, true, 'the name is still the first error');
  await page.close();
});

// Issue 30 changed what is submitted: the offer under the rate selector's name and the signed point
// under the picker's (they were the keys); the keys are under <name>_key.
test('the chosen offer and signed point reach FormData and the submitted form, their keys beside them', async () => {
  const { page, errors } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  const chosen = await choose(page);
  assert.match(chosen.service, /^[a-z]+\/[a-z0-9-]+$/);
  assert.ok(chosen.point);
  assert.match(chosen.offer, /^pgo1\./);
  assert.match(chosen.signed, /^pgp1\./);

  const entries = await formData(page);
  const data = Object.fromEntries(entries);
  assert.equal(data.service, chosen.offer);
  assert.equal(data.service_key, chosen.service);
  assert.equal(data.drop_point, chosen.signed);
  assert.equal(data.drop_point_key, chosen.point);
  assert.equal(data.to_name, 'Ana García');
  assert.equal(data.to_zip_code, '08001');
  assert.equal(data.to_country_code, 'ES');
  assert.equal(data.order, '1001');
  // The radios inside the shadow roots are not form controls of the page's form.
  assert.equal(entries.filter(([k]) => k.startsWith('pg-')).length, 0, JSON.stringify(entries));

  await Promise.all([page.waitForURL(/\?/), page.getByRole('button', { name: 'Place order' }).click()]);
  const q = new URL(page.url()).searchParams;
  assert.equal(q.get('service'), chosen.offer);
  assert.equal(q.get('service_key'), chosen.service);
  assert.equal(q.get('drop_point'), chosen.signed);
  assert.equal(q.get('drop_point_key'), chosen.point);
  assert.equal(q.get('to_name'), 'Ana García');
  assert.equal(q.get('to_address'), 'Carrer de Pau Claris 1');
  assert.equal(q.get('to_phone'), '600 000 000');
  assert.equal(q.get('order'), '1001');
  assert.deepEqual(errors, []);
  await page.close();
});

test('reset clears the choice (pg-select null) and the address; the form is invalid again', async () => {
  const { page, errors } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  await choose(page);
  await page.evaluate(() => { window.events = []; });
  await page.getByRole('button', { name: 'Start again' }).click();

  const entries = Object.fromEntries(await formData(page));
  assert.deepEqual(entries, { to_country_code: 'ES', order: '1001' });
  const after = await page.evaluate(() => ({
    values: ['rates', 'points'].map((id) => document.getElementById(id).value),
    attrs: ['rates', 'points'].map((id) => document.getElementById(id).getAttribute('value')),
    checked: document.querySelectorAll('pg-rate-selector, pg-drop-point-picker').length &&
      [...document.querySelectorAll('pg-rate-selector, pg-drop-point-picker')].map((el) => el.shadowRoot.querySelectorAll('input:checked').length),
    events: window.events.filter((e) => e.type === 'pg-select').map((e) => [e.target, e.detail]),
    valid: document.getElementById('order').checkValidity(),
  }));
  assert.deepEqual(after.values, ['', '']);
  assert.deepEqual(after.attrs, [null, null]);
  assert.deepEqual(after.checked, [0, 0]);
  assert.deepEqual(after.events, [['rates', { service: null }], ['points', { dropPoint: null }]]);
  assert.equal(after.valid, false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the browser\'s form restore brings the choice and the address back; a disabled fieldset disables the options', async () => {
  const { page, errors } = await h.openPage();
  await ready(page);
  await fillAddress(page);
  const chosen = await choose(page);
  // Leave and come back: the page is not kept (no-store), so Chromium reloads it and restores its form.
  await page.goto(`${h.server.url}/js/test/pages/widgets-tracking-timeline.html`);
  await page.goBack();
  await page.waitForSelector('body[data-ready="true"]');
  await ready(page);
  await h.eventually(async () => {
    const now = await page.evaluate(() => ({
      service: document.getElementById('rates').value,
      point: document.getElementById('points').value,
      checked: [...document.querySelectorAll('pg-rate-selector, pg-drop-point-picker')].map((el) => el.shadowRoot.querySelector('input:checked')?.value),
    }));
    assert.deepEqual(now, { service: chosen.service, point: chosen.point, checked: [chosen.service, chosen.point] });
  });
  const data = Object.fromEntries(await formData(page));
  // The fresh quote's offer and point (a new expiry), for the same service and point.
  const fresh = await page.evaluate(() => [document.getElementById('rates').offer, document.getElementById('points').point]);
  assert.equal(data.service, fresh[0]);
  assert.equal(data.service_key, chosen.service);
  assert.equal(data.drop_point, fresh[1]);
  assert.equal(data.drop_point_key, chosen.point);
  assert.equal(data.to_name, 'Ana García');

  await page.evaluate(() => { document.getElementById('box').disabled = true; });
  const disabled = await page.evaluate(() =>
    [...document.querySelectorAll('pg-address-form, pg-rate-selector, pg-drop-point-picker')].map((el) =>
      [...el.shadowRoot.querySelectorAll('input, select')].every((i) => i.disabled)),
  );
  assert.deepEqual(disabled, [true, true, true]);
  // Disabled controls are not submitted.
  assert.deepEqual(Object.keys(Object.fromEntries(await formData(page))), ['order']);
  await page.evaluate(() => { document.getElementById('box').disabled = false; });
  assert.equal(await page.locator('pg-rate-selector input[type=radio]').first().isDisabled(), false);
  assert.deepEqual(errors, []);
  await page.close();
});
