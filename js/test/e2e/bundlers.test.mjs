// End to end: the packed package in a storefront toolchain. `npm pack` of
// js/ (its prepack check included), the tarball installed into a new project
// offline, the sample page (js/test/e2e/sample/) built with esbuild and with
// Vite and with webpack, no externals, then each build driven in headless Chromium against
// `make dev`'s stack on another origin: the widgets load the validation
// module from where the bundler put it, validate a postal code with the
// core's message, and show rates and drop points from the edge's normalized
// answers without fetching the decoder module.
//
// Run: make test-e2e (builds what it needs).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, launchBrowser, startServer, eventually as poll } from '../helpers.mjs';
import { startStack } from './stack.mjs';

const run = promisify(execFile);
const SAMPLE = path.join(ROOT, 'js/test/e2e/sample');
const OUT = path.join(ROOT, 'build/e2e/bundlers');

let stack;
let server;
let browser;
let project;
const PARCEL = { parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 };

const html = (script) =>
  `<!doctype html>\n<html lang="en">\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width">\n<link rel="icon" href="data:,">\n<title>sample</title>\n<body>\n<script type="module" src="${script}"></script>\n</body>\n</html>\n`;

before(async () => {
  // 1. The package as a shop gets it: npm pack, then npm install of the tarball, offline.
  await fs.rm(OUT, { recursive: true, force: true });
  project = path.join(OUT, 'project');
  await fs.mkdir(project, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', OUT], { cwd: path.join(ROOT, 'js') });
  const packed = JSON.parse(stdout.slice(stdout.indexOf('[')))[0];
  assert.ok(packed.files.some((f) => f.path === 'dist/parcelgate.wasm'), 'the tarball ships the validation module');
  await fs.writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'sample-shop', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(OUT, packed.filename)], { cwd: project });
  for (const f of await fs.readdir(SAMPLE)) if (f.endsWith('.js')) await fs.copyFile(path.join(SAMPLE, f), path.join(project, f));

  // 2. esbuild: one bundle, no externals, the wasm files as assets (setup-esbuild.js).
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: project,
    entryPoints: ['main-esbuild.js'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    outdir: path.join(OUT, 'esbuild'),
    entryNames: 'app',
    assetNames: '[name]-[hash]',
    loader: { '.wasm': 'file' },
    logLevel: 'error',
  });
  await fs.writeFile(path.join(OUT, 'esbuild', 'index.html'), html('./app.js'));

  // 3. Vite (Rollup underneath): the define module only; Vite emits the wasm
  //    from new URL('../dist/parcelgate.wasm', import.meta.url).
  await fs.writeFile(path.join(project, 'index.html'), html('./main.js'));
  const vite = await import('vite');
  await vite.build({
    root: project,
    base: './',
    logLevel: 'error',
    configFile: false,
    build: { outDir: path.join(OUT, 'vite'), emptyOutDir: true },
  });

  // 4. webpack 5: the same main.js; new URL(..., import.meta.url) becomes an asset.
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) =>
    webpack({
      mode: 'production',
      context: project,
      entry: './main.js',
      output: { path: path.join(OUT, 'webpack'), filename: 'app.js', publicPath: './', clean: true },
      resolve: { modules: [path.join(project, 'node_modules')] },
      performance: { hints: false },
    }).run((err, s) => (err ? reject(err) : resolve(s))),
  );
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  assert.ok(!stats.hasWarnings(), stats.toString({ all: false, warnings: true }));
  await fs.writeFile(path.join(OUT, 'webpack', 'index.html'), html('./app.js'));

  server = await startServer();
  stack = await startStack({ vars: { ALLOWED_ORIGINS: server.url } });
  // Warm the stack's first calls of each operation (cold paths are slow on a
  // loaded machine), so that the pages' timings measure the pages.
  const q = new URLSearchParams({ from_country_code: 'ES', from_zip_code: '28014', to_country_code: 'ES', to_zip_code: '08001' });
  for (const [k, v] of Object.entries(PARCEL)) q.set(`parcels[0][${k}]`, String(v));
  for (const target of [`get-shipments-rates?${q}`, `get-shipment-time-arrival-estimation?${q}`,
    'get-drop-points?country_code=ES&zip_code=08001', 'get-client-carriers']) {
    const res = await fetch(`${stack.url}/v1/${target}`, { signal: AbortSignal.timeout(120000) });
    await res.arrayBuffer();
  }
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stack?.stop();
  await server?.close();
});

/** Up to 60 s, every 100 ms: a bundler's first build is slow. */
const eventually = (fn, ms = 60000) => poll(fn, ms, 100);

for (const bundler of ['esbuild', 'vite', 'webpack']) {
  test(`${bundler}: the packed package bundles, validates and shows rates and drop points`, { timeout: 300000 }, async () => {
    const page = await browser.newPage({ locale: 'en-GB' });
    const problems = [];
    const requests = [];
    const normalized = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('response', (res) => {
      requests.push(res.url());
      if (res.status() >= 400) problems.push(`HTTP ${res.status()} ${res.url()}`);
      if (res.url().includes('/v1/')) normalized.push([new URL(res.url()).pathname, res.headers()['parcelgate-data']]);
    });
    await page.goto(`${server.url}/build/e2e/bundlers/${bundler}/index.html?edge=${encodeURIComponent(stack.url)}`);
    await page.waitForSelector('body[data-ready="true"]');

    // The address form validates with the core: the core's message for 0800 in Spain.
    const form = page.locator('pg-address-form');
    const zip = form.getByLabel(/^Postal code/);
    await zip.fill('0800');
    await zip.blur();
    await eventually(async () => {
      assert.equal(await zip.getAttribute('aria-invalid'), 'true');
      const id = (await zip.getAttribute('aria-describedby')).split(' ')[0];
      assert.match(await form.locator(`[id="${id}"]`).textContent(), /Spanish postal codes have 5 digits/);
    });
    await zip.fill('07001');
    await eventually(async () => assert.notEqual(await zip.getAttribute('aria-invalid'), 'true'));

    // Rates and drop points from the edge, on another origin.
    const rates = page.locator('pg-rate-selector');
    await eventually(async () => {
      assert.equal(await rates.evaluate((el) => el.state), 'ready');
      assert.ok((await rates.locator('input[type=radio]').count()) >= 2);
    });
    const prices = await rates.evaluate((el) => el.services.map((s) => s.price));
    assert.ok(prices.every((p) => typeof p === 'number' && p > 0), `prices ${prices}`);
    const points = page.locator('pg-drop-point-picker');
    await eventually(async () => {
      assert.equal(await points.evaluate((el) => el.state), 'ready');
      assert.ok((await points.locator('input[type=radio]').count()) >= 1);
    });

    // Where the bytes came from: the validation module from the bundler's
    // output, never the decoder (the edge normalized every answer).
    const wasm = requests.filter((u) => u.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `wasm fetched: ${wasm.join(', ')}`);
    assert.ok(wasm[0].startsWith(`${server.url}/build/e2e/bundlers/${bundler}/`), wasm[0]);
    assert.doesNotMatch(wasm[0], /decoder/);
    assert.ok(normalized.length >= 3, JSON.stringify(normalized));
    for (const [p, mark] of normalized) assert.equal(mark, 'normalized', p);
    assert.deepEqual(await page.evaluate(() => window.events.filter((e) => e.type === 'pg-error')), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
