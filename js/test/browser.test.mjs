// The TinyGo module in headless Chromium, loaded by the package's loader:
// every vector of testdata/requests, testdata/forms (encode),
// testdata/responses, testdata/postal.json and testdata/geo.json gives the
// Go tests' answers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startServer, launchBrowser, readVectors, ROOT } from './helpers.mjs';

let server;
let browser;
let page;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage();
  const logs = [];
  page.on('pageerror', (e) => logs.push(String(e)));
  await page.goto(`${server.url}/js/test/pages/vectors.html`);
  await page.waitForFunction(() => typeof window.loadCore === 'function');
  const version = await page.evaluate(() => window.loadCore());
  assert.equal(version, '0.2.0', logs.join('\n'));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const flat = (files) => Object.entries(files).flatMap(([f, list]) => list.map((v) => ({ ...v, file: f })));

test('request vectors: validate, validateField, encode', async (t) => {
  const vectors = flat(await readVectors('requests'));
  assert.ok(vectors.length >= 20, `only ${vectors.length} request vectors`);
  const got = await page.evaluate((vs) => window.runRequests(vs), vectors);
  let bodies = 0;
  for (const [i, v] of vectors.entries()) {
    await t.test(`${v.file}: ${v.name}`, () => {
      assert.deepEqual(got[i].errors, v.errors);
      v.errors.forEach((e, j) => {
        assert.ok(
          got[i].fieldErrors[j].some((x) => x.field === e.field && x.code === e.code && x.message === e.message),
          `validateField(${e.field}) lacks ${JSON.stringify(e)}`,
        );
        assert.ok(got[i].fieldErrors[j].every((x) => x.field === e.field));
      });
      if (typeof v.body === 'string') {
        bodies++;
        assert.equal(got[i].body, v.body);
      }
    });
  }
  assert.ok(bodies > 0);
});

test('form vectors: encodeForm', async (t) => {
  const files = await readVectors('forms');
  const vectors = (files['encode.json'] || []).map((v) => ({ ...v, file: 'encode.json' }));
  assert.ok(vectors.length > 0, 'testdata/forms/encode.json has no vectors');
  const got = await page.evaluate((vs) => window.runEncode(vs), vectors);
  for (const [i, v] of vectors.entries()) {
    await t.test(v.name, () => assert.equal(got[i], v.body));
  }
});

test('response vectors: decode', async (t) => {
  const vectors = flat(await readVectors('responses'));
  assert.ok(vectors.length >= 30);
  const got = await page.evaluate((vs) => window.runResponses(vs), vectors);
  for (const [i, v] of vectors.entries()) {
    await t.test(`${v.file}: ${v.name}`, () => {
      const r = got[i];
      if (v.expect_error === undefined) {
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.data, v.expect);
        return;
      }
      assert.equal(r.ok, false, 'decoded although an error was expected');
      const want = v.expect_error;
      const e = r.error;
      assert.equal(e.type, want.type);
      for (const k of ['code', 'message', 'carrier_code', 'carrier_message', 'http_status', 'path']) {
        if (want[k] !== undefined) assert.equal(e[k], want[k], k);
      }
      if (want.class) assert.equal(e.class, want.class);
      if (want.reason_contains) assert.ok(e.reason.includes(want.reason_contains), e.reason);
      if (want.snippet_prefix) assert.ok(e.snippet.startsWith(want.snippet_prefix), e.snippet);
      if (want.error_contains) assert.ok(e.description.includes(want.error_contains), e.description);
      assert.equal(typeof e.class, 'string');
      assert.equal(typeof e.message, 'string');
      assert.equal(typeof e.description, 'string');
    });
  }
});

