// Generates the response vectors of this directory (one JSON file per
// operation plus errors.json). Run: node testdata/responses/generate.mjs
//
// Bodies are written here as JavaScript values (serialized with
// JSON.stringify) or as raw strings when the exact bytes matter. Every
// "expect" is written by hand from the spec and the documented
// normalization of internal/envelope; it is never produced by the decoder.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const files = {};
function vec(file, v) {
  const out = { name: v.name, operation: v.operation, http_status: v.http_status ?? 200 };
  out.body = typeof v.body === 'string' ? v.body : JSON.stringify(v.body);
  if ('expect' in v) out.expect = v.expect;
  if ('expect_error' in v) out.expect_error = v.expect_error;
  (files[file] ??= []).push(out);
}
const ok = (data) => ({ status: 'ok', data });

// A minimal one-page PDF, base64.
const PDF_B64 = 'JVBERi0xLjQKMSAwIG9iajw8L1R5cGUvQ2F0YWxvZy9QYWdlcyAyIDAgUj4+ZW5kb2JqCjIgMCBvYmo8PC9UeXBlL1BhZ2VzL0tpZHNbMyAwIFJdL0NvdW50IDE+PmVuZG9iagozIDAgb2JqPDwvVHlwZS9QYWdlL1BhcmVudCAyIDAgUi9NZWRpYUJveFswIDAgMjgzIDQyNV0+PmVuZG9iagp0cmFpbGVyPDwvUm9vdCAxIDAgUj4+CiUlRU9GCg==';

// ---------------------------------------------------------------- carriers
vec('get-client-carriers', {
  name: 'carriers keyed by code, ids as strings',
  operation: 'get-client-carriers',
  body: ok({
    'swiftpost': { id_carrier: '12', carrier_name: 'SwiftPost', carrier_code: 'swiftpost', status: '1' },
    'acme-express': { id_carrier: 3, carrier_name: 'Acme Express', carrier_code: 'acme-express', status: 0, extra: { ignored: true } },
    'parcelNow': { id_carrier: 27, carrier_name: 'Parcel Now', carrier_code: 'parcelNow', status: 1 },
  }),
  expect: {
    'acme-express': { id_carrier: 3, carrier_name: 'Acme Express', carrier_code: 'acme-express', status: 0, extra: { ignored: true } },
    'parcelNow': { id_carrier: 27, carrier_name: 'Parcel Now', carrier_code: 'parcelNow', status: 1 },
    'swiftpost': { id_carrier: 12, carrier_name: 'SwiftPost', carrier_code: 'swiftpost', status: 1 },
  },
});
vec('get-client-carriers', {
  name: 'no carriers: PHP empty array',
  operation: 'get-client-carriers',
  body: '{"status":"ok","data":[]}',
  expect: {},
});
vec('get-client-carriers', {
  name: 'carrier_code missing: taken from the key',
  operation: 'get-client-carriers',
  body: ok({ 'acme': { id_carrier: 1, carrier_name: 'Acme', status: 1 } }),
  expect: { 'acme': { id_carrier: 1, carrier_name: 'Acme', carrier_code: 'acme', status: 1 } },
});

// ---------------------------------------------------------------- services
vec('get-client-services', {
  name: 'services with carrier sub-object',
  operation: 'get-client-services',
  body: ok([
    { id_service: 101, service_name: 'Acme 24', service_type: '24', service_code: 'acme-24', is_drop_point: 0,
      carrier: { id_carrier: 3, carrier_name: 'Acme Express', carrier_code: 'acme-express' }, status: 1 },
    { id_service: '102', service_name: 'Acme Shop 48', service_type: 48, service_code: 'acme-shop-48', is_drop_point: '1',
      carrier: { id_carrier: '3', carrier_name: 'Acme Express', carrier_code: 'acme-express' }, status: '0', new_field: 'x' },
  ]),
  expect: [
    { id_service: 101, service_name: 'Acme 24', service_type: '24', service_code: 'acme-24', is_drop_point: false,
      carrier: { id_carrier: 3, carrier_name: 'Acme Express', carrier_code: 'acme-express' }, status: 1 },
    { id_service: 102, service_name: 'Acme Shop 48', service_type: '48', service_code: 'acme-shop-48', is_drop_point: true,
      carrier: { id_carrier: 3, carrier_name: 'Acme Express', carrier_code: 'acme-express' }, status: 0, new_field: 'x' },
  ],
});
vec('get-client-services', {
  name: 'PHP list with holes encoded as an object',
  operation: 'get-client-services',
  body: ok({ '0': { id_service: 1, service_name: 'A', service_type: '24h-48h', service_code: 'a-1', is_drop_point: 0, carrier: { id_carrier: 1, carrier_name: 'A', carrier_code: 'a' }, status: 1 },
             '2': { id_service: 2, service_name: 'B', service_type: '72', service_code: 'b-2', is_drop_point: 1, carrier: [], status: 1 } }),
  expect: [
    { id_service: 1, service_name: 'A', service_type: '24h-48h', service_code: 'a-1', is_drop_point: false, carrier: { id_carrier: 1, carrier_name: 'A', carrier_code: 'a' }, status: 1 },
    { id_service: 2, service_name: 'B', service_type: '72', service_code: 'b-2', is_drop_point: true, carrier: { id_carrier: 0, carrier_name: '', carrier_code: '' }, status: 1 },
  ],
});
vec('get-client-services', {
  name: 'wrong shape: carrier is a number',
  operation: 'get-client-services',
  body: ok([{ id_service: 1 }, { id_service: 2, carrier: 5 }]),
  expect_error: { type: 'shape', path: 'data[1].carrier' },
});

