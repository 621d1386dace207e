// The harness every widget test shares: a static server whose /v1/<op> is a
// fake edge worker (each call logged, answered by the test), headless
// Chromium, the widget's test page and a polling assertion.

import fs from 'node:fs';
import path from 'node:path';
import { before, after, beforeEach } from 'node:test';
import { ROOT, startServer, launchBrowser, eventually } from './helpers.mjs';
import { serveTiles } from './tiles.mjs';

/**
 * Registers the suite's hooks and returns the harness:
 *   requests  every path requested (pages, modules, map tiles: /tiles/{z}/{x}/{y}.png, generated,
 *             and /tiles-broken/..., always 500: js/test/tiles.mjs)
 *   edge      {answer, log}: answer(op, params, n, req) returns {status, body, delay} or
 *             nothing (then fallback answers); log gets {op, method, query, params, auth, at}
 *             per call. Both are reset before each test.
 *   fx        the widget's fixtures (testdata/widgets/<fixtures>), read at once
 *   openPage  opens js/test/pages/<page>: {page, errors, el}
 *   eventually(fn, ms) retries an async assertion until it passes
 * options: page, element (the widget's tag), fixtures (file name), fallback,
 * timeout (default of eventually, ms).
 */
export function widgetHarness(options) {
  const h = {
    edge: { answer: null, log: [] },
    /** Every path the browser asked the server for since the last test began. */
    requests: [],
    fx: options.fixtures ? JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata', 'widgets', options.fixtures), 'utf8')) : null,
    server: null,
    browser: null,
    async openPage() {
      const page = await h.browser.newPage({ locale: 'en-GB' });
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${h.server.url}/js/test/pages/${options.page}`);
      await page.waitForSelector('body[data-ready="true"]');
      return { page, errors, el: options.element ? page.locator(options.element) : null };
    },
    eventually(fn, ms = options.timeout ?? 5000) {
      return eventually(fn, ms, 40);
    },
  };

  before(async () => {
    h.server = await startServer({
      handler: async (req, res, url) => {
        h.requests.push(url.pathname);
        if (serveTiles(req, res, url)) return true;
        const m = /^\/v1\/([a-z-]+)$/.exec(url.pathname);
        if (!m) return false;
        const op = m[1];
        h.edge.log.push({
          op,
          method: req.method,
          query: url.searchParams.toString(),
          params: Object.fromEntries(url.searchParams),
          auth: req.headers.authorization || '',
          at: Date.now(),
        });
        const n = h.edge.log.length;
        const a = (h.edge.answer && h.edge.answer(op, url.searchParams, n, req)) ||
          (options.fallback && options.fallback(op, url.searchParams, n, req)) ||
          { status: 404, body: { status: 'err', data: { errorCode: 1404, errorMessage: `no canned answer for ${op}` } } };
        // A delayed answer ends early when the page goes away (so that closing the server does not wait for it).
        if (a.delay) {
          await new Promise((r) => {
            const t = setTimeout(r, a.delay);
            res.on('close', () => { clearTimeout(t); r(); });
          });
        }
        if (res.destroyed) return true;
        res.writeHead(a.status || 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(a.body));
        return true;
      },
    });
    h.browser = await launchBrowser();
  });

  after(async () => {
    await h.browser?.close();
    await h.server?.close();
  });

  beforeEach(() => {
    h.edge.answer = null;
    h.edge.log = [];
    h.requests = [];
  });

  return h;
}
