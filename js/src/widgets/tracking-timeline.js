// @ts-check
// <pg-tracking-timeline>: the current state of a shipment and its history,
// each event with its category (pre-transit, in transit, out for delivery,
// delivered, exception, returned), optionally refreshed until a final
// state.
//
//   <pg-tracking-timeline reference="SBX0000000001" poll="30"></pg-tracking-timeline>
//   <script type="module">
//     document.querySelector('pg-tracking-timeline').client = new Client({ baseUrl, token });
//   </script>
//
// get-shipment-tracking is a protected operation: give the widget a Client
// carrying a scoped token (the `client` property) or the `token` property:
// a token minted by the shop's server for this shipment, or an async
// function that fetches one (called again when the edge refuses it as
// expired). Never PROXY_TOKEN.

import { FetchingElement, attributeProperties, adoptStyles, emit, esc } from './base.js';

/** @import { Core } from '../../core.js' */
/** @import { ShipmentTracking } from '../../results.js' */
/** @import { TimelineEvent } from '../../widgets.js' */
/** @typedef {TimelineEvent & {known: boolean}} TimelineEntry an event, known: its code is in the Events table */
/** @typedef {{dlvr_ref: string} | {client_ref: string}} Query */
/**
 * An event as the answer holds it (decoded by the core, or as the edge sent it).
 * @typedef {{tracking_code?: unknown, tracking_name?: unknown, tracking_details?: unknown, tracking_date?: unknown}} RawEvent
 */

const MIN_POLL_S = 2;

const CSS = `
.pg-current { border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); padding: 0.75rem 0.9rem; margin: 0 0 0.75rem; }
.pg-current .pg-title { font-size: 1.1em; }
.pg-history { list-style: none; margin: 0; padding: 0 0 0 0.9rem; border-left: 2px solid var(--_border); display: grid; gap: 0.6rem; }
.pg-history li { position: relative; }
.pg-history li::before { content: ""; position: absolute; left: calc(-0.9rem - 6px); top: 0.45em; width: 10px; height: 10px; border-radius: 50%; background: var(--_border); }
.pg-history li:first-child::before { background: var(--_accent); }
.pg-date { color: var(--_muted); font-size: 0.875em; }
.pg-cat { display: inline-block; font-size: 0.75em; font-weight: 600; padding: 0.05rem 0.45rem; border-radius: 999px; margin-left: 0.35rem; color: #fff; background: var(--_muted); vertical-align: 0.1em; }
.pg-cat-pre_transit { background: #6b7280; }
.pg-cat-in_transit { background: var(--_accent); }
.pg-cat-out_for_delivery { background: #945a00; }
.pg-cat-delivered { background: var(--_ok); }
.pg-cat-exception { background: var(--_error); }
.pg-cat-returned { background: #7a4b8f; }
.pg-final { color: var(--_ok); font-weight: 600; font-size: 0.875em; }
`;

/** Tracking timeline of one shipment. */
export class PgTrackingTimeline extends FetchingElement {
  static observedAttributes = ['reference', 'client-ref', 'poll', 'endpoint', 'lang'];

  /**
   * Its texts: "tracking.*" of internal/i18n/ui.go (override any with the
   * `texts` property). An event is named by its code (code.01 ... code.30),
   * in the shopper's language; the carrier's tracking_name only for a code
   * outside the table.
   */
  static part = 'tracking';

  constructor() {
    super();
    adoptStyles(this._root, CSS);
    /** @type {ShipmentTracking | null} */
    this._tracking = null;
    /** @type {TimelineEntry[]} */
    this._events = [];
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._pollTimer = undefined;
    this._busy = false;
    this._lastKey = '';
    /** @type {string | undefined} the state last rendered */
    this._shown = undefined;
    /** @type {(() => string) | null | undefined} the announcement of the state shown */
    this._announced = undefined;
    this._relang = false;
  }

