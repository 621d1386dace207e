// @ts-check
// @parcelgate/js/widgets/define: registers the four checkout widgets
// (<pg-address-form>, <pg-rate-selector>, <pg-drop-point-picker>,
// <pg-tracking-timeline>) and exports their classes. Each widget also has
// its own define module (e.g. ./rate-selector-define.js), and its class
// module (./rate-selector.js) registers nothing. Where there is no custom
// element registry (Node, SSR) importing it registers nothing and throws
// nothing.

export { PgAddressForm } from './address-form-define.js';
export { PgRateSelector } from './rate-selector-define.js';
export { PgDropPointPicker } from './drop-point-picker-define.js';
export { PgTrackingTimeline } from './tracking-timeline-define.js';
export { PgElement, THEME_VARIABLES, setTexts, LANGUAGES } from './base.js';