// ---------------------------------------------------------------- rates
const rate1 = { id_service: 11, service_name: 'Acme 24', service_code: 'acme-24', service_type: '24', carrier_code: 'acme-express', carrier_name: 'Acme Express', is_drop_point: 0, price: 4.95, currency: 'EUR' };
const rate2w = { id_service: '12', service_name: 'SwiftPost Shop', service_code: 'swiftpost-shop', service_type: '48', carrier_code: 'swiftpost', carrier_name: 'SwiftPost', is_drop_point: '1', price: '3.90', currency: 'EUR' };
const rate2 = { id_service: 12, service_name: 'SwiftPost Shop', service_code: 'swiftpost-shop', service_type: '48', carrier_code: 'swiftpost', carrier_name: 'SwiftPost', is_drop_point: true, price: 3.9, currency: 'EUR' };
vec('get-shipments-rates', {
  name: 'rates with prices as numbers and strings',
  operation: 'get-shipments-rates',
  body: ok({ best_price_service: rate2w, services: [rate1, rate2w] }),
  expect: { best_price_service: rate2, services: [{ ...rate1, is_drop_point: false }, rate2] },
});
vec('get-shipments-rates', {
  name: 'no services: best_price_service empty array, currency missing',
  operation: 'get-shipments-rates',
  body: ok({ best_price_service: [], services: [{ ...rate1, currency: undefined, price: '12' }] }),
  expect: { best_price_service: null, services: [{ ...rate1, is_drop_point: false, price: 12, currency: 'EUR' }] },
});
vec('get-shipments-rates', {
  name: 'unknown members of rate entries passed through unchanged',
  operation: 'get-shipments-rates',
  body: '{"status":"ok","data":{"best_price_service":' + JSON.stringify({ ...rate1, co2_grams: '120' }) +
        ',"services":[' + JSON.stringify(rate1) + ',' + JSON.stringify({ ...rate1, id_service: 12, unknown: { a: [1, 'x', null], b: '' }, pickup: true }) +
        '],"generated_at":"2026-05-12T10:00:00Z"}}',
  expect: {
    best_price_service: { ...rate1, is_drop_point: false, co2_grams: '120' },
    services: [{ ...rate1, is_drop_point: false }, { ...rate1, id_service: 12, is_drop_point: false, unknown: { a: [1, 'x', null], b: '' }, pickup: true }],
    generated_at: '2026-05-12T10:00:00Z',
  },
});
vec('get-shipments-rates', {
  name: 'wrong shape: price not a number',
  operation: 'get-shipments-rates',
  body: ok({ best_price_service: rate1, services: [rate1, rate1, { ...rate1, price: 'free' }] }),
  expect_error: { type: 'shape', path: 'data.services[2].price' },
});

// ---------------------------------------------------------------- arrival
const arr1w = { id_service: 11, service_name: 'Acme 24', service_code: 'acme-24', service_type: '24', carrier_code: 'acme-express', carrier_name: 'Acme Express', transit_hours: '24', working_days: 1, estimated_delivery_date: '2026-05-13' };
const arr1 = { ...arr1w, transit_hours: 24 };
const arr2 = { id_service: 14, service_name: 'SwiftPost 72', service_code: 'swiftpost-72', service_type: '72', carrier_code: 'swiftpost', carrier_name: 'SwiftPost', transit_hours: 72, working_days: 3, estimated_delivery_date: '2026-05-15' };
vec('get-shipment-time-arrival-estimation', {
  name: 'arrival estimates',
  operation: 'get-shipment-time-arrival-estimation',
  body: ok({ bestArrivalTime: arr1w, services: [arr1w, { ...arr2, unknown: [1, 2] }] }),
  // Unknown members are passed through unchanged (the spec lists no fields for these entries).
  expect: { bestArrivalTime: arr1, services: [arr1, { ...arr2, unknown: [1, 2] }] },
});
vec('get-shipment-time-arrival-estimation', {
  name: 'arrival estimates: null best, empty date',
  operation: 'get-shipment-time-arrival-estimation',
  body: ok({ bestArrivalTime: null, services: [{ ...arr2, estimated_delivery_date: '' }] }),
  expect: { bestArrivalTime: null, services: [{ ...arr2, estimated_delivery_date: null }] },
});

