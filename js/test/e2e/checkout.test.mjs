// End to end: the demo shop (js/demo, served as assets by the worker) in
// headless Chromium against `make dev`'s stack (the built worker under
// wrangler dev with the sandbox worker). A shopper types an invalid then
// a valid postal code, chooses a rate and a drop point, books, downloads
// the label and sees tracking advance. A second stack with a real upstream
// configured must not hand out demo tokens.
//
// Run: make test-e2e (builds what it needs). PARCELGATE_SCREENSHOT=<path>
// also writes the checkout screenshot there, PARCELGATE_PHONE_SCREENSHOT the
// Spanish checkout on a 360 px phone (make screenshot).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { ROOT, launchBrowser, eventually as assertEventually } from '../helpers.mjs';
import { startStack } from './stack.mjs';
import { PHONE_WIDTHS, PHONE_HEIGHT, axeViolations, measureAtPhoneWidths } from '../phone-a11y.mjs';

const SECRETS = ['e2e-secret-key-never-shown', 'e2e-proxy-token-never-shown-0123456'];
const SHOTS = path.join(ROOT, 'build/e2e');

let stack;
let browser;

before(async () => {
  // A sandbox day passes in 2 s, so tracking moves while the test watches.
  stack = await startStack({ vars: { SANDBOX_TIME_SCALE: '43200' } });
  browser = await launchBrowser();
  await fs.mkdir(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A page that records every response body the worker sent it. */
async function openShop(context, url) {
  const page = await context.newPage();
  const bodies = [];
  const pageErrors = [];
  // Everything the console says as an error (a 404 such as /favicon.ico included), and the page's failed requests.
  const consoleErrors = [];
  page.on('pageerror', (err) => pageErrors.push(err));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url || 'page'})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) consoleErrors.push(`HTTP ${res.status()} ${res.url()}`);
  });
  page.on('response', async (res) => {
    if (!res.url().startsWith(url)) return;
    try {
      bodies.push({ url: res.url(), headers: await res.allHeaders(), text: (await res.body()).toString('latin1') });
    } catch {
      // a download or a redirect has no body to read
    }
  });
  await page.goto(`${url}/demo/`);
  return { page, bodies, pageErrors, consoleErrors };
}

async function pageCore(page, fn, ...args) {
  return page.evaluate(
    async ([src, a]) => {
      const m = await import('/src/index.js');
      const core = await m.load();
      return new Function('core', `return (${src})(core, ...arguments[1])`)(core, a);
    },
    [fn.toString(), args],
  );
}

