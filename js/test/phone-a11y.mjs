// What a phone and assistive technology need from a page, measured in
// headless Chromium: horizontal overflow, touch target sizes and axe-core's
// verdict. Shared by the widget walk (widget-a11y.test.mjs) and the
// demo shop's end-to-end test (e2e/checkout.test.mjs).
//
// axe-core comes from node_modules (pinned in package-lock.json) and is
// injected into the page as a script: nothing is fetched.

import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.mjs';

/** The phone viewports every check runs at (CSS pixels). */
export const PHONE_WIDTHS = [360, 320];
/** The phone's height for those checks. */
export const PHONE_HEIGHT = 740;
/** WCAG 2.2 success criterion 2.5.8 (target size, minimum), CSS pixels. */
export const MIN_TARGET = 24;

let axeSource = null;

/** The axe-core version the checks run (node_modules, pinned in package-lock.json). */
export const AXE_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/package.json'), 'utf8')).version;

/** Injects axe-core into the page unless it is there already. */
export async function injectAxe(page) {
  if (await page.evaluate(() => typeof window.axe === 'object')) return;
  axeSource ??= fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
}

/**
 * axe-core over the whole page (open shadow roots included) with every
 * rule it runs by default plus target-size (WCAG 2.2, off by default):
 * the violations, any impact, as [{id, impact, help, nodes: [target...]}].
 */
export async function axeViolations(page) {
  await injectAxe(page);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'target-size': { enabled: true } },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary || ''}`.replace(/\s+/g, ' ').trim()),
    }));
  });
}

/**
 * The page's layout at its current viewport: how far the document scrolls
 * sideways (document.documentElement.scrollWidth - clientWidth, 0 when it
 * fits), every element that sticks out of the viewport or of its own box
 * (widget hosts, whose shadow content counts), and every interactive
 * element smaller than MIN_TARGET in either direction. Links inside a
 * sentence are exempt from the target size, as WCAG exempts them.
 */
export function measureLayout(page, options = {}) {
  return page.evaluate(
    ({ min, hosts }) => {
      const doc = document.documentElement;
      const all = [];
      const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          all.push(el);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(document);
      const name = (el) => {
        const host = el.getRootNode().host;
        const own = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('part') ? `[part=${el.getAttribute('part')}]` : ''}${
          el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''
        }${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
        return host ? `${host.tagName.toLowerCase()}${host.id ? `#${host.id}` : ''} >> ${own}` : own;
      };
      const visible = (el, r) => {
        if (r.width === 0 || r.height === 0) return false;
        const cs = getComputedStyle(el);
        if (cs.visibility !== 'visible' || cs.display === 'none') return false;
        // Visually hidden text (clip, 1px): not a target, never overflows.
        for (let n = el; n; n = n.parentElement || n.getRootNode().host) {
          if (n.classList && n.classList.contains('pg-visually-hidden')) return false;
        }
        return true;
      };
      const width = doc.clientWidth;
      const out = { width, overflow: Math.max(0, doc.scrollWidth - width), outside: [], hosts: [], small: [] };
      const TARGET =
        'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=radio], [role=checkbox], [tabindex]:not([tabindex="-1"])';
      for (const el of all) {
        const r = el.getBoundingClientRect();
        if (!visible(el, r)) continue;
        if (r.right > width + 0.5 || r.left < -0.5) {
          // An element clipped by an ancestor with overflow hidden (a map's
          // panes) is not on screen: only count what the page shows.
          let clipped = false;
          for (let n = el.parentElement || el.getRootNode().host; n && n !== doc; n = n.parentElement || n.getRootNode().host) {
            const cs = getComputedStyle(n);
            if (cs.overflowX !== 'visible') {
              const pr = n.getBoundingClientRect();
              if (pr.right <= width + 0.5 && pr.left >= -0.5) clipped = true;
              break;
            }
          }
          if (!clipped) out.outside.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px`);
        }
        if (el.matches(TARGET)) {
          const cs = getComputedStyle(el);
          const inline = el.tagName === 'A' && cs.display === 'inline';
          if (!inline && (r.width < min - 0.01 || r.height < min - 0.01)) {
            out.small.push(`${name(el)} is ${r.width.toFixed(1)}x${r.height.toFixed(1)} px`);
          }
        }
      }
      for (const host of document.querySelectorAll(hosts)) {
        const over = host.scrollWidth - host.clientWidth;
        if (over > 0) out.hosts.push(`${host.tagName.toLowerCase()}#${host.id}: content ${over} px wider than the widget`);
      }
      // Only the topmost offender of a chain is worth reading.
      out.outside = out.outside.slice(0, 12);
      return out;
    },
    { min: MIN_TARGET, hosts: options.hosts || 'pg-address-form, pg-rate-selector, pg-drop-point-picker, pg-tracking-timeline' },
  );
}

/**
 * Runs measureLayout at every phone width (then restores the viewport):
 * {width: layout}.
 */
export async function measureAtPhoneWidths(page, widths = PHONE_WIDTHS) {
  const before = page.viewportSize();
  const out = {};
  for (const w of widths) {
    await page.setViewportSize({ width: w, height: PHONE_HEIGHT });
    // Two frames: container queries and the widgets' own resize handling settle.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    out[w] = await measureLayout(page);
  }
  if (before) await page.setViewportSize(before);
  return out;
}
