// The states of the four widgets that the phone and accessibility walk
// (widget-phone-a11y.test.mjs) visits, as data: each state sets its widget
// up on js/test/pages/widgets-states.html (apply) and says when it shows
// (reached). stateAnswer is the fake edge behind them. Any list of states
// works: scenarios() combines one state of each widget per page view.

/** The languages of the shopper-facing texts. */
export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl'];

// A valid postal code the fake edge answers only after 30 s: the loading states.
const SLOW = '28001';

// Sets attributes (null removes) and properties of one element.
function setter(id, attrs, props) {
  return (page) =>
    page.evaluate(
      ([id, attrs, props]) => {
        const el = document.getElementById(id);
        for (const [k, v] of Object.entries(attrs || {})) (v === null ? el.removeAttribute(k) : el.setAttribute(k, v));
        for (const [k, v] of Object.entries(props || {})) el[k] = v;
      },
      [id, attrs, props],
    );
}

const stateIs = (id, want) => (page) => page.evaluate(([id, want]) => document.getElementById(id).state === want, [id, want]);

const PARCELS = [{ parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }];
const route = (to, extra = {}) => ({
  'from-country': 'ES', 'from-zip': '28014', 'to-country': 'ES', 'to-zip': to, 'shipping-date': '2026-11-23', filter: null, carrier: null, ...extra,
});

// The drop-point picker's map: Leaflet from node_modules, tiles from the test server (js/test/tiles.mjs).
const MAP = {
  map: '',
  'map-library': '/node_modules/leaflet/dist/leaflet.js',
  'map-tiles': '/tiles/{z}/{x}/{y}.png',
  'map-attribution': '© Test tiles <a href="https://example.com/copyright">copyright</a>',
};
const NO_MAP = { map: null };

const address = (name, fn, reached) => ({
  widget: 'pg-address-form',
  name,
  apply: (page) => page.evaluate(fn),
  reached: reached || (() => true),
});

/** Every state of every widget, by widget. */
export const WIDGET_STATES = {
  'pg-address-form': [
    address('empty', () => document.getElementById('address').reset()),
    address('every error shown', () => {
      const el = document.getElementById('address');
      el.reset();
      el.validate();
      document.activeElement?.blur();
    }),
    address('postal code refused while typing', () => {
      const el = document.getElementById('address');
      el.reset();
      el.value = { to_name: 'Ana García', to_address: 'Carrer de Pau Claris 1', to_city: 'Barcelona', to_zip_code: '0800', to_phone: '600 000 000', to_email: 'ana@' };
    }),
    address('valid, Spanish zone', () => {
      const el = document.getElementById('address');
      el.reset();
      el.value = { to_name: 'Ana García', to_address: 'Carrer de Pau Claris 1', to_city: 'Barcelona', to_zip_code: '07001', to_phone: '600 000 000', to_email: 'ana@example.com' };
    }, (page) => page.evaluate(() => document.getElementById('address').valid)),
    address('valid, normalized code abroad', () => {
      const el = document.getElementById('address');
      el.reset();
      el.value = { to_name: 'Jan de Vries', to_address: 'Damrak 1', to_city: 'Amsterdam', to_zip_code: '1012 lg', to_country_code: 'NL' };
    }, (page) => page.evaluate(() => document.getElementById('address').valid)),
  ],
  'pg-rate-selector': [
    { widget: 'pg-rate-selector', name: 'idle', apply: setter('rates', { 'to-zip': null }, { parcels: PARCELS }), reached: stateIs('rates', 'idle') },
    { widget: 'pg-rate-selector', name: 'ready, one chosen', apply: async (page) => {
      await setter('rates', route('08001'), { parcels: PARCELS })(page);
      await page.waitForFunction(() => document.getElementById('rates').state === 'ready');
      await setter('rates', {}, { value: 'tortuga/tortuga-72' })(page);
    }, reached: (page) => page.evaluate(() => document.getElementById('rates').selected !== null) },
    { widget: 'pg-rate-selector', name: 'loading', apply: setter('rates', route(SLOW)), reached: stateIs('rates', 'loading') },
    { widget: 'pg-rate-selector', name: 'drop-point services', apply: setter('rates', route('08001', { filter: 'drop-point' })), reached: stateIs('rates', 'ready') },
    { widget: 'pg-rate-selector', name: 'no arrival dates', apply: setter('rates', route('07001')), reached: stateIs('rates', 'ready') },
    { widget: 'pg-rate-selector', name: 'empty', apply: setter('rates', route('41001')), reached: stateIs('rates', 'empty') },
    { widget: 'pg-rate-selector', name: 'none of this kind', apply: setter('rates', route('08001', { carrier: 'nobody' })), reached: stateIs('rates', 'ready') },
    { widget: 'pg-rate-selector', name: 'refused postal code', apply: setter('rates', route('08002')), reached: stateIs('rates', 'error') },
    { widget: 'pg-rate-selector', name: 'upstream error', apply: setter('rates', route('08003')), reached: stateIs('rates', 'error') },
  ],
  'pg-drop-point-picker': [
    { widget: 'pg-drop-point-picker', name: 'idle', apply: setter('points', { ...NO_MAP, 'zip-code': null, carrier: null }), reached: stateIs('points', 'idle') },
    { widget: 'pg-drop-point-picker', name: 'ready, one chosen', apply: async (page) => {
      await setter('points', { ...NO_MAP, country: 'ES', 'zip-code': '08001', carrier: null })(page);
      await page.waitForFunction(() => document.getElementById('points').state === 'ready');
      await page.evaluate(() => {
        const el = document.getElementById('points');
        el.value = el.dropPoints[1].drop_point_key;
      });
    }, reached: (page) => page.evaluate(() => document.getElementById('points').selected !== null) },
    { widget: 'pg-drop-point-picker', name: 'loading', apply: setter('points', { ...NO_MAP, country: 'ES', 'zip-code': SLOW }), reached: stateIs('points', 'loading') },
    { widget: 'pg-drop-point-picker', name: 'one carrier', apply: setter('points', { ...NO_MAP, country: 'ES', 'zip-code': '08001', carrier: 'tortuga' }), reached: stateIs('points', 'ready') },
    { widget: 'pg-drop-point-picker', name: 'no distance known', apply: setter('points', { ...NO_MAP, country: 'FR', 'zip-code': '75001', carrier: null }), reached: stateIs('points', 'ready') },
    { widget: 'pg-drop-point-picker', name: 'none of this carrier', apply: setter('points', { ...NO_MAP, country: 'ES', 'zip-code': '08001', carrier: 'nobody' }), reached: stateIs('points', 'ready') },
    { widget: 'pg-drop-point-picker', name: 'upstream error', apply: setter('points', { ...NO_MAP, country: 'ES', 'zip-code': '08003', carrier: null }), reached: stateIs('points', 'error') },
    { widget: 'pg-drop-point-picker', name: 'map beside the list', apply: setter('points', { country: 'ES', 'zip-code': '08001', carrier: null, ...MAP }),
      reached: (page) => page.evaluate(() => {
        const el = document.getElementById('points');
        return el.state === 'ready' && el.mapState === 'ready' && el.shadowRoot.querySelectorAll('img.leaflet-tile-loaded').length > 0;
      }) },
    { widget: 'pg-drop-point-picker', name: 'map failed', apply: setter('points', { country: 'ES', 'zip-code': '08001', carrier: null, ...MAP, 'map-tiles': '/tiles-broken/{z}/{x}/{y}.png' }),
      reached: (page) => page.evaluate(() => document.getElementById('points').mapState === 'failed') },
  ],
  'pg-tracking-timeline': [
    { widget: 'pg-tracking-timeline', name: 'idle', apply: setter('tracking', { reference: null }), reached: stateIs('tracking', 'idle') },
    { widget: 'pg-tracking-timeline', name: 'in transit', apply: tracking('STAGE0'), reached: stateIs('tracking', 'ready') },
    { widget: 'pg-tracking-timeline', name: 'loading', apply: tracking('SLOW'), reached: stateIs('tracking', 'loading') },
    { widget: 'pg-tracking-timeline', name: 'delivered (final)', apply: tracking('FINAL'), reached: stateIs('tracking', 'ready') },
    { widget: 'pg-tracking-timeline', name: 'refused token', apply: tracking('REFUSED'), reached: stateIs('tracking', 'error') },
  ],
};

