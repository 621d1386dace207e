// @parcelgate/js/widgets: the drop-in checkout widgets as standard custom
// elements. Importing this module (or loading it with one
// <script type="module">) registers all four; each file also works alone.
//
//   <pg-address-form>       a party address validated while typing
//   <pg-rate-selector>      services with price and arrival, cheapest/fastest marked
//   <pg-drop-point-picker>  drop points near a postal code, hours today, distance
//   <pg-tracking-timeline>  current state and history of a shipment
//
// See the README ("Checkout widgets").

export { PgElement, THEME_VARIABLES } from './base.js';
export { PgAddressForm } from './address-form.js';
export { PgRateSelector } from './rate-selector.js';
export { PgDropPointPicker } from './drop-point-picker.js';
export { PgTrackingTimeline } from './tracking-timeline.js';
