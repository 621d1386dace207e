// The edge core module (build/worker/core.wasm, `make worker-core`)
// through its wrapper, against the vectors the Go tests run
// (testdata/requests, tokens.json, webhooks.json, responses), so Go and
// the module never drift; then a trap and the memory over 20,000 calls.
//
//   node --test worker/src/core.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore, newCore, trapAnswer, RENEW_ABOVE } from './core.mjs';
import { METHODS } from './core.gen.mjs';
import { healthTemplate, fillHealth } from './routes/endpoints.mjs';
import { requestFacts } from './facts.mjs';
import { bodyBounds } from './middleware/body.mjs';
import { exchangeFor } from './testing/fakes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WASM = process.env.PARCELGATE_CORE_WASM || path.join(ROOT, 'build/worker/core.wasm');
const module = new WebAssembly.Module(fs.readFileSync(WASM));
const json = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'testdata', name), 'utf8'));

const MASTER = 'master-token-0123456789abcdef0123456789';
const SIGNING = 'signing-key-0123456789abcdef0123456789ab';
const USER = 'shop-user';
const KEY = 'api-key-0123456789';

/**
 * A configured core; vars override the defaults. Unless checked is false,
 * every call is made twice: on this core, whose calls all run in the same
 * memory one after another (the module's arena: worker/core/wasm), and on
 * a fresh instance configured the same way, which has run nothing before;
 * the answers must be equal. So every test below also checks that no call
 * leaves anything behind that a later call reads.
 */
async function core(vars = {}, bindings = {}, { checked = true } = {}) {
  const traps = [];
  const input = {
    vars: {
      UPSTREAM_BASE_URL: 'https://api.example.com/v1',
      API_USER: USER,
      API_KEY: KEY,
      PROXY_TOKEN: MASTER,
      TOKEN_SIGNING_KEY: SIGNING,
      ...vars,
    },
    bindings: { bookings: true, watchlist: false, sandbox: false, ...bindings },
  };
  const c = await createCore(module, { onTrap: (t) => traps.push(t) });
  const cfg = c.configure(input);
  return { c: checked ? againstFresh(c, input) : c, cfg, traps };
}

/**
 * againstFresh wraps a configured core: each call's answer is compared
 * with the same call's on a new instance configured with input.
 * @param {import('./core.d.mts').EdgeCore} c
 * @param {import('./core.d.mts').ConfigureInput} input
 */
function againstFresh(c, input) {
  const fresh = () => {
    const f = newCore(module);
    f.configure(input);
    return f;
  };
  /** @param {(core: any) => any} target @param {string} name */
  const twice = (target, name) => (...args) => {
    const got = target(c)[name](...args);
    assert.deepEqual(got, target(fresh())[name](...args), `${name}: the answer after earlier calls is a fresh instance's`);
    return got;
  };
  const watch = new Proxy(c.watch, { get: (w, name) => (typeof w[name] === 'function' ? twice((x) => x.watch, name) : w[name]) });
  return new Proxy(c, {
    get(target, name) {
      if (name === 'watch') return watch;
      const v = Reflect.get(target, name);
      if (typeof v !== 'function' || name === 'configure' || name === 'memoryBytes' || name === 'fault') return typeof v === 'function' ? v.bind(target) : v;
      return twice((x) => x, name);
    },
  });
}

/** What every request carries unless a test says otherwise. */
function facts(over = {}) {
  return {
    method: 'POST',
    query: null,
    body: null,
    bodyTooLarge: false,
    contentType: 'application/x-www-form-urlencoded',
    acceptLanguage: 'en-GB,en;q=0.9',
    authorization: `Bearer ${MASTER}`,
    clientIp: '203.0.113.9',
    requestId: 'rid-fixed',
    now: Date.UTC(2026, 10, 20, 12),
    ...over,
  };
}

/** A request vector as the form a shop would POST. */
function formOf(v) {
  const p = new URLSearchParams();
  for (const [k, val] of v.request.fields || []) p.append(k, val);
  (v.request.parcels || []).forEach((parcel, i) => {
    for (const [k, val] of Object.entries(parcel)) p.append(`parcels[${i}][${k}]`, val);
  });
  return p.toString();
}

const requestVectors = fs
  .readdirSync(path.join(ROOT, 'testdata/requests'))
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => json(`requests/${f}`));