// ---------------------------------------------------------------- service info
const schemaNew = { '$schema': 'http://json-schema.org/draft-04/schema#', type: 'object', required: ['to_phone'],
  properties: { to_phone: { type: 'string', maxLength: 15 }, cod_amount: { type: 'number', minimum: 0 } } };
vec('get-service-info', {
  name: 'service info kept raw per method',
  operation: 'get-service-info',
  body: '{"status":"ok","data":{"available_methods":{"new-shipment":true,"new-collection":false},' +
        '"schemas":{"new-shipment":' + JSON.stringify(schemaNew, null, 2) + ',"new-collection":{}},' +
        '"additional_information":{"new-shipment":"Phone is mandatory \\u00e9","new-collection":[]}}}',
  expect: { available_methods: { 'new-shipment': true, 'new-collection': false },
            schemas: { 'new-shipment': schemaNew, 'new-collection': {} },
            additional_information: { 'new-shipment': 'Phone is mandatory é', 'new-collection': [] } },
});
vec('get-service-info', {
  name: 'service info: methods as a list',
  operation: 'get-service-info',
  body: ok({ available_methods: ['new-shipment'], schemas: [], additional_information: null }),
  // A list of names means what the object form means: those methods are available.
  expect: { available_methods: { 'new-shipment': true }, schemas: {}, additional_information: {} },
});
vec('get-service-info', {
  name: 'service info: methods as a list keep their meaning, non-names by index',
  operation: 'get-service-info',
  body: ok({ available_methods: ['new-shipment', 'get-shipment-label', 7], schemas: { 'new-shipment': { type: 'object' } } }),
  expect: { available_methods: { 'new-shipment': true, 'get-shipment-label': true, '2': 7 },
            schemas: { 'new-shipment': { type: 'object' } }, additional_information: {} },
});

// ---------------------------------------------------------------- drop points
const tt = { mon: '09:00 - 20:00', tue: '09:00 - 20:00', wed: '09:00 - 20:00', thu: '09:00 - 20:00', fri: '09:00 - 20:00', sat: '10:00 - 14:00', sun: '' };
const dp1w = { carrier_code: 'swiftpost', drop_point_key: 'SP-28013-004', name: 'Kiosko Sol', address: 'Calle Mayor 5', zip_code: '28013', city: 'Madrid', latitude: '40.4165', longitude: '-3.70256', time_table: tt, phone: '910000000' };
const dp1 = { ...dp1w, latitude: 40.4165, longitude: -3.70256 };
vec('get-drop-points', {
  name: 'drop points with coordinates as strings',
  operation: 'get-drop-points',
  body: ok({ drop_points: [dp1w, { carrier_code: 'acme-express', drop_point_key: 7001, name: 'Papelería Ñu', address: 'Av. Diagonal 1', zip_code: '08019', city: 'Barcelona', latitude: 41.41, longitude: 2.21, time_table: [], phone: null }] }),
  expect: { drop_points: [dp1, { carrier_code: 'acme-express', drop_point_key: '7001', name: 'Papelería Ñu', address: 'Av. Diagonal 1', zip_code: '08019', city: 'Barcelona', latitude: 41.41, longitude: 2.21,
    time_table: { mon: '', tue: '', wed: '', thu: '', fri: '', sat: '', sun: '' }, phone: '' }] },
});
vec('get-drop-points', {
  name: 'drop point without coordinates',
  operation: 'get-drop-points',
  body: ok({ drop_points: [{ ...dp1w, latitude: '', longitude: null }] }),
  expect: { drop_points: [{ ...dp1w, latitude: null, longitude: null }] },
});
vec('get-drop-points', {
  name: 'no drop points',
  operation: 'get-drop-points',
  body: ok({ drop_points: [] }),
  expect: { drop_points: [] },
});
vec('get-drop-points', {
  name: 'wrong shape: latitude with a comma',
  operation: 'get-drop-points',
  body: ok({ drop_points: [{ ...dp1w, latitude: '40,4165' }] }),
  expect_error: { type: 'shape', path: 'data.drop_points[0].latitude' },
});

// ---------------------------------------------------------------- new-shipment
const ns = { shipping_dlvr_ref: 'DLV00012345', shipping_client_ref: 'ORDER-1001', shipping_carrier_ref: '0082800012345678', shipping_carrier_guid: 'a1b2c3d4-e5f6-7890-abcd-ef0123456789',
  service_type: '24', carrier_code: 'acme-express', service_code: 'acme-24', carrier_phone: '+34 900 000 000', advance_tracking_url: 'https://tracking.example.com/t/DLV00012345' };
