// checkout-size.mjs: what a checkout page downloads before the shopper can
// validate an address and see rates and drop points, against its budget
// (make size). Fails above the budget.
//
//   node js/bench/checkout-size.mjs BUDGET_GZIP MAP_BUDGET_GZIP [MAP_FILES...]
//
// Parts, gzip -9:
//   package JS   the widgets' define module and everything it imports (the
//                four widgets, the Client, the core's loader), bundled and
//                minified by esbuild as a shop's build would;
//   validation   dist/parcelgate.wasm, fetched by load();
// and, outside the page's budget: the response decoder (fetched only for an
// answer the edge did not normalize: an error, an older edge), and the
// drop-point map with its own lazy budget (loaded only when the shop turns the
// map on; MAP_FILES: its module and Leaflet). For reference it also prints the package JS
// served unbundled, file by file (a page without a build step).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const JS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const [budgetArg, mapBudgetArg, ...mapFiles] = process.argv.slice(2);
const budget = Number(budgetArg);
const mapBudget = Number(mapBudgetArg);
if (!(budget > 0) || !(mapBudget > 0)) {
  console.error('usage: checkout-size.mjs BUDGET_GZIP MAP_BUDGET_GZIP [MAP_FILES...]');
  process.exit(2);
}

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const row = (name, raw, g, note = '') => console.log(`${name.padEnd(44)} ${kb(raw).padStart(10)} ${kb(g).padStart(10)}  ${note}`);

// The package's own modules a page reaches from an entry (relative imports).
function reach(entry) {
  const seen = new Set();
  const walk = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    // Comments dropped: a JSDoc `@import ... from` names types, not modules.
    const src = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const m of src.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s+['"]([^'"]+)['"]/g)) {
      const spec = m[1] || m[2];
      if (spec.startsWith('.')) walk(path.join(path.dirname(f), spec));
    }
  };
  walk(entry);
  return [...seen];
}

const entry = path.join(JS, 'src/widgets/define.js');
const esbuild = await import('esbuild');
const built = await esbuild.build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  write: false,
  logLevel: 'error',
  // The drop-point map's module is imported only for <pg-drop-point-picker map>: a build
  // with code splitting makes it a chunk of its own, counted with the map below.
  plugins: [{
    name: 'lazy-map',
    setup(b) {
      b.onResolve({ filter: /drop-point-map\.js$/ }, (args) => ({ path: args.path, external: true }));
    },
  }],
});
const bundle = Buffer.from(built.outputFiles[0].contents);
const wasm = fs.readFileSync(path.join(JS, 'dist/parcelgate.wasm'));
const decoder = fs.readFileSync(path.join(JS, 'dist/parcelgate-decoder.wasm'));

console.log(`${'checkout page (before the map)'.padEnd(44)} ${'raw'.padStart(10)} ${'gzip -9'.padStart(10)}`);
row('package JS (widgets/define, esbuild --minify)', bundle.length, gz(bundle), `${reach(entry).length} modules`);
row('validation module (dist/parcelgate.wasm)', wasm.length, gz(wasm));
const total = gz(bundle) + gz(wasm);
row('total', bundle.length + wasm.length, total);
console.log(`budget: ${kb(budget)} gzip (${((total / budget) * 100).toFixed(0)}% used)`);
console.log('');
console.log('not on the checkout path:');
row('response decoder (dist/parcelgate-decoder.wasm)', decoder.length, gz(decoder), 'only for answers the edge did not normalize');
let mapRaw = 0;
let mapGz = 0;
for (const f of mapFiles) {
  const b = fs.readFileSync(f);
  mapRaw += b.length;
  mapGz += gz(b);
}
if (mapFiles.length) row('drop-point map (lazy)', mapRaw, mapGz, `budget ${kb(mapBudget)} (${((mapGz / mapBudget) * 100).toFixed(0)}% used)`);
else console.log(`${'drop-point map (lazy)'.padEnd(44)} ${'none yet'.padStart(21)}  budget ${kb(mapBudget)}`);
let rawFiles = 0;
let gzFiles = 0;
for (const f of reach(entry)) {
  const b = fs.readFileSync(f);
  rawFiles += b.length;
  gzFiles += gz(b);
}
row('package JS unbundled, each file gzipped', rawFiles, gzFiles, 'a page without a build step (reference)');

let failed = false;
if (total > budget) {
  console.error(`size: the checkout page's ${total} gzip bytes exceed the budget of ${budget}`);
  failed = true;
}
if (mapGz > mapBudget) {
  console.error(`size: the map's ${mapGz} gzip bytes exceed its budget of ${mapBudget}`);
  failed = true;
}
if (failed) process.exit(1);
