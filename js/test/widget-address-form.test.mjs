// <pg-address-form> in headless Chromium: the core's exact messages while
// typing, aria wiring, the Spanish zone, country changes, validate(),
// value, events, and behaviour inside a <form>.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readVectors } from './helpers.mjs';
import { widgetHarness } from './widget-harness.mjs';

const h = widgetHarness({ page: 'widgets-address-form.html' });
const { openPage, eventually } = h;
let postalVectors;
before(async () => {
  ({ 'postal.json': postalVectors } = await readVectors('.'));
});

/** The text of the element named first by the input's aria-describedby. */
async function describedText(form, input) {
  const ids = (await input.getAttribute('aria-describedby')).split(' ');
  return form.locator(`[id="${ids[0]}"]`).textContent();
}

test('invalid Spanish postal code: the core message and aria-invalid; fixed: the Balearic zone', async () => {
  const { page, errors } = await openPage();
  const form = page.locator('pg-address-form#to');
  const zip = form.getByLabel(/^Postal code/);

  const bad = postalVectors.find((v) => v.country === 'ES' && !v.valid && /5 digits/.test(v.message));
  assert.ok(bad, 'postal.json has a Spanish 5-digit vector');
  await zip.pressSequentially('0800');
  const expected = await page.evaluate(() =>
    core.validateField('new-shipment', { to_country_code: 'ES', to_zip_code: '0800' }, 'to_zip_code'));
  assert.equal(expected[0].message, bad.message, 'the field rule speaks the postal message');
  await eventually(async () => {
    assert.equal(await zip.getAttribute('aria-invalid'), 'true');
    assert.equal(await describedText(form, zip), expected[0].message);
  });
  // Not a province: the core's other message.
  await zip.fill('53001');
  const province = await page.evaluate(() => core.postal('ES', '53001').message);
  await eventually(async () => assert.equal(await describedText(form, zip), province));

  await zip.fill('07001');
  await eventually(async () => {
    assert.equal(await zip.getAttribute('aria-invalid'), 'false');
    assert.equal(await describedText(form, zip), '');
  });
  const hintId = (await zip.getAttribute('aria-describedby')).split(' ')[1];
  const hint = await form.locator(`[id="${hintId}"]`).textContent();
  assert.match(hint, /Balearic Islands/);
  assert.match(hint, /province 07/);
  if (await page.evaluate(() => typeof core.locate === 'function')) {
    const loc = await page.evaluate(() => core.locate('ES', '07001'));
    if (loc && loc.city) assert.ok(hint.includes(loc.city), hint);
  }
  for (const [code, text] of [['35001', /Canary Islands/], ['51001', /Ceuta/], ['28001', /peninsular/]]) {
    await zip.fill(code);
    await eventually(async () => assert.match(await form.locator(`[id="${hintId}"]`).textContent(), text));
  }

  // The polite live region speaks the zone once typing pauses.
  await eventually(async () => assert.match(await form.locator('[part=live]').textContent(), /peninsular/));
  assert.equal(await form.locator('[part=live]').getAttribute('aria-live'), 'polite');
  assert.deepEqual(errors, []);
  await page.close();
});

test('every Spanish postal vector shows the core message or the zone', async () => {
  const { page } = await openPage();
  const form = page.locator('pg-address-form#to');
  const zip = form.getByLabel(/^Postal code/);
  const hintId = (await zip.getAttribute('aria-describedby')).split(' ')[1];
  const zones = { peninsular: /peninsular/, balearic: /Balearic/, canary: /Canary/, ceuta: /Ceuta/, melilla: /Melilla/ };
  const vectors = postalVectors.filter((v) => v.country === 'ES' && v.input.trim() !== '' && !/[\t\n]/.test(v.input));
  assert.ok(vectors.length >= 10);
  for (const v of vectors) {
    await zip.fill(v.input);
    if (v.valid) {
      await eventually(async () => {
        assert.equal(await zip.getAttribute('aria-invalid'), 'false', v.input);
        assert.match(await form.locator(`[id="${hintId}"]`).textContent(), zones[v.zone], v.input);
      });
    } else {
      await eventually(async () => {
        assert.equal(await zip.getAttribute('aria-invalid'), 'true', v.input);
        assert.equal(await describedText(form, zip), v.message, v.input);
      });
    }
  }
  await page.close();
});

