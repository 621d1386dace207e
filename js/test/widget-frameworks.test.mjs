// Every widget with every prop its framework typings declare, rendered by React 19 and by Vue 3
// in headless Chromium. Both set a prop as a property whenever the element has one of that name
// (React: `name in element`; Vue: the same test), so a typed attribute that is a getter without
// a setter (as `prefix` and `operation` were) throws and the root does not render. The props
// come from the .d.ts files (typed-props.mjs), so a new typed prop is tried here at once.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, startServer, launchBrowser } from './helpers.mjs';
import { TAGS, typedProps } from './typed-props.mjs';

let server;
let browser;
let typed;

before(async () => {
  typed = typedProps();
  const require = createRequire(path.join(ROOT, 'package.json'));
  const esbuild = require('esbuild');
  // React ships CommonJS only: one ES module of what the test needs, built once.
  const bundle = await esbuild.build({
    stdin: {
      contents: "export { createElement } from 'react';\nexport { flushSync } from 'react-dom';\nexport { createRoot } from 'react-dom/client';\nexport { version } from 'react';\n",
      resolveDir: ROOT,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    write: false,
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  const reactModule = bundle.outputFiles[0].contents;
  server = await startServer({
    handler: async (req, res, url) => {
      if (url.pathname === '/__react.mjs') {
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
        res.end(reactModule);
        return true;
      }
      if (url.pathname.startsWith('/v1/')) {
        // No edge behind these pages: the widgets show their error state, which is rendered too.
        res.writeHead(503, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: 'err', data: { errorCode: 1503, errorMessage: 'no edge in this test' } }));
        return true;
      }
      return false;
    },
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Renders every widget with every typed prop through the framework and reports, per prop,
 * whether it took effect. Runs in the page.
 */
async function renderAll({ framework, widgets, attributes }) {
  const camel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  const kebab = (s) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const today = new Date(2030, 0, 7, 10, 0);
  // Values that make sense for the widgets; a typed prop missing here gets a value of its type.
  const SAMPLES = {
    endpoint: location.origin,
    lang: 'es',
    operation: 'new-shipment',
    country: 'PT',
    fields: 'name zip_code city',
    'from-country': 'ES',
    'from-zip': '28014',
    'to-country': 'ES',
    'to-zip': '08001',
    'shipping-date': '2030-01-07',
    carrier: 'SEUR',
    value: 'SEUR/24',
    parcels: JSON.stringify([{ parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }]),
    name: 'shipping_choice',
    'zip-code': '08001',
    'map-tiles': '/tiles/{z}/{x}/{y}.png',
    'map-attribution': '© tiles',
    'map-library': '/node_modules/leaflet/dist/leaflet.js',
    'map-css': '/node_modules/leaflet/dist/leaflet.css',
    reference: 'SBX1',
    'client-ref': 'TD-1001',
    token: 'pgt1.sample',
    class: 'shop-widget',
    client: new pg.Client({ baseUrl: location.origin }),
    core: pg.core,
    texts: { sample: 'A shop text' },
    today,
  };

  const heard = [];
  const plans = {};
  for (const tag of Object.keys(widgets)) {
    const plan = [];
    for (const p of widgets[tag]) {
      const attr = attributes[tag].find((a) => a === p.name || camel(a) === p.name) || null;
      let value;
      let event = null;
      if (/^on/.test(p.name) && p.kinds.includes('function')) {
        event = framework === 'react' ? p.name.slice(2) : kebab(p.name.slice(2)).slice(1);
        value = (e) => heard.push(`${tag} ${e.type}`);
      } else if (p.kinds.includes('literal')) value = p.literals[p.literals.length - 1];
      else if (p.kinds.includes('boolean')) value = true;
      else if (p.kinds.includes('number')) value = 45;
      else if ((attr || p.name) in SAMPLES) value = SAMPLES[attr || p.name];
      else if (p.kinds.includes('string')) value = `sample-${p.name}`;
      else throw new Error(`${tag}: no sample value for the typed prop ${p.name} (${p.kinds}): add one to SAMPLES`);
      plan.push({ name: p.name, attr, event, value });
    }
    plans[tag] = plan;
  }

  const root = document.getElementById('root');
  root.replaceChildren();
  if (framework === 'react') {
    const { createElement, createRoot, flushSync } = await import('/__react.mjs');
    const children = Object.keys(plans).map((tag) =>
      createElement(tag, { key: tag, ...Object.fromEntries(plans[tag].map((s) => [s.name, s.value])) }));
    children.push(createElement('p', { key: 'done', id: 'done' }, 'rendered'));
    flushSync(() => createRoot(root).render(createElement('div', null, children)));
  } else {
    const { createApp, h } = await import('/node_modules/vue/dist/vue.esm-browser.js');
    const app = createApp({
      render: () => h('div', [
        ...Object.keys(plans).map((tag) => h(tag, Object.fromEntries(plans[tag].map((s) => [s.name, s.value])))),
        h('p', { id: 'done' }, 'rendered'),
      ]),
    });
    app.config.warnHandler = (msg) => console.warn(`[Vue warn]: ${msg}`);
    app.mount(root);
  }

  const rendered = !!document.getElementById('done');
  const results = [];
  for (const tag of Object.keys(plans)) {
    const el = root.querySelector(tag);
    for (const s of plans[tag]) {
      const r = { tag, name: s.name, ok: true, detail: '' };
      results.push(r);
      const fail = (detail) => Object.assign(r, { ok: false, detail });
      if (!el) {
        fail('the element is not in the page');
        continue;
      }
      if (s.event) {
        const before = heard.length;
        el.dispatchEvent(new CustomEvent(s.event, { detail: {} }));
        if (heard.length !== before + 1) fail(`the handler did not hear ${s.event}`);
        continue;
      }
      if (s.attr) {
        // The attribute's meaning: the attribute holds the value, and the property reads it back.
        const prop = camel(s.attr);
        if (s.value === true) {
          if (!el.hasAttribute(s.attr)) fail(`attribute ${s.attr} absent`);
          else if (el[prop] !== true) fail(`property ${prop} is ${JSON.stringify(el[prop])}`);
        } else if (el.getAttribute(s.attr) !== String(s.value)) {
          fail(`attribute ${s.attr} is ${JSON.stringify(el.getAttribute(s.attr))}, want ${JSON.stringify(String(s.value))}`);
        } else {
          const got = el[prop];
          const want = got !== null && typeof got === 'object' ? JSON.stringify(JSON.parse(s.value)) : String(s.value);
          const gotText = got !== null && typeof got === 'object' ? JSON.stringify(got) : String(got);
          if (gotText !== want) fail(`property ${prop} reads ${gotText}, want ${want}`);
        }
        continue;
      }
      if (s.name === 'class') {
        if (!el.classList.contains(s.value)) fail(`class is ${JSON.stringify(el.className)}`);
        continue;
      }
      const got = el[s.name];
      const same = got === s.value ||
        (s.value && typeof s.value === 'object' && got && Object.keys(s.value).every((k) => got[k] === s.value[k]));
      if (!same) fail(`property ${s.name} does not hold the value given`);
    }
  }
  // The widgets draw their shadow content (after their language's texts load).
  const end = Date.now() + 10000;
  const empty = () => Object.keys(plans).filter((tag) => !root.querySelector(tag)?.shadowRoot?.querySelector('[part]'));
  while (empty().length && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return { rendered, results, notDrawn: empty(), shadowTags: Object.keys(plans) };
}

for (const framework of ['react', 'vue']) {
  test(`${framework === 'react' ? 'React 19' : 'Vue 3'}: every widget with every typed prop renders, and each prop takes effect`, async (t) => {
    const widgets = typed[framework];
    assert.deepEqual(Object.keys(widgets).sort(), [...TAGS].sort());
    for (const tag of TAGS) assert.ok(widgets[tag].length >= 4, `${tag}: typed props found in the .d.ts`);
    const page = await browser.newPage({ locale: 'en-GB' });
    const errors = [];
    const warnings = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      const text = m.text();
      if ((m.type() === 'error' || m.type() === 'warning') && /\[Vue warn\]|React|Cannot set property|only a getter/.test(text)) warnings.push(`${m.type()}: ${text}`);
    });
    await page.goto(`${server.url}/js/test/pages/widgets-frameworks.html`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    if (framework === 'react') {
      const version = await page.evaluate(async () => (await import('/__react.mjs')).version);
      assert.match(version, /^19\./, 'React 19 in the page');
    }
    const out = await page.evaluate(renderAll, { framework, widgets, attributes: typed.attributes });
    assert.deepEqual(errors, [], 'no uncaught error in the page');
    assert.ok(out.rendered, 'the root rendered');
    assert.deepEqual(warnings, [], 'no framework warning or failed property set');
    assert.deepEqual(out.notDrawn, [], 'every widget drew its content');
    for (const r of out.results) {
      await t.test(`${r.tag} ${r.name}`, () => assert.ok(r.ok, r.detail));
    }
    await page.close();
  });
}
