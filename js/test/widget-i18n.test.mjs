// Every state of every widget (js/test/widget-states.mjs) and of the demo
// shop, in each of the seven languages, in headless Chromium: every string a
// shopper can see or hear (text nodes, aria-label, placeholder, title, alt,
// button values, the page title) must come from that language's table
// (internal/i18n/ui.go, generated into js/src/widgets/strings/ and
// js/demo/strings.js) or the core's messages (testdata/messages.json), with
// placeholders filled by Intl (numbers, dates, units, money, country names,
// lists) or by data from the API (carrier and service names, addresses).
// Prints the count of foreign strings per language; any is a failure.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, startServer, launchBrowser } from './helpers.mjs';
import { STATES, LANGS, FIXTURES } from './widget-states.mjs';

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

// ---- what a language may show --------------------------------------------------

const widgetTables = {};
const demoTables = (await import(path.join(ROOT, 'js/demo/strings.js'))).default;
for (const l of LANGS) widgetTables[l] = (await import(path.join(ROOT, `js/src/widgets/strings/${l}.js`))).default;

// The core's messages in each language (every one the Go tests probe).
const coreMessages = (() => {
  const m = JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata', 'messages.json'), 'utf8'));
  const out = Object.fromEntries(LANGS.map((l) => [l, new Set()]));
  for (const r of m.requests) for (const [l, errs] of Object.entries(r.errors || {})) for (const e of errs) out[l]?.add(e.message);
  for (const p of m.postal) for (const [l, msg] of Object.entries(p.message || {})) if (msg) out[l]?.add(msg);
  return out;
})();

