// verifyWebhook against testdata/webhooks.json, which Go's webhooks.Sign,
// Event.Marshal and Verify wrote (worker/webhooks/vectors_test.go): every
// delivery gets Go's verdict, so what the worker signs a Node or browser
// receiver accepts, and what Go refuses it refuses for the same reason.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { verifyWebhook, WebhookError } from '../src/index.js';
import * as direct from '../src/webhooks.js';
import { ROOT, startServer, launchBrowser } from './helpers.mjs';

const vectors = JSON.parse(await fs.readFile(path.join(ROOT, 'testdata/webhooks.json'), 'utf8'));

test('the vector file has every kind of case', () => {
  const codes = new Set(vectors.verify.map((v) => v.error));
  assert.deepEqual([...codes].sort(), ['', 'malformed', 'signature', 'stale']);
  assert.ok(vectors.signed.length >= 3);
  assert.ok(vectors.verify.some((v) => v.name.startsWith('rotation')));
  assert.equal(direct.verifyWebhook, verifyWebhook);
});

function opts(v) {
  const o = { now: v.now * 1000 + 999 }; // a fraction of a second is dropped, as in Go
  if (v.tolerance_seconds) o.toleranceSeconds = v.tolerance_seconds;
  return o;
}

for (const v of vectors.verify) {
  test(`${v.error || 'accepts'} like Go: ${v.name}`, async () => {
    const secret = v.secret || vectors.secret;
    const run = (body, key, o) => verifyWebhook(body, v.header, key, o);
    const bytes = new TextEncoder().encode(v.body);
    const forms = [
      () => run(v.body, secret, opts(v)),
      // Bytes (a Node Buffer is a Uint8Array), a view into a larger buffer, a Date.
      () => run(bytes, new TextEncoder().encode(secret), { ...opts(v), now: new Date(opts(v).now) }),
      () => {
        const big = new Uint8Array(bytes.length + 8);
        big.set(bytes, 4);
        return run(big.subarray(4, 4 + bytes.length), secret, opts(v));
      },
      // Views over a SharedArrayBuffer (ArrayBufferViews too): WebCrypto refuses them, so they are copied.
      () => {
        const shared = (u) => { const c = new Uint8Array(new SharedArrayBuffer(u.length)); c.set(u); return c; };
        return run(shared(bytes), shared(new TextEncoder().encode(secret)), opts(v));
      },
    ];
    for (const f of forms) {
      if (v.error === '') {
        assert.equal(await f(), true);
      } else {
        await assert.rejects(f(), (err) => {
          assert.ok(err instanceof WebhookError && err instanceof Error, String(err));
          assert.equal(err.code, v.error, err.message);
          return true;
        });
      }
    }
  });
}

test("accepts the worker's own deliveries at their time and refuses them later", async () => {
  for (const s of vectors.signed) {
    assert.equal(await verifyWebhook(s.body, s.header, vectors.secret, { now: s.t * 1000 }), true);
    await assert.rejects(verifyWebhook(s.body, s.header, vectors.secret, { now: (s.t + 301) * 1000 }), { code: 'stale' });
    await assert.rejects(verifyWebhook(s.body, s.header, vectors.secret, { now: (s.t - 301) * 1000 }), { code: 'stale' });
    // Parsed and re-serialised JSON is not the raw body when it differs by a byte.
    const reserialised = JSON.stringify(JSON.parse(s.body), null, 1);
    await assert.rejects(verifyWebhook(reserialised, s.header, vectors.secret, { now: s.t * 1000 }), { code: 'signature' });
  }
});

test('the default tolerance is 300 seconds of the current clock', async () => {
  const s = vectors.signed[0];
  // Now is far from the vector's t: stale by default, accepted with a tolerance that covers it.
  await assert.rejects(verifyWebhook(s.body, s.header, vectors.secret), { code: 'stale' });
  const age = Math.ceil(Date.now() / 1000 - s.t) + 60;
  assert.equal(await verifyWebhook(s.body, s.header, vectors.secret, { toleranceSeconds: age }), true);
});

test('bad arguments are TypeErrors, not verdicts', async () => {
  const s = vectors.signed[0];
  const now = s.t * 1000;
  await assert.rejects(verifyWebhook(s.body, s.header, 'x'.repeat(31), { now }), TypeError);
  await assert.rejects(verifyWebhook(s.body, s.header, new Uint8Array(31), { now }), TypeError);
  await assert.rejects(verifyWebhook({ a: 1 }, s.header, vectors.secret, { now }), TypeError);
  await assert.rejects(verifyWebhook(s.body, s.header, vectors.secret, { now, toleranceSeconds: 0 }), TypeError);
  await assert.rejects(verifyWebhook(s.body, s.header, vectors.secret, { now, toleranceSeconds: -1 }), TypeError);
  await assert.rejects(verifyWebhook(s.body, s.header, vectors.secret, { now: 'soon' }), TypeError);
  // A missing header is a malformed delivery, not a programming error.
  await assert.rejects(verifyWebhook(s.body, undefined, vectors.secret, { now }), { code: 'malformed' });
});