test('request vectors: the errors validation gives, or exactly the body the edge forwards', async () => {
  assert.ok(requestVectors.length > 20);
  const plain = await core();
  const rules = await core({ RULES_FEATURE: 'true' });
  for (const v of requestVectors) {
    const { c } = v.options.rules ? rules : plain;
    const now = v.options.today ? Date.parse(`${v.options.today}T00:00:00Z`) + 30 * 3600e3 : Date.UTC(1900, 0, 2, 12);
    const p = c.prepare({ ...facts({ now, body: formOf(v) }), operation: v.operation });
    if (v.errors.length > 0) {
      assert.equal(p.kind, 'respond', v.name);
      assert.equal(p.response.status, 400, v.name);
      const data = JSON.parse(p.response.body).data;
      assert.equal(data.errorCode, v.errors[0].code, v.name);
      assert.equal(data.errorMessage, `${v.errors[0].field}: ${v.errors[0].message}`, v.name);
      assert.deepEqual(
        data.errors.map((e) => ({ field: e.field, code: e.code, message: e.message })),
        v.errors,
        v.name,
      );
      continue;
    }
    assert.equal(p.kind, 'forward', `${v.name}: ${JSON.stringify(p.response)}`);
    if (v.body !== undefined && v.body !== null) assert.equal(p.forward.upstreamBody, v.body, v.name);
    assert.equal(p.caller, 'master');
    assert.equal(p.rateLimit, null, 'the master token is not limited');
  }
});

test('request vectors in Spanish: the same fields and codes, messages from the shared table', async () => {
  const { c } = await core();
  const messages = json('messages.json');
  // Requests the edge can receive: valid UTF-8, no more parcels than the form decoder takes.
  for (const probe of messages.requests.filter((p) => !p.invalid_utf8 && (p.request.parcels || []).length <= 50)) {
    const now = probe.options.today ? Date.parse(`${probe.options.today}T00:00:00Z`) + 30 * 3600e3 : Date.UTC(1900, 0, 2, 12);
    const vars = probe.options.rules ? await core({ RULES_FEATURE: 'true' }) : null;
    const cc = vars ? vars.c : c;
    for (const lang of ['es', 'de']) {
      const p = cc.prepare({ ...facts({ now, acceptLanguage: lang, body: formOf(probe) }), operation: probe.operation });
      const want = probe.errors[lang];
      if (want.length === 0) continue;
      assert.equal(p.kind, 'respond', probe.name);
      const got = JSON.parse(p.response.body).data.errors.map((e) => ({ field: e.field, code: e.code, message: e.message }));
      assert.deepEqual(got, want, `${probe.name} (${lang})`);
    }
  }
});

test('token vectors: the same tokens as worker/tokens and mintToken, the same refusals', async () => {
  const { c } = await core();
  const v = json('tokens.json');
  for (const m of v.mint) {
    const g = { operations: m.grant.operations || [], shippingClientRef: m.grant.shippingClientRef || '', dlvrRef: m.grant.dlvrRef || '', collectionClientRef: m.grant.collectionClientRef || '', offer: m.grant.offer || '' };
    const r = c.mint({ key: v.key, grant: g, ttlSeconds: m.ttl || 0, now: m.now_ms });
    assert.equal(r.error, null, m.name);
    assert.equal(r.token, m.token, m.name);
    assert.equal(new Date(r.expiresAt).toISOString().replace('.000', ''), m.expiresAt, m.name);
    assert.deepEqual(r.grant.operations, m.operations, m.name);
    const back = c.verify({ key: v.key, token: m.token, now: m.now_ms });
    assert.equal(back.error, null, m.name);
    assert.deepEqual(back.claims.operations, m.operations, m.name);
    assert.equal(c.verify({ key: v.key, token: m.token, now: r.expiresAt }).error, 'expired', m.name);
  }
  for (const m of v.refuse) {
    const g = { operations: m.grant.operations || [], shippingClientRef: m.grant.shippingClientRef || '', dlvrRef: m.grant.dlvrRef || '', collectionClientRef: m.grant.collectionClientRef || '', offer: m.grant.offer || '' };
    const r = c.mint({ key: v.key, grant: g, ttlSeconds: m.ttl || 0, now: Date.UTC(2026, 10, 22, 12) });
    assert.equal(r.token, null, m.name);
    assert.deepEqual(r.error, { field: m.field, problem: m.problem }, m.name);
  }
  for (const m of v.tampered) {
    assert.notEqual(c.verify({ key: v.key, token: m.token, now: m.now_ms }).error, null, m.name);
  }
  for (const m of v.outgrown) {
    assert.equal(c.verify({ key: v.key, token: m.token, now: m.now_ms }).error, 'grant', m.name);
  }
});

