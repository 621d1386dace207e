// @ts-check
// <pg-rate-selector>: the services for a route with price and estimated
// arrival, the cheapest and the fastest marked, one chosen with native
// radios (arrow keys move and select).
//
//   <pg-rate-selector from-country="ES" from-zip="28014" to-country="ES" to-zip="08001"></pg-rate-selector>
//   <script type="module">
//     const rates = document.querySelector('pg-rate-selector');
//     rates.parcels = [{ parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }];
//     rates.addEventListener('pg-select', (e) => console.log(e.detail.service));
//   </script>
//
// With `order-value` (the cart's value) the edge applies the shop's prices
// (PRICING_RULES: internal/pricing/README.md, "Shipping prices"): a free service
// shows "Free" in the shopper's language, a renamed one the shop's name.
//
// It calls get-shipments-rates and get-shipment-time-arrival-estimation in
// parallel (public operations, no token) and joins them by
// carrier_code + service_code.

import { SelectableList, attributeProperties, adoptStyles, emit, esc, uid } from './base.js';
import { formatList } from './i18n.js';
import { expired } from './offer-facts.js';

/** @typedef {import('../../widgets.js').RateService} RateService */
/** @typedef {import('../../widgets.js').Parcel} Parcel */
/** @typedef {{fp: string, key: string, price: number | null, currency: string, offer: string}} SavedChoice */

const INPUTS = ['from-country', 'from-zip', 'to-country', 'to-zip', 'shipping-date'];

const CSS = `
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
/* Loading: the previous options stay readable (no fading: contrast stays
   at WCAG AA) and are marked as stale by dashed borders. */
.pg-list[aria-busy=true] { cursor: progress; }
.pg-list[aria-busy=true] .pg-option { border-style: dashed; }
.pg-price { font-weight: 600; }
.pg-arrival { display: block; color: var(--_muted); font-size: 0.875em; }
.pg-note { display: inline-block; margin-top: 0.15rem; font-size: 0.8125em; color: var(--_muted); }
.pg-notice { color: var(--_muted); font-size: 0.875em; margin: 0.25rem 0 0; }
`;

/**
 * Rate selector: services for a route, cheapest and fastest marked.
 * @extends {SelectableList<RateService>}
 */
export class PgRateSelector extends SelectableList {
  static observedAttributes = [...INPUTS, 'order-value', 'carrier', 'filter', 'value', 'endpoint', 'parcels', 'lang', ...SelectableList.formAttributes];

  /** Its texts: "rates.*" of internal/i18n/ui.go (override any with the `texts` property). */
  static part = 'rates';


  constructor() {
    super('service');
    adoptStyles(this._root, CSS);
    /** @type {Parcel[] | null} */
    this._parcels = null;
    /** @type {RateService[]} joined services of the last successful fetch */
    this._all = [];
    this._notice = '';
    this._name = uid('pg-rate');
    this._loadedOnce = false;
    /** @type {RateService | null} */
    this._lastSelected = null;
    /** @type {{key: string, price: number | null, currency: string, name: string} | null} a held submit's choice */
    this._held = null;
    /** @type {((ev: Event) => void) | null} */
    this._onPoint = null;
    /** @param {Event} ev */
    this._onChange = (ev) => {
      const input = ev.target;
      if (!(input instanceof HTMLInputElement) || input.type !== 'radio') return;
      this._choose(input.value);
    };
  }

  _connect() {
    if (!this._rendered) {
      this._root.innerHTML =
        `<div class="pg-root" part="root">` +
        `<p class="pg-alert" part="alert" aria-live="polite" aria-atomic="true"></p>` +
        `<fieldset><legend class="pg-visually-hidden">${esc(this.t('legend'))}</legend>` +
        `<ul class="pg-list" part="list" aria-busy="false"></ul></fieldset>` +
        `<p class="pg-notice" part="notice" hidden></p>` +
        `<p class="pg-status" part="status" role="status" aria-live="polite"></p>` +
        `</div>`;
      this._q('.pg-list').addEventListener('change', this._onChange);
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
      if (this._reflecting) return;
      this._setValue(newValue || '', false);
      return;
    }
    if (name === 'name' || name === 'required') {
      this._syncForm();
      return;
    }
    if (name === 'parcels') {
      try {
        this._parcels = newValue ? JSON.parse(newValue) : null;
      } catch {
        this._parcels = null;
      }
    }
    if (name === 'carrier' || name === 'filter') {
      if (this._rendered) this.render();
      this._keepOrClear();
      return;
    }
    this._schedule();
  }

