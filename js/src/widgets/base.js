// @ts-check
// Shared plumbing of the parcelgate checkout widgets: how a widget finds
// its Client and core, the shared style sheet (themable through CSS custom
// properties), events, texts and a few small helpers. No framework, no
// runtime dependency: standard custom elements with an open shadow root.

import { Client } from '../client.js';
import { ParcelgateError } from '../errors.js';
import { load, loaded } from '../core.js';
import { expired } from './offer-facts.js';
import {
  language,
  intlLocale,
  strings,
  loadStrings,
  entry,
  fill,
  formatMoney,
  formatDate as formatDateIn,
  formatUnit,
} from './i18n.js';

export { setTexts, LANGUAGES } from './i18n.js';

/** @import { Core, TokenSource } from '../../core.js' */
/** @import { Texts } from './i18n.js' */
/**
 * A failure as the widgets read it: a ParcelgateError, or anything thrown.
 * @typedef {Partial<Pick<ParcelgateError, 'category' | 'fieldErrors' | 'retryAfter' | 'message'>> | null | undefined} Failure
 */
/**
 * A status text: a string, or a function giving it in the language of the
 * moment (a change of language re-renders it).
 * @typedef {string | (() => string)} Message
 */
/**
 * One fetch cycle of a FetchingElement (see _cycle).
 * @template R
 * @typedef {{
 *   idle(): Message | null,
 *   reset(): void,
 *   load(client: Client, core: Core, signal: AbortSignal): Promise<R>,
 *   done(result: R, core: Core): void,
 *   quiet?: boolean,
 *   settle?: () => void,
 * }} Job
 */

/**
 * Theme variables every widget reads (set them on the element or any
 * ancestor, e.g. `pg-rate-selector { --pg-accent: #0a7; }`).
 */
export const THEME_VARIABLES = [
  '--pg-font',
  '--pg-text',
  '--pg-muted',
  '--pg-bg',
  '--pg-surface',
  '--pg-border',
  '--pg-accent',
  '--pg-accent-text',
  '--pg-error',
  '--pg-ok',
  '--pg-badge-cheapest',
  '--pg-badge-fastest',
  '--pg-radius',
  '--pg-gap',
  '--pg-focus',
];

/** The style sheet shared by every widget's shadow root. */
export const BASE_CSS = `
:host {
  display: block;
  font: var(--pg-font, 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  color: var(--pg-text, #1d2330);
  --_gap: var(--pg-gap, 0.75rem);
  --_radius: var(--pg-radius, 8px);
  --_border: var(--pg-border, #ccd2dc);
  --_accent: var(--pg-accent, #2456d6);
  --_muted: var(--pg-muted, #5d6677);
  --_error: var(--pg-error, #b3261e);
  --_ok: var(--pg-ok, #1e7a3c);
  --_surface: var(--pg-surface, #ffffff);
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.pg-root { background: var(--pg-bg, transparent); }
.pg-status { color: var(--_muted); margin: 0.25rem 0; min-height: 1.45em; }
.pg-status.pg-error, .pg-field-error { color: var(--_error); }
.pg-field-error { font-size: 0.875em; min-height: 1.3em; margin: 0.15rem 0 0; }
.pg-hint { color: var(--_muted); font-size: 0.875em; margin: 0.15rem 0 0; min-height: 1.3em; }
.pg-ok { color: var(--_ok); }
/* Why a choice was cleared or changed: above the options, empty (no room) otherwise. */
.pg-alert { margin: 0; font-weight: 500; color: var(--_error); overflow-wrap: anywhere; }
.pg-alert:not(:empty) { margin: 0 0 0.5rem; padding: 0.5rem 0.75rem; border-inline-start: 3px solid var(--_error); background: var(--_surface); }
.pg-list { list-style: none; margin: 0; padding: 0; display: grid; gap: calc(var(--_gap) / 2); }
.pg-option {
  display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0.25rem 0.75rem; align-items: start;
  padding: 0.65rem 0.8rem; border: 1px solid var(--_border); border-radius: var(--_radius);
  background: var(--_surface); cursor: pointer;
}
/* Name and details, then price/arrival or carrier/distance at the end of the
   line; on a narrow widget (a phone, a sidebar) the latter wrap under the
   name instead of pushing the page sideways. (Flex wrapping, not container
   queries: Chromium 14x left a re-rendered list inside a size container
   unlaid-out, 0 px high.) */
.pg-content { display: flex; flex-wrap: wrap; gap: 0.15rem 0.75rem; min-width: 0; }
.pg-content > span { min-width: 0; overflow-wrap: anywhere; }
.pg-main { flex: 1 1 11rem; }
.pg-option:hover { border-color: var(--_accent); }
.pg-option:has(input:checked) { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
/* Touch targets of at least 24x24 px (WCAG 2.2, 2.5.8), whatever the font size. */
.pg-option input { margin: 0; width: max(24px, 1.5em); height: max(24px, 1.5em); accent-color: var(--_accent); }
.pg-option input:focus-visible { outline: 2px solid var(--pg-focus, var(--_accent)); outline-offset: 2px; }
.pg-title { font-weight: 600; }
.pg-sub { color: var(--_muted); font-size: 0.875em; }
.pg-right { flex: 0 1 auto; margin-inline-start: auto; text-align: end; }
.pg-price { white-space: nowrap; }
.pg-badge {
  display: inline-block; font-size: 0.75em; font-weight: 600; padding: 0.05rem 0.45rem; margin-left: 0.35rem;
  border-radius: 999px; color: var(--pg-accent-text, #fff); background: var(--_accent); vertical-align: 0.1em;
}
.pg-badge.pg-cheapest { background: var(--pg-badge-cheapest, #1e7a3c); }
.pg-badge.pg-fastest { background: var(--pg-badge-fastest, #8a4baf); }
label { display: block; font-weight: 500; margin-bottom: 0.2rem; }
input[type=text], input[type=email], input[type=tel], input:not([type]), select {
  font: inherit; color: inherit; width: 100%; max-width: 100%; min-height: 24px; padding: 0.45rem 0.6rem;
  border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 0.75); background: var(--_surface);
}
input:focus-visible, select:focus-visible, button:focus-visible {
  outline: 2px solid var(--pg-focus, var(--_accent)); outline-offset: 1px;
}
input[aria-invalid=true] { border-color: var(--_error); }
button {
  font: inherit; min-height: 24px; min-width: 24px; padding: 0.4rem 0.9rem; border-radius: calc(var(--_radius) * 0.75);
  border: 1px solid var(--_accent); background: var(--_accent); color: var(--pg-accent-text, #fff); cursor: pointer;
}
button[disabled] { opacity: 0.6; cursor: default; }
.pg-visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
`;

