// js/README.md's order flow end to end, as written: the page's half
// (```js order-flow-page```: quote, choose, book with the bound token,
// label) against make dev's stack, with the shop server's half
// (```js order-flow-server```: verify, compare, charge, bind) in this
// process. A home service and a drop-point service (with the point the
// edge listed) book at the price quoted; a cart whose parcel differs from
// the quoted one is told to quote again, and books nothing.
//
// Run: make test-e2e (builds what it needs).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '../../src/index.js';
import { startStack } from './stack.mjs';

const KEY = 'e2e-token-signing-key-never-shown-0123456789';
const PROXY = 'e2e-proxy-token-never-shown-0123456';
let stack;

before(async () => {
  stack = await startStack({ vars: { TOKEN_SIGNING_KEY: KEY } });
});

after(async () => {
  await stack?.stop();
});

async function readmeBlock(name) {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = new RegExp('```js ' + name + '\\n([\\s\\S]*?)```').exec(readme);
  assert.ok(block, `the ${name} block is in js/README.md`);
  const src = block[1].replace("'@parcelgate/js'", JSON.stringify(new URL('../../src/index.js', import.meta.url).href));
  return import(`data:text/javascript,${encodeURIComponent(src)}`);
}

function nextWorkingDay(from = new Date()) {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const parcels = [{ parcel_weight: 2.35, parcel_width: 30, parcel_height: 20, parcel_length: 40, parcel_volume: 24000 }];
const request = { from_country_code: 'ES', from_zip_code: '28014', to_country_code: 'ES', to_zip_code: '08001', parcels };

function cart(ref, cartParcels = parcels) {
  const charged = [];
  return {
    charged,
    charge: async (price, currency) => charged.push({ price, currency }),
    booking: {
      shipping_client_ref: ref, shipping_date: nextWorkingDay(), service_type: 'custom',
      from_name: 'Tienda Demo', from_address: 'Calle de Alcalá 1', from_city: 'Madrid', from_zip_code: '28014',
      from_country_code: 'ES', from_phone: '910000000', from_email: 'envios@tienda-demo.example',
      to_name: 'Ana García', to_address: 'Carrer de Pau Claris 1', to_city: 'Barcelona', to_zip_code: '08001',
      to_country_code: 'ES', to_phone: '930000000', to_email: 'ana@example.com', parcels: cartParcels,
    },
  };
}

const api = (path) => fetch(`${stack.url}/v1/${path}`, { headers: { Authorization: `Bearer ${PROXY}` } }).then((r) => r.json());

test("js/README.md's order flow books the chosen offer at its price and gets the label", { timeout: 120000 }, async () => {
  const { checkout } = await readmeBlock('order-flow-server');
  const { order } = await readmeBlock('order-flow-page');
  const env = { TOKEN_SIGNING_KEY: KEY };

  // A home service.
  const c1 = cart(`RF-${Date.now() % 1e9}`);
  const home = await order(stack.url, request, (s) => s.offer && !Number(s.is_drop_point), (body) => checkout(body, c1, env));
  assert.equal(home.quoteAgain, undefined);
  assert.equal(Buffer.from(home.pdf.subarray(0, 5)).toString('latin1'), '%PDF-');
  assert.equal(c1.charged.length, 1, 'charged once');
  assert.equal(Number(c1.charged[0].price), home.service.price, 'charged the price quoted');
  assert.equal(c1.charged[0].currency, 'EUR');
  const booked = await api(`get-shipment?dlvr_ref=${home.ref}`);
  assert.equal(booked.data.shipping_data.service_code, home.service.service_code);

  // A drop-point service, with a point the edge listed for its carrier.
  const c2 = cart(`RF-${(Date.now() + 1) % 1e9}`);
  const points = await new Client({ baseUrl: stack.url }).getDropPoints({ country_code: 'ES', zip_code: '08001' });
  const list = Array.isArray(points) ? points : points.drop_points;
  let chosenPoint;
  const dp = await order(stack.url, request, (s) => s.offer && Number(s.is_drop_point) && (chosenPoint = list.find((p) => p.carrier_code === s.carrier_code)),
    (body) => checkout({ ...body, point: chosenPoint.point, dropPointKey: chosenPoint.drop_point_key }, c2, env));
  assert.equal(Number(c2.charged[0].price), dp.service.price);
  const dpBooked = await api(`get-shipment?dlvr_ref=${dp.ref}`);
  assert.equal(dpBooked.data.drop_point_data.drop_point_key, chosenPoint.drop_point_key);

  // The cart's parcel is not the one quoted: quote again, nothing charged or booked.
  const c3 = cart(`RF-${(Date.now() + 2) % 1e9}`, [{ ...parcels[0], parcel_weight: 9 }]);
  const again = await order(stack.url, request, (s) => s.offer && !Number(s.is_drop_point), (body) => checkout(body, c3, env));
  assert.equal(again.quoteAgain, true);
  assert.deepEqual(c3.charged, []);
  const none = await api(`get-shipments?filter_shipping_client_ref=${c3.booking.shipping_client_ref}&page=1&n_items=10`);
  assert.equal((Array.isArray(none.data) ? none.data : none.data.shipments || []).length, 0);
});