// The browser's validation path (core.js, client.js, the widgets) must not
// load the webhook module: follow their static imports.
test('the Client, the core and the widgets do not import webhooks.js', async () => {
  const src = path.join(ROOT, 'js/src');
  const seen = new Set();
  const walk = async (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    // JSDoc's import("...") types are not imports: block comments are left out.
    const text = (await fs.readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '');
    for (const m of text.matchAll(/(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
      await walk(path.resolve(path.dirname(file), m[1] || m[2]));
    }
  };
  for (const entry of ['core.js', 'client.js', 'widgets/index.js']) await walk(path.join(src, entry));
  assert.ok(seen.size >= 4, [...seen].join(' '));
  assert.ok(![...seen].some((f) => f.endsWith('webhooks.js')), [...seen].join(' '));
});

// The Node receiver of worker/webhooks/README.md ("Tracking webhooks", "Verifying a
// delivery"), taken from that page itself so the example cannot rot: it
// accepts the worker's deliveries and answers 400 to the refused ones.
test("worker/webhooks/README.md's Node receiver accepts signed events and refuses the rest", async (t) => {
  const os = await import('node:os');
  const { pathToFileURL } = await import('node:url');
  const readme = await fs.readFile(path.join(ROOT, 'worker/webhooks/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Verifying a delivery'));
  const code = section.match(/```js\n([\s\S]*?)```/)[1];
  assert.match(code, /http\.createServer\(/);
  assert.match(code, /\.listen\(8080\);/);
  const runnable = code
    .replace("'@parcelgate/js/webhooks'", `'${pathToFileURL(path.join(ROOT, 'js/src/webhooks.js')).href}'`)
    .replace('http.createServer(', 'export const server = http.createServer(')
    .replace('.listen(8080);', '.listen(0, "127.0.0.1");');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pg-webhook-'));
  const file = path.join(dir, 'receiver.mjs');
  await fs.writeFile(file, runnable);
  process.env.WEBHOOK_SECRET = vectors.secret;
  const { server } = await import(pathToFileURL(file).href);
  t.after(async () => {
    server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  if (!server.listening) await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const post = (body, header) => fetch(url, { method: 'POST', body, headers: header === undefined ? {} : { 'parcelgate-signature': header } });
  // The vectors' times are in the past: sign fresh deliveries with the vector secret.
  const { createHmac } = await import('node:crypto');
  const body = vectors.signed[0].body;
  const ts = Math.floor(Date.now() / 1000);
  const header = `t=${ts},v1=${createHmac('sha256', vectors.secret).update(`${ts}.${body}`).digest('hex')}`;
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.equal((await post(body, header)).status, 204);
    assert.equal((await post(`${body} `, header)).status, 400);
    assert.equal((await post(body, vectors.signed[0].header)).status, 400); // stale
    assert.equal((await post(body)).status, 400);
    assert.equal((await post('x'.repeat(70 * 1024), header)).status, 413);
  } finally {
    console.warn = warn;
  }
});

// The same vectors in headless Chromium: the browser's WebCrypto, string
// and byte bodies, and the module loaded on its own (no core, no wasm).
test('verifyWebhook in the browser: every vector gets Go\'s verdict', async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  t.after(async () => {
    await browser.close();
    await server.close();
  });
  const page = await browser.newPage();
  await page.goto(`${server.url}/js/package.json`);
  const got = await page.evaluate(async (file) => {
    const { verifyWebhook } = await import('/js/src/webhooks.js');
    const verdict = (p) => p.then(() => '', (e) => e.code || `thrown: ${e}`);
    const out = [];
    for (const v of file.verify) {
      const secret = v.secret || file.secret;
      const o = { now: v.now * 1000 + 999 };
      if (v.tolerance_seconds) o.toleranceSeconds = v.tolerance_seconds;
      out.push([
        await verdict(verifyWebhook(v.body, v.header, secret, o)),
        await verdict(verifyWebhook(new TextEncoder().encode(v.body), v.header, new TextEncoder().encode(secret), o)),
      ]);
    }
    return { out, scripts: performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.js') || p.endsWith('.wasm')) };
  }, vectors);
  assert.deepEqual(got.out, vectors.verify.map((v) => [v.error, v.error]));
  assert.deepEqual(got.scripts, ['/js/src/webhooks.js']);
});