/** @type {CSSStyleSheet | null} */
let sheet = null;

/**
 * Adopts the shared sheet plus the widget's own CSS into a shadow root.
 * @param {ShadowRoot} root
 * @param {string} [css]
 */
export function adoptStyles(root, css) {
  if (typeof CSSStyleSheet === 'function' && 'adoptedStyleSheets' in root) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(BASE_CSS);
    }
    const own = new CSSStyleSheet();
    own.replaceSync(css || '');
    root.adoptedStyleSheets = [sheet, own];
    return;
  }
  const style = document.createElement('style');
  style.textContent = BASE_CSS + (css || '');
  root.appendChild(style);
}

/**
 * Escapes text for HTML.
 * @param {unknown} value
 */
export function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Dispatches a bubbling, composed CustomEvent from el and returns it.
 * @param {HTMLElement} el
 * @param {string} type
 * @param {unknown} detail
 */
export function emit(el, type, detail) {
  const ev = new CustomEvent(type, { detail, bubbles: true, composed: true });
  el.dispatchEvent(ev);
  return ev;
}

let counter = 0;
/**
 * A document-unique id for label/aria wiring.
 * @param {string} prefix
 */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

// The DOM's HTMLElement where there is one; elsewhere (Node, SSR, a
// worker) an empty class, so that importing a widget's module never touches
// the DOM: only registration (the *-define.js modules) and construction do.
// (Typed as the DOM's: a widget is constructed only where there is one.)
const ElementBase = /** @type {typeof HTMLElement} */ (globalThis.HTMLElement ?? class {});

/**
 * What every widget subclass has: render() and _rendered, set by its first render.
 * @typedef {{render?: () => void, _rendered?: boolean}} Rendering
 */

/**
 * Base class of the widgets: shadow root, client and core resolution,
 * overridable texts.
 *
 * A widget finds its Client in this order: the `client` property (a
 * configured `Client`, e.g. with a token), then a Client for the
 * `endpoint` attribute (the edge worker's URL; the page's origin when
 * absent) carrying the `token` property (a token or a function returning
 * one) when set. The core is the shared
 * one (`load()` with the package's default module) unless the `core`
 * property is set.
 */
