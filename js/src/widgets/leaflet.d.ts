// The part of Leaflet that drop-point-map.js uses, for make test-types only (no module loads this
// file): the shop provides Leaflet (the picker's mapLibrary), so the package carries no Leaflet
// typings, and loadLeaflet checks at run time that the library has these functions.

/** [latitude, longitude] in degrees. */
export type LatLng = [number, number];

export interface Layer {
  on(type: string, listener: () => void): void;
  addTo(map: LeafletMap): void;
}

export interface Marker extends Layer {
  remove(): void;
  getElement(): HTMLElement | undefined;
  setZIndexOffset(offset: number): void;
  getLatLng(): unknown;
}

export interface LeafletMap {
  attributionControl: { setPrefix(prefix: false): void };
  invalidateSize(): void;
  setView(at: LatLng, zoom: number): void;
  fitBounds(bounds: unknown, options: object): void;
  getBounds(): { contains(at: unknown): boolean };
  panTo(at: unknown): void;
  remove(): void;
}

export interface Leaflet {
  map(el: HTMLElement, options: object): LeafletMap;
  tileLayer(url: string, options: object): Layer;
  marker(at: LatLng, options: object): Marker;
  divIcon(options: object): unknown;
  latLngBounds(at: LatLng[]): unknown;
  control: { zoom(options: object): { addTo(map: LeafletMap): void } };
  Browser?: { mobile?: boolean };
}
