// @ts-check
// <pg-drop-point-picker>: the drop points near a postal code, each with its
// address, today's opening hours and its distance from the postal code's
// approximate location (when the core knows it), filterable by carrier;
// one chosen with native radios.
//
//   <pg-drop-point-picker country="ES" zip-code="28014"></pg-drop-point-picker>
//   <script type="module">
//     const picker = document.querySelector('pg-drop-point-picker');
//     picker.onPick = (point) => console.log(point.drop_point_key);
//     picker.addEventListener('pg-select', (e) => console.log(e.detail.dropPoint));
//   </script>
//
// It calls get-drop-points (and get-client-carriers for the carriers'
// names); both are public operations.
//
// With the `map` attribute (and a tile URL, an attribution and Leaflet from
// the shop: map-tiles, map-attribution, map-library or mapLibrary) a map
// shows the listed points beside the list; ./drop-point-map.js is imported
// only then.

import { SelectableList, attributeProperties, adoptStyles, emit, esc, uid } from './base.js';
import { formatKm, formatTimeRange, formatList } from './i18n.js';
import { distanceKm } from '../core.js';
import { offerFacts, expired } from './offer-facts.js';

/** @typedef {import('../../widgets.js').DropPoint} DropPoint */
/** @typedef {{fp: string, key: string, point: string}} SavedPoint */

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const CSS = `
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
.pg-filter { display: flex; flex-wrap: wrap; gap: 0.25rem 0.5rem; align-items: center; margin: 0 0 0.5rem; }
.pg-filter[hidden] { display: none; }
.pg-filter label { margin: 0; }
.pg-filter select { width: auto; min-width: 0; flex: 0 1 auto; }
/* Loading: the previous options stay readable (no fading: contrast stays
   at WCAG AA) and are marked as stale by dashed borders. */
.pg-list[aria-busy=true] { cursor: progress; }
.pg-list[aria-busy=true] .pg-option { border-style: dashed; }
.pg-hours { display: block; font-size: 0.875em; }
.pg-open { color: var(--_ok); }
.pg-closed { color: var(--_muted); }
.pg-distance { font-size: 0.875em; color: var(--_muted); }
.pg-body { display: flex; flex-wrap: wrap; gap: var(--_gap); align-items: flex-start; }
.pg-body > fieldset { flex: 3 1 20rem; min-width: 0; }
/* List first; the map beside it on a wide widget, under it on a narrow one. */
.pg-map-box { flex: 2 1 14rem; min-width: 0; }
.pg-map { height: 18rem; border: 1px solid var(--_border); border-radius: var(--_radius); overflow: hidden; position: relative; z-index: 0; }
.pg-map-note { color: var(--_muted); font-size: 0.875em; margin: 0.25rem 0 0; }
`;

const MAP_ATTRIBUTES = ['map', 'map-tiles', 'map-attribution', 'map-library', 'map-css'];

/**
 * Drop-point picker.
 * @extends {SelectableList<DropPoint>}
 */
export class PgDropPointPicker extends SelectableList {
  static observedAttributes = ['country', 'zip-code', 'carrier', 'value', 'endpoint', 'lang', ...SelectableList.formAttributes, ...MAP_ATTRIBUTES];

  /** Its texts: "points.*" of internal/i18n/ui.go (override any with the `texts` property). */
  static part = 'points';


  constructor() {
    super('dropPoint');
    adoptStyles(this._root, CSS);
    /** @type {DropPoint[]} */
    this._points = [];
    /** @type {Map<string, string>} carrier_code -> carrier_name */
    this._names = new Map();
    this._name = uid('pg-dp');
    /** @type {Date | null} */
    this._today = null;
    /** @type {string | null} carrier chosen in the select; null = the attribute */
    this._filter = null;
    /** @type {((dropPoint: DropPoint) => void) | null} Called with the chosen drop point (the same object as pg-select's detail.dropPoint). */
    this.onPick = null;
    /** @type {object | string | URL | (() => unknown) | null} */
    this._mapLibrary = null;
    /** @type {any} the map's controller once drawn (drop-point-map.js) */
    this._map = null;
    /** @type {'' | 'loading' | 'ready' | 'failed'} */
    this._mapState = '';
    this._mapRun = 0;
    this._mapCss = false;
    /** @type {string | null} */
    this._mapWarned = null;
    /** @type {{city: string} | null} where the postal code is, when the core knows */
    this._here = null;
    this._offer = '';
    /** @type {Record<string, string> | null} the chosen drop-point offer's facts */
    this._offerFacts = null;
    /** @type {DropPoint | null} */
    this._lastSelected = null;
    /** @type {{name: string} | null} a held submit's point */
    this._held = null;
    // The form's rate selector chose a service: its offer is the one the point must go with.
    /** @param {Event} ev */
    this._onOffer = (ev) => {
      const t = /** @type {any} */ (ev.target);
      const detail = /** @type {CustomEvent} */ (ev).detail;
      if (t && t.localName === 'pg-rate-selector' && this.form && t.form === this.form && detail) this.offer = detail.offer || '';
    };
  }

