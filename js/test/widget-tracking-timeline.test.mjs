// <pg-tracking-timeline> in headless Chromium against a fake edge answering
// with testdata/widgets/tracking-timeline.json (one real sandbox shipment
// cut into stages): current state, history newest first with categories,
// the bearer token sent, polling that picks up new events, announces only
// changes and stops at the final state, a 401 shown as an error.

import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { widgetHarness } from './widget-harness.mjs';

const h = widgetHarness({ page: 'widgets-tracking-timeline.html', fixtures: 'tracking-timeline.json', timeout: 8000 });
const { openPage, eventually } = h;
const edge = h.edge;
const fx = h.fx;

beforeEach(() => {
  edge.log = [];
  // Each call moves one stage on, then stays at the last (final) one.
  edge.answer = (op, params, n, req) => {
    if (req.headers.authorization !== 'Bearer shop-token') return { status: 401, body: fx.unauthorized.body };
    return { body: fx.stages[Math.min(n - 1, fx.stages.length - 1)] };
  };
});

const start = (page, attrs, token = 'shop-token') =>
  page.evaluate(
    ([a, t]) => {
      const el = document.querySelector('pg-tracking-timeline');
      el.client = new window.Client({ baseUrl: location.origin, token: t });
      for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
    },
    [attrs, token],
  );

const view = (page) =>
  page.evaluate(() => {
    const root = document.querySelector('pg-tracking-timeline').shadowRoot;
    return {
      current: root.querySelector('.pg-current').hidden ? null : root.querySelector('.pg-current').textContent.replace(/\s+/g, ' ').trim(),
      items: [...root.querySelectorAll('.pg-history li')].map((li) => ({
        text: li.textContent.replace(/\s+/g, ' ').trim(),
        part: li.getAttribute('part'),
      })),
      status: root.querySelector('[role=status]').textContent,
      state: document.querySelector('pg-tracking-timeline').state,
    };
  });

test('current state and history, newest first, each with its category', async () => {
  const { page, errors } = await openPage();
  edge.answer = () => ({ body: fx.stages[2] });
  await start(page, { reference: fx.reference });
  await eventually(async () => assert.equal((await view(page)).state, 'ready'));
  const v = await view(page);
  const hist = fx.stages[2].data.tracking_history;
  assert.equal(v.items.length, hist.length);
  const described = await page.evaluate((codes) => codes.map((c) => window.core.describeTracking(c)), hist.map((h) => h.tracking_code));
  const labels = { pre_transit: 'Pre-transit', in_transit: 'In transit', out_for_delivery: 'Out for delivery', delivered: 'Delivered' };
  for (const [i, item] of v.items.entries()) {
    assert.ok(item.text.includes(hist[i].tracking_name), item.text);
    assert.ok(item.text.includes(hist[i].tracking_details), item.text);
    assert.ok(item.text.includes(labels[described[i].category]), `${item.text} has ${described[i].category}`);
    assert.equal(item.part, `event event-${described[i].category}`);
  }
  assert.equal(described[0].category, 'delivered');
  assert.ok(v.current.includes(hist[0].tracking_name) && v.current.includes('Final state'), v.current);
  assert.deepEqual(edge.log.map((l) => [l.op, l.params.dlvr_ref]), [['get-shipment-tracking', fx.reference]]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('polling picks up new events, announces changes only, and stops at the final state', async () => {
  const { page } = await openPage();
  await start(page, { reference: fx.reference, poll: '2' });
  await eventually(async () => assert.equal((await view(page)).items.length, 1));
  assert.match((await view(page)).status, new RegExp(`${fx.reference}: ${fx.stages[0].data.tracking_name}`));
  await eventually(async () => assert.equal((await view(page)).items.length, 3), 6000);
  await eventually(async () => assert.equal((await view(page)).items.length, fx.stages[2].data.tracking_history.length), 6000);
  const calls = edge.log.length;
  await new Promise((r) => setTimeout(r, 4500));
  assert.equal(edge.log.length, calls, 'no polling after a final state');
  const evs = await page.evaluate(() => window.events.filter((e) => e.type === 'pg-tracking').map((e) => e.detail));
  assert.deepEqual(evs.map((e) => [e.n, e.final, e.changed]), [[1, false, true], [3, false, true], [fx.stages[2].data.tracking_history.length, true, true]]);
  assert.ok(edge.log.every((l) => l.auth === 'Bearer shop-token'));
  // Polls never overlap: at least ~2 s between calls.
  for (let i = 1; i < edge.log.length; i++) assert.ok(edge.log[i].at - edge.log[i - 1].at >= 1900);
  await page.close();
});

test('an unchanged answer stays quiet; removing the reference clears the view', async () => {
  const { page } = await openPage();
  edge.answer = () => ({ body: fx.stages[1] });
  await start(page, { reference: fx.reference, poll: '2' });
  await eventually(async () => assert.equal((await view(page)).items.length, 3));
  await page.evaluate(() => {
    const root = document.querySelector('pg-tracking-timeline').shadowRoot;
    root.querySelector('[role=status]').textContent = 'marker';
  });
  await eventually(async () => assert.ok(edge.log.length >= 2), 5000);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal((await view(page)).status, 'marker', 'no new announcement for the same state');
  await page.evaluate(() => document.querySelector('pg-tracking-timeline').removeAttribute('reference'));
  await eventually(async () => assert.equal((await view(page)).state, 'idle'));
  const n = edge.log.length;
  await new Promise((r) => setTimeout(r, 2600));
  assert.equal(edge.log.length, n, 'polling stopped');
  assert.deepEqual((await view(page)).items, []);
  await page.close();
});

test('a 401 from the edge is shown as an error', async () => {
  const { page } = await openPage();
  await start(page, { reference: fx.reference }, 'wrong-token');
  await eventually(async () => assert.equal((await view(page)).state, 'error'));
  assert.equal((await view(page)).status, 'Tracking could not be loaded. Your access to this page has expired. Reload the page, then try again.');
  const err = await page.evaluate(() => window.events.find((e) => e.type === 'pg-error').detail);
  assert.match(err.message, /requires Authorization/);
  assert.equal(err.category, 'unauthorized');
  assert.equal(err.status, 401);
  await page.close();
});

test('the token property takes an async function: refreshed after the edge refuses it, then cached', async () => {
  const { page } = await openPage();
  await page.evaluate((ref) => {
    const el = document.querySelector('pg-tracking-timeline');
    window.tokenCalls = 0;
    // The shop's server would mint these; the first one has expired.
    el.token = async () => (++window.tokenCalls === 1 ? 'expired-token' : 'shop-token');
    el.setAttribute('poll', '2');
    el.setAttribute('reference', ref);
  }, fx.reference);
  await eventually(async () => assert.ok((await view(page)).items.length > 0 && edge.log.length >= 3), 6000);
  assert.deepEqual(edge.log.slice(0, 3).map((l) => l.auth), ['Bearer expired-token', 'Bearer shop-token', 'Bearer shop-token']);
  assert.equal(await page.evaluate(() => window.tokenCalls), 2);
  await page.close();
});
