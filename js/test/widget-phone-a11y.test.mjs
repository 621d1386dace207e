// Every widget state on a phone, in every language: the four widgets on one
// page (js/test/pages/widgets-states.html) against the fake edge, driven
// through each state; at 360x740 and 320x740 the document must not scroll
// sideways, no widget's content may be wider than the widget, every touch
// target must be at least 24x24 px (WCAG 2.2, 2.5.8), and axe-core must
// find no violation of any impact. Prints the figures (overflow in px,
// small targets, axe violations) per width.

import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { widgetHarness } from './widget-harness.mjs';
import { PHONE_WIDTHS, PHONE_HEIGHT, AXE_VERSION, axeViolations, measureAtPhoneWidths } from './phone-a11y.mjs';
import { WIDGET_STATES, LANGUAGES, scenarios, stateAnswer } from './widget-phone-states.mjs';
import { ROOT } from './helpers.mjs';

const h = widgetHarness({ page: 'widgets-states.html', fallback: (...a) => stateAnswer(h.fx, ...a), timeout: 10000 });

// The fixtures of every widget, under one object (the harness reads one file).
h.fx = Object.fromEntries(
  ['rate-selector', 'drop-point-picker', 'tracking-timeline'].map((n) => [n, JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata/widgets', `${n}.json`), 'utf8'))]),
);

// One language's walk on its own page: the layout at each phone width and
// axe's violations for every scenario, pushed to the shared report.
async function walk(lang, report) {
  const page = await h.browser.newPage({ viewport: { width: PHONE_WIDTHS[0], height: PHONE_HEIGHT }, isMobile: true, hasTouch: true, locale: lang });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${h.server.url}/js/test/pages/widgets-states.html`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.evaluate((l) => { document.documentElement.lang = l; }, lang);
  for (const scenario of scenarios(WIDGET_STATES)) {
    for (const s of scenario) await s.apply(page);
    for (const s of scenario) {
      await h.eventually(async () => assert.ok(await s.reached(page), `${lang}: ${s.widget} ${s.name} not reached`), 30000);
    }
    const label = `${lang} ${scenario.map((s) => `${s.widget}:${s.name}`).join(', ')}`;
    const layouts = await measureAtPhoneWidths(page);
    for (const w of PHONE_WIDTHS) {
      const l = layouts[w];
      const t = report.totals[w];
      t.states += 1;
      t.overflow = Math.max(t.overflow, l.overflow);
      t.hosts += l.hosts.length;
      t.small += l.small.length;
      if (l.overflow || l.hosts.length || l.small.length || l.outside.length) {
        report.failures.push(`${w} px, ${label}: overflow ${l.overflow} px; ${[...l.hosts, ...l.outside, ...l.small].join('; ')}`);
      }
    }
    const violations = await axeViolations(page);
    report.audits += 1;
    report.violations += violations.length;
    for (const v of violations) report.failures.push(`axe, ${label}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).join(' | ')}`);
  }
  for (const e of errors) report.failures.push(`${lang}: page error ${e}`);
  await page.close();
}

test('every widget state, every language, at 360 and 320 px: no overflow, 24 px targets, no axe violation', { timeout: 900000 }, async () => {
  const report = { totals: Object.fromEntries(PHONE_WIDTHS.map((w) => [w, { overflow: 0, hosts: 0, small: 0, states: 0 }])), audits: 0, violations: 0, failures: [] };
  // Two languages at a time: much of a walk is waiting for the widgets.
  const queue = [...LANGUAGES];
  await Promise.all([1, 2].map(async () => {
    while (queue.length) await walk(queue.shift(), report);
  }));
  for (const w of PHONE_WIDTHS) {
    const t = report.totals[w];
    console.log(`phone ${w}x${PHONE_HEIGHT}: ${t.states} widget scenarios (${LANGUAGES.length} languages): horizontal overflow ${t.overflow} px, content wider than its widget ${t.hosts}, targets under 24 px ${t.small}`);
  }
  console.log(`axe-core ${AXE_VERSION}: ${report.audits} audits, ${report.violations} violations (any impact)`);
  assert.deepEqual(report.failures, []);
});
