// @ts-check
// <pg-address-form>: a party address (recipient `to_*` or sender `from_*`)
// validated while typing with the WebAssembly core, i.e. with the edge's
// own rules and messages (postal code per country, lengths, phone, e-mail).
//
//   <pg-address-form prefix="to" country="ES" fields="phone email attn"></pg-address-form>
//
// Attributes: prefix (to|from), operation (default new-shipment), country
// (default country, ES), fields (optional fields to show), endpoint, lang
// (the language of the error messages; default: the nearest lang
// attribute, i.e. the document's).
// Properties: value, valid, errors; methods validate(), reset().
// Events: pg-change {value, valid, errors, field}, pg-valid {value}.

import { PgElement, attributeProperties, adoptStyles, emit, esc, uid } from './base.js';
import { countryName as displayName, intlLocale } from './i18n.js';

/** @import { FieldError } from '../../results.js' */
/** @import { OperationName } from '../../index.js' */
/** @import { Address } from '../../widgets.js' */
/** @typedef {HTMLInputElement | HTMLSelectElement} Control a field's input or select */

/**
 * Every field the form knows, in display order.
 * @type {Record<string, {label: string, autocomplete: string, select?: boolean, type?: string}>}
 */
const FIELD_DEFS = {
  name: { label: 'name', autocomplete: 'name' },
  attn: { label: 'attn', autocomplete: 'off' },
  nif: { label: 'nif', autocomplete: 'off' },
  address: { label: 'address', autocomplete: 'street-address' },
  country_code: { label: 'country_code', autocomplete: 'country', select: true },
  zip_code: { label: 'zip_code', autocomplete: 'postal-code' },
  city: { label: 'city', autocomplete: 'address-level2' },
  phone: { label: 'phone', autocomplete: 'tel', type: 'tel' },
  email: { label: 'email', autocomplete: 'email', type: 'email' },
  observations: { label: 'observations', autocomplete: 'off' },
};

/** Always shown: the party fields the edge needs to deliver. */
const BASE_FIELDS = ['name', 'address', 'city', 'zip_code', 'country_code'];
/** Shown when the `fields` attribute is absent. */
const DEFAULT_FIELDS = [...BASE_FIELDS, 'phone', 'email'];
/** Required when the core (its catalog) is not loaded yet: new-shipment's rule. */
const FALLBACK_REQUIRED = ['name', 'address', 'city', 'zip_code', 'country_code'];

/**
 * Countries of the select: the spec's postal-format countries first, then
 * the rest of the European Union, then a few frequent destinations.
 */
export const COUNTRIES = [
  'ES', 'PT', 'FR', 'DE', 'IT', 'NL', 'AD',
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'GR', 'HU', 'IE', 'LV', 'LT', 'LU', 'MT', 'PL', 'RO',
  'SK', 'SI', 'SE',
  'GB', 'CH', 'NO', 'IS', 'MC', 'SM', 'GI', 'MA', 'US',
];

/**
 * English names used when Intl.DisplayNames is not available.
 * @type {Record<string, string>}
 */
const COUNTRY_NAMES = {
  ES: 'Spain', PT: 'Portugal', FR: 'France', DE: 'Germany', IT: 'Italy', NL: 'Netherlands', AD: 'Andorra',
  AT: 'Austria', BE: 'Belgium', BG: 'Bulgaria', HR: 'Croatia', CY: 'Cyprus', CZ: 'Czechia', DK: 'Denmark',
  EE: 'Estonia', FI: 'Finland', GR: 'Greece', HU: 'Hungary', IE: 'Ireland', LV: 'Latvia', LT: 'Lithuania',
  LU: 'Luxembourg', MT: 'Malta', PL: 'Poland', RO: 'Romania', SK: 'Slovakia', SI: 'Slovenia', SE: 'Sweden',
  GB: 'United Kingdom', CH: 'Switzerland', NO: 'Norway', IS: 'Iceland', MC: 'Monaco', SM: 'San Marino',
  GI: 'Gibraltar', MA: 'Morocco', US: 'United States',
};

const CSS = `
:host { container-type: inline-size; }
.pg-form { display: grid; gap: 0 var(--_gap); grid-template-columns: repeat(2, minmax(0, 1fr)); }
.pg-field { grid-column: 1 / -1; min-width: 0; }
.pg-field.pg-half { grid-column: auto; }
.pg-req { color: var(--_error); margin-left: 0.15em; }
.pg-opt { color: var(--_muted); font-weight: 400; font-size: 0.875em; margin-left: 0.3em; }
select[aria-invalid=true] { border-color: var(--_error); }
@container (max-width: 22rem) { .pg-field.pg-half { grid-column: 1 / -1; } }
`;