test('webhook vectors: the configured secret signs exactly the vectors\' headers', async () => {
  const v = json('webhooks.json');
  const { c } = await core({ WEBHOOK_URL: 'https://shop.example/hooks', WEBHOOK_SECRET: v.secret }, { watchlist: true });
  for (const s of v.signed.filter((x) => !x.secrets)) {
    assert.equal(c.signWebhook({ body: s.body, now: s.t * 1000 }).signature, s.header, s.name);
  }
});

/** An envelope with a data member (the edge relays no envelope without one). */
function hasData(body) {
  try {
    const d = JSON.parse(body.replace(/^\uFEFF/, ''));
    return d !== null && typeof d === 'object' && d.data !== undefined && d.data !== null;
  } catch {
    return false;
  }
}

test('response vectors: relayed unchanged when the service answered, mapped to the edge envelope when not', async () => {
  const { c } = await core();
  const files = fs.readdirSync(path.join(ROOT, 'testdata/responses')).filter((f) => f.endsWith('.json'));
  let n = 0;
  for (const f of files) {
    for (const v of json(`responses/${f}`)) {
      n++;
      const a = c.answer({
        context: { operation: v.operation, clientRef: '', ledger: false },
        upstream: { status: v.http_status, body: v.body, failure: null },
        requestId: 'rid',
        acceptLanguage: null,
        now: 0,
      });
      const e = v.expect_error;
      const ok2xx = v.http_status >= 200 && v.http_status < 300;
      if (e && e.type === 'unexpected') {
        assert.equal(a.response.status, 502, v.name);
        assert.equal(a.response.class, v.http_status >= 500 ? 'upstream_error' : 'upstream_bad_response', v.name);
        assert.equal(a.cacheable, false, v.name);
      } else if (e && e.type === 'api') {
        if ([401, 403, 407].includes(v.http_status)) assert.equal(a.response.class, 'upstream_auth', v.name);
        else if (v.http_status >= 500) assert.equal(a.response.class, 'upstream_error', v.name);
        else {
          assert.equal(a.response.body, v.body, v.name);
          assert.equal(a.outcome, 'refused', v.name);
        }
        assert.equal(a.cacheable, false, v.name);
      } else if (ok2xx && !hasData(v.body)) {
        assert.equal(a.response.status, 502, v.name);
        assert.equal(a.response.class, 'upstream_bad_response', v.name);
      } else if (ok2xx) {
        assert.equal(a.response.status, 200, v.name);
        assert.equal(a.response.body, v.body, v.name);
        assert.equal(a.cacheable, true, v.name);
        assert.equal(a.outcome, 'ok', v.name);
      } else {
        assert.equal(a.response.status, 502, v.name);
      }
    }
  }
  assert.ok(n > 30, `${n} vectors`);
});

test('strings cross as UTF-8 (a head written straight into the module\'s memory, a raw part encoded), bytes as they are', async () => {
  const { c } = await core();
  const utf8 = (s) => new TextDecoder().decode(new TextEncoder().encode(s));
  const relayed = (body, requestId = 'rid') =>
    c.answer({
      context: { operation: 'get-drop-points', clientRef: '', ledger: false },
      upstream: { status: 200, body, failure: null },
      requestId,
      acceptLanguage: null,
      now: 0,
    }).response;
  for (const name of ['Peñalver', '東京', '😀', 'a\ud800b', 'x'.repeat(9000) + 'ñ', '€'.repeat(3000)]) {
    const body = JSON.stringify({ status: 'ok', data: [{ id: 'DP1', name }] });
    const a = relayed(body);
    assert.equal(a.status, 200, name.slice(0, 20));
    // A lone surrogate becomes U+FFFD, as TextEncoder.encode() makes it.
    assert.equal(a.body, utf8(body), name.slice(0, 20));
    assert.equal(relayed(new TextEncoder().encode(body)).body, utf8(body), name.slice(0, 20));
  }
  // A head with characters beyond ASCII: the request id comes back in the envelope.
  const failed = c.answer({
    context: { operation: 'get-drop-points', clientRef: '', ledger: false },
    upstream: { status: 0, body: null, failure: 'timeout' },
    requestId: 'rid-ñ-東京-😀',
    acceptLanguage: 'es',
    now: 0,
  }).response;
  assert.equal(failed.status, 504);
  assert.ok(String(failed.body).includes('"requestId":"rid-ñ-東京-😀"'), String(failed.body));
});

