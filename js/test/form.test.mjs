// A checkout form in headless Chromium: typing an invalid postal code
// shows the edge's error while typing; fixing it clears the error.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('postal code error shows while typing and clears when fixed', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/js/test/pages/form.html`);
  await page.waitForSelector('body[data-ready="true"]');
  const error = page.locator('#zip_code-error');
  const zip = page.locator('#zip_code');

  await zip.pressSequentially('5300');
  await assert.doesNotReject(() => error.filter({ hasText: 'Spanish postal codes have 5 digits' }).waitFor());
  assert.equal(await zip.getAttribute('aria-invalid'), 'true');

  await zip.pressSequentially('1'); // 53001: five digits, but no such province
  await error.filter({ hasText: 'province number from 01 to 52' }).waitFor();

  await zip.fill('');
  await zip.pressSequentially('3500');
  await error.filter({ hasText: '5 digits' }).waitFor();
  await zip.pressSequentially('1');
  await page.waitForFunction(() => document.getElementById('zip_code-error').textContent === '');
  assert.equal(await zip.getAttribute('aria-invalid'), 'false');
  assert.equal(await page.locator('#zone').textContent(), 'Zone: canary');

  // The same code is wrong for another country: the rule follows the context.
  await page.selectOption('#country_code', 'PT');
  await error.filter({ hasText: 'Portuguese postal codes' }).waitFor();
  await zip.fill('');
  await zip.pressSequentially('1100 053');
  await page.waitForFunction(() => document.getElementById('zip_code-error').textContent === '');
  await page.close();
});