export class PgElement extends ElementBase {
  /**
   * The widget's part of the text table (internal/i18n/ui.go): its keys
   * are "<part>.<name>", and "common.<name>" is shared by every widget.
   */
  static part = '';

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    /** @type {Client | null} */
    this._client = null;
    /** @type {Core | null} */
    this._core = null;
    /** @type {string | TokenSource} */
    this._token = '';
    /** @type {{base: string, token: string | TokenSource, client: Client} | null} */
    this._auto = null;
    /** @type {Texts | null} */
    this._texts = null;
    /** @type {string | null} */
    this._shownLocale = null;
  }

  /** The open shadow root (attached by the constructor). */
  get _root() {
    return /** @type {ShadowRoot} */ (this.shadowRoot);
  }

  /**
   * Connects once the texts of the widget's language are loaded (English
   * at once; another language on its first use), so a shopper never sees
   * a flash of English. Subclasses put their work in _connect().
   */
  connectedCallback() {
    live.add(this);
    watchLanguages();
    const go = () => {
      if (!this.isConnected) return;
      const locale = this.locale; // read again: the page may have switched while loading
      if (!strings(locale)) {
        loadStrings(locale).then(go);
        return;
      }
      this._shownLocale = locale;
      this._connect();
    };
    go();
  }

  disconnectedCallback() {
    live.delete(this);
  }

  /** What connectedCallback does once the texts are there. */
  _connect() {}

  /**
   * Called when the widget's language changed (its `lang`, an ancestor's
   * or the document's): loads the texts, then re-renders.
   */
  _checkLanguage() {
    // Before the first connect, connectedCallback picks the latest language itself.
    if (this._shownLocale === null || !this.isConnected) return;
    const locale = this.locale;
    if (locale === this._shownLocale) return;
    if (!strings(locale)) {
      loadStrings(locale).then(() => this._checkLanguage());
      return;
    }
    this._shownLocale = locale;
    this._languageChanged();
  }

  /** Re-renders in the new language (subclasses redo language-dependent work). */
  _languageChanged() {
    const w = /** @type {this & Rendering} */ (this);
    if (w._rendered && typeof w.render === 'function') w.render();
  }

  /**
   * The Client used for calls (see the class comment).
   * @returns {Client}
   */
  get client() {
    if (this._client) return this._client;
    const base = this.getAttribute('endpoint') || globalThis.location?.origin || '';
    // Kept while the endpoint and token stay the same, so a token
    // function's token is cached across calls instead of fetched per call.
    const auto = this._auto;
    if (auto && auto.base === base && auto.token === this._token) return auto.client;
    const client = new Client({ baseUrl: base, token: this._token || undefined });
    this._auto = { base, token: this._token, client };
    return client;
  }

  /** @param {Client | null | undefined} c */
  set client(c) {
    this._client = c || null;
  }

  /**
   * Scoped token for protected operations when no `client` is given, or an
   * async function that returns one (see Client's `token` option). A
   * property, never an attribute.
   */
  get token() {
    return this._token;
  }

  /** @param {string | TokenSource | null | undefined} t */
  set token(t) {
    this._token = t || '';
  }

  /**
   * The loaded core, or null until it is loaded.
   * @returns {Core | null}
   */
  get core() {
    return this._core || loaded();
  }

  /** @param {Core | null | undefined} c */
  set core(c) {
    this._core = c || null;
  }

  /**
   * Resolves the core, loading the shared one when needed.
   * @returns {Promise<Core>}
   */
  async ensureCore() {
    if (this._core) return this._core;
    return loaded() || load();
  }

  /**
   * The error for a core that could not be loaded (the wasm missing, a
   * bundler that did not emit it, a network failure): a ParcelgateError of
   * category `core_unavailable`, also written to the console, since a page
   * without its core would otherwise send unchecked requests. Widgets show it
   * and emit it as pg-error; the next refresh() (or load()) tries again.
   * @param {unknown} err
   */
  _coreError(err) {
    const error = new ParcelgateError(
      `parcelgate: <${this.localName}>: the validation module could not be loaded (${(err && /** @type {Error} */ (err).message) || err}); ` +
        'nothing is checked in the page until it loads: serve dist/parcelgate.wasm where the package expects it, or ' +
        'call configure({wasm}) before the widgets are defined (README, "Bundlers")',
      { category: 'core_unavailable', cause: err },
    );
    console.error(error.message);
    return error;
  }

  /**
   * The page's language tag for this widget: the element's own `lang`
   * attribute, else the nearest ancestor's, else the document's ("" when
   * none: English). The core's messages, the texts and Intl follow it.
   */
  get locale() {
    const el = typeof this.closest === 'function' ? this.closest('[lang]') : null;
    return (el && el.getAttribute('lang')) || globalThis.document?.documentElement?.lang || '';
  }

  /** The language of the texts: "en", "es", "pt", "fr", "de", "it" or "nl". */
  get language() {
    return language(this.locale);
  }

  /** The locale numbers, dates and units are written in (see i18n.js intlLocale). */
  get intlLocale() {
    return intlLocale(this.locale);
  }

  /**
   * The texts in use, by short key (without the part): the table's in the
   * widget's language, with the `texts` property's on top.
   */
  get texts() {
    /** @type {Texts} */
    const out = {};
    const part = /** @type {typeof PgElement} */ (this.constructor).part;
    for (const prefix of ['common.', `${part}.`]) {
      for (const k of Object.keys(/** @type {Texts} */ (strings('en')))) {
        if (k.startsWith(prefix)) out[k.slice(prefix.length)] = /** @type {import('./i18n.js').Text} */ (entry(this.locale, k));
      }
    }
    return { ...out, ...(this._texts || {}) };
  }

  /**
   * Replaces texts of this widget, by short key ({cheapest: 'Best price'}),
   * in every language; see setTexts() for page-wide texts per language.
   */
  /** @param {Texts | null | undefined} t */
  set texts(t) {
    this._texts = t || null;
    const w = /** @type {this & Rendering} */ (this);
    if (this.isConnected && w._rendered && typeof w.render === 'function') w.render();
  }

  /**
   * One text in the widget's language, {name} placeholders filled from
   * vars (a numeric vars.count picks the plural form).
   * @param {string} key
   * @param {Record<string, unknown>} [vars]
   * @returns {string}
   */
  t(key, vars) {
    const own = this._texts && this._texts[key];
    const value = own ?? entry(this.locale, `${/** @type {typeof PgElement} */ (this.constructor).part}.${key}`) ?? entry(this.locale, `common.${key}`) ?? key;
    return fill(value, vars, this.intlLocale);
  }

  /**
   * An amount with its currency, in the widget's language.
   * @param {unknown} amount
   * @param {string | null | undefined} currency
   */
  money(amount, currency) {
    return formatMoney(amount, currency, this.intlLocale);
  }

  /**
   * A date (and time, by options) in the widget's language.
   * @param {unknown} value
   * @param {Intl.DateTimeFormatOptions} [options]
   */
  date(value, options) {
    return formatDateIn(value, this.intlLocale, options);
  }
}