vec('new-shipment', {
  name: 'new shipment created',
  operation: 'new-shipment',
  body: ok(ns),
  expect: ns,
});
vec('new-shipment', {
  name: 'new shipment: service_type as a number, carrier_ref null',
  operation: 'new-shipment',
  body: ok({ ...ns, service_type: 48, shipping_carrier_ref: null }),
  expect: { ...ns, service_type: '48', shipping_carrier_ref: '' },
});

// ---------------------------------------------------------------- cutoff
vec('get-collection-cutoff-hour', {
  name: 'cutoff hour',
  operation: 'get-collection-cutoff-hour',
  body: ok({ country_code: 'ES', zip_code: 28013, cutoff: '13:30' }),
  expect: { country_code: 'ES', zip_code: '28013', cutoff: '13:30' },
});

// ---------------------------------------------------------------- collection
const col = { collection_dlvr_ref: 'COL000777', collection_client_ref: 'PICK-77', collection_carrier_ref: 'R-99812', carrier_code: 'acme-express', service_code: 'acme-24', carrier_phone: '900000000' };
vec('new-collection', {
  name: 'collection created',
  operation: 'new-collection',
  body: ok(col),
  expect: col,
});

// ---------------------------------------------------------------- label
const labelRefs = { shipping_dlvr_ref: 'DLV00012345', shipping_client_ref: 'ORDER-1001', shipping_carrier_ref: '0082800012345678', shipping_carrier_guid: 'a1b2c3d4' };
vec('get-shipment-label', {
  name: 'label with a real PDF',
  operation: 'get-shipment-label',
  body: ok({ ...labelRefs, label_raw: PDF_B64 }),
  expect: { ...labelRefs, label_raw: PDF_B64 },
});
vec('get-shipment-label', {
  name: 'label base64 with line breaks and no padding',
  operation: 'get-shipment-label',
  body: ok({ ...labelRefs, label_raw: PDF_B64.replace(/=+$/, '').replace(/(.{76})/g, '$1\r\n') }),
  expect: { ...labelRefs, label_raw: PDF_B64 },
});
vec('get-shipment-label', {
  name: 'label that is not a PDF',
  operation: 'get-shipment-label',
  body: ok({ ...labelRefs, label_raw: Buffer.from('<html>label</html>').toString('base64') }),
  expect_error: { type: 'shape', path: 'data.label_raw', reason_contains: '%PDF-' },
});
vec('get-shipment-label', {
  name: 'label that is not base64',
  operation: 'get-shipment-label',
  body: ok({ ...labelRefs, label_raw: 'not base64 at all!' }),
  expect_error: { type: 'shape', path: 'data.label_raw', reason_contains: 'base64' },
});
vec('get-shipment-label', {
  name: 'label missing',
  operation: 'get-shipment-label',
  body: ok(labelRefs),
  expect_error: { type: 'shape', path: 'data.label_raw', reason_contains: 'missing' },
});

