// @ts-check
// The map beside <pg-drop-point-picker>'s list: loaded only when the picker
// has the `map` attribute (the picker imports this module on demand, so a
// page without a map fetches none of it). It draws with Leaflet, which the
// shop provides (see the picker's mapLibrary): this package neither bundles
// Leaflet nor picks a tile provider.
//
// The list stays the way to choose: markers are not tab stops (the map's
// only tab stops are its zoom buttons), a marker click chooses the same
// drop point as its radio, and a failure of the library or of every tile
// hides the map and leaves the list as it was.

/** @import { Leaflet, LatLng, Marker } from './leaflet.js' */
/** @typedef {{drop_point_key: string, name: string, latitude: number | null, longitude: number | null}} MapPoint a listed point */

/** The page's window.L, when a script defined it. */
const pageLeaflet = () => /** @type {{L?: unknown}} */ (/** @type {unknown} */ (globalThis)).L;

/**
 * Leaflet, once per URL it was loaded from.
 * @type {Map<string, Promise<unknown>>}
 */
const scripts = new Map();

/**
 * Leaflet from what the shop configured: the Leaflet namespace itself, a
 * function returning it or a promise of it (e.g. `() => import('leaflet')`
 * with a bundler), or a URL: Leaflet's `dist/leaflet.js` (a classic script
 * that defines `window.L`) or an ES module build (`.mjs` or `.esm.js`).
 * Without any, a `window.L` already on the page. Rejects when what it gets
 * is not Leaflet.
 * @param {unknown} source
 * @returns {Promise<Leaflet>}
 */
export async function loadLeaflet(source) {
  /** @type {unknown} */
  let lib = source ?? pageLeaflet();
  if (typeof lib === 'function' && typeof /** @type {{map?: unknown}} */ (lib).map !== 'function') lib = await lib();
  if (typeof lib === 'string' || lib instanceof URL) lib = await loadUrl(String(lib));
  const ns = /** @type {{map?: unknown, default?: unknown} | null | undefined} */ (lib);
  if (ns && typeof ns.map !== 'function' && ns.default) lib = ns.default;
  for (const f of ['map', 'tileLayer', 'marker', 'divIcon', 'latLngBounds']) {
    if (!lib || typeof /** @type {Record<string, unknown>} */ (lib)[f] !== 'function') throw new Error(`pg-drop-point-picker: the map library is not Leaflet (no ${f}())`);
  }
  return /** @type {Leaflet} */ (lib);
}

/**
 * @param {string} url
 * @returns {Promise<unknown>}
 */
function loadUrl(url) {
  const abs = new URL(url, document.baseURI).href;
  if (/\.mjs(\?|#|$)|\.esm\.js(\?|#|$)/.test(abs)) {
    return import(/* @vite-ignore */ /* webpackIgnore: true */ abs);
  }
  if (!scripts.has(abs)) {
    const p = new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = abs;
      s.async = true;
      s.onload = () => (pageLeaflet() ? resolve(pageLeaflet()) : reject(new Error(`pg-drop-point-picker: ${abs} did not define window.L`)));
      s.onerror = () => {
        scripts.delete(abs); // a later attempt may succeed
        s.remove();
        reject(new Error(`pg-drop-point-picker: the map library could not be loaded from ${abs}`));
      };
      document.head.append(s);
    });
    scripts.set(abs, p);
  }
  return /** @type {Promise<unknown>} */ (scripts.get(abs));
}

/** Styles of the map inside the picker's shadow root (Leaflet's own come from leaflet.css). */
export const MAP_CSS = `
.pg-map .leaflet-pane, .pg-map .leaflet-tile, .pg-map .leaflet-marker-icon, .pg-map .leaflet-tile-container,
.pg-map .leaflet-layer { position: absolute; left: 0; top: 0; }
.pg-map .leaflet-tile { max-width: none; visibility: hidden; }
.pg-map .leaflet-tile-loaded { visibility: inherit; }
.pg-marker {
  box-sizing: border-box; border-radius: 50%; background: var(--_surface);
  border: 4px solid var(--_accent); box-shadow: 0 1px 3px rgb(0 0 0 / 0.45); cursor: pointer;
}
.pg-marker.pg-marker-selected { background: var(--_accent); border-color: var(--pg-text, #1d2330); }
`;

