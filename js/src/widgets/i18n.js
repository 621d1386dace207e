// @ts-check
// The widgets' texts in the shopper's language, and the Intl formatting of
// everything else they show. The texts are generated from the one table in
// internal/i18n/ui.go (strings/<lang>.js, `make generate`): English is
// bundled, another language is fetched the first time a page needs it
// (about 2 KB gzip), so a page never carries seven languages.
//
// A widget's language is its own `lang` attribute, else the nearest
// ancestor's, else the document's; a language outside the table gets
// English (texts and Intl alike, so a page never mixes two languages).

import en from './strings/en.js';

/** @import { PluralCategory } from '../../widgets.js' */
/**
 * A text: a string, or one per Intl.PluralRules category (a plural text).
 * @typedef {string | Partial<Record<PluralCategory, string>>} Text
 */
/** @typedef {Record<string, Text>} Texts a language's texts by full key ("rates.cheapest") */

/** The languages of the table, in its order. */
export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl'];

// Literal dynamic imports, so bundlers split each language into its own chunk.
/** @type {Record<string, () => Promise<{default: Texts}>>} */
const LOADERS = {
  es: () => import('./strings/es.js'),
  pt: () => import('./strings/pt.js'),
  fr: () => import('./strings/fr.js'),
  de: () => import('./strings/de.js'),
  it: () => import('./strings/it.js'),
  nl: () => import('./strings/nl.js'),
};

/** @type {Record<string, Texts>} */
const tables = { en };
/** @type {Record<string, Promise<Texts>>} */
const pending = {};
/** @type {Record<string, Texts>} */
const overrides = {};

/**
 * The table language of a BCP 47 tag ("es-ES" -> "es"); "en" for any other.
 * @param {unknown} tag
 * @returns {string}
 */
export function language(tag) {
  const primary = String(tag || '').trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(primary) ? primary : 'en';
}

/**
 * The locale Intl formats with: the tag itself for a table language, else "en".
 * @param {unknown} tag
 * @returns {string}
 */
export function intlLocale(tag) {
  const t = String(tag || '').trim().replace(/_/g, '-');
  const primary = t.toLowerCase().split('-')[0];
  if (!LANGUAGES.includes(primary)) return 'en';
  try {
    return Intl.getCanonicalLocales(t)[0] || primary;
  } catch {
    return primary;
  }
}

/**
 * The texts of a language when loaded (English always), else null.
 * @param {string} lang
 * @returns {Texts | null}
 */
export function strings(lang) {
  return tables[language(lang)] || null;
}

/**
 * Loads a language's texts (resolves at once when loaded; English on failure).
 * @param {string} lang
 * @returns {Promise<Texts>}
 */
export function loadStrings(lang) {
  const l = language(lang);
  if (tables[l]) return Promise.resolve(tables[l]);
  if (!pending[l]) {
    pending[l] = LOADERS[l]()
      .then((m) => (tables[l] = m.default))
      .catch((err) => {
        console.error(`[parcelgate] the ${l} texts did not load; English is shown`, err);
        return (tables[l] = en);
      });
  }
  return pending[l];
}

/**
 * Replaces texts for every widget of the page: setTexts('es', {'rates.cheapest': 'Precio mínimo'}).
 * Keys are the table's ("<part>.<name>"); a plural text is a string or an
 * object per Intl.PluralRules category. A widget's `texts` property wins
 * over these.
 * @type {typeof import('../../widgets.js').setTexts}
 */
export function setTexts(lang, texts) {
  const l = language(lang);
  overrides[l] = { ...(overrides[l] || {}), ...(texts || {}) };
}

/**
 * The raw entry of key in lang (override, table, English), or undefined.
 * @param {string} lang
 * @param {string} key
 * @returns {Text | undefined}
 */
export function entry(lang, key) {
  const l = language(lang);
  const o = overrides[l];
  if (o && o[key] !== undefined) return o[key];
  const t = tables[l];
  if (t && t[key] !== undefined) return t[key];
  return /** @type {Texts} */ (en)[key];
}

/** @type {Map<string, Intl.PluralRules>} */
const plurals = new Map();
/** @type {Map<string, Intl.NumberFormat>} */
const numbers = new Map();

/**
 * @template V
 * @param {Map<string, V>} map
 * @param {string} key
 * @param {() => V} make
 * @returns {V}
 */
function cached(map, key, make) {
  let v = map.get(key);
  if (!v) {
    v = make();
    map.set(key, v);
  }
  return v;
}

/**
 * The plural form of a text for count (a string or {one, other, ...}).
 * @template {Text | null | undefined} T
 * @param {T} value
 * @param {number} count
 * @param {string} locale
 * @returns {string | Exclude<T, object>}
 */