  connectedCallback() {
    super.connectedCallback();
    this.ownerDocument.addEventListener('pg-change', this._onOffer);
  }

  _connect() {
    if (!this._rendered) {
      const sel = `${this._name}-carrier`;
      this._root.innerHTML =
        `<div class="pg-root" part="root">` +
        `<p class="pg-alert" part="alert" aria-live="polite" aria-atomic="true"></p>` +
        `<div class="pg-filter" part="filter" hidden><label for="${sel}">${esc(this.t('carrier'))}</label>` +
        `<select id="${sel}" part="carrier-select"></select></div>` +
        `<div class="pg-body">` +
        `<fieldset><legend class="pg-visually-hidden">${esc(this.t('legend'))}</legend>` +
        `<ul class="pg-list" part="list" aria-busy="false"></ul></fieldset>` +
        `<div class="pg-map-box" hidden><div class="pg-map" part="map" role="region"></div></div>` +
        `</div>` +
        `<p class="pg-map-note" part="map-note" hidden></p>` +
        `<p class="pg-status" part="status" role="status" aria-live="polite"></p>` +
        `</div>`;
      this._q('.pg-list').addEventListener('change', (ev) => {
        const input = ev.target;
        if (input instanceof HTMLInputElement && input.type === 'radio') this._choose(input.value);
      });
      const select = /** @type {HTMLSelectElement} */ (this._q('select'));
      select.addEventListener('change', () => {
        this._filter = select.value;
        this.render();
        this._keepOrClear();
      });
      this._rendered = true;
      this._syncForm();
    }
    this._schedule();
  }