test('a country change re-validates the postal code; other countries show the normalized code', async () => {
  const { page } = await openPage();
  const form = page.locator('pg-address-form#to');
  const zip = form.getByLabel(/^Postal code/);
  const country = form.getByLabel(/^Country/);
  assert.equal(await country.inputValue(), 'ES');
  // The spec's postal-format countries come first.
  const first = await country.locator('option').evaluateAll((os) => os.slice(0, 7).map((o) => o.value));
  assert.deepEqual(first, ['ES', 'PT', 'FR', 'DE', 'IT', 'NL', 'AD']);

  await zip.fill('28001');
  await eventually(async () => assert.equal(await zip.getAttribute('aria-invalid'), 'false'));
  await country.selectOption('PT');
  const pt = await page.evaluate(() =>
    core.validateField('new-shipment', { to_country_code: 'PT', to_zip_code: '28001' }, 'to_zip_code')[0].message);
  await eventually(async () => {
    assert.equal(await zip.getAttribute('aria-invalid'), 'true');
    assert.equal(await describedText(form, zip), pt);
  });
  await zip.fill('1100053');
  const hintId = (await zip.getAttribute('aria-describedby')).split(' ')[1];
  await eventually(async () => assert.equal(await form.locator(`[id="${hintId}"]`).textContent(), 'Postal code: 1100-053'));
  await country.selectOption('NL');
  await zip.fill('1012 ab');
  await eventually(async () => assert.equal(await form.locator(`[id="${hintId}"]`).textContent(), 'Postal code: 1012-AB'));
  const value = await form.evaluate((el) => el.value);
  assert.equal(value.to_zip_code, '1012-AB');
  assert.equal(value.to_country_code, 'NL');
  await page.close();
});

test('empty fields stay quiet until blur; validate() shows all and focuses the first invalid', async () => {
  const { page } = await openPage();
  const form = page.locator('pg-address-form#to');
  const name = form.getByLabel(/^Name/);
  const city = form.getByLabel(/^City/);
  const required = await page.evaluate(() => core.validateField('new-shipment', {}, 'to_name')[0].message);

  // Required markers on required fields only.
  assert.equal(await name.getAttribute('aria-required'), 'true');
  assert.equal(await form.getByLabel(/^Phone/).getAttribute('aria-required'), null);
  assert.match(await form.locator('label', { hasText: 'Phone' }).textContent(), /optional/);

  await name.focus();
  await page.keyboard.type('A');
  await page.keyboard.press('Backspace');
  assert.equal(await describedText(form, name), '', 'no error while typing into an empty field');
  assert.equal(await name.getAttribute('aria-invalid'), null);
  await page.keyboard.press('Tab');
  await eventually(async () => {
    assert.equal(await describedText(form, name), required);
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
  });
  assert.equal(await describedText(form, city), '', 'an untouched field stays quiet');

  await name.fill('Ana García');
  await form.getByLabel(/^Address/).fill('x'.repeat(51));
  const tooLong = await page.evaluate(() => core.validateField('new-shipment', { to_address: 'x'.repeat(51) }, 'to_address')[0].message);
  const ok = await form.evaluate((el) => el.validate());
  assert.equal(ok, false);
  // The first invalid in display order is the address (name is now fine).
  assert.equal(await page.evaluate(() => document.getElementById('to').shadowRoot.activeElement?.dataset.field), 'address');
  assert.equal(await describedText(form, form.getByLabel(/^Address/)), tooLong);
  assert.equal(await describedText(form, city), required);
  const errs = await form.evaluate((el) => el.errors);
  assert.deepEqual(errs.map((e) => e.field), ['to_address', 'to_zip_code', 'to_city']);
  assert.deepEqual(errs[0], { field: 'to_address', code: 400, message: tooLong });
  assert.match(await form.locator('[part=live]').textContent(), /3 fields need attention/);

  await form.getByLabel(/^Address/).fill('Calle Río 3');
  await form.getByLabel(/^Postal code/).fill('41001');
  await city.fill('Sevilla');
  await form.getByLabel(/^Phone/).fill('abc');
  const phone = await page.evaluate(() => core.validateField('new-shipment', { to_phone: 'abc' }, 'to_phone')[0].message);
  assert.equal(await form.evaluate((el) => el.validate()), false);
  assert.equal(await page.evaluate(() => document.getElementById('to').shadowRoot.activeElement?.dataset.field), 'phone');
  assert.equal(await describedText(form, form.getByLabel(/^Phone/)), phone);
  await form.getByLabel(/^Phone/).fill('+34 600 000 001');
  await form.getByLabel(/^E-mail/).fill('ana@example');
  assert.equal(await form.evaluate((el) => el.valid), false);
  await form.getByLabel(/^E-mail/).fill('ana@example.com');
  assert.equal(await form.evaluate((el) => el.validate()), true);
  assert.equal(await form.evaluate((el) => el.valid), true);
  await page.close();
});

