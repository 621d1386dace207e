// check-config: what a production deploy of the edge worker lacks, before
// `wrangler deploy` (make check-config; worker/DEPLOY.md, "Deploy with
// wrangler"). It reads the config with the pinned wrangler's own parser
// (the top level, or --env NAME) and the secrets from the file the
// operator uploads with `wrangler secret bulk`, or the JSON of `wrangler
// secret list` (names only). One line per problem, then exit 1; a value of
// a secret is never printed. Then the built core (core.wasm beside main)
// configures itself from the same [vars] and secrets, as the deployed edge
// will: every variable it refuses is a problem too, in its own words (the
// checks above come first and word the common mistakes for a deploy).
//
//   node worker/checkconfig.mjs [--config wrangler.toml] [--env NAME] [--secrets FILE]
//
// With --dev-vars FILE it is make dev's check instead (worker/devvars.sh):
// the core configured from the config's environment (--env dev) with FILE's
// values over its [vars], as wrangler dev will run it; one line per
// problem, "VARIABLE<tab>problem", then exit 1.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createCore } from './src/core.mjs';

const require = createRequire(import.meta.url);

function args(argv) {
  const o = { config: 'wrangler.toml', env: undefined, secrets: undefined, devVars: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--config' || a === '-c') o.config = next();
    else if (a === '--env') o.env = next();
    else if (a === '--secrets') o.secrets = next();
    else if (a === '--dev-vars') o.devVars = next();
    else throw new Error(`unknown argument ${a} (use --config FILE, --env NAME, --secrets FILE, --dev-vars FILE)`);
  }
  return o;
}

// The secrets the edge reads; the ones always required.
const SECRETS = ['API_USER', 'API_KEY', 'PROXY_TOKEN', 'TOKEN_SIGNING_KEY', 'TOKEN_SIGNING_KEY_PREVIOUS', 'WEBHOOK_SECRET', 'WEBHOOK_SECRET_PREVIOUS'];
const REQUIRED = ['API_USER', 'API_KEY', 'PROXY_TOKEN', 'TOKEN_SIGNING_KEY'];

// readSecrets: {names, values} from a dotenv file, a JSON object (both as
// `wrangler secret bulk` takes them) or the JSON array `wrangler secret
// list` prints (names only: values is null).
function readSecrets(file) {
  const text = fs.readFileSync(file, 'utf8');
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const list = parseSecretsJSON(text, file);
    return { names: new Set(list.map((s) => s.name)), values: null };
  }
  let values;
  if (trimmed.startsWith('{')) {
    values = parseSecretsJSON(text, file);
  } else {
    values = parseDotenv(text);
  }
  return { names: new Set(Object.keys(values)), values };
}

// parseSecretsJSON is JSON.parse for a secrets file, whose errors must
// not quote it: V8's do (`Unexpected token 'R', ..."API_KEY":REAL-API-K"...
// is not valid JSON`). Its error says what is wrong and where (line and
// column, in characters), in words that hold none of the file's text.
function parseSecretsJSON(text, file) {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const err = jsonError(text);
    if (err === null) throw new Error(`${file} is not valid JSON (its text is not shown: it holds secrets)`);
    const before = text.slice(0, err.at);
    const lineStart = before.lastIndexOf('\n') + 1;
    const line = before.split('\n').length;
    const column = [...before.slice(lineStart)].length + 1;
    throw new Error(`${file} is not valid JSON: line ${line}, column ${column}: ${err.what} (the file's text is not shown: it holds secrets)`);
  }
}

// jsonError finds where a JSON text first breaks the grammar (RFC 8259)
// and why: {at: an index into text, what: a description quoting none of
// it}, or null if it finds nothing wrong.
function jsonError(text) {
  let i = 0;
  const fail = (what) => {
    throw { at: i, what };
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const string = () => {
    for (i++; ; i++) {
      if (i >= text.length) fail('a string is not closed (a missing double quote)');
      const c = text[i];
      if (c === '"') return i++;
      if (c < ' ') fail('a line break or control character inside a string (a missing double quote?)');
      if (c === '\\') {
        i++;
        if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 4;
        else if (i >= text.length || !'"\\/bfnrt'.includes(text[i])) fail('a backslash that starts no JSON escape inside a string');
      }
    }
  };
  const value = () => {
    space();
    if (i >= text.length) fail('the text ends where a value should be');
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) return i++;
      for (;;) {
        if (c === '{') {
          space();
          if (text[i] !== '"') fail('a name in double quotes should be here');
          string();
          space();
          if (text[i] !== ':') fail("a ':' should follow the name");
          i++;
        }
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === close) return i++;
        else if (i >= text.length) fail(`the text ends before the closing '${close}'`);
        else fail(`a ',' or '${close}' should follow the value`);
      }
    }
    if (c === '"') return string();
    const m = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null/y;
    m.lastIndex = i;
    if (m.exec(text) === null) fail('a value should be here: a string in double quotes, a number, true, false or null');
    i = m.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) fail('more text after the JSON value');
    return null;
  } catch (e) {
    if (e instanceof Error) throw e;
    return e;
  }
}

