// The `make dev` stack for end-to-end tests: the built edge worker
// (build/worker), its static assets (build/assets, the demo shop) and the
// sandbox worker (build/sandbox) in one wrangler dev session (workerd),
// offline, on a free 127.0.0.1 port, with a fresh state and the given
// variables. The configs are the repository's wrangler.toml and
// internal/sandbox/worker/wrangler.toml with absolute paths, run with
// --env dev as `make dev` runs them: the edge reaches the sandbox through
// its SANDBOX service binding, and ALLOWED_ORIGINS is the server's own
// (plus vars.ALLOWED_ORIGINS when given). Beside it, as make dev runs it,
// the demo shop's server (js/demo/server/shop.mjs) on the port + 20000,
// where the demo page looks for it, with the stack's TOKEN_SIGNING_KEY.

import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers.mjs';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Whether a TCP port on 127.0.0.1 can be listened on now. */
function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free port p (at most 45535) whose p + offset is free too: make dev's DEV_PORT and its shop's. */
export async function freePortPair(offset = 20000) {
  for (let i = 0; i < 200; i++) {
    const p = 20000 + Math.floor(Math.random() * (65535 - offset - 20000));
    if ((await portFree(p)) && (await portFree(p + offset))) return p;
  }
  throw new Error(`no free port p with p + ${offset} free`);
}

function tomlString(s) {
  return JSON.stringify(s);
}

/**
 * Starts wrangler dev. vars are written to a private .dev.vars.
 * @param {{vars?: Record<string, string>, startTimeout?: number}} options
 * @returns {Promise<{url: string, shopUrl: string, logs: () => string, stop: () => Promise<void>}>}
 */
export async function startStack(options = {}) {
  const main = path.join(ROOT, 'build/worker/worker.mjs');
  const assets = path.join(ROOT, 'build/assets');
  const sandboxMain = path.join(ROOT, 'build/sandbox/worker.mjs');
  for (const [f, hint] of [[main, 'make worker'], [path.join(assets, 'demo/index.html'), 'make worker-assets'],
    [sandboxMain, 'make sandbox-worker'],
    [path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'npm ci']]) {
    try {
      await fs.access(f);
    } catch {
      throw new Error(`${path.relative(ROOT, f)} is missing: run \`${hint}\` (make test-e2e does)`);
    }
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcelgate-e2e-'));
  // The repository's wrangler.toml, with main and the assets directory made
  // absolute (wrangler resolves them against the config's folder).
  let toml = await fs.readFile(path.join(ROOT, 'wrangler.toml'), 'utf8');
  toml = toml
    .replace(/^main\s*=.*$/m, `main = ${tomlString(main)}`)
    .replace(/^directory\s*=.*$/m, `directory = ${tomlString(assets)}`);
  await fs.writeFile(path.join(dir, 'wrangler.toml'), toml);
  // The sandbox worker's config, its main made absolute.
  const sandboxDir = path.join(dir, 'sandbox');
  await fs.mkdir(sandboxDir);
  const sandboxToml = (await fs.readFile(path.join(ROOT, 'internal/sandbox/worker/wrangler.toml'), 'utf8'))
    .replace(/^main\s*=.*$/m, `main = ${tomlString(sandboxMain)}`);
  await fs.writeFile(path.join(sandboxDir, 'wrangler.toml'), sandboxToml);
  const vars = {
    API_USER: 'e2e-user',
    API_KEY: 'e2e-secret-key-never-shown',
    PROXY_TOKEN: 'e2e-proxy-token-never-shown-0123456',
    TOKEN_SIGNING_KEY: 'e2e-token-signing-key-never-shown-0123456789',
    UPSTREAM_BASE_URL: 'sandbox',
    ...(options.vars || {}),
  };
  // Double-quoted (dotenv unescapes nothing in them but \n), single-quoted when the value has a
  // double quote (a JSON setting such as PRICING_RULES): read as written.
  const quote = (v) => (v.includes('"') && !v.includes("'") ? `'${v}'` : JSON.stringify(v));
  const devVars = (o) => Object.entries(o).map(([k, v]) => `${k}=${quote(String(v))}`).join('\n') + '\n';
  await fs.writeFile(path.join(dir, '.dev.vars'), devVars(vars), { mode: 0o600 });
  // What make dev's worker/devvars.sh derives: the sandbox accepts the
  // edge's credentials and follows its time scale and rules feature.
  const sandboxVars = { SANDBOX_USER: vars.API_USER, SANDBOX_KEY: vars.API_KEY };
  for (const k of ['SANDBOX_TIME_SCALE', 'RULES_FEATURE']) if (k in vars) sandboxVars[k] = vars[k];
  await fs.writeFile(path.join(sandboxDir, '.dev.vars'), devVars(sandboxVars), { mode: 0o600 });
  const port = await freePortPair(20000);
  const inspector = await freePort();
  let out = '';
  const child = spawn(process.execPath, [
    path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--env', 'dev',
    '--config', path.join(dir, 'wrangler.toml'), '--config', path.join(sandboxDir, 'wrangler.toml'),
    // make dev's DEV_ORIGINS (the server's own), and any the test adds.
    '--var', `ALLOWED_ORIGINS:${[`http://127.0.0.1:${port}`, `http://localhost:${port}`,
      ...(options.vars?.ALLOWED_ORIGINS ? [options.vars.ALLOWED_ORIGINS] : [])].join(',')}`,
    '--local', '--ip', '127.0.0.1', '--port', String(port),
    '--inspector-port', String(inspector), '--show-interactive-dev-session=false',
    '--persist-to', path.join(dir, 'state'),
  ], {
    cwd: dir,
    detached: true,
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_HIDE_BANNER: 'true',
      NO_COLOR: '1',
      CI: '1',
      WRANGLER_LOG_PATH: path.join(dir, 'logs'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = null;
  exited.then((r) => (gone = r));

  // The demo shop's server, as make dev starts it (its signing keys from the environment).
  const shop = spawn(process.execPath, [path.join(ROOT, 'js/demo/server/shop.mjs'), '--host', '127.0.0.1', '--port', String(port + 20000),
    '--edge', `http://127.0.0.1:${port}`, '--origins', `http://127.0.0.1:${port},http://localhost:${port}`], {
    cwd: dir,
    env: { PATH: process.env.PATH, TOKEN_SIGNING_KEY: vars.TOKEN_SIGNING_KEY, ...(vars.TOKEN_SIGNING_KEY_PREVIOUS ? { TOKEN_SIGNING_KEY_PREVIOUS: vars.TOKEN_SIGNING_KEY_PREVIOUS } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  shop.stdout.on('data', (b) => (out += b));
  shop.stderr.on('data', (b) => (out += b));
  const shopExited = new Promise((resolve) => shop.once('exit', resolve));

  const stop = async () => {
    if (shop.exitCode === null && shop.signalCode === null) shop.kill('SIGTERM');
    await shopExited;
    if (!gone) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 10000);
      await exited;
      clearTimeout(timer);
    }
    await fs.rm(dir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeout || 90000);
  for (;;) {
    if (gone) {
      await stop();
      throw new Error(`wrangler dev exited early (${JSON.stringify(gone)}):\n${out}`);
    }
    try {
      // The first request compiles the worker's wasm: allow it time.
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(60000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer within ${options.startTimeout || 90000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const shopUrl = `http://127.0.0.1:${port + 20000}`;
  for (;;) {
    try {
      await (await fetch(`${shopUrl}/`)).arrayBuffer(); // any answer: it listens
      break;
    } catch {
      if (shop.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`the demo shop's server did not start:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, shopUrl, logs: () => out, stop };
}
