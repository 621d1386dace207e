// Test helpers: a static file server on 127.0.0.1 and headless Chromium
// (Debian's /usr/bin/chromium through playwright-core; never a download).

import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Serves ROOT on 127.0.0.1 (a free port). Paths under /wrong-type/ serve
 * the same files as application/octet-stream (the loader's fallback).
 * options.handler(req, res, url) runs first and returns true when it
 * answered (e.g. a fake edge under /v1/ on the same origin as the pages).
 */
export async function startServer(options = {}) {
  const server = http.createServer(async (req, res) => {
    try {
      if (options.handler && (await options.handler(req, res, new URL(req.url, 'http://127.0.0.1')))) return;
      let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let wrong = false;
      if (p.startsWith('/wrong-type/')) {
        wrong = true;
        p = p.slice('/wrong-type'.length);
      }
      const file = path.join(ROOT, path.normalize(p));
      if (!file.startsWith(ROOT + path.sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      const body = await fs.readFile(file);
      res.writeHead(200, {
        'Content-Type': wrong ? 'application/octet-stream' : TYPES[path.extname(file)] || 'application/octet-stream',
        'Cache-Control': 'no-store',
      });
      res.end(body);
    } catch (err) {
      res.writeHead(err.code === 'ENOENT' || err.code === 'EISDIR' ? 404 : 500, { 'Content-Type': 'text/plain' });
      res.end(String(err.message));
    }
  });
  // PG_TEST_PORT: a fixed port instead of an ephemeral one (e.g. above 45535, where the demo's
  // shop URL, its port + 20000, once made no URL: widget-i18n failed about one run in ten).
  await new Promise((resolve) => server.listen(Number(process.env.PG_TEST_PORT || 0), '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * eventually retries fn until it resolves, every `every` ms, and rethrows
 * its last error after `ms`: a page's state is asserted once it settles,
 * never after a fixed sleep.
 * @template T
 * @param {() => Promise<T> | T} fn
 * @param {number} [ms]
 * @param {number} [every]
 * @returns {Promise<T>}
 */
export async function eventually(fn, ms = 15000, every = 200) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, every));
    }
  }
}

/** Launches headless Chromium with the flags of the toolchain notes. */
export async function launchBrowser() {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Reads every JSON file of a testdata folder as {file: content}; {} when the folder is missing. */
export async function readVectors(dir) {
  const full = path.join(ROOT, 'testdata', dir);
  let names;
  try {
    names = (await fs.readdir(full)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if (err.code === 'ENOENT') return {};
    throw err;
  }
  const out = {};
  for (const n of names) out[n] = JSON.parse(await fs.readFile(path.join(full, n), 'utf8'));
  return out;
}