// ---------------------------------------------------------------- shipment
const shippingWire = {
  shipping_dlvr_ref: 'DLV00012345', shipping_client_ref: 'ORDER-1001', shipping_carrier_ref: '0082800012345678',
  shipping_carrier_guid: 'a1b2c3d4-e5f6-7890-abcd-ef0123456789', service_type: '24', carrier_code: 'acme-express',
  service_code: 'acme-24', original_service_code: 'acme-24', creation_date: '2026-05-11 10:02:33', shipping_date: '2026-05-12',
  delivery_date: '2026-05-13 12:41:00', docs_number: '0', carrier_phone: '900000000', carrier_website: 'https://acme.example.com',
  carrier_country_code: 'ES', is_return: '0', return_dlvr_ref: '', cash_on_delivery: '0.00', status: '1',
};
const shippingOut = { ...shippingWire, docs_number: 0, is_return: undefined, is_returned: false, status: 1 };
delete shippingOut.is_return;
const partyWire = (p) => ({
  [p + 'nif']: '12345678Z', [p + 'name']: p === 'to_' ? 'Lucía Pérez' : 'Tienda Ejemplo SL', [p + 'attn']: '',
  [p + 'address']: p === 'to_' ? 'Calle Río 3, 2ºB' : 'Polígono Norte 14', [p + 'city']: p === 'to_' ? 'Sevilla' : 'Madrid',
  [p + 'zip_code']: p === 'to_' ? '41001' : '28013', [p + 'country_code']: 'ES', [p + 'phone']: p === 'to_' ? '600000001' : 910000000,
  [p + 'email']: p === 'to_' ? 'lucia@example.com' : 'shop@example.com', [p + 'observations']: p === 'to_' ? 'Portero "automático"\nllamar' : '',
  [p + 'street_type']: '', [p + 'street_number']: '', [p + 'street_name']: '', [p + 'floor']: '',
  ...(p === 'from_' ? { from_mobile: '' } : {}),
});
const partyOut = (p) => {
  const o = partyWire(p);
  o[p + 'phone'] = String(o[p + 'phone']);
  o[p + 'mobile'] = '';
  return o;
};
const hist = [
  { tracking_code: '08', tracking_name: 'parcel on its way to Sevilla', tracking_details: 'En tránsito', tracking_date: '2026-05-12 21:10:00' },
  { tracking_code: '11', tracking_name: 'Delivered', tracking_details: 'Entregado', tracking_date: '2026-05-13 12:41:00' },
  { tracking_code: '1', tracking_name: 'order in preparation', tracking_details: '', tracking_date: '2026-05-11 10:02:33' },
  { tracking_code: '10', tracking_name: 'Out for delivery', tracking_details: 'En reparto', tracking_date: '2026-05-13 08:15:00' },
  { tracking_code: '05', tracking_name: 'pickup done', tracking_details: 'Recogido', tracking_date: '2026-05-12 17:30:00' },
];
const cat = { '01': 'pre_transit', '05': 'in_transit', '08': 'in_transit', '10': 'out_for_delivery', '11': 'delivered', '12': 'exception', '30': 'out_for_delivery' };
const ev = (e) => { const code = e.tracking_code.padStart(2, '0'); return { ...e, tracking_code: code, tracking_category: cat[code] }; };
const histOut = [hist[1], hist[3], hist[0], hist[4], hist[2]].map(ev);
const shipmentWire = {
  shipping_data: shippingWire,
  parcels: [{ parcel_weight: '1.2', parcel_width: '20', parcel_height: 10, parcel_length: '30.5', parcel_volume: '6100' }],
  parcel_data: { parcel_number: '1', parcel_weight: '1.2', parcel_width: '20', parcel_height: '10', parcel_length: '30.5', parcel_volume: '' },
  to_data: partyWire('to_'),
  from_data: partyWire('from_'),
  drop_point_data: '',
  sla_data: { tracking_start_date: '2026-05-12 17:30:00', tracking_delivered_date: '2026-05-13 12:41:00', tracking_current_code: '11', hours_elapsed: '19.18', service_sla_hours: 24, delivery_hour_limit: '2026-05-13 17:30:00' },
  custom_carrier_parameters: [],
  tracking_events: { tracking_code: '11', tracking_name: 'Delivered', tracking_details: 'Entregado', tracking_date: '2026-05-13 12:41:00', tracking_history: hist },
  tracking_data: { carrier_status: 'DELIVERED', pod: { signed_by: 'L. Pérez' } },
  outdated: false,
  some_new_block: { a: 1 },
};
const shipmentOut = {
  shipping_data: shippingOut,
  parcels: [{ parcel_weight: 1.2, parcel_width: 20, parcel_height: 10, parcel_length: 30.5, parcel_volume: 6100 }],
  parcel_data: { parcel_number: '1', parcel_weight: 1.2, parcel_width: 20, parcel_height: 10, parcel_length: 30.5, parcel_volume: 0 },
  to_data: partyOut('to_'),
  from_data: partyOut('from_'),
  drop_point_data: null,
  sla_data: { tracking_start_date: '2026-05-12 17:30:00', tracking_delivered_date: '2026-05-13 12:41:00', tracking_current_code: '11', hours_elapsed: 19.18, service_sla_hours: 24, delivery_hour_limit: '2026-05-13 17:30:00' },
  custom_carrier_parameters: {},
  tracking_events: { tracking_code: '11', tracking_name: 'Delivered', tracking_details: 'Entregado', tracking_date: '2026-05-13 12:41:00', tracking_category: 'delivered', tracking_history: histOut },
  tracking_data: { carrier_status: 'DELIVERED', pod: { signed_by: 'L. Pérez' } },
  outdated: false,
  some_new_block: { a: 1 }, // unknown: passed through unchanged
};
vec('get-shipment', {
  name: 'full shipment: strings for numbers, history out of order, is_return, no drop point',
  operation: 'get-shipment',
  body: ok(shipmentWire),
  expect: shipmentOut,
});
// Undelivered, to a drop point, oudated spelling, null delivery date.
const dpShipWire = {
  ...shipmentWire,
  shipping_data: { ...shippingWire, is_return: undefined, is_returned: 1, delivery_date: null, status: -2, docs_number: 2, cash_on_delivery: '25.50' },
  drop_point_data: dp1w,
  sla_data: { tracking_start_date: '2026-05-12 17:30:00', tracking_delivered_date: '0000-00-00 00:00:00', tracking_current_code: '30', hours_elapsed: 30, service_sla_hours: '48', delivery_hour_limit: '' },
  custom_carrier_parameters: { insurance: '1', insured_value: 150.5 },
  tracking_events: { tracking_code: '30', tracking_name: 'deposited at Kiosko Sol', tracking_details: '', tracking_date: '2026-05-13 09:00:00',
    tracking_history: [
      { tracking_code: '12', tracking_name: 'Recipient absent', tracking_details: 'Ausente', tracking_date: '2026-05-13 08:00:00' },
      { tracking_code: '30', tracking_name: 'deposited at Kiosko Sol', tracking_details: '', tracking_date: '2026-05-13 09:00:00' },
      { tracking_code: '99', tracking_name: 'carrier specific', tracking_details: '', tracking_date: '' },
    ] },
  tracking_data: '',
  outdated: undefined,
  oudated: 1,
};
const dpShipOut = {
  ...shipmentOut,
  shipping_data: { ...shippingOut, is_returned: true, delivery_date: null, status: -2, docs_number: 2, cash_on_delivery: '25.50' },
  drop_point_data: dp1,
  sla_data: { tracking_start_date: '2026-05-12 17:30:00', tracking_delivered_date: null, tracking_current_code: '30', hours_elapsed: 30, service_sla_hours: 48, delivery_hour_limit: '' },
  custom_carrier_parameters: { insurance: '1', insured_value: 150.5 },
  tracking_events: { tracking_code: '30', tracking_name: 'deposited at Kiosko Sol', tracking_details: '', tracking_date: '2026-05-13 09:00:00', tracking_category: 'out_for_delivery',
    tracking_history: [
      { tracking_code: '30', tracking_name: 'deposited at Kiosko Sol', tracking_details: '', tracking_date: '2026-05-13 09:00:00', tracking_category: 'out_for_delivery' },
      { tracking_code: '12', tracking_name: 'Recipient absent', tracking_details: 'Ausente', tracking_date: '2026-05-13 08:00:00', tracking_category: 'exception' },
      { tracking_code: '99', tracking_name: 'carrier specific', tracking_details: '', tracking_date: null, tracking_category: 'unknown' },
    ] },
  tracking_data: null,
  outdated: true,
};
vec('get-shipment', {
  name: 'shipment to a drop point, return, cancelled, oudated spelling, zero date',
  operation: 'get-shipment',
  body: ok(dpShipWire),
  expect: dpShipOut,
});
vec('get-shipment', {
  name: 'shipment: a new block and unknown members inside blocks passed through unchanged',
  operation: 'get-shipment',
  body: ok({ ...shipmentWire,
    shipping_data: { ...shippingWire, insurance_amount: '150.00' },
    parcels: [{ parcel_weight: 1, parcel_width: 2, parcel_height: 3, parcel_length: 4, parcel_volume: 24, barcode: 'B1' }],
    customs_data: { hs_code: '6109', items: [{ qty: 2 }] } }),
  expect: { ...shipmentOut,
    shipping_data: { ...shippingOut, insurance_amount: '150.00' },
    parcels: [{ parcel_weight: 1, parcel_width: 2, parcel_height: 3, parcel_length: 4, parcel_volume: 24, barcode: 'B1' }],
    customs_data: { hs_code: '6109', items: [{ qty: 2 }] } },
});
vec('get-shipment', {
  name: 'shipment: data before status, unknown top-level keys',
  operation: 'get-shipment',
  body: '{"data":' + JSON.stringify(shipmentWire) + ',"meta":{"v":1},"status":"ok"}',
  expect: shipmentOut,
});
vec('get-shipment', {
  name: 'shipment: current state missing, taken from newest history event',
  operation: 'get-shipment',
  body: ok({ shipping_data: shippingWire, tracking_events: { tracking_code: '', tracking_history: hist } }),
  expect: {
    shipping_data: shippingOut, parcels: [],
    parcel_data: { parcel_number: '', parcel_weight: 0, parcel_width: 0, parcel_height: 0, parcel_length: 0, parcel_volume: 0 },
    to_data: Object.fromEntries(Object.keys(partyOut('to_')).map((k) => [k, ''])),
    from_data: Object.fromEntries(Object.keys(partyOut('from_')).map((k) => [k, ''])),
    drop_point_data: null,
    sla_data: { tracking_start_date: null, tracking_delivered_date: null, tracking_current_code: '', hours_elapsed: 0, service_sla_hours: 0, delivery_hour_limit: '' },
    custom_carrier_parameters: null,
    tracking_events: { ...histOut[0], tracking_history: histOut },
    tracking_data: null,
    outdated: false,
  },
});
vec('get-shipment', {
  name: 'wrong shape: parcels[0].parcel_weight is an object',
  operation: 'get-shipment',
  body: ok({ ...shipmentWire, parcels: [{ parcel_weight: { kg: 1 } }] }),
  expect_error: { type: 'shape', path: 'data.parcels[0].parcel_weight' },
});
vec('get-shipment', {
  name: 'wrong shape: a history event date is an array',
  operation: 'get-shipment',
  body: ok({ ...shipmentWire, tracking_events: { tracking_history: [hist[0], { ...hist[1], tracking_date: [] }] } }),
  expect_error: { type: 'shape', path: 'data.tracking_events.tracking_history[1].tracking_date' },
});
vec('get-shipment', {
  name: 'truncated body',
  operation: 'get-shipment',
  http_status: 200,
  body: JSON.stringify(ok(shipmentWire)).slice(0, 700),
  expect_error: { type: 'unexpected', http_status: 200, class: 'unexpected_response', reason_contains: 'malformed JSON' },
});