test('value, events and reset()', async () => {
  const { page } = await openPage();
  const form = page.locator('pg-address-form#to');
  await form.getByLabel(/^Name/).fill('  Lucía Pérez ');
  await form.getByLabel(/^Address/).fill('Calle Río 3');
  await form.getByLabel(/^City/).fill('Sevilla');
  await page.evaluate(() => (window.events.length = 0));
  await form.getByLabel(/^Postal code/).fill(' 41001');
  const value = await form.evaluate((el) => el.value);
  assert.deepEqual(value, {
    to_name: 'Lucía Pérez', to_address: 'Calle Río 3', to_country_code: 'ES', to_zip_code: '41001', to_city: 'Sevilla',
  });
  const events = await page.evaluate(() => window.events.filter((e) => e.id === 'to'));
  const change = events.find((e) => e.type === 'pg-change');
  assert.equal(change.detail.field, 'to_zip_code');
  assert.equal(change.detail.valid, true);
  assert.deepEqual(change.detail.errors, []);
  assert.deepEqual(change.detail.value, value);
  assert.ok(events.some((e) => e.type === 'pg-valid'), 'pg-valid when it becomes valid');
  // The whole request passes the core's full validation of those fields.
  const full = await page.evaluate((v) => core.validate('new-shipment', v).filter((e) => e.field.startsWith('to_')), value);
  assert.deepEqual(full, []);

  // Becoming invalid: pg-change carries the error.
  await form.getByLabel(/^Postal code/).fill('4100');
  const last = await page.evaluate(() => window.events.filter((e) => e.type === 'pg-change').at(-1).detail);
  assert.equal(last.valid, false);
  assert.equal(last.errors[0].field, 'to_zip_code');
  assert.equal(last.errors[0].code, 484);

  // Setting value fills the inputs.
  await form.evaluate((el) => {
    el.value = { to_name: 'Jean Dupont', address: '1 rue de Rivoli', to_city: 'Paris', to_zip_code: 'F-75001', to_country_code: 'FR', to_email: 'jean@example.fr' };
  });
  assert.equal(await form.getByLabel(/^Name/).inputValue(), 'Jean Dupont');
  assert.equal(await form.getByLabel(/^Country/).inputValue(), 'FR');
  const v2 = await form.evaluate((el) => ({ value: el.value, valid: el.valid }));
  assert.equal(v2.valid, true);
  assert.equal(v2.value.to_zip_code, await page.evaluate(() => core.postal('FR', 'F-75001').normalized));

  await form.evaluate((el) => el.reset());
  assert.equal(await form.getByLabel(/^Name/).inputValue(), '');
  assert.equal(await form.getByLabel(/^Country/).inputValue(), 'ES');
  assert.equal(await form.evaluate((el) => el.valid), false);
  assert.equal(await describedText(form, form.getByLabel(/^Name/)), '');
  await page.close();
});

test('prefix, fields and operation attributes', async () => {
  const { page } = await openPage();
  const from = page.locator('pg-address-form#from');
  const names = await from.locator('input, select').evaluateAll((els) => els.map((e) => e.name));
  assert.deepEqual(names, ['from_name', 'from_attn', 'from_nif', 'from_address', 'from_country_code', 'from_zip_code', 'from_city', 'from_phone', 'from_observations']);
  assert.equal(await from.getByLabel(/^Country/).inputValue(), 'PT', 'country attribute = default country');
  await from.getByLabel(/^Attention/).fill('x'.repeat(21));
  const msg = await page.evaluate(() => core.validateField('new-shipment', { from_attn: 'x'.repeat(21) }, 'from_attn')[0].message);
  await eventually(async () => assert.equal(await describedText(from, from.getByLabel(/^Attention/)), msg));

  // new-collection requires to_phone: the field appears and is required.
  await page.evaluate(() => document.getElementById('to').setAttribute('operation', 'new-collection'));
  const to = page.locator('pg-address-form#to');
  assert.equal(await to.getByLabel(/^Phone/).getAttribute('aria-required'), 'true');
  await page.evaluate(() => document.getElementById('to').setAttribute('fields', ''));
  assert.equal(await to.getByLabel(/^Phone/).count(), 1, 'a required field stays even when not listed');
  assert.equal(await to.getByLabel(/^E-mail/).count(), 0);
  await page.close();
});