  _connect() {
    if (!this._rendered) {
      this._root.innerHTML =
        `<div class="pg-root" part="root">` +
        `<section class="pg-current" part="current" hidden></section>` +
        `<ol class="pg-history" part="history" aria-busy="false"></ol>` +
        `<p class="pg-status" part="status" role="status" aria-live="polite"></p>` +
        `</div>`;
      this._rendered = true;
    }
    this._schedule();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this._pollTimer);
    this._busy = false;
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
    if (name === 'poll') {
      this._armPoll();
      return;
    }
    if (name === 'reference' || name === 'client-ref') {
      this._tracking = null;
      this._events = [];
      this._lastKey = '';
    }
    this._schedule();
  }

  /** The last get-shipment-tracking data, or null. */
  get tracking() {
    return this._tracking;
  }

  /** Whether the current state is final (delivered, returned...). */
  get final() {
    const cur = this._events[0];
    return !!(cur && cur.final);
  }

  /** @returns {Query | null} */
  _query() {
    const ref = (this.getAttribute('reference') || '').trim();
    if (ref) return { dlvr_ref: ref };
    const cref = (this.getAttribute('client-ref') || '').trim();
    if (cref) return { client_ref: cref };
    return null;
  }

  _schedule() {
    clearTimeout(this._pollTimer);
    super._schedule();
  }

  // Polls after each load while connected, asked to, and not final; never
  // two requests at once.
  _armPoll() {
    clearTimeout(this._pollTimer);
    const s = Number(this.getAttribute('poll'));
    if (!this.isConnected || !Number.isFinite(s) || s <= 0 || !this._query() || this.final) return;
    if (this._state !== 'ready' && this._state !== 'empty' && this._state !== 'error') return;
    this._pollTimer = setTimeout(() => {
      if (!this._busy) this._fetch();
    }, Math.max(s, MIN_POLL_S) * 1000);
  }

  _fetch() {
    clearTimeout(this._pollTimer);
    const query = this._query();
    this._busy = !!query;
    // What load and done ask: they run only when there is a query (idle).
    const q = /** @type {Query} */ (query);
    return this._cycle({
      idle: () => (query ? null : () => this.t('missing')),
      reset: () => {
        this._tracking = null;
        this._events = [];
      },
      // Polling keeps the timeline on screen while it reloads.
      quiet: !!this._tracking,
      load: (client, core, signal) => client.call('get-shipment-tracking', q, this._callOptions(signal)),
      done: (/** @type {ShipmentTracking} */ data, /** @type {Core} */ core) => {
        this._tracking = data;
        this._events = events(data, core);
        this._state = this._events.length ? 'ready' : 'empty';
        this._message = '';
        const cur = this._events[0] || null;
        const key = cur ? `${cur.code}|${cur.date}|${this._events.length}` : '';
        const changed = key !== this._lastKey;
        this._lastKey = key;
        const reference = data.shipping_dlvr_ref || ('dlvr_ref' in q ? q.dlvr_ref : q.client_ref);
        this.render(changed && cur ? () => this.t('announce', { reference, state: this._name(cur) }) : null);
        emit(this, 'pg-tracking', { tracking: data, current: cur && withoutKnown(cur), final: this.final, changed });
      },
      settle: () => {
        this._busy = false;
        if (query) this._armPoll();
      },
    });
  }

  /** @param {unknown} err */
  _fail(err) {
    this._failed(/** @type {import('./base.js').Failure} */ (err));
    this.render();
    emit(this, 'pg-error', { error: err });
  }

  /** @param {(() => string) | null} [announce] the new state's announcement */
  render(announce) {
    if (!this._rendered) return;
    const root = this._root;
    const current = /** @type {HTMLElement} */ (root.querySelector('.pg-current'));
    const history = /** @type {HTMLElement} */ (root.querySelector('.pg-history'));
    const status = /** @type {HTMLElement} */ (root.querySelector('.pg-status'));
    this.setAttribute('data-state', this._state);
    history.setAttribute('aria-busy', String(this._state === 'loading'));
    if (this._state !== 'ready') this._shown = this._state;
    if (this._state === 'error' || this._state === 'loading' || this._state === 'idle') {
      this._renderStatus(status);
      if (this._state !== 'error') {
        current.hidden = true;
        history.innerHTML = '';
      }
      return;
    }
    if (this._state === 'empty') {
      current.hidden = true;
      history.innerHTML = '';
      this._message = () => this.t('empty');
      this._renderStatus(status);
      return;
    }
    // Only a new state is announced; polls that change nothing stay quiet.
    // A change of language says the current state again in the new one.
    if (announce || this._shown !== 'ready' || this._relang) {
      if (announce) this._announced = announce;
      else if (this._shown !== 'ready') this._announced = null; // drop an earlier error or loading text
      this._message = this._announced || '';
      this._renderStatus(status);
    }
    this._shown = 'ready';
    const cur = this._events[0];
    current.hidden = false;
    // A labelled group, not a heading: a widget cannot know the heading
    // levels of the page around it (an h3 under an h1 breaks their order).
    current.setAttribute('role', 'group');
    current.setAttribute('aria-label', this.t('current'));
    current.innerHTML =
      `<span class="pg-title" part="current-name">${esc(this._name(cur))}</span>${this._badge(cur)}` +
      (cur.final ? ` <span class="pg-final" part="final">${esc(this.t('final'))}</span>` : '') +
      `<br><span class="pg-date" part="date">${esc(this._when(cur.date))}</span>` +
      (cur.details ? `<br><span class="pg-sub" part="details">${esc(cur.details)}</span>` : '');
    history.setAttribute('aria-label', this.t('history'));
    history.innerHTML = this._events
      .map(
        (e) =>
          `<li part="event event-${esc(e.category)}"><span class="pg-date" part="date">${esc(this._when(e.date))}</span><br>` +
          `<span class="pg-title" part="event-name">${esc(this._name(e))}</span>${this._badge(e)}` +
          (e.details ? `<br><span class="pg-sub" part="details">${esc(e.details)}</span>` : '') +
          `</li>`,
      )
      .join('');
  }

  _languageChanged() {
    this._relang = true;
    try {
      if (this._rendered) this.render();
    } finally {
      this._relang = false;
    }
  }

  // The event's name in the shopper's language: the table's label of its
  // code, else the carrier's own name.
  /** @param {TimelineEntry} e */
  _name(e) {
    const key = `code.${e.code}`;
    const label = e.known ? this.t(key) : key;
    return label === key ? e.name : label;
  }

  /** @param {string} date */
  _when(date) {
    return this.date(date, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  }

  /** @param {TimelineEntry} e */
  _badge(e) {
    return `<span class="pg-cat pg-cat-${esc(e.category)}" part="category category-${esc(e.category)}">${esc(this.t(e.category))}</span>`;
  }
}

