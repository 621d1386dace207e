// Scoped tokens minted in JavaScript (mintToken, as a shop's Node server
// would) against the built worker under workerd (make dev's stack, with
// the sandbox worker): the Client books with a token function whose
// first token the edge refuses as expired (one refresh, one retry, one
// booking), then follows the shipment with a token bound to it; the edge
// refuses other operations, other references and tampered tokens.
//
// Run: make test-e2e (builds what it needs).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, mintToken, ParcelgateError } from '../../src/index.js';
import { startStack } from './stack.mjs';

const KEY = 'e2e-token-signing-key-never-shown-0123456789';
let stack;

before(async () => {
  stack = await startStack({ vars: { TOKEN_SIGNING_KEY: KEY } });
});

after(async () => {
  await stack?.stop();
});

function nextWorkingDay(from = new Date()) {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const route = { from_country_code: 'ES', from_zip_code: '28014', to_country_code: 'ES', to_zip_code: '08001' };
const parcels = [{ parcel_weight: 1.2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }];

test('a token function books once after the edge refuses its expired token; bound tokens follow the shipment', { timeout: 120000 }, async () => {
  const ref = `E2E-${Date.now() % 1e9}`;
  const calls = [];
  const pub = new Client({ baseUrl: stack.url, core: null });
  const rates = await pub.getShipmentsRates({ ...route, parcels });
  // A home-delivery service: a drop-point one would need the chosen point's signed `point` too.
  const service = rates.services.find((s) => s.carrier_code && s.service_code && s.offer && !Number(s.is_drop_point));
  assert.ok(service, JSON.stringify(rates).slice(0, 300));
  // The shop's server: the first token it hands out has already expired.
  // Since issue 30 a booking grant is bound to the offer the shopper chose.
  const source = async () => {
    calls.push(Date.now());
    const now = calls.length === 1 ? Date.now() - 3600_000 : Date.now();
    return mintToken(KEY, { operations: ['new-shipment', 'get-shipment-tracking'], shippingClientRef: ref, offer: service.offer }, { ttl: 600, now });
  };

  const shop = new Client({ baseUrl: stack.url, core: null, token: source });
  const booking = {
    shipping_date: nextWorkingDay(),
    service_type: 'custom',
    carrier_code: service.carrier_code,
    service_code: service.service_code,
    shipping_client_ref: ref,
    from_name: 'Tienda Demo', from_address: 'Calle de Alcalá 1', from_city: 'Madrid', from_zip_code: '28014',
    from_country_code: 'ES', from_phone: '910000000', from_email: 'envios@tienda-demo.example',
    to_name: 'Ana García', to_address: 'Carrer de Pau Claris 1', to_city: 'Barcelona', to_zip_code: '08001',
    to_country_code: 'ES', to_phone: '930000000', to_email: 'ana@example.com',
    parcels,
    offer: service.offer,
  };
  const booked = await shop.newShipment(booking);
  assert.match(booked.shipping_dlvr_ref, /\S/);
  assert.equal(calls.length, 2, 'expired token refused, fresh token fetched once');

  // Another order's reference with this token: 403, never booked.
  const other = await shop.newShipment({ ...booking, shipping_client_ref: `${ref}X`.slice(-15) }).catch((e) => e);
  assert.ok(other instanceof ParcelgateError);
  assert.equal(other.status, 403);
  assert.equal(calls.length, 2, 'a 403 is not a reason to refresh');

  // Tracking by the bound client reference, then a token bound to the shipment.
  const byRef = await shop.getShipmentTracking({ client_ref: ref });
  assert.ok(byRef);
  const follow = await mintToken(KEY, { operations: ['get-shipment', 'get-shipment-tracking'], dlvrRef: booked.shipping_dlvr_ref });
  const page = new Client({ baseUrl: stack.url, core: null, token: follow.token });
  const shipment = await page.getShipment({ dlvr_ref: booked.shipping_dlvr_ref });
  assert.equal(shipment.shipping_data?.shipping_dlvr_ref ?? shipment.shipping_dlvr_ref, booked.shipping_dlvr_ref);

  // Raw refusals of the edge: no grant, another shipment, tampered.
  const raw = async (op, query, token) => {
    const res = await fetch(`${stack.url}/v1/${op}?${query}`, { headers: { Authorization: `Bearer ${token}` } });
    return { status: res.status, data: (await res.json()).data };
  };
  let r = await raw('get-shipments', '', follow.token);
  assert.equal(r.status, 403);
  assert.match(r.data.errorMessage, /\(it grants get-shipment, get-shipment-tracking\)/);
  r = await raw('get-shipment', 'dlvr_ref=SBX0000000001', follow.token);
  assert.equal(r.status, 403);
  const last = follow.token.at(-1);
  r = await raw('get-shipment', `dlvr_ref=${encodeURIComponent(booked.shipping_dlvr_ref)}`, follow.token.slice(0, -1) + (last === 'A' ? 'B' : 'A'));
  assert.equal(r.status, 401);
  assert.equal(r.data.errorClass, 'unauthorized');
  assert.equal(r.data.source, 'edge');
});