// Data from the API (and what the shopper typed): every string of the canned
// answers except the edge's messages for developers and the carrier's
// tracking_name (a status the widget names in the shopper's language).
const DEV_KEYS = new Set(['_doc', 'errorMessage', 'message', 'tracking_name', 'errorClass', 'hint']);
const dataStrings = new Set();
(function walk(v, key) {
  if (typeof v === 'string') {
    if (!DEV_KEYS.has(key)) dataStrings.add(v);
  } else if (Array.isArray(v)) for (const x of v) walk(x, key);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (!DEV_KEYS.has(k)) walk(x, k);
})(FIXTURES);
// The addresses the states type in, and the demo shop's origin.
for (const s of ['Lucía Pérez', 'Carrer de Pau Claris 10', 'Barcelona', 'lucia@example.com', 'Jean Martin', '1 rue de Rivoli', 'Paris', 'Madrid', 'lucia@', 'Ferretería Luna']) {
  dataStrings.add(s);
}
const words = (s) => s.match(/[\p{L}][\p{L}\p{M}'’.-]*/gu) || [];
const dataWords = new Set([...dataStrings].flatMap(words));

function templates(table) {
  const out = [];
  for (const v of Object.values(table)) {
    for (const raw of typeof v === 'object' ? Object.values(v) : [v]) {
      const t = raw.replace(/\s+/g, ' '); // as the page's strings are compared (no-break spaces too)
      const names = [];
      const re = t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{(\w+)\\\}/g, (m, n) => {
        names.push(n);
        return '(.+?)';
      });
      out.push({ t, re: new RegExp(`^${re}$`, 'su'), names });
    }
  }
  return out;
}

const compiled = Object.fromEntries(LANGS.map((l) => [l, templates({ ...widgetTables[l], ...demoTables[l] })]));

/** Whether s may be shown on a page in lang (intl: what Intl writes in that locale). */
function allowed(s, lang, intl, depth = 0) {
  s = s.replace(/\s+/g, ' ').trim();
  if (s === '' || !/\p{L}/u.test(s)) return true; // numbers, times, prices, punctuation
  if (dataStrings.has(s) || intl.strings.has(s) || coreMessages[lang].has(s)) return true;
  // Reference codes (SBX0000000042, WEB-…, RY-ES-08001-1) and URLs. The demo's order reference is
  // WEB- and the time in base 36 (js/demo/demo.js), which now and then has no digit at all
  // ("WEB-MWWCTHMW" failed a clean-clone run in two languages).
  if (/^[A-Z0-9][A-Z0-9-]*\d[A-Z0-9-]*$/.test(s) || /^WEB-[0-9A-Z]+$/.test(s) || /^https?:\/\/\S+$/.test(s)) return true;
  const w = words(s);
  if (w.length && w.every((x) => dataWords.has(x) || intl.words.has(x) || /^[A-Z0-9-]*\d[A-Z0-9-]*$/.test(x))) return true;
  if (depth > 3) return false;
  for (const { re } of compiled[lang]) {
    const m = re.exec(s);
    if (m && m.slice(1).every((v) => allowed(v, lang, intl, depth + 1))) return true;
  }
  // Two sentences of the table one after the other (a widget's "could not
  // be loaded." and what to do).
  for (let i = s.indexOf('. '); i > 0; i = s.indexOf('. ', i + 1)) {
    if (allowed(s.slice(0, i + 1), lang, intl, depth + 1) && allowed(s.slice(i + 2), lang, intl, depth + 1)) return true;
  }
  // A list as Intl.ListFormat writes it, of allowed items.
  const items = s.split(intl.listSeparators);
  if (items.length > 1 && items.every((x) => x && allowed(x, lang, intl, depth + 1))) return true;
  return false;
}

// ---- what the page shows ---------------------------------------------------------

/** Every string of root (a widget: its shadow root; the demo: the page, into shadow roots) with where it is. */
function collect(selector) {
  const out = [];
  const ATTRS = ['aria-label', 'placeholder', 'title', 'alt', 'aria-description', 'aria-roledescription', 'aria-valuetext'];
  const lang = document.documentElement.lang.split('-')[0];
  const foreign = (el) => {
    const l = el.closest('[lang]')?.getAttribute('lang') || '';
    return l && l.split('-')[0] !== lang;
  };
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 4; e = e.parentNode) {
      parts.unshift(e.localName + (e.id ? `#${e.id}` : '') + (e.getAttribute('part') ? `[part=${e.getAttribute('part')}]` : ''));
    }
    return parts.join(' > ');
  };
  // A language's own name (the demo's language switch), as Intl names it.
  const endonym = (el, text) => {
    const l = el.getAttribute('lang');
    try {
      return l && new Intl.DisplayNames([l], { type: 'language' }).of(l).toLowerCase() === text.trim().toLowerCase();
    } catch {
      return false;
    }
  };
  const walk = (node) => {
    for (const n of node.childNodes) {
      if (n.nodeType === 3) {
        const p = n.parentElement || node.host;
        if (!n.data.trim() || (p && foreign(p)) || (p && p.hasAttribute('lang') && endonym(p, n.data))) continue;
        // A sentence around elements (a link, a code) is checked whole too.
        const context = p && p.children.length ? p.textContent : '';
        out.push({ text: n.data, context, where: p ? where(p) : '#shadow' });
      } else if (n.nodeType === 1) {
        if (['STYLE', 'SCRIPT', 'TEMPLATE', 'CODE'].includes(n.tagName) || foreign(n)) continue;
        for (const a of ATTRS) if (n.hasAttribute(a) && n.getAttribute(a).trim()) out.push({ text: n.getAttribute(a), where: `${where(n)} @${a}` });
        if (n.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(n.type) && n.value) out.push({ text: n.value, where: `${where(n)} @value` });
        if (n.shadowRoot) walk(n.shadowRoot);
        walk(n);
      }
    }
  };
  const root = document.querySelector(selector);
  if (root.shadowRoot) walk(root.shadowRoot);
  if (selector === 'body') {
    walk(root);
    out.push({ text: document.title, where: 'title' });
  }
  return out;
}

/** The words and strings Intl writes in locale: months, weekdays, day periods, units, lists, countries, currencies. */
function intlVocabulary(locale) {
  const strings = new Set();
  const add = (s) => strings.add(s);
  const y = 2026;
  for (let m = 0; m < 12; m++) {
    for (const month of ['short', 'long']) {
      const d = new Date(y, m, 10 + (m % 7), 15, 30);
      add(new Intl.DateTimeFormat(locale, { month }).format(d));
      add(new Intl.DateTimeFormat(locale, { weekday: month, day: 'numeric', month }).format(d));
      add(new Intl.DateTimeFormat(locale, { weekday: month }).format(d));
      add(new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(d));
      add(new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(d));
      add(new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(new Date(y, m, 1, 9, 0)));
      add(new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).formatRange(new Date(y, m, 1, 9, 0), new Date(y, m, 1, 15, 30)));
    }
  }
  for (let d = 0; d < 7; d++) {
    const day = new Date(y, 10, 22 + d, 13, 22);
    for (const weekday of ['short', 'long']) {
      add(new Intl.DateTimeFormat(locale, { weekday }).format(day));
      add(new Intl.DateTimeFormat(locale, { weekday, day: 'numeric', month: weekday }).format(day));
    }
  }
  for (const unit of ['kilometer', 'kilogram', 'centimeter', 'second']) {
    for (const unitDisplay of ['short', 'long']) for (const n of [1, 2, 2.5, 60]) add(new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay }).format(n));
  }
  for (const type of ['conjunction', 'unit']) add(new Intl.ListFormat(locale, { type }).format(['1', '2', '3']));
  add(new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(1));
  const regions = new Intl.DisplayNames(locale, { type: 'region' });
  for (const c of window.COUNTRY_CODES) add(regions.of(c));
  const words = new Set();
  for (const s of strings) for (const w of s.match(/[\p{L}][\p{L}\p{M}.]*/gu) || []) words.add(w);
  // What Intl.ListFormat puts between items, for lists of texts.
  const seps = new Set();
  for (const type of ['conjunction', 'disjunction', 'unit']) {
    for (const n of [2, 3]) {
      const parts = new Intl.ListFormat(locale, { type }).formatToParts(Array.from({ length: n }, (_, i) => `x${i}`));
      for (const p of parts) if (p.type === 'literal') seps.add(p.value);
    }
  }
  return { strings: [...strings], words: [...words], seps: [...seps] };
}