test('inside a <form>: Enter in a field submits nothing and breaks nothing', async () => {
  const { page, errors } = await openPage();
  const form = page.locator('pg-address-form#to');
  const zip = form.getByLabel(/^Postal code/);
  await zip.fill('0700');
  await zip.press('Enter');
  await form.getByLabel(/^Name/).press('Enter');
  assert.equal(await page.evaluate(() => window.submits), 0);
  assert.equal(new URL(page.url()).pathname, '/js/test/pages/widgets-address-form.html');
  await zip.press('End');
  await zip.pressSequentially('1');
  await eventually(async () => assert.equal(await zip.getAttribute('aria-invalid'), 'false'));
  // Form-associated: the enclosing form sees the fields and their validity.
  const fd = await page.evaluate(() => Object.fromEntries(new FormData(document.getElementById('checkout'))));
  assert.equal(fd.to_zip_code, '07001');
  assert.equal(await page.evaluate(() => document.getElementById('to').matches(':invalid')), true, 'required fields are empty');
  assert.deepEqual(errors, []);
  await page.close();
});

test('before the core arrives the inputs work; validation runs once it is loaded', async () => {
  const page = await h.browser.newPage();
  let release;
  const gate = new Promise((r) => (release = r));
  await page.route('**/js/dist/parcelgate.wasm', async (route) => {
    await gate;
    await route.continue();
  });
  await page.setContent('<p>loading</p>');
  await page.goto(`${h.server.url}/js/test/pages/widgets-address-form.html`, { waitUntil: 'domcontentloaded' });
  const form = page.locator('pg-address-form#to');
  const zip = form.getByLabel(/^Postal code/);
  await zip.fill('0800');
  assert.equal(await zip.inputValue(), '0800');
  assert.equal(await form.evaluate((el) => el.valid), false);
  assert.equal(await describedText(form, zip), '');
  release();
  await page.waitForSelector('body[data-ready="true"]');
  const expected = await page.evaluate(() =>
    core.validateField('new-shipment', { to_country_code: 'ES', to_zip_code: '0800' }, 'to_zip_code')[0].message);
  await eventually(async () => {
    assert.equal(await describedText(form, zip), expected);
    assert.equal(await zip.getAttribute('aria-invalid'), 'true');
  });
  await page.close();
});

test('messages follow the lang attribute, then the document language; codes and fields do not change', async () => {
  const { page, errors } = await openPage();
  const form = page.locator('pg-address-form#to');
  // By name: the label follows the language too.
  const zip = form.locator('input[name=to_zip_code]');
  await zip.pressSequentially('00000');
  const { 'messages.json': m } = await readVectors('.');
  const want = m.postal.find((v) => v.country === 'ES' && v.input === '00000');
  assert.ok(want, 'messages.json has the Spanish province vector');
  await eventually(async () => assert.equal(await describedText(form, zip), want.message.en));
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'es-ES'));
  await form.evaluate((el) => el.setAttribute('lang', 'de')); // the element's own lang wins
  await eventually(async () => assert.equal(await describedText(form, zip), want.message.de));
  const labels = await form.evaluate((el) => [...el.shadowRoot.querySelectorAll('label')].map((l) => l.firstChild.data));
  assert.ok(labels.includes('Postleitzahl'), labels.join(', '));
  await form.evaluate((el) => el.removeAttribute('lang'));
  await eventually(async () => assert.equal(await describedText(form, zip), want.message.es));
  const err = await form.evaluate((el) => el.errors.find((e) => e.field === 'to_zip_code'));
  assert.equal(err.code, 484, 'the spec code of to_zip_code, in every language');
  assert.deepEqual(errors, []);
  await page.close();
});