  // ---- inputs ---------------------------------------------------------------

  /**
   * The parcels (array of {parcel_weight, parcel_width, parcel_height, parcel_length, parcel_volume}).
   * @returns {Parcel[] | null}
   */
  get parcels() {
    return this._parcels;
  }

  /**
   * An array, or the `parcels` attribute's JSON (set as the attribute, as React and Vue pass a string).
   * @param {Parcel[] | string | null} list
   */
  set parcels(list) {
    if (typeof list === 'string') {
      // attributeChangedCallback parses it, unless the attribute already had this text.
      if (this.getAttribute('parcels') !== list) {
        this.setAttribute('parcels', list);
        return;
      }
      this.attributeChangedCallback('parcels', null, list);
      return;
    }
    this._parcels = Array.isArray(list) ? list.map((p) => ({ ...p })) : null;
    this._schedule();
  }

  /** The cart's value (`order-value`), sent as order_value for the shop's prices ('' for none). */
  get orderValue() {
    return (this.getAttribute('order-value') || '').trim();
  }

  set orderValue(v) {
    if (v === null || v === undefined || v === '') this.removeAttribute('order-value');
    else this.setAttribute('order-value', String(v));
  }

  /** The dispatch date: the `shipping-date` attribute or the next working day (Mon-Fri). */
  get shippingDate() {
    return this.getAttribute('shipping-date') || nextWorkingDay(new Date());
  }

  /**
   * The selected `carrier_code/service_code`, or ''. (A form submits the chosen offer under the
   * name, and this key under `<name>_key`.)
   */
  get value() {
    return this._value;
  }

  set value(v) {
    this._setValue(v || '', false);
  }

  /** The chosen service's signed offer ('' when none, or when the edge signs none). */
  get offer() {
    const s = this.selected;
    return s ? s.offer : '';
  }

  /** The selected service (as in pg-select's detail), or null. */
  get selected() {
    return this._visible().find((s) => key(s) === this._value) || null;
  }

  /** Every service of the last successful fetch (before `filter` and `carrier`). */
  get services() {
    return this._all.map((s) => ({ ...s }));
  }

  /**
   * Focuses the selected option, else the first.
   * @param {FocusOptions} [options]
   */
  focus(options) {
    const radio =
      this._root.querySelector('input[type=radio]:checked') || this._root.querySelector('input[type=radio]');
    if (radio instanceof HTMLElement) radio.focus(options);
    else super.focus(options);
  }

  /**
   * An element of the shadow root that render() relies on.
   * @param {string} sel
   * @returns {HTMLElement}
   */
  _q(sel) {
    return /** @type {HTMLElement} */ (this._root.querySelector(sel));
  }

  _missing() {
    const out = [];
    for (const a of ['from-country', 'from-zip', 'to-country', 'to-zip']) {
      if (!(this.getAttribute(a) || '').trim()) out.push(a);
    }
    if (!Array.isArray(this._parcels) || this._parcels.length === 0) out.push('parcels');
    return out;
  }