test('an upstream answer with the credentials is withheld, in any spelling', async () => {
  const { c } = await core();
  const b64 = Buffer.from(`${USER}:${KEY}`).toString('base64');
  for (const body of [`{"status":"ok","data":{"echo":"${KEY}"}}`, `<pre>Authorization: Basic ${b64}</pre>`, `{"status":"err","data":{"k":"${KEY.replace('-', '\\u002d')}"}}`]) {
    const a = c.answer({ context: { operation: 'get-shipment', clientRef: '', ledger: false }, upstream: { status: 200, body, failure: null }, requestId: 'r', acceptLanguage: null, now: 0 });
    assert.equal(a.leak, true, body);
    assert.equal(a.response.status, 502);
    assert.ok(!a.response.body.includes(KEY));
  }
});

test('the answer to a failed upstream and a refused request speak the client\'s Accept-Language', async () => {
  const { c } = await core();
  const ctx = { operation: 'get-shipment', clientRef: '', ledger: false };
  const say = (lang, upstream) => JSON.parse(c.answer({ context: ctx, upstream, requestId: 'r', acceptLanguage: lang, now: 0 }).response.body).data.errorMessage;
  const timeout = { status: 0, body: null, failure: 'timeout' };
  assert.match(say(null, timeout), /^the upstream did not answer within \d+ ms \(UPSTREAM_TIMEOUT_MS\)$/);
  assert.match(say('es-ES,es;q=0.9', timeout), /^el servicio de envíos no respondió en \d+ ms \(UPSTREAM_TIMEOUT_MS\)$/);
  const refused = { status: 401, body: '{"status":"err","data":{}}', failure: null };
  assert.equal(say('de', refused), 'der Versanddienst hat die Zugangsdaten des Workers abgelehnt (HTTP 401): prüfen Sie die Secrets API_USER und API_KEY');
  const big = c.prepare({ ...facts({ bodyTooLarge: true, acceptLanguage: 'de-DE' }), operation: 'get-shipments-rates' });
  assert.equal(big.response.status, 413);
  assert.match(JSON.parse(big.response.body).data.errorMessage, /^die Anfrage ist größer als MAX_BODY_BYTES \(\d+ Bytes\)$/);
});

test('a trap answers that call with a 500 in the client\'s language, and the next call finds the module configured', async () => {
  const { c, traps } = await core({ UPSTREAM_BASE_URL: 'sandbox', FAULT_INJECTION: 'true' }, { sandbox: true });
  const before = c.prepare({ ...facts({ body: 'country_code=es&zip_code=28014' }), operation: 'get-drop-points' });
  assert.equal(before.kind, 'forward');
  const r = c.fault({ kind: 'trap', requestId: 'rid-trap' });
  assert.equal(r.status, 500);
  assert.equal(r.class, 'internal');
  assert.equal(JSON.parse(r.body).data.requestId, 'rid-trap');
  assert.equal(traps.length, 1);
  assert.equal(traps[0].method, 'fault');
  assert.equal(c.instances, 2);
  // Configured again: the master token, the sandbox and the body all as before.
  const after = c.prepare({ ...facts({ body: 'country_code=es&zip_code=28014' }), operation: 'get-drop-points' });
  assert.deepEqual(after, before);
  assert.equal(c.isMaster({ authorization: `Bearer ${MASTER}` }).master, true);
  // Without FAULT_INJECTION the export answers 404 and never traps.
  const { c: prod, traps: none } = await core();
  assert.equal(prod.fault({ kind: 'trap', requestId: 'r' }).status, 404);
  assert.equal(none.length, 0);
});

test('a trap inside prepare is that request\'s 500; the calls around it are untouched', async () => {
  const { c } = await core({ UPSTREAM_BASE_URL: 'sandbox', FAULT_INJECTION: 'true' }, { sandbox: true });
  const read = { ...facts({ body: 'country_code=es&zip_code=28014' }), operation: 'get-drop-points' };
  const a = c.prepare(read);
  c.fault({ kind: 'trap', requestId: 'x' });
  const failure = c.failure({ kind: 'internal', requestId: 'r9', acceptLanguage: 'fr', operation: '', method: '', path: '', allow: '', origin: '' });
  assert.match(JSON.parse(failure.body).data.errorMessage, /erreur interne/);
  assert.deepEqual(c.prepare(read), a);
});

// readBody reads x's body as the edge's body middleware does (x.body, x.coding).
const readBody = (x) => bodyBounds({ maxBodyBytes: () => 65536 })(x, async () => new Response(null));

