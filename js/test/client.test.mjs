// The Client against a fake edge worker on 127.0.0.1 (node:http), with the
// WebAssembly core loaded in Node from js/dist (file: URL) and without it.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { load, loaded, Client, ParcelgateError, OPERATIONS } from '../src/index.js';
import { readVectors } from './helpers.mjs';

let server;
let base;
let requests = [];
let handler = null;
let responses;
let requestVectors;

function reply(res, status, body, type = 'application/json; charset=utf-8') {
  res.writeHead(status, { 'Content-Type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

before(async () => {
  responses = await readVectors('responses');
  requestVectors = await readVectors('requests');
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      requests.push({ method: req.method, path: url.pathname, query: url.search.slice(1), headers: req.headers, body });
      if (handler) handler(req, res, url, body);
      else reply(res, 404, { status: 'err', data: { errorCode: 404, errorMessage: 'no handler' } });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  assert.equal(loaded(), null);
  await load(); // dist/parcelgate.wasm through a file: URL
  assert.ok(loaded());
});

after(() => new Promise((r) => server.close(r)));

beforeEach(() => {
  requests = [];
  handler = null;
});

const vector = (file, name) => responses[file].find((v) => v.name === name);

test('one method per operation, named in camelCase', () => {
  const c = new Client({ baseUrl: base });
  assert.equal(OPERATIONS.length, 13);
  for (const op of OPERATIONS) assert.equal(typeof c[op.method], 'function', op.method);
  assert.equal(typeof c.getShipmentTimeArrivalEstimation, 'function');
  assert.throws(() => new Client({}), TypeError);
});

test('reads are GET with a query string; data is decoded by the core', async () => {
  const v = responses['get-client-carriers.json'][0];
  handler = (req, res) => reply(res, 200, v.body);
  const c = new Client({ baseUrl: `${base}/`, headers: { 'X-Shop': 'demo' } });
  const data = await c.getClientCarriers();
  assert.deepEqual(data, v.expect);
  assert.equal(requests.length, 1);
  assert.equal(requests[0].method, 'GET');
  assert.equal(requests[0].path, '/v1/get-client-carriers');
  assert.equal(requests[0].headers['x-shop'], 'demo');
  assert.equal(requests[0].headers.authorization, undefined);

  handler = (req, res) => reply(res, 200, responses['get-drop-points.json'][0].body);
  await c.getDropPoints({ country_code: 'nl', zip_code: '1012 ab' });
  assert.equal(requests[1].query, 'country_code=NL&zip_code=1012-AB');
});

test('bookings are POST with the normalized form body and the bearer token', async () => {
  const v = requestVectors['new-shipment.json'][0];
  handler = (req, res) => reply(res, 200, responses['new-shipment.json'][0].body);
  const c = new Client({ baseUrl: `${base}/v1`, token: 'tok-123', validateOptions: v.options });
  const data = await c.newShipment({ fields: v.request.fields, parcels: v.request.parcels });
  assert.deepEqual(data, responses['new-shipment.json'][0].expect);
  const r = requests[0];
  assert.equal(r.method, 'POST');
  assert.equal(r.path, '/v1/new-shipment');
  assert.equal(r.headers.authorization, 'Bearer tok-123');
  assert.equal(r.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(r.body, v.body);
});

test('an invalid request is refused before anything is sent', async () => {
  const c = new Client({ baseUrl: base, token: 't' });
  const err = await c.newShipment({ to_zip_code: '999' }).catch((e) => e);
  assert.ok(err instanceof ParcelgateError);
  assert.equal(err.category, 'validation');
  assert.equal(err.class, 'validation');
  assert.equal(err.status, 0);
  assert.equal(err.code, 402);
  assert.ok(err.fieldErrors.length > 5);
  assert.deepEqual(err.fieldErrors[0], { field: 'shipping_date', code: 402, message: 'This field is required.' });
  assert.equal(requests.length, 0);
});

test("the edge's HTTP 400 carries the field errors", async () => {
  handler = (req, res) =>
    reply(res, 400, {
      status: 'err',
      data: { errorCode: 484, errorMessage: 'to_zip_code: not accepted', errors: [{ field: 'to_zip_code', code: 484, message: 'not accepted' }] },
    });
  const c = new Client({ baseUrl: base, validate: false });
  const err = await c.getShipment({ dlvr_ref: 'X' }).catch((e) => e);
  assert.equal(err.category, 'validation');
  assert.equal(err.status, 400);
  assert.equal(err.code, 484);
  assert.deepEqual(err.fieldErrors, [{ field: 'to_zip_code', code: 484, message: 'not accepted' }]);
});

test('error envelopes and unexpected responses map to categories', async () => {
  const c = new Client({ baseUrl: base });
  const cases = [
    [vector('errors.json', 'api error 108 carrier rejected'), 'carrier_rejected', 108],
    [{ operation: 'get-shipment', http_status: 502, body: '<html><body>Bad gateway</body></html>' }, 'upstream_unavailable', 0],
    [{ operation: 'get-shipment', http_status: 401, body: '' }, 'unauthorized', 0],
    [{ operation: 'get-shipment', http_status: 401, body: '{"status":"err","data":{"errorCode":401,"errorMessage":"token"}}' }, 'unauthorized', 401],
    [{ operation: 'get-shipment', http_status: 200, body: '{"status":"ok","data":{"shipping_data":"x"}}' }, 'unexpected_response', 0],
  ];
  for (const [v, category, code] of cases) {
    handler = (req, res) => reply(res, v.http_status, v.body);
    const err = await c.call(v.operation, v.operation === 'get-shipment' ? { dlvr_ref: 'R1' } : undefined, {}).catch((e) => e);
    // new-shipment's vector needs a valid request: skip client validation for it.
    if (err.category === 'validation') {
      const raw = new Client({ baseUrl: base, validate: false });
      const e2 = await raw.call(v.operation, {}).catch((e) => e);
      assert.equal(e2.category, category, v.body);
      assert.equal(e2.code, code);
      continue;
    }
    assert.ok(err instanceof ParcelgateError, String(err));
    assert.equal(err.category, category, `${v.body}: ${err.message}`);
    assert.equal(err.code, code);
    assert.equal(err.status, v.http_status);
  }
});

test("the edge's 425 booking_unconfirmed is its own category, and the Client does not resend it", async () => {
  let calls = 0;
  handler = (req, res) => {
    calls++;
    res.setHeader('Retry-After', '28');
    reply(res, 425, {
      status: 'err',
      data: {
        errorCode: 1425,
        errorMessage: 'an earlier attempt with this shipping_client_ref may have booked the shipment; nothing was sent. Resend the same request in 28 s',
        errorClass: 'booking_unconfirmed',
        retryable: true,
        source: 'edge',
      },
    });
  };
  for (const c of [new Client({ baseUrl: base, validate: false }), new Client({ baseUrl: base, validate: false, core: null })]) {
    calls = 0;
    const err = await c.call('new-shipment', { shipping_client_ref: 'ORD-1' }).catch((e) => e);
    assert.ok(err instanceof ParcelgateError, String(err));
    assert.equal(err.category, 'booking_unconfirmed', err.message);
    assert.equal(err.code, 1425);
    assert.equal(err.status, 425);
    assert.match(err.message, /28 s/);
    assert.equal(err.retryAfter, 28);
    assert.equal(calls, 1, 'a booking is never resent by the Client');
  }
});

test('timeout, abort and network errors', async () => {
  handler = (req, res) => setTimeout(() => reply(res, 200, responses['get-client-carriers.json'][0].body), 500);
  const c = new Client({ baseUrl: base, timeout: 50 });
  const t = await c.getClientCarriers().catch((e) => e);
  assert.equal(t.category, 'timeout');

  const ctrl = new AbortController();
  const slow = new Client({ baseUrl: base, timeout: 0 });
  const p = slow.getClientCarriers({}, { signal: ctrl.signal }).catch((e) => e);
  setTimeout(() => ctrl.abort(), 20);
  assert.equal((await p).category, 'aborted');

  const gone = http.createServer();
  await new Promise((r) => gone.listen(0, '127.0.0.1', r));
  const port = gone.address().port;
  await new Promise((r) => gone.close(r));
  const n = await new Client({ baseUrl: `http://127.0.0.1:${port}` }).getClientCarriers().catch((e) => e);
  assert.equal(n.category, 'network');
});

// The edge's own refusals (testdata/widgets/edge-errors.json), with and
// without the core: each has a category a shop can act on, and a 429's
// Retry-After is read.
test("the edge's refusals: rate_limited with retryAfter, configuration, upstream_unavailable", async () => {
  const { default: fs } = await import('node:fs');
  const edge = JSON.parse(fs.readFileSync(new URL('../../testdata/widgets/edge-errors.json', import.meta.url), 'utf8'));
  const cases = [
    [edge.rate_limited, 'rate_limited', 60],
    [edge.misconfigured, 'configuration', 0],
    [edge.upstream_unreachable, 'upstream_unavailable', 0],
    [edge.upstream_timeout, 'upstream_unavailable', 0],
    [edge.ledger_unavailable, 'upstream_unavailable', 2],
  ];
  for (const core of [undefined, null]) {
    const c = new Client({ baseUrl: base, core });
    for (const [e, category, retryAfter] of cases) {
      handler = (req, res) => {
        res.writeHead(e.http_status, { 'Content-Type': 'application/json', ...e.headers });
        res.end(JSON.stringify(e.body));
      };
      const err = await c.getClientCarriers().catch((x) => x);
      assert.ok(err instanceof ParcelgateError, String(err));
      assert.equal(err.category, category, `${e.body.data.errorClass} (core: ${core === null ? 'none' : 'loaded'})`);
      assert.equal(err.retryAfter, retryAfter, e.body.data.errorClass);
      assert.equal(err.status, e.http_status);
    }
  }
  // A 429 that is not an envelope (a CDN's) is rate limited too; a date works as Retry-After.
  handler = (req, res) => {
    res.writeHead(429, { 'Content-Type': 'text/html', 'Retry-After': new Date(Date.now() + 30000).toUTCString() });
    res.end('<html>slow down</html>');
  };
  const err = await new Client({ baseUrl: base, core: null }).getClientCarriers().catch((x) => x);
  assert.equal(err.category, 'rate_limited');
  assert.ok(err.retryAfter >= 28 && err.retryAfter <= 31, String(err.retryAfter));
});

test('call(..., {locale}) asks the edge in that language (Accept-Language)', async () => {
  let seen = '';
  handler = (req, res) => {
    seen = req.headers['accept-language'] || '';
    reply(res, 200, { status: 'ok', data: {} });
  };
  const c = new Client({ baseUrl: base });
  await c.call('get-client-carriers', {}, { locale: 'es-ES' });
  assert.equal(seen, 'es-ES');
  await c.call('get-client-carriers', {}, {});
  assert.notEqual(seen, 'es-ES', 'no locale: the Client adds none (the runtime may send its own)');
});

test('shipmentPages and shipments iterate get-shipments pages', async () => {
  const one = JSON.parse(responses['get-shipments.json'][0].body).data.shipments[0];
  const sizes = { 1: 5, 2: 5, 3: 2 };
  handler = (req, res, url) => {
    const page = Number(url.searchParams.get('page'));
    const n = sizes[page] || 0;
    reply(res, 200, { status: 'ok', data: { page, n_shipments: n, shipments: Array.from({ length: n }, () => one) } });
  };
  const c = new Client({ baseUrl: base });
  const pages = [];
  for await (const p of c.shipmentPages({ n_items: 5, filter_carrier_code: 'acme-express' })) pages.push(p.page);
  assert.deepEqual(pages, [1, 2, 3]);
  assert.deepEqual(
    requests.map((r) => r.query),
    [1, 2, 3].map((p) => `filter_carrier_code=acme-express&page=${p}&n_items=5`),
  );
  let count = 0;
  for await (const s of c.shipments({ n_items: 5 })) {
    assert.equal(s.shipping_data.shipping_dlvr_ref, one.shipping_data.shipping_dlvr_ref);
    count++;
  }
  assert.equal(count, 12);
});

test('label returns the PDF as bytes and as a Blob', async () => {
  const v = vector('get-shipment-label.json', 'label base64 with line breaks and no padding');
  handler = (req, res) => reply(res, 200, v.body);
  for (const core of [undefined, null]) {
    const c = new Client({ baseUrl: base, core });
    const label = await c.label({ dlvr_ref: 'DLV00012345' });
    assert.ok(label.bytes instanceof Uint8Array);
    assert.equal(new TextDecoder().decode(label.bytes.slice(0, 5)), '%PDF-');
    const blob = label.blob();
    assert.equal(blob.type, 'application/pdf');
    assert.equal(blob.size, label.bytes.length);
    assert.equal(label.data.shipping_dlvr_ref, 'DLV00012345');
  }
});

test('without the core: the JavaScript encoder and the plain envelope', async () => {
  handler = (req, res) => reply(res, 200, { status: 'ok', data: { cutoff: '18:00' } });
  const c = new Client({ baseUrl: base, core: null });
  const data = await c.getShipmentsRates({
    fields: [['from_country_code', 'ES'], ['to_name', 'José & Filhos']],
    parcels: [{ parcel_weight: 1e-7, parcel_width: 2.5 }],
  });
  assert.deepEqual(data, { cutoff: '18:00' });
  assert.equal(
    requests[0].query,
    'from_country_code=ES&to_name=Jos%C3%A9+%26+Filhos&parcels[0][parcel_weight]=0.0000001&parcels[0][parcel_width]=2.5',
  );
  handler = (req, res) => reply(res, 200, { status: 'err', data: { errorCode: 995, errorMessage: 'carrier down', carrierErrorCode: 12 } });
  const err = await c.getShipment({ dlvr_ref: 'x' }).catch((e) => e);
  assert.equal(err.category, 'carrier_communication');
  assert.equal(err.carrierCode, '12');
});

test('without the core, numbers are written as the core writes them: every digit, never an exponent', async () => {
  handler = (req, res) => reply(res, 200, { status: 'ok', data: {} });
  const c = new Client({ baseUrl: base, core: null });
  // The shortest digits that read back to the same number (wire.numberText, Go's strconv 'f' -1);
  // the old encoder rounded to 20 decimals (1.5e-21 was sent as 0).
  await c.getShipmentsRates({ fields: { a: 1.2345678901234568e-10, b: 1.5e-21, c: 1e21, d: -2.5e-7 } });
  assert.equal(requests[0].query, 'a=0.00000000012345678901234568&b=0.0000000000000000000015&c=1000000000000000000000&d=-0.00000025');
});

// The edge's own 401 for a scoped token it refuses (worker/core/prepare.go).
const edge401 = {
  status: 'err',
  data: { errorCode: 1401, errorMessage: 'the scoped token has expired; get a new one from the shop\'s server', source: 'edge', errorClass: 'unauthorized', requestId: 'r1' },
};

// A token function that counts its calls and hands out tok-1, tok-2, ...
function tokenFunction(wrap = (t) => t) {
  const f = async () => {
    f.calls += 1;
    await new Promise((r) => setTimeout(r, 5));
    return wrap(`tok-${f.calls}`);
  };
  f.calls = 0;
  return f;
}

test('a token function is called once and its token cached, also by concurrent calls', async () => {
  const body = responses['get-shipment-tracking.json'][0].body;
  handler = (req, res) => reply(res, 200, body);
  const source = tokenFunction();
  const c = new Client({ baseUrl: base, token: source });
  assert.equal(c.token, '');
  await Promise.all([c.getShipmentTracking({ dlvr_ref: 'D1' }), c.getShipmentTracking({ dlvr_ref: 'D1' })]);
  await c.getShipmentTracking({ dlvr_ref: 'D1' });
  assert.equal(source.calls, 1);
  assert.deepEqual(requests.map((r) => r.headers.authorization), ['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-1']);
  assert.equal(c.token, 'tok-1');
});

test("the edge's 401 refreshes the token and sends a booking once more", async () => {
  const v = requestVectors['new-shipment.json'][0];
  handler = (req, res) =>
    req.headers.authorization === 'Bearer tok-2' ? reply(res, 200, responses['new-shipment.json'][0].body) : reply(res, 401, edge401);
  const source = tokenFunction();
  const c = new Client({ baseUrl: base, token: source, validateOptions: v.options });
  const data = await c.newShipment({ fields: v.request.fields, parcels: v.request.parcels });
  assert.deepEqual(data, responses['new-shipment.json'][0].expect);
  assert.equal(source.calls, 2);
  assert.deepEqual(requests.map((r) => r.headers.authorization), ['Bearer tok-1', 'Bearer tok-2']);
  assert.equal(requests[1].body, v.body);

  // Refused again with the fresh token: one retry only, then the error.
  requests = [];
  handler = (req, res) => reply(res, 401, edge401);
  const err = await c.getShipmentTracking({ dlvr_ref: 'D1' }).catch((e) => e);
  assert.equal(err.category, 'unauthorized');
  assert.equal(err.status, 401);
  assert.equal(requests.length, 2);
  assert.equal(source.calls, 3); // tok-2 (cached) refused, tok-3 refused
});

test('no retry: a fixed token, a 403, a 401 that is not the edge refusing the token', async () => {
  const cases = [
    [{ token: 'fixed' }, 401, edge401],
    [{ token: tokenFunction() }, 403, { status: 'err', data: { errorCode: 1403, errorMessage: 'the scoped token does not grant new-shipment', source: 'edge', errorClass: 'forbidden' } }],
    [{ token: tokenFunction() }, 401, { status: 'err', data: { errorCode: 999, errorMessage: 'relayed' } }],
    [{ token: tokenFunction() }, 401, 'not json'],
  ];
  for (const [opts, status, body] of cases) {
    requests = [];
    handler = (req, res) => reply(res, status, body);
    const c = new Client({ baseUrl: base, ...opts });
    const err = await c.getShipmentTracking({ dlvr_ref: 'D1' }).catch((e) => e);
    assert.ok(err instanceof ParcelgateError);
    assert.equal(err.status, status);
    assert.equal(requests.length, 1, JSON.stringify(body));
    if (typeof opts.token === 'function') assert.equal(opts.token.calls, 1);
  }
});

test('a token function may answer {token, expiresAt}; an expired one is replaced before sending', async () => {
  const body = responses['get-shipment-tracking.json'][0].body;
  handler = (req, res) => reply(res, 200, body);
  let expiresAt = new Date(Date.now() + 60000).toISOString();
  const source = tokenFunction((token) => ({ token, expiresAt, expiresIn: 60 }));
  const c = new Client({ baseUrl: base, token: source });
  await c.getShipmentTracking({ dlvr_ref: 'D1' });
  await c.getShipmentTracking({ dlvr_ref: 'D1' });
  assert.equal(source.calls, 1);
  expiresAt = new Date(Date.now() - 1000).toISOString();
  c.token = source; // a new function (here the same one) drops the cache
  await c.getShipmentTracking({ dlvr_ref: 'D1' }); // tok-2, already expired
  await c.getShipmentTracking({ dlvr_ref: 'D1' }); // so tok-3 is fetched first
  assert.deepEqual(requests.map((r) => r.headers.authorization), ['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2', 'Bearer tok-3']);
});

test('a failing token function is an unauthorized error and nothing is sent', async () => {
  handler = (req, res) => reply(res, 200, {});
  for (const token of [async () => { throw new Error('shop server down'); }, async () => '', async () => ({ nope: 1 })]) {
    const c = new Client({ baseUrl: base, token });
    const err = await c.getShipmentTracking({ dlvr_ref: 'D1' }).catch((e) => e);
    assert.ok(err instanceof ParcelgateError);
    assert.equal(err.category, 'unauthorized');
  }
  assert.equal(requests.length, 0);
});

// The edge normalizes ok data itself when asked (Accept: ...; parcelgate=normalized,
// worker/core/normalize.go): the Client then uses it as sent and never fetches the
// decoder module; an answer without the mark (an older edge, an error) is decoded.
test('data the edge normalized is used as sent: the decoder module is not fetched', async () => {
  const core = await load({ wasm: new URL('../dist/parcelgate.wasm', import.meta.url) });
  const v = vector('get-shipments-rates.json', 'rates with prices as numbers and strings');
  const params = {
    from_country_code: 'ES', from_zip_code: '28014', to_country_code: 'ES', to_zip_code: '08001',
    parcels: [{ parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }],
  };
  handler = (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Parcelgate-Data': 'normalized' });
    res.end(JSON.stringify({ status: 'ok', data: v.expect }));
  };
  const c = new Client({ baseUrl: base, core });
  assert.deepEqual(await c.getShipmentsRates(params), v.expect);
  assert.equal(requests[0].headers.accept, 'application/json; parcelgate=normalized');
  assert.equal(core.decoderLoaded, false);

  handler = (req, res) => reply(res, 200, v.body);
  assert.deepEqual(await c.getShipmentsRates(params), v.expect);
  assert.equal(core.decoderLoaded, true);
});

test('a ParcelgateError made as core.d.ts declares it (message, optional info): a page or a test can make one', () => {
  // js/test/types-default-lib.ts writes new ParcelgateError('no core'); it threw reading info.cause.
  const e = new ParcelgateError('no core');
  assert.equal(e.message, 'no core');
  assert.equal(e.name, 'ParcelgateError');
  assert.equal(e.category, 'unknown');
  assert.equal(e.class, 'unknown');
  assert.equal(e.code, 0);
  assert.deepEqual(e.fieldErrors, []);
  const v = new ParcelgateError('bad', { category: 'validation', code: 400 });
  assert.equal(v.category, 'validation');
  assert.equal(v.code, 400);
});

test("an unexpected response's details keep what the core's snippet keeps (200 bytes), never half a character", async () => {
  const c = new Client({ baseUrl: base });
  const a199 = 'a'.repeat(199);
  handler = (req, res) => reply(res, 502, `${a199}😀 and more`, 'text/html; charset=utf-8');
  const withCore = await c.call('get-client-carriers', undefined, {}).catch((e) => e);
  assert.equal(withCore.details.snippet, a199, "the core's snippet: 200 bytes, the emoji's 4 do not fit whole");
  const err = await new Client({ baseUrl: base, core: null }).call('get-client-carriers', undefined, {}).catch((e) => e);
  assert.ok(err instanceof ParcelgateError, String(err));
  assert.equal(err.details, withCore.details.snippet, 'without the core, the same start of the body');
});