// ---------------------------------------------------------------- shipments
const listEntryWire = { ...shipmentWire, tracking_events: undefined, tracking_data: undefined };
const listEntryOut = { ...shipmentOut, tracking_events: null, tracking_data: null };
vec('get-shipments', {
  name: 'page of shipments without tracking data',
  operation: 'get-shipments',
  body: ok({ page: '2', n_shipments: '2', shipments: [listEntryWire, { ...listEntryWire, drop_point_data: dp1w }] }),
  expect: { page: 2, n_shipments: 2, shipments: [listEntryOut, { ...listEntryOut, drop_point_data: dp1 }] },
});
vec('get-shipments', {
  name: 'empty page, n_shipments missing',
  operation: 'get-shipments',
  body: ok({ page: 1, shipments: [] }),
  expect: { page: 1, n_shipments: 0, shipments: [] },
});
vec('get-shipments', {
  name: 'wrong shape: status of the second shipment',
  operation: 'get-shipments',
  body: ok({ page: 1, n_shipments: 2, shipments: [listEntryWire, { shipping_data: { status: 'cancelled' } }] }),
  expect_error: { type: 'shape', path: 'data.shipments[1].shipping_data.status' },
});

// ---------------------------------------------------------------- tracking
vec('get-shipment-tracking', {
  name: 'tracking with history out of order',
  operation: 'get-shipment-tracking',
  body: ok({ shipping_dlvr_ref: 'DLV00012345', shipping_client_ref: 'ORDER-1001', shipping_carrier_ref: 82800012345678, shipping_carrier_guid: null,
    tracking_code: 11, tracking_name: 'delivered', tracking_details: 'Entregado', tracking_date: '2026-05-13 12:41:00', tracking_history: hist }),
  expect: { shipping_dlvr_ref: 'DLV00012345', shipping_client_ref: 'ORDER-1001', shipping_carrier_ref: '82800012345678', shipping_carrier_guid: '',
    tracking_code: '11', tracking_name: 'delivered', tracking_details: 'Entregado', tracking_date: '2026-05-13 12:41:00', tracking_category: 'delivered', tracking_history: histOut },
});
vec('get-shipment-tracking', {
  name: 'tracking: same timestamps keep wire order (stable)',
  operation: 'get-shipment-tracking',
  body: ok({ shipping_dlvr_ref: 'D1', shipping_client_ref: 'C1', shipping_carrier_ref: 'R1', shipping_carrier_guid: 'G1',
    tracking_code: '05', tracking_name: 'pickup done', tracking_details: '', tracking_date: '2026-05-12 17:30:00',
    tracking_history: [
      { tracking_code: '02', tracking_name: 'pickup assigned', tracking_details: 'a', tracking_date: '2026-05-12 17:30:00' },
      { tracking_code: '05', tracking_name: 'pickup done', tracking_details: 'b', tracking_date: '2026-05-12 17:30:00' },
    ] }),
  expect: { shipping_dlvr_ref: 'D1', shipping_client_ref: 'C1', shipping_carrier_ref: 'R1', shipping_carrier_guid: 'G1',
    tracking_code: '05', tracking_name: 'pickup done', tracking_details: '', tracking_date: '2026-05-12 17:30:00', tracking_category: 'in_transit',
    tracking_history: [
      { tracking_code: '02', tracking_name: 'pickup assigned', tracking_details: 'a', tracking_date: '2026-05-12 17:30:00', tracking_category: 'pre_transit' },
      { tracking_code: '05', tracking_name: 'pickup done', tracking_details: 'b', tracking_date: '2026-05-12 17:30:00', tracking_category: 'in_transit' },
    ] },
});