test('a body with a Content-Encoding is a 415 naming it, in the client\'s language, not read as a form', async () => {
  const { c } = await core();
  for (const [coding, lang, words] of [['gzip', 'es', /^envía los parámetros como application\/x-www-form-urlencoded \(se recibió "Content-Encoding: gzip"\)$/],
    ['xyz', 'de', /"Content-Encoding: xyz"/]]) {
    const x = exchangeFor('/v1/get-client-services', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded',
      'content-encoding': coding, 'accept-language': lang }, body: 'carrier_code=rayo' });
    await readBody(x);
    const r = c.prepare({ ...requestFacts(x, Date.UTC(2026, 10, 20, 12)), operation: 'get-client-services' });
    assert.equal(r.response?.status, 415, coding);
    const d = JSON.parse(r.response.body).data;
    assert.equal(d.errorClass, 'unsupported_media_type');
    assert.match(d.errorMessage, words);
  }
  for (const coding of ['identity', ' IDENTITY ']) {
    const x = exchangeFor('/v1/get-client-services', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded',
      'content-encoding': coding }, body: 'carrier_code=rayo' });
    await readBody(x);
    const r = c.prepare({ ...requestFacts(x, Date.UTC(2026, 10, 20, 12)), operation: 'get-client-services' });
    assert.equal(r.kind, 'forward', `identity coding ${JSON.stringify(coding)} is a plain form`);
  }
});

test('failures the JavaScript detects are in the client\'s language', async () => {
  const { c } = await core();
  const seen = new Set();
  for (const lang of ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl']) {
    const r = c.failure({ kind: 'rate_limited', requestId: 'r', acceptLanguage: lang, operation: '', method: '', path: '', allow: '', origin: '' });
    assert.equal(r.status, 429);
    assert.equal(r.headers['Retry-After'], '60');
    seen.add(JSON.parse(r.body).data.errorMessage);
  }
  assert.equal(seen.size, 7, 'one message per language');
});

test('a booking: ticket, replay, conflict and a lost answer looked up', async () => {
  const { c } = await core({}, { bookings: true });
  const v = requestVectors.find((x) => x.operation === 'new-shipment' && x.errors.length === 0 && x.body);
  const now = Date.parse(`${v.options.today}T00:00:00Z`) + 30 * 3600e3;
  const p = c.prepare({ ...facts({ now, body: formOf(v) }), operation: 'new-shipment' });
  assert.equal(p.kind, 'forward');
  const t = p.forward.booking;
  assert.equal(t.refField, 'shipping_client_ref');
  assert.match(t.fingerprint, /^[0-9a-f]{64}$/);
  assert.equal(p.forward.retryable, false);
  const base = { context: p.forward.context, ticket: t, requestId: 'r', acceptLanguage: null, now };
  assert.deepEqual(c.booking({ ...base, state: 'new', stored: null, retryAfterMs: 0 }), { kind: 'forward', sending: false });
  const early = c.booking({ ...base, state: 'unknown', stored: null, retryAfterMs: 41500 });
  assert.equal(early.response.status, 425);
  assert.equal(early.response.headers['Retry-After'], '42');
  assert.equal(early.finish, null);
  const done = c.booking({ ...base, state: 'done', stored: '{"status":"ok","data":{"shipping_dlvr_ref":"D1"}}', retryAfterMs: 0 });
  assert.equal(done.response.headers['Idempotent-Replayed'], 'true');
  assert.equal(done.response.body, '{"status":"ok","data":{"shipping_dlvr_ref":"D1"}}');
  assert.equal(c.booking({ ...base, state: 'conflict', stored: null, retryAfterMs: 0 }).response.status, 409);
  const lookup = c.booking({ ...base, state: 'lost', stored: null, retryAfterMs: 0 });
  assert.equal(lookup.kind, 'lookup');
  assert.equal(lookup.operation, 'get-shipments');
  assert.equal(lookup.lookupBody, `filter_shipping_client_ref=${t.ref}&n_items=50`);
  const found = c.lookedUp({
    ...base,
    upstreamBody: p.forward.upstreamBody,
    upstream: { status: 200, body: `{"status":"ok","data":{"shipments":[{"shipping_data":{"shipping_dlvr_ref":"D7","shipping_client_ref":"${t.ref}"}}]}}`, failure: null },
  });
  assert.equal(found.kind, 'respond');
  assert.equal(found.finish.outcome, 'ok');
  assert.equal(found.finish.body, found.response.body);
  assert.match(found.response.body, /"shipping_dlvr_ref":"D7"/);
  const other = c.lookedUp({
    ...base,
    upstreamBody: p.forward.upstreamBody,
    upstream: { status: 200, body: `{"status":"ok","data":{"shipments":[{"shipping_data":{"shipping_dlvr_ref":"D8","shipping_client_ref":"${t.ref}","carrier_code":"otro"}}]}}`, failure: null },
  });
  assert.equal(other.response.status, 409);
  assert.equal(other.response.class, 'booking_mismatch');
  assert.deepEqual(other.finish, { outcome: 'unsent', body: null }, 'another booking\'s data is never adopted');
  // The ledger's refusals in the client's language through the module's wire (Accept-Language), field names as sent.
  for (const [lang, says] of [['es-ES,es;q=0.9', /^shipping_client_ref: el servicio de envíos tiene un envío reservado con shipping_client_ref ".+" cuyos carrier_code no coinciden/],
    ['de', /^shipping_client_ref: der Versanddienst hat eine mit shipping_client_ref ".+" gebuchte Sendung, deren carrier_code von dieser Anfrage abweichen/]]) {
    const said = JSON.parse(c.lookedUp({ ...base, acceptLanguage: lang, upstreamBody: p.forward.upstreamBody,
      upstream: { status: 200, body: `{"status":"ok","data":{"shipments":[{"shipping_data":{"shipping_dlvr_ref":"D8","shipping_client_ref":"${t.ref}","carrier_code":"otro"}}]}}`, failure: null } }).response.body).data;
    assert.match(said.errorMessage, says, lang);
    assert.equal(said.errors[0].field, 'shipping_client_ref');
    const conflict = JSON.parse(c.booking({ ...base, acceptLanguage: lang, state: 'conflict', stored: null }).response.body).data;
    assert.match(conflict.errorMessage, lang === 'de' ? /wurde bereits für eine Buchung mit anderen Daten verwendet/ : /ya se usó para una reserva con otros datos/, lang);
  }
  assert.deepEqual(
    c.lookedUp({ ...base, upstreamBody: p.forward.upstreamBody, upstream: { status: 200, body: '{"status":"ok","data":{"shipments":[]}}', failure: null } }),
    { kind: 'forward', sending: true },
  );
  const lost = c.answer({ context: p.forward.context, upstream: { status: 0, body: null, failure: 'timeout' }, requestId: 'r', acceptLanguage: null, now, sentAt: now - 10000 });
  assert.equal(lost.outcome, 'lost');
  assert.equal(lost.response.status, 504);
  assert.equal(lost.response.headers['Retry-After'], '110', 'the rest of the 120 s grace');
  assert.equal(lost.retry, false, 'a booking is never resent');
});

