// Widgets whose validation module cannot be loaded (a bundler that did not
// emit the wasm, a wrong configure({wasm}) URL): they say so instead of
// sending unchecked requests: a pg-error of category core_unavailable, a
// console error naming the fix, the rate selector in its error state with a
// message for the shopper, the address form marked data-core="unavailable",
// and no request to the edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { widgetHarness } from './widget-harness.mjs';

const h = widgetHarness({ page: 'widgets-core-missing.html' });

test('a missing validation module is reported, and nothing is sent unchecked', async () => {
  const page = await h.browser.newPage({ locale: 'en-GB' });
  const consoleErrors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.goto(`${h.server.url}/js/test/pages/widgets-core-missing.html`);
  await page.waitForSelector('body[data-ready="true"]');

  await h.eventually(async () => {
    const events = await page.evaluate(() => window.events);
    assert.deepEqual(events.map((e) => e.tag).sort(), ['pg-address-form', 'pg-rate-selector']);
    for (const e of events) {
      assert.equal(e.category, 'core_unavailable');
      assert.equal(e.name, 'ParcelgateError');
      assert.match(e.message, /validation module could not be loaded.*configure\(\{wasm\}\)/);
    }
  });
  const rates = page.locator('pg-rate-selector');
  assert.equal(await rates.evaluate((el) => el.state), 'error');
  assert.match(await rates.locator('[part~=status]').textContent(), /could not load its checks\. Reload the page to try again\./);
  assert.equal(await page.locator('pg-address-form').getAttribute('data-core'), 'unavailable');
  assert.ok(consoleErrors.some((t) => /parcelgate: <pg-rate-selector>: the validation module could not be loaded/.test(t)), consoleErrors.join('\n'));
  assert.deepEqual(h.edge.log, [], 'a request reached the edge without the core');
  await page.close();
});
