// Importing the package where there is no DOM (Node, server-side rendering):
// every entry and subpath of package.json's exports imports without touching
// the DOM, the widgets' class modules register nothing, the define modules
// register through whatever registry exists, and no module a browser bundle
// reaches imports a node: module (they sit behind the `node` condition).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const JS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(JS, 'package.json'), 'utf8'));

// The subpaths that are modules (not the .wasm files or package.json).
const moduleSubpaths = Object.keys(pkg.exports).filter((k) => !k.endsWith('.wasm') && k !== './package.json');

test('there is no DOM in this process', () => {
  assert.equal(typeof globalThis.HTMLElement, 'undefined');
  assert.equal(typeof globalThis.document, 'undefined');
});

// Runs first (node:test runs tests in order): a registry that records what is
// defined, to tell class modules from define modules.
const defined = [];
test('the class modules register nothing; the define modules register their element', async () => {
  globalThis.customElements = {
    get: (name) => defined.find((d) => d.name === name)?.cls,
    define: (name, cls) => defined.push({ name, cls }),
  };
  try {
    const classes = {};
    for (const w of ['address-form', 'rate-selector', 'drop-point-picker', 'tracking-timeline']) {
      Object.assign(classes, await import(`@parcelgate/js/widgets/${w}`));
    }
    assert.deepEqual(defined, [], 'importing a class module registered an element');
    const one = await import('@parcelgate/js/widgets/rate-selector-define');
    assert.deepEqual(defined.map((d) => d.name), ['pg-rate-selector']);
    assert.equal(one.PgRateSelector, classes.PgRateSelector);
    assert.equal(defined[0].cls, classes.PgRateSelector);
    await import('@parcelgate/js/widgets/define');
    assert.deepEqual(defined.map((d) => d.name).sort(), ['pg-address-form', 'pg-drop-point-picker', 'pg-rate-selector', 'pg-tracking-timeline']);
    // @parcelgate/js/widgets registers too (as it always has), and twice is harmless.
    const all = await import('@parcelgate/js/widgets');
    assert.equal(defined.length, 4);
    assert.equal(all.PgAddressForm, classes.PgAddressForm);
  } finally {
    delete globalThis.customElements;
  }
});

test('every subpath of the exports imports in Node without a DOM', async () => {
  assert.ok(moduleSubpaths.length >= 13, `only ${moduleSubpaths.length} subpaths`);
  for (const sub of moduleSubpaths) {
    const spec = sub === '.' ? '@parcelgate/js' : `@parcelgate/js/${sub.slice(2)}`;
    const mod = await import(spec);
    assert.equal(typeof mod, 'object', spec);
  }
  const widgets = await import('@parcelgate/js/widgets');
  for (const name of ['PgAddressForm', 'PgRateSelector', 'PgDropPointPicker', 'PgTrackingTimeline', 'PgElement']) {
    assert.equal(typeof widgets[name], 'function', name);
  }
  // Static members a server renderer may read work without a DOM.
  assert.ok(widgets.PgRateSelector.observedAttributes.includes('to-zip'));
});

test('the package root in Node is the node entry, and load() reads the module from disk', async () => {
  const root = await import('@parcelgate/js');
  const direct = await import('../src/node.js');
  assert.equal(root.load, direct.load);
  const wasm = path.join(JS, 'dist', 'parcelgate.wasm');
  assert.ok(fs.existsSync(wasm), 'js/dist/parcelgate.wasm is missing: make wasm (make test-js builds it)');
  const core = await root.load();
  assert.equal(core.postal('ES', '07001').zone, 'balearic');
  const byPath = await root.load({ wasm });
  assert.equal(byPath.postal('ES', '28001').valid, true);
});

test('no module a browser bundle reaches imports a node: module', () => {
  const seen = new Set();
  const offenders = [];
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Comments out first: JSDoc's import('...') types are not imports.
    const src = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of src.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]|import\s+['"]([^'"]+)['"]/g)) {
      const spec = m[1] || m[2] || m[3];
      if (spec.startsWith('node:')) offenders.push(`${path.relative(JS, file)} imports ${spec}`);
      else if (spec.startsWith('.')) walk(path.join(path.dirname(file), spec));
    }
  };
  // Every entry the default (browser) condition names.
  for (const v of Object.values(pkg.exports)) {
    const target = typeof v === 'string' ? v : v.default;
    if (target.endsWith('.js')) walk(path.join(JS, target));
  }
  assert.ok(seen.size >= 13, `walked ${seen.size} modules`);
  assert.deepEqual(offenders, []);
  // ...and the node condition exists for the root.
  assert.equal(pkg.exports['.'].node, './src/node.js');
});

test('every module subpath has declarations, and make test-types checks them', () => {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(JS, 'tsconfig.json'), 'utf8'));
  for (const sub of moduleSubpaths) {
    const v = pkg.exports[sub];
    assert.equal(typeof v.types, 'string', `${sub} has no types`);
    assert.ok(fs.existsSync(path.join(JS, v.types)), `${sub}: ${v.types} is missing`);
    assert.ok(tsconfig.files.includes(v.types.slice(2)), `${sub}: ${v.types} is not in tsconfig.json's files`);
    assert.ok(pkg.files.some((f) => v.types.slice(2) === f || v.types.slice(2).startsWith(f)), `${sub}: ${v.types} is not packed`);
  }
});

test('npm pack (prepack) refuses a package without its WebAssembly modules, and says how to build them', async () => {
  const { execFileSync } = await import('node:child_process');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-prepack-'));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ files: ['src/', 'dist/parcelgate.wasm', 'dist/parcelgate-decoder.wasm'] }));
    const script = path.join(JS, 'scripts', 'prepack.mjs');
    let failure = null;
    try {
      execFileSync(process.execPath, [script, dir], { stdio: 'pipe' });
    } catch (err) {
      failure = err;
    }
    assert.ok(failure, 'prepack passed without the wasm');
    assert.match(String(failure.stderr), /cannot pack: dist\/parcelgate\.wasm, dist\/parcelgate-decoder\.wasm missing.*make wasm/);
    fs.mkdirSync(path.join(dir, 'dist'));
    fs.writeFileSync(path.join(dir, 'dist', 'parcelgate.wasm'), 'x');
    fs.writeFileSync(path.join(dir, 'dist', 'parcelgate-decoder.wasm'), 'x');
    execFileSync(process.execPath, [script, dir], { stdio: 'pipe' });
    // The package's own script is the one npm runs.
    assert.equal(pkg.scripts.prepack, 'node scripts/prepack.mjs');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a fallback HTML page where the module should be is named as such', async () => {
  const { load } = await import('@parcelgate/js');
  const page = new Response('<!doctype html><title>app</title>', { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  await assert.rejects(load({ wasm: page }), /answered an HTML page, not the WebAssembly module: .*configure\(\{wasm\}\)/);
});
