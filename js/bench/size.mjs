// size.mjs BUDGET SHIPPED... -- REFERENCE...: prints raw and gzip (level 9)
// sizes; fails when the shipped files together exceed BUDGET gzip bytes.
import fs from 'node:fs';
import zlib from 'node:zlib';

const [budgetArg, ...rest] = process.argv.slice(2);
const budget = Number(budgetArg);
const sep = rest.indexOf('--');
const shipped = sep < 0 ? rest : rest.slice(0, sep);
const reference = sep < 0 ? [] : rest.slice(sep + 1);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const row = (name, raw, gz) => console.log(`${name.padEnd(40)} ${kb(raw).padStart(11)} ${kb(gz).padStart(11)}`);
const measure = (f) => {
  const b = fs.readFileSync(f);
  return [b.length, zlib.gzipSync(b, { level: 9 }).length];
};

console.log(`${'file'.padEnd(40)} ${'raw'.padStart(11)} ${'gzip -9'.padStart(11)}`);
let raw = 0;
let gz = 0;
for (const f of shipped) {
  const [r, g] = measure(f);
  raw += r;
  gz += g;
  row(f, r, g);
}
row('total shipped', raw, gz);
console.log(`budget: ${kb(budget)} gzip (${gz} of ${budget} B, ${((gz / budget) * 100).toFixed(0)}% used)`);
for (const f of reference) {
  if (!fs.existsSync(f)) continue;
  const [r, g] = measure(f);
  row(`${f} (standard Go, not shipped)`, r, g);
}
if (gz > budget) {
  console.error(`size: ${gz} gzip bytes exceed the budget of ${budget}`);
  process.exit(1);
}