test('linear memory stays where configure left it over 20,000 calls: each call runs in the memory the last one used', async () => {
  const { c } = await core({}, { bookings: true }, { checked: false });
  const v = requestVectors.find((x) => x.operation === 'new-shipment' && x.errors.length === 0 && x.body);
  const now = Date.parse(`${v.options.today}T00:00:00Z`) + 30 * 3600e3;
  const body = formOf(v);
  const read = { ...facts({ method: 'GET', query: 'country_code=es&zip_code=28014', body: null, authorization: null }), operation: 'get-drop-points' };
  const okBody = JSON.stringify({ status: 'ok', data: { shipping_dlvr_ref: 'D1', label: 'x'.repeat(2000) } });
  const booked = (i) => {
    const p = c.prepare({ ...facts({ now, body }), operation: 'new-shipment' });
    return c.answer({ context: p.forward.context, upstream: { status: 200, body: okBody, failure: null }, requestId: `r${i}`, acceptLanguage: 'es', now });
  };
  const first = { read: c.prepare(read), booked: booked(0) };
  const start = c.memoryBytes();
  let top = 0;
  for (let i = 1; i <= 20000; i++) {
    if (i % 2) booked(i);
    else c.prepare(read);
    top = Math.max(top, c.memoryBytes());
  }
  // With the leaking allocator alone each call left its memory behind
  // (about 12.8 KB a read): the instance was renewed every ~50 reads.
  assert.equal(top, start, `${top} bytes of linear memory after a call, ${start} after the first`);
  assert.ok(top <= RENEW_ABOVE);
  assert.equal(c.renewals, 0, 'no call grew the memory past RENEW_ABOVE');
  assert.equal(c.instances, 1);
  assert.deepEqual(c.prepare(read), first.read);
  const again = booked(0);
  assert.deepEqual(again, first.booked);
  assert.equal(JSON.parse(again.response.body).data.shipping_dlvr_ref, 'D1');
});

