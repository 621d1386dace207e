// In-browser benchmark (headless Chromium): prints a table. Not a test.
import { startServer, launchBrowser } from '../test/helpers.mjs';

const server = await startServer();
const browser = await launchBrowser();
try {
  const rows = [];
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage();
    await page.goto(`${server.url}/js/bench/bench.html`);
    await page.waitForFunction(() => window.results, null, { timeout: 120000 });
    rows.push(await page.evaluate(() => window.results));
    await page.close();
  }
  const med = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[1];
  const fmt = (n, unit) => (n == null ? 'n/a' : `${n.toFixed(n < 10 ? 2 : 1)} ${unit}`);
  console.log('in-browser benchmark (headless Chromium, median of 3 page loads; per-call = median of 5 runs)');
  const table = [
    ['page start -> first validation result (new-shipment)', fmt(med('firstResultMs'), 'ms')],
    ['  of which fetching parcelgate.wasm', fmt(med('wasmFetchMs'), 'ms')],
    ['validate, full new-shipment request (2 parcels)', fmt(med('validateUs'), 'us/call')],
    ['validateField, same request, one field', fmt(med('validateFieldUs'), 'us/call')],
    ['encode, same request', fmt(med('encodeUs'), 'us/call')],
    ['postal("ES", ...) in wasm', fmt(med('postalUs'), 'us/call')],
    ['plain-JS regular expression, Spanish postal code', fmt(med('regexUs'), 'us/call')],
  ];
  for (const [k, v] of table) console.log(`${k.padEnd(56)} ${v.padStart(14)}`);
} finally {
  await browser.close();
  await server.close();
}
