// Types of @parcelgate/js/widgets/rate-selector (the class, registers nothing) and
// @parcelgate/js/widgets/rate-selector-define (registers <pg-rate-selector> and exports the same class).
export { PgRateSelector, type RateService, type Parcel, type PgElement } from '../../widgets.js';