// ---------------------------------------------------------------- errors
const err = (data) => ({ status: 'err', data });
vec('errors', {
  name: 'api error 108 carrier rejected',
  operation: 'new-shipment',
  http_status: 200,
  body: err({ errorCode: 108, errorMessage: 'The service is not contracted' }),
  expect_error: { type: 'api', code: 108, class: 'carrier_rejected', message: 'The service is not contracted', http_status: 200 },
});
vec('errors', {
  name: 'api error with carrier code as number and string errorCode',
  operation: 'new-collection',
  http_status: 502,
  body: err({ errorCode: '995', errorMessage: 'The carrier could not process the data', carrierErrorCode: 4012, carrierErrorMessage: 'Código postal inválido' }),
  expect_error: { type: 'api', code: 995, class: 'carrier_communication', message: 'The carrier could not process the data',
    carrier_code: '4012', carrier_message: 'Código postal inválido', http_status: 502 },
});
vec('errors', {
  name: 'api error 999 unexpected',
  operation: 'get-shipment',
  http_status: 500,
  body: err({ errorCode: 999, errorMessage: 'Unexpected error' }),
  expect_error: { type: 'api', code: 999, class: 'unexpected', message: 'Unexpected error', http_status: 500 },
});
vec('errors', {
  name: 'api error code not in the table',
  operation: 'get-shipment',
  body: err({ errorCode: 1234, errorMessage: 'Reference not found' }),
  expect_error: { type: 'api', code: 1234, class: 'unknown', message: 'Reference not found', http_status: 200, error_contains: 'report it to support with code 1234' },
});
vec('errors', {
  name: 'api error with data.message only',
  operation: 'get-client-carriers',
  http_status: 401,
  body: err({ message: 'Invalid credentials' }),
  expect_error: { type: 'api', code: 0, class: 'unknown', message: 'Invalid credentials', http_status: 401 },
});
vec('errors', {
  name: 'api error with data as a list of messages',
  operation: 'get-shipments',
  http_status: 400,
  body: err(['Missing parameter dlvr_ref', 'second']),
  expect_error: { type: 'api', code: 0, class: 'unknown', message: 'Missing parameter dlvr_ref', http_status: 400 },
});
vec('errors', {
  name: 'api error 400 with detail in the message, data before status',
  operation: 'new-shipment',
  body: '{"data":{"errorCode":400,"errorMessage":"to_zip_code: format"},"status":"err"}',
  expect_error: { type: 'api', code: 400, class: 'carrier_rejected', message: 'to_zip_code: format', http_status: 200 },
});
vec('errors', {
  name: 'html error page',
  operation: 'get-shipment',
  http_status: 503,
  body: '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>',
  expect_error: { type: 'unexpected', http_status: 503, class: 'upstream_unavailable', reason_contains: 'HTML', snippet_prefix: '<!DOCTYPE html>' },
});
vec('errors', {
  name: 'empty body with 401',
  operation: 'get-client-carriers',
  http_status: 401,
  body: '',
  expect_error: { type: 'unexpected', http_status: 401, class: 'unauthorized', reason_contains: 'empty body' },
});
vec('errors', {
  name: 'plain text body',
  operation: 'get-drop-points',
  http_status: 500,
  body: 'Internal Server Error',
  expect_error: { type: 'unexpected', http_status: 500, class: 'unexpected_response', reason_contains: 'not JSON' },
});
vec('errors', {
  name: 'JSON without status',
  operation: 'get-drop-points',
  body: '{"data":{"drop_points":[]}}',
  expect_error: { type: 'unexpected', http_status: 200, class: 'unexpected_response', reason_contains: 'without a status' },
});
vec('errors', {
  name: 'JSON with an invalid status',
  operation: 'get-drop-points',
  body: '{"status":"error","data":{}}',
  expect_error: { type: 'unexpected', http_status: 200, class: 'unexpected_response', reason_contains: 'status is "error"' },
});
vec('errors', {
  name: 'JSON array body',
  operation: 'get-client-services',
  body: '[{"id_service":1}]',
  expect_error: { type: 'unexpected', http_status: 200, class: 'unexpected_response', reason_contains: 'not an object' },
});
vec('errors', {
  name: 'ok without data',
  operation: 'get-collection-cutoff-hour',
  body: '{"status":"ok"}',
  expect_error: { type: 'shape', path: 'data', reason_contains: 'missing' },
});
vec('errors', {
  name: 'ok with data of the wrong kind',
  operation: 'new-shipment',
  body: '{"status":"ok","data":"done"}',
  expect_error: { type: 'shape', path: 'data' },
});
vec('errors', {
  name: 'BOM and white space before the envelope',
  operation: 'get-collection-cutoff-hour',
  body: '\ufeff \r\n{"status":"ok","data":{"country_code":"PT","zip_code":"1000-001","cutoff":"12:00"}}\n',
  expect: { country_code: 'PT', zip_code: '1000-001', cutoff: '12:00' },
});

for (const [name, list] of Object.entries(files)) {
  writeFileSync(join(dir, name + '.json'), JSON.stringify(list, null, 2) + '\n');
}
console.log('wrote', Object.keys(files).length, 'files,', Object.values(files).flat().length, 'vectors');