// `endpoint` as a property too (React 19 and Vue set props as properties when the name exists).
attributeProperties(PgElement, ['endpoint']);

// The connected widgets, re-rendered when a `lang` attribute of the page
// changes (a language switch sets the document's).
/** @type {Set<PgElement>} */
const live = new Set();
/** @type {MutationObserver | null} */
let observer = null;

function watchLanguages() {
  if (observer || typeof MutationObserver !== 'function' || !globalThis.document) return;
  observer = new MutationObserver(() => {
    for (const el of live) el._checkLanguage();
  });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
}

/** Milliseconds attribute changes are gathered before a widget fetches. */
export const DEBOUNCE_MS = 30;

/**
 * A widget that loads data from the edge: the fetch cycle every such widget
 * shares. Attribute changes are debounced (schedule), a new cycle aborts the
 * one in flight, and a sequence number drops the answers of superseded
 * cycles, so that the last request always owns the widget. State is
 * `idle` (nothing to ask), `loading`, `ready`, `empty` or `error`, mirrored
 * with the message in `_state` and `_message` for render().
 */
export class FetchingElement extends PgElement {
  constructor() {
    super();
    /** @type {'idle' | 'loading' | 'ready' | 'empty' | 'error'} */
    this._state = 'idle';
    /** @type {Message} */
    this._message = '';
    /** @type {Failure} */
    this._error = null;
    this._seq = 0;
    /** @type {AbortController | null} */
    this._ctrl = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._timer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._retryTimer = undefined;
    this._retryAt = 0;
  }

  // Every fetching widget has its own: what its fetch asks (a _cycle), how
  // a failure shows, and its markup.
  /** @returns {Promise<void> | void} */
  _fetch() {}

  /** @param {unknown} err */
  _fail(err) {}

  render() {}

  disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this._timer);
    clearTimeout(this._retryTimer);
    if (this._ctrl) this._ctrl.abort();
  }

  /** idle, loading, ready, empty or error. */
  get state() {
    return this._state;
  }

  /** Fetches again now. */
  refresh() {
    clearTimeout(this._timer);
    return this._fetch();
  }

  /** Fetches after DEBOUNCE_MS, once for a burst of changes. */
  _schedule() {
    if (!this.isConnected) return;
    clearTimeout(this._timer);
    this._timer = setTimeout(() => this._fetch(), DEBOUNCE_MS);
  }

  /**
   * Runs one fetch cycle. job.idle() returns a function giving the message
   * to show when there is nothing to ask (then job.reset() clears the
   * data), or null; job.load(client, core, signal, locale) makes the calls
   * and throws on failure; job.done(result, core) or this._fail(err) then
   * update the widget, only while this cycle is the latest. job.quiet
   * keeps the old content on screen instead of a loading state;
   * job.settle() runs after the latest cycle ends either way. Messages are
   * functions, so a change of language re-renders them.
   * @template R
   * @param {Job<R>} job
   */
  async _cycle(job) {
    const seq = ++this._seq;
    if (this._ctrl) this._ctrl.abort();
    this._ctrl = null;
    this._error = null;
    const idle = job.idle();
    if (idle !== null) {
      this._state = 'idle';
      this._message = idle;
      job.reset();
      this.render();
      if (job.settle) job.settle();
      return;
    }
    const ctrl = new AbortController();
    this._ctrl = ctrl;
    if (!job.quiet) {
      this._state = 'loading';
      this._message = () => this.t('loading');
      this.render();
    }
    try {
      // The core validates requests in the Client; wait for it so the
      // shopper gets the edge's messages before anything is sent.
      let core;
      try {
        core = await this.ensureCore();
      } catch (err) {
        throw this._coreError(err);
      }
      if (seq !== this._seq) return;
      const result = await job.load(this.client, core, ctrl.signal);
      if (seq !== this._seq) return; // a newer request owns the widget
      this._ctrl = null;
      job.done(result, core);
    } catch (err) {
      if (seq !== this._seq || (err && /** @type {Failure} */ (err)?.category === 'aborted')) return;
      this._ctrl = null;
      this._fail(err);
    } finally {
      if (seq === this._seq && job.settle) job.settle();
    }
  }

  /**
   * The options of every call: the abort signal and the widget's language (validation messages, Accept-Language).
   * @param {AbortSignal} signal
   * @returns {import('../../core.js').CallOptions}
   */
  _callOptions(signal) {
    return { signal, locale: this.locale };
  }

  /** The status text for render(). */
  _statusText() {
    const m = this._message;
    return typeof m === 'function' ? m() : m || '';
  }

  /**
   * Shows a failed load: the widget's own sentence and what the shopper can
   * do, in their language, with a retry button unless retrying cannot help
   * (invalid input, a misconfigured edge); the Client's message (for
   * developers) goes to the console and pg-error's detail, never on screen.
   * @param {Failure} err
   */
  _failed(err) {
    this._state = 'error';
    this._error = err;
    this._message = () => `${this.t('error')} ${this._errorMessage(err)}`;
    const after = err && Number(err.retryAfter) > 0 ? Number(err.retryAfter) : 0;
    this._retryAt = after ? Date.now() + after * 1000 : 0;
    console.warn(`[parcelgate] ${this.localName}: ${err && err.message}`, err);
  }

  /**
   * What the shopper reads for an error (after the widget's own sentence).
   * @param {Failure} err
   * @returns {string}
   */
  _errorMessage(err) {
    // texts.coreUnavailable: the name this text had before the table.
    if (err && err.category === 'core_unavailable' && this._texts && this._texts.coreUnavailable) return String(this._texts.coreUnavailable);
    if (err && Array.isArray(err.fieldErrors) && err.fieldErrors.length) {
      return err.fieldErrors
        .map((e) => this.t('fieldError', { label: this._fieldLabel(e.field), message: e.message }))
        .join(' ');
    }
    return this.t(`error.${shopperCategory(err)}`);
  }

  /**
   * A field's label in this widget's texts (field_<name>), else the field's name.
   * @param {string} field
   */
  _fieldLabel(field) {
    const name = /^parcels\[/.test(field) ? 'parcels' : field;
    const label = this.t(`field_${name}`);
    return label === `field_${name}` ? field : label;
  }

  /**
   * Renders the status line, and after it the retry button of an error
   * that retrying can fix: disabled with a countdown while the edge's
   * Retry-After runs, then enabled.
   * @param {HTMLElement} status
   */
  _renderStatus(status) {
    const isError = this._state === 'error';
    status.classList.toggle('pg-error', isError);
    status.setAttribute('part', isError ? 'status error' : 'status');
    const text = this._statusText();
    if (status.textContent !== text) status.textContent = text; // the same text is not announced again
    /** @type {HTMLButtonElement | null} */
    let button = /** @type {ParentNode} */ (status.parentNode).querySelector('.pg-retry');
    const retryable = isError && canRetry(this._error);
    if (!retryable) {
      clearTimeout(this._retryTimer);
      if (button) button.remove();
      return;
    }
    if (!button) {
      button = document.createElement('button');
      button.type = 'button';
      button.className = 'pg-retry';
      button.setAttribute('part', 'retry');
      button.addEventListener('click', () => {
        if (Date.now() >= this._retryAt) this.refresh();
      });
      status.after(button);
    }
    const btn = button;
    const tick = () => {
      const left = Math.ceil((this._retryAt - Date.now()) / 1000);
      clearTimeout(this._retryTimer);
      if (left > 0) {
        btn.disabled = true;
        btn.textContent = this.t('retryIn', {
          time: formatUnit(left, 'second', this.intlLocale, { unitDisplay: 'long' }),
        });
        this._retryTimer = setTimeout(tick, (this._retryAt - Date.now()) % 1000 || 1000);
      } else {
        btn.disabled = false;
        btn.textContent = this.t('retry');
      }
    };
    tick();
  }
}

// shopperCategory: the kind of failure a shopper is told about, by the
// Client's category (common.error.<kind> in the table).
/**
 * @param {Failure} err
 * @returns {string}
 */
function shopperCategory(err) {
  switch (err && err.category) {
    case 'rate_limited':
    case 'network':
    case 'timeout':
    case 'configuration':
    case 'unauthorized':
    case 'upstream_unavailable':
    case 'core_unavailable':
      return /** @type {string} */ (err?.category);
    case 'carrier_communication':
      return 'upstream_unavailable';
    default:
      return 'unknown';
  }
}

// canRetry: whether trying again can help (not with invalid input or an
// edge that is misconfigured).
/** @param {Failure} err */
function canRetry(err) {
  const c = err && err.category;
  return c !== 'validation' && c !== 'configuration';
}

// Submits held while a widget re-quotes a stale choice (an expired offer or
// point): form -> {waiting: the widgets still re-quoting, ok, submitter}.
// The form is submitted again (requestSubmit, with the same submitter) once
// every one of them has its fresh choice, unless one could not keep it (its
// price changed, it is gone): then the shopper reads why and submits again.
const holds = new WeakMap();
// Forms being submitted again by a finished hold (requestSubmit fires submit
// synchronously): let that submit through whatever the page's clock says.
const passing = new WeakSet();
const watched = new WeakSet();