test('checkout: address, rate, drop point, booking, label, tracking', { timeout: 240000 }, async () => {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 1000 }, locale: 'en-GB' });
  const { page, bodies, pageErrors, consoleErrors } = await openShop(context, stack.url);

  // Before an address, one hint says what is missing: the rate selector's, not a second one of the shop's.
  const rates = page.locator('pg-rate-selector');
  await assertEventually(async () => assert.match(await rates.locator('.pg-status').textContent(), /Para ver los métodos de envío/));
  assert.deepEqual(await visibleHints(page), [await rates.locator('.pg-status').textContent()]);

  // The page names its icon, so a browser does not ask for /favicon.ico (a 404 on the console:
  // headless Chromium does not ask, so this is checked here rather than by consoleErrors).
  const icon = await page.evaluate(() => document.querySelector('link[rel~="icon"]')?.href || '');
  assert.ok(icon, 'the demo declares an icon');
  if (!icon.startsWith('data:')) assert.equal((await fetch(icon)).status, 200, icon);

  const form = page.locator('pg-address-form');
  // Placing the order on an empty form books nothing: the address is
  // checked, its first field focused, and the shop says why.
  await page.locator('#place-order').click();
  await assertEventually(async () => assert.equal(await page.locator('#order-error').textContent(), 'Revisa la dirección de entrega.'));
  assert.equal(await form.getByLabel(/^Nombre/).evaluate((el) => el.getRootNode().activeElement === el), true);
  assert.equal(await form.getByLabel(/^Nombre/).getAttribute('aria-invalid'), 'true');
  await form.getByLabel(/^Nombre/).fill('Ana García');
  await form.getByLabel(/^Dirección/).fill('Carrer de Pau Claris 1');
  await form.getByLabel(/^Localidad/).fill('Barcelona');
  await form.getByLabel(/^País/).selectOption('ES');

  // An invalid postal code: the core's own message, aria-invalid.
  const zip = form.getByLabel(/^Código postal/);
  await zip.fill('0800');
  await zip.blur();
  // The Madrid shop speaks Spanish by default (its language switch): its
  // page, the widgets' labels and the core's messages.
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  const expected = await pageCore(page, (core) =>
    core.validateField('new-shipment', { to_country_code: 'ES', to_zip_code: '0800' }, 'to_zip_code', { locale: 'es' }));
  assert.match(expected[0].message, /códigos postales/);
  assert.ok(expected.length > 0, 'the core rejects 0800 in Spain');
  await page.waitForFunction(() => true);
  await assertEventually(async () => {
    assert.equal(await zip.getAttribute('aria-invalid'), 'true');
    const described = await zip.getAttribute('aria-describedby');
    const text = await form.locator(`[id="${described.split(' ')[0]}"]`).textContent();
    assert.ok(text.includes(expected[0].message), `error "${text}" shows "${expected[0].message}"`);
  });

  // A valid one: the error goes, the Spanish zone shows.
  await zip.fill('07001');
  await assertEventually(async () => {
    assert.notEqual(await zip.getAttribute('aria-invalid'), 'true');
    assert.match(await shadowText(form), /Islas Baleares/);
  });
  await zip.fill('08001');
  await assertEventually(async () => {
    assert.notEqual(await zip.getAttribute('aria-invalid'), 'true');
    assert.match(await shadowText(form), /Península/);
  });
  await form.getByLabel(/^Teléfono/).fill('600 000 000');
  await form.getByLabel(/^Correo electrónico/).fill('ana@example.com');

  // Rates for Madrid -> 08001: cheapest and fastest marked; choose one with the keyboard.
  const radios = rates.locator('input[type=radio]');
  await assertEventually(async () => assert.ok((await radios.count()) >= 2, 'home-delivery services listed'));
  assert.match(await shadowText(rates), /Más barato/);
  assert.match(await shadowText(rates), /Más rápido/);
  const selected = page.evaluate(() => new Promise((resolve) =>
    document.querySelector('pg-rate-selector').addEventListener('pg-select', (e) => resolve(e.detail.service), { once: true })));
  await radios.first().focus();
  await page.keyboard.press('ArrowDown');
  const service = await selected;
  assert.ok(service.carrier_code && service.service_code, 'pg-select carries the service');
  assert.equal(service.is_drop_point, false);
  const shown = await page.locator('#shipping-cost').textContent();
  assert.ok(shown.replace(/[^\d.,]/g, '').replace(',', '.').startsWith(service.price.toFixed(2)), `summary shows ${service.price}: ${shown}`);

  // Drop point delivery: drop-point services, then the points of that carrier.
  await page.getByLabel('Recoger en un punto de recogida').check();
  await assertEventually(async () => {
    const n = await radios.count();
    assert.ok(n >= 1, 'drop-point services listed');
  });
  const dpService = page.evaluate(() => new Promise((resolve) =>
    document.querySelector('pg-rate-selector').addEventListener('pg-select', (e) => resolve(e.detail.service), { once: true })));
  await radios.first().check();
  const chosenService = await dpService;
  assert.equal(chosenService.is_drop_point, true);
  // make dev's rule (PRICING_RULES: drop points free from 60 €) on a cart
  // of 79 €: the edge priced every drop-point service 0, shown "Gratis";
  // the summary charges 0 €. (Changed for issue 31: the demo has a rule.)
  assert.equal(chosenService.price, 0);
  assert.match(await shadowText(rates), /Gratis/);
  assert.match(await page.locator('#free-note').textContent(), /gratis.*60/i);
  assert.equal((await page.locator('#shipping-cost').textContent()).replace(/[^\d,.]/g, ''), '0,00');

  const picker = page.locator('pg-drop-point-picker');
  const points = picker.locator('input[type=radio]');
  await assertEventually(async () => assert.ok((await points.count()) >= 3, 'drop points listed'));
  const text = await shadowText(picker);
  assert.match(text, /hoy|24 horas/, 'opening hours for today, in Spanish');
  assert.match(text, /km/, 'distance from the postal code (province centre is known in Spain)');
  const pickedP = page.evaluate(() => new Promise((resolve) =>
    document.querySelector('pg-drop-point-picker').addEventListener('pg-select', (e) => resolve(e.detail.dropPoint), { once: true })));
  await points.nth(1).check();
  const point = await pickedP;
  assert.equal(point.carrier_code, chosenService.carrier_code, 'the picker follows the chosen service\'s carrier');
  assert.ok(point.drop_point_key);

  await page.screenshot({ path: path.join(SHOTS, 'checkout.png'), fullPage: true });
  if (process.env.PARCELGATE_SCREENSHOT) {
    await page.screenshot({ path: path.resolve(ROOT, process.env.PARCELGATE_SCREENSHOT), fullPage: true });
  }

  // Book: a double click books once. (Nothing was booked before.)
  const before = await fetch(`${stack.url}/v1/get-shipments?page=1&n_items=50&filter_date_ini=2000-01-01`, {
    headers: { Authorization: `Bearer ${SECRETS[1]}` },
  }).then((r) => r.json());
  assert.equal(before.status, 'ok', JSON.stringify(before).slice(0, 300));
  assert.equal((Array.isArray(before.data) ? before.data : before.data.shipments || []).length, 0, 'no booking yet');
  await page.locator('#place-order').dblclick();
  await page.locator('#confirmation').waitFor({ state: 'visible', timeout: 30000 });
  const ref = (await page.locator('#dlvr-ref').textContent()).trim();
  const orderRef = (await page.locator('#order-ref').textContent()).trim();
  assert.match(ref, /^[A-Z0-9]+$/);
  const list = await fetch(`${stack.url}/v1/get-shipments?filter_shipping_client_ref=${orderRef}&page=1&n_items=10`, {
    headers: { Authorization: `Bearer ${SECRETS[1]}` },
  }).then((r) => r.json());
  assert.equal(list.status, 'ok');
  const shipments = Array.isArray(list.data) ? list.data : list.data.shipments || [];
  assert.equal(shipments.length, 1, `one booking for ${orderRef}: ${JSON.stringify(list.data).slice(0, 300)}`);
  const all = await fetch(`${stack.url}/v1/get-shipments?page=1&n_items=50&filter_date_ini=2000-01-01`, {
    headers: { Authorization: `Bearer ${SECRETS[1]}` },
  }).then((r) => r.json());
  assert.equal((Array.isArray(all.data) ? all.data : all.data.shipments || []).length, 1, 'exactly one booking in the sandbox');
  const booked = await fetch(`${stack.url}/v1/get-shipment?dlvr_ref=${ref}`, {
    headers: { Authorization: `Bearer ${SECRETS[1]}` },
  }).then((r) => r.json());
  assert.equal(booked.data.shipping_data.service_code, chosenService.service_code);
  assert.equal(booked.data.drop_point_data.drop_point_key, point.drop_point_key);
  assert.equal(booked.data.to_data.to_zip_code, '08001');
  // Booked at 0 €: the shop charged the free offer's signed price (its
  // log and the confirmation), the cart's 79 € and no shipping.
  assert.match(stack.logs(), new RegExp(`order ${orderRef} charged 79\\.00 EUR \\(shipping 0\\.00, ${chosenService.carrier_code}/${chosenService.service_code}, live\\)`));
  assert.equal((await page.locator('#paid-shipping').textContent()).replace(/[^\d,.]/g, ''), '0,00');
  assert.equal((await page.locator('#paid-total').textContent()).replace(/[^\d,.]/g, ''), '79,00');

  // A reload keeps the confirmation (this tab's sessionStorage) with a fresh demo token.
  await page.reload();
  await page.locator('#confirmation').waitFor({ state: 'visible', timeout: 30000 });
  assert.equal((await page.locator('#dlvr-ref').textContent()).trim(), ref);
  assert.equal((await page.locator('#order-ref').textContent()).trim(), orderRef);
  assert.equal(await page.locator('#checkout').isHidden(), true);

  // The label downloads and is a PDF.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-label').click()]);
  assert.equal(download.suggestedFilename(), `label-${ref}.pdf`);
  const pdf = await fs.readFile(await download.path());
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  assert.ok(pdf.length > 500);

  // Tracking: the timeline shows the current state and its history grows.
  const timeline = page.locator('pg-tracking-timeline');
  await assertEventually(async () => assert.ok((await timeline.locator('li').count()) >= 1), 20000);
  await assertEventually(async () => assert.ok((await timeline.locator('li').count()) >= 3, 'tracking advanced'), 60000);
  assert.match(await shadowText(timeline), /tránsito|entregado|preparación|recogido/i);
  await page.locator('#confirmation').screenshot({ path: path.join(SHOTS, 'confirmation.png') });

  // Nothing secret ever reached the page.
  for (const b of bodies) {
    for (const s of SECRETS) {
      assert.ok(!b.text.includes(s), `${b.url} leaks a secret`);
      assert.ok(!JSON.stringify(b.headers).includes(s), `${b.url} headers leak a secret`);
    }
  }
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, [], 'no error on the console, no failed request');
  assert.ok(!SECRETS.some((s) => stack.logs().includes(s)), 'no secret in the worker logs');
  await context.close();
});