/** A party address form validated with the edge's rules while typing. */
export class PgAddressForm extends PgElement {
  static formAssociated = true;

  static observedAttributes = ['prefix', 'operation', 'country', 'fields', 'endpoint', 'lang'];

  /** Its texts: "address.*" of internal/i18n/ui.go (override any with the `texts` property). */
  static part = 'address';

  constructor() {
    super();
    adoptStyles(this._root, CSS);
    /** @type {Record<string, string>} */
    this._values = {}; // suffix -> raw text
    /** @type {Set<string>} */
    this._touched = new Set(); // suffixes whose errors are shown even when empty
    /** @type {Record<string, FieldError[]>} */
    this._fieldErrors = {}; // suffix -> [{field, code, message}]
    /** @type {Record<string, string>} */
    this._ids = {};
    this._wasValid = false;
    this._coreReady = false;
    this._countryChosen = false;
    this._formDisabled = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._announceTimer = undefined;
    this._lastAnnounced = '';
    this._internals = typeof this.attachInternals === 'function' ? this.attachInternals() : null;
    this._onInput = (/** @type {Event} */ ev) => this._handle(ev, false);
    this._onBlur = (/** @type {Event} */ ev) => this._handle(ev, true);
    this._onKey = (/** @type {KeyboardEvent} */ ev) => {
      // Enter inside the widget never submits anything by itself.
      if (ev.key === 'Enter' && ev.target instanceof HTMLInputElement) ev.preventDefault();
    };
  }

  _connect() {
    if (!this._rendered) {
      this.render();
      // The form's validity from the start (empty required fields), before
      // the core arrives; nothing is shown until a field is left.
      this._revalidate(null);
    }
    if (!this._coreReady) {
      this.ensureCore().then(
        () => {
          const before = this._shown().join(' ');
          this._coreReady = true;
          if (this._rendered && (this._shown().join(' ') !== before || this._requiredChanged())) this.render();
          if (this._rendered) this._revalidate(null);
          this._wasValid = this.valid;
          if (this._wasValid) emit(this, 'pg-valid', { value: this.value });
        },
        (err) => {
          // No core: the inputs keep working and the edge still validates on
          // submit, but the page is told (console, pg-error, data-core).
          this.dataset.core = 'unavailable';
          emit(this, 'pg-error', { error: this._coreError(err) });
        },
      );
    }
  }