// parseDotenv reads KEY=value lines (# comments, blank lines, an optional
// `export `, matching outer quotes removed), as .dev.vars files are written.
function parseDotenv(text) {
  const out = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (m === null) continue;
    let val = m[2];
    const q = /^(["'`])([\s\S]*)\1$/.exec(val);
    if (q !== null) val = q[2];
    out[m[1]] = val;
  }
  return out;
}

// origin reports whether s is a bare origin (scheme://host[:port]).
function isOrigin(s) {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === s.replace(/\/$/, '').toLowerCase() &&
      u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

function loopback(host) {
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

export async function check({ config: configPath, env, secrets }) {
  const problems = [];
  const notes = [];
  const { unstable_readConfig } = require('wrangler');
  const config = unstable_readConfig({ config: configPath, env }, { hideWarnings: true });
  const where = `${path.relative(process.cwd(), configPath) || configPath}${env ? ` [env.${env}]` : ' (production: the top level)'}`;
  const vars = config.vars ?? {};
  const v = (k) => (typeof vars[k] === 'string' ? vars[k].trim() : vars[k] === undefined ? '' : String(vars[k]));

  // The build.
  if (!config.main || !fs.existsSync(config.main)) problems.push(`main (${config.main ?? 'unset'}) is not built: run make worker`);

  // What production never carries.
  if (config.assets?.directory) problems.push(`[assets] is set (${config.assets.directory}): the demo shop and web files are make dev's ([env.dev]), not production's`);
  for (const kv of config.kv_namespaces ?? []) {
    if (kv.binding === 'SANDBOX_KV') problems.push('the SANDBOX_KV namespace is bound: the sandbox is a worker of its own (internal/sandbox/worker), never part of the edge');
  }
  for (const s of config.services ?? []) {
    if (s.binding === 'SANDBOX') problems.push(`the SANDBOX service binding (to ${s.service}) is set: production forwards to the real service; a staging edge is described in internal/sandbox/README.md`);
  }
  for (const k of SECRETS) {
    if (k in vars) problems.push(`${k} is in [vars] (plain text in wrangler.toml and the dashboard): remove it and use npx wrangler secret put ${k}`);
  }

  // The upstream.
  const up = v('UPSTREAM_BASE_URL');
  if (up === '') {
    problems.push('UPSTREAM_BASE_URL is empty: set [vars] UPSTREAM_BASE_URL = "https://<service host>/v1"');
  } else if (up.toLowerCase() === 'sandbox') {
    problems.push('UPSTREAM_BASE_URL is "sandbox": a production edge forwards to the real service (https://<service host>/v1)');
  } else {
    let u = null;
    try {
      u = new URL(up);
    } catch {
      // reported below
    }
    if (u === null || u.protocol !== 'https:' || u.username || u.password || u.search || u.hash || !/\/v1\/?$/.test(u.pathname)) {
      problems.push('UPSTREAM_BASE_URL must be the service\'s https URL ending in /v1, with no credentials, query or fragment');
    }
  }

  // The browser origins.
  const origins = v('ALLOWED_ORIGINS');
  if (origins === '') {
    problems.push('ALLOWED_ORIGINS is empty: set [vars] ALLOWED_ORIGINS = "https://your-shop.example" (the pages that call the worker; comma-separated)');
  } else if (origins === '*') {
    notes.push('ALLOWED_ORIGINS is *: any page may call the public operations (tokens still guard the rest)');
  } else {
    for (const o of origins.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!isOrigin(o)) problems.push(`ALLOWED_ORIGINS: ${JSON.stringify(o)} is not an origin (https://host[:port], no path)`);
      else if (loopback(new URL(o).hostname)) problems.push(`ALLOWED_ORIGINS: ${o} is a local development origin: list your shop's origins`);
    }
  }
  if (v('FAULT_INJECTION') === 'true') problems.push('FAULT_INJECTION is true: it is for tests only; remove it');
  // A risk the operator may take on purpose (OFFER_TTL_SECONDS and this
  // value's spelling are the core's checks, below).
  if (['1', 'true', 'yes', 'on'].includes(v('ALLOW_UNBOUND_BOOKING_GRANTS').toLowerCase())) {
    notes.push('warning: ALLOW_UNBOUND_BOOKING_GRANTS is true: a page holding a new-shipment token minted without an offer can book any service, destination and parcels on your account (worker/README.md, "Signed offers"); leave it unset unless only your server books');
  }

  // Bindings.
  const dos = new Map((config.durable_objects?.bindings ?? []).map((b) => [b.name, b]));
  const migrated = new Set((config.migrations ?? []).flatMap((m) => [...(m.new_sqlite_classes ?? []), ...(m.new_classes ?? [])]));
  const needDO = (name, cls, why) => {
    const b = dos.get(name);
    if (b === undefined) problems.push(`the ${name} Durable Object binding is missing (class_name = "${cls}"): ${why}`);
    else if (b.class_name !== cls) problems.push(`${name} binds class ${b.class_name}; it must be ${cls} (worker/entry.mjs)`);
    else if (!migrated.has(cls)) problems.push(`no [[migrations]] creates the ${cls} class (new_sqlite_classes = ["${cls}"])`);
  };
  if (v('EXACTLY_ONCE') !== 'false') needDO('BOOKINGS', 'Bookings', 'bookings are refused without it (exactly-once bookings)');
  const webhooks = v('WEBHOOK_URL') !== '';
  if (webhooks) {
    needDO('WATCHLIST', 'Watchlist', 'WEBHOOK_URL is set (tracking webhooks)');
    if (!(config.triggers?.crons ?? []).length) problems.push('WEBHOOK_URL is set but [triggers] crons is empty: nothing would run the watcher');
    try {
      const w = new URL(v('WEBHOOK_URL'));
      if (w.protocol !== 'https:' || w.username || w.password || w.hash) problems.push('WEBHOOK_URL must be https, with no credentials or fragment');
    } catch {
      problems.push('WEBHOOK_URL is not a URL');
    }
  }
  const limits = new Set((config.ratelimits ?? []).map((r) => r.name));
  for (const name of ['RATE_LIMIT_PUBLIC', 'RATE_LIMIT_ANONYMOUS', 'RATE_LIMIT_TOKENS']) {
    if (!limits.has(name)) notes.push(`no ${name} binding: those requests are not rate limited`);
  }

  // Secrets.
  const required = webhooks ? [...REQUIRED, 'WEBHOOK_SECRET'] : REQUIRED;
  /** @type {Record<string, string> | null} the secrets' values, when the file has them */
  let secretValues = null;
  if (!secrets) {
    problems.push('secrets not checked: pass SECRETS_FILE=<the file you upload with npx wrangler secret bulk> ' +
      '(KEY=value lines or JSON), or the output of npx wrangler secret list (names only) for a worker already deployed. ' +
      `Needed: ${required.join(', ')}`);
  } else {
    const s = readSecrets(secrets);
    for (const k of required) {
      if (!s.names.has(k)) problems.push(`secret ${k} is missing: npx wrangler secret put ${k}`);
    }
    if (s.values !== null) {
      secretValues = Object.fromEntries(Object.entries(s.values).map(([k, x]) => [k, String(x)]));
      const val = (k) => (s.values[k] === undefined ? '' : String(s.values[k]));
      for (const k of required) {
        if (s.names.has(k) && val(k) === '') problems.push(`secret ${k} is empty`);
      }
      // How strong each secret must be is the core's rule (coreProblems below), as the
      // deployed edge's /healthz applies it: nothing is judged twice, differently.
    }
  }
  // What the core itself refuses, from the same configuration.
  if (config.main && fs.existsSync(config.main)) {
    for (const p of await coreProblems({ main: config.main, vars, secretValues, problems,
      bindings: { bookings: dos.has('BOOKINGS'), watchlist: dos.has('WATCHLIST'), sandbox: false, rateLimitAnonymous: limits.has('RATE_LIMIT_ANONYMOUS') } })) {
      problems.push(p);
    }
  }
  return { where, problems, notes };
}

/**
 * coreProblems configures the built core (core.wasm beside main) as the
 * deployed edge will and returns what it refuses, one line per variable,
 * less the variables the checks above already named. Secrets whose values
 * are not known (no SECRETS_FILE, or a names-only one) stand in as strong,
 * distinct values, so only the rest is judged.
 * @param {{main: string, vars: Record<string, unknown>, secretValues: Record<string, string> | null, problems: string[],
 *   bindings: {bookings: boolean, watchlist: boolean, sandbox: boolean, rateLimitAnonymous: boolean}}} q
 * @returns {Promise<string[]>}
 */
async function coreProblems({ main, vars, secretValues, problems, bindings }) {
  const wasm = path.join(path.dirname(main), 'core.wasm');
  if (!fs.existsSync(wasm)) return [`${wasm} is not built: run make worker`];
  const core = await createCore(new WebAssembly.Module(fs.readFileSync(wasm)));
  /** @type {Record<string, string>} */
  const input = {};
  for (const [k, x] of Object.entries(vars)) input[k] = typeof x === 'string' ? x : String(x);
  for (const k of SECRETS) {
    if (secretValues !== null && secretValues[k] !== undefined) input[k] = secretValues[k];
    else if (REQUIRED.includes(k) || (k === 'WEBHOOK_SECRET' && input.WEBHOOK_URL)) input[k] = `check-config-stand-in-${k}-0123456789abcdefghij`;
  }
  const named = new Set();
  for (const p of problems) for (const m of p.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)) named.add(m[0]);
  const out = [];
  // check: the core's rule for secrets (what /healthz refuses) is among its errors.
  for (const e of core.configure({ vars: input, bindings: { ...bindings, check: true } }).errors) {
    if (named.has(e.variable)) continue;
    if (SECRETS.includes(e.variable) && (secretValues === null || secretValues[e.variable] === undefined)) continue;
    named.add(e.variable);
    out.push(`${e.variable}: ${e.problem}`);
  }
  return out;
}

/**
 * devCheck is make dev's check of .dev.vars (worker/devvars.sh): the built
 * core configured as `wrangler dev --env dev` runs it, the environment's
 * [vars] with the file's values over them (ALLOWED_ORIGINS left out: make dev
 * passes its own), with the environment's bindings. Every problem the core
 * finds, its configuration errors and its secret rule alike.
 * @param {{config: string, env: string | undefined, devVars: string}} q
 * @returns {Promise<{variable: string, problem: string}[]>}
 */
export async function devCheck({ config: configPath, env, devVars }) {
  const { unstable_readConfig } = require('wrangler');
  const config = unstable_readConfig({ config: configPath, env }, { hideWarnings: true });
  const wasm = path.join(path.dirname(config.main ?? ''), 'core.wasm');
  if (!config.main || !fs.existsSync(wasm)) throw new Error(`${wasm} is not built: run make worker`);
  const core = await createCore(new WebAssembly.Module(fs.readFileSync(wasm)));
  /** @type {Record<string, string>} */
  const input = {};
  for (const [k, x] of Object.entries(config.vars ?? {})) input[k] = typeof x === 'string' ? x : String(x);
  Object.assign(input, parseDotenv(fs.readFileSync(devVars, 'utf8')));
  delete input.ALLOWED_ORIGINS;
  const dos = new Set((config.durable_objects?.bindings ?? []).map((b) => b.name));
  const c = core.configure({ vars: input, bindings: {
    bookings: dos.has('BOOKINGS'), watchlist: dos.has('WATCHLIST'),
    sandbox: (config.services ?? []).some((s) => s.binding === 'SANDBOX'),
    rateLimitAnonymous: (config.ratelimits ?? []).some((r) => r.name === 'RATE_LIMIT_ANONYMOUS'), check: true,
  } });
  const seen = new Set();
  return c.errors.filter((e) => !seen.has(e.variable) && seen.add(e.variable));
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  let r;
  try {
    const a = args(process.argv.slice(2));
    if (a.devVars !== undefined) {
      const problems = await devCheck({ config: a.config, env: a.env, devVars: a.devVars });
      for (const p of problems) console.log(`${p.variable}\t${p.problem}`);
      process.exit(problems.length > 0 ? 1 : 0);
    }
    r = await check(a);
  } catch (e) {
    console.error(`check-config: ${e.message}`);
    process.exit(2);
  }
  for (const n of r.notes) console.log(`note: ${n}`);
  if (r.problems.length > 0) {
    console.error(`check-config: ${r.where} is not ready to deploy. Change:`);
    for (const p of r.problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(`check-config: ${r.where}: ready to deploy (npx wrangler deploy)`);
}