// The attributes as properties too (React 19 and Vue set props as properties when the name exists).
attributeProperties(PgTrackingTimeline, ['reference', 'client-ref', 'poll']);

// events returns the history newest first with each event's category,
// whether or not the core normalized the answer.
/**
 * @param {ShipmentTracking | null} data
 * @param {Core | null} core
 * @returns {TimelineEntry[]}
 */
function events(data, core) {
  /** @type {RawEvent[]} */
  const raw = data && Array.isArray(data.tracking_history) ? data.tracking_history.filter(Boolean) : [];
  if (raw.length === 0 && data && data.tracking_code) raw.push(data);
  const list = raw.map((e) => {
    const code = String(e.tracking_code ?? '').padStart(2, '0');
    let d = null;
    try {
      d = core && typeof core.describeTracking === 'function' ? core.describeTracking(code) : null;
    } catch {
      d = null;
    }
    return {
      code,
      name: String(e.tracking_name || (d && d.label) || code),
      details: String(e.tracking_details ?? ''),
      date: String(e.tracking_date ?? ''),
      category: d ? d.category : 'unknown',
      final: !!(d && d.final),
      known: !!d,
    };
  });
  // Newest first (the dates are "YYYY-MM-DD HH:MM:SS"; stable for equal dates).
  return list
    .map((e, i) => /** @type {[TimelineEntry, number]} */ ([e, i]))
    .sort((a, b) => (a[0].date === b[0].date ? a[1] - b[1] : a[0].date < b[0].date ? 1 : -1))
    .map(([e]) => e);
}

/**
 * The event as pg-tracking tells it (TimelineEvent).
 * @param {TimelineEntry} event
 * @returns {TimelineEvent}
 */
function withoutKnown({ known, ...e }) {
  return e;
}