  /**
   * @param {string} name
   * @param {string | null} oldValue
   * @param {string | null} newValue
   */
  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === 'lang') {
      this._checkLanguage();
      return;
    }
    if (name === 'value') {
      if (!this._reflecting) this.value = newValue || '';
      return;
    }
    if (name === 'name' || name === 'required') {
      this._syncForm();
      return;
    }
    if (name === 'carrier') {
      this._filter = null; // the attribute wins over an earlier choice in the select
      if (this._rendered) this.render();
      this._keepOrClear();
      return;
    }
    if (MAP_ATTRIBUTES.includes(name)) {
      this._resetMap();
      if (this._rendered) this.render();
      return;
    }
    this._schedule();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.ownerDocument.removeEventListener('pg-change', this._onOffer);
    this._resetMap();
  }

  // ---- the map ------------------------------------------------------------------

  /**
   * Leaflet for the map: the Leaflet namespace, a function returning it (or
   * a promise of it: `() => import('leaflet')` with a bundler) or a URL of
   * Leaflet's dist/leaflet.js (or an ES module build). Default: the
   * `map-library` attribute, else a `window.L` on the page.
   */
  /** @returns {object | string | URL | (() => unknown) | null} */
  get mapLibrary() {
    return this._mapLibrary || this.getAttribute('map-library') || null;
  }

  /** @param {object | string | URL | (() => unknown) | null | undefined} v */
  set mapLibrary(v) {
    // A URL is the `map-library` attribute's meaning: reflected to it, as React and Vue set it here.
    if (typeof v === 'string' || v == null) {
      this._mapLibrary = null;
      if (v) this.setAttribute('map-library', String(v));
      else this.removeAttribute('map-library');
    } else this._mapLibrary = v;
    this._resetMap();
    if (this._rendered) this.render();
  }

  /** '' (no map), 'loading', 'ready' or 'failed' (also the data-map attribute). */
  get mapState() {
    return this._mapState;
  }

  /** @param {'' | 'loading' | 'ready' | 'failed'} state */
  _setMapState(state) {
    this._mapState = state;
    if (state) this.setAttribute('data-map', state);
    else this.removeAttribute('data-map');
  }

  // The map's configuration, or null (with the reason on the console) when
  // the map is off or cannot be shown: tiles and attribution are the shop's
  // to choose; there is no default provider.
  _mapConfig() {
    if (!this.hasAttribute('map')) return null;
    const tiles = (this.getAttribute('map-tiles') || '').trim();
    const attribution = (this.getAttribute('map-attribution') || '').trim();
    let problem = '';
    if (!tiles || !/\{z\}/.test(tiles) || !/\{x\}/.test(tiles) || !/\{y\}/.test(tiles)) problem = 'map-tiles must be a tile URL template with {z}, {x} and {y}';
    else if (!attribution) problem = "map-attribution is required (the tile provider's attribution)";
    if (problem) {
      if (this._mapWarned !== problem) console.error(`pg-drop-point-picker: no map: ${problem}; see src/widgets/drop-point-picker.md ("A map beside the list").`);
      this._mapWarned = problem;
      return null;
    }
    let css = this.getAttribute('map-css') || '';
    const lib = this.mapLibrary;
    if (!css && typeof lib === 'string' && !/\.mjs|\.esm\.js/.test(lib)) css = new URL('leaflet.css', new URL(lib, document.baseURI)).href;
    return { tiles, attribution, css, library: lib };
  }

  _resetMap() {
    if (this._map) this._map.destroy();
    this._map = null;
    this._mapRun = (this._mapRun || 0) + 1; // a load in flight is dropped
    this._setMapState('');
    if (this._rendered) {
      const box = this._q('.pg-map-box');
      box.hidden = true;
      box.querySelector('link')?.remove();
      this._q('.pg-map-note').hidden = true;
    }
  }

  /** @param {any} err */
  _mapFailed(err) {
    if (this._map) this._map.destroy();
    this._map = null;
    this._setMapState('failed');
    console.warn(err && err.message ? err.message : err);
    if (!this._rendered) return;
    this._q('.pg-map-box').hidden = true;
    const note = this._q('.pg-map-note');
    note.textContent = this.t('mapFailed');
    note.hidden = false;
  }

  // Shows the visible points on the map, drawing it the first time there
  // are points to show. Nothing of the map is fetched before that.
  /** @param {DropPoint[]} shown */
  _paintMap(shown) {
    const config = this._mapConfig();
    const box = this._q('.pg-map-box');
    const region = /** @type {HTMLElement} */ (box.querySelector('.pg-map'));
    region.setAttribute('aria-label', this.t('mapLabel'));
    const located = shown.filter((p) => p.latitude !== null && p.longitude !== null);
    const show = !!config && this._mapState !== 'failed' && located.length > 0;
    box.hidden = !show;
    if (!show) return;
    if (this._map) {
      this._map.show(located, this._value);
      return;
    }
    if (this._mapState === 'loading') return;
    this._setMapState('loading');
    if (!config) return;
    if (config.css && !box.querySelector('link')) {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = config.css;
      box.prepend(link);
    }
    const run = this._mapRun;
    import('./drop-point-map.js')
      .then(async (m) => {
        if (!this._mapCss) {
          this._mapCss = true;
          const style = document.createElement('style');
          style.textContent = m.MAP_CSS;
          this._root.append(style);
        }
        const map = await m.createMap(region, {
          library: config.library,
          tiles: config.tiles,
          attribution: config.attribution,
          texts: { zoomIn: this.t('zoomIn'), zoomOut: this.t('zoomOut') },
          onPick: (/** @type {string} */ key) => this._pickFromMap(key),
          onFail: (/** @type {any} */ err) => {
            if (run === this._mapRun) this._mapFailed(err);
          },
        });
        if (run !== this._mapRun) {
          map.destroy();
          return;
        }
        this._map = map;
        this._setMapState('ready');
        this._map.show(this._visible().filter((p) => p.latitude !== null && p.longitude !== null), this._value);
      })
      .catch((err) => {
        if (run === this._mapRun) this._mapFailed(err);
      });
  }

  // Every change of the choice (list, marker, value, reset) moves the map's mark.
  _reflect() {
    super._reflect();
    if (this._map) this._map.select(this._value);
  }

  // A marker was clicked: the same choice as its radio, which scrolls into view.
  /** @param {string} key */
  _pickFromMap(key) {
    const radio = this._radios().find((r) => r.value === key);
    if (!radio || radio.disabled) return;
    radio.checked = true;
    this._choose(key);
    radio.closest('label')?.scrollIntoView({ block: 'nearest' });
  }

  /** The selected drop_point_key, or ''. (A form submits the signed point under the name, this key under `<name>_key`.) */
  get value() {
    return this._value;
  }

  /** @param {string | null | undefined} v */
  set value(v) {
    this._value = v || '';
    this._chosenFp = this._value && this.selected ? this._listFp : '';
    this._reflect();
    for (const r of this._radios()) r.checked = r.value === this._value;
  }

  /**
   * An element of the shadow root that render() relies on.
   * @param {string} sel
   * @returns {HTMLElement}
   */
  _q(sel) {
    return /** @type {HTMLElement} */ (this._root.querySelector(sel));
  }

  /** @returns {HTMLInputElement[]} */
  _radios() {
    return /** @type {HTMLInputElement[]} */ ([...this._root.querySelectorAll('input[type=radio]')]);
  }

  /**
   * The date used for "open today" and "open now" (default: the clock).
   * @returns {Date | null}
   */
  get today() {
    return this._today;
  }

  /** @param {Date | null} d */
  set today(d) {
    this._today = d instanceof Date ? d : null;
    if (this._rendered) this.render();
  }

  /** The drop points of the last answer (every carrier), nearest first when distances are known. */
  get dropPoints() {
    return this._points.map((p) => ({ ...p }));
  }

  /** The selected drop point or null. */
  get selected() {
    return this._visible().find((p) => p.drop_point_key === this._value) || null;
  }

  /** The chosen point's signed point ('' when none, or when the edge signs none). */
  get point() {
    const p = this.selected;
    return p ? p.point : '';
  }

  /**
   * The offer of the chosen service (set by the form's <pg-rate-selector> on its pg-change, or
   * by the page): with a drop-point offer only its carrier's points are listed, and a point is
   * kept only when it is of that carrier and was listed near the offer's destination.
   */
  get offer() {
    return this._offer;
  }

  /** @param {string} v */
  set offer(v) {
    const offer = typeof v === 'string' ? v : '';
    if (offer === this._offer) return;
    this._offer = offer;
    const f = offerFacts(offer);
    this._offerFacts = f && f.dp === '1' ? f : null;
    if (!this._rendered) return;
    this.render();
    const p = this._value ? this._points.find((x) => x.drop_point_key === this._value) : null;
    if (p && !this._fits(p)) this._clearWith('mismatch');
    else this._keepOrClear();
  }

  // Whether a point goes with the chosen drop-point offer: its carrier, and
  // (when signed) listed near the offer's destination, as the edge checks a booking.
  /** @param {DropPoint} p */
  _fits(p) {
    const f = this._offerFacts;
    if (!f) return true;
    if (p.carrier_code !== f.c) return false;
    const near = offerFacts(p.point);
    return !near || (near.cc === f.tc && near.z === f.tz);
  }

  // The form submits the chosen point's signed point as its value (its key under <name>_key).
  _signedValue() {
    return this.point;
  }

  _carrier() {
    if (this._offerFacts) return this._offerFacts.c;
    return this._filter !== null ? this._filter : (this.getAttribute('carrier') || '').trim();
  }

  // What a list is for: the country and postal code ('' without one).
  _fp() {
    const zip = (this.getAttribute('zip-code') || '').trim().toUpperCase().replace(/\s+/g, ' ');
    return zip ? `${(this.getAttribute('country') || 'ES').trim().toUpperCase()}|${zip}` : '';
  }

  // ---- a choice that survives a reload, and never goes stale unseen ----------

  /**
   * What is kept of the chosen point: its key, its signed point and the postal code it was listed near.
   * @param {DropPoint} p
   * @returns {SavedPoint}
   */
  _saved(p) {
    return { fp: this._chosenFp, key: p.drop_point_key, point: p.point };
  }

  // After the first list (or a form restore): a saved point comes back when
  // it is for this very postal code, unexpired, still listed and fits the
  // chosen offer.
  _restore() {
    const saved = /** @type {SavedPoint | null} */ (this._takeSaved());
    if (!saved || this._value || saved.fp !== this._listFp || (saved.point && expired(saved.point))) return;
    const want = saved;
    const p = this._visible().find((x) => x.drop_point_key === want.key);
    if (!p || !this._fits(p)) return;
    this.value = saved.key;
    this._announce(p);
    this._remember();
  }

  _requote() {
    const p = this.selected;
    if (!p) {
      this._requoted(false);
      return;
    }
    this._held = { name: p.name || p.drop_point_key };
    this._setAlert(null);
    this.refresh();
  }

  // The fresh list of a held submit: the same point with its new signature, or cleared, said.
  _resume() {
    const held = this._held;
    this._held = null;
    const p = this.selected;
    if (!held) return;
    if (!p || !this._fits(p)) {
      this._clearWith('gone', { name: held.name });
      this._requoted(false);
      this._radios()[0]?.focus(); // the shopper chooses again here (the sentence is read out)
      return;
    }
    this._chosenFp = this._listFp;
    this._announce(p);
    this._remember();
    this._requoted(true);
  }

  _fetch() {
    const country = (this.getAttribute('country') || 'ES').trim().toUpperCase();
    const zip = (this.getAttribute('zip-code') || '').trim();
    const fp = this._fp();
    // Another postal code: the point chosen near the old one is cleared at once, visibly.
    if (this._value && this._chosenFp && this._chosenFp !== fp) {
      if (this._held) {
        this._held = null;
        this._requoted(false);
      }
      this._clearWith('changed');
    }
    return this._cycle({
      idle: () => (zip ? null : () => this.t('missing')),
      reset: () => {
        this._points = [];
      },
      settle: () => {
        if (this._state === 'idle') this._keepOrClear();
      },
      /**
       * @param {import('../client.js').Client} client
       * @param {unknown} core
       * @param {AbortSignal} signal
       */
      load: async (client, core, signal) => {
        const [points, carriers] = await Promise.allSettled([
          client.call('get-drop-points', { country_code: country, zip_code: zip }, this._callOptions(signal)),
          this._names.size ? Promise.resolve(null) : client.call('get-client-carriers', {}, this._callOptions(signal)),
        ]);
        if (points.status === 'rejected') throw points.reason;
        return { points: points.value, carriers };
      },
      /**
       * @param {{points: any, carriers: PromiseSettledResult<any>}} result
       * @param {any} core
       */
      done: ({ points, carriers }, core) => {
        if (carriers.status === 'fulfilled' && carriers.value) this._names = carrierNames(carriers.value);
        /** @type {{city: string, lat: number, lon: number} | null} */
        let here = null;
        if (core && typeof core.locate === 'function') {
          try {
            here = core.locate(country, zip);
          } catch {
            here = null;
          }
        }
        const list = points && Array.isArray(points.drop_points) ? points.drop_points : [];
        this._points = list.filter(Boolean).map((/** @type {any} */ p) => normalize(p, here));
        if (here) this._points.sort((a, b) => (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity));
        this._here = here;
        this._state = this._points.length ? 'ready' : 'empty';
        this._message = '';
        this._listFp = fp;
        this.render();
        emit(this, 'pg-load', { dropPoints: this.dropPoints });
        if (this._held) this._resume();
        else {
          this._restore();
          this._keepOrClear(true);
        }
      },
    });
  }

  /** @param {any} err */
  _fail(err) {
    if (this._held) {
      this._held = null;
      this._requoted(false);
    }
    this._failed(err);
    this._points = [];
    this.render();
    emit(this, 'pg-error', { error: err });
    this._keepOrClear();
  }

  _visible() {
    const c = this._carrier();
    return c ? this._points.filter((p) => p.carrier_code === c) : this._points;
  }

  /** @param {string} k */
  _choose(k) {
    if (k === this._value) return;
    this._value = k;
    this._chosenFp = this._listFp;
    this._setAlert(null);
    this._reflect();
    const point = this.selected;
    if (point && !this._fits(point)) {
      this._clearWith('mismatch');
      return;
    }
    this._lastSelected = point;
    this._announce(point);
    this._remember();
    if (point && typeof this.onPick === 'function') this.onPick({ ...point });
  }

  // Keep the selection while it is still listed, else clear it (pg-select
  // null; after a fresh list of the same place, with a sentence saying so).
  // A value set before the first list (a preset, a restored form) waits for it.
  /** @param {boolean} [fresh] a new answer (not a filter change) */
  _keepOrClear(fresh) {
    if (!this._value || this._state === 'loading') return;
    const now = this.selected;
    if (now) {
      if (!this._chosenFp) this._chosenFp = this._listFp;
      this._lastSelected = now;
      return;
    }
    if (this._state === 'idle' && !this._loadedOnce) return;
    const before = this._lastSelected;
    if (fresh && before) {
      this._clearWith('gone', { name: before.name || before.drop_point_key });
      return;
    }
    this._lastSelected = null;
    this._chosenFp = '';
    this._forget();
    this._clearSelection();
  }

  render() {
    if (!this._rendered) return;
    const root = this._root;
    const list = this._q('.pg-list');
    const status = this._q('.pg-status');
    list.setAttribute('aria-busy', String(this._state === 'loading'));
    this.setAttribute('data-state', this._state);
    this._q('.pg-filter label').textContent = this.t('carrier');
    this._q('legend').textContent = this.t('legend');
    this._renderAlert();
    if (this._state === 'ready' || this._state === 'empty') this._loadedOnce = true;
    if (this._state === 'loading') {
      this._renderStatus(status);
      return;
    }
    // The carrier filter lists the carriers present in the answer.
    const filterBox = this._q('.pg-filter');
    const select = /** @type {HTMLSelectElement} */ (this._q('select'));
    const codes = [...new Set(this._points.map((p) => p.carrier_code))].sort();
    const current = this._carrier();
    if (current && !codes.includes(current)) codes.push(current);
    select.innerHTML =
      `<option value="">${esc(this.t('allCarriers'))}</option>` +
      codes.map((c) => `<option value="${esc(c)}"${c === current ? ' selected' : ''}>${esc(this._names.get(c) || c)}</option>`).join('');
    // A drop-point offer names the carrier: no other carrier to choose.
    filterBox.hidden = this._points.length === 0 || !!this._offerFacts;

    const shown = this._visible();
    if (this._state === 'ready' || this._state === 'empty') {
      this._message =
        shown.length === 0 ? this.t(this._points.length ? 'emptyFiltered' : 'empty') : this.t('loaded', { count: shown.length });
    }
    this._renderStatus(status);
    const locale = this.intlLocale;

    const now = this._today || new Date();
    const day = DAYS[now.getDay()];
    const minutes = now.getHours() * 60 + now.getMinutes();
    const active = root.activeElement;
    const focused = active instanceof HTMLInputElement ? active.value : '';
    list.innerHTML = shown
      .map((p) => {
        const id = `${this._name}-${p.drop_point_key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
        const hours = todayHours(p.time_table, day);
        const open = hours && hours.some(([a, b]) => minutes >= a && minutes < b);
        const allDay = hours && hours.length === 1 && hours[0][0] === 0 && hours[0][1] === 24 * 60;
        const hoursLabel = allDay
          ? this.t('openAllDay')
          : hours && this.t('openToday', { hours: formatList(hours.map(([a, b]) => formatTimeRange(a, b, locale)), locale, 'unit') });
        const hoursText = hours
          ? `<span class="pg-open" part="hours">${esc(hoursLabel)}</span>` +
            ` · <span class="${open ? 'pg-open' : 'pg-closed'}" part="open-now">${esc(this.t(open ? 'openNow' : 'closedNow'))}</span>`
          : `<span class="pg-closed" part="hours">${esc(this.t('closedToday'))}</span>`;
        const dist =
          p.distance_km === null
            ? ''
            : `<span class="pg-distance" part="distance">${esc(this.t('distance', { distance: formatKm(p.distance_km, locale), city: this._here ? this._here.city : '' }))}</span>`;
        return (
          `<li><label class="pg-option" part="option" for="${esc(id)}">` +
          `<input type="radio" id="${esc(id)}" name="${this._name}" value="${esc(p.drop_point_key)}"${p.drop_point_key === this._value ? ' checked' : ''}${this._disabledAttr}>` +
          `<span class="pg-content"><span class="pg-main"><span class="pg-title" part="name">${esc(p.name)}</span><br>` +
          `<span class="pg-sub" part="address">${esc([p.address, [p.zip_code, p.city].filter(Boolean).join(' ')].filter(Boolean).join(', '))}</span>` +
          `<span class="pg-hours">${hoursText}</span></span>` +
          `<span class="pg-right"><span class="pg-sub" part="carrier">${esc(this._names.get(p.carrier_code) || p.carrier_code)}</span><br>${dist}</span></span>` +
          `</label></li>`
        );
      })
      .join('');
    if (focused) {
      for (const r of this._radios()) if (r.value === focused) r.focus();
    }
    select.disabled = this._formDisabled;
    this._syncForm();
    this._paintMap(this._state === 'ready' ? shown : []);
  }
}

// The attributes as properties too (React 19 and Vue set props as properties when the name exists).
attributeProperties(PgDropPointPicker, ['country', 'zip-code', 'carrier', ...MAP_ATTRIBUTES], ['map']);

/** @param {unknown} v */
function num(v) {
  if (v === null || v === undefined || v === '') return NaN;
  return typeof v === 'number' ? v : Number(v);
}

// One drop point of pg-select / pg-load: coordinates as numbers, the
// distance from the postal code's location when known.
/**
 * @param {any} p
 * @param {{lat: number, lon: number} | null} here
 * @returns {DropPoint}
 */
function normalize(p, here) {
  const lat = num(p.latitude);
  const lon = num(p.longitude);
  const d = here ? distanceKm(here, { lat, lon }) : NaN;
  const tt = p.time_table && typeof p.time_table === 'object' ? p.time_table : {};
  const table = /** @type {DropPoint['time_table']} */ ({});
  for (const k of /** @type {const} */ (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])) table[k] = String(tt[k] ?? '');
  return {
    carrier_code: String(p.carrier_code ?? ''),
    drop_point_key: String(p.drop_point_key ?? ''),
    name: String(p.name ?? ''),
    address: String(p.address ?? ''),
    zip_code: String(p.zip_code ?? ''),
    city: String(p.city ?? ''),
    latitude: Number.isFinite(lat) ? lat : null,
    longitude: Number.isFinite(lon) ? lon : null,
    time_table: table,
    phone: String(p.phone ?? ''),
    distance_km: Number.isFinite(d) ? Math.round(d * 10) / 10 : null,
    // The edge's signed point: a booking may carry it as proof the edge listed this point.
    point: typeof p.point === 'string' ? p.point : '',
  };
}

// carrierNames reads get-client-carriers' data (an object keyed by code, or
// an array) into code -> name.
/**
 * @param {any} data
 * @returns {Map<string, string>}
 */
function carrierNames(data) {
  const out = new Map();
  const list = Array.isArray(data) ? data : data && typeof data === 'object' ? Object.values(data) : [];
  for (const c of list) {
    if (c && c.carrier_code) out.set(String(c.carrier_code), String(c.carrier_name || c.carrier_code));
  }
  return out;
}

// todayHours parses "HH:MM - HH:MM" (several ranges may be separated by
// commas or slashes) into minute ranges; null when closed or unreadable.
/**
 * @param {Record<string, string>} table
 * @param {string} day
 * @returns {Array<[number, number]> | null}
 */
function todayHours(table, day) {
  const s = table && table[day];
  if (!s) return null;
  /** @type {Array<[number, number]>} */
  const out = [];
  for (const part of String(s).split(/[,/;]/)) {
    const m = /^\s*(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})\s*$/.exec(part);
    if (!m) continue;
    const a = +m[1] * 60 + +m[2];
    let b = +m[3] * 60 + +m[4];
    if (b === 23 * 60 + 59) b = 24 * 60; // "00:00 - 23:59" is all day
    if (b > a) out.push([a, b]);
  }
  return out.length ? out : null;
}