// One capture listener per document, before any of the page's submit
// handlers: a submit of a form with a stale choice is held (and kept from
// the page's own handlers) until the widgets have re-quoted.
/** @param {Document | null | undefined} doc */
function watchSubmits(doc) {
  if (!doc || watched.has(doc)) return;
  watched.add(doc);
  doc.addEventListener('submit', (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement) || passing.has(form)) return;
    let hold = holds.get(form);
    if (!hold) {
      /** @type {SelectableList<unknown>[]} */
      const stale = [];
      for (const el of form.elements) if (el instanceof SelectableList && el._stale()) stale.push(el);
      if (!stale.length) return;
      hold = { waiting: new Set(stale), ok: true, submitter: ev.submitter || null };
      holds.set(form, hold);
      for (const el of stale) el._requote();
    }
    ev.preventDefault();
    ev.stopImmediatePropagation();
  }, true);
}

/**
 * A fetching widget that offers a list to choose one entry from (radio
 * inputs): the `value` attribute reflects the choice, and pg-select
 * announces it under detail[selectKey].
 *
 * It is a form-associated custom element (ElementInternals): inside a
 * <form>, the choice is submitted under the `name` attribute, `required`
 * blocks submission while nothing is chosen (with the `required` text as
 * validationMessage), a form reset clears the choice (pg-select null), the
 * browser's form restore (back/forward, reload) brings it back, and a
 * disabled fieldset disables the options.
 *
 * E is a listed entry (a rate's service, a drop point): a chooser says
 * which with `@extends {SelectableList<RateService>}`.
 * @template E
 */
export class SelectableList extends FetchingElement {
  static formAssociated = true;

  /** Attributes every selectable list observes besides its own. */
  static formAttributes = ['name', 'required'];

  /** @param {string} selectKey the member of pg-select's detail that carries the entry */
  constructor(selectKey) {
    super();
    this._selectKey = selectKey;
    this._value = '';
    this._formDisabled = false;
    this._reflecting = false;
    /** @type {E | null} the entry last announced */
    this._lastSelected = null;
    this._internals = typeof this.attachInternals === 'function' ? this.attachInternals() : null;
    /** What the last list was quoted or listed for (the chooser's fingerprint of its request). */
    this._listFp = '';
    /** What the chosen entry was listed for ('' for a preset not yet listed). */
    this._chosenFp = '';
    /** @type {Record<string, unknown> | null} a form restore's kept choice, applied to the next list */
    this._restoring = null;
    this._triedStore = false;
  }

  connectedCallback() {
    super.connectedCallback();
    watchSubmits(this.ownerDocument);
  }

  /** Writes the value to the attribute without reacting to it, and to the form. */
  _reflect() {
    this._reflecting = true;
    if (this._value) this.setAttribute('value', this._value);
    else this.removeAttribute('value');
    this._reflecting = false;
    this._syncForm();
  }

  // ---- form association -------------------------------------------------------

  /** The form the element belongs to, or null. */
  get form() {
    return this._internals ? this._internals.form : null;
  }

  /** The name the choice is submitted under (the `name` attribute). */
  get name() {
    return this.getAttribute('name') || '';
  }

  /** @param {string} v */
  set name(v) {
    this.setAttribute('name', v);
  }

  /** Whether a choice is needed to submit the form (the `required` attribute). */
  get required() {
    return this.hasAttribute('required');
  }

  /** @param {boolean} v */
  set required(v) {
    this.toggleAttribute('required', !!v);
  }

  /** The element's ValidityState (valueMissing while required and nothing is chosen). */
  get validity() {
    return this._internals ? this._internals.validity : undefined;
  }

  /** The message the browser shows when the form is submitted without a choice. */
  get validationMessage() {
    return this._internals ? this._internals.validationMessage : '';
  }

  /** Whether the form validates the element. */
  get willValidate() {
    return this._internals ? this._internals.willValidate : false;
  }

  /** As an input's checkValidity(): false (and an `invalid` event) while required and nothing is chosen. */
  checkValidity() {
    return this._internals ? this._internals.checkValidity() : true;
  }

  /** As an input's reportValidity(): also shows the message at the options. */
  reportValidity() {
    return this._internals ? this._internals.reportValidity() : true;
  }

  /** The form was reset: the choice is cleared (pg-select with null). */
  formResetCallback() {
    this._setAlert(null);
    if (!this._value) return;
    this._chosenFp = '';
    this._forget();
    this._value = '';
    this._reflect();
    for (const r of this._root.querySelectorAll('input[type=radio]')) /** @type {HTMLInputElement} */ (r).checked = false;
    this._lastSelected = null;
    this._announce(null);
  }

  /**
   * The browser restores the form (history navigation, reload): a kept choice (the chooser's
   * _saved, as JSON) is tried on the next list; a plain value comes back once listed.
   * @param {unknown} state
   */
  formStateRestoreCallback(state) {
    let saved = null;
    try {
      saved = typeof state === 'string' ? JSON.parse(state) : null;
    } catch {
      saved = null;
    }
    if (!saved || typeof saved !== 'object') {
      if (typeof state === 'string' && state) /** @type {this & {value: string}} */ (this).value = state;
      return;
    }
    this._restoring = saved;
    if (this._listFp && !this._value) this._restore();
  }