const COUNTRY_CODES = (() => {
  const src = fs.readFileSync(path.join(ROOT, 'js/src/widgets/address-form.js'), 'utf8');
  const m = /export const COUNTRIES = \[([\s\S]*?)\];/.exec(src);
  return [...m[1].matchAll(/'([A-Z]{2})'/g)].map((x) => x[1]);
})();

// ---- the walk ----------------------------------------------------------------------

test('every widget and demo state shows only strings of its language', { timeout: 20 * 60 * 1000 }, async () => {
  const foreign = Object.fromEntries(LANGS.map((l) => [l, []]));
  const seen = Object.fromEntries(LANGS.map((l) => [l, 0]));
  // PG_I18N_LANGS=es,fr narrows a run while translating (the full run walks all seven).
  const langs = process.env.PG_I18N_LANGS ? process.env.PG_I18N_LANGS.split(',') : LANGS;
  for (const lang of langs) {
    let intl = null;
    // One browser context per language (its locale is not the page's, on
    // purpose); the widget states reuse one page, the demo gets a fresh one.
    const context = await browser.newContext({ locale: 'en-US' });
    let shared = null;
    for (const s of STATES) {
      const demo = s.widget === 'demo';
      const page = demo ? await context.newPage() : (shared ??= await context.newPage());
      const errors = [];
      const onError = (e) => errors.push(String(e));
      page.on('pageerror', onError);
      const logged = [];
      const onConsole = (m) => { if (m.type() === 'error') logged.push(m.text()); };
      page.on('console', onConsole);
      try {
        try {
          await s.setup(page, lang, server.url);
        } catch (err) {
          // Name the state: a timeout in a shared helper says nothing of which one.
          err.message = `${s.widget} ${s.state} (${lang}): ${err.message}; page errors: ${JSON.stringify(errors)}; console errors: ${JSON.stringify(logged)}`;
          throw err;
        }
        if (!intl) {
          await page.evaluate((codes) => (window.COUNTRY_CODES = codes), COUNTRY_CODES);
          const v = await page.evaluate(intlVocabulary, lang);
          const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          intl = {
            strings: new Set(v.strings),
            words: new Set(v.words),
            listSeparators: new RegExp(v.seps.sort((a, b) => b.length - a.length).map(esc).join('|')),
          };
        }
        const found = await page.evaluate(collect, demo ? 'body' : s.widget);
        assert.ok(found.length > 0, `${s.widget} ${s.state} (${lang}): no text at all`);
        seen[lang] += found.length;
        for (const f of found) if (!allowed(f.text, lang, intl) && !(f.context && allowed(f.context, lang, intl))) foreign[lang].push(`${s.widget} ${s.state}: "${f.text.trim()}" (${f.where})`);
        assert.deepEqual(errors, [], `${s.widget} ${s.state} (${lang}): page errors`);
      } finally {
        page.off('pageerror', onError);
        page.off('console', onConsole);
        if (demo) await page.close();
      }
    }
    await context.close();
  }
  const lines = langs.map((l) => `  ${l}: ${foreign[l].length} foreign of ${seen[l]} strings`);
  console.log(`foreign strings per language (${STATES.length} states each):\n${lines.join('\n')}`);
  for (const l of LANGS) for (const f of foreign[l].slice(0, 40)) console.log(`  [${l}] ${f}`);
  assert.deepEqual(
    Object.fromEntries(LANGS.map((l) => [l, foreign[l].length])),
    Object.fromEntries(LANGS.map((l) => [l, 0])),
  );
});
