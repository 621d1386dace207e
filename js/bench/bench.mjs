// In-browser benchmark (headless Chromium): prints a table. Not a test.
import { startServer, launchBrowser } from '../test/helpers.mjs';

const PAGES = Number(process.env.BENCH_PAGES || 15);
const server = await startServer();
const browser = await launchBrowser();
try {
  const rows = [];
  for (let i = 0; i < PAGES; i++) {
    const page = await browser.newPage();
    await page.goto(`${server.url}/js/bench/bench.html`);
    await page.waitForFunction(() => window.results, null, { timeout: 120000 });
    rows.push(await page.evaluate(() => window.results));
    await page.close();
  }
  const med = (k) => {
    const xs = rows.map((r) => r[k]).filter((x) => x != null).sort((a, b) => a - b);
    return xs.length ? xs[(xs.length - 1) >> 1] : null;
  };
  const range = (k) => {
    const xs = rows.map((r) => r[k]).filter((x) => x != null);
    return xs.length ? `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}` : '';
  };
  const fmt = (n, unit) => (n == null ? 'n/a' : `${n.toFixed(n < 10 ? 2 : 1)} ${unit}`);
  if (rows.some((r) => r.firstErrors !== 0 || r.baselineErrors !== 0 || r.baselineEmptyErrors < 15)) {
    throw new Error(`bench: the request should be valid for both validations: ${JSON.stringify(rows[0])}`);
  }
  console.log(`in-browser benchmark (headless Chromium, median of ${PAGES} page loads; per-call = median of 7 runs; range over pages)`);
  const table = [
    ['load(): fetch + compile + instantiate (localhost)', fmt(med('loadMs'), 'ms'), range('loadMs')],
    ['  of which fetching parcelgate.wasm', fmt(med('wasmFetchMs'), 'ms'), range('wasmFetchMs')],
    ['  after the bytes arrived (compile rest + instantiate)', fmt(med('afterBytesMs'), 'ms'), range('afterBytesMs')],
    ['first validate call after load()', fmt(med('firstCallMs'), 'ms'), range('firstCallMs')],
    ['loadDecoder() (on the first decode)', fmt(med('decoderLoadMs'), 'ms'), range('decoderLoadMs')],
    ['validate, full new-shipment request (2 parcels)', fmt(med('validateUs'), 'us/call'), range('validateUs')],
    ['  same, locale es', fmt(med('validateEsUs'), 'us/call'), range('validateEsUs')],
    ['  empty request, 16 errors, locale es', fmt(med('invalidUs'), 'us/call'), range('invalidUs')],
    ['validateField, same request, one field', fmt(med('validateFieldUs'), 'us/call'), range('validateFieldUs')],
    ['encode, same request', fmt(med('encodeUs'), 'us/call'), range('encodeUs')],
    ['postal("ES", ...)', fmt(med('postalUs'), 'us/call'), range('postalUs')],
    ['plain-JS baseline validation, same request', fmt(med('baselineUs'), 'us/call'), range('baselineUs')],
  ];
  for (const [k, v, r] of table) console.log(`${k.padEnd(56)} ${v.padStart(13)}   ${r}`);
  const ratio = med('validateUs') / med('baselineUs');
  console.log(`validate / plain-JS baseline: ${ratio.toFixed(1)}x (the core checks every spec rule; the baseline a shop's subset)`);
} finally {
  await browser.close();
  await server.close();
}
