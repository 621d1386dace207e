// Every README section the package's sources cite (runtime messages and comments in js/src, and
// the declarations) exists, so a developer sent there by an error finds it. A citation is
// `README, "Section"` or `README ("Section")`, optionally with a path (`worker/README.md, "..."`);
// without a path it is js/README.md. A heading matches when it is the name, or the name followed
// by ':' (`## Checkout widgets: ...`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.mjs';

const CITATION = /(?:([\w./-]+\/))?README(?:\.md)?(?:, | \()\\?"([^"\\]+)\\?"/g;

function files(dir, ext) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(full, ext));
    else if (entry.name.endsWith(ext)) out.push(full);
  }
  return out;
}

function headings(readme) {
  return fs
    .readFileSync(readme, 'utf8')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, '').trim());
}

test('every README section cited in js/src and the declarations exists', () => {
  const sources = [
    ...files(path.join(ROOT, 'js', 'src'), '.js'),
    ...files(path.join(ROOT, 'js'), '.d.ts').filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`)),
  ];
  const cited = [];
  for (const file of sources) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(CITATION)) {
      const readme = m[1] ? path.join(ROOT, m[1], 'README.md') : path.join(ROOT, 'js', 'README.md');
      cited.push({ where: path.relative(ROOT, file), readme, section: m[2] });
    }
  }
  // The messages that send developers to a section (the loader's, the widgets') are among them.
  const names = cited.map((c) => `${c.where}: ${c.section}`);
  assert.ok(names.includes('js/src/core.js: Bundlers'), names.join('\n'));
  assert.ok(names.includes('js/src/widgets/base.js: Bundlers'), names.join('\n'));
  const missing = cited.filter(({ readme, section }) => {
    if (!fs.existsSync(readme)) return true;
    return !headings(readme).some((h) => h === section || h.startsWith(`${section}:`));
  });
  assert.deepEqual(missing.map((c) => `${c.where} cites ${path.relative(ROOT, c.readme)}, "${c.section}"`), []);
});

test("the loader's HTML-page error names Vite's optimizeDeps.exclude and the section that says so", async () => {
  const { load } = await import('@parcelgate/js');
  const page = new Response('<!doctype html><title>app</title>', { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  const err = await load({ wasm: page }).then(() => null, (e) => e);
  assert.ok(err, 'load() rejects');
  assert.match(err.message, /answered an HTML page, not the WebAssembly module/);
  assert.match(err.message, /optimizeDeps: \{exclude: \['@parcelgate\/js'\]\}/);
  assert.match(err.message, /README, "Bundlers"/);
  const readme = fs.readFileSync(path.join(ROOT, 'js', 'README.md'), 'utf8');
  const section = readme.split(/^### Bundlers$/m)[1]?.split(/^#{1,3} /m)[0] ?? '';
  assert.match(section, /optimizeDeps: \{ ?exclude: \['@parcelgate\/js'\] ?\}/, 'the Bundlers section has the Vite recipe');
  assert.match(section, /esbuild/);
  assert.match(section, /webpack/);
});

test("the loader's 404 error cites the Bundlers section", async () => {
  const { load } = await import('@parcelgate/js');
  const missing = new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  await assert.rejects(load({ wasm: missing }), /failed with HTTP 404: .*README, "Bundlers"/);
});