function tracking(reference) {
  return (page) =>
    page.evaluate((reference) => {
      const el = document.getElementById('tracking');
      el.client = new window.Client({ baseUrl: location.origin, token: 'shop-token' });
      el.setAttribute('reference', reference);
    }, reference);
}

/**
 * Page views that together show every state of every widget: view i puts
 * each widget in its state i (its first state once its list is exhausted).
 */
export function scenarios(states) {
  const lists = Object.values(states);
  const n = Math.max(...lists.map((l) => l.length));
  const out = [];
  for (let i = 0; i < n; i++) out.push(lists.map((l) => l[i] || l[0]));
  return out;
}

/** The fake edge behind the states: fixtures by postal code and reference; 28001 and SLOW never answer in time. */
export function stateAnswer(fx, op, params) {
  const rs = fx['rate-selector'];
  const dp = fx['drop-point-picker'];
  const tt = fx['tracking-timeline'];
  if (op === 'get-shipment-tracking') {
    const ref = params.get('dlvr_ref') || params.get('shipping_client_ref');
    if (ref === 'SLOW') return { delay: 30000, body: tt.stages[0] };
    if (ref === 'REFUSED') return { status: 401, body: tt.unauthorized.body };
    return { body: ref === 'FINAL' ? tt.stages[tt.stages.length - 1] : tt.stages[0] };
  }
  if (op === 'get-client-carriers') return { body: dp.carriers };
  if (op === 'get-drop-points') {
    const zip = params.get('zip_code');
    if (zip === SLOW) return { delay: 30000, body: dp.es_08001 };
    if (zip === '08001') return { body: dp.es_08001 };
    if (zip === '75001') return { body: dp.fr_75001 };
    return { status: dp.upstream_error.http_status, body: dp.upstream_error.body };
  }
  const zip = params.get('to_zip_code');
  const rates = op === 'get-shipments-rates';
  if (zip === SLOW) return { delay: 30000, body: rates ? rs.madrid_barcelona.rates : rs.madrid_barcelona.estimation };
  if (zip === '08001') return { body: rates ? rs.madrid_barcelona.rates : rs.madrid_barcelona.estimation };
  if (zip === '07001') return rates ? { body: rs.madrid_palma.rates } : { status: rs.upstream_error.http_status, body: rs.upstream_error.body };
  if (zip === '41001') return { body: rates ? rs.empty.rates : rs.empty.estimation };
  if (zip === '08002') return { status: rs.invalid_zip.http_status, body: rs.invalid_zip.body };
  return { status: rs.upstream_error.http_status, body: rs.upstream_error.body };
}