test('message vectors: every message in every language (testdata/messages.json)', async (t) => {
  const { 'messages.json': m } = await readVectors('.');
  assert.deepEqual(m.locales, ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl']);
  const got = await page.evaluate((v) => window.runMessages(v), m);
  for (const [i, v] of m.requests.entries()) {
    // Bytes that are not UTF-8 reach only the edge: a JavaScript string is always text.
    if (v.invalid_utf8) continue;
    await t.test(v.name, () => assert.deepEqual(got.requests[i], v.errors));
  }
  for (const [i, v] of m.postal.entries()) {
    await t.test(`postal ${v.country} ${JSON.stringify(v.input)}`, () => assert.deepEqual(got.postal[i], v.message));
  }
  // A locale is a language tag: region and case do not matter; unknown ones give English.
  const tags = await page.evaluate(() =>
    ['es-ES', 'PT-br', 'fr_CA', 'ca', '', undefined].map((locale) => core.validate('get-shipment', {}, { locale })[0].message),
  );
  assert.deepEqual(tags, [
    'Este campo es obligatorio.',
    'Este campo é obrigatório.',
    'Ce champ est obligatoire.',
    'This field is required.',
    'This field is required.',
    'This field is required.',
  ]);
});

test('postal vectors', async (t) => {
  const { 'postal.json': vectors } = await readVectors('.');
  assert.ok(vectors.length >= 60);
  const got = await page.evaluate((vs) => window.runPostal(vs), vectors);
  for (const [i, v] of vectors.entries()) {
    await t.test(`${v.country} ${JSON.stringify(v.input)}`, () => {
      const r = got[i];
      assert.equal(r.valid, v.valid);
      if (v.valid) {
        assert.deepEqual(r, { valid: true, normalized: v.normalized, province: v.province ?? 0, zone: v.zone ?? '', message: '' });
      } else {
        assert.deepEqual(r, { valid: false, normalized: '', province: 0, zone: '', message: v.message });
      }
    });
  }
});

// The exported schema's postal-code rule, read with ECMAScript's RegExp (the
// Go tests read it with RE2 and a JSON Schema validator): it accepts exactly
// the codes the core accepts, on every postal vector with an assigned country.
test('postal vectors agree with the exported JSON Schema (ECMAScript RegExp)', async (t) => {
  const { 'postal.json': vectors } = await readVectors('.');
  const schema = JSON.parse(await readFile(path.join(ROOT, 'testdata/schemas/get-drop-points.json'), 'utf8'));
  const rule = schema.allOf.find((s) => s.anyOf && s.description?.startsWith('zip_code'));
  assert.ok(rule, 'get-drop-points has a postal-code rule');
  const re = (p) => new RegExp(p, 'u');
  const def = (ref) => schema.definitions[ref.replace('#/definitions/', '')];
  const holds = (s, value) => {
    if (s.$ref) return holds(def(s.$ref), value);
    if (s.pattern && !re(s.pattern).test(value)) return false;
    if (s.allOf && !s.allOf.every((x) => holds(x, value))) return false;
    if (s.anyOf && !s.anyOf.some((x) => holds(x, value))) return false;
    return true;
  };
  const schemaAccepts = (country, zip) =>
    rule.anyOf.some((branch) => {
      const c = branch.properties.country_code;
      const pick = c.pattern ? re(c.pattern).test(country) : !re(c.not.pattern).test(country);
      return pick && holds(branch.properties.zip_code, zip);
    });
  const assigned = new Set(JSON.parse(await readFile(path.join(ROOT, 'testdata/countries.json'), 'utf8')).map((c) => c.code));
  const mine = vectors.filter((v) => assigned.has(v.country));
  assert.ok(mine.length >= 150);
  const got = await page.evaluate((vs) => window.runPostal(vs), mine);
  for (const [i, v] of mine.entries()) {
    await t.test(`${v.country} ${JSON.stringify(v.input)}`, () => {
      assert.equal(schemaAccepts(v.country, v.input), got[i].valid);
    });
  }
});

test('geo vectors: locate and distanceKm', async (t) => {
  const { 'geo.json': geo } = await readVectors('.');
  assert.ok(geo.locate.length >= 30 && geo.distance.length >= 5);
  const got = await page.evaluate((g) => window.runGeo(g), geo);
  for (const [i, v] of geo.locate.entries()) {
    await t.test(`locate ${JSON.stringify(v.country)} ${JSON.stringify(v.zip)}`, () => {
      const want = v.city === undefined ? null : { city: v.city, lat: v.lat, lon: v.lon, precision: v.precision };
      assert.deepEqual(got.locate[i], want);
    });
  }
  for (const [i, v] of geo.distance.entries()) {
    await t.test(`distanceKm ${v.note}`, () => assert.ok(Math.abs(got.distance[i] - v.km) <= 0.001, `${got.distance[i]} vs ${v.km}`));
  }
  const misuse = await page.evaluate(() => {
    try {
      core.locate('ES');
      return 'no error';
    } catch (e) {
      return `${e.name}: ${e.message}`;
    }
  });
  assert.equal(misuse, 'TypeError: parcelgate.locate: locate(country, zip) takes two strings');
});

test('tracking codes and the catalog', async () => {
  const got = await page.evaluate(() => ({
    seven: core.describeTracking(7),
    eleven: core.describeTracking('11'),
    none: core.describeTracking('31'),
    catalog: core.catalog(),
  }));
  assert.deepEqual(got.seven, { code: '07', meaning: 'administrative/customs inspection', label: 'Customs inspection', category: 'in_transit', final: false });
  assert.equal(got.eleven.final, true);
  assert.equal(got.none, null);
  const { 'catalog.json': catalog } = await readVectors('.');
  assert.deepEqual(got.catalog, catalog);
});

test('misuse throws a TypeError naming the problem', async () => {
  const got = await page.evaluate(() => {
    const msg = (f) => {
      try {
        f();
        return 'no error';
      } catch (e) {
        return `${e.name}: ${e.message}`;
      }
    };
    return [
      msg(() => core.validate('no-such-op', {})),
      msg(() => core.validate('new-shipment', 'x')),
      msg(() => core.validate('new-shipment', { parcels: [{ parcel_colour: 'red' }] })),
      msg(() => core.encode('get-shipment', { fields: { dlvr_ref: {} } })),
    ];
  });
  assert.match(got[0], /^TypeError: parcelgate\.validate: unknown operation "no-such-op"/);
  assert.match(got[1], /^TypeError: .*request must be an object/);
  assert.match(got[2], /unknown field parcel_colour/);
  assert.match(got[3], /field dlvr_ref must be a string, a number or a boolean/);
});

test('numbers and flat requests cross the boundary as the edge expects', async () => {
  const got = await page.evaluate(() => [
    core.encode('get-shipments-rates', {
      from_country_code: 'es', from_zip_code: '28001', to_country_code: 'ES', to_zip_code: '07001',
      parcels: [{ parcel_weight: 1e-7, parcel_width: 1e21, parcel_height: 0.1 + 0.2, parcel_length: 40, parcel_volume: '24000' }],
    }),
    core.validate('get-shipments-rates', {
      from_country_code: 'ES', from_zip_code: '28001', to_country_code: 'ES', to_zip_code: '07001',
      parcels: [{ parcel_weight: NaN, parcel_width: 30, parcel_height: 20, parcel_length: 40, parcel_volume: 24000 }],
    }),
    core.encode('get-client-services', { fields: [['status', true], ['carrier_code', null]] }),
  ]);
  assert.equal(
    got[0],
    'from_country_code=ES&from_zip_code=28001&to_country_code=ES&to_zip_code=07001' +
      '&parcels[0][parcel_weight]=0.0000001&parcels[0][parcel_width]=1000000000000000000000' +
      '&parcels[0][parcel_height]=0.30000000000000004&parcels[0][parcel_length]=40&parcels[0][parcel_volume]=24000',
  );
  assert.equal(got[1].length, 1);
  assert.equal(got[1][0].field, 'parcels[0][parcel_weight]');
  assert.equal(got[2], 'status=1');
});

test('the instance is replaced when its memory grows, transparently', async () => {
  const got = await page.evaluate(async () => {
    const { load } = await import('/js/src/index.js');
    const small = await load({ wasm: '/js/dist/parcelgate.wasm', maxMemory: 256 * 1024 });
    const req = { from_country_code: 'ES', from_zip_code: '28001', to_country_code: 'ES', to_zip_code: '07001', parcels: [{ parcel_weight: 1, parcel_width: 1, parcel_height: 1, parcel_length: 1, parcel_volume: 1 }] };
    let ok = 0;
    for (let i = 0; i < 300; i++) if (small.validate('get-shipments-rates', req).length === 0) ok++;
    return { ok, postal: small.postal('NL', '1012 ab').normalized };
  });
  assert.deepEqual(got, { ok: 300, postal: '1012-AB' });
});

test('the loader falls back when the server sends the wrong content type', async () => {
  const page2 = await browser.newPage();
  try {
    await page2.goto(`${server.url}/js/test/pages/vectors.html`);
    await page2.waitForFunction(() => typeof window.loadCore === 'function');
    const v = await page2.evaluate(() => window.loadCore('/wrong-type/js/dist/parcelgate.wasm'));
    assert.equal(v, '0.2.0');
    const type = await page2.evaluate(async () => (await fetch('/wrong-type/js/dist/parcelgate.wasm')).headers.get('content-type'));
    assert.equal(type, 'application/octet-stream');
    assert.equal(await page2.evaluate(() => core.postal('ES', '35001').zone), 'canary');
  } finally {
    await page2.close();
  }
});