test('a real upstream configured: no demo token, the shop says it cannot book (in Spanish, its default)', { timeout: 180000 }, async () => {
  // A fake "real" upstream; the worker must never mint demo tokens in front of it.
  const upstream = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"status":"ok","data":{"carriers":[]}}');
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  const remote = await startStack({ vars: { UPSTREAM_BASE_URL: `http://127.0.0.1:${upstream.address().port}/v1` } });
  try {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${remote.url}/demo/token`, { method });
      const body = await res.json();
      assert.equal(res.status, 404, `${method} /demo/token`);
      assert.equal(body.status, 'err');
      assert.ok(!JSON.stringify(body).includes('token"'), 'no token in the answer');
    }
    const context = await browser.newContext();
    const { page } = await openShop(context, remote.url);
    await assertEventually(async () => assert.match(await page.locator('#mode-note').textContent(), /no hacer pedidos/));
    await context.close();
  } finally {
    await remote.stop();
    await new Promise((r) => upstream.close(r));
  }
});

test('a phone, in Spanish, keyboard only: no overflow at 360 and 320 px, 24 px targets, axe clean, focus on the confirmation', { timeout: 240000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: PHONE_HEIGHT }, isMobile: true, hasTouch: true, locale: 'es-ES' });
  const { page, pageErrors } = await openShop(context, stack.url);
  const report = [];
  const failures = [];
  // Every step of the checkout is measured at both phone widths and audited by axe-core.
  const check = async (step) => {
    const layouts = await measureAtPhoneWidths(page);
    for (const w of PHONE_WIDTHS) {
      const l = layouts[w];
      report.push(`${step} at ${w} px: overflow ${l.overflow} px, targets under 24 px ${l.small.length}`);
      if (l.overflow || l.small.length || l.hosts.length || l.outside.length) failures.push(`${step} at ${w} px: overflow ${l.overflow} px; ${[...l.hosts, ...l.outside, ...l.small].join('; ')}`);
    }
    const violations = await axeViolations(page);
    report.push(`${step}: axe violations ${violations.length}`);
    for (const v of violations) failures.push(`${step}: axe ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).join(' | ')}`);
  };
  const focused = () => page.evaluate(() => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return { tag: a.tagName.toLowerCase(), name: a.getAttribute('name') || '', id: a.id, type: a.type || '', host: a.getRootNode().host?.id || '' };
  });
  const tabTo = async (want, max = 40) => {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const f = await focused();
      if (want(f)) return f;
    }
    throw new Error(`Tab never reached the wanted element (last: ${JSON.stringify(await focused())})`);
  };

  await page.locator('pg-address-form').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  await check('empty checkout');

  // The address, typed field after field.
  await tabTo((f) => f.name === 'to_name');
  await page.keyboard.type('Ana García');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Carrer de Pau Claris 1');
  await page.keyboard.press('Tab'); // country: Spain already
  await page.keyboard.press('Tab');
  assert.equal((await focused()).name, 'to_zip_code');
  await page.keyboard.type('08001');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Barcelona');
  await page.keyboard.press('Tab');
  await page.keyboard.type('600000000');
  await page.keyboard.press('Tab');
  await page.keyboard.type('ana@example.com');
  await assertEventually(async () => assert.equal(await page.evaluate(() => document.getElementById('address').valid), true));

  // Pick-up at a drop point: the delivery mode, then a service, then a point, all with the keyboard.
  await tabTo((f) => f.name === 'mode');
  await page.keyboard.press('ArrowRight');
  await assertEventually(async () => assert.equal(await page.evaluate(() => document.querySelector('input[name=mode]:checked').value), 'drop-point'));
  await assertEventually(async () => assert.equal(await page.evaluate(() => document.getElementById('rates').state), 'ready'));
  await tabTo((f) => f.host === 'rates' && f.type === 'radio');
  await page.keyboard.press('Space');
  await assertEventually(async () => assert.ok(await page.evaluate(() => document.getElementById('rates').value)));
  await assertEventually(async () => assert.equal(await page.evaluate(() => document.getElementById('drop-points').state), 'ready'));
  await tabTo((f) => f.host === 'drop-points' && f.type === 'radio');
  await page.keyboard.press('Space');
  await assertEventually(async () => assert.ok(await page.evaluate(() => document.getElementById('drop-points').value)));
  await check('address, service and drop point chosen');

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, 'checkout-phone-es.png'), fullPage: true });
  if (process.env.PARCELGATE_PHONE_SCREENSHOT) {
    await page.screenshot({ path: path.resolve(ROOT, process.env.PARCELGATE_PHONE_SCREENSHOT), fullPage: true });
  }

  // Place the order with Enter; the confirmation takes the focus, and shows it.
  await tabTo((f) => f.id === 'place-order');
  await page.keyboard.press('Enter');
  await page.locator('#confirmation').waitFor({ state: 'visible', timeout: 30000 });
  const focus = await page.evaluate(() => {
    const a = document.activeElement;
    const cs = getComputedStyle(a);
    return { id: a.id, outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth) };
  });
  assert.equal(focus.id, 'confirmation');
  assert.notEqual(focus.outline, 'none', 'the focused confirmation shows a focus ring');
  assert.ok(focus.width >= 2, `focus ring ${focus.width} px`);
  await assertEventually(async () => assert.ok((await page.locator('pg-tracking-timeline li').count()) >= 1), 30000);
  await check('confirmation');

  console.log(report.join('\n'));
  assert.deepEqual(failures, []);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

/** The text of a widget's shadow root (textContent() of a host does not enter it). */
function shadowText(locator) {
  return locator.evaluate((el) => (el.shadowRoot || el).textContent);
}

/**
 * The visible texts that tell the shopper what to enter before delivery services show: the
 * shop's route line and the rate selector's status (the drop-point step is hidden until chosen).
 */
async function visibleHints(page) {
  return page.evaluate(() => {
    const shown = (el) => el && el.textContent.trim() && el.checkVisibility();
    const status = document.querySelector('pg-rate-selector').shadowRoot.querySelector('.pg-status');
    return [document.getElementById('route-hint'), status].filter(shown).map((el) => el.textContent);
  });
}
