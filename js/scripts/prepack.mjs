// prepack: `npm pack` / `npm publish` of @parcelgate/js fail when a
// WebAssembly module the package ships is missing (a fresh clone has none:
// they are built, not committed), instead of packing a package whose load()
// can only 404.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The package's folder (an argument only for the test, js/test/ssr.test.mjs).
const dir = process.argv[2] || path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const missing = pkg.files.filter((f) => f.endsWith('.wasm')).filter((f) => {
  try {
    return fs.statSync(path.join(dir, f)).size === 0;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  console.error(
    `@parcelgate/js: cannot pack: ${missing.join(', ')} missing. They are built, not committed: ` +
      'run `make wasm` at the repository root (it installs TinyGo), then pack again.',
  );
  process.exit(1);
}