/**
 * Draws the map in container and returns its controller:
 * {show(points, selectedKey), select(key), destroy()}.
 * options: library (see loadLeaflet), tiles (URL template), attribution
 * (HTML), texts {zoomIn, zoomOut}, onPick(key) (a marker was clicked),
 * onFail(error) (the tiles failed: none loaded, some failed).
 * @param {HTMLElement} container
 * @param {{library?: unknown, tiles: string, attribution: string, texts: {zoomIn: string, zoomOut: string},
 *   onPick(key: string): void, onFail(error: Error): void}} options
 */
export async function createMap(container, options) {
  const L = await loadLeaflet(options.library);
  const map = L.map(container, {
    zoomControl: false,
    keyboard: false, // the list is the keyboard's way; the map is no tab stop of its own
    scrollWheelZoom: false, // the page scrolls over the map
    dragging: !(L.Browser && L.Browser.mobile), // one finger scrolls the page on a phone; two zoom
    tap: false,
  });
  map.attributionControl.setPrefix(false);
  L.control.zoom({ zoomInTitle: options.texts.zoomIn, zoomOutTitle: options.texts.zoomOut }).addTo(map);
  const layer = L.tileLayer(options.tiles, { attribution: options.attribution, maxZoom: 19 });
  let loaded = 0;
  let failed = 0;
  layer.on('tileload', () => {
    loaded += 1;
  });
  layer.on('tileerror', () => {
    failed += 1;
  });
  // 'load' fires once every visible tile has settled, failed ones included.
  // (Reported after Leaflet's own 'load' handling: the map may be removed then.)
  layer.on('load', () => {
    if (loaded === 0 && failed > 0) {
      const err = new Error(`pg-drop-point-picker: no map tile could be loaded (${failed} failed) from ${options.tiles}`);
      setTimeout(() => options.onFail(err), 0);
    }
  });
  layer.addTo(map);

  /** @type {Map<string, Marker>} */
  const markers = new Map(); // drop_point_key -> marker
  let selected = '';
  const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => map.invalidateSize()) : null;
  if (resize) resize.observe(container);

  const paint = (/** @type {string} */ key, /** @type {Marker} */ marker) => {
    const on = key === selected;
    const el = marker.getElement();
    if (el) el.classList.toggle('pg-marker-selected', on);
    marker.setZIndexOffset(on ? 1000 : 0);
  };

  return {
    /**
     * Shows these points' markers (those with coordinates) and fits the view to them.
     * @param {MapPoint[]} points
     * @param {string | null | undefined} selectedKey
     */
    show(points, selectedKey) {
      for (const m of markers.values()) m.remove();
      markers.clear();
      selected = selectedKey || '';
      const located = points.filter((p) => p.latitude !== null && p.longitude !== null);
      const where = located.map((p) => /** @type {LatLng} */ ([p.latitude, p.longitude]));
      // The view first: Leaflet adds markers only to a map that has one.
      map.invalidateSize();
      if (where.length === 1) map.setView(where[0], 15);
      else if (where.length > 1) map.fitBounds(L.latLngBounds(where), { padding: [24, 24], maxZoom: 15 });
      located.forEach((p, i) => {
        const marker = L.marker(where[i], {
          icon: L.divIcon({ className: 'pg-marker', html: '', iconSize: [22, 22], iconAnchor: [11, 11] }),
          keyboard: false,
          title: p.name,
          riseOnHover: true,
        });
        marker.on('click', () => options.onPick(p.drop_point_key));
        marker.on('add', () => {
          // The list already says all of it to assistive technology.
          marker.getElement()?.setAttribute('aria-hidden', 'true');
          paint(p.drop_point_key, marker);
        });
        markers.set(p.drop_point_key, marker);
        marker.addTo(map);
      });
      return where.length;
    },
    /**
     * Marks the chosen point's marker and brings it into view.
     * @param {string | null | undefined} key
     */
    select(key) {
      selected = key || '';
      for (const [k, m] of markers) paint(k, m);
      const m = markers.get(selected);
      if (m && !map.getBounds().contains(m.getLatLng())) map.panTo(m.getLatLng());
    },
    destroy() {
      if (resize) resize.disconnect();
      map.remove();
    },
  };
}