test('a large answer\'s memory is given back after the call (a collector kept it: 48 MiB for a 1 MiB answer)', async () => {
  const { c } = await core();
  const points = [];
  for (let i = 0; points.length < 5000; i++) {
    points.push({ carrier_code: 'acme', point_code: `P${i}`, name: `Punto ${i}`, address: `Calle Mayor ${i}`, zip_code: '28014', city: 'Madrid', country_code: 'ES', latitude: 40.41, longitude: -3.7, opening_hours: 'L-V 9:00-20:00' });
  }
  const body = JSON.stringify({ status: 'ok', data: { drop_points: points } });
  assert.ok(body.length > 700_000);
  const small = c.normalize({ operation: 'get-drop-points', body: '{"status":"ok","data":{"drop_points":[]}}', now: Date.now() });
  const n = c.normalize({ operation: 'get-drop-points', body, now: Date.now() });
  assert.equal(n.normalized, true);
  assert.equal(JSON.parse(n.body).data.drop_points.length, 5000);
  assert.ok(c.memoryBytes() <= RENEW_ABOVE, `${c.memoryBytes()} bytes kept after the call`);
  assert.ok(c.renewals >= 1);
  assert.deepEqual(c.normalize({ operation: 'get-drop-points', body: '{"status":"ok","data":{"drop_points":[]}}', now: Date.now() }), small);
});

/**
 * A fresh instance of the module, driven through its four exports as the
 * wrapper drives it (core.mjs's Instance), without the wrapper: the memory
 * one call takes is read before anything could replace the instance.
 */
function rawInstance() {
  const x = /** @type {any} */ (new WebAssembly.Instance(module, {}).exports);
  x._initialize();
  const enc = new TextEncoder();
  const dec = new TextDecoder('utf-8', { ignoreBOM: true });
  /** @param {string} name @param {object} input @param {Uint8Array} raw */
  const call = (name, input, raw) => {
    const head = enc.encode(JSON.stringify(input));
    const ptr = x.pg_in(head.length + raw.length);
    const mem = new Uint8Array(x.memory.buffer, ptr, head.length + raw.length);
    mem.set(head, 0);
    mem.set(raw, head.length);
    const n = x.pg_call(METHODS[name], head.length, raw.length);
    const answer = JSON.parse(dec.decode(new Uint8Array(x.memory.buffer, x.pg_out(), n)));
    const parts = (answer.$raw || []).map(([path, len], i) => ({ path, at: x.pg_part(i), len }));
    return { answer, parts, input: { at: ptr, len: head.length + raw.length }, body: (i = 0) => dec.decode(new Uint8Array(x.memory.buffer, parts[i].at, parts[i].len)) };
  };
  call('configure', { vars: { UPSTREAM_BASE_URL: 'https://api.example.com/v1', API_USER: USER, API_KEY: KEY, PROXY_TOKEN: MASTER, TOKEN_SIGNING_KEY: SIGNING },
    bindings: { bookings: true, watchlist: false, sandbox: false } }, new Uint8Array(0));
  return { call, memoryBytes: () => x.memory.buffer.byteLength };
}

test('one large answer takes the module a few times its size, once: an 8 MiB label, a megabyte of drop points', () => {
  // A Cloudflare isolate has 128 MB in all and the worker reads up to
  // maxUpstreamBodyBytes (8 MiB: a label is a base64 PDF) of an answer.
  // One booking answer with an 8 MiB label took the module from 384 KiB
  // to 96 MiB (the leak scan and the envelope copied it, the answer was
  // copied after its JSON); a megabyte of drop points to 12 MiB, 24 signed.
  // Linear memory grows by doubling: the bounds below are its steps.
  const MiB = 1 << 20;
  const enc = new TextEncoder();
  const b64 = Buffer.alloc(6 * MiB, 0).map((_, i) => (i * 2654435761) >>> 13).toString('base64').replaceAll('/', '\\/');
  for (const [name, label, limit] of [['a run of A', 'A'.repeat(8 * MiB), 12], ["PHP's escaped base64", b64, 24]]) {
    const m = rawInstance();
    const body = enc.encode(`{"status":"ok","data":{"label":"${label}"}}`);
    const { answer, parts, input, body: part } = m.call('answer', { context: { operation: 'new-shipment', clientRef: 'ORD-1', ledger: true },
      upstream: { status: 200, body: null, failure: null }, requestId: 'r', acceptLanguage: 'es', now: Date.now() }, body);
    assert.equal(answer.response.status, 200, name);
    assert.equal(part(), Buffer.from(body).toString(), `${name}: relayed byte for byte`);
    assert.ok(parts[0].at >= input.at && parts[0].at + parts[0].len <= input.at + input.len, `${name}: read where it was written, not copied`);
    assert.ok(m.memoryBytes() <= limit * MiB, `${name}: ${m.memoryBytes() / MiB} MiB of linear memory for ${(body.length / MiB).toFixed(1)} MiB`);
  }
  const pt = JSON.parse(json('responses/get-drop-points.json')[0].body).data.drop_points[0];
  const points = enc.encode(JSON.stringify({ status: 'ok', data: { drop_points: Array.from({ length: 2940 }, (_, i) => ({ ...pt, drop_point_key: `SP-${i}` })) } }));
  for (const [name, input] of [['normalized', {}], ['normalized and signed', { sign: 'cc=ES&z=28013' }], ['signed', { keep: true, sign: 'cc=ES&z=28013' }]]) {
    const m = rawInstance();
    const { answer, body } = m.call('normalize', { operation: 'get-drop-points', now: Date.now(), ...input }, points);
    assert.equal(answer.normalized, name !== 'signed', name);
    const out = JSON.parse(body());
    assert.equal(out.data.drop_points.length, 2940, name);
    assert.equal(typeof out.data.drop_points[2939].point, input.sign ? 'string' : 'undefined', name);
    assert.ok(m.memoryBytes() <= 6 * MiB, `${name}: ${m.memoryBytes() / MiB} MiB of linear memory for ${(points.length / MiB).toFixed(2)} MiB`);
  }
});