  // What a quote is for: the route and the parcels, as this widget asks
  // them ('' while incomplete). A choice belongs to the request it was
  // quoted for: another route or other parcels clear it.
  _fp() {
    if (this._missing().length) return '';
    /** @param {string} name */
    const a = (name) => (this.getAttribute(name) || '').trim().toUpperCase().replace(/\s+/g, ' ');
    /** @param {unknown} v */
    const n = (v) => (num(v) === null ? String(v ?? '') : String(num(v)));
    const parcels = (this._parcels || []).map((p) => PARCEL.map((k) => n(p && /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (p))[k])).join('*')).join(',');
    return [a('from-country'), a('from-zip'), a('to-country'), a('to-zip'), parcels].join('|');
  }

  // ---- fetching -------------------------------------------------------------

  _fetch() {
    const fp = this._fp();
    // The address or the parcels changed: the offer no longer matches. Cleared at once, visibly.
    if (this._value && this._chosenFp && this._chosenFp !== fp) {
      if (this._held) {
        this._held = null;
        this._requoted(false);
      }
      this._clearWith('changed');
    }
    return this._cycle({
      idle: () => {
        const missing = this._missing();
        return missing.length
          ? () => this.t('missing', { list: formatList(missing.map((m) => this.t(`missing-${m}`)), this.intlLocale) })
          : null;
      },
      reset: () => {
        this._notice = '';
        this._all = [];
      },
      /**
       * @param {import('../client.js').Client} client
       * @param {unknown} core
       * @param {AbortSignal} signal
       */
      load: async (client, core, signal) => {
        /** @param {string} name */
        const attr = (name) => (this.getAttribute(name) || '').trim();
        const route = {
          from_country_code: attr('from-country'),
          from_zip_code: attr('from-zip'),
          to_country_code: attr('to-country'),
          to_zip_code: attr('to-zip'),
        };
        const [rates, estimation] = await Promise.allSettled([
          client.call('get-shipments-rates', { ...route, parcels: this._parcels || [] }, this._rateOptions(signal)),
          client.call('get-shipment-time-arrival-estimation', { ...route, shipping_date: this.shippingDate }, this._callOptions(signal)),
        ]);
        if (rates.status === 'rejected') throw rates.reason;
        return { rates: rates.value, estimation };
      },
      /** @param {{rates: any, estimation: PromiseSettledResult<any>}} result */
      done: ({ rates, estimation }) => {
        /** @type {Map<string, any>} */
        const estimates = new Map();
        let estimationOk = false;
        if (estimation.status === 'fulfilled') {
          const list = estimation.value && Array.isArray(estimation.value.services) ? estimation.value.services : null;
          // An answer without a list of services is no estimate (the notice says so).
          if (list) {
            estimationOk = true;
            for (const e of list) if (e) estimates.set(key(e), e);
          }
        }
        const services = (rates && Array.isArray(rates.services) ? rates.services : [])
          .filter(Boolean)
          .map((/** @type {any} */ r) => normalize(r, estimates.get(key(r))));
        sortServices(services);
        this._all = services;
        this._notice = estimationOk ? '' : 'estimationFailed';
        if (!estimationOk) console.warn('[parcelgate] pg-rate-selector: no arrival estimates', estimation.status === 'rejected' ? estimation.reason : estimation.value);
        this._state = services.length ? 'ready' : 'empty';
        this._message = '';
        this._listFp = fp;
        this.render();
        emit(this, 'pg-load', { services: this.services });
        if (this._held) this._resume();
        else {
          this._restore();
          this._keepOrClear(true);
        }
      },
      settle: () => {
        if (this._state === 'idle') this._keepOrClear();
      },
    });
  }

  // The rates call's options: the cart's value for the edge's pricing
  // rules (an edge-only parameter: not validated as an upstream field).
  /** @param {AbortSignal} signal */
  _rateOptions(signal) {
    const o = this._callOptions(signal);
    const v = this.orderValue;
    return v ? { ...o, orderValue: v } : o;
  }

  /** @param {any} err */
  _fail(err) {
    if (this._held) {
      this._held = null;
      this._requoted(false);
    }
    this._failed(err);
    this._all = [];
    this._notice = '';
    this.render();
    emit(this, 'pg-error', { error: err });
    this._keepOrClear();
  }

  // ---- selection ------------------------------------------------------------

  _visible() {
    const filter = this.getAttribute('filter');
    const carrier = (this.getAttribute('carrier') || '').trim();
    return this._all.filter(
      (s) =>
        (filter === 'drop-point' ? s.is_drop_point : filter === 'home' ? !s.is_drop_point : true) &&
        (!carrier || s.carrier_code === carrier),
    );
  }

  /** @param {string} k */
  _choose(k) {
    if (k === this._value) return;
    this._value = k;
    this._chosenFp = this._listFp;
    this._setAlert(null);
    this._reflect();
    this._lastSelected = this.selected;
    this._announce(this.selected);
    this._remember();
  }

  // ---- a choice that survives a reload, and never goes stale unseen ----------

  /**
   * @param {RateService} s
   * @returns {SavedChoice}
   */
  _saved(s) {
    return { fp: this._chosenFp, key: key(s), price: s.price, currency: s.currency, offer: s.offer };
  }

  // After the first list (or a form restore): brings back a saved choice
  // when it is for this very route and parcels, its offer has not expired,
  // and the fresh quote offers the same service at the same price. Anything
  // else is dropped: a choice is never restored across another address.
  _restore() {
    const saved = /** @type {SavedChoice | null} */ (this._takeSaved());
    if (!saved || this._value || saved.fp !== this._listFp || (saved.offer && expired(saved.offer))) return;
    const want = saved;
    const s = this._visible().find((x) => key(x) === want.key);
    if (!s || s.price !== want.price || s.currency !== want.currency) return;
    this._setValue(saved.key, false);
    this._chosenFp = this._listFp;
    this._announce(s);
    this._remember();
  }

  _requote() {
    const s = this.selected;
    if (!s) {
      this._requoted(false);
      return;
    }
    this._held = { key: key(s), price: s.price, currency: s.currency, name: s.service_name || s.service_code };
    this._setAlert(null);
    this.refresh();
  }

  // The fresh quote of a held submit: the same service at the same price
  // is chosen again with its new offer and the form goes on; a new price is
  // shown and said, and the shopper submits again; a service gone is cleared.
  _resume() {
    const held = this._held;
    this._held = null;
    const now = this.selected;
    if (!held) return;
    if (!now) {
      this._clearWith('gone', { service: held.name });
      this._requoted(false);
      this.focus(); // the shopper chooses again here (the sentence is read out)
      return;
    }
    this._chosenFp = this._listFp;
    this._lastSelected = now;
    this._announce(now);
    this._remember();
    const same = now.price === held.price && now.currency === held.currency;
    if (!same) this._priceChanged(held, now);
    this._requoted(same);
    if (!same) this.focus(); // on the choice at its new price, as a browser focuses an invalid field
  }

  /**
   * @param {{price: number | null, currency: string}} before
   * @param {RateService} now
   */
  _priceChanged(before, now) {
    this._setAlert('priceChanged', {
      service: now.service_name || now.service_code,
      old: this._price(before.price, before.currency),
      price: this._price(now.price, now.currency),
    });
  }

  /**
   * @param {number | null} amount
   * @param {string} currency
   */
  _price(amount, currency) {
    return amount === 0 ? this.t('free') : this.money(amount, currency);
  }

  connectedCallback() {
    super.connectedCallback();
    // A drop-point service needs a point: the form stays invalid until its
    // drop-point picker has one (the picker's pg-select re-checks).
    if (!this._onPoint) {
      /** @param {Event} ev */
      this._onPoint = (ev) => {
        if (ev.target instanceof Element && ev.target.localName === 'pg-drop-point-picker') this._syncForm();
      };
    }
    this.ownerDocument.addEventListener('pg-select', this._onPoint);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    if (this._onPoint) this.ownerDocument.removeEventListener('pg-select', this._onPoint);
  }

  // valueMissing (rates.pointRequired, in the shopper's language) while the
  // chosen service delivers to a drop point and the form's picker has none
  // (a `required` picker says so itself: one message, where the value lacks).
  _syncForm() {
    super._syncForm();
    const i = this._internals;
    const s = i && this._value ? this.selected : null;
    if (!s || !s.is_drop_point) return;
    const picker = this.form ? this.form.querySelector('pg-drop-point-picker') : null;
    if (!i || !picker || /** @type {any} */ (picker).value || picker.hasAttribute('required')) return;
    try {
      const anchor = this._root.querySelector('input[type=radio]:checked');
      i.setValidity({ valueMissing: true }, this.t('pointRequired'), anchor instanceof HTMLElement ? anchor : undefined);
    } catch {
      // ElementInternals is a convenience; the widget works without it.
    }
  }

  // The form submits the chosen service's offer as its value (its key under <name>_key).
  _signedValue() {
    return this.offer;
  }

  // pg-select {service}, then pg-change {value, offer, price, currency}:
  // what a form or a framework binds (offer '' and price null when none).
  /** @param {RateService | null} entry */
  _announce(entry) {
    super._announce(entry);
    emit(this, 'pg-change', {
      value: entry ? key(entry) : '',
      offer: entry ? entry.offer : '',
      price: entry ? entry.price : null,
      currency: entry ? entry.currency : '',
    });
  }

  /**
   * @param {string} v
   * @param {boolean} emitEvent
   */
  _setValue(v, emitEvent) {
    this._value = v;
    this._chosenFp = v && this._visible().some((s) => key(s) === v) ? this._listFp : '';
    this._reflect();
    for (const r of this._root.querySelectorAll('input[type=radio]')) if (r instanceof HTMLInputElement) r.checked = !!v && r.value === v;
    this._lastSelected = this.selected;
    if (emitEvent) this._announce(this.selected);
  }

  // After new results or a filter change: keep the selection when still
  // offered (announcing it again when its price or date changed), else
  // clear it and emit pg-select {service: null}.
  /** @param {boolean} [fresh] a new answer (not a filter change) */
  _keepOrClear(fresh) {
    if (!this._value) {
      this._lastSelected = null;
      return;
    }
    // While loading, the old list stays on screen and the selection with it.
    if (this._state === 'loading') return;
    const now = this.selected;
    if (!now) {
      if (this._state === 'idle' && !this._loadedOnce) return; // a preset value waits for the first list
      const before = this._lastSelected;
      // A fresh quote of the same request without the chosen service: said, not silent.
      if (fresh && before) this._clearWith('gone', { service: before.service_name || before.service_code });
      else {
        this._lastSelected = null;
        this._chosenFp = '';
        this._forget();
        this._clearSelection();
      }
      return;
    }
    const before = this._lastSelected;
    this._lastSelected = now;
    if (!this._chosenFp) this._chosenFp = this._listFp; // a preset value, now listed
    if (fresh && before && (before.price !== now.price || before.estimated_delivery_date !== now.estimated_delivery_date)) {
      this._announce(now);
      this._remember();
      if (before.price !== now.price || before.currency !== now.currency) this._priceChanged(before, now);
    }
  }

  // ---- rendering ------------------------------------------------------------

  render() {
    if (!this._rendered) return;
    const list = this._q('.pg-list');
    const status = this._q('.pg-status');
    const notice = this._q('.pg-notice');
    this._q('legend').textContent = this.t('legend');
    this._renderAlert();
    if (this._state === 'ready' || this._state === 'empty') this._loadedOnce = true;
    list.setAttribute('aria-busy', String(this._state === 'loading'));
    this.toggleAttribute('data-loading', this._state === 'loading');
    this.setAttribute('data-state', this._state);
    if (this._state === 'loading') {
      this._renderStatus(status);
      return; // keep the previous options readable while loading (dashed borders mark them stale)
    }
    notice.hidden = !this._notice;
    notice.textContent = this._notice ? this.t(this._notice) : '';
    const shown = this._visible();
    if (this._state === 'ready' || this._state === 'empty') {
      this._message =
        shown.length === 0 ? this.t(this._all.length ? 'emptyFiltered' : 'empty') : this.t('loaded', { count: shown.length });
    }
    this._renderStatus(status);

    const cheapest = minKeys(shown, (s) => (Number.isFinite(s.price) ? s.price : null));
    const fastest = minKeys(shown, (s) => s.estimated_delivery_date || null);
    const active = this._root.activeElement;
    const focusedKey = active instanceof HTMLInputElement ? active.value : '';
    list.innerHTML = shown
      .map((s) => {
        const k = key(s);
        const id = `${this._name}-${k.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
        const badges =
          (cheapest.has(k) ? `<span class="pg-badge pg-cheapest" part="badge badge-cheapest">${esc(this.t('cheapest'))}</span>` : '') +
          (fastest.has(k) ? `<span class="pg-badge pg-fastest" part="badge badge-fastest">${esc(this.t('fastest'))}</span>` : '');
        const arrival = s.estimated_delivery_date
          ? this.t('arrival', { date: this.date(s.estimated_delivery_date) })
          : this.t('arrivalUnknown');
        return (
          `<li><label class="pg-option" part="option" for="${esc(id)}" data-key="${esc(k)}">` +
          `<input type="radio" id="${esc(id)}" name="${this._name}" value="${esc(k)}"${k === this._value ? ' checked' : ''}${this._disabledAttr}>` +
          `<span class="pg-content"><span class="pg-main"><span class="pg-title" part="service">${esc(s.service_name || s.service_code)}</span>${badges}<br>` +
          `<span class="pg-sub" part="carrier">${esc(s.carrier_name || s.carrier_code)}</span>` +
          (s.is_drop_point ? `<br><span class="pg-note" part="drop-point">${esc(this.t('dropPoint'))}</span>` : '') +
          `</span>` +
          `<span class="pg-right"><span class="pg-price${s.price === 0 ? ' pg-free' : ''}" part="price">${esc(s.price === 0 ? this.t('free') : this.money(s.price, s.currency))}</span>` +
          `<span class="pg-arrival" part="arrival">${esc(arrival)}</span></span></span>` +
          `</label></li>`
        );
      })
      .join('');
    if (focusedKey) /** @type {HTMLElement | null} */ (list.querySelector(`input[value="${cssEscape(focusedKey)}"]`))?.focus();
    this._syncForm();
  }
}

// The attributes as properties too (React 19 and Vue set props as properties when the name exists).
attributeProperties(PgRateSelector, [...INPUTS, 'carrier', 'filter']);

const PARCEL = ['parcel_weight', 'parcel_width', 'parcel_height', 'parcel_length', 'parcel_volume'];

/** @param {{carrier_code?: unknown, service_code?: unknown}} s */
function key(s) {
  return `${s.carrier_code}/${s.service_code}`;
}

/** @param {unknown} v */
function flag(v) {
  return v === true || v === 1 || v === '1' || v === 'true';
}

/**
 * @param {unknown} v
 * @returns {number | null}
 */
function num(v) {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

// One service of pg-select / pg-load: the rate joined with its estimate;
// numbers as numbers whether or not the core decoded the answer.
/**
 * @param {any} rate
 * @param {any} est
 * @returns {RateService}
 */
function normalize(rate, est) {
  return {
    carrier_code: String(rate.carrier_code ?? ''),
    carrier_name: String(rate.carrier_name ?? ''),
    service_code: String(rate.service_code ?? ''),
    service_name: String(rate.service_name ?? ''),
    service_type: String(rate.service_type ?? ''),
    // A number whenever the edge answered one (the typings promise it); null only for a broken answer.
    price: /** @type {number} */ (num(rate.price)),
    currency: String(rate.currency || 'EUR'),
    is_drop_point: flag(rate.is_drop_point),
    estimated_delivery_date: est && est.estimated_delivery_date ? String(est.estimated_delivery_date) : '',
    transit_hours: est ? num(est.transit_hours) : null,
    // The edge's signed offer for this service and price ('' when the edge signs none).
    offer: typeof rate.offer === 'string' ? rate.offer : '',
  };
}

// Cheapest first; equal prices: earliest arrival, then names.
/** @param {RateService[]} list */
function sortServices(list) {
  list.sort((a, b) => {
    const pa = a.price ?? Infinity;
    const pb = b.price ?? Infinity;
    if (pa !== pb) return pa - pb;
    const da = a.estimated_delivery_date || '9999';
    const db = b.estimated_delivery_date || '9999';
    if (da !== db) return da < db ? -1 : 1;
    return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  });
}

// The keys of every service sharing the lowest measure (null: not ranked).
/**
 * @template M
 * @param {RateService[]} list
 * @param {(s: RateService) => M | null} measure
 */
function minKeys(list, measure) {
  /** @type {M | null} */
  let best = null;
  for (const s of list) {
    const m = measure(s);
    if (m !== null && m !== undefined && (best === null || best === undefined || m < best)) best = m;
  }
  const out = new Set();
  if (best === null || best === undefined) return out;
  for (const s of list) if (measure(s) === best) out.add(key(s));
  return out;
}

/** @param {string} s */
function cssEscape(s) {
  return globalThis.CSS && typeof globalThis.CSS.escape === 'function'
    ? globalThis.CSS.escape(s)
    : String(s).replace(/["\\]/g, '\\$&');
}

/** The next working day (Mon-Fri) after date, as YYYY-MM-DD in local time. */
/** @param {Date} date */
export function nextWorkingDay(date) {
  const d = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);
  while (d.getDay() === 0 || d.getDay() === 6) d.setDate(d.getDate() + 1);
  const p = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}
