// The baseline of `make bench`: the new-shipment validation a shop would
// write by hand in plain JavaScript (regular expressions, no core):
// required fields, lengths, the Spanish postal code (province 01-52),
// calendar dates not in the past, phone, e-mail, the service type and the
// parcels' positive decimals. It checks fewer rules than the core (no other
// countries' postal codes, no conditional rules, no control characters, no
// unknown fields, English only).

const REQUIRED = [
  'shipping_date', 'service_type', 'carrier_code', 'service_code', 'shipping_client_ref',
  'from_name', 'from_address', 'from_city', 'from_zip_code', 'from_country_code',
  'to_name', 'to_address', 'to_city', 'to_zip_code', 'to_country_code',
];
const MAX = { from_name: 40, to_name: 40, from_address: 100, to_address: 100, from_city: 40, to_city: 40, shipping_client_ref: 40 };
const ES_ZIP = /^(?:0[1-9]|[1-4][0-9]|5[0-2])[0-9]{3}$/;
const OTHER_ZIP = /^[A-Za-z0-9][A-Za-z0-9 -]{0,8}[A-Za-z0-9]$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PHONE = /^\+?[0-9 ().-]{6,20}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
const DECIMAL = /^(?:[1-9][0-9]{0,6}|0)(?:\.[0-9]+)?$/;
const PARCEL = ['parcel_weight', 'parcel_width', 'parcel_height', 'parcel_length', 'parcel_volume'];

/** Validates {fields: [[name, value]...], parcels} like a shop's own code: [{field, message}]. */
export function baselineValidate(request, today) {
  const f = {};
  for (const [k, v] of request.fields) f[k] = String(v).trim();
  const errors = [];
  const err = (field, message) => errors.push({ field, message });
  for (const k of REQUIRED) if (!f[k]) err(k, 'This field is required.');
  for (const k in MAX) if (f[k] && [...f[k]].length > MAX[k]) err(k, `Use at most ${MAX[k]} characters.`);
  for (const side of ['from', 'to']) {
    const zip = f[`${side}_zip_code`];
    const country = (f[`${side}_country_code`] || '').toUpperCase();
    if (zip && !(country === 'ES' ? ES_ZIP : OTHER_ZIP).test(zip)) err(`${side}_zip_code`, 'Invalid postal code.');
    if (country && !/^[A-Z]{2}$/.test(country)) err(`${side}_country_code`, 'Invalid country.');
    const phone = f[`${side}_phone`];
    if (phone && !PHONE.test(phone)) err(`${side}_phone`, 'Invalid phone number.');
    const email = f[`${side}_email`];
    if (email && !EMAIL.test(email)) err(`${side}_email`, 'Invalid e-mail address.');
  }
  const d = DATE.exec(f.shipping_date || '');
  if (f.shipping_date) {
    if (!d) err('shipping_date', 'Enter a date as YYYY-MM-DD.');
    else {
      const date = new Date(Date.UTC(+d[1], +d[2] - 1, +d[3]));
      if (date.getUTCMonth() !== +d[2] - 1 || date.getUTCDate() !== +d[3]) err('shipping_date', 'This date does not exist.');
      else if (today && f.shipping_date < today) err('shipping_date', 'The date must not be in the past.');
    }
  }
  if (f.service_type && f.service_type !== 'custom') err('service_type', 'Must be custom.');
  const parcels = request.parcels || [];
  if (parcels.length === 0) err('parcels', 'Add at least one parcel.');
  parcels.forEach((p, i) => {
    for (const k of PARCEL) {
      const v = p[k] === undefined ? '' : String(p[k]).trim();
      if (!DECIMAL.test(v) || Number(v) <= 0) err(`parcels[${i}][${k}]`, 'Enter a positive number.');
    }
  });
  return errors;
}