  /** A disabled fieldset around the element disables its options. */
  /** @param {boolean} disabled */
  formDisabledCallback(disabled) {
    this._formDisabled = !!disabled;
    for (const el of this._root.querySelectorAll('input, select')) /** @type {HTMLInputElement | HTMLSelectElement} */ (el).disabled = this._formDisabled;
  }

  /** ' disabled' for the options' markup while the form disables the element. */
  get _disabledAttr() {
    return this._formDisabled ? ' disabled' : '';
  }

  // The submitted value and the validity: valueMissing while required and
  // nothing is chosen, anchored at the first option (or the status line).
  _syncForm() {
    const i = this._internals;
    if (!i) return;
    try {
      i.setFormValue(this._value ? this._formValue(this._value) : null, this._value ? this._formState() : null);
      if (this.required && !this._value) {
        const anchor = /** @type {HTMLElement | undefined} */ (this._root.querySelector('input[type=radio]') || this._root.querySelector('[role=status]') || undefined);
        i.setValidity({ valueMissing: true }, this.t('required'), anchor);
      } else {
        i.setValidity({});
      }
    } catch {
      // ElementInternals is a convenience; the widget works without it.
    }
  }

  /**
   * What the form submits for the chosen value: the choice's signed string (a rate's offer, a
   * drop point's point) under the element's name, and the plain key under name_key, so the shop's
   * server receives what the edge signed as the choice itself (issue 30). A choice the edge signed
   * nothing for (an edge before offers) submits its key under the name, as before.
   * @param {string} v
   * @returns {string | FormData}
   */
  _formValue(v) {
    const signed = this._signedValue();
    if (!signed || !this.name || typeof FormData !== 'function') return v;
    const fd = new FormData();
    fd.append(this.name, signed);
    fd.append(`${this.name}_key`, v);
    return fd;
  }

  /**
   * The chosen entry's signed string ('' for none; overridden by the choosers).
   * @returns {string}
   */
  _signedValue() {
    return '';
  }

  /**
   * The state the browser keeps for a form restore (back, reload): the same facts as
   * sessionStorage's (_saved), else the value.
   * @returns {string | null}
   */
  _formState() {
    const e = this.selected;
    return e ? JSON.stringify(this._saved(e)) : this._value || null;
  }

  /**
   * The chosen entry, or null (overridden by the choosers).
   * @returns {E | null}
   */
  get selected() {
    return null;
  }

  /**
   * What is kept of a chosen entry across a reload (overridden by the choosers): its key, its
   * signed string and what it was listed for, so that _restore can tell whether it still holds.
   * @param {E} entry
   * @returns {Record<string, unknown>}
   */
  _saved(entry) {
    return { fp: this._chosenFp, entry };
  }

  /** Brings back a kept choice that still holds (overridden by the choosers that keep one). */
  _restore() {}

  /**
   * Whether the choice is stale (its signed offer or point has expired by the page's clock): a
   * submit re-quotes it first.
   * @returns {boolean}
   */
  _stale() {
    return !!this._value && !!this.selected && expired(this._signedValue());
  }

  /** Re-quotes a stale choice for a held submit; ends with _requoted(ok). */
  _requote() {
    this._requoted(false);
  }

  /**
   * A held submit's re-quote ended: ok when the choice was kept as the shopper saw it. The
   * last widget to finish submits the form again, unless one of them could not keep its choice.
   * @param {boolean} ok
   */
  _requoted(ok) {
    const form = this.form;
    const hold = form && holds.get(form);
    if (!hold || !hold.waiting.delete(this)) return;
    if (!ok) hold.ok = false;
    if (hold.waiting.size) return;
    holds.delete(form);
    if (!hold.ok) return;
    passing.add(form);
    try {
      form.requestSubmit(hold.submitter && hold.submitter.form === form ? hold.submitter : null);
    } finally {
      passing.delete(form);
    }
  }

  /**
   * Emits pg-select with the entry (null: the selection was cleared).
   * @param {E | null} entry
   */
  _announce(entry) {
    emit(this, 'pg-select', { [this._selectKey]: entry });
  }

  /** Clears the selection and announces it. */
  _clearSelection() {
    this._value = '';
    this._reflect();
    this._announce(null);
  }

  /**
   * Clears the choice and says why (the text `key` of the widget's texts, in the shopper's
   * language) in the alert line above the options, a polite live region: a choice that no
   * longer matches what is asked, or that is gone, never vanishes silently.
   * @param {string} key
   * @param {Record<string, string | number>} [vars]
   */
  _clearWith(key, vars) {
    this._lastSelected = null;
    this._chosenFp = '';
    this._forget();
    for (const r of this._root.querySelectorAll('input[type=radio]')) /** @type {HTMLInputElement} */ (r).checked = false;
    this._clearSelection();
    this._setAlert(key, vars);
  }

  /**
   * Shows (key) or removes (null) the sentence of the alert line.
   * @param {string | null} key
   * @param {Record<string, string | number>} [vars]
   */
  _setAlert(key, vars) {
    this._alertText = key ? () => this.t(key, vars) : null;
    this._renderAlert();
  }