test('what a trapped call answers: a booking record is released only when nothing could have been booked', () => {
  const internal = () => ({ status: 500, headers: {}, body: '{}', class: 'internal' });
  assert.deepEqual(trapAnswer('booking', { state: 'new' }, internal).finish, { outcome: 'refused', body: null });
  assert.deepEqual(trapAnswer('booking', { state: 'lost' }, internal).finish, { outcome: 'unsent', body: null });
  for (const state of ['done', 'conflict', 'busy', 'unknown']) assert.equal(trapAnswer('booking', { state }, internal).finish, null, state);
  assert.deepEqual(trapAnswer('lookedUp', {}, internal).finish, { outcome: 'unsent', body: null });
  const a = trapAnswer('answer', {}, internal);
  assert.equal(a.outcome, 'lost', 'an answer that trapped may have booked');
  assert.equal(a.cacheable, false);
  assert.equal(trapAnswer('prepare', {}, internal).response.status, 500);
  assert.equal(trapAnswer('verify', {}, internal), null, 'no request to answer: the RuntimeError is rethrown');
  // normalize's body is the call's raw part (the generated call takes it out of the input): it goes out as received.
  const body = '{"status":"ok","data":{"drop_points":[{"name":"Peñalara"}]}}';
  assert.deepEqual(trapAnswer('normalize', { operation: 'get-drop-points' }, internal, body), { body, normalized: false });
  assert.deepEqual(trapAnswer('normalize', { operation: 'get-drop-points' }, internal, new TextEncoder().encode(body)), { body, normalized: false });
});

test('/healthz from the template (routes/endpoints.mjs) is byte for byte the core\'s own answer', async () => {
  const { c } = await core();
  const input = (instance, cache, rateLimits) => ({ method: 'GET', authorization: null, acceptLanguage: 'de', requestId: 'r-1', now: Date.now(),
    instance, rateLimits, cache, webhooks: null });
  for (const rl of [{ public: true, anonymous: false, tokens: false }, { public: false, anonymous: true, tokens: true }]) {
    const t = healthTemplate(c.healthz(input({ id: 'pg-health-mark-id', requests: 987654321000001, memoryBytes: 987654321000002 },
      { entries: 987654321000003, bytes: 987654321000004 }, rl)));
    assert.notEqual(t, false, 'the core writes every mark once');
    for (const [inst, cache] of [[{ id: '1', requests: 0, memoryBytes: 131072 }, { entries: 0, bytes: 0 }],
      [{ id: '12', requests: 123456789, memoryBytes: 4194304 }, { entries: 77, bytes: 1048576 }]]) {
      const own = c.healthz(input(inst, cache, rl));
      const filled = fillHealth(/** @type {any} */ (t), inst, cache);
      assert.equal(filled.body, own.body);
      assert.deepEqual([filled.status, filled.headers, filled.class], [own.status, own.headers, own.class]);
    }
  }
  const { c: bad } = await core({ PROXY_TOKEN: '' });
  assert.equal(healthTemplate(bad.healthz(input({ id: 'pg-health-mark-id', requests: 987654321000001, memoryBytes: 987654321000002 },
    { entries: 987654321000003, bytes: 987654321000004 }, { public: false, anonymous: false, tokens: false }))), false,
    'a configuration problem: the core answers every probe');
});