export function pluralForm(value, count, locale) {
  if (value === null || typeof value !== 'object') return /** @type {Exclude<T, object>} */ (value);
  /** @type {string} */
  let cat = 'other';
  try {
    cat = cached(plurals, locale, () => new Intl.PluralRules(locale)).select(count);
  } catch {
    cat = count === 1 ? 'one' : 'other';
  }
  return value[/** @type {PluralCategory} */ (cat)] ?? value.other ?? '';
}

/**
 * Fills {name} placeholders from vars; a numeric vars.count also picks the
 * plural form and is written with Intl.NumberFormat.
 * @param {Text | null | undefined} value
 * @param {Record<string, unknown> | null | undefined} vars
 * @param {string} locale
 * @returns {string}
 */
export function fill(value, vars, locale) {
  /** @type {Text | null | undefined} */
  let s = value;
  if (vars && typeof vars.count === 'number') {
    s = pluralForm(s, vars.count, locale);
    vars = { ...vars, count: formatNumber(vars.count, locale) };
  } else if (s && typeof s === 'object') {
    s = s.other ?? '';
  }
  const text = String(s ?? '');
  const v = vars;
  return v ? text.replace(/\{(\w+)\}/g, (m, k) => (v[k] === undefined ? m : String(v[k]))) : text;
}

/**
 * A number in the locale.
 * @param {number} n
 * @param {string} locale
 * @param {Intl.NumberFormatOptions} [options]
 */
export function formatNumber(n, locale, options) {
  const key = `${locale}|${options ? JSON.stringify(options) : ''}`;
  try {
    return cached(numbers, key, () => new Intl.NumberFormat(locale, options)).format(n);
  } catch {
    return String(n);
  }
}

/**
 * A quantity with its unit ("kilometer", "kilogram", "centimeter", "second"), as Intl writes it.
 * @param {number} n
 * @param {string} unit
 * @param {string} locale
 * @param {Intl.NumberFormatOptions} [options]
 */
export function formatUnit(n, unit, locale, options = {}) {
  return formatNumber(n, locale, { style: 'unit', unit, unitDisplay: 'short', ...options });
}

/**
 * A distance in km: one decimal under 10 km, whole km above.
 * @param {number} km
 * @param {string} locale
 */
export function formatKm(km, locale) {
  return formatUnit(km, 'kilometer', locale, { maximumFractionDigits: km < 10 ? 1 : 0 });
}

/**
 * An amount with its currency.
 * @param {unknown} amount a number or a decimal string
 * @param {string | null | undefined} currency
 * @param {string} locale
 */
export function formatMoney(amount, currency, locale) {
  const n = typeof amount === 'number' ? amount : Number(amount);
  if (!Number.isFinite(n)) return String(amount ?? '');
  try {
    return formatNumber(n, locale, { style: 'currency', currency: currency || 'EUR' });
  } catch {
    return formatNumber(n, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
}

/**
 * Parses "YYYY-MM-DD[ HH:MM[:SS]]" as local time (or takes a Date); null when unreadable.
 * @param {unknown} value
 * @returns {Date | null}
 */
export function parseDate(value) {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (!value) return null;
  const m = typeof value === 'string' && /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  const d = m ? new Date(+m[1], +m[2] - 1, +m[3], +(m[4] || 0), +(m[5] || 0), +(m[6] || 0)) : new Date(/** @type {string | number} */ (value));
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * A date (and time, by options) in the locale.
 * @param {unknown} value
 * @param {string | undefined} locale undefined: the browser's
 * @param {Intl.DateTimeFormatOptions} [options]
 */
export function formatDate(value, locale, options = { weekday: 'short', day: 'numeric', month: 'short' }) {
  const d = parseDate(value);
  if (!d) return String(value ?? '');
  return new Intl.DateTimeFormat(locale, options).format(d);
}

/**
 * Opening hours "from-to" (minutes after midnight; 1440 is midnight) as the locale writes a time range.
 * @param {number} from
 * @param {number} to
 * @param {string} locale
 */
export function formatTimeRange(from, to, locale) {
  const f = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' });
  const at = (/** @type {number} */ m) => new Date(2000, 0, 1, Math.floor(m / 60), m % 60);
  if (to < 24 * 60 && typeof f.formatRange === 'function') return f.formatRange(at(from), at(to));
  return `${f.format(at(from))}–${f.format(at(to))}`;
}

/**
 * A list joined as the locale joins one ("a, b y c").
 * @param {string[]} items
 * @param {string} locale
 * @param {Intl.ListFormatType} [type]
 */
export function formatList(items, locale, type = 'conjunction') {
  try {
    return new Intl.ListFormat(locale, { style: 'long', type }).format(items);
  } catch {
    return items.join(', ');
  }
}

/**
 * A country's name in the locale (Intl.DisplayNames); the code when unknown.
 * @param {string} code
 * @param {string} locale
 */
export function countryName(code, locale) {
  try {
    const n = new Intl.DisplayNames(locale, { type: 'region' }).of(code);
    if (n && n !== code) return n;
  } catch {
    // an engine without DisplayNames: the code
  }
  return code;
}