  /**
   * @param {string} name
   * @param {string | null} oldValue
   * @param {string | null} newValue
   */
  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue || !this._rendered) return;
    if (name === 'lang') {
      this._checkLanguage();
      return;
    }
    if (name === 'country') {
      // The default country: applied while the shopper has not chosen one.
      if (!this._touched.has('country_code') && !this._countryChosen) {
        this._values.country_code = (newValue || 'ES').toUpperCase();
      }
    }
    if (name === 'endpoint') return;
    this.render();
    this._revalidate(null);
  }

  // A new language: the labels, the countries' names and order, and the
  // core's messages (validated again in the new language).
  _languageChanged() {
    if (!this._rendered) return;
    this.render();
    this._revalidate(null);
    if (this._lastAnnounced) this._lastAnnounced = '';
  }

  // ---- configuration ------------------------------------------------------

  /** "to" or "from". */
  get prefix() {
    return this.getAttribute('prefix') === 'from' ? 'from' : 'to';
  }

  /**
   * The operation whose rules apply (default new-shipment).
   * @returns {OperationName} (an attribute: another name is the core's error to report)
   */
  get operation() {
    return /** @type {OperationName} */ (this.getAttribute('operation') || 'new-shipment');
  }

  /** @param {string} suffix */
  _name(suffix) {
    return `${this.prefix}_${suffix}`;
  }

  _catalogParams() {
    const core = this._coreReady ? this.core : null;
    if (!core || typeof core.catalog !== 'function') return null;
    try {
      const op = core.catalog().operations.find((o) => o.name === this.operation);
      return op ? op.params : null;
    } catch {
      return null;
    }
  }

  /** @param {string} suffix */
  _isRequired(suffix) {
    const params = this._catalogParams();
    if (!params) return FALLBACK_REQUIRED.includes(suffix);
    const p = params.find((x) => x.name === this._name(suffix));
    return !!p && (p.need === 'required' || p.need === 'required_unless_rules');
  }

  _requiredChanged() {
    return this._shown().some((s) => {
      const el = this._input(s);
      return el && el.required !== this._isRequired(s);
    });
  }

  // The fields shown: the base ones, those of the `fields` attribute (or the
  // default set), and any the operation requires (e.g. to_phone for new-collection).
  _shown() {
    const attr = this.getAttribute('fields');
    const wanted = new Set(attr === null ? DEFAULT_FIELDS : [...BASE_FIELDS, ...attr.split(/[\s,]+/)]);
    for (const s of Object.keys(FIELD_DEFS)) if (this._isRequired(s)) wanted.add(s);
    return Object.keys(FIELD_DEFS).filter((s) => wanted.has(s));
  }

  /**
   * @param {string} suffix
   * @returns {Control | null}
   */
  _input(suffix) {
    return /** @type {Control | null} */ (this._root.getElementById(this._ids[suffix]));
  }

  // ---- rendering --------------------------------------------------------------

  render() {
    if (this._values.country_code === undefined) {
      this._values.country_code = (this.getAttribute('country') || 'ES').toUpperCase();
    }
    // An input (a select has no selectionStart) or nothing of ours.
    const focused = /** @type {HTMLInputElement | null} */ (this._root.activeElement);
    const focusedSuffix = focused && focused.dataset ? focused.dataset.field : null;
    let selection = null;
    try {
      if (focused && typeof focused.selectionStart === 'number') selection = [focused.selectionStart, focused.selectionEnd];
    } catch {
      // inputs without a selection (email in some engines)
    }
    const shown = this._shown();
    /** @type {string[]} */
    const html = [];
    for (const s of shown) {
      if (!this._ids[s]) this._ids[s] = uid(`pg-af-${s}`);
      const id = this._ids[s];
      const def = FIELD_DEFS[s];
      const label = this.t(s);
      const req = this._isRequired(s);
      const marker = req
        ? `<span class="pg-req" aria-hidden="true">*</span>`
        : `<span class="pg-opt">${esc(this.t('optional'))}</span>`;
      const half = s === 'zip_code' || s === 'city' || s === 'phone' || s === 'email';
      const described = `${id}-error${s === 'zip_code' ? ` ${id}-hint` : ''}`;
      const ac = def.autocomplete === 'off' ? 'off' : `${this.prefix === 'to' ? 'shipping' : 'billing'} ${def.autocomplete}`;
      const common = `id="${id}" name="${esc(this._name(s))}" data-field="${s}" part="input" autocomplete="${ac}" aria-describedby="${described}"${req ? ' required aria-required="true"' : ''}`;
      let control;
      if (def.select) {
        const value = this._values[s] || '';
        const locale = this.intlLocale;
        const list = sortedCountries(locale);
        const codes = list.includes(value) || value === '' ? list : [value, ...list];
        control = `<select ${common}>${codes
          .map((c) => `<option value="${esc(c)}"${c === value ? ' selected' : ''}>${esc(countryName(c, locale))}</option>`)
          .join('')}</select>`;
      } else {
        control = `<input type="${def.type || 'text'}" ${common} value="${esc(this._values[s] || '')}"${
          s === 'zip_code' ? ' spellcheck="false" autocapitalize="characters"' : ''
        }${s === 'email' ? ' spellcheck="false"' : ''}>`;
      }
      html.push(
        `<div class="pg-field${half ? ' pg-half' : ''}" part="field field-${s}">` +
          `<label for="${id}" part="label">${esc(label)}${marker}</label>${control}` +
          `<p class="pg-field-error" id="${id}-error" part="error"></p>` +
          (s === 'zip_code' ? `<p class="pg-hint" id="${id}-hint" part="hint"></p>` : '') +
          `</div>`,
      );
    }
    this._root.innerHTML =
      `<div class="pg-root pg-form" part="form">${html.join('')}</div>` +
      `<p class="pg-visually-hidden" role="status" aria-live="polite" part="live"></p>`;
    const root = /** @type {HTMLElement} */ (this._root.querySelector('.pg-form'));
    root.addEventListener('input', this._onInput);
    root.addEventListener('change', this._onInput);
    root.addEventListener('focusout', this._onBlur);
    root.addEventListener('keydown', this._onKey);
    if (this._formDisabled) for (const el of root.querySelectorAll('input, select')) /** @type {Control} */ (el).disabled = true;
    this._rendered = true;
    for (const s of shown) this._paint(s);
    const again = focusedSuffix && this._input(focusedSuffix);
    if (again) {
      again.focus();
      try {
        if (selection) /** @type {HTMLInputElement} */ (again).setSelectionRange(selection[0], selection[1]);
      } catch {
        // not a text input
      }
    }
  }

  // Writes the held values into the inputs (re-rendering only when a
  // country outside the list has to be added to the select).
  _fill() {
    for (const s of this._shown()) {
      const el = this._input(s);
      if (!el) return this.render();
      const v = this._values[s] ?? '';
      if (el.tagName === 'SELECT' && v !== '' && ![.../** @type {HTMLSelectElement} */ (el).options].some((o) => o.value === v)) return this.render();
      if (el.value !== v) el.value = v;
    }
    return undefined;
  }

  // ---- validation -------------------------------------------------------------

  _request() {
    /** @type {Record<string, string>} */
    const req = {};
    for (const s of this._shown()) {
      const v = this._values[s];
      if (v !== undefined && v !== '') req[this._name(s)] = v;
    }
    return req;
  }

  /**
   * @param {string} suffix
   * @param {Record<string, string>} request
   * @returns {FieldError[]}
   */
  _validateOne(suffix, request) {
    const core = this._coreReady ? this.core : null;
    const value = (this._values[suffix] || '').trim();
    if (!core) {
      if (value === '' && this._isRequired(suffix)) {
        return [{ field: this._name(suffix), code: 0, message: this.t('requiredMessage') }];
      }
      return [];
    }
    try {
      return core.validateField(this.operation, request, this._name(suffix), { locale: this.locale });
    } catch (err) {
      return [{ field: this._name(suffix), code: 0, message: String(err && /** @type {Error} */ (err).message) }];
    }
  }

  // Validates every shown field (each in the context of the others).
  /** @param {string | null} changed */
  _revalidate(changed) {
    const request = this._request();
    /** @type {Record<string, FieldError[]>} */
    const errs = {};
    for (const s of this._shown()) errs[s] = this._validateOne(s, request);
    this._fieldErrors = errs;
    for (const s of this._shown()) this._paint(s);
    this._syncInternals();
    return changed;
  }

  // Shows (or hides) a field's errors: a non-empty field's errors show at
  // once; an empty field's only once it was left or validate() ran.
  /** @param {string} suffix */
  _paint(suffix) {
    const el = this._input(suffix);
    if (!el) return;
    const errs = this._fieldErrors[suffix] || [];
    const empty = (this._values[suffix] || '').trim() === '';
    const visible = errs.length > 0 && (!empty || this._touched.has(suffix));
    const box = /** @type {HTMLElement} */ (this._root.getElementById(`${el.id}-error`));
    box.textContent = visible ? errs[0].message : '';
    if (visible) el.setAttribute('aria-invalid', 'true');
    else if (empty && !this._touched.has(suffix)) el.removeAttribute('aria-invalid');
    else el.setAttribute('aria-invalid', 'false');
    if (suffix === 'zip_code') this._paintHint(el, errs.length === 0 && !empty);
  }

  /**
   * @param {Control} el
   * @param {boolean} ok
   */
  _paintHint(el, ok) {
    const hint = this._root.getElementById(`${el.id}-hint`);
    if (!hint) return;
    hint.textContent = ok ? this._zipHint() : '';
  }

  _zipHint() {
    const core = this._coreReady ? this.core : null;
    const country = (this._values.country_code || '').toUpperCase();
    const zip = this._values.zip_code || '';
    if (!core || !country) return '';
    let p;
    try {
      p = core.postal(country, zip);
    } catch {
      return '';
    }
    if (!p || !p.valid) return '';
    if (country === 'ES' && p.zone) {
      const zone = this.t(`zone_${p.zone}`);
      const province = String(p.province).padStart(2, '0');
      let city = '';
      if (typeof core.locate === 'function') {
        try {
          const loc = core.locate(country, p.normalized);
          if (loc && loc.city && loc.precision !== 'country') city = loc.city;
        } catch {
          // no location: the zone and province are enough
        }
      }
      return city ? this.t('zoneProvinceCity', { zone, province, city }) : this.t('zoneProvince', { zone, province });
    }
    return this.t('normalized', { zip: p.normalized });
  }

  /**
   * @param {string} text
   * @param {number} delay ms
   */
  _announce(text, delay) {
    clearTimeout(this._announceTimer);
    const live = this._root.querySelector('[part=live]');
    if (!live) return;
    const go = () => {
      if (text === this._lastAnnounced) return;
      this._lastAnnounced = text;
      live.textContent = text;
    };
    if (delay) this._announceTimer = setTimeout(go, delay);
    else go();
  }

  /** @param {string} suffix */
  _fieldAnnouncement(suffix) {
    const el = this._input(suffix);
    if (!el) return '';
    const err = /** @type {HTMLElement} */ (this._root.getElementById(`${el.id}-error`)).textContent;
    if (err) return this.t('fieldError', { label: this.t(suffix), message: err });
    if (suffix === 'zip_code') return this._root.getElementById(`${el.id}-hint`)?.textContent || '';
    return '';
  }

  /**
   * @param {Event} ev
   * @param {boolean} blur
   */
  _handle(ev, blur) {
    const el = /** @type {Control | null} */ (ev.target);
    const suffix = el && el.dataset ? el.dataset.field : null;
    if (!el || !suffix || !FIELD_DEFS[suffix] || el !== this._input(suffix)) return; // e.g. a replaced input's late change
    if (blur) {
      this._touched.add(suffix);
      this._paint(suffix);
      const text = this._fieldAnnouncement(suffix);
      if (text) this._announce(text, 0);
      return;
    }
    const value = el.value;
    if (this._values[suffix] === value && ev.type === 'change') return;
    this._values[suffix] = value;
    if (suffix === 'country_code') {
      this._countryChosen = true;
      this._touched.add(suffix);
    }
    this._revalidate(suffix);
    this._announce(this._fieldAnnouncement(suffix), 800);
    this._changed(suffix);
  }

  /** @param {string | null} field */
  _changed(field) {
    const valid = this.valid;
    emit(this, 'pg-change', { value: this.value, valid, errors: this.errors, field: field ? this._name(field) : null });
    if (valid && !this._wasValid) emit(this, 'pg-valid', { value: this.value });
    this._wasValid = valid;
  }

  // The submitted fields (every prefixed field, normalized as `value`), the
  // raw text as the state the browser restores, and the validity: the first
  // error as validationMessage, valueMissing when that field is empty.
  _syncInternals() {
    const i = this._internals;
    if (!i) return;
    try {
      const data = new FormData();
      for (const [k, v] of Object.entries(this.value)) data.append(k, v);
      const state = new FormData();
      for (const [k, v] of Object.entries(this._values)) if (v !== undefined && v !== '') state.append(this._name(k), v);
      i.setFormValue(data, state);
      const first = this.errors[0];
      if (first) {
        const suffix = first.field.slice(this.prefix.length + 1);
        const empty = (this._values[suffix] || '').trim() === '';
        i.setValidity(
          empty ? { valueMissing: true } : { customError: true },
          this.t('fieldError', { label: this.t(suffix), message: first.message }),
          this._input(suffix) || undefined,
        );
      } else {
        i.setValidity({});
      }
    } catch {
      // ElementInternals is a convenience; the widget works without it.
    }
  }

  // ---- public API -------------------------------------------------------------

  /**
   * The address as an object of prefixed fields (`to_name`, ...): trimmed,
   * empty ones left out, the postal code normalized by the core and the
   * country in uppercase. Setting it fills the inputs (prefixed or bare
   * names) and validates; no event is emitted for a programmatic set.
   * @returns {Address}
   */
  get value() {
    /** @type {Address} */
    const out = {};
    const core = this._coreReady ? this.core : null;
    for (const s of this._shown()) {
      let v = (this._values[s] ?? '').trim();
      if (v === '') continue;
      if (s === 'country_code') v = v.toUpperCase();
      if (s === 'zip_code' && core) {
        try {
          const p = core.postal((this._values.country_code || '').toUpperCase(), v);
          if (p && p.valid) v = p.normalized;
        } catch {
          // keep the text as typed
        }
      }
      out[this._name(s)] = v;
    }
    return out;
  }

  /** @param {Record<string, unknown> | null | undefined} obj */
  set value(obj) {
    obj = obj || {};
    for (const s of Object.keys(FIELD_DEFS)) {
      const v = obj[this._name(s)] ?? obj[s];
      if (v !== undefined && v !== null) this._values[s] = String(v);
    }
    if (obj[this._name('country_code')] || obj.country_code) this._countryChosen = true;
    if (this._rendered) {
      this._fill();
      this._revalidate(null);
    }
    this._wasValid = this.valid;
  }

  /** Whether every field passes the edge's rules (false until the core is loaded). */
  get valid() {
    return this._coreReady && this.errors.length === 0;
  }

  /**
   * Every current error, `[{field, code, message}]`, in display order (shown or not yet).
   * @returns {FieldError[]}
   */
  get errors() {
    if (!this._rendered) return [];
    /** @type {FieldError[]} */
    const out = [];
    for (const s of this._shown()) out.push(...(this._fieldErrors[s] || []));
    return out;
  }

  /**
   * Validates every field, shows every error (empty required fields
   * included), focuses the first invalid field and returns whether the
   * form is valid. Before the core is loaded only required fields are
   * checked (and false is returned when one is empty).
   */
  validate() {
    if (!this._rendered) this.render();
    for (const s of this._shown()) this._touched.add(s);
    this._revalidate(null);
    const errors = this.errors;
    if (errors.length > 0) {
      const suffix = errors[0].field.slice(this.prefix.length + 1);
      this._input(suffix)?.focus();
      this._announce(this.t('invalid', { count: errors.length }), 0);
      this._lastAnnounced = '';
      return false;
    }
    return true;
  }

  /** Empties the form (back to the default country) and hides every error. */
  reset() {
    this._values = { country_code: (this.getAttribute('country') || 'ES').toUpperCase() };
    this._touched.clear();
    this._countryChosen = false;
    this._lastAnnounced = '';
    if (this._rendered) {
      this._fill();
      this._revalidate(null);
    }
    this._wasValid = this.valid;
  }

  /** Resets with the enclosing form. */
  formResetCallback() {
    this.reset();
  }

  /** The browser restores the form (history navigation, reload): the typed fields come back. */
  /** @param {FormData | string | null} state */
  formStateRestoreCallback(state) {
    if (!state || typeof state === 'string' || typeof state.entries !== 'function') return;
    this.value = Object.fromEntries(state.entries());
  }

  /** A disabled fieldset around the form disables its fields. */
  /** @param {boolean} disabled */
  formDisabledCallback(disabled) {
    this._formDisabled = !!disabled;
    for (const el of this._root.querySelectorAll('input, select')) /** @type {Control} */ (el).disabled = this._formDisabled;
  }

  /** The form the element belongs to, or null. */
  get form() {
    return this._internals ? this._internals.form : null;
  }

  /** The element's ValidityState (valueMissing: a required field is empty; customError: a field breaks a rule). */
  get validity() {
    return this._internals ? this._internals.validity : undefined;
  }

  /** The first error as the browser shows it ("Postal code: …"), or ''. */
  get validationMessage() {
    return this._internals ? this._internals.validationMessage : '';
  }

  /** Whether the form validates the element. */
  get willValidate() {
    return this._internals ? this._internals.willValidate : false;
  }

  /** As a form control's checkValidity(): no message shown (validate() shows every error). */
  checkValidity() {
    return this._internals ? this._internals.checkValidity() : this.errors.length === 0;
  }

  /** As a form control's reportValidity(): the browser's message at the first invalid field. */
  reportValidity() {
    return this._internals ? this._internals.reportValidity() : this.validate();
  }
}

// The attributes as properties too (React 19 and Vue set props as properties when the name exists).
attributeProperties(PgAddressForm, ['prefix', 'operation', 'country', 'fields']);

/** @type {Map<string, string[]>} */
const sorted = new Map();

// The select's order: the spec's postal-format countries as listed, then
// the others by name in the page's language.
/** @param {string} locale */
function sortedCountries(locale) {
  let list = sorted.get(locale);
  if (!list) {
    const head = COUNTRIES.slice(0, 7);
    const rest = COUNTRIES.slice(7).sort((a, b) => countryName(a, locale).localeCompare(countryName(b, locale), locale));
    list = [...head, ...rest];
    sorted.set(locale, list);
  }
  return list;
}

// A country's name in the locale; the English table without Intl.DisplayNames.
/**
 * @param {string} code
 * @param {string} locale
 */
function countryName(code, locale) {
  const n = displayName(code, locale || intlLocale(''));
  return n !== code ? n : COUNTRY_NAMES[code] || code;
}