  _renderAlert() {
    const el = this._root.querySelector('.pg-alert');
    if (!el) return;
    const text = this._alertText ? this._alertText() : '';
    if (el.textContent !== text) el.textContent = text;
  }

  /** sessionStorage's key for this widget's choice ('' without a name or id: nothing is kept). */
  _storeKey() {
    const id = this.name || this.id;
    return id ? `parcelgate:${this.localName}:${id}` : '';
  }

  /** Keeps the signed choice for a reload or Back (sessionStorage, this tab only). */
  _remember() {
    const k = this._storeKey();
    const e = this.selected;
    if (!k) return;
    try {
      if (e && this._signedValue()) sessionStorage.setItem(k, JSON.stringify(this._saved(e)));
      else sessionStorage.removeItem(k);
    } catch {
      // No storage (private mode, a sandboxed frame): the choice is not kept.
    }
  }

  /** The kept choice is dropped. */
  _forget() {
    const k = this._storeKey();
    try {
      if (k) sessionStorage.removeItem(k);
    } catch {
      // As in _remember.
    }
  }

  /**
   * The kept choice to try, once: a form restore's, else (on the first list only) sessionStorage's.
   * @returns {Record<string, unknown> | null}
   */
  _takeSaved() {
    let saved = this._restoring;
    this._restoring = null;
    if (!saved && !this._triedStore) {
      this._triedStore = true;
      try {
        const k = this._storeKey();
        saved = k ? JSON.parse(sessionStorage.getItem(k) || 'null') : null;
      } catch {
        saved = null;
      }
    }
    return saved && typeof saved === 'object' ? saved : null;
  }
}

/**
 * Gives each attribute of a widget a property of the same meaning (a dashed name camelCased:
 * `map-tiles` is mapTiles), reflected to the attribute as built-in elements do: a string sets
 * it, null or undefined removes it; a boolean attribute is present while the property is true.
 * Why: React 19 and Vue 3 set a prop as a property whenever the element has one of that name
 * (`prefix` is every Element's read-only namespace prefix), so a typed attribute must also work
 * as a property, or a framework's render throws on a getter without a setter. A getter the
 * class already has (a default, as prefix's "to") is kept; an existing setter is left alone.
 * @param {{prototype: HTMLElement}} cls
 * @param {readonly string[]} attributes
 * @param {readonly string[]} [booleans]
 */
export function attributeProperties(cls, attributes, booleans = []) {
  for (const attr of attributes) {
    const prop = attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    /** @type {PropertyDescriptor | null} */
    let found = null;
    /** @type {object | null} */
    let on = cls.prototype;
    for (; on && !found; on = found ? on : Object.getPrototypeOf(on)) found = Object.getOwnPropertyDescriptor(on, prop) || null;
    if (found && found.set) continue;
    // A getter of ours (not the DOM's, such as Element's prefix) keeps its default.
    const ours = found && on instanceof ElementBase;
    const bool = booleans.includes(attr);
    const get = (ours && found?.get) ||
      (bool ? /** @this {HTMLElement} */ function () { return this.hasAttribute(attr); } : /** @this {HTMLElement} */ function () { return this.getAttribute(attr) ?? ''; });
    const set = bool
      ? /** @this {HTMLElement} @param {unknown} v */ function (v) { this.toggleAttribute(attr, !!v); }
      : /** @this {HTMLElement} @param {unknown} v */ function (v) {
        if (v == null) this.removeAttribute(attr);
        else this.setAttribute(attr, String(v));
      };
    Object.defineProperty(cls.prototype, prop, { get, set, configurable: true, enumerable: false });
  }
}

/**
 * Registers a custom element unless the name is taken (so that loading a
 * widget twice, e.g. through the bundle and one file, is harmless). Where
 * there is no custom element registry (Node, SSR) it does nothing. Called
 * only by the *-define.js modules.
 * @param {string} name
 * @param {CustomElementConstructor} cls
 */
export function define(name, cls) {
  const registry = globalThis.customElements;
  if (registry && !registry.get(name)) registry.define(name, cls);
}

/**
 * Formats an amount with its currency (in locale; the browser's when absent).
 * @param {unknown} amount
 * @param {string | null | undefined} currency
 * @param {string} locale
 */
export function money(amount, currency, locale) {
  return formatMoney(amount, currency, locale);
}

/**
 * Formats a YYYY-MM-DD date (or a Date) for people (in locale; the browser's when absent).
 * @param {unknown} value
 * @param {Intl.DateTimeFormatOptions} [options]
 * @param {string} [locale]
 */
export function formatDate(value, options = { weekday: 'short', day: 'numeric', month: 'short' }, locale) {
  if (!value) return '';
  return formatDateIn(value, locale, options);
}

/**
 * The Client's message of an error (for developers: the console, pg-error).
 * @param {Failure} err
 */
export function errorText(err) {
  if (!err) return '';
  if (err.fieldErrors && err.fieldErrors.length) {
    return err.fieldErrors.map((e) => `${e.field}: ${e.message}`).join(' ');
  }
  return err.message || String(err);
}
