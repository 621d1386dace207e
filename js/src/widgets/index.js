// @ts-check
// @parcelgate/js/widgets: the drop-in checkout widgets as standard custom
// elements. Importing this module (or loading it with one
// <script type="module">) registers all four, as it always has: it is the
// same as @parcelgate/js/widgets/define. To import the classes without
// registering anything, import the widget's own module
// (@parcelgate/js/widgets/rate-selector, ...); to register one, its define
// module (@parcelgate/js/widgets/rate-selector-define).
//
//   <pg-address-form>       a party address validated while typing
//   <pg-rate-selector>      services with price and arrival, cheapest/fastest marked
//   <pg-drop-point-picker>  drop points near a postal code, hours today, distance
//   <pg-tracking-timeline>  current state and history of a shipment
//
// None of these modules touches the DOM when imported where there is none
// (Node, SSR). See the README ("Checkout widgets").

export * from './define.js';
